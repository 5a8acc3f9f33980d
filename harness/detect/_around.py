"""Where a later bot message stands, read once for all its candidate pairs (the duplicate
detector's per-message context: :mod:`harness.detect.duplicates` compares the pairs).

Split from the comparison loop so that each module does one thing: this one says where a pair
stands (its user window, whether it is a verbatim repeat, the screen's view of it), that one
decides it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from harness.detect._apology import ACKNOWLEDGEMENT as _ACK_WORDS
from harness.detect._candidates import Entry
from harness.detect._recaps import RECAP_TURNS, says_again
from harness.detect._screen import Screen, screen_features, user_cues
from harness.detect._users import _User, _Users
from harness.detect._wording import spelled_out
from harness.detect.acts import greeting, message_acts
from harness.detect.findings import Scope
from harness.detect.restate import ClaimMatch, Restatement
from harness.detect.scorer import PairContext
from harness.text import Analysis

__all__: list[str] = []

_ASK_TURNS = 4
"""How many turns back a user message may have asked for an answer again."""


_GREETING_WORDS = 4
"""A greeting of at least this many words, sent again or inside a later message, is a repeat
however small ("Hi!" alone is not compared that way)."""


def _verbatim(other: Entry, entry: Entry, padded: str | None = None) -> bool:
    """The earlier message, not a small one unless a greeting, stands word for word in the later
    one: an exact repeat, which only the user's asking again excuses. ``padded``: the later
    message's ``f" {norm} "``, when already made."""
    norm = other.text.norm
    if padded is None:
        padded = f" {entry.text.norm} "
    if not norm or f" {norm} " not in padded:
        return False
    return not other.small or (
        greeting(other.message.text) and len(norm.split()) >= _GREETING_WORDS
    )


_STATING = frozenset(
    {"INFORM", "INFORM_COUNT", "OFFER", "CONFIRM", "NOTIFY_SUCCESS", "NOTIFY_FAILURE"}
)
"""Acts of a message that tells the user something (the act tagger's: :mod:`.acts`)."""
_CLOSING = frozenset({"REQ_MORE", "GOODBYE"})
"""Acts of a message that only closes (offers more help, says goodbye)."""


_LOOK_UP = (
    r"(?:check(?:ing)?\b(?!\s+(?:\w+\s+)?(?:in|out)\b)|verify(?:ing)?\b|dig(?:ging)?\b|see\b"
    r"|find(?:ing)? out\b"
    r"|pull(?:ing)? (?:\w+ ){0,2}up\b|search(?:ing)?\b|fetch(?:ing)?\b"
    r"|look(?:ing)?(?: into| up(?! at)| at| for| through|(?= it\b| that\b| this\b)|(?=\s*$)))"
)
_HOLD = re.compile(
    rf"(?:{_ACK_WORDS}\b[\s,!-]*)*(?:"
    r"(?:just |please )?(?:(?:one|a|just a) (?:moment|second|sec|minute|mo)\b|hold on\b"
    r"|hang on\b|bear with (?:me|us)\b|please wait(?:\s*$|\s+while\b)"
    r"|thanks? (?:you )?for (?:waiting|your patience)\b"
    r"|give (?:me|us) (?:a|one) (?:moment|second|sec|minute)\b)"
    r"|(?:let (?:me|us)|allow me to|i(?:'ll| will|'m| am)(?: going to)?|we(?:'ll| will|'re| are)"
    rf"(?: going to)?)(?: just| now| quickly)? {_LOOK_UP}"
    rf"|{_LOOK_UP}"
    rf"|{_ACK_WORDS}[\s,!-]*$"
    r")",
    re.IGNORECASE,
)
"""The opening of a sentence that only acknowledges or holds the user while the bot looks
something up: ack words ("Sure.", "Noted.", "Got it."), a wait ("One moment ...", "Hold on"),
or a look-up under way or about to be ("Let me check ...", "Checking now.", "I'll look into
it."). Word classes, not whole lines: the act tagger reads many of them as statements
("Checking." as an offer, "Got it." as a success)."""
_SENTENCES = re.compile(r"[.!?;:\n]+")


def _holding(text: str) -> bool:
    """Whether every sentence of ``text`` only acknowledges or holds the user (:data:`_HOLD`):
    an acknowledgement or holding line, which states nothing."""
    parts = [p.strip() for p in _SENTENCES.split(text)]
    parts = [p for p in parts if p]
    return bool(parts) and all(_HOLD.match(p) for p in parts)


def _states(text: str) -> bool:
    """Whether a bot message tells the user something: not an acknowledgement or holding line
    (:func:`_holding`, read first), and by the act tagger it informs or reports an outcome and
    neither closes (offers more help, says goodbye) nor greets nor asks."""
    if "?" in text or _holding(text) or greeting(text):
        return False
    acts = message_acts(text)
    return bool(acts & _STATING) and not acts & _CLOSING


def _closes(text: str) -> bool:
    """Whether a bot message only closes, greets, acknowledges or holds the user (a closer by the
    act tagger, a greeting, or :func:`_holding`): what one turn's senders may each say once."""
    return _holding(text) or greeting(text) or bool(message_acts(text) & _CLOSING)


def _resent(other: Entry, entry: Entry, replied: bool, asked: str = "") -> bool:
    """A small message that states something ("Your card is frozen.") sent again as it was
    (contractions aside: "It is a pop song." / "It's a pop song."), unprompted: the later copy
    is not the reply to its turn's user message (``replied``: a bot message of its turn came
    before it). Only the user's asking again excuses it. The first reply of a turn may answer a
    new question in the same words ("It's a reggae song." about another song), so it is left to
    the scorer; so are acknowledgements ("Got it."), holding messages ("Let me check that.") and
    closers, which state nothing (by the act tagger alone: reading holding lines and questions
    out as well, as :func:`_states` does, lost two of SGD dev's built duplicates and gained
    nothing held out, 2026-12-05). A copy between two bot messages of its turn,
    when the user's message of the turn (``asked``, given only then) asks two things or more
    ("book it. also my garage door opener is dead"), may open the reply to the next of them
    ("Sorry to hear that — checking availability now."), so that too is left to the scorer."""
    if not replied or not other.small or other.message.turn == entry.message.turn:
        return False
    if not _same_words(other, entry) or len(other.text.words) < 2:
        return False
    acts = message_acts(other.message.text)
    if not acts & _STATING or acts & _CLOSING or greeting(other.message.text):
        return False
    return not (asked and _asks_several(asked))


def _contained(
    other: Entry, entry: Entry, before: Sequence[str] = (), asked: str = "", said: str = ""
) -> bool:
    """A small earlier message ("Your appointment is confirmed.") that stands whole, as whole
    clauses, in a later bot message with more to say ("Your appointment is confirmed. Anything
    else I can help with?"): the user reads it twice. ``before``: the texts of the bot messages
    of the later message's turn that came before it; ``asked``: the user's message of that turn
    when the later message stands between two bot messages of it (as for :func:`_resent`);
    ``said``: the user's message of that turn in any case.

    - In one turn, from another sender, a closer, greeting, acknowledgement or holding line
      (:func:`_closes`) is a duplicate whatever the user asked: the same closer or holding line
      from a sub-agent and the parent. Another message that states nothing (a question back) is
      left to the scorer: two senders may ask the same short question about two things.
    - In one turn, a statement, when the user's message of the turn (``said``) asks one thing:
      two answers to two requests ("Is my flight on time, and the shuttle?") may be the same
      short words, so those are left to the scorer (:func:`_asks_several`; it also reads some
      single requests as two, which only leaves more to the scorer).
    - In a later turn, a statement, only after a bot message of the turn that states something
      (not after "Let me check." alone: the first real reply may answer a new question in the
      same words) and, standing between two bot messages of it, not at the opening of the reply
      to another request of the user's message (``asked``).

    The stated rules after the scorer (asked again, another option, a new state, ...) still
    apply to the pairs it takes."""
    if not other.small or len(other.text.words) < 2:
        return False
    if _run_at(other.text, entry.text) < 0:
        return False
    text = other.message.text
    same_turn = other.message.turn == entry.message.turn
    if not _states(text):
        return same_turn and other.message.sender != entry.message.sender and _closes(text)
    if same_turn:
        return not _asks_several(said)
    if not any(_states(t) for t in before):
        return False
    return not (asked and _asks_several(asked))


def _run_at(earlier: Analysis, later: Analysis) -> int:
    """Where the claims of ``earlier`` stand, one after another and word for word, among the
    more numerous claims of ``later`` (the index of the first); -1 if they do not."""
    inner = [c.norm for c in earlier.claims]
    outer = [c.norm for c in later.claims]
    n = len(inner)
    if not n or len(outer) <= n:
        return -1
    return next((i for i in range(len(outer) - n + 1) if outer[i : i + n] == inner), -1)


def contained_restatement(earlier: Analysis, later: Analysis) -> Restatement | None:
    """The restatement of a pair :func:`_contained` takes, as its claims show it: ``earlier``'s
    claims, each word for word in ``later`` (None if they do not stand there)."""
    start = _run_at(earlier, later)
    if start < 0:
        return None
    matches = tuple(
        ClaimMatch(a, b, 1.0, a.strong & b.strong)
        for a, b in zip(earlier.claims, later.claims[start:], strict=False)
    )
    covered = sum(m.later.weight for m in matches)
    return Restatement(
        method="containment",
        score=1.0,
        matches=matches,
        facts=frozenset().union(*(m.facts for m in matches)),
        earlier_cover=1.0,
        later_cover=round(covered / (later.weight or 1), 3),
    )


@lru_cache(maxsize=4096)
def _asks_several(text: str) -> bool:
    """The user's message makes two requests or more that need an answer
    (:func:`~harness.detect.requests.segment_requests`, :func:`~.requests.needs_answer`)."""
    # The missed-request check's reader, loaded only here: a duplicate check alone does not
    # load it unless a turn's copy stands between two bot messages.
    from harness.detect.requests import needs_answer, segment_requests

    return sum(1 for r in segment_requests(text) if needs_answer(r.text)) >= 2


_SPELLING = 12
"""How much longer or shorter (in characters of the normalised text) a later message may be and
still say the earlier one's words with contractions spelled out differently."""


_APOSTROPHES = frozenset("'’")


def _same_words(other: Entry, entry: Entry) -> bool:
    """The same normalised text, or, for a small earlier message, the same once contractions are
    spelled out ("It is a pop song." / "It's a pop song.")."""
    norm, later = other.text.norm, entry.text.norm
    if not norm:
        return False
    if norm == later:
        return True
    if not other.small or abs(len(norm) - len(later)) > _SPELLING:
        return False
    a, b = other.message.text, entry.message.text
    if not _APOSTROPHES.intersection(a) and not _APOSTROPHES.intersection(b):
        return False  # nothing to spell out: the normalised texts already differ
    # A contraction spelled out changes stop words, and at most the one content word that holds
    # it ("won't"): a cheap test that rules out nearly every pair before the spelling.
    if len(other.text.words ^ entry.text.words) > 2:
        return False
    return spelled_out(a) == spelled_out(b)


class _Around:
    """What every candidate pair of one later message reads of where it stands, made once per
    message: its padded text and the user's messages of its last few turns."""

    __slots__ = (
        "again",
        "asked",
        "before",
        "cues",
        "entry",
        "padded",
        "replied",
        "said",
        "users",
        "windows",
    )

    def __init__(
        self,
        entry: Entry,
        users: _Users,
        *,
        replied: bool = False,
        leads: bool = False,
        before: Sequence[str] = (),
    ) -> None:
        self.entry = entry
        self.users = users
        self.replied = replied
        """A bot message of the same turn came before this one (which is not the turn's reply)."""
        self.before = before
        """The texts of the bot messages of this message's turn that came before it
        (:func:`_contained`)."""
        turn_user = users.of_turn(entry.message.turn)
        self.said = turn_user.text if turn_user is not None else ""
        """The text of the user's message of this message's turn ("" if none)."""
        self.asked = self.said if replied and leads else ""
        """The text of the user's message of this message's turn, when this message stands
        between two bot messages of it ("" otherwise): it may open the reply to another of its
        requests (:func:`_resent`)."""
        self.padded = f" {entry.text.norm} "
        self.again: bool | None = None
        """The message says itself it says something again (:func:`._recaps.says_again`): its
        restatements of the last few turns are decided by :func:`._recaps._recap` too, even
        where the screen or the pair bound rules them out (:meth:`recaps`). None until a pair
        at most :data:`._recaps.RECAP_TURNS` turns apart asks, which most messages' pairs never
        do, decided before the screen or found by no step (real-100000: 11,298 searches for
        49,816 messages; the comparison's processes no longer search every message)."""
        self.windows: dict[int, list[_User]] = {}
        """The user's messages after a turn (at most :data:`_ASK_TURNS` back) up to this one."""
        self.cues: dict[int, tuple[float, float]] = {}
        """:func:`user_cues` of each window of :attr:`windows`."""

    def window(self, other: Entry) -> tuple[int, list[_User]]:
        """Where the window of the user's messages between the pair starts (the turn after
        which it starts), and its messages: the last few turns between the two messages."""
        turn = self.entry.message.turn
        after = max(other.message.turn, turn - _ASK_TURNS)
        between = self.windows.get(after)
        if between is None:
            between = self.windows[after] = self.users.between(after, turn)
        return after, between

    def recaps(self, other: Entry) -> bool:
        """Whether :func:`._recaps._recap` is asked for the pair: this message says itself it
        says something again, and ``other`` is at most :data:`._recaps.RECAP_TURNS` turns
        older (in a long conversation a recap meets many candidates)."""
        if self.entry.message.turn - other.message.turn > RECAP_TURNS:
            return False
        if self.again is None:
            self.again = says_again(self.entry.message.text, self.entry.text.words)
        return self.again

    def screened(self, other: Entry, scope: Scope, strict: bool, screening: Screen) -> bool:
        """Whether :mod:`._screen` rules the pair out (never an exact, verbatim or contained
        repeat)."""
        entry = self.entry
        if _same_words(other, entry) or _verbatim(other, entry, self.padded):
            return False
        if _contained(other, entry, self.before, self.asked, self.said):
            return False
        after, between = self.window(other)
        cues = self.cues.get(after)
        if cues is None:
            cues = self.cues[after] = user_cues(between)
        features = screen_features(
            other.text,
            entry.text,
            scope == "same_turn",
            abs(entry.message.turn - other.message.turn),
            strict,
            _again(other, entry, between),
            cues,
        )
        return screening.rules_out(features)

    def context(self, other: Entry, scope: Scope, strict: bool) -> tuple[PairContext, list[_User]]:
        """Where the pair stands, and what the user said in the last few turns between them."""
        entry = self.entry
        turn = entry.message.turn
        _, between = self.window(other)
        again = _again(other, entry, between)
        context = PairContext(
            same_turn=scope == "same_turn",
            # abs: a late reply to an earlier turn may follow a later turn's messages
            turns_apart=abs(turn - other.message.turn),
            same_sender=other.message.sender == entry.message.sender,
            different_requests=strict,
            same_request_again=again,
        )
        return context, between


def _again(other: Entry, entry: Entry, between: list[_User]) -> bool:
    """The plan routed the earlier message's request again: to the later message, or in a turn
    of ``between``."""
    return bool(other.request) and (
        other.request == entry.request or any(other.request in u.plan for u in between)
    )

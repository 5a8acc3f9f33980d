"""The stated rules beside the duplicate detector's scorer: when a repeat was asked for, and
when a later message confirms a choice or reports how it went, or only closes.

These are the issue's definitions of a requested repeat and of a confirmation, not learned; any
other repeat, exact ones included, is left to the learned scorer (:mod:`harness.detect.scorer`).
``docs/detector.md`` ("Stated rules beside the scorer") describes them. Split from
:mod:`harness.detect.duplicates`, which runs the comparison.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from harness.detect._around import _ASK_TURNS, _CLOSING, _verbatim
from harness.detect._candidates import Entry
from harness.detect._users import (
    _STILL,
    _User,
    _Users,
    asked_again_after_apology,
    asked_same_question,
    asks_about,
    asks_again,
    asks_still,
    reasked_on_topic,
)
from harness.detect.acts import greeting, message_acts
from harness.detect.choices import (
    accepted_offer,
    accepted_option,
    asks_to_confirm_again,
    offers_same_again,
    restated_part,
    sentence_asks,
)
from harness.detect.restate import Restatement
from harness.detect.scorer import FEATURES
from harness.detect.transcript import Message
from harness.text import Analysis, content_words
from harness.text.claims import message_facts

__all__ = ["asked_again", "confirms_choice", "keeps_the_pick", "only_closes"]


_AGAIN = re.compile(
    r"\b(?:again|repeat|remind me|one more time|once more|say (?:that|it) again|come again|"
    r"didn'?t (?:catch|get|hear)|missed (?:that|it)|pardon|resend|re-send|lost track)\b",
    re.IGNORECASE,
)
"""An explicit cue of asking again (unlike "what was ...?", which also asks the first time)."""
_SAME_QUESTION = FEATURES.index("same_question")
_REASK_ON_TOPIC = FEATURES.index("reask_on_topic")
_SAME_REQUEST = FEATURES.index("same_request_again")


def asked_again(
    features: Sequence[float],
    other: Entry,
    entry: Entry,
    users: _Users,
    found: Restatement,
    window: Sequence[_User],
) -> bool:
    """The user asked for it again: the plan routed the same request again, the user asked the
    same question again, asked again about what is repeated ("what was the balance again?"), or
    used an explicit cue of asking again ("again", "repeat", "remind me") naming at most three words
    in the last few turns, or asked again right after it, naming at most two words ("sorry, can
    you repeat that?", "what was the total again?": the topic may be a synonym; without such a
    cue, "what ... was" must name only what the earlier message said), or asked what
    the bot is or can do, which a greeting introducing it answers. These are the
    issue's definition of a requested repeat, not learned; any other repeat, exact ones
    included, is left to the scorer."""
    if features[_SAME_REQUEST]:
        return True
    turn = other.message.turn
    between = users.last_between(turn, entry.message.turn, _ASK_TURNS)
    asked = users.of_turn(entry.message.turn)
    if asked is not None and asked.capabilities and greeting(entry.message.text):
        return True  # "what can you help with?" answered by the introduction again
    if between and offers_same_again(other.text, entry.text, between[-1]):
        return False  # asked for another option just before, and given the same one again
    # The features' cues, read strictly (``window``: the users the features read): a changed
    # value is a new question, and "what ... was" inside a statement is no re-ask.
    first = users.of_turn(turn)
    if features[_SAME_QUESTION] and asked_same_question(first, window):
        return True
    # The feature reads a question only from the message's very start: "sorry, when is ..."
    # asked again, read past the apology, naming only what the earlier message said
    if asked_again_after_apology(first, window, other.text):
        return True
    if features[_REASK_ON_TOPIC] and reasked_on_topic(other.text, entry.text, found, window):
        return True
    if any(len(u.words) <= 3 and _AGAIN.search(u.text) for u in between[-_ASK_TURNS:]):
        return True  # "when is the third one coming again?"
    if asked is not None and entry.message.turn > turn and _asks_still(asked, other.text):
        return True  # "is 604 still on time?" answered with the same state
    if entry.message.turn != turn + 1:
        return False
    return any(
        asks_again(u.text) and len(u.words) <= 2 and asks_about(u, other.text)
        for u in users.between(turn, turn + 1)
    )


_QUESTION_END = re.compile(r"(?<=\?)\s+")


def _asks_still(asked: _User, earlier: Analysis) -> bool:
    """:func:`~._users.asks_still` for the user's message, or for one of its questions when it
    asks several ("is it still 14 March? and how much is a restring?"): asking about the thing
    again excuses saying it again, whatever else the user asks beside it."""
    if asks_still(asked, earlier):
        return True
    parts = _QUESTION_END.split(asked.text)
    if len(parts) < 2:
        return False
    # A value's words ("14 March") stay among the question's words while the earlier message's
    # analysis keeps them as a fact only: the words its text says are named by it too.
    said = set(content_words(earlier.text)) | earlier.words
    for key in earlier.facts:
        kind, _, value = key.partition(":")
        said.update(content_words(f"{kind} {value}"))
    for part in parts:
        if _STILL.search(part) is None:
            continue
        user = _User.of(Message(id="", turn=asked.turn, role="user", sender="", text=part))
        named = user.words - {"still"}
        if (named or user.facts) and named <= said and user.facts <= earlier.facts:
            return True
    return False


_DONE = frozenset({"NOTIFY_SUCCESS", "NOTIFY_FAILURE", "CONFIRM"})
_OUTCOME = frozenset({"NOTIFY_SUCCESS", "NOTIFY_FAILURE"})
_CONFIRM = frozenset({"CONFIRM"})


def only_closes(entry: Entry) -> bool:
    """A small message that only closes ("Anything else I can help with?"): sent again in
    another turn, it is no repeat. A greeting is not a closing, though the act tagger, which
    learned no greeting act, reads "How can I help you today?" as one."""
    text = entry.message.text
    return entry.small and message_acts(text) <= _CLOSING and not greeting(text)


def confirms_choice(
    other: Entry,
    entry: Entry,
    found: Restatement,
    users: _Users,
    entries: Sequence[Entry],
) -> bool:
    """The earlier message asked the user something (a question, or a confirmation request
    without a question mark: "Please verify the following: ..."), the user answered, and the
    later message confirms it or reports how it went, done or failed (by its dialogue acts): a
    confirmation or an outcome, not a repeat. So is an outcome of an option the user picked
    from the earlier message by its values without being asked ("Saturday: 8:10 am, 9:40 am,
    11:20 am" / "I'll take 9:40 am" / "Done: Saturday at 9:40 am"). An exact repeat confirms
    nothing; nor does an earlier message that asked nothing, sent again word for word above or
    below the answer to something new: an outcome restates what was picked, not all of it. A
    later message that keeps only the option the user picked from the earlier one's list
    (:func:`keeps_the_pick`) confirms it or reports it whatever acts the tagger reads in it
    ("Booked: Luna, T4 blood draw, Thursday, July 16 at 4:30 pm" is read as informing only); so
    does a later message that reports done an option the earlier one stated, the last bot
    message before the user's go-ahead (:func:`~.choices.accepted_option`; ``entries``: the
    conversation's bot messages so far, in order)."""
    if found.method == "exact":
        return False
    turn, later_turn = other.message.turn, entry.message.turn
    later_acts = message_acts(entry.message.text)
    if not users.any_between(turn, later_turn):
        return False
    between = users.spanning(turn, later_turn)
    kept = keeps_the_pick(other.text, entry.text, users, turn, later_turn)
    # an option stated, a go-ahead right after it, then "Booked ✓ ...": the outcome of the choice
    kept = kept or (
        later_turn == turn + 1
        and _last_of_turn(other, entries)
        and accepted_option(other.text, between, entry.message.text)
    )
    if (
        not later_acts & _DONE
        and not kept
        and not accepted_offer(other.message.text, between, entry.message.text)
    ):
        return False
    asked = "?" in other.message.text[-200:] or sentence_asks(other.message.text, _CONFIRM)
    if (
        not asked
        and not kept
        and (
            not later_acts & _OUTCOME
            or not users.requested_between(turn, later_turn, other.text.facts)
            or _verbatim(other, entry)
        )
    ):
        return False  # neither asked, nor an option the user picked by its values, then done
    restated = restated_part(found, entry.message.text)
    return not asks_to_confirm_again(other.text, entry.text, restated, between)


def _last_of_turn(entry: Entry, entries: Sequence[Entry]) -> bool:
    """No bot message of ``entries`` (in order) follows ``entry`` in its turn."""
    at = bisect_right(entries, entry.index, key=lambda e: e.index)
    return at >= len(entries) or entries[at].message.turn != entry.message.turn


def keeps_the_pick(
    earlier: Analysis, later: Analysis, users: _Users, after: int, upto: int
) -> bool:
    """The earlier message lists options (two or more values of one kind: "Tuesday, July 14,
    9:10 am / Thursday, July 16, 4:30 pm"), a request of the user in turns ``after + 1`` to
    ``upto`` picks one by a value of a listed kind ("thursday"), and the later message states
    that value and, of each kind the earlier message lists, no value of another option: it keeps
    the pick and drops the rest, so it confirms or reports the choice rather than repeating the
    list. The options are the pieces of the earlier message its lines, bullets, bars, slashes,
    semicolons or "or" set apart (:func:`_picked_option`); a message whose options are not set
    apart so is read as one option, and then the later message may state one value of each
    listed kind only. Values are the messages' facts (``kind:value``), whatever their case in the
    text. The user's
    requests are looked up by fact (:meth:`_Users.requested_between`), not read one by one: a
    pair may stand thousands of turns apart."""
    kinds: dict[str, int] = {}
    for fact in earlier.facts:
        kind = fact.partition(":")[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    listed = {kind for kind, count in kinds.items() if count >= 2}
    if not listed:
        return False
    kept = earlier.facts & later.facts
    if any(sum(f.partition(":")[0] == kind for f in kept) > 1 for kind in listed):
        return False  # two options of a listed kind restated: not only the pick
    picked = [
        f
        for f in earlier.facts
        if f.partition(":")[0] in listed and users.requested_between(after, upto, frozenset((f,)))
    ]
    if not picked or not all(f in later.facts for f in picked):
        return False
    option = _picked_option(earlier.text, frozenset(picked))
    # "Friday, May 8, 11:40 am" after "Wednesday, May 6, 11:40 am / Friday, May 8, 2:15 pm" and
    # the pick "friday": Wednesday's time with Friday's day is not the pick kept
    return all(f in option for f in kept if f.partition(":")[0] in listed)


# Where one listed option ends and the next begins: a line break, a bullet, a bar, a slash or a
# semicolon between words, or "or".
_OPTION_BREAK = re.compile(r"\n|[\u2022|;]|\s/\s|\bor\b", re.IGNORECASE)


def _picked_option(text: str, picked: frozenset[str]) -> frozenset[str]:
    """The facts of the options of ``text`` (its pieces :data:`_OPTION_BREAK` sets apart) that
    state a picked value."""
    facts: set[str] = set()
    for piece in _OPTION_BREAK.split(text):
        found = message_facts(piece)
        if found & picked:
            facts |= found
    return frozenset(facts)

"""A message that folds the turn's answer together with what was said in an earlier turn.

A parent agent often relays its sub-agent's answer of this turn and, in the same message, says
again what another message said before ("Morning classes start at 6:30 from April. Your
membership is on hold through 31 March, and the £39 fee starts again on 1 April."). The relayed
part is the turn's answer; the rest is a repeat nobody asked for. The scorer, fitted mostly on
SGD (whose bots reply to the user's last message and never fold), reads the user's message in
between as "this is the answer" and turns the older pair down: on the four development corpora,
pairs whose later message restates two earlier messages or more are missed 40 times in 148,
against 11 in 153 for the others (journal, s71-cross).

:func:`folded` is a stated rule beside the scorer, as :func:`._recaps._recap` is: the later
message was taken as restating a message of its own turn, and other claims of it restate an
older message (of the last few turns, as for a recap), by the claim rules. The stated rules
after the scorer (the user asked again, a confirmation of the user's choice, another option, a
new state, ...) still excuse the pair. The screen and the pair bound do not read the rule: the
comparison asks it again, after its loop, of the candidates they ruled out, only for a message
taken as restating one of its own turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from harness.detect._candidates import Entry, Pair
from harness.detect._recaps import RECAP_TURNS, _another_name, moves_on, summary_asked
from harness.detect._users import _User
from harness.detect.restate import Restatement

__all__: list[str] = []

_WEAK = ("weekday:", "month:")
"""Fact kinds that name a day or a month, not an item (:func:`_names_item`)."""


def relayed(pairs: Sequence[Pair]) -> list[Pair]:
    """The pairs in which the later message restates a message of its own turn."""
    return [p for p in pairs if p.earlier.message.turn == p.later.message.turn]


def folded(
    other: Entry,
    entry: Entry,
    found: Restatement,
    relays: Sequence[Pair],
    between: Iterable[_User],
) -> bool:
    """``entry`` restates ``other`` (a message of the last :data:`._recaps.RECAP_TURNS` turns
    before its own; ``found``, by the claim rules: a claim of each side matched, not a near
    miss) in claims other than those it relays of its own turn's messages (``relays``,
    :func:`relayed`), no user message in between (``between``) asked for a summary or a
    reminder or names the older message's item (:func:`_names_item`), and no restated claim
    names another item or gives a new value (:func:`._recaps.moves_on`,
    :func:`._recaps._another_name`)."""
    if not relays or not 0 < entry.message.turn - other.message.turn <= RECAP_TURNS:
        return False
    if found.score <= 0.0 or not found.matches:
        return False
    relayed_claims = {m.later.span.text for p in relays for m in p.found.matches}
    if any(m.later.span.text in relayed_claims for m in found.matches):
        return False
    between = list(between)
    if summary_asked(between) or _names_item(other, between):
        return False
    if _another_name(found, other.message.text, entry.message.text):
        return False
    return not moves_on(found)


def _names_item(other: Entry, between: Sequence[_User]) -> bool:
    """A user message in between names what ``other`` is about: it shares one of its facts (an
    id, a name, a date, an amount: "any update on B-2231?" after "Order B-2231 has been
    dispatched"). What the later message says of it then answers the user, whether as news or
    as the same again; the scorer and the other stated rules decide, not the fold. A weekday or
    a month alone names no item ("what time do you close Thursday?")."""
    facts = {f for f in other.text.facts if not f.startswith(_WEAK)}
    return any(u.facts & facts for u in between)

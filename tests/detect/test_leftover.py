"""A message no request took answers the request the matching left out, when the bot answered one
message per request (``harness.detect._leftover``). Written for this rule, from no labelled set."""

from __future__ import annotations

from harness.detect.missed import DeclaredRequest, judge

PLAN = ["what phone plan am I on", "upgrade me to a bigger data plan"]
CURRENT = "Your current plan is the 5 GB data plan."
UPGRADED = "Done, you are upgraded to the 20 GB data plan."


def _missing(requests: list[str], said: list[str]) -> set[str]:
    return {requests[i] for i in judge([DeclaredRequest(text=r) for r in requests], said)}


def test_a_message_of_its_own_in_words_a_sibling_request_shares_answers_the_request_left() -> None:
    """Each answer in a message of its own: the one about the plan the user is on shares only
    "plan" with its request, a word the upgrade has too, and was read as no answer before."""
    assert _missing(PLAN, [CURRENT, UPGRADED]) == set()
    bill = [*PLAN, "when is my bill due"]
    assert _missing(bill, [CURRENT, UPGRADED, "Your bill is due on June 3."]) == set()
    flight = ["what's my flight's departure gate", "change my flight to tomorrow"]
    said = ["Your flight boards at B12.", "Your flight is changed to tomorrow at 9 am."]
    assert _missing(flight, said) == set()


def test_a_drop_stays_flagged_with_a_message_fewer_or_a_closer_or_an_apology_in_its_place() -> None:
    """A message fewer than the requests, a closer or an apology naming the request in the
    dropped answer's place: the request is still missed."""
    assert _missing(PLAN, [UPGRADED]) == {PLAN[0]}
    assert _missing(PLAN, ["Is there anything else I can help you with?", UPGRADED]) == {PLAN[0]}
    sorry = "Sorry, I could not look up your phone plan."
    assert _missing(PLAN, [sorry, UPGRADED]) == {PLAN[0]}
    museum = ["how long is the museum open today", "buy two museum tickets"]
    assert _missing(museum, ["Two museum tickets are bought.", "Enjoy the museum!"]) == {museum[0]}


def test_one_message_holding_every_answer_releases_nothing() -> None:
    """The counts tell a drop from an answer only when each answer has a message of its own: in
    one message the sentence sharing only the sibling's words is still held back."""
    assert _missing(PLAN, [f"{CURRENT} {UPGRADED}"]) == {PLAN[0]}


def test_a_barred_part_and_a_part_another_request_answers_better_are_never_left_over() -> None:
    """``left_for`` on a matching given by hand: the message left over answers the request left
    out, unless it is barred (the check bars apologies that name a request), or the request the
    matching gave it to got only a weaker part than this one."""
    from harness.detect._leftover import left_for

    found = [(text, frozenset(), True, text) for text in (CURRENT, UPGRADED)]
    p = [[0.0, 0.0], [0.5, 0.87]]
    limits = [0.24, 0.24]
    assert left_for(0, PLAN, found, p, limits, {1: 1})
    assert not left_for(0, PLAN, found, p, limits, {1: 1}, barred={0})
    weaker = [[0.0, 0.0], [0.9, 0.3]]
    assert not left_for(0, PLAN, found, weaker, limits, {1: 1})
    assert not left_for(0, PLAN, found[1:], [[0.0], [0.87]], limits[1:], {0: 1})

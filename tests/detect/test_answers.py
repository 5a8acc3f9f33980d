"""The learned answer matcher of the missed-request check (``harness.detect.answers``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.detect.answers import (
    _MODEL,
    FEATURES,
    FINDING_FEATURES,
    AnswerMatcher,
    finding_features,
    matcher,
    pair_features,
    reply_terms,
    unmatched,
)


def test_a_request_goes_without_only_when_no_assignment_leaves_a_sentence_for_it() -> None:
    # Sentence 0 could answer either request, sentence 1 only request 0: reading sentence 0 as
    # the answer to request 1 answers both, so nothing is missed.
    assert unmatched([[0.9, 0.6], [0.8, 0.1]], [0.5, 0.5], 1.01) == []
    # One sentence for two requests: the weaker claim on it goes without...
    assert unmatched([[0.9], [0.7]], [0.5], 1.01) == [1]
    # ...unless the sentence very clearly answers both.
    assert unmatched([[0.96], [0.97]], [0.5], 0.95) == []
    # A sentence below its limit answers nothing (a later sentence of a message needs more).
    assert unmatched([[0.45, 0.45]], [0.5, 0.4], 1.01) == []
    assert unmatched([[0.45, 0.45]], [0.5, 0.5], 1.01) == [0]


def test_the_shipped_model_is_fitted_on_the_features_it_is_read_with() -> None:
    raw = json.loads(_MODEL.read_text(encoding="utf-8"))
    assert raw["features"] == list(FEATURES)
    assert not any(
        "test" in name or "sgd-dev" in name or "fresh" in name for name in raw["fitted_on"]
    )
    model = matcher()
    assert 0 < model.threshold <= model.later_threshold
    assert len(model.associations) > 500  # counted on SGD train


def test_the_features_describe_each_request_against_each_sentence() -> None:
    requests = ["when is payday", "where is my W-2 form"]
    claims = ["Your W-2 is in the portal.", "Payday is Friday, March 6."]
    features = pair_features(requests, claims)
    assert len(features) == 2 and all(len(row) == 2 for row in features)
    column = {name: k for k, name in enumerate(FEATURES)}
    # "w2" and "form" are the W-2 request's own words; the sentence has one of them
    assert features[1][0][column["distinctive"]] == 0.5
    assert features[0][1][column["asked_kind"]] == 1.0  # a "when" answered with a date
    assert features[0][0][column["best"]] == 0.0


def test_closers_answer_nothing_and_a_reply_in_other_words_still_can() -> None:
    model = matcher()
    requests = ["I need a dentist in San Jose", "find me a one way flight to Chicago"]
    closer = model.probabilities(requests, ["Have a wonderful day!"])
    assert max(closer[0][0], closer[1][0]) < model.threshold
    flight = model.probabilities(requests, ["When do you want to leave, and from which airport?"])
    assert flight[1][0] > flight[0][0]  # "leave" and "airport" go with a flight, not a dentist


def test_a_matcher_fitted_on_other_features_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    raw = json.loads(_MODEL.read_text(encoding="utf-8"))
    raw["features"] = [*raw["features"], "something_new"]
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    try:
        AnswerMatcher.load(path)
    except ValueError as error:
        assert "other features" in str(error)
    else:
        raise AssertionError("a model fitted on other features was loaded")


def test_a_request_left_out_comes_with_how_sure_the_check_is() -> None:
    from harness.detect.missed import DeclaredRequest, judge, unanswered

    requests = [
        DeclaredRequest(text="when is payday"),
        DeclaredRequest(text="where is my W-2 form"),
    ]
    answered = ["Payday is Friday, March 6.", "Your W-2 is in the portal."]
    assert judge(requests, answered) == {}
    closed = judge(requests, ["Payday is Friday, March 6.", "Is there anything else?"])
    dropped = judge(requests, ["Payday is Friday, March 6."])
    assert set(closed) == set(dropped) == {1}
    # a closer where an answer should be is surer than an answer that is just missing
    assert closed[1] > dropped[1]
    model = matcher()
    assert 0.5 < model.report_threshold <= 1.0
    assert len(model.finding_weights) == len(FINDING_FEATURES)
    assert unanswered(requests, ["Payday is Friday, March 6."]) == [1]
    sure = dropped[1] + 1e-9
    assert unanswered(requests, ["Payday is Friday, March 6."], min_confidence=sure) == []


def test_declared_words_that_are_numbers_are_found_by_their_digits() -> None:
    from harness.detect.missed import DeclaredRequest, judge

    said = [
        "The museum opened in 1998 and tickets are $18.",
        "You can reach them at (415) 555-0142; visitors rate it 4.7 stars.",
    ]
    requests = [
        DeclaredRequest(text="when did it open", words=("1998",)),
        DeclaredRequest(text="what does a ticket cost", words=("$18",)),
        DeclaredRequest(text="their phone number", words=("415-555-0142",)),
        DeclaredRequest(text="how is it rated", words=("4.7",)),
    ]
    assert judge(requests, said) == {}
    # the same digits are still needed: another year, price or number is no answer
    other = ["The museum opened in 1989 and tickets are $81.", "Call 415-555-0199."]
    assert set(judge(requests, other)) == {0, 1, 2, 3}


def test_one_sentence_can_answer_two_requests_one_part_each() -> None:
    """Real replies answer two requests in one sentence, joined by "and" or with one value after
    the other; each part (a clause, or the words up to the next value) may answer one request,
    and a part answers only what its whole sentence may."""
    from harness.detect.missed import DeclaredRequest, judge

    requests = [
        DeclaredRequest(text="where is the venue"),
        DeclaredRequest(text="when does it start"),
    ]
    for reply in (
        "It starts at 7 pm and the address is 24 Willie Mays Plaza.",
        "It starts at 7 pm at 24 Willie Mays Plaza.",
        "The venue is located at 2891 University Avenue and starts at 7:30 pm.",
    ):
        assert judge(requests, [reply]) == {}, reply
    # taking one answer out leaves that request without one
    assert set(judge(requests, ["It starts at 7 pm."])) == {0}
    # a part of a sentence about the PTO days used and left answers neither "accrued" request
    used_and_accrued = [
        DeclaredRequest(text="how many PTO days have I used"),
        DeclaredRequest(text="how many PTO days have I accrued"),
    ]
    assert set(judge(used_and_accrued, ["You have used 8 PTO days and have 12 left."])) == {1}


def test_a_request_dropped_from_a_question_about_two_things_is_found() -> None:
    from harness.detect.missed import missed_requests
    from harness.detect.transcript import Message, Transcript

    def reply(text: str) -> Transcript:
        return Transcript(
            conversation="c",
            messages=[
                Message(id="u", turn=1, role="user", sender="user", text=asked),
                Message(id="b", turn=1, role="bot", sender="bot", text=text),
            ],
        )

    asked = "What's their phone number and address?"
    assert missed_requests(reply("Their number is 415-555-0142 and they are at 1 Main St.")) == []
    [found] = missed_requests(reply("Their number is 415-555-0142."))
    assert "address" in found.evidence


def _one_turn(asked: str, *said: str) -> list[str]:
    """The requests of ``asked`` the missed-request check reports, given the bot's messages."""
    from harness.detect.missed import missed_requests
    from harness.detect.transcript import Message, Transcript

    messages = [Message(id="u", turn=1, role="user", sender="user", text=asked)]
    messages += [
        Message(id=f"b{i}", turn=1, role="bot", sender="bot", text=t) for i, t in enumerate(said)
    ]
    found = missed_requests(Transcript(conversation="c", messages=messages))
    return [f.evidence.split('"')[1] for f in found]


def test_a_statement_joining_two_answers_with_but_answers_both() -> None:
    """A reply often answers two requests in one statement, joined by "and", "but" or "however":
    each clause answers one request. Taking one clause out still leaves its request missed."""
    asked = "Do they allow dogs and do they have parking?"
    assert _one_turn(asked, "They don't have parking but they do allow dogs.") == []
    assert _one_turn(asked, "They do allow dogs.") == ["do they have parking"]


def test_a_sentence_giving_what_only_one_request_asks_for_answers_it() -> None:
    """Two requests about the same thing ("the shuttle"): a sentence that shares only that word
    with one of them answers it when it gives the kind of value that request asks for (a time
    for "when") and the other does not; without it the request is still missed."""
    asked = "Which stop does the shuttle leave from, and when does the shuttle arrive?"
    leaves = "The shuttle leaves from the Elm Street stop."
    assert _one_turn(asked, leaves, "The shuttle gets there at 4:15 pm.") == []
    assert _one_turn(asked, leaves) == ["when does the shuttle arrive"]


def test_a_yes_or_no_in_a_reply_goes_with_what_yes_no_questions_ask_about() -> None:
    """ "They don't" shares no word with "do they serve alcohol", yet it answers it: a reply's yes
    or no is a term of it, and the associations counted on SGD train link it with the words of
    the questions it answers."""
    assert "@no" in reply_terms("They don't.") and "@no" in reply_terms("Nope, neither.")
    assert "@yes" in reply_terms("Yes, it has 0 stops")
    assert not reply_terms("The address is 12 Oak Road") & {"@yes", "@no"}
    table = matcher().associations
    assert table["@no"].get("liquor", 0.0) > 0.1
    assert table["@yes"].get("pet", 0.0) > 0.1


def test_a_finding_is_surer_when_no_sentence_gives_what_was_asked() -> None:
    """The finding confidence reads whether a sentence gives the kind of value the request asks
    for, and how strongly any sentence goes with it: a "how much" request beside a reply with no
    amount is surer to be unanswered than one beside a reply with a price in it."""
    from harness.detect.missed import DeclaredRequest, judge

    model = matcher()
    assert FINDING_FEATURES[-2:] == ("kind_missing", "best_associated")
    column = {name: k for k, name in enumerate(FINDING_FEATURES)}
    assert model.finding_weights[column["best_associated"]] < 0
    requests = [
        DeclaredRequest(text="where does the bus leave from"),
        DeclaredRequest(text="how much are the tickets"),
    ]
    assert judge(requests, ["It leaves from Union Station."])[1] >= model.report_threshold


SGD = Path(__file__).resolve().parents[3] / "shared" / "data" / "sgd"


@pytest.mark.skipif(not (SGD / "sgd-train.jsonl.gz").is_file(), reason="needs ../shared/data/sgd")
def test_the_matcher_learns_from_real_answers_to_requests_of_one_service() -> None:
    """``tools.detector.answer_sets.slot_messages``: real SGD train requests for one slot each,
    two to four of one service in a message, each answered by the real reply sentences holding
    its slot's value; and the fit says it used them."""
    from tools.detector.answer_sets import slot_messages

    messages = slot_messages(SGD, size=40)
    assert len(messages) == 40 and messages == slot_messages(SGD, size=40)  # seeded
    for message in messages:
        requests = message["requests"]
        assert 2 <= len(requests) <= 4
        assert all(r["text"].rstrip("?").lower() in message["text"].lower() for r in requests)
        assert len({r["answer"] for r in requests}) == len(requests)
    raw = json.loads(_MODEL.read_text(encoding="utf-8"))
    assert "sgd-train slot answers" in raw["fitted_on"]


def test_a_year_beside_another_value_does_not_answer_when() -> None:
    """A year next to another value says which year that value is of ("340 reward points for
    2027"), not when something happens: it does not answer a "when" beside it. A year that is
    the value a sentence gives still does ("It came out in 2019")."""
    asked = "How much have I spent on groceries this month, and when does my membership renew?"
    spent = "You spent $212 on groceries this month."
    assert _one_turn(asked, spent, "You have 340 reward points for 2027.") == [
        "when does my membership renew"
    ]
    assert _one_turn(asked, spent, "Your membership renews on March 3.") == []
    album = "When did the album come out, and who produced it?"
    assert _one_turn(album, "It came out in 2019.", "Rick Rubin produced it.") == []


def test_a_part_sharing_words_with_a_request_is_judged_by_its_own_words() -> None:
    """A part of a sentence that shares words with a request may answer it whatever the rest of
    the sentence says ("The workshop is located at 40 Mill Lane" of "... and starts at 10 am");
    only a part that shares no word with any request ("and have 12 left") answers no more than
    its whole sentence may."""
    asked = "What is the time and location of the workshop?"
    assert _one_turn(asked, "The workshop is located at 40 Mill Lane and starts at 10 am.") == []
    assert _one_turn(asked, "The workshop starts at 10 am.") == [
        "What is the location of the workshop"
    ]
    cruise = "Which port does the cruise leave from and which port does it return to?"
    assert _one_turn(cruise, "It departs from the Port of Miami and it returns to Canaveral.") == []
    assert _one_turn(cruise, "It returns to Port Canaveral.") == [
        "Which port does the cruise leave from"
    ]


def test_a_yes_or_no_answers_a_yes_no_question_beside_another_request() -> None:
    """A yes/no question ("Is parking free", "Do they deliver") asks for a yes or a no: a reply
    sentence saying one answers it though it shares no word with it. Without one the question
    is still missed, and a yes/no question does not make a finding surer when no sentence says
    yes or no (a reply may answer it in other words: "They do.")."""
    parking = "Is parking free, and what is their phone number?"
    phone = "Their phone number is 415-555-0100."
    assert _one_turn(parking, "Yes, it is.", phone) == []
    assert _one_turn(parking, phone) == ["Is parking free"]
    deliver = "Do they deliver? And what time do they close?"
    assert _one_turn(deliver, "No, they don't. They close at 10 pm.") == []
    assert _one_turn(deliver, "They close at 10 pm. Have a nice day.") == ["Do they deliver"]
    column = FINDING_FEATURES.index("kind_missing")
    assert finding_features([[0.0]], {}, 0, "Do they deliver", ["They do."])[column] == 0.0
    assert finding_features([[0.0]], {}, 0, "when do they close", ["They do."])[column] == 1.0


def test_a_part_of_a_sentence_sharing_no_word_with_any_request_is_judged_by_its_own_words() -> None:
    """When the whole sentence shares no word with any request, it says nothing its parts do
    not: "you can reach them at 617-555-0199" answers "give me their number" though the rest of
    its sentence is an address. The part is still needed: without it the number is missed."""
    asked = "Give me their number and their address"
    address = "Your booking went through, they are at 41 Elm Street"
    assert _one_turn(asked, address + " and you can reach them at 617-555-0199") == []
    assert _one_turn(asked, address + ".") == ["Give me their number"]


def test_a_value_given_last_after_and_is_a_part_of_its_own() -> None:
    """ "... no, it's not furnished and 617-555-0123": a statement then "and" and one value
    answers two requests, the value its own part."""
    asked = "Is the flat furnished, and what's their number?"
    assert _one_turn(asked, "Your viewing is booked, no it's not furnished and 617-555-0123") == []
    assert _one_turn(asked, "Your viewing is booked, no it's not furnished.") == [
        "what's their number"
    ]


def test_a_no_with_an_apology_answers_a_yes_no_question() -> None:
    """ "Sorry, the ticket cannot be refunded" answers "is the ticket refundable": an apology for
    not doing something leaves a request to do it unanswered ("Can you book the ticket?"), but
    a yes/no question is answered by a no, apology or not. "neither ... nor" answers two."""
    assert _one_turn("Is the ticket refundable?", "Sorry, the ticket cannot be refunded.") == []
    assert _one_turn("Can you book the ticket?", "Sorry, I could not book the ticket.") == [
        "Can you book the ticket"
    ]
    both = "Is the ticket refundable, and when does the flight leave?"
    assert _one_turn(both, "Sorry, the ticket cannot be refunded. It leaves at 5 pm.") == []
    asked = "Does the hotel have a pool and does it have a gym?"
    assert _one_turn(asked, "Sorry, it neither has a pool nor does it have a gym.") == []


def test_a_phone_number_in_digit_groups_answers_a_request_for_their_number() -> None:
    """A phone number written in groups ("+254 20 7946 0018") is one id, as "415-555-0199" is,
    and a request for a number, a phone or a contact asks for one: the number alone answers it.
    Without it the request is still missed."""
    asked = "What's their number? Do they deliver?"
    assert _one_turn(asked, "+254 20 7946 0018. No delivery.") == []
    assert _one_turn(asked, "No delivery.") == ["What's their number"]


def test_a_request_for_a_kind_of_thing_is_answered_by_its_name() -> None:
    """ "What type of event is it" asks for a class, most often named ("a Hockey game"): the
    part of the reply that names one answers it beside a part that answers the other request."""
    asked = "What type of event is it and what is the address of the venue?"
    assert _one_turn(asked, "It is a Hockey game and the venue is at 1 Arena Way.") == []
    assert _one_turn(asked, "The venue is at 1 Arena Way.") == ["What type of event is it"]


def test_one_yes_or_no_answers_two_yes_no_questions_asked_together() -> None:
    """ "Is it free and dog-friendly?" is two questions, often answered by one sentence with a
    yes or a no and the words of both. A sentence with the words of only one leaves the other
    missed."""
    asked = "Is it free and dog-friendly?"
    assert _one_turn(asked, "Yes, it is both free and dog-friendly.") == []
    assert _one_turn(asked, "Yes, it is free.") == ["Is it dog-friendly"]
    pool = "Do they have a pool and a gym?"
    assert _one_turn(pool, "They don't have a pool or a gym.") == []
    assert _one_turn(pool, "They don't have a pool.") == ["Do they have a gym"]


def test_a_sentence_goes_with_the_request_whose_own_words_it_goes_with() -> None:
    """Two requests that share their subject ("which station does the train depart from and
    arrive to"): a sentence with only the shared word ("The destination is Union Station")
    answers the one whose own word ("arrive", not "depart") its words go with in replies."""
    asked = "Which station does the train depart from and arrive to?"
    both = "The destination is Union Station and it departs from Central Station."
    assert _one_turn(asked, both) == []
    assert _one_turn(asked, "It departs from Central Station.") == [
        "Which station does the train arrive to"
    ]


def test_a_yes_or_no_set_off_by_commas_opens_a_part_of_its_own() -> None:
    """ "Their phone number is ..., No, entry to the garden is not free": the no between commas
    starts a second statement, which answers the yes/no question on its own."""
    asked = "Give me their phone number, is entry to the garden free?"
    number = "Their phone number is 718-555-0100"
    assert _one_turn(asked, number + ", No, entry to the garden is not free.") == []
    assert _one_turn(asked, number + ".") == ["is entry to the garden free"]


def test_a_sentence_answering_nothing_else_answers_the_request_it_shares_most_with() -> None:
    """A sentence that shares only words two requests have in common ("insurance plan") answers
    the one it shares most with when it is likely to answer no other; without it that request
    is missed. Two requests it shares as much with ("PTO days") still get nothing from it."""
    asked = "Help me get a new car insurance plan, and tell me what insurance plan I enrolled in"
    new = 'About "can you help me switch to a new insurance plan": here is what I found.'
    which = 'About "which insurance plan do i have": here is what I found.'
    assert _one_turn(asked, new, which) == []
    assert _one_turn(asked, new) == ["tell me what insurance plan I enrolled in"]
    pto = "How many PTO days have I accrued, and how many PTO days have I used?"
    assert _one_turn(pto, "You have used 8 PTO days.", "You have 12 PTO days left.") == [
        "How many PTO days have I accrued"
    ]


def test_two_values_joined_by_and_answer_two_requests() -> None:
    """ "9 minutes and $31.20": a value alone before "and" or a preposition and the value after
    it are two parts, one per request; a suite number after an address stays with it."""
    asked = "How long will the ride take, and how much will it cost?"
    assert _one_turn(asked, "9 minutes and $31.20") == []
    assert _one_turn(asked, "9 minutes") == ["how much will it cost"]


def test_a_sentence_with_room_for_two_answers_answers_two_requests() -> None:
    """The matching gives each sentence one request, while a real reply often answers two in
    one sentence without "and": a classification beside a time ("It's a jazz concert starting
    at 8 pm"), a yes/no in other words beside a time. Taking the second answer out still leaves
    its request without one."""
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    concert = ["when does the concert start", "what genre is the concert"]
    assert missing(concert, ["It's a jazz concert starting at 8 pm."]) == set()
    assert missing(concert, ["It starts at 8 pm."]) == {1}
    ticket = ["is this a refundable ticket", "when does the train arrive"]
    assert missing(ticket, ["It's a non-refundable ticket arriving at 6:40 pm."]) == set()
    assert missing(ticket, ["The train arrives at 6:40 pm."]) == {0}
    flight = ["what airport does the flight land in", "is it a redeye flight"]
    assert missing(flight, ["It lands at Oak International Airport."]) == {1}


def test_a_second_answer_needs_a_value_of_its_own_kind_and_a_link() -> None:
    """A sentence answers a second request only with a unit (a value, a classification, a yes
    or a no) of the kind it asks for beside the unit of the request it was given, and only
    when its words go with that request."""
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    # a request that asks for no kind of value is answered by the whole sentence
    weather = ["what is the weather like on Friday", "how much is the ticket"]
    assert missing(weather, ["It will be 70 degrees with a 10 percent chance of rain."]) == {1}
    # an amount that goes with another request's words answers no other "how many"
    hr = [
        "how much tax has been withheld so far",
        "how many vacation days do I have left",
        "which medical plan am I on",
    ]
    said = [
        "Your federal tax withholding so far in 2025 is $2,944.",
        "You are enrolled in the Kaiser HMO medical plan with a $2,899 deductible.",
    ]
    assert missing(hr, said) == {1}


def test_what_a_sentence_gives_as_answers() -> None:
    from harness.detect._kinds import classified
    from harness.detect._units import answer_units

    # values written together are one answer, values set apart by a function word two
    assert answer_units("The address is 620 3rd Street.") == (frozenset({"number", "name"}),)
    assert len(answer_units("It goes from Oak Street Station to Harbor Station.")) == 2
    # a classification joins the value it names, and a year beside an amount is no "when"
    assert answer_units("It is a Pop song by Inna") == (
        frozenset({"name", "class"}),
        frozenset({"name"}),
    )
    assert answer_units("Your withholding so far in 2025 is $2,944.") == (frozenset({"money"}),)
    assert answer_units("No, it isn't.") == (frozenset({"polar"}),)
    assert classified("It's an overnight flight arriving at 2:05 am.") == "flight"
    assert classified("This is a Biographical movie directed by Justin Kelly.") == "movie"
    assert classified("There is a problem.") is None
    assert classified("It is a song.") is None  # no modifier: nothing classified


def test_a_classification_answers_a_yes_no_question_only_about_the_property_asked() -> None:
    """A sentence classifying a noun answers a yes/no question about that noun only when one of
    its modifiers speaks to the property asked (a shared word, or words that go with it in
    replies), not by the noun alone: "a cheap morning flight" says nothing of "direct"."""
    from harness.detect._units import names_in_kind
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    flight = ["is it a direct flight", "when does it land"]
    assert missing(flight, ["It is a cheap morning flight landing at 5 pm."]) == {0}
    assert missing(flight, ["It is a direct morning flight landing at 5 pm."]) == set()
    movie = ["is the movie for kids", "when does it start"]
    assert missing(movie, ["It is a long action movie starting at 7 pm."]) == {0}
    assert names_in_kind("is it a redeye flight", "The flight is an overnight flight.")
    assert names_in_kind("is it refundable", "This is a non-refundable ticket.") is False  # no noun
    assert names_in_kind("is the ticket refundable", "This is a non-refundable ticket.")
    assert not names_in_kind("is the car automatic", "It is a compact car.")


def test_the_classified_noun_is_a_word_of_the_question_not_a_part_of_one() -> None:
    """The noun a sentence classifies is compared with the question's words (stems), not as a
    string inside it: "bus" is not in "buy", nor "car" in "card"."""
    from harness.detect._units import names_in_kind
    from harness.detect.missed import DeclaredRequest, judge

    assert not names_in_kind("is my card blocked", "It is a blocked rental car.")
    assert names_in_kind("is the rental car blocked", "It is a blocked rental car.")
    requests = ["can I buy tickets online", "when does it leave"]
    said = ["It is a red city bus leaving at 5 pm."]
    assert set(judge([DeclaredRequest(text=r) for r in requests], said)) == {0}


def test_the_noun_phrase_of_a_classification() -> None:
    """A classification's noun phrase ends at a verb form in -ing or -ed only where that opens a
    phrase of its own (a word follows it); "there is" classifies nothing."""
    from harness.detect._kinds import classified

    assert classified("It is a beautiful old building.") == "building"
    assert classified("This is a fully refundable booking.") == "booking"
    assert classified("It is a very high speed train.") == "train"
    assert classified("It is a cheap morning flight landing at 5 pm.") == "flight"
    assert classified("It is a family owned restaurant serving pasta.") == "restaurant"
    assert classified("There is a small fee of $5.") is None
    assert classified("There's a quiet reading room upstairs.") is None


def test_a_yes_no_question_naming_a_time_is_answered_by_a_time() -> None:
    """A yes/no question that names a time ("was it released in 2019", "from three years ago")
    is answered by a year or a date beside the other request's answer in one sentence; without
    one it is still unanswered."""
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    released = ["what genre is it", "was it released in 2019"]
    assert missing(released, ["It is a pop song released in 2019."]) == set()
    ago = ["what kind of song is it", "did it come out one years ago"]
    assert missing(ago, ["It is a reggae song from 2015."]) == set()
    assert missing(ago, ["It is a reggae song by Bob Marley."]) == {1}


def test_a_classification_given_to_a_yes_no_question_it_does_not_answer_leaves_that_out() -> None:
    """A sentence the matching gave to a yes/no question because it classifies its noun, but
    which says nothing of the property asked and gives the other request's value, leaves the
    question unanswered, not the other request."""
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    ticket = ["is it a refundable ticket", "how much is it"]
    assert missing(ticket, ["It is an economy ticket for $320."]) == {0}
    assert missing(ticket, ["It is a refundable ticket for $320."]) == set()
    car = ["is the car automatic", "what does it cost"]
    assert missing(car, ["It is a compact car for $40 a day."]) == {0}
    # no price: the price is what is missing, the question has the sentence
    assert missing(car, ["It is a compact car."]) == {1}


def test_a_question_reported_in_the_other_requests_place_has_its_own_confidence() -> None:
    """When the sentence the matching gave a yes/no question answers the other request, the
    question is reported with the confidence of its own figures, the sentence given to the
    other request; not with the confidence the matching computed for the other request."""
    from harness.detect._answer_findings import finding_features
    from harness.detect.missed import DeclaredRequest, judge

    texts = ["is it a refundable ticket", "how much is it"]
    claims = ["It is an economy ticket for $320."]
    model = matcher()
    p = model.probabilities(texts, claims)
    left_out, owner = model.judged(p, texts, claims)
    assert owner == {0: 0} and set(left_out) == {1}  # the matching gives the question the sentence
    reported = judge([DeclaredRequest(text=t) for t in texts], claims)
    own = model.confidence(finding_features(p, {0: 1}, 0, texts[0], claims, model.associations))
    assert set(reported) == {0}
    assert reported[0] == pytest.approx(own)
    assert reported[0] != pytest.approx(left_out[1])  # fails before: the price request's figure


def test_a_request_naming_what_it_asks_for_is_answered_by_a_value_of_that_kind() -> None:
    """ "What is the location", "the venue", a travel, drive or wait "time", a length, a duration
    and an ETA ask "where", "how long" or "when" in other words: a sentence sharing no word with
    the request answers it when it gives a value of that kind, and not when it gives another
    kind (each pair failed before: the request was reported missed)."""
    from harness.detect._kinds import WHEN_KINDS, asked_kinds
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    pottery = ["what is the location of the pottery class", "how much does it cost"]
    assert missing(pottery, ["It costs $40 per person.", "62 Quarry Road, Unit 4."]) == set()
    assert missing(pottery, ["It costs $40 per person.", "Sessions last two hours."]) == {0}
    cab = ["what will be my travel time", "how much is the fare"]
    assert missing(cab, ["The fare comes to $18.20.", "About 35 minutes door to door."]) == set()
    assert missing(cab, ["The fare comes to $18.20.", "Your driver is Sam."]) == {0}
    lake = ["what's the drive time to the lake", "is there parking"]
    assert missing(lake, ["Yes, there is a free lot.", "Around 45 minutes."]) == set()
    shuttle = ["what is the ETA of the shuttle", "how many seats are left"]
    assert missing(shuttle, ["There are 6 seats left.", "It pulls in at 4:50 pm."]) == set()
    tour = ["what is the length of the tour", "is lunch included"]
    assert missing(tour, ["No, lunch is extra.", "Roughly 90 minutes."]) == set()
    # "what time" stays a clock time, and the venue is a place
    assert asked_kinds("what time does the ferry leave") == WHEN_KINDS
    assert "duration" not in asked_kinds("what time does the ferry leave")
    assert "name" in asked_kinds("which venue is it at")


def test_a_word_naming_a_value_asks_for_it_only_where_the_request_asks_for_it() -> None:
    """ "Location", "venue", a length, a travel or wait time, an ETA and "ratings" ask for a value
    only in a question or a "tell me" about them, or alone ("Star rating?"): an order that
    mentions them asks for nothing, and a yes/no question about them keeps asking for a yes or a
    no, so "Yes, it has ramps at every door" answers "is the venue step free" (each failed
    before: the word asked for a place, a length or an amount wherever it stood)."""
    from harness.detect._kinds import asked_kinds
    from harness.detect._units import alone_gives, room_for

    for order in (
        "Send my location to Priya",
        "Reserve a venue for the reunion",
        "Shorten the length of the meeting",
        "Update my commute time in settings",
        "Leave a rating for the plumber",
    ):
        assert asked_kinds(order) == frozenset(), order
    for question in (
        "Is the venue open on Sundays",
        "Does the location have parking",
        "Is the travel time under an hour",
        "Are the ratings any good",
    ):
        assert asked_kinds(question) == {"polar"}, question
    assert "name" not in asked_kinds("tell me if the venue has a cloakroom")
    # asked for: a "what" or a "which" before the word, or "tell me", "give me", "to know"...
    assert {"name"} <= asked_kinds("tell me the location of the clinic")
    assert {"duration"} <= asked_kinds("can you give me the wait time at the DMV")
    assert {"money"} <= asked_kinds("what are the ratings for this dentist")
    assert {"duration"} <= asked_kinds("what would the commute time be")
    assert {"duration"} <= asked_kinds("I would like to know the duration of the flight")
    assert "name" not in asked_kinds("what should I wear to the venue")
    assert {"name"} <= asked_kinds("could you get me the venue please")
    assert {"time"} <= asked_kinds("may I know the departure time")
    # or the word heading a short request of no verb
    assert {"money"} <= asked_kinds("Star rating?")
    assert {"duration"} <= asked_kinds("and the arrival time please")
    assert {"duration"} <= asked_kinds("Length of the hike")
    assert asked_kinds("Share location") == frozenset()
    assert asked_kinds("I know the venue") == frozenset()

    tickets = ["how much are the tickets"]
    assert alone_gives("is the venue step free", "Yes, it has ramps at every door.", tickets)
    assert room_for("is the venue step free", "Tickets are $35 each, and yes, it is.", tickets)
    clinic = ["where is the clinic"]
    assert alone_gives(
        "is the wait time short on weekdays", "No, expect a queue most days.", clinic
    )


def test_a_question_back_without_its_question_mark_is_still_a_question() -> None:
    """A bot often asks back without a question mark ("Where are you locked out"): it asks about
    a request as a question does, so a request sharing no word with it is answered by it (each
    pair failed before: the request was reported missed)."""
    from harness.detect._kinds import asks_back
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    haircut = ["I want a haircut appointment", "what's the exchange rate for yen"]
    assert (
        missing(haircut, ["The rate is 150 yen to the dollar.", "Sure. who would you like to see"])
        == set()
    )
    piano = ["schedule a piano lesson", "how deep is Lake Baikal"]
    assert (
        missing(piano, ["Lake Baikal is 1,642 metres deep.", "Would you like a morning slot"])
        == set()
    )
    locksmith = ["get me a locksmith", "how old is the Colosseum"]
    assert (
        missing(locksmith, ["The Colosseum is nearly 2,000 years old.", "Where are you locked out"])
        == set()
    )
    for question in (
        "Where are you flying from",
        "when would you like to go",
        "Which size do you need.",
        "Ok, how many guests will you bring",
        "Do you want a window seat",
        "Where",
    ):
        assert asks_back(question), question
    for statement in (
        "When you arrive, call the front desk",
        "What you need is a day pass",
        "It is sunny",
        "The bill is $40 total.",
        "Your table is booked",
    ):
        assert not asks_back(statement), statement


def test_a_bot_answering_in_several_messages_goes_on_about_one_request_in_each() -> None:
    """Each message of a reply in several messages (one agent each) is about one request: a part
    of it sharing no word with any request goes with the request the message's other parts
    answer, so it does not hide a request nobody answered (each was missed before: the question
    back was read as that request's answer)."""
    from harness.detect.missed import DeclaredRequest, judge

    def missing(requests: list[str], said: list[str]) -> set[int]:
        return set(judge([DeclaredRequest(text=r) for r in requests], said))

    massage = ["book a massage for Friday", "who wrote Moby Dick", "order cat food"]
    asked = [
        "I can book a massage for Friday. How long should it be?",
        "The cat food order is placed.",
    ]
    assert missing(massage, asked) == {1}
    assert missing(massage, [*asked, "Herman Melville wrote it."]) == set()
    fence = ["paint my fence", "what year did the Titanic sink", "walk my dog"]
    fenced = [
        "A painter can do your fence next week. What colour would you like?",
        "A walker will take your dog out at noon.",
    ]
    assert missing(fence, fenced) == {1}
    assert missing(fence, [*fenced, "It sank in 1912."]) == set()
    # Parts of one message sharing no word with any request go on about one request too.
    yoga = ["find me a yoga class", "book a babysitter", "what's the score of the game"]
    assert missing(
        yoga, ["Which neighbourhood? What level are you?", "The game ended 3 to 1."]
    ) == {1}


@pytest.mark.xfail(
    strict=True,
    reason="a true drop the check misses: in one message composed of every answer a question "
    "back could go with any request, and the message is not held to one request",
)
def test_a_question_in_one_composed_message_hides_a_drop() -> None:
    from harness.detect.missed import DeclaredRequest, judge

    massage = ["book a massage for Friday", "who wrote Moby Dick", "order cat food"]
    said = "I can book a massage for Friday. How long should it be? The cat food order is placed."
    assert set(judge([DeclaredRequest(text=r) for r in massage], [said])) == {1}


def _missing_texts(requests: list[str], said: list[str]) -> set[str]:
    from harness.detect.missed import DeclaredRequest, judge

    return {requests[i] for i in judge([DeclaredRequest(text=r) for r in requests], said)}


def test_a_second_answer_in_an_agents_message_is_kept_however_the_reply_is_split() -> None:
    """A message that answers its own request and then another (a part cut at a value beside it,
    or an answer worded unlike its request) answers both: only questions back are held to the
    message's request, so the same answers are read alike in one, two or three messages (the
    second answer was taken away in two messages before)."""
    trip = ["book a train to Lyon", "who painted the Night Watch", "order some sushi"]
    answers = [
        "Your train to Lyon leaves on Tuesday.",
        "Rembrandt painted it.",
        "Sushi is ordered.",
    ]
    two = [" ".join(answers[:2]), answers[2]]
    for said in ([" ".join(answers)], two, answers):
        assert _missing_texts(trip, said) == set(), said
    plans = ["reserve a court for tennis", "what's the forecast for Sunday", "buy a gift for Dad"]
    said = [
        "Your tennis court is reserved for 6 pm. Light rain and 14 degrees expected.",
        "The gift for Dad is bought.",
    ]
    assert _missing_texts(plans, said) == set()


def test_statements_that_open_as_a_question_do_not_ask_back() -> None:
    """A condition put first, news, an offer or an exclamation is not a question back, so it does
    not stand for the answer to a request nobody answered (each hid the drop before)."""
    from harness.detect._kinds import asks_back

    for statement in (
        "Should you want a receipt, just say so",
        "Had you called sooner, we could have helped",
        "Were you to reschedule, there is no charge",
        "Did you know the gallery is free on Sundays",
        "May I recommend the corner room",
        "Did I mention the pool is heated",
        "How wonderful",
        "Right, how wonderful",
        "Who cares",
        "What a view",
    ):
        assert not asks_back(statement), statement
    for question in ("Okay, in which town", "For how many nights", "How long", "Why", "What time"):
        assert asks_back(question), question
    spa = ["book a facial for Saturday", "what's the tallest mountain in Africa"]
    for aside in (
        "Did you know we also do manicures.",
        "May I recommend the deluxe option.",
        "Should you be running late, call us.",
        "How wonderful.",
    ):
        said = ["Your facial is booked for Saturday at 11.", aside]
        assert _missing_texts(spa, said) == {spa[1]}, aside


def test_a_holding_message_does_not_make_one_composed_reply_several() -> None:
    """A message that neither answers nor asks ("Just a second.", "Thanks for your patience.")
    beside one composed reply leaves it one reply: its question without a question mark is not
    read as a question, as in the reply alone (the drop was hidden before)."""
    errands = ["book a haircut at Tony's", "how tall is Big Ben", "get me a cab"]
    reply = "Your cab is coming. I can book a haircut at Tony's. Which stylist would you like"
    for said in ([reply], ["Just a second.", reply], [reply, "Thanks for your patience."]):
        assert _missing_texts(errands, said) == {errands[1]}, said


def test_the_fitting_tools_read_a_turn_as_the_check_does() -> None:
    """``fit_answers`` fits thresholds and confidences on turns read as the check reads them: a
    question back in one agent's message goes with that message's request, and a question back
    without its mark in a single composed message is not read as a question (the tool read both
    the other way before, so what it fitted on was not what the check judges)."""
    from harness.detect.answers import matcher, pair_features
    from tools.detector.fit_answers import _matrix

    model = matcher()
    text = "Book a sauna session for Sunday. Who discovered penicillin? Order dog treats."
    said = ["I can book a sauna session for Sunday. How long would you like it", "Treats ordered."]
    for turn in (said, [" ".join(said)]):
        m = _matrix(model, text, turn)
        assert m is not None
        p, _, requests, _, _ = m
        asked = next(k for k, r in enumerate(requests) if "penicillin" in r)
        assert max(p[asked]) < model.threshold, turn
    # A bare question is read as one only when asked to.
    (row,) = pair_features(["who discovered penicillin"], ["Which day works for you"])
    index = FEATURES.index("claim_question")
    assert row[0][index] == 0.0


def test_a_sentence_saying_the_request_in_other_words_answers_it_with_a_paraphrase_table() -> None:
    """The first rule holds back a sentence that shares no word with any request; with a table of
    words people use for one need (``AnswerMatcher.paraphrases``, fitted from CLINC150 train by
    ``fit_answers --clinc``) such a sentence answers the request it says in other words, and only
    that one (the shipped matcher has one since session s70; nothing is released without one)."""
    from dataclasses import replace

    from harness.detect.answers import _AT, _said_otherwise

    requests = ["what do I earn", "set a timer for ten minutes"]
    pay = "Your annual wage is on the portal."
    table = {
        "wage": {"earn": 0.6},
        "annual": {"earn": 0.3},
        "earn": {"wage": 0.6, "annual": 0.3},
    }
    plain = matcher()
    features = pair_features(requests, [pay], plain.associations)
    assert all(row[0][_AT["claim_unclaimed"]] for row in features)
    assert _said_otherwise(requests, [pay], features, {}) == set()
    assert _said_otherwise(requests, [pay], features, table) == {(0, 0)}
    # Words that go with the request only one way round are not enough.
    assert _said_otherwise(requests, [pay], features, {"wage": {"earn": 0.6}}) == set()
    # Going with two requests as much, it answers neither.
    twice = "Your wage is on the portal."
    features2 = pair_features(["what do I earn", "what do I make"], [twice], plain.associations)
    even = {"wage": {"earn": 0.6, "make": 0.6}, "earn": {"wage": 0.6}, "make": {"wage": 0.6}}
    assert _said_otherwise(["what do I earn", "what do I make"], [twice], features2, even) == set()
    # A part cut from a sentence is left to the sentence's reading.
    whole = "Your annual wage is on the portal and it resets at noon"
    assert _said_otherwise(requests, [pay], features, table, [whole]) == set()

    said = [pay, "Done, counting down from ten minutes."]
    assert plain.unanswered(requests, said) == [0]
    with_table = replace(plain, paraphrases=table)
    assert with_table.unanswered(requests, said) == []
    assert with_table.unanswered(requests, said[1:]) == [0]


def test_a_paraphrase_release_that_leaves_another_request_unanswered_is_not_made() -> None:
    """The table relates a sentence to one request of a message while another request has no
    sentence likely to answer it: the sentence may be that other request's answer, or the reply
    to a part asking nothing, so it is released to neither and both are left out."""
    from dataclasses import replace

    table = {
        "salary": {"earn": 0.6},
        "gross": {"earn": 0.4},
        "earn": {"salary": 0.6, "gross": 0.4},
    }
    guarded = replace(matcher(), paraphrases=table)
    requests = ["what do I earn", "set a timer for ten minutes", "when does the pool open"]
    pay = "Your gross salary is shown on the portal."
    timer = "Done, counting down from ten minutes."
    pool = "The pool opens at 7 am."
    # Every other request answered: the sentence is released to the one it says in other words.
    assert guarded.unanswered(requests, [pay, timer, pool]) == []
    # The pool's answer missing: nothing is released, and both requests are left out.
    assert guarded.unanswered(requests, [pay, timer]) == [0, 2]
    assert guarded.unanswered(requests[:2], [pay, timer]) == []
    # A part asking nothing ("sounds good") and answered by nothing holds the release back too.
    assert guarded.unanswered(["sounds good", "what do I earn"], [pay]) == [0, 1]


@pytest.mark.parametrize(
    ("counted", "amount"),
    [
        ("I have 5 possibilities for you, the closest is Lotus Yoga.", False),
        ("There are 7 movies available.", False),
        ("I found 10.", False),
        ("Search yielded 10 results.", False),
        ("Your order comes to 120", True),
        ("The ticket is 45 bucks", True),
        ("Room 12 is free", True),
        ("The office is at 210 Congress Avenue.", True),
        ("We've found 3 flights that leave before noon.", False),
        ("There's only 1 table left at 7 pm.", False),
        ("It is 180 per person.", True),
        ("You earn 5000 each month.", True),
        ("Rent is 1200 a month.", True),
        ("Your total is 120 including tax.", True),
        ("The price is 300 rupees.", True),
        ("It is 3 miles away.", True),
        ("You have 12 vacation days left.", True),
        ("The car seats 5 people.", True),
    ],
)
def test_a_number_that_counts_what_was_found_is_told_from_an_amount(
    counted: str, amount: bool
) -> None:
    """A whole number after a verb of finding, or after the bot's own "there are" / "I have",
    is a count; an amount, a measure, the user's balance, an id and a street number are not."""
    from harness.detect._kinds import only_counts

    assert only_counts(counted) is not amount


def test_a_count_of_what_the_bot_found_is_no_amount() -> None:
    """A sentence sharing no word with any request that only counts what the bot found ("I have
    5 possibilities for you") does not answer a request for an amount ("what is the total
    cost"): the dropped answer is found (hidden before); a "how many" still takes a count."""
    requests = ["find a yoga studio nearby", "what is the total cost of my order"]
    found = "I have 5 possibilities for you, the closest is Lotus Yoga."
    total = "Your order comes to $48.20."
    assert _missing_of(requests, [found]) == {requests[1]}
    assert _missing_of(requests, [found, total]) == set()
    # An amount in another frame still answers ("180 per person" is a price, not a count).
    hotel = ["book a table at Nopa", "what's the price per night at the Hilton"]
    assert _missing_of(hotel, ["Your table at Nopa is booked.", "It is 180 per person."]) == set()
    asks_count = ["find a yoga studio nearby", "how many classes do I have left"]
    assert _missing_of(asks_count, ["I found 3.", "Lotus Yoga is the closest."]) == set()


def _missing_of(requests: list[str], said: list[str]) -> set[str]:
    from harness.detect.missed import DeclaredRequest, judge

    return {requests[i] for i in judge([DeclaredRequest(text=r) for r in requests], said)}

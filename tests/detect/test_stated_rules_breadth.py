"""The stated rules after the scorer, read where they were too broad or too narrow in general
(``docs/journal/detector.md``, "Where the stated rules overrule the scorer"): a report of what was
done asks nothing to accept, and a confirmation asked again opens a clause after a colon with a
common word ("Please confirm: Table for 4 ...") or says "No problem" first.
New text written for these tests."""

from __future__ import annotations

from harness.detect._users import _User
from harness.detect.acts import message_acts
from harness.detect.choices import accepted_offer, asks_to_confirm_again
from harness.detect.transcript import Message
from harness.text import analyse, split_sentences
from tests.detect.test_failure_classes import duplicates, pairs


def _user(text: str) -> _User:
    return _User.of(Message(id="u", turn=1, role="user", sender="user", text=text))


# A report of what was done asks nothing ------------------------------------------------------

_REPORTED = (
    "Your table at Casa Lume is confirmed for Sunday 3 May at 7:30 pm for 4 people "
    "(reference CL-4410). They'll keep it for 15 minutes if you're running late."
)


def test_precondition_the_tagger_reads_the_report_as_a_confirmation_and_an_outcome() -> None:
    # A precondition of the next tests, not behaviour a user sees: the fitted act tagger reads
    # the report's first sentence as both, which is what they exercise. If a refit of the
    # tagger changes it, write a report it so reads rather than change the rules.
    acts = message_acts(split_sentences(_REPORTED)[0].text)
    assert "CONFIRM" in acts and "NOTIFY_SUCCESS" in acts


def test_an_ok_to_a_report_of_what_was_done_accepts_nothing() -> None:
    # Fails before: the act tagger reads "is confirmed" as a confirmation request as well as an
    # outcome, and "great" after it was read as accepting an offer.
    later = "As mentioned, you're all set at Casa Lume on Sunday 3 May under CL-4410."
    assert not accepted_offer(_REPORTED, [_user("great thanks")], later)


def test_a_yes_to_an_offer_to_act_is_still_accepted() -> None:
    offer = (
        "That's two nights at the Harbour Inn from Friday 9 May, $180 in total. Shall I book it?"
    )
    later = "You're booked at the Harbour Inn for two nights from Friday 9 May."
    assert accepted_offer(offer, [_user("yes please")], later)


def test_a_recap_of_a_reported_booking_after_thanks_is_a_duplicate() -> None:
    # Fails before: the report was read as a question the user answered, and the recap as the
    # confirmation of that answer.
    found = duplicates(
        ("user", "a table at casa lume for 4 on sunday 3 may, 7:30"),
        ("dining", _REPORTED),
        ("user", "great thanks"),
        (
            "dining",
            "As I mentioned, it's all set: 4 people at Casa Lume at half past seven on Sunday "
            "3 May under CL-4410, and they won't give the table away until a quarter to eight.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


# A confirmation asked again ------------------------------------------------------------------

_ASKED = "Please confirm a table for 4 at Marlowe's in Leeds on June 2 at 7 pm."


def test_a_common_word_after_a_colon_is_no_new_value() -> None:
    # Fails before: "Table" capitalised after the colon was read as a name the earlier message
    # lacks, so the confirmation asked again was read as a new one.
    again = "Please confirm the following: Table for 4 at Marlowe's in Leeds, 7 pm on June 2."
    assert asks_to_confirm_again(analyse(_ASKED), analyse(again), again, [_user("yes")])


def test_a_rare_word_after_a_colon_is_still_a_name() -> None:
    again = "Please confirm the following: Lindqvist's table for 4 in Leeds, 7 pm on June 2."
    assert not asks_to_confirm_again(analyse(_ASKED), analyse(again), again, [_user("yes")])


def test_no_problem_negates_nothing() -> None:
    # Fails before: "No problem." read as a negation the later message lacks (another polarity).
    earlier = "No problem. " + _ASKED
    again = "Please confirm: a table for 4 at Marlowe's in Leeds on June 2 at 7 pm."
    assert asks_to_confirm_again(analyse(earlier), analyse(again), again, [_user("yes")])


def test_a_negation_the_later_message_adds_is_still_another_polarity() -> None:
    again = "Please confirm: a table for 4 at Marlowe's in Leeds on June 2, not at 7 pm."
    assert not asks_to_confirm_again(analyse(_ASKED), analyse(again), again, [_user("yes")])


# One sentence reports, another asks --------------------------------------------------------


def test_a_report_beside_a_confirmation_request_still_asked() -> None:
    # Fails before: the message's acts include an outcome (the flight is booked), so the whole
    # message was read as a report that asked nothing, and the rental car booked after the "yes"
    # as the question said again.
    found = duplicates(
        ("user", "book me the flight to Denver on March 12 and a car while I'm there"),
        (
            "travel",
            "Your flight to Denver on March 12 is booked. Please confirm you also want a "
            "rental car at Denver airport from March 12 to March 15.",
        ),
        ("user", "yes"),
        ("travel", "Your rental car at Denver airport is booked from March 12 to March 15."),
    )
    assert ("m2", "m4") not in pairs(found)


def test_a_failure_beside_a_confirmation_of_the_next_choice_still_asked() -> None:
    found = duplicates(
        ("user", "book a table for 4 at Casa Lume on Friday at 7 pm"),
        (
            "dining",
            "Sorry, that booking failed. Please confirm you want a table for 4 at Casa Lume on "
            "Friday at 8 pm instead.",
        ),
        ("user", "yes please"),
        ("dining", "Your table for 4 at Casa Lume on Friday at 8 pm is booked."),
    )
    assert ("m2", "m4") not in pairs(found)


def test_a_yes_to_a_request_beside_a_report_accepts_it() -> None:
    earlier = (
        "Your table at Casa Lume is booked for Friday at 7 pm. Please confirm you also want a "
        "taxi from the Harbour Inn to Casa Lume at 6:30 pm on Friday."
    )
    later = "Done: the taxi from the Harbour Inn will pick you up at 6:30 pm on Friday."
    assert accepted_offer(earlier, [_user("yes")], later)


# A capital after a colon the earlier message does not use ----------------------------------

_FORM = (
    "Please confirm the following: Boston, Harbor View Hotel, 2 nights from May 3, $180 a night."
)


def test_another_city_after_a_colon_stays_a_new_value() -> None:
    # Fails before: "Chicago" is in the act tagger's vocabulary (an SGD slot value), so opening
    # the clause after the colon it was read as capitalised by its place, not as a new city.
    again = (
        "Please confirm the following: Chicago, the Harbor View Hotel downtown, 2 nights from "
        "May 3, $180 a night."
    )
    between = [_user("that's the wrong city, the conference moved")]
    assert not asks_to_confirm_again(analyse(_FORM), analyse(again), again, between)


def test_a_confirmation_changed_to_another_city_after_a_colon_is_no_duplicate() -> None:
    # Fails before the same way, in the whole pipeline.
    found = duplicates(
        ("user", "I need a hotel for 2 nights from May 3 for my conference trip"),
        ("hotels", _FORM),
        ("user", "that's the wrong city, the conference moved"),
        (
            "hotels",
            "Please confirm the following: Chicago, the Harbor View Hotel downtown, 2 nights "
            "from May 3, $180 a night.",
        ),
    )
    assert ("m2", "m4") not in pairs(found)


def test_another_name_after_a_colon_stays_a_new_value() -> None:
    earlier = "Please confirm: table for 2 at 7 pm at the Quay, name: Park."
    again = "Please confirm: table for 2 at 7 pm at the Quay, name: Lee."
    assert not asks_to_confirm_again(analyse(earlier), analyse(again), again, [_user("yes")])


def test_a_rewording_of_a_word_the_earlier_message_uses_after_a_colon_is_no_new_value() -> None:
    # Fails before (the word itself only): "Booking" after "reservation" is SGD's rewording of
    # it, capitalised by its place after the colon.
    earlier = "To check: you want a reservation for 3 at the Quay in Leeds at 7 pm on June 2."
    again = "Please confirm the details: Booking a table for 3 at the Quay in Leeds, 7 pm June 2."
    assert asks_to_confirm_again(analyse(earlier), analyse(again), again, [_user("yes")])

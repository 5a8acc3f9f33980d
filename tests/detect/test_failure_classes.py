"""The five failure classes of detector v2, each on new text written for these tests (no
transcript of the development corpus is used here)."""

from __future__ import annotations

import pytest

from harness.detect.duplicates import find_duplicates
from harness.detect.findings import DetectorConfig, Finding
from harness.detect.transcript import Message, Transcript


def conversation(*lines: tuple[str, str]) -> Transcript:
    """``("user", text)`` starts a turn; ``(sender, text)`` is a bot message of that turn."""
    messages: list[Message] = []
    turn = 0
    for sender, text in lines:
        if sender == "user":
            turn += 1
        messages.append(
            Message(
                id=f"m{len(messages) + 1}",
                turn=turn,
                role="user" if sender == "user" else "bot",
                sender=sender,
                text=text,
            )
        )
    return Transcript(conversation="c", messages=messages)


def duplicates(*lines: tuple[str, str]) -> list[Finding]:
    return [f for f in find_duplicates(conversation(*lines), DetectorConfig())]


def pairs(found: list[Finding]) -> set[tuple[str, ...]]:
    return {f.message_ids for f in found}


# 1. The re-ask excuse ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "between",
    [
        "What's your returns policy?",
        # an opening connective or apology hides no re-ask: the question after it is new
        "also, can I cancel my order",
        "sorry, can I cancel my order",
    ],
)
def test_an_exact_unprompted_repeat_is_not_excused_by_an_unrelated_question(between: str) -> None:
    found = duplicates(
        ("user", "When does my order ship?"),
        ("shop", "Your order A-5531 ships on May 3 from the Leeds warehouse."),
        ("user", between),
        ("shop", "Returns are free within 30 days of delivery."),
        ("shop", "Your order A-5531 ships on May 3 from the Leeds warehouse."),
    )
    assert ("m2", "m5") in pairs(found)


def test_a_repeat_the_user_asked_for_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "How much do I owe?"),
        ("billing", "Your current balance is $412.50, due on June 14."),
        ("user", "Sorry, what was the balance again?"),
        ("billing", "Your current balance is $412.50, due on June 14."),
    )
    assert found == []


def test_a_question_asked_for_the_first_time_is_not_asking_again() -> None:
    # "What year was ... released?" names the film the earlier message described but asks for
    # something it never said: a first question, so the description sent again unprompted by
    # another agent is a repeat.
    found = duplicates(
        ("user", "Is there a drama on at the Roxy tonight?"),
        ("films", "Harbour Lights is a drama by Mara Voss, set in a fishing town in Cornwall."),
        ("user", "What year was Harbour Lights released?"),
        ("films", "Harbour Lights was released in 1998."),
        ("trivia", "Harbour Lights is a drama by Mara Voss, set in a fishing town in Cornwall."),
    )
    assert ("m2", "m5") in pairs(found)


def test_a_short_first_question_right_after_is_not_asking_again() -> None:
    found = duplicates(
        ("user", "Which album is the song Tidewater on?"),
        (
            "music",
            "Tidewater is the third track on Copper Sky, the debut album of The Lanterns, a folk band from Galway.",
        ),
        ("user", "What year was it released?"),
        ("music", "Copper Sky came out in 2011."),
        (
            "store",
            "Tidewater is the third track on Copper Sky, the debut album of The Lanterns, a folk band from Galway.",
        ),
    )
    assert ("m2", "m5") in pairs(found)


def test_what_was_it_again_after_the_answer_is_asking_again() -> None:
    found = duplicates(
        ("user", "Which album is the song Tidewater on?"),
        (
            "music",
            "Tidewater is the third track on Copper Sky, the debut album of The Lanterns, a folk band from Galway.",
        ),
        ("user", "What was the album again?"),
        (
            "music",
            "Tidewater is the third track on Copper Sky, the debut album of The Lanterns, a folk band from Galway.",
        ),
    )
    assert found == []


def test_what_was_about_what_the_answer_said_is_asking_again() -> None:
    found = duplicates(
        ("user", "Tell me about the film Harbour Lights."),
        ("films", "Harbour Lights is a drama by Mara Voss, set in a fishing town in Cornwall."),
        ("user", "What was the town Harbour Lights is set in?"),
        ("films", "Harbour Lights is a drama by Mara Voss, set in a fishing town in Cornwall."),
    )
    assert found == []


# 2. A shared subject is not a shared claim ---------------------------------------------------


def test_a_new_status_of_the_same_flight_is_an_update() -> None:
    found = duplicates(
        ("user", "Is my flight on time?"),
        ("flights", "DL 1422 is delayed by about 40 minutes."),
        ("user", "When will it land?"),
        ("flights", "DL 1422 will land at 7:32 PM at gate B9."),
    )
    assert found == []


def test_a_new_state_of_the_same_card_is_an_update() -> None:
    found = duplicates(
        ("user", "Why was my payment declined?"),
        ("cards", "Your card ending 8832 is frozen after three wrong PIN attempts."),
        ("user", "I verified my identity in the app."),
        ("cards", "Thanks, your card ending 8832 is active again."),
    )
    assert found == []


# 3. Confirmations, facts reused for a new request, one template about another subject -------


def test_confirming_what_the_user_chose_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "Any tickets for Hamilton on March 7th?"),
        ("tickets", "Hamilton on March 7th has seats at 2 pm and at 8 pm, from $89."),
        ("user", "One ticket for the 8 pm show please."),
        ("tickets", "Please confirm: 1 ticket for Hamilton on March 7th at 8 pm, $89."),
    )
    assert found == []


def test_booking_an_option_the_user_picked_from_a_list_is_not_a_duplicate() -> None:
    # Fails before the confirmation rule took outcomes of a pick by its values: the earlier
    # message offered without asking.
    found = duplicates(
        ("user", "What tee times are free on Saturday?"),
        (
            "golf",
            "Saturday, June 6 at Pine Hollow: 8:10 am (2 players max), 9:40 am (4 players), "
            "11:20 am (4 players).",
        ),
        ("user", "I'll take 9:40 am for 4"),
        (
            "golf",
            "Done: 4 players at Pine Hollow on Saturday, June 6 at 9:40 am. Green fees are paid "
            "at the clubhouse.",
        ),
    )
    assert found == []


def test_a_fact_reused_for_a_new_request_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "Where is the hotel?"),
        ("hotel", "The Harbour View Hotel is at 14 Quay Street, Bristol."),
        ("user", "Book me a cab there for 6 pm."),
        ("rides", "Your cab to 14 Quay Street is booked for 6 pm; the driver is Sam."),
    )
    assert found == []


def test_the_same_template_about_another_subject_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "Any concerts in Lisbon next weekend?"),
        ("events", "I found 10 events in Lisbon for next weekend."),
        ("user", "And hotels?"),
        ("hotels", "I found 10 hotels in Lisbon for next weekend."),
    )
    assert found == []


def test_a_confirmation_asked_again_after_a_plain_yes_is_a_duplicate() -> None:
    # Fails on the detector before the choices rules: the confirmation rule excused it.
    found = duplicates(
        ("user", "Book a physio session for Tuesday at 10 am."),
        ("clinic", "Please confirm: a physio session with Dr Okafor on Tuesday at 10 am?"),
        ("user", "Yes, that's right."),
        (
            "clinic",
            "Just to confirm, you want the physio session with Dr Okafor on Tuesday at 10 am?",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_confirmation_asked_again_above_an_answer_with_new_values_is_a_duplicate() -> None:
    # Fails before the restated part alone was compared: the answer's new values (the price,
    # the duration) counted as a change to the confirmation.
    found = duplicates(
        ("user", "Book a physio session for Tuesday at 10 am."),
        ("clinic", "Please confirm: a physio session with Dr Okafor on Tuesday at 10 am?"),
        ("user", "Yes. How much is it?"),
        (
            "clinic",
            "Just to confirm, you want the physio session with Dr Okafor on Tuesday at 10 am? "
            "It costs $65 and lasts 45 minutes. Your session is booked.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_confirmation_of_a_changed_choice_is_not_a_duplicate() -> None:
    found = duplicates(
        ("user", "Renew my prescription for collection."),
        ("pharmacy", "Please confirm: renew your atorvastatin prescription without home delivery?"),
        ("user", "Actually I'd like it delivered."),
        ("pharmacy", "Please confirm: renew your atorvastatin prescription with home delivery?"),
    )
    assert found == []


def test_the_next_option_after_anything_else_is_not_a_duplicate() -> None:
    # Fails on the detector before the choices rules.
    found = duplicates(
        ("user", "I need a compact car at Gatwick on May 2nd."),
        (
            "cars",
            "There is a compact toyota yaris you can collect at Gatwick on May 2nd for $38 a day.",
        ),
        ("user", "Anything else?"),
        (
            "cars",
            "Sure, I also have a compact kia picanto for pickup at Gatwick on May 2nd, $38 a day.",
        ),
    )
    assert found == []


def test_the_same_offer_again_after_asking_for_another_is_a_duplicate() -> None:
    # Fails before the rule: the user's "any other ..." counted as asking the same question again.
    found = duplicates(
        ("user", "Can you find me a hotel in Lisbon for June 4?"),
        ("hotels", "The Casa Amora in Lisbon has a double room on June 4 for 120 euros a night."),
        ("user", "Do you have any other hotels in Lisbon?"),
        ("hotels", "The Casa Amora in Lisbon has a double room on June 4 for 120 euros a night."),
    )
    assert ("m2", "m4") in pairs(found)


def test_saying_the_offer_is_the_only_one_answers_a_request_for_another() -> None:
    found = duplicates(
        ("user", "Can you find me a hotel in Lisbon for June 4?"),
        ("hotels", "The Casa Amora in Lisbon has a double room on June 4 for 120 euros a night."),
        ("user", "Do you have any other hotels in Lisbon?"),
        (
            "hotels",
            "Sorry, that is the only one left: the Casa Amora in Lisbon has a double room on "
            "June 4 for 120 euros a night.",
        ),
    )
    assert found == []


def test_asking_what_else_the_bot_can_do_is_not_asking_for_another_option() -> None:
    found = duplicates(
        ("user", "hello"),
        ("assistant", "Hello! I'm Nova, the travel desk's assistant: flights, hotels and cars."),
        ("user", "Can you find me a hotel in Lisbon for June 4?"),
        ("hotels", "The Casa Amora in Lisbon has a double room on June 4 for 120 euros a night."),
        ("user", "What else can you help with?"),
        ("assistant", "Hello! I'm Nova, the travel desk's assistant: flights, hotels and cars."),
    )
    assert found == []


def test_an_address_reused_in_a_confirmation_of_a_new_request_is_not_a_duplicate() -> None:
    # Fails on the detector before the choices rules.
    found = duplicates(
        ("user", "What's their address?"),
        ("dental", "450 Harbor Boulevard Unit 7."),
        ("user", "Add a check-up there to my calendar, June 3rd at 11 in the morning."),
        (
            "calendar",
            "To confirm, you would like the check-up on June 3rd at 11 am located at 450 Harbor "
            "Boulevard Unit 7?",
        ),
    )
    assert found == []


# 4. Reworded predicates and short verbatim repeats -----------------------------------------


def test_on_time_and_on_schedule_say_the_same() -> None:
    found = duplicates(
        ("user", "Is AA123 on time?"),
        ("flights", "Your flight AA123 departs on time at 14:05."),
        ("user", "Thanks."),
        ("assistant", "Good news: AA123 is on schedule, leaving 2:05 pm."),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_short_answer_sent_twice_in_one_turn() -> None:
    found = duplicates(
        ("user", "Can I bring my dog?"),
        ("pets", "Yes, dogs are welcome in all rooms."),
        ("assistant", "Yes, dogs are welcome in all rooms."),
    )
    assert ("m2", "m3") in pairs(found)


def test_a_short_greeting_sent_again_in_a_later_turn() -> None:
    found = duplicates(
        ("user", "hi"),
        ("assistant", "Hi there, welcome to Pinewood Pharmacy! How can I help you today?"),
        ("user", "I need to refill my prescription"),
        ("assistant", "Hi there, welcome to Pinewood Pharmacy! How can I help you today?"),
    )
    assert ("m2", "m4") in pairs(found)


def test_a_greeting_repeated_at_the_top_of_a_later_answer() -> None:
    found = duplicates(
        ("assistant", "Welcome to Skyline Car Rental! I'm your booking assistant."),
        ("user", "I need a car in Denver next week"),
        (
            "assistant",
            "Welcome to Skyline Car Rental! I'm your booking assistant. For Denver next week I "
            "have a compact at $42 per day or an SUV at $61 per day.",
        ),
    )
    assert ("m1", "m3") in pairs(found)


def test_a_closing_offer_in_every_turn_is_not_a_greeting_repeat() -> None:
    found = duplicates(
        ("user", "What's my data allowance?"),
        ("telecom", "You have 12 GB left this month."),
        ("telecom", "Anything else I can help with?"),
        ("user", "When does it reset?"),
        ("telecom", "It resets on the 1st of each month."),
        ("telecom", "Anything else I can help with?"),
    )
    assert found == []


def test_the_introduction_again_when_the_user_asks_what_the_bot_does() -> None:
    found = duplicates(
        (
            "assistant",
            "Hello! I'm Max, the Brightwater Utilities assistant. I can help with bills, "
            "outages and moving home.",
        ),
        ("user", "Is there an outage on Elm Street?"),
        ("outages", "No outage is reported on Elm Street right now."),
        ("user", "ok, what else can you do?"),
        (
            "assistant",
            "Hello! I'm Max, the Brightwater Utilities assistant. I can help with bills, "
            "outages and moving home.",
        ),
    )
    assert found == []


# 5. Lower-case domain nouns are facts --------------------------------------------------------


def test_two_drugs_with_the_same_copay_are_different_facts() -> None:
    found = duplicates(
        ("user", "What's my copay for lisinopril?"),
        ("pharmacy", "Your lisinopril copay is $10 for a 30-day supply."),
        ("user", "And for metformin?"),
        ("pharmacy", "Your metformin copay is $10 for a 30-day supply."),
    )
    assert found == []


def test_two_plans_with_the_same_price_are_different_facts() -> None:
    found = duplicates(
        ("user", "How much is the basic plan?"),
        ("sales", "The starter plan costs $25 a month with 5 GB of data."),
        ("user", "And the other one?"),
        ("sales", "The premium plan costs $25 a month with 5 GB of data."),
    )
    assert found == []


# A restated answer at the top of a reply to something new ----------------------------------


def test_a_reply_that_opens_by_restating_the_last_answer_is_a_duplicate() -> None:
    found = duplicates(
        ("user", "When will my parcel arrive?"),
        ("delivery", "Parcel P-20931 arrives on Thursday, June 12 between 9 am and 1 pm."),
        ("user", "Can I change the delivery address?"),
        (
            "assistant",
            "Your parcel P-20931 is due Thursday, June 12, between 9 am and 1 pm. Address "
            "changes are possible until 8 pm the day before: reply with the new address and "
            "I'll update it.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


# The re-ask excuse, read more narrowly ------------------------------------------------------


def test_what_someone_was_saying_inside_a_statement_is_no_request_to_repeat() -> None:
    # "what he was ..." inside a statement is no re-ask: the exact repeat above the new answer
    # was asked for by nobody.
    found = duplicates(
        ("user", "Is there a late showing of Harbour Lights tonight?"),
        ("movies", "Harbour Lights plays at 9:40 pm tonight at the Roxy on Elm Street."),
        ("user", "Harbour Lights is what he was raving about. Do they sell snacks at the Roxy?"),
        (
            "movies",
            "Harbour Lights plays at 9:40 pm tonight at the Roxy on Elm Street. The Roxy sells "
            "popcorn and drinks at the counter.",
        ),
    )
    assert ("m2", "m4") in pairs(found)


def test_what_was_at_the_start_of_a_question_still_asks_again() -> None:
    found = duplicates(
        ("user", "When is my dentist appointment?"),
        ("clinic", "Your cleaning is on Tuesday, May 6 at 3:15 pm with Dr. Okafor."),
        ("user", "ok what was the time"),
        ("clinic", "Your cleaning is on Tuesday, May 6 at 3:15 pm with Dr. Okafor."),
    )
    assert found == []


def test_the_same_question_with_another_value_asks_something_new() -> None:
    # The user changed a value ("1 bedroom" after "2 bedroom"): sending the same offer again
    # answers nothing new and is a repeat, not the same question asked again.
    found = duplicates(
        ("user", "Are there any 2 bedroom apartments in Fremont?"),
        ("homes", "Yes: Alder Court at 88 Paseo Padre Parkway has a 2 bedroom for $3,150 a month."),
        ("user", "Are there any 1 bed room apartments in Fremont?"),
        ("homes", "Yes: Alder Court at 88 Paseo Padre Parkway has a 2 bedroom for $3,150 a month."),
    )
    assert ("m2", "m4") in pairs(found)


def test_the_same_question_asked_again_excuses_the_same_answer() -> None:
    found = duplicates(
        ("user", "Are there any 2 bedroom apartments in Fremont?"),
        ("homes", "Yes: Alder Court at 88 Paseo Padre Parkway has a 2 bedroom for $3,150 a month."),
        ("user", "Sorry, are there any 2 bedroom apartments in Fremont?"),
        ("homes", "Yes: Alder Court at 88 Paseo Padre Parkway has a 2 bedroom for $3,150 a month."),
    )
    assert found == []

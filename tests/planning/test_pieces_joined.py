"""A piece cut off one request joins it instead of being refused beside its answer (issue 25,
session 72): "..., and how much?", "...; why?", "... and will it roll over?", "... and another
for ...". A piece that asks something of its own that no agent serves is still the parent's, so
it is refused, never dropped.

Every message is new text, written for these tests over four bots of our own; no labelled set
is read."""

from __future__ import annotations

import asyncio

import pytest

from harness.models.base import AgentCard
from harness.planning import PlanEntry, PlanInput, RulesPlanner
from harness.planning._fragments import joined_fragments


def _card(name: str, description: str, *examples: str) -> AgentCard:
    return AgentCard(name=name, description=description, mode="silent", examples=examples)


AGENTS = (
    _card(
        "bikes",
        "Repairs bicycles, sells bike parts and services e-bikes at the shop.",
        "can you fix my bike's brakes",
        "do you sell inner tubes",
    ),
    _card(
        "clinic",
        "Books, moves and cancels appointments with the clinic's doctors and nurses.",
        "book me an appointment with a doctor",
        "cancel my appointment on Friday",
    ),
    _card(
        "hotel",
        "Books hotel rooms, changes bookings and answers questions about the hotel's rooms.",
        "book a double room for two nights",
        "does the room have a balcony",
    ),
    _card(
        "pension",
        "Answers questions about the pension plan, 401k contributions and retirement savings.",
        "how much have I put into my 401k",
        "can I change my pension contribution",
    ),
)


def plan(message: str) -> list[PlanEntry]:
    given = PlanInput(parent="front", message=message, agents=AGENTS)
    return list(asyncio.run(RulesPlanner().plan(given)).entries)


@pytest.mark.parametrize(
    ("message", "agent"),
    [
        ("Does the shop sell bike lights, and how much?", "bikes"),
        ("Can you service my e-bike's battery; why does it drain so fast?", "bikes"),
        ("My bike's chain keeps slipping and I don't know why.", "bikes"),
        ("Is the doctor running late today, and why?", "clinic"),
        ("Book me an appointment with a nurse and when?", "clinic"),
        ("Book a double room with a balcony and how big?", "hotel"),
        ("Is the hotel room booking refundable and if so how?", "hotel"),
        ("What's up with my 401k and will it roll over?", "pension"),
        ("Can I change my pension contribution, and how often?", "pension"),
        ("What, if any, are the fees on my 401k?", "pension"),
    ],
)
def test_a_question_word_piece_joins_its_request(message: str, agent: str) -> None:
    entries = plan(message)
    assert entries and all(e.agent == agent for e in entries), entries


@pytest.mark.parametrize(
    ("entries", "joined"),
    [
        (
            [
                PlanEntry(request="Book a double room", agent="hotel"),
                PlanEntry(request="how much", agent="front"),
            ],
            "Book a double room, and how much",
        ),
        (
            [
                PlanEntry(request="what, if any", agent="front"),
                PlanEntry(request="are the fees on my 401k", agent="pension"),
            ],
            "what, if any, are the fees on my 401k",
        ),
    ],
)
def test_the_joined_text_is_the_messages_own(entries: list[PlanEntry], joined: str) -> None:
    message = {"hotel": "Book a double room, and how much?"}.get(
        entries[0].agent, "What, if any, are the fees on my 401k?"
    )
    out = joined_fragments(entries, "front", message)
    assert [(e.request.lower(), e.agent) for e in out] == [(joined.lower(), out[0].agent)]


@pytest.mark.parametrize(
    ("message", "agent"),
    [
        ("Book an appointment with a doctor for Monday and another for Thursday.", "clinic"),
        ("Do you sell inner tubes? Please order some for me.", "bikes"),
        ("Book a double room for Friday and another for Saturday.", "hotel"),
    ],
)
def test_another_and_some_point_back(message: str, agent: str) -> None:
    entries = plan(message)
    assert entries and all(e.agent == agent for e in entries), entries


@pytest.mark.parametrize(
    "message",
    [
        "Fix my bike's brakes and order me a pizza.",
        "Book a double room and tell me a joke.",
        "Cancel my appointment on Friday, and what's the capital of Peru?",
        "How much is in my 401k, and can you walk my dog?",
        "Book me a doctor's appointment. How are you?",
    ],
)
def test_a_request_of_its_own_is_still_the_parents(message: str) -> None:
    entries = plan(message)
    assert len(entries) == 2 and entries[1].agent == "front", entries


def test_a_question_word_alone_with_no_agent_next_to_it_stays() -> None:
    entries = joined_fragments(
        [
            PlanEntry(request="tell me a joke", agent="front"),
            PlanEntry(request="why", agent="front"),
        ],
        "front",
        "tell me a joke and why",
    )
    assert [e.agent for e in entries] == ["front", "front"]

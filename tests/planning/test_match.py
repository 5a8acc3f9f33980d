"""The offline planner's matcher: which sub-agent a request goes to, from the agent's own words
(name, description, instructions, tools, examples), and the optional embeddings."""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence

import pytest

import harness
from harness.exceptions import MissingExtraError
from harness.models import AgentCard
from harness.planning import PlanInput, RulesPlanner
from harness.planning.match import AgentMatcher, agent_matcher, agent_texts, coherence
from harness.planning.semantic import SemanticMatcher, lexical_weight_for
from tests.planning import new_bot_eval
from tests.planning.test_planners import HELPDESK

TRAVEL = AgentCard(
    name="travel",
    description="Business trips.",
    mode="silent",
    instructions="You book flights and hotels for staff. Never answer payroll questions.",
    keywords=("ReserveRentalCar", "the car a traveller picks up at the airport"),
)
MONEY = AgentCard(
    name="payroll",
    description="Pay and payslips.",
    mode="silent",
    examples=("when is payday", "where is my payslip"),
)
DESK = AgentCard(name="calendar_desk", description="Meetings and the calendar.", mode="direct")
CARDS = (TRAVEL, MONEY, DESK)


def test_an_agent_is_known_by_its_name_description_instructions_tools_and_examples() -> None:
    texts = agent_texts(TRAVEL)
    assert texts[:2] == ["travel", "Business trips."]
    assert "You book flights and hotels for staff." in texts
    assert "Reserve Rental Car" in texts  # a tool's name, as words
    # A negated sentence says what the agent does not do: its words are not the agent's.
    assert not any("payroll" in t for t in texts)
    assert agent_texts(DESK)[0] == "calendar desk"


@pytest.mark.parametrize(
    ("request_text", "agent"),
    [
        ("please book me a hotel in Oslo", "travel"),  # from its instructions only
        ("I need a rental car", "travel"),  # from a tool's name only
        ("what is on my calander tomorrow", "calendar_desk"),  # a misspelling, by trigrams
        ("when do I get my payslips", "payroll"),  # from its examples
    ],
)
def test_the_matcher_routes_by_what_the_author_wrote(request_text: str, agent: str) -> None:
    assert AgentMatcher(CARDS).best(request_text) == agent


def test_an_example_taken_from_a_real_turn_is_known_without_its_acknowledgement() -> None:
    """Before, "That sounds great." was the agent's words as much as its request's."""
    buses = AgentCard(
        name="buses",
        description="Coach trips.",
        mode="silent",
        examples=("That sounds great. I want bus tickets to Reno.", "Okay. Thanks!"),
    )
    texts = agent_texts(buses)
    assert "I want bus tickets to Reno." in texts
    assert not any("sounds" in t for t in texts)
    assert "Okay. Thanks!" in texts  # nothing else to know it by: kept whole


def test_nothing_in_common_routes_nowhere() -> None:
    matcher = AgentMatcher(CARDS)
    # Words neither the agents' texts nor the concept table know score nothing anywhere.
    assert matcher.best("zzzz qqqq") is None
    assert all(score == 0.0 for _, score in matcher.scores("zzzz qqqq"))
    assert AgentMatcher(CARDS, minimum=10.0).best("book a hotel") is None
    # Without the table, a word no agent's text uses scores nothing either.
    assert AgentMatcher(CARDS, concepts=False).best("hmm") is None


async def test_a_word_only_the_concept_table_knows_still_stays_with_the_parent() -> None:
    """The matcher may give "hmm" a little meaning, but the planner's router sends on only
    requests some word of which the agents' texts use; the parent keeps it."""
    given = PlanInput(parent="desk", message="hmm", agents=CARDS)
    plan = await RulesPlanner().plan(given)
    assert [e.agent for e in plan.entries] == ["desk"]


def test_a_word_every_agent_uses_weighs_less_than_a_word_one_agent_owns() -> None:
    cards = (
        AgentCard(name="a", description="account balance", mode="silent"),
        AgentCard(name="b", description="account freeze", mode="silent"),
        AgentCard(name="c", description="account statement", mode="silent"),
    )
    # "account" is everyone's; "freeze" is b's only.
    assert AgentMatcher(cards).best("freeze the account please, account account") == "b"


class _Concepts:
    """A stand-in embedder: a text's vector counts the words of each concept it mentions."""

    CONCEPTS = (("salary", "earnings", "pay", "payslip", "payday"), ("flight", "hotel", "trip"))

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        out = []
        for text in texts:
            words = text.lower().replace("?", " ").split()
            vector = [
                float(sum(w.startswith(c) for w in words for c in cs)) for cs in self.CONCEPTS
            ]
            out.append([*vector, 0.01])
        return out


async def test_embeddings_pick_the_agent_when_given_and_agent_texts_are_embedded_once() -> None:
    embedder = _Concepts()
    planner = RulesPlanner(embedder=embedder)
    given = PlanInput(parent="desk", message="what are my earnings for payroll?", agents=CARDS)
    plan = await planner.plan(given)
    assert [e.agent for e in plan.entries] == ["payroll"]
    await planner.plan(given)
    # The agents' texts once, then the routed requests of each message.
    assert len(embedder.calls) == 3
    assert embedder.calls[0] == [t for card in CARDS for t in agent_texts(card)]
    matcher = await SemanticMatcher.build(CARDS, embedder)
    [ranked] = await matcher.scores(["salary and earnings"])
    assert ranked[0][0] == "payroll"
    assert await matcher.scores([]) == []


class _Missing:
    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise MissingExtraError("semantic routing", extra="embeddings")


async def test_without_the_embeddings_extra_the_planner_warns_once_and_routes_by_words(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = harness.load_bot(HELPDESK)
    planner = RulesPlanner(embedder=_Missing())
    message = "How many vacation days do I have left, and when is my next payday?"
    given = PlanInput(parent=bot.name, message=message, agents=bot.dependencies.cards)
    with caplog.at_level(logging.WARNING, logger="harness"):
        plan = await planner.plan(given)
        again = await planner.plan(given)
    assert [e.agent for e in plan.entries] == ["pto", "payroll"] == [e.agent for e in again.entries]
    assert planner.embedder is None
    assert [r.message for r in caplog.records].count(
        "the planner routes without embeddings: "
        + str(MissingExtraError("semantic routing", extra="embeddings"))
    ) == 1


def test_coherence_is_how_close_an_agents_texts_are_to_each_other() -> None:
    tight = [{0: 1.0}, {0: 1.0}, {0: 0.6, 1: 0.8}]
    loose = [{0: 1.0}, {1: 1.0}, {2: 1.0}]
    lone = [{0: 1.0}]
    high, low, one, none = coherence([tight, loose, lone, []])
    # tight: each text's two others (it has no third), never itself
    assert high == pytest.approx(((1.0 + 0.6) / 2 + (1.0 + 0.6) / 2 + (0.6 + 0.6) / 2) / 3)
    assert low == 0.0
    # one text or none: nothing to compare it with
    assert one is None and none is None


def test_an_agent_of_few_texts_that_agree_is_as_coherent_as_one_of_many() -> None:
    """Texts that all mean the same are fully coherent however few there are: an agent with a
    name and a one-line description is not taken for an incoherent one and boosted."""
    same = {0: 0.6, 1: 0.8}
    assert coherence([[same] * k for k in (2, 3, 4, 6)]) == pytest.approx([1.0] * 4)


@pytest.mark.skipif(not new_bot_eval.SGD.is_dir(), reason="needs ../shared/data/sgd")
def test_an_agent_whose_subject_the_table_never_saw_is_not_outshone_by_a_known_neighbour() -> None:
    """A new bot (development data: SGD train) whose streaming agent's domain the concept table
    never saw, beside a cinema agent whose domain it knows: the streaming agent's texts point at
    the cinema's intents, so their meaning is close to its requests only as far as the cinema's
    is; scaled by each agent's coherence, the matcher sends more of them to it (the matcher before:
    7 of these 52 requests right; by their words alone, no table, 21; now 24)."""
    cards_ = new_bot_eval.bot(0, new_bot_eval.SEEDS[0])
    matcher = AgentMatcher(cards_, concepts=new_bot_eval.table(0, "Media"))
    assert matcher.uses_concepts
    texts = [text for text, gold in new_bot_eval.requests(0) if gold == "media"]
    right = sum(matcher.best(text) == "media" for text in texts)
    assert len(texts) == 52 and right >= 20


def test_the_scope_model_reads_the_scores_scaled_by_coherence_and_the_meaning_unscaled() -> None:
    """As docs/journal/models.md says: the scope model's best score and its lead on the second are
    the scores the matcher ranks by (closeness by meaning scaled by each agent's coherence: measured
    better on the development sets than the unscaled scores it was fitted on), while its
    closeness by meaning (``meaning``) is unscaled."""
    cards_ = (
        AgentCard(
            name="cards",
            description="Credit and debit cards: freezing, replacing, limits.",
            mode="direct",
            examples=("freeze my card", "my card was stolen", "what is my credit limit"),
        ),
        AgentCard(
            name="banking",
            description="Bank accounts: balances, transfers, statements.",
            mode="direct",
            examples=("what is my balance", "transfer money to savings", "pay my bill"),
        ),
        AgentCard(name="travel", description="Flights and hotels.", mode="direct"),
    )
    matcher = AgentMatcher(cards_)
    text = "find a hotel in Paris"
    (first, top), (_, second) = matcher.scores(text)[:2]
    figures = matcher.scope_figures(text)
    assert first == "travel" and figures[:2] == pytest.approx((top, top - second))
    assert figures[6] == pytest.approx(matcher.meaning(text))
    assert dict(matcher.features(text))["travel"][-1] > matcher.meaning(text)


CLINIC = AgentCard(
    name="pet_clinic",
    description="Vaccinations, check-ups and treatment for dogs and cats.",
    mode="silent",
    examples=("my cat is sneezing a lot", "when is the next rabies shot for my dog"),
)
GROOMING = AgentCard(
    name="grooming",
    description="Baths, haircuts and nail trims for your pet.",
    mode="silent",
    examples=("book a bath for the puppy", "how much is a haircut for a poodle"),
)


class _Leaning:
    """An embedder whose vectors put each agent's texts on an axis of its own and every other
    text (a request) between them at ``angle``: the second agent's closeness minus the first's is
    ``sin(angle) - cos(angle)``."""

    def __init__(self, meaning_model: str | None, angle: float) -> None:
        self.meaning_model = meaning_model
        self.angle = angle
        self.own = {t: i for i, card in enumerate((CLINIC, GROOMING)) for t in agent_texts(card)}

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            if text in self.own:
                out.append([1.0, 0.0] if self.own[text] == 0 else [0.0, 1.0])
            else:
                out.append([math.cos(self.angle), math.sin(self.angle)])
        return out


@pytest.mark.parametrize(
    ("meaning_model", "weight"), [("minilm", 0.5), ("wordllama", 1.0), (None, 1.0)]
)
async def test_each_embedder_weighs_the_words_as_chosen_for_its_model(
    meaning_model: str | None, weight: float
) -> None:
    cards = (CLINIC, GROOMING)
    matcher = await SemanticMatcher.build(cards, _Leaning(meaning_model, 0.0))
    assert matcher.lexical_weight == weight == lexical_weight_for(_Leaning(meaning_model, 0.0))
    given = await SemanticMatcher.build(cards, _Leaning("minilm", 0.0), lexical_weight=2.0)
    assert given.lexical_weight == 2.0
    none = await SemanticMatcher.build(cards, _Leaning("minilm", 0.0), lexical_weight=0.0)
    assert none.lexical_weight == 0.0  # an explicit 0.0 is a weight, not "the embedder's own"


@pytest.mark.parametrize(("given", "weight"), [(None, 0.5), (0.0, 0.0), (2.0, 2.0)])
async def test_the_planner_passes_its_lexical_weight_to_the_matcher(
    given: float | None, weight: float
) -> None:
    planner = RulesPlanner(embedder=_Leaning("minilm", 0.0), lexical_weight=given)
    message = "my dog's claws are too long"
    await planner.plan(PlanInput(parent="desk", message=message, agents=(CLINIC, GROOMING)))
    [matcher] = planner._semantic.values()
    assert matcher.lexical_weight == weight


@pytest.mark.parametrize(("meaning_model", "agent"), [("minilm", "grooming"), (None, "pet_clinic")])
async def test_minilms_meaning_outweighs_a_small_lead_of_the_words(
    meaning_model: str | None, agent: str
) -> None:
    # The words lean to the clinic ("dog"); the meaning leans to grooming by three quarters of
    # the words' lead: MiniLM's weight (0.5) lets the meaning decide, the default's (1.0) not.
    cards = (CLINIC, GROOMING)
    text = "my dog's claws are too long"
    lexical = dict(agent_matcher(cards).scores(text))
    lead = lexical["pet_clinic"] - lexical["grooming"]
    assert 0.1 < lead < 1.5
    angle = math.pi / 4 + math.asin(0.75 * lead / math.sqrt(2))
    matcher = await SemanticMatcher.build(cards, _Leaning(meaning_model, angle))
    [ranked] = await matcher.scores([text])
    assert ranked[0][0] == agent

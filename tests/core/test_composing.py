"""The composing seam (``harness.composing``): the parent's reply is a composer's job, not the
model's, and no model request carries the compose step's facts as a typed context."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from harness import FunctionModel, ModelRequest, ModelResponse, Parent, RulesModel
from harness.composing import (
    ComposeInput,
    LLMComposer,
    ResultView,
    Route,
    RulesComposer,
)
from harness.exceptions import ModelBehaviorError
from harness.models import AgentCard
from harness.runtime.deps import default_composer
from harness.runtime.loading import load_bot
from harness.testing import fake_subagent
from subagents import RequestAnswer

PAYDAY = "Your next payday is Friday."


def _payroll() -> object:
    return fake_subagent(
        "payroll",
        mode="silent",
        description="Looks up pay dates and paychecks.",
        examples=["when is my next paycheck"],
        outputs={"answered": False, "findings": PAYDAY, "openQuestions": []},
    )


CHECKS_ANSWERED = Parent(name="desk", subagents=[_payroll()]).system  # type: ignore[list-item]
"""A parent's generated system prompt: it checks ``answered``."""


def test_the_default_composer_follows_the_model() -> None:
    rules = default_composer(RulesModel(route_threshold=0.7))
    assert isinstance(rules, RulesComposer) and rules.route_threshold == 0.7
    model = FunctionModel(lambda request: ModelResponse(output={"message": "", "route": []}))
    llm = default_composer(model)
    assert isinstance(llm, LLMComposer) and llm.model is model


async def test_the_llm_composer_sends_an_ordinary_request() -> None:
    def answer(request: ModelRequest) -> ModelResponse:
        if request.output_name == "plan":
            return ModelResponse(output={"requests": [{"request": "payday", "agent": "payroll"}]})
        return ModelResponse(output={"message": "Relayed.", "route": []})

    model = FunctionModel(answer)
    bot = Parent(name="desk", model=model, subagents=[_payroll()])  # type: ignore[list-item]
    turn = await bot.conversation().send("When is payday?")
    [reply] = [c for c in model.calls if c.output_name == "reply"]
    assert reply.context is None
    assert PAYDAY in (reply.messages[-1].content or "")
    assert turn.text == "Relayed."


async def test_a_reply_that_is_not_an_object_is_a_model_behaviour_error() -> None:
    composer = LLMComposer(FunctionModel(lambda request: ModelResponse(output=["x"])))  # type: ignore[arg-type]
    with pytest.raises(ModelBehaviorError):
        await composer.compose(ComposeInput(parent="desk", user_message="hi", results=()))


def _view(**fields: object) -> ResultView:
    base: dict[str, object] = {
        "agent": "payroll",
        "mode": "direct",
        "request": "(1) when is payday; (2) where is my W-2",
        "status": "partial",
        "answered": False,
        "interaction_summary": PAYDAY,
    }
    return ResultView(**{**base, **fields})  # type: ignore[arg-type]


async def test_the_rules_composer_routes_an_unanswered_request_to_the_agent_that_fits() -> None:
    tax = AgentCard(
        name="tax_forms",
        description="Tax forms: where to find the W-2.",
        mode="silent",
        examples=("where is my w-2",),
    )
    view = _view(
        request_answers=(
            RequestAnswer(request="when is payday", answered=True),
            RequestAnswer(request="where is my W-2", answered=False),
        )
    )
    given = ComposeInput(
        parent="desk",
        system=CHECKS_ANSWERED,
        user_message="when is payday and where is my W-2",
        results=(view,),
        agents=(tax,),
        routed=(("when is payday", "payroll"), ("where is my W-2", "payroll")),
        steps_left=1,
    )
    composed = await RulesComposer().compose(given)
    assert composed.routes == (Route(request="where is my W-2", agent="tax_forms"),)
    assert composed.message == ""  # the answered request is not repeated
    # With no routing round left, the parent says it cannot help with it instead.
    last = await RulesComposer().compose(
        ComposeInput(
            parent="desk",
            system=CHECKS_ANSWERED,
            user_message=given.user_message,
            results=(view,),
            agents=(tax,),
        )
    )
    assert last.routes == ()
    assert last.message == ('I can\'t help with "where is my W-2" here.')


def test_the_models_know_nothing_of_composing() -> None:
    import harness.models as models

    assert not hasattr(models, "ComposeContext") and not hasattr(models, "ResultView")


async def test_a_request_no_agent_takes_gets_the_bots_own_handoff_line() -> None:
    # No service desk of one kind of business: by default the parent only says it cannot help;
    # the bot's `handoff` (an airline's, a bank's) follows when it has one.
    given = ComposeInput(
        parent="skyhelp",
        system=CHECKS_ANSWERED,
        user_message="can I bring my parrot",
        results=(),
        own_requests=("can I bring my parrot",),
    )
    plain = await RulesComposer().compose(given)
    assert plain.message == 'I can\'t help with "can I bring my parrot" here.'
    assert "service desk" not in plain.message
    line = "For anything else, call SkyHelp on 0800 555 0100."
    told = await RulesComposer().compose(replace(given, handoff=line))
    assert told.message == f'I can\'t help with "can I bring my parrot" here. {line}'


async def test_the_handoff_line_comes_once_and_closes_the_reply() -> None:
    line = "For anything else, call SkyHelp on 0800 555 0100."
    given = ComposeInput(
        parent="skyhelp",
        system=CHECKS_ANSWERED,
        user_message="can I bring my parrot, can I smoke on board, and thanks",
        results=(),
        own_requests=("can I bring my parrot", "can I smoke on board", "thanks"),
        handoff=line,
    )
    told = await RulesComposer().compose(given)
    assert told.message.count(line) == 1
    assert told.message == (
        'I can\'t help with "can I bring my parrot" here. '
        f"I can't help with \"can I smoke on board\" here. You're welcome! {line}"
    )
    alone = await RulesComposer().compose(replace(given, own_requests=("thanks",)))
    assert alone.message == "You're welcome!"  # no request it cannot help with: no handoff


def test_the_handoff_line_is_a_parent_option_and_a_model_is_told_it(tmp_path: Path) -> None:
    line = "Anything else: visit any branch or call 0345 600 0000."
    parent = Parent(name="bankbot", subagents=[_payroll()], handoff=line)  # type: ignore[list-item]
    assert parent.options.handoff == line
    assert parent.system.endswith(f'say so and add: "{line}"')
    assert "say so and add" not in CHECKS_ANSWERED  # none without the option
    config = tmp_path / "bot.yaml"
    config.write_text(
        "parent:\n  name: bankbot\n  handoff: Call 0345 600 0000.\n"
        "subagents:\n  - name: cards\n    kind: connected\n    mode: direct\n"
        "    description: freeze and replace debit cards\n",
        encoding="utf-8",
    )
    bot = load_bot(str(config))
    assert bot.options.handoff == "Call 0345 600 0000."


@pytest.mark.parametrize(
    ("sentence", "repeats"),
    [
        # Telling the user something else about an agent's answers: `answered` still holds.
        ("Remind the user that the payroll agent's answers are only estimates.", False),
        ("Share the payroll agent's results page link again if the user lost it.", False),
        # Told to hand the user what the agent said again: the composer obeys it.
        ("Tell the user again what the payroll agent said.", True),
    ],
)
async def test_the_rules_composer_repeats_an_answer_only_when_told_to(
    sentence: str, repeats: bool
) -> None:
    view = _view(request="when is payday", status="done", answered=True)
    given = ComposeInput(
        parent="desk",
        system=f"{CHECKS_ANSWERED}\n{sentence}",
        user_message="when is payday",
        results=(view,),
    )
    composed = await RulesComposer().compose(given)
    assert (PAYDAY in composed.message) is repeats

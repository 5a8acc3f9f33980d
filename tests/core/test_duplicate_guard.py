"""The parent's runtime duplicate guard (docs/architecture.md, the turn's guard step) on the naive helpdesk."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness import Parent, load_bot
from harness.composing import Composer
from harness.planning import RulesPlanner

NAIVE = Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk-naive.yaml"
QUESTION = (
    "How many vacation days do I have remaining, and when will I be getting my next paycheck?"
)


def _naive(policy: str, *, composer: Composer | None = None) -> Parent:
    """The naive helpdesk with the duplicate guard ``policy`` (and the parent's ``composer``)."""
    bot = load_bot(NAIVE)
    return Parent(
        name=bot.name,
        instructions=bot.instructions,
        subagents=list(bot.subagents.values()),
        generated_instructions=False,
        duplicate_guard=policy,  # type: ignore[arg-type]
        composer=composer,
        planner=RulesPlanner(),
    )


async def test_drop_removes_only_the_restated_sentence() -> None:
    turn = await _naive("drop").conversation().send(QUESTION)
    texts = {m.sender: m.text for m in turn.messages}
    assert texts["pto"] == "You have 12 PTO days left this year (out of 20)."
    assert "12 PTO days" not in texts["helpdesk"]
    assert "Friday, December 4" in texts["helpdesk"]


async def test_warn_keeps_the_text_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    turn = await _naive("warn").conversation().send(QUESTION)
    parent_text = next(m.text for m in turn.messages if m.sender == "helpdesk")
    assert "12 PTO days" in parent_text
    assert any("duplicate" in r.getMessage() for r in caplog.records)


async def test_off_lets_the_duplicate_through() -> None:
    turn = await _naive("off").conversation().send(QUESTION)
    parent_text = next(m.text for m in turn.messages if m.sender == "helpdesk")
    assert parent_text.startswith("To sum up: You have 12 PTO days")


def test_an_unknown_policy_is_a_config_error() -> None:
    from harness import ConfigError

    with pytest.raises(ConfigError):
        _naive("shout")


# --- a parent that rewords what its sub-agent already said -------------------------------------

PARAPHRASE = (
    "Quick recap: your remaining paid time off for this year is 12 days out of 20. "
    "Remember that requests need two weeks' notice."
)


def _paraphrasing_parent(policy: str) -> Parent:
    """The naive helpdesk whose composing parent (a ``FunctionModel``) rewords the PTO answer in
    its own words and adds one new sentence, as LLM parents that skip `answered` do."""
    from harness.composing import ComposeInput, Composition
    from subagents import Usage

    class Paraphrasing(Composer):
        async def compose(self, given: ComposeInput) -> Composition:
            return Composition(message=PARAPHRASE, usage=Usage(requests=1))

    return _naive(policy, composer=Paraphrasing())


async def test_warn_catches_a_reworded_restatement(caplog: pytest.LogCaptureFixture) -> None:
    turn = await _paraphrasing_parent("warn").conversation().send("How many PTO days are left?")
    parent_text = next(m.text for m in turn.messages if m.sender == "helpdesk")
    assert parent_text == PARAPHRASE
    logged = [r.getMessage() for r in caplog.records if "duplicate in the draft" in r.getMessage()]
    assert logged and "remaining paid time off" in logged[0]


async def test_drop_trims_the_reworded_restatement_and_keeps_what_is_new() -> None:
    turn = await _paraphrasing_parent("drop").conversation().send("How many PTO days are left?")
    texts = {m.sender: m.text for m in turn.messages}
    assert texts["pto"] == "You have 12 PTO days left this year (out of 20)."
    assert texts["helpdesk"] == "Remember that requests need two weeks' notice."


def test_a_guarded_parent_loads_no_simulator_module() -> None:
    """The guard's engine lives in ``harness.detect``, below the runtime: a bot that guards its
    replies loads nothing of the simulator (or of hosting, the linter or the CLI)."""
    script = """
import sys
from harness import ChildAgent, Parent, run_sync
from subagents import Reply
def balance() -> Reply:
    return Reply(text="You have 12 PTO days left.")
pto = ChildAgent(name="pto", mode="direct", tools=[balance], description="PTO balance.",
                 examples=("how many pto days do i have",))
bot = Parent(name="desk", subagents=[pto], duplicate_guard="drop")
run_sync(bot.conversation().send("how many pto days do i have"))
prefixes = ("harness.simulate", "harness.hosting", "harness.lint", "harness.cli")
print(sorted(m for m in sys.modules if m.startswith(prefixes)))
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


GOOD = NAIVE.with_name("helpdesk.yaml")
PAYDAY = "Your next payday is Friday, December 4"


def _good_with_drop() -> Parent:
    bot = load_bot(GOOD)
    return Parent(
        name=bot.name,
        instructions=bot.instructions,
        subagents=list(bot.subagents.values()),
        duplicate_guard="drop",
        planner=RulesPlanner(),
    )


async def test_a_question_asked_again_gets_its_answer_again() -> None:
    chat = _good_with_drop().conversation()
    await chat.send("How many vacation days do I have left, and when is payday?")
    for again in ("And when is payday?", "When do I get paid again?"):
        turn = await chat.send(again)
        assert PAYDAY in [m.text for m in turn.messages if m.role == "bot"][-1]


async def test_a_reply_the_guard_drops_whole_goes_out_rather_than_an_apology(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import harness.runtime.turn as turn_module

    # As if no sub-agent had answered this turn: the guard drops the whole repeated reply.
    monkeypatch.setattr(turn_module, "_answers", lambda results: [])
    chat = _good_with_drop().conversation()
    await chat.send("When is payday?")
    turn = await chat.send("And when is payday?")
    [reply] = [m.text for m in turn.messages if m.role == "bot"]
    assert reply.startswith(PAYDAY) and "rephrase" not in reply


async def test_an_old_answer_restated_inside_the_answer_to_another_question_is_still_dropped() -> (
    None
):
    from harness.detect.guard import DuplicateGuard
    from harness.detect.transcript import Message

    sent = [
        Message(id="u1", turn=1, role="user", sender="user", text="When is payday?"),
        Message(id="b1", turn=1, role="bot", sender="payroll", text=f"{PAYDAY}."),
        Message(id="u2", turn=2, role="user", sender="user", text="How much tax was withheld?"),
    ]
    answer = f"Your federal tax withholding so far is $3,664. {PAYDAY}."
    guard = DuplicateGuard(policy="drop")
    decision = guard.check(answer, sent=sent, turn=2, answers=[answer])
    assert PAYDAY not in decision.text  # the user asked about tax, not payday
    assert "$3,664" in decision.text
    asked = [*sent[:2], Message(id="u2", turn=2, role="user", sender="user", text="When's payday?")]
    assert PAYDAY in guard.check(f"{PAYDAY}.", sent=asked, turn=2, answers=[f"{PAYDAY}."]).text

"""`make demo`: the helpdesk sample's conversations on its good and naive variants, then the
simulator's verdict on both, then the research team sample, all on the offline rules model; it
ends by writing the naive helpdesk's HTML report and printing its path."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from harness import load_bot
from harness.detect.reports import DetectionResult
from harness.simulate.scenarios import load_scenarios

HERE = Path(__file__).resolve().parent
HELPDESK = HERE / "helpdesk"
VARIANTS = {
    "good": HELPDESK / "helpdesk.yaml",
    "naive": HELPDESK / "helpdesk-naive.yaml",
}
REPORT = HERE.parent / "build" / "demo" / "naive-helpdesk.html"
"""Where the demo writes the naive helpdesk's HTML report (``build/`` is ignored by git)."""
COLOURS = {"silent": "magenta", "direct": "green", "conversational": "cyan"}

console = Console(highlight=False, width=120)


async def show_conversations() -> None:
    scenarios = load_scenarios(HELPDESK / "scenarios.yaml")
    for variant, config in VARIANTS.items():
        console.print(Rule(f"[bold]{variant} helpdesk[/] ({config.name})"))
        bot = load_bot(config)
        for scenario in scenarios.scenarios:
            console.print(f"[bold underline]{scenario.name}[/]")
            async with bot.conversation(id=f"{variant}-{scenario.name}") as conversation:
                for step in scenario.turns:
                    turn = await conversation.send(step.user)
                    console.print(f"  [bold]user[/]: {escape(step.user)}")
                    for message in turn.messages:
                        who = message.sender
                        if message.mode:
                            colour = COLOURS.get(message.mode, "white")
                            label = f"[{colour}]{escape(who)}[/] [dim]({message.mode})[/]"
                        else:
                            label = f"[bold blue]{escape(who)}[/]"
                        console.print(f"    {label}: {escape(message.text)}")
                    answered = [r.agent for r in turn.results if r.answered]
                    relayed = [r.agent for r in turn.results if r.mode.value == "silent" and r.ok]
                    notes = []
                    if answered:
                        notes.append("answered by " + ", ".join(answered))
                    if relayed:
                        notes.append("findings relayed from " + ", ".join(relayed))
                    talking = [
                        r.agent
                        for r in turn.results
                        if r.mode.value == "conversational" and r.ok and not r.answered
                    ]
                    if talking:
                        notes.append(", ".join(talking) + " holds the floor")
                    failed = [r.agent for r in turn.results if not r.ok]
                    if failed:
                        notes.append("not answered: " + ", ".join(failed))
                    console.print(f"    [dim]({'; '.join(notes) or 'parent only'})[/]")
        await bot.aclose()


async def show_simulator() -> list[DetectionResult]:
    """Print the simulator's verdict on both variants; return the naive helpdesk's results."""
    from harness.detect.reports import plural, render_text
    from harness.simulate.runner import run_scenarios

    scenarios = load_scenarios(HELPDESK / "scenarios.yaml")
    naive: list[DetectionResult] = []
    for variant, config in VARIANTS.items():
        console.print(Rule(f"[bold]simulator[/] on the {variant} helpdesk"))
        results = await run_scenarios([scenarios], bot=str(config))
        errors = sum(len(r.errors) for r in results)
        console.print(escape(render_text(results)), end="", soft_wrap=True)
        verdict = "[green]clean[/]" if not errors else f"[red]{plural(errors, 'error')} caught[/]"
        console.print(f"verdict for the {variant} helpdesk: {verdict}")
        if variant == "naive":
            naive = results
    return naive


async def show_team() -> None:
    from samples.research_team.demo import run_demo

    console.print(Rule("[bold]research team[/] (samples/research_team)"))
    console.print(escape(await run_demo()))


def write_html_report(results: list[DetectionResult]) -> Path:
    """The naive helpdesk's HTML report: the conversations as chats, the findings drawn on them."""
    from harness.detect.html import render_html

    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(render_html(results, title="naive helpdesk"), encoding="utf-8")
    return REPORT


async def main() -> int:
    await show_conversations()
    naive = await show_simulator()
    await show_team()
    report = write_html_report(naive)
    console.print(Rule("[bold]HTML report[/]"))
    console.print(f"the naive helpdesk's HTML report: {escape(str(report))}", soft_wrap=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

"""`make demo`: the helpdesk sample's conversations on its good and naive variants, then the
simulator's verdict on both, then the research team sample, all on the offline rules model."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from harness import load_bot
from harness.simulate.scenarios import load_scenarios

HERE = Path(__file__).resolve().parent
HELPDESK = HERE / "helpdesk"
VARIANTS = {
    "good": HELPDESK / "helpdesk.yaml",
    "naive": HELPDESK / "helpdesk-naive.yaml",
}
COLOURS = {"silent": "magenta", "direct": "green", "conversational": "cyan"}

console = Console(highlight=False, width=110)


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


async def main() -> int:
    await show_conversations()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

"""The terminal loop of ``harness chat``: line editing, slash commands and a clean Ctrl-C.

The prompt is read on the main thread with ``input()`` (never in a worker thread), so Ctrl-C
interrupts it at once; each turn runs on one ``asyncio.Runner``, which cancels the turn on Ctrl-C.
Importing the stdlib ``readline`` gives ``input()`` arrow keys, line editing and history wherever
Python has it (Linux, macOS); elsewhere the prompt is a plain line. At a terminal the history is
kept between chats in a file (``history_file()``), as Python's own prompt keeps
``~/.python_history``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.markup import escape

from harness.cli.command import interrupt_code
from harness.cli.options import EXIT_INTERRUPTED
from harness.detect.transcript import Message
from harness.exceptions import RunError
from harness.runtime.parent import Conversation, Parent, Turn
from harness.runtime.parts import failed_agents
from subagents import ContractViolation, ViolationKind

__all__ = [
    "COMMANDS",
    "ChatSession",
    "chat",
    "describe",
    "history_file",
    "line_editing",
    "run_command",
    "talk",
]

PROMPT = "you> "

COMMANDS = {
    "/plan": "the last turn's scoped requests and who handled each",
    "/floor": "which sub-agent holds the floor (gets the next message first)",
    "/help": "these commands",
    "/exit": "end the chat (also: exit, quit, Ctrl-D; Ctrl-C ends it with exit code 130)",
}

_COLOURS = {"silent": "magenta", "direct": "green", "conversational": "cyan"}


HISTORY_ENV = "HARNESS_CHAT_HISTORY"
"""A path for the chat's history file, or empty for none."""
_HISTORY_LENGTH = 1000
"""Messages kept in the history file."""


def history_file() -> Path | None:
    """Where the messages typed in earlier chats are kept: ``$HARNESS_CHAT_HISTORY``, else
    ``$XDG_STATE_HOME/harness/chat_history`` (``~/.local/state/harness/chat_history``); None when
    ``HARNESS_CHAT_HISTORY`` is set but empty."""
    chosen = os.environ.get(HISTORY_ENV)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen.strip() else None
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "harness" / "chat_history"


@contextlib.contextmanager
def line_editing() -> Iterator[None]:
    """Give ``input()`` line editing and history through the stdlib ``readline``, if present; at
    a terminal, keep the history between chats (as Python's own prompt does) in
    :func:`history_file`. Every terminal chat (local, or :mod:`harness.cli.remote_chat`) reads its
    lines inside this context."""
    try:
        import readline  # importing it is what hooks it into input()
    except ImportError:
        yield
        return
    path = history_file() if sys.stdin.isatty() else None
    if path is not None:
        readline.set_history_length(_HISTORY_LENGTH)
        with contextlib.suppress(OSError):
            readline.read_history_file(path)
    try:
        yield
    finally:
        if path is not None:
            with contextlib.suppress(OSError):
                _write_private(path, readline.write_history_file)


def _write_private(path: Path, write: Callable[[str], object]) -> None:
    """Write the history readable by its owner alone: what a user typed can be private."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Created 0600 before readline writes to it; an existing file is narrowed too.
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)
    write(str(path))


def describe(message: Message) -> str:
    """The sender of a message as rich markup: the component's name and its mode."""
    if message.mode:
        colour = _COLOURS.get(message.mode, "white")
        return f"[{colour}]{escape(message.sender)}[/] [dim]({message.mode})[/]"
    return f"[bold blue]{escape(message.sender)}[/]"


@dataclass(slots=True)
class _Session:
    bot: Parent
    console: Console
    """Where the bot's messages go: standard output."""
    aside: Console
    """Where everything else goes (banner, notes, plans, errors): standard error, so that the
    output of a piped chat is the bot's alone."""
    verbosity: int
    conversation: Conversation | None = None
    last: Turn | None = None

    async def show(self, message: Message) -> None:
        self.console.print(f"{describe(message)}: {escape(message.text)}")

    def banner(self) -> None:
        agents = ", ".join(f"{n} ({a.mode.value})" for n, a in self.bot.subagents.items())
        count = len(self.bot.subagents)
        noun = "sub-agent" if count == 1 else "sub-agents"
        self.aside.print(f"[bold]{escape(self.bot.name)}[/] with {count} {noun}: {agents}")
        self.aside.print("[dim]/help lists the commands; Ctrl-D or exit quits[/]")

    def show_plan(self) -> None:
        if self.last is None:
            self.aside.print("[dim]no turn yet[/]")
            return
        for planned in self.last.plan:
            handler = "the parent" if planned.agent == self.bot.name else planned.agent
            self.aside.print(f"  [dim]{escape(handler)}:[/] {escape(planned.request)}")
        if not self.last.plan:
            self.aside.print("[dim]  no scoped requests[/]")

    def floor(self) -> None:
        holder = self.conversation.active_agent if self.conversation is not None else None
        if holder is None:
            self.aside.print("[dim]the parent has the floor (no sub-agent holds it)[/]")
        else:
            self.aside.print(f"[dim]{escape(holder)} holds the floor[/]")

    async def turn(self, text: str) -> bool:
        """Send ``text``; the bot's messages are shown as they come (``on_message``). True when
        the parent's own plan or reply failed (the turn fell back) or a sub-agent call failed
        or timed out (the user got an apology): the notes say why."""
        assert self.conversation is not None, "chat() opens the conversation first"
        self.last = await self.conversation.send(text)
        return self.last.failed or bool(failed_agents(self.last.results))

    def notes(self) -> None:
        turn = self.last
        if turn is None:
            return
        answered = list(dict.fromkeys(p.agent for p in turn.answered))  # one request is enough
        silent = [r.agent for r in turn.results if r.mode.value == "silent" and r.ok]
        failed = [
            f"{r.agent} ({r.error})" if r.error else r.agent
            for r in turn.results
            if r.status in ("failed", "timed_out")
        ]
        broken = [
            f"{r.agent} ({', '.join(dict.fromkeys(_broke(v) for v in r.broken))})"
            for r in turn.results
            if r.status not in ("failed", "timed_out") and r.broken
        ]
        notes = []
        if answered:
            notes.append("answered by " + ", ".join(answered))
        if silent:
            notes.append("findings from " + ", ".join(silent))
        if failed:
            notes.append("failed: " + ", ".join(failed))
        if broken:  # a model that ignores the contract: its outputs were not used
            notes.append("broke the contract: " + ", ".join(broken))
        if turn.error:
            notes.append(turn.error)
        holder = self.conversation.active_agent if self.conversation is not None else None
        if holder is not None:
            notes.append(f"{holder} holds the floor")
        if notes:
            self.aside.print(f"[dim]  ({escape('; '.join(notes))})[/]")

    def command(self, text: str) -> bool:
        """Run a slash command; False when it ends the chat."""
        return run_command(
            text, {"/plan": self.show_plan, "/floor": self.floor}, COMMANDS, self.aside
        )


def _broke(violation: ContractViolation) -> str:
    """A violation for the turn's note: its kind, and the output it concerns when that output is
    missing or wrong (``invalid_output: payDate``)."""
    named = violation.kind in (ViolationKind.MISSING_OUTPUT, ViolationKind.INVALID_OUTPUT)
    if named and violation.output:
        return f"{violation.kind.value}: {violation.output}"
    return violation.kind.value


def run_command(
    text: str,
    actions: Mapping[str, Callable[[], None]],
    commands: Mapping[str, str],
    aside: Console,
) -> bool:
    """Run the slash command ``text`` from ``actions`` (``/help`` lists ``commands``, ``/exit``
    and ``/quit`` end the chat); False when it ends the chat. Shared by the local and remote
    chats."""
    name = text.split()[0].lower()
    if name in ("/exit", "/quit"):
        return False
    action = actions.get(name)
    if action is not None:
        action()
    elif name == "/help":
        for command, meaning in commands.items():
            aside.print(f"  {command:<7} {escape(meaning)}")
    elif name in COMMANDS:  # a local chat's command, in a chat with a bot elsewhere
        aside.print(
            f"[dim]{escape(name)} needs the bot in this process (harness chat CONFIG); "
            "/help lists what this chat has[/]"
        )
    else:
        aside.print(f"[dim]unknown command {escape(name)}; /help lists them[/]")
    return True


def chat(bot: Parent, *, console: Console, verbosity: int = 0, notes: Console | None = None) -> int:
    """Talk to ``bot`` on the terminal until the user quits; return the exit code.

    The bot's messages go to ``console``; the banner, the per-turn notes, plans and errors go to
    ``notes`` (by default standard error), so a piped chat's standard output is the bot's alone.

    Ctrl-D, ``exit``, ``quit`` or ``/exit`` end the chat with 0, or 1 when a turn failed (see
    :func:`talk`); Ctrl-C (at the prompt or during a turn, which it cancels) ends it with 130.
    ``verbosity`` below 0 hides the banner and the per-turn notes; above 0 shows each turn's
    plan.
    """
    if notes is None:
        notes = Console(stderr=True, highlight=False, soft_wrap=True)
    session = _Session(bot=bot, console=console, aside=notes, verbosity=verbosity)
    if verbosity >= 0:
        session.banner()
    runner = asyncio.Runner()
    code = EXIT_INTERRUPTED
    try:
        session.conversation = bot.conversation(on_message=session.show)
        with line_editing():
            code = talk(session, runner)
    except KeyboardInterrupt:
        notes.print()
    finally:
        with contextlib.suppress(KeyboardInterrupt):
            runner.run(bot.aclose())
        if code == EXIT_INTERRUPTED:
            # Not Runner.close(): it would wait for a sync tool still running in a worker thread.
            runner.get_loop().close()
        else:
            runner.close()
    # Ended by Ctrl-C or SIGTERM: interrupt_code tells them apart.
    return interrupt_code() if code == EXIT_INTERRUPTED else code


class ChatSession(Protocol):
    """What the read loop (:func:`talk`) needs of a chat: the local one here, the remote one in
    :mod:`harness.cli.remote_chat`. They differ in what a turn returns and where its plan comes
    from, which each keeps to itself behind ``turn``, ``show_plan`` and ``notes``."""

    aside: Console
    verbosity: int

    async def turn(self, text: str) -> bool:
        """Send one message and show the bot's messages; True when the turn completed but
        failed (the parent's plan or reply fell back, or a sub-agent call failed). Raises
        ``RunError`` when it got no answer."""
        ...

    def show_plan(self) -> None:
        """Show the last turn's plan."""
        ...

    def notes(self) -> None:
        """Show who answered the last turn (and what failed)."""
        ...

    def command(self, text: str) -> bool:
        """Run a slash command; False when it ends the chat."""
        ...


def talk(session: ChatSession, runner: asyncio.Runner) -> int:
    """Read the user's lines until they quit, sending each as a turn on ``runner``; return 0,
    or 1 when any turn failed (a script piping questions in can tell), after the line
    ``error: N of M turns failed``.

    Ctrl-D, ``exit`` and ``quit`` (any case) end it, as do ``/exit`` and ``/quit``; other lines
    starting with ``/`` are the session's commands. A turn that raises ``RunError`` ends that
    turn, not the chat. Ctrl-C raises ``KeyboardInterrupt`` to the caller."""
    # No prompt when the messages come from a pipe or a file: the output stays the bot's alone.
    prompt = PROMPT if sys.stdin.isatty() else ""
    sent = failed = 0

    def end() -> int:
        if not failed:
            return 0
        turns = "turn" if sent == 1 else "turns"
        session.aside.print(f"[red]error:[/] {failed} of {sent} {turns} failed")
        return 1

    while True:
        try:
            text = input(prompt).strip()
        except EOFError:
            session.aside.print()
            return end()
        if text.lower() in ("exit", "quit"):
            return end()
        if not text:
            continue
        if text.startswith("/"):
            if not session.command(text):
                return end()
            continue
        sent += 1
        try:
            failed += runner.run(session.turn(text))
        except RunError as exc:  # an unreachable model or bot ends this turn, not the chat
            session.aside.print(f"[red]error:[/] {escape(str(exc))}")
            failed += 1
            continue
        if session.verbosity > 0:
            session.show_plan()
        if session.verbosity >= 0:
            session.notes()

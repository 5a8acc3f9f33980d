"""``harness chat --endpoint URL`` and ``harness chat --directline URL``: talk to a served bot.

With ``--endpoint`` the command is the bot's Bot Framework channel (an ``EndpointTarget``: it posts
each message to the bot's ``/api/messages`` and receives the replies on its own callback server);
``--conversation ID`` continues a conversation the bot keeps in its storage. With ``--directline``
it is a Direct Line client (``DirectLineTarget.conversation()``). Either way each message asks
for the turn's plan; a bot served by ``harness serve`` sends it (a ``harness.plan`` event) and
``/plan`` shows it. The terminal side (the read loop, line editing, history, Ctrl-C) is
``harness.cli.chat``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console
from rich.markup import escape

from harness.cli.chat import describe, line_editing, run_command, talk
from harness.cli.command import interrupt_code
from harness.detect.activities import plan_record
from harness.text.words import shorten

if TYPE_CHECKING:
    from harness.detect.transcript import Message, TurnRecord
    from harness.simulate.directline import DirectLineConversation, DirectLineTarget
    from harness.simulate.endpoint import EndpointTarget

__all__ = ["REMOTE_COMMANDS", "RemoteBot", "chat_remote", "directline_bot", "endpoint_bot"]

_ASKED = 60
"""A late reply's label quotes the message it answers up to this many characters."""

REMOTE_COMMANDS = {
    "/plan": "the last turn's scoped requests and who handled each (bots served by harness serve)",
    "/help": "these commands",
    "/exit": "end the chat (also: exit, quit, Ctrl-D; Ctrl-C ends it with exit code 130)",
}


class RemoteBot(Protocol):
    """A bot the chat reaches over the network, a turn at a time."""

    description: str
    """Shown in the banner: where the bot is and which conversation this is."""

    async def send(self, text: str) -> tuple[list[Message], TurnRecord | None]:
        """Send one message; the bot's messages for it and the turn's plan when the bot sent one."""
        ...


def _plan_of(plans: Iterable[TurnRecord | None], turn: int) -> TurnRecord | None:
    """Turn ``turn``'s plan among ``plans`` (the last one, if the bot sent more), not a plan for
    an earlier turn that arrived late with this turn's replies."""
    return next((p for p in reversed(list(plans)) if p is not None and p.turn == turn), None)


@dataclass(slots=True)
class _EndpointBot:
    target: EndpointTarget
    conversation: str
    description: str = ""
    _turn: int = field(default=0)
    """The number of the turn last sent (the target's: counted even when a turn fails)."""

    async def send(self, text: str) -> tuple[list[Message], TurnRecord | None]:
        self._turn += 1
        received = await self.target.send_turn(self.conversation, text)
        messages = [m for m in map(self.target.message, received) if m is not None]
        plans = (plan_record(r.activity, r.turn) for r in received)
        return messages, _plan_of(plans, self._turn)


@dataclass(slots=True)
class _DirectLineBot:
    talk: DirectLineConversation
    description: str = ""
    _seen_plans: int = field(default=0)

    async def send(self, text: str) -> tuple[list[Message], TurnRecord | None]:
        messages = await self.talk.send(text)
        turns = self.talk.transcript.turns
        plan = _plan_of(turns[self._seen_plans :], self.talk.transcript.turn_count)
        self._seen_plans = len(turns)
        return [m for m in messages if m.role == "bot"], plan


def endpoint_bot(
    target: EndpointTarget, conversation: str | None
) -> Callable[[contextlib.AsyncExitStack], Coroutine[Any, Any, RemoteBot]]:
    """Opens the chat with the bot at ``target``: conversation ``conversation``, or a new one."""

    async def open_bot(stack: contextlib.AsyncExitStack) -> RemoteBot:
        await stack.enter_async_context(target)
        chosen = conversation or f"chat-{uuid.uuid4().hex[:12]}"
        how = "" if conversation else f" (continue it with --conversation {chosen})"
        return _EndpointBot(target, chosen, f"{target.url}, conversation {chosen}{how}")

    return open_bot


def directline_bot(
    target: DirectLineTarget,
) -> Callable[[contextlib.AsyncExitStack], Coroutine[Any, Any, RemoteBot]]:
    """Opens a new Direct Line conversation with ``target``."""

    async def open_bot(stack: contextlib.AsyncExitStack) -> RemoteBot:
        stack.push_async_callback(target.aclose)
        talk = await stack.enter_async_context(target.conversation("chat"))
        return _DirectLineBot(talk, f"{target.base_url}, Direct Line conversation {talk.id}")

    return open_bot


@dataclass(slots=True)
class _Session:
    bot: RemoteBot
    console: Console
    aside: Console
    verbosity: int
    plan: TurnRecord | None = None
    turns: int = 0
    sent: list[str] = field(default_factory=list)
    """What the user sent, in order (turn N is ``sent[N - 1]``), to label late replies."""

    async def turn(self, text: str) -> bool:
        """Send ``text``, then show the bot's messages for it and keep the plan it sent. True
        when the plan names a sub-agent whose call failed or timed out (the user got an
        apology), as a local chat's turn is; the plan is the only sign a served bot gives, so a
        bot that sends none (not served by ``harness serve``) never fails a turn this way. A
        turn that gets no answer raises ``RunError``.

        A late reply (one that answers an earlier message, its ``replyToId``) is shown with
        what it answers: ``(late, to your message 1: "...") SENDER: text``."""
        self.sent.append(text)
        messages, self.plan = await self.bot.send(text)
        self.turns += 1
        for message in messages:
            self.console.print(f"{self._late(message)}{describe(message)}: {escape(message.text)}")
        return self.plan is not None and bool(self.plan.failed)

    def _late(self, message: Message) -> str:
        """The label of a reply to an earlier message than the last one sent; else empty."""
        if not 0 < message.turn < len(self.sent):
            return ""
        asked = shorten(self.sent[message.turn - 1], _ASKED)
        return f'[yellow](late, to your message {message.turn}: "{escape(asked)}")[/] '

    def show_plan(self) -> None:
        if self.turns == 0:
            self.aside.print("[dim]no turn yet[/]")
        elif self.plan is None:
            self.aside.print(
                "[dim]  the bot sent no plan (bots served by `harness serve` send one)[/]"
            )
        elif not self.plan.plan:
            self.aside.print("[dim]  no scoped requests[/]")
        else:
            for planned in self.plan.plan:
                self.aside.print(f"  [dim]{escape(planned.agent)}:[/] {escape(planned.request)}")

    def notes(self) -> None:
        if self.plan is None:
            return
        notes = []
        if self.plan.answered_by:
            notes.append("answered by " + ", ".join(self.plan.answered_by))
        if self.plan.failed:
            notes.append("failed: " + ", ".join(self.plan.failed))
        if notes:
            self.aside.print(f"[dim]  ({escape('; '.join(notes))})[/]")

    def command(self, text: str) -> bool:
        """Run a slash command; False when it ends the chat."""
        return run_command(text, {"/plan": self.show_plan}, REMOTE_COMMANDS, self.aside)


def chat_remote(
    open_bot: Callable[[contextlib.AsyncExitStack], Coroutine[Any, Any, RemoteBot]],
    *,
    console: Console,
    verbosity: int = 0,
    notes: Console | None = None,
) -> int:
    """Talk to a remote bot on the terminal until the user quits; return the exit code.

    As :func:`harness.cli.chat.chat`: the bot's messages on ``console`` (standard output), the
    rest on ``notes`` (standard error); Ctrl-D or ``exit`` end with 0, or 1 when a turn failed,
    Ctrl-C with 130. A turn that fails (the bot unreachable, an HTTP error, no reply in time, or a
    sub-agent call that the turn's plan names as failed) ends that turn, not the chat.

    Raises:
        RunError: the conversation could not be opened.
    """
    if notes is None:
        notes = Console(stderr=True, highlight=False, soft_wrap=True)
    runner = asyncio.Runner()
    stack = contextlib.AsyncExitStack()
    interrupted = False
    try:
        bot = runner.run(open_bot(stack))
        session = _Session(bot=bot, console=console, aside=notes, verbosity=verbosity)
        if verbosity >= 0:
            notes.print(f"[bold]{escape(bot.description)}[/]")
            notes.print("[dim]/help lists the commands; Ctrl-D or exit quits[/]")
        with line_editing():
            return talk(session, runner)
    except KeyboardInterrupt:
        interrupted = True
        notes.print()
        return interrupt_code()
    finally:
        with contextlib.suppress(KeyboardInterrupt):
            runner.run(stack.aclose())
        if interrupted:
            runner.get_loop().close()
        else:
            runner.close()

"""What the simulator talks to: an in-process bot, a live endpoint (``harness.hosting``), or a
deployed bot behind Direct Line (``harness.simulate.directline``) or Copilot Studio
(``harness.simulate.copilot_studio``).

A target runs one scripted conversation and returns its transcript. Everything the detectors need
(senders, modes, plans when known) is in the transcript, so every target is checked the same way.
"""

from __future__ import annotations

import dataclasses
import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

from harness.detect.transcript import Message, Transcript
from harness.exceptions import RunError
from subagents import Usage

if TYPE_CHECKING:
    from harness.runtime.parent import Parent

__all__ = ["ConversationError", "InProcessTarget", "Target"]


_log = logging.getLogger(__name__)


class ConversationError(RunError):
    """A remote target failed part-way through a conversation (an expired token, an HTTP error, a
    dropped connection, a bot that never answered).

    The scenario runner reports it as a failed scenario, with the messages received before it, and
    goes on with the next scenario.

    Attributes:
        transcript: the conversation up to the failure.
        turn: the 1-based turn that failed, when known.
    """

    def __init__(self, message: str, *, transcript: Transcript, turn: int | None = None) -> None:
        super().__init__(message)
        self.transcript = transcript
        self.turn = turn


def _place_in_turn(transcript: Transcript, message: Message, *, during: int) -> Message:
    """Add ``message``, received with turn ``during``'s replies, to ``transcript`` at the end of
    its own turn; return it as kept: a reply to an earlier turn (a late reply) carries
    ``arrived_during`` and is logged as a warning.

    A bot may answer an earlier turn (its ``replyToId``) after that turn was over (after its
    quiet period): the reply is received with the next turn's.
    The reply is kept in the turn it answers, after that turn's other messages, so the
    transcript stays in turn order (as ``harness detect`` reads files) and the missed-request
    check sees the answer where it belongs; its ``timestamp``, when known, still says when it
    was sent, and the scenario's report carries a note about it
    (:func:`harness.simulate.runner.late_notes`).
    """
    if message.turn < during:
        message = dataclasses.replace(message, arrived_during=during)
    messages = transcript.messages
    index = len(messages)
    while index and messages[index - 1].turn > message.turn:
        index -= 1
    messages.insert(index, message)
    if message.arrived_during is not None:
        _log.warning(
            "%s: a reply to turn %d came after that turn was over (received with turn %d's "
            "replies); it is kept at the end of turn %d",
            transcript.conversation,
            message.turn,
            during,
            message.turn,
        )
    return message


class Target(ABC):
    """A bot the simulator can hold conversations with. Use as an async context manager."""

    name: str = "target"

    async def __aenter__(self) -> Target:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:  # noqa: B027 - optional hook
        """Release resources (servers, HTTP sessions)."""

    @abstractmethod
    async def run_conversation(self, turns: Sequence[str], *, conversation_id: str) -> Transcript:
        """Send the user turns in order, wait for each turn's replies, return the transcript."""

    def ended_by_bot(self, conversation_id: str) -> int | None:
        """The turn of the last conversation named ``conversation_id`` in which the bot ended
        it on purpose (Direct Line's ``endOfConversation``), when the target can tell; else
        None."""
        return None


class InProcessTarget(Target):
    """A ``Parent`` running in this process."""

    def __init__(self, parent: Parent) -> None:
        self.parent = parent
        self.name = parent.name
        self.usage = Usage()
        """Model usage summed over every turn run through this target."""

    async def run_conversation(self, turns: Sequence[str], *, conversation_id: str) -> Transcript:
        async with self.parent.conversation(id=conversation_id) as conversation:
            for text in turns:
                turn = await conversation.send(text)
                self.usage = self.usage + turn.usage
            return conversation.transcript

    async def aclose(self) -> None:
        await self.parent.aclose()

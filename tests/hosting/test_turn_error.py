"""A turn that fails inside the bot tells the user so (both adapters), and the server stays up."""

from __future__ import annotations

import pytest

from harness import FunctionModel, ModelRequest, ModelResponse, Parent
from harness.hosting import EndpointTarget, create_app
from harness.hosting.core import ERROR_REPLY
from tests.hosting._support import ADAPTERS, running


def _broken(request: ModelRequest) -> ModelResponse:
    raise RuntimeError("the model backend is down")


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_failing_model_gives_a_failed_turn_with_an_apology(adapter: str) -> None:
    bot = Parent(name="hd", model=FunctionModel(_broken))
    async with (
        running(create_app(bot, adapter=adapter)) as url,  # type: ignore[arg-type]
        EndpointTarget(f"{url}/api/messages", quiet_period=0.1) as channel,
    ):
        transcript = await channel.run_conversation(["hello"], conversation_id="c1")
    (reply,) = transcript.bot_messages()
    assert reply.sender == "hd" and reply.text.startswith("Sorry, something went wrong")


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_turn_that_raises_is_reported_to_the_user(adapter: str) -> None:
    bot = Parent(name="hd", model=FunctionModel(_broken), strict=True)
    async with (
        running(create_app(bot, adapter=adapter)) as url,  # type: ignore[arg-type]
        EndpointTarget(f"{url}/api/messages", quiet_period=0.1) as channel,
    ):
        first = await channel.run_conversation(["hello"], conversation_id="c1")
        again = await channel.run_conversation(["hello again"], conversation_id="c2")
    for transcript in (first, again):
        replies = transcript.bot_messages()
        assert [m.text for m in replies] == [ERROR_REPLY]
        assert replies[0].sender == "hd"


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_tool_calling_sys_exit_does_not_stop_the_server(adapter: str) -> None:
    import sys

    from aiohttp import ClientSession

    from harness import ChildAgent

    def next_payday() -> str:
        """When the next paycheck (payday) arrives."""
        sys.exit(0)

    payroll = ChildAgent(
        name="payroll",
        mode="silent",  # type: ignore[arg-type]
        description="Looks up pay dates and paychecks.",
        examples=["when will I be getting my next paycheck"],
        tools=[next_payday],
    )
    bot = Parent(name="hd", subagents=[payroll])
    async with (
        running(create_app(bot, adapter=adapter)) as url,  # type: ignore[arg-type]
        EndpointTarget(f"{url}/api/messages", quiet_period=0.1) as channel,
    ):
        transcript = await channel.run_conversation(
            ["When will I be getting my next paycheck?"], conversation_id="exit"
        )
        async with ClientSession() as session, session.get(f"{url}/healthz") as response:
            assert response.status == 200
    (reply,) = transcript.bot_messages()
    assert "could not finish" in reply.text

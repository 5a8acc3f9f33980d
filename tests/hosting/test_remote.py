"""Remote connected agents: one host exposes its sub-agents, another parent calls them by URL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import ClientSession, web

from harness import ConnectedAgent, Parent
from harness.hosting import EndpointTarget, create_app
from harness.models import RulesModel
from harness.runtime.runner import SubagentCall, run_subagent
from subagents import HistoryEntry, Mode
from tests.hosting._support import helpdesk, running

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _recording(app: web.Application) -> list[tuple[str, dict[str, Any]]]:
    """Record every body posted to the exposed agents, as it came over the wire."""
    seen: list[tuple[str, dict[str, Any]]] = []

    @web.middleware
    async def record(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/agents/"):
            seen.append((request.path, json.loads(await request.read())))
        return await handler(request)

    app.middlewares.append(record)
    return seen


def _front(host: str) -> Parent:
    """A parent whose sub-agents all live on the remote helpdesk host."""
    return Parent(
        name="front",
        instructions="You are the front desk.",
        model="rules",
        subagents=[
            ConnectedAgent(
                name="pto",
                mode=Mode.DIRECT,
                url=f"{host}/agents/pto",
                description="Answers questions about paid time off (PTO, vacation days).",
                examples=["how many vacation days do i have remaining", "how many pto days used"],
            ),
            ConnectedAgent(
                name="payroll",
                mode=Mode.SILENT,
                pass_history=False,
                url=f"{host}/agents/payroll",
                description="Looks up pay dates, paychecks, gross pay and W-2 tax forms.",
                examples=["when will i be getting my next paycheck", "where is my w-2 form"],
            ),
            ConnectedAgent(
                name="direct_deposit",
                mode=Mode.CONVERSATIONAL,
                url=f"{host}/agents/direct_deposit",
                description="Changes the bank account used for direct deposit of pay.",
                examples=["i want to change my direct deposit account"],
            ),
        ],
    )


async def test_a_parent_served_over_http_uses_agents_on_a_remote_host() -> None:
    host_app = create_app(helpdesk(), expose=True)
    wire = _recording(host_app)
    async with running(host_app) as host:
        front = _front(host)
        async with (
            running(create_app(front)) as base,
            EndpointTarget(f"{base}/api/messages", quiet_period=0.05) as channel,
        ):
            transcript = await channel.run_conversation(
                [
                    "How many vacation days do I have remaining, and when will I be getting my "
                    "next paycheck?",
                    "I want to change my direct deposit account",
                    "It's 123456789",
                    "yes",
                ],
                conversation_id="remote",
            )
    turn1 = transcript.bot_messages(1)
    assert [(m.sender, m.mode) for m in turn1] == [("pto", "direct"), ("front", None)]
    assert "12 PTO days left" in turn1[0].text
    assert "Friday, December 4" in turn1[1].text  # the silent remote agent's findings, relayed
    texts = [m.text for m in transcript.bot_messages()]
    assert "What is the new account number?" in texts[2]
    assert "ending in 6789" in texts[3]
    assert texts[4].startswith("Done: your pay will go to the account ending in 6789")
    assert all(m.sender != "payroll" for m in transcript.bot_messages())
    # pass_history off: the payroll host never received any history; pto (on) did.
    payroll = [body for path, body in wire if path == "/agents/payroll"]
    pto = [body for path, body in wire if path == "/agents/pto"]
    dialogue = [body for path, body in wire if path == "/agents/direct_deposit"]
    assert payroll and all("history" not in body for body in payroll)
    assert pto and all(isinstance(body["history"], list) for body in pto)
    # The conversational agent's memory travels with the call; the host keeps none.
    assert "state" not in dialogue[0]
    assert dialogue[1]["state"]["step"] == "account"
    assert dialogue[1]["continuing"] is True


async def test_agent_listing_and_refusals() -> None:
    async with running(create_app(helpdesk(), expose=True)) as host, ClientSession() as session:
        async with session.get(f"{host}/agents") as response:
            listing = await response.json()
        assert {(a["name"], a["mode"], a["passHistory"]) for a in listing["agents"]} == {
            ("pto", "direct", True),
            ("payroll", "silent", False),
            ("password", "silent", True),
            ("direct_deposit", "conversational", True),
        }
        async with session.post(f"{host}/agents/nobody", json={"scopedRequest": "x"}) as response:
            assert response.status == 404
        for body in (
            {},
            {"scopedRequest": " "},
            {"scopedRequest": "x", "history": "no"},
            {"scopedRequest": "x", "history": [{"role": "robot"}]},
            {"scopedRequest": "x", "state": [1]},
        ):
            async with session.post(f"{host}/agents/pto", json=body) as response:
                assert response.status == 400, body
                assert (await response.json())["error"]["message"]
        async with session.post(
            f"{host}/agents/pto", data=b"{oops", headers={"Content-Type": "application/json"}
        ) as response:
            assert response.status == 400
    # Without --expose there are no agent routes.
    async with (
        running(create_app(helpdesk())) as plain,
        ClientSession() as session,
        session.get(f"{plain}/agents") as response,
    ):
        assert response.status == 404


class _FakeHost:
    """A remote agent host that fails a number of times, then answers as configured."""

    def __init__(
        self,
        *,
        failures: int = 0,
        status: int = 503,
        delay: float = 0.0,
        answer: dict[str, Any] | None = None,
    ) -> None:
        self.failures = failures
        self.status = status
        self.delay = delay
        self.calls: list[dict[str, Any]] = []
        self.answer = answer or {
            "agent": "payroll",
            "mode": "silent",
            "status": "complete",
            "outputs": {"answered": False, "findings": "Payday is Friday.", "openQuestions": []},
            "messages": [],
            "state": {"seen": True},
            "usage": {"requests": 2, "input_tokens": 10, "output_tokens": 5},
        }
        self.release = asyncio.Event()

    def app(self) -> web.Application:
        async def run(request: web.Request) -> web.Response:
            self.calls.append(await request.json())
            if len(self.calls) <= self.failures:
                return web.json_response({"error": {"message": "try later"}}, status=self.status)
            if self.delay:
                try:
                    async with asyncio.timeout(self.delay):
                        await self.release.wait()
                except TimeoutError:
                    pass
            return web.json_response(self.answer)

        app = web.Application()
        app.router.add_post("/agents/{name}", run)
        return app


def _call(
    url: str,
    *,
    mode: Mode = Mode.SILENT,
    retries: int = 2,
    timeout: float = 5.0,
    pass_history: bool = False,
    sent: list[str] | None = None,
) -> SubagentCall:
    async def send(text: str) -> None:
        assert sent is not None
        sent.append(text)

    agent = ConnectedAgent(
        name="payroll",
        description="Pay dates.",
        mode=mode,
        url=url,
        retries=retries,
        timeout=timeout,
        pass_history=pass_history,
    )
    return SubagentCall(
        agent=agent,
        request="when is payday",
        history=(HistoryEntry(role="user", sender="user", text="secret earlier turn", turn=1),),
        model=RulesModel(),
        system="",
        send=None if mode is Mode.SILENT else send,
    )


async def test_retries_5xx_then_succeeds_and_sends_no_history() -> None:
    fake = _FakeHost(failures=2)
    async with running(fake.app()) as host:
        call = _call(f"{host}/agents/payroll", retries=2)
        result = await run_subagent(call)
    assert result.status == "complete", result.error
    assert result.outputs is not None and result.outputs.findings == "Payday is Friday."
    assert result.usage.requests == 2
    assert call.state == {"seen": True}
    assert len(fake.calls) == 3
    assert all("history" not in body for body in fake.calls)
    assert all("secret" not in json.dumps(body) for body in fake.calls)


async def test_history_goes_over_the_wire_only_when_pass_history_is_on() -> None:
    fake = _FakeHost()
    async with running(fake.app()) as host:
        await run_subagent(_call(f"{host}/agents/payroll", pass_history=True))
    assert fake.calls[0]["history"] == [
        {"role": "user", "sender": "user", "text": "secret earlier turn", "turn": 1}
    ]


async def test_gives_up_after_the_retries() -> None:
    fake = _FakeHost(failures=10)
    async with running(fake.app()) as host:
        result = await run_subagent(_call(f"{host}/agents/payroll", retries=1))
    assert result.status == "failed"
    assert "after 2 attempt(s): HTTP 503: try later" in (result.error or "")
    assert len(fake.calls) == 2


async def test_a_4xx_is_not_retried() -> None:
    fake = _FakeHost(failures=10, status=400)
    async with running(fake.app()) as host:
        result = await run_subagent(_call(f"{host}/agents/payroll", retries=3))
    assert result.status == "failed" and "HTTP 400" in (result.error or "")
    assert len(fake.calls) == 1


async def test_connection_refused_is_retried_then_fails() -> None:
    async with running(web.Application()) as gone:
        url = f"{gone}/agents/payroll"
    result = await run_subagent(_call(url, retries=2))
    assert result.status == "failed"
    assert "after 3 attempt(s)" in (result.error or "")


async def test_a_slow_remote_agent_times_out() -> None:
    fake = _FakeHost(delay=5.0)
    async with running(fake.app()) as host:
        result = await run_subagent(_call(f"{host}/agents/payroll", timeout=0.3))
        fake.release.set()
    assert result.status == "timed_out"


async def test_a_direct_remote_agent_relays_its_message_once() -> None:
    answer = {
        "agent": "pto",
        "mode": "direct",
        "status": "complete",
        "outputs": {
            "answered": True,
            "interactionSummary": "Told them 12 days.",
            "openQuestions": [],
        },
        "messages": ["You have 12 PTO days left."],
        "state": {},
    }
    fake = _FakeHost(failures=1, answer=answer)
    sent: list[str] = []
    async with running(fake.app()) as host:
        result = await run_subagent(_call(f"{host}/agents/pto", mode=Mode.DIRECT, sent=sent))
    assert result.answered and result.messages == ("You have 12 PTO days left.",)
    assert sent == ["You have 12 PTO days left."]  # the failed first attempt relayed nothing


async def test_mode_mismatch_and_silent_messages_are_refused() -> None:
    direct = {
        "mode": "direct",
        "status": "complete",
        "outputs": {"answered": True},
        "messages": ["hi"],
    }
    fake = _FakeHost(answer=direct)
    async with running(fake.app()) as host:
        result = await run_subagent(_call(f"{host}/agents/payroll"))
    assert result.status == "failed" and "is direct, but is configured here as silent" in (
        result.error or ""
    )
    leaky = {
        "mode": "silent",
        "status": "complete",
        "outputs": {"answered": False, "findings": "x", "openQuestions": []},
        "messages": ["I should not say this"],
    }
    fake = _FakeHost(answer=leaky)
    async with running(fake.app()) as host:
        result = await run_subagent(_call(f"{host}/agents/payroll"))
    assert result.status == "failed" and "may not message the user" in (result.error or "")
    assert result.messages == ()


async def test_an_expose_token_guards_the_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(helpdesk(), expose=True, expose_token="s3cret")
    async with running(app) as host:
        async with ClientSession() as session:
            for headers in ({}, {"Authorization": "Bearer wrong"}):
                async with session.get(f"{host}/agents", headers=headers) as response:
                    assert response.status == 401
                async with session.post(
                    f"{host}/agents/payroll", json={"scopedRequest": "payday"}, headers=headers
                ) as response:
                    assert response.status == 401
        call = _call(f"{host}/agents/payroll")
        refused = await run_subagent(call)
        monkeypatch.setenv("HARNESS_AGENT_TOKEN", "s3cret")
        accepted = await run_subagent(_call(f"{host}/agents/payroll"))
    assert refused.status == "failed" and "HTTP 401" in (refused.error or "")
    assert accepted.status == "complete", accepted.error
    assert accepted.outputs is not None and "Friday, December 4" in (
        accepted.outputs.findings or ""
    )


def test_exposing_agents_with_an_app_id_needs_an_agent_token() -> None:
    from harness.exceptions import UsageError

    with pytest.raises(UsageError, match="needs an agent token"):
        create_app(helpdesk(), expose=True, app_id="app", app_password="secret")
    create_app(helpdesk(), expose=True, app_id="app", app_password="secret", expose_token="t")


async def test_each_remote_agent_sends_only_its_own_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """``token_env`` names the variable per host, so one host never sees another's token."""
    seen: list[str | None] = []

    async def agent(request: web.Request) -> web.Response:
        seen.append(request.headers.get("Authorization"))
        return web.json_response({"error": {"code": "Unauthorized", "message": "no"}}, status=401)

    spy = web.Application()
    spy.router.add_post("/agents/payroll", agent)
    monkeypatch.setenv("HARNESS_AGENT_TOKEN", "shared-secret")
    monkeypatch.setenv("PAYROLL_TOKEN", "payroll-only")
    async with running(spy) as host:
        call = _call(f"{host}/agents/payroll", retries=0)
        own = ConnectedAgent(
            name="payroll",
            description="Pay dates.",
            mode=Mode.SILENT,
            url=f"{host}/agents/payroll",
            retries=0,
            pass_history=False,
            token_env="PAYROLL_TOKEN",
        )
        call.agent = own
        await run_subagent(call)
        monkeypatch.delenv("PAYROLL_TOKEN")
        missing = await run_subagent(call)
    assert seen == ["Bearer payroll-only"]
    assert missing.status == "failed" and "PAYROLL_TOKEN" in (missing.error or "")


def test_token_env_is_for_remote_connected_agents_only() -> None:
    from harness.exceptions import ConfigError

    with pytest.raises(ConfigError, match="token_env needs a url"):
        ConnectedAgent(name="p", description="d", token_env="X")
    with pytest.raises(ConfigError, match="environment variable name"):
        ConnectedAgent(name="p", description="d", url="http://h/agents/p", token_env="A-B")

"""``CopilotStudioTarget``: Microsoft's real ``CopilotClient`` against a local fake of the Copilot
Studio server-sent-events API (a direct-connect URL), bridged to a served bot or replaying canned
plan events around child and connected agents."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

from harness import load_bot
from harness.detect import detect
from harness.exceptions import UsageError
from harness.hosting import create_app
from harness.simulate.copilot_studio import CopilotStudioTarget, msal_token_provider
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios
from harness.simulate.targets import ConversationError
from tests.hosting._support import running
from tests.simulate._copilot_fake import FakeCopilotStudio
from tests.simulate.test_directline import NAIVE, SCENARIOS, _summary, in_process, wire_view

PLAN_ID = "plan-1"


def _step(event: str, step: str, dialog: str, kind: str) -> dict[str, Any]:
    """A plan event as Copilot Studio's generative orchestration emits it."""
    return {
        "type": "event",
        "name": event,
        "valueType": event,
        "value": {"planIdentifier": PLAN_ID, "stepId": step, "taskDialogId": dialog, "type": kind},
    }


async def _traced(_activity: dict[str, Any]) -> list[dict[str, Any]]:
    """A child agent and a connected agent answer, then the parent restates the first answer."""
    return [
        {"type": "typing"},
        {"type": "event", "name": "DynamicPlanReceived", "value": {"steps": ["s1", "s2"]}},
        _step("DynamicPlanStepTriggered", "s1", "cr123_hr.agent.PTO", "Agent"),
        {"type": "message", "text": "You have 12 PTO days left this year (out of 20)."},
        _step("DynamicPlanStepFinished", "s1", "cr123_hr.agent.PTO", "Agent"),
        _step(
            "DynamicPlanStepTriggered",
            "s2",
            "cr123_hr.InvokeConnectedAgentTaskAction.Payroll",
            "Agent",
        ),
        {"type": "message", "text": "Your next paycheck arrives on Friday, December 4."},
        _step(
            "DynamicPlanStepFinished",
            "s2",
            "cr123_hr.InvokeConnectedAgentTaskAction.Payroll",
            "Agent",
        ),
        _step("DynamicPlanStepTriggered", "s3", "cr123_hr.topic.Goodbye", "CustomTopic"),
        {
            "type": "message",
            "text": "To sum up: You have 12 PTO days left this year (out of 20). "
            "Your next paycheck arrives on Friday, December 4.",
        },
        _step("DynamicPlanStepFinished", "s3", "cr123_hr.topic.Goodbye", "CustomTopic"),
        {"type": "event", "name": "DynamicPlanFinished", "value": {"wasCancelled": False}},
    ]


async def test_plan_events_attribute_messages_to_child_and_connected_agents() -> None:
    fake = FakeCopilotStudio(_traced, greeting="Hi! I'm the HR helpdesk.")
    async with fake.running() as url:
        target = CopilotStudioTarget(token=fake.token, direct_connect_url=url)
        transcript = await target.run_conversation(
            ["How many vacation days do I have left, and when is payday?"], conversation_id="t"
        )
    assert fake.requests == ["start", "turn"]
    assert [(m.turn, m.sender) for m in transcript] == [
        (0, "HR Helpdesk"),  # the greeting, before the first user turn
        (1, "user"),
        (1, "PTO"),
        (1, "Payroll"),
        (1, "HR Helpdesk"),  # a topic step is the parent speaking
    ]
    duplicates = [f for f in detect(transcript) if f.kind == "duplicate"]
    assert sorted(f.senders for f in duplicates) == [
        ("PTO", "HR Helpdesk"),
        ("Payroll", "HR Helpdesk"),
    ]


async def test_without_plan_events_duplicates_are_found_from_the_text_alone() -> None:
    async def untraced(activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [a for a in await _traced(activity) if a["type"] == "message"]

    fake = FakeCopilotStudio(untraced)
    async with fake.running() as url:
        target = CopilotStudioTarget(token=fake.token, direct_connect_url=url)
        transcript = await target.run_conversation(
            ["vacation days and payday?"], conversation_id="u"
        )
    assert {m.sender for m in transcript.bot_messages()} == {"HR Helpdesk"}
    duplicates = [f for f in detect(transcript) if f.kind == "duplicate"]
    assert len(duplicates) == 2


async def test_the_naive_helpdesk_through_copilot_studio_has_the_in_process_findings() -> None:
    files = [load_scenarios(SCENARIOS)]
    local = await in_process(NAIVE, files)
    async with running(create_app(load_bot(NAIVE))) as bot:
        fake = FakeCopilotStudio(f"{bot}/api/messages")
        async with fake.running() as url:
            target = CopilotStudioTarget(token=fake.token, direct_connect_url=url)
            remote = await run_scenarios(files, target=target)
    assert all(r.error is None for r in remote)
    assert _summary(remote) == _summary(wire_view(local, files))


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        (
            {"start": 401},
            "cannot start the conversation: Copilot Studio refused the token (HTTP 401)",
        ),
        ({"turn": 500}, "turn 1: Copilot Studio answered HTTP 500"),
    ],
)
async def test_api_errors_are_clear(failure: dict[str, int], expected: str) -> None:
    fake = FakeCopilotStudio(_traced)
    fake.failures.update(failure)
    async with fake.running() as url:
        target = CopilotStudioTarget(token=fake.token, direct_connect_url=url)
        with pytest.raises(ConversationError) as caught:
            await target.run_conversation(["hello"], conversation_id="e")
    assert str(caught.value).startswith(expected)


async def test_a_wrong_token_is_refused() -> None:
    fake = FakeCopilotStudio(_traced)
    async with fake.running() as url:
        target = CopilotStudioTarget(token="stale", direct_connect_url=url)
        with pytest.raises(ConversationError, match=r"refused the token \(HTTP 401\)"):
            await target.run_conversation(["hello"], conversation_id="e")


async def test_a_silent_agent_and_a_hung_stream_are_errors() -> None:
    async def silent(_activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "typing"}]

    fake = FakeCopilotStudio(silent)
    async with fake.running() as url:
        target = CopilotStudioTarget(token=fake.token, direct_connect_url=url)
        with pytest.raises(ConversationError, match="turn 1: the agent's reply stream closed"):
            await target.run_conversation(["hello"], conversation_id="s")
        fake.hang = True
        slow = CopilotStudioTarget(token=fake.token, direct_connect_url=url, turn_timeout=0.3)
        with pytest.raises(ConversationError, match=r"did not close within 0\.3s"):
            await slow.run_conversation(["hello"], conversation_id="h")


def test_needs_an_address_and_a_known_cloud() -> None:
    with pytest.raises(UsageError, match="environment id and schema name"):
        CopilotStudioTarget(token="t", environment_id="env")
    with pytest.raises(UsageError, match="unknown Power Platform cloud 'Mars'"):
        CopilotStudioTarget(token="t", environment_id="e", schema_name="s", cloud="Mars")
    target = CopilotStudioTarget(token="t", environment_id="e", schema_name="cr1_hr", cloud="gov")
    assert target.settings().cloud.value == "Gov"


class _FakeMsal:
    """Records how MSAL is called; answers with a token (or an error)."""

    calls: ClassVar[list[tuple[str, Any]]] = []

    def __init__(self, client_id: str, **kwargs: Any) -> None:
        self.calls.append(("init", (client_id, kwargs)))

    def acquire_token_for_client(self, *, scopes: list[str]) -> dict[str, Any]:
        self.calls.append(("client", scopes))
        return {"access_token": "app-token"}

    def get_accounts(self) -> list[Any]:
        return []

    def initiate_device_flow(self, *, scopes: list[str]) -> dict[str, Any]:
        self.calls.append(("device", scopes))
        return {"user_code": "ABCD", "message": "To sign in, use a web browser to open ..."}

    def acquire_token_by_device_flow(self, flow: dict[str, Any]) -> dict[str, Any]:
        return {"error": "authorization_declined", "error_description": "the user declined"}


def test_msal_client_credentials_and_device_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import msal  # type: ignore[import-untyped]

    from harness.exceptions import RunError

    _FakeMsal.calls = []
    monkeypatch.setattr(msal, "ConfidentialClientApplication", _FakeMsal)
    monkeypatch.setattr(msal, "PublicClientApplication", _FakeMsal)
    app = msal_token_provider(tenant_id="tid", client_id="cid", client_secret="shh")
    assert app() == "app-token"
    assert _FakeMsal.calls[0] == (
        "init",
        ("cid", {"authority": "https://login.microsoftonline.com/tid", "client_credential": "shh"}),
    )
    assert _FakeMsal.calls[1] == ("client", ["https://api.powerplatform.com/.default"])
    person = msal_token_provider(tenant_id="tid", client_id="cid")
    with pytest.raises(RunError, match="MSAL sign-in failed: the user declined"):
        person()
    assert "To sign in" in capsys.readouterr().err


def test_a_scenario_file_target_needs_a_way_to_get_a_token(tmp_path: Path) -> None:
    from harness.simulate._remote import target_from_spec

    path = tmp_path / "s.yaml"
    path.write_text(
        "target:\n  copilot_studio: {environment_id: e, schema_name: cr1_hr}\n"
        "scenarios:\n  - name: a\n    turns: [{user: hi}]\n"
    )
    spec = load_scenarios(path).target
    assert spec is not None
    with pytest.raises(UsageError, match="no Copilot Studio token: set COPILOT_STUDIO_TOKEN"):
        target_from_spec(spec, environ={})
    target = target_from_spec(spec, environ={"COPILOT_STUDIO_TOKEN": "tok"})
    assert isinstance(target, CopilotStudioTarget) and target.token == "tok"

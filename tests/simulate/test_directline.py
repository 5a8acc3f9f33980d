"""``DirectLineTarget`` against a local Direct Line 3.0 fake: tokens, refresh, WebSocket, polling,
watermarks, reconnects, and every failure a clear error and a failed scenario, never a hang."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness import load_bot
from harness.detect import check_expectations, detect
from harness.detect.reports import exit_code, render_json, render_junit, render_text
from harness.detect.transcript import Transcript
from harness.exceptions import UsageError
from harness.hosting import create_app
from harness.simulate.directline import DirectLineTarget
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios
from harness.simulate.targets import ConversationError, InProcessTarget
from tests.hosting._support import running
from tests.simulate._directline_fake import FakeClock, FakeDirectLine

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml"
SCENARIOS = ROOT / "samples" / "helpdesk" / "scenarios.yaml"

FAST = {
    "quiet_period": 0.15,
    "reply_timeout": 3.0,
    "turn_timeout": 10.0,
    "poll_interval": 0.05,
    "retry_backoff": 0.0,  # a 5xx is retried at once: no sleeping in tests
}


def _echo(times: int = 1, *, name: str = "Bot") -> Any:
    """A scripted bot: answers each message ``times`` times with the same text, from ``name``."""

    async def reply(activity: dict[str, Any]) -> list[dict[str, Any]]:
        text = f"You said: {activity['text']}. Your request has been logged."
        return [
            {"type": "typing", "from": {"id": "bot", "name": name}},
            *({"type": "message", "text": text, "from": {"id": "bot", "name": name}},) * times,
        ]

    return reply


async def _silent(_activity: dict[str, Any]) -> list[dict[str, Any]]:
    return []


def _texts(transcript: Any) -> list[tuple[int, str, str]]:
    return [(m.turn, m.role, m.sender) for m in transcript]


@pytest.mark.parametrize("transport", ["websocket", "polling"])
async def test_a_secret_becomes_a_token_and_each_turn_collects_its_replies(transport: str) -> None:
    fake = FakeDirectLine(_echo(times=2))
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, transport=transport, **FAST) as target,  # type: ignore[arg-type]
    ):
        transcript = await target.run_conversation(
            ["where can I find my W-2 form", "and my gross pay"], conversation_id="c"
        )
    # The secret is only ever sent to /tokens/generate.
    assert fake.requests[:2] == ["POST /tokens/generate", "POST /conversations"]
    assert ("WS stream" in fake.requests) == (transport == "websocket")
    assert ("GET activities" in fake.requests) == (transport == "polling")
    # Echoes of the user's own message and typing are dropped.
    assert _texts(transcript) == [
        (1, "user", "user"),
        (1, "bot", "Bot"),
        (1, "bot", "Bot"),
        (2, "user", "user"),
        (2, "bot", "Bot"),
        (2, "bot", "Bot"),
    ]
    duplicates = [(f.turn, f.method) for f in detect(transcript) if f.kind == "duplicate"]
    assert duplicates == [(1, "exact"), (2, "exact")]


async def test_polling_resumes_from_the_watermark() -> None:
    fake = FakeDirectLine(_echo())
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, transport="polling", **FAST) as target,
    ):
        transcript = await target.run_conversation(
            ["one two three", "four five six"], conversation_id="w"
        )
    # Each reply is in the transcript once, however many polls saw the conversation.
    assert [m.text for m in transcript.bot_messages()] == [
        "You said: one two three. Your request has been logged.",
        "You said: four five six. Your request has been logged.",
    ]


async def test_the_token_is_refreshed_before_it_expires() -> None:
    clock = FakeClock()
    # Tokens live 60 s; every post moves time on by 40 s, so the third turn would come after the
    # first token expired.
    fake = FakeDirectLine(_echo(), clock=clock, token_lifetime=60, advance_per_post=40)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, clock=clock, **FAST) as target,
    ):
        transcript = await target.run_conversation(["a b c", "d e f", "g h i"], conversation_id="r")
    assert len(transcript.bot_messages()) == 3
    assert fake.requests.count("POST /tokens/refresh") == 2


async def test_an_expired_token_is_a_clear_error_and_a_failed_scenario(tmp_path: Path) -> None:
    clock = FakeClock()
    fake = FakeDirectLine(_echo(), clock=clock, token_lifetime=60)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("scenarios:\n  - name: late\n    turns:\n      - user: hello there\n")
    async with fake.running() as base:
        token = fake.issue_token()
        clock.advance(61)
        async with DirectLineTarget(base, token=token, **FAST) as target:
            results = await run_scenarios([load_scenarios(scenario)], target=target)
    (result,) = results
    assert result.error is not None
    assert "token has expired (HTTP 403" in result.error
    assert exit_code(results) == 1
    assert "late: failed (0 turns, 0 messages): cannot start a Direct Line conversation" in (
        render_text(results)
    )
    junit = render_junit(results)
    assert 'errors="1"' in junit and "<error " in junit
    assert '"error": "cannot start' in render_json(results)


@pytest.mark.parametrize(
    ("route", "status", "body", "expected"),
    [
        ("POST /tokens/generate", 401, {}, "refused the credentials (HTTP 401"),
        (
            "POST activities",
            502,
            {"error": {"code": "BotError", "message": "the bot crashed"}},
            "the bot failed behind Direct Line (HTTP 502 on POST",
        ),
        ("POST activities", 503, {}, "Direct Line answered HTTP 503 on POST"),
        ("WS stream", 500, {}, "cannot open the Direct Line WebSocket"),
    ],
)
async def test_http_errors_are_clear(
    route: str, status: int, body: dict[str, Any], expected: str
) -> None:
    fake = FakeDirectLine(_echo())
    fake.failures[route] = (status, body)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,
    ):
        with pytest.raises(ConversationError) as caught:
            await target.run_conversation(["hello there friend"], conversation_id="e")
    assert expected in str(caught.value)
    if route != "POST /tokens/generate":
        assert str(caught.value).startswith("turn 1: ")
        assert caught.value.turn == 1
        assert [m.role for m in caught.value.transcript] == ["user"]


async def test_a_wrong_secret_is_refused() -> None:
    fake = FakeDirectLine(_echo())
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret="not-the-secret", **FAST) as target,
    ):
        with pytest.raises(ConversationError, match=r"refused the credentials \(HTTP 401"):
            await target.run_conversation(["hi"], conversation_id="x")


async def test_a_dropped_socket_is_reconnected_from_the_watermark() -> None:
    fake = FakeDirectLine(_echo(times=2))
    fake.drop_sockets = 1
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,
    ):
        transcript = await target.run_conversation(
            ["first question here", "second question here"], conversation_id="d"
        )
    assert "GET /conversations/{id}" in fake.requests
    assert [m.turn for m in transcript.bot_messages()] == [1, 1, 2, 2]


async def test_a_dropped_socket_that_cannot_reconnect_fails_the_scenario() -> None:
    fake = FakeDirectLine(_echo(times=2))
    fake.drop_sockets = 1
    fake.allow_reconnect = False
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,
    ):
        with pytest.raises(ConversationError) as caught:
            await target.run_conversation(["first", "second"], conversation_id="d")
    assert "WebSocket closed (code 1011) and reconnecting failed" in str(caught.value)


async def test_a_silent_bot_is_an_error_not_a_hang() -> None:
    fake = FakeDirectLine(_silent)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, quiet_period=0.1, reply_timeout=0.4) as target,
    ):
        with pytest.raises(ConversationError, match=r"turn 1: the bot sent no reply within 0\.4s"):
            await target.run_conversation(["anyone there?"], conversation_id="s")


async def test_end_of_conversation_ends_the_turn_without_waiting() -> None:
    async def goodbye(_activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"type": "message", "text": "Goodbye for now, have a nice day."},
            {"type": "endOfConversation"},
        ]

    fake = FakeDirectLine(goodbye)
    # A quiet period far longer than the test may take: only endOfConversation can end the turn.
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, quiet_period=600, turn_timeout=20) as target,
    ):
        transcript = await target.run_conversation(["bye"], conversation_id="e")
    assert [m.text for m in transcript.bot_messages()] == ["Goodbye for now, have a nice day."]


def test_rejects_bad_arguments() -> None:
    with pytest.raises(UsageError, match="http"):
        DirectLineTarget("directline.botframework.com")
    with pytest.raises(UsageError, match="not both"):
        DirectLineTarget(secret="s", token="t")
    with pytest.raises(UsageError, match="transport"):
        DirectLineTarget(transport="carrier-pigeon")  # type: ignore[arg-type]


def _summary(results: list[Any]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Each scenario's findings without message ids or senders (which the channel changes)."""
    return [
        (r.name, sorted((f.kind, f.turn, f.scope or "", f.method or "") for f in r.findings))
        for r in results
    ]


def wire_view(results: list[Any], files: list[Any]) -> list[Any]:
    """In-process results re-checked from their messages alone: what a channel can see. The
    parent's plan (which request went to which agent) and the agents' modes stay in the process."""
    scenarios = {s.name: s for f in files for s in f.scenarios}
    out = []
    for result in results:
        transcript = Transcript.from_messages(
            result.transcript.messages, conversation=result.conversation
        )
        findings = detect(transcript)
        expected = {
            number: [r for r in turn.requests if r.expect]
            for number, turn in enumerate(scenarios[result.name].turns, start=1)
        }
        findings += check_expectations(
            transcript, {n: items for n, items in expected.items() if items}, findings=findings
        )
        out.append(replace(result, transcript=transcript, findings=tuple(findings)))
    return out


async def in_process(config: Path, files: list[Any]) -> list[Any]:
    return await run_scenarios(files, target=InProcessTarget(load_bot(config)))


@pytest.mark.parametrize("transport", ["websocket", "polling"])
async def test_the_naive_helpdesk_behind_direct_line_has_the_in_process_findings(
    transport: str,
) -> None:
    files = [load_scenarios(SCENARIOS)]
    local = await in_process(NAIVE, files)
    async with running(create_app(load_bot(NAIVE))) as bot:
        fake = FakeDirectLine(f"{bot}/api/messages")
        async with (
            fake.running() as base,
            DirectLineTarget(base, secret=fake.secret, transport=transport, **FAST) as target,  # type: ignore[arg-type]
        ):
            remote = await run_scenarios(files, target=target)
    assert all(r.error is None for r in remote)
    assert _summary(remote) == _summary(wire_view(local, files))
    assert sum(f.kind == "duplicate" for r in remote for f in r.findings) == 4
    # Findings a channel cannot reproduce come only from the parent's plan, which stays in-process.
    only_local = {(r.name, f.kind, f.turn) for r in local for f in r.findings} - {
        (r.name, f.kind, f.turn) for r in remote for f in r.findings
    }
    assert {kind for _, kind, _ in only_local} <= {"wrong_scope", "missed_request"}
    # This SDK's bot names the sub-agent in channelData.sender, which Direct Line passes through.
    senders = {m.sender for r in remote for m in r.transcript.bot_messages()}
    assert {"pto", "helpdesk"} <= senders


async def test_duplicates_do_not_depend_on_sender_names() -> None:
    """A channel may name every message the same (offline-directline's "Bot", a Copilot Studio
    agent without plan events): the duplicates found must not change."""
    files = [load_scenarios(SCENARIOS)]
    checked = 0
    for result in wire_view(await in_process(NAIVE, files), files):
        anonymous = Transcript.from_messages(
            [
                replace(m, sender="Bot", mode=None, request=None) if m.role == "bot" else m
                for m in result.transcript
            ],
            conversation=result.conversation,
        )

        def duplicates(transcript: Transcript) -> list[tuple[Any, ...]]:
            found = detect(transcript)
            return sorted(
                (f.turn, f.scope, f.method, f.message_ids) for f in found if f.kind == "duplicate"
            )

        assert duplicates(anonymous) == duplicates(result.transcript)
        checked += len(duplicates(anonymous))
    assert checked == 4


async def test_what_arrived_before_a_failure_is_still_checked(tmp_path: Path) -> None:
    calls = 0

    async def flaky(activity: dict[str, Any]) -> list[dict[str, Any]]:
        nonlocal calls
        calls += 1
        return await _echo(times=2)(activity) if calls == 1 else []

    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "scenarios:\n  - name: flaky\n    turns:\n      - user: where is my W-2\n"
        "      - user: and my gross pay\n"
    )
    fake = FakeDirectLine(flaky)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, quiet_period=0.1, reply_timeout=0.4) as target,
    ):
        (result,) = await run_scenarios([load_scenarios(scenario)], target=target)
    assert result.error == "turn 2: the bot sent no reply within 0.4s"
    assert [(f.kind, f.turn) for f in result.findings] == [("duplicate", 1)]
    text = render_text([result])
    assert "flaky: failed (2 turns, 4 messages): turn 2: the bot sent no reply" in text
    assert "1 conversation: 1 error, 0 warnings (1 duplicate); 1 failed to complete" in text


async def test_a_live_endpoint_that_fails_is_a_failed_scenario_too(tmp_path: Path) -> None:
    from harness.hosting import EndpointTarget

    scenario = tmp_path / "s.yaml"
    scenario.write_text("scenarios:\n  - name: down\n    turns:\n      - user: hello\n")
    async with running(create_app(load_bot(NAIVE))) as base:
        dead = f"{base}/api/messages"
    async with EndpointTarget(dead, quiet_period=0.05) as target:
        results = await run_scenarios([load_scenarios(scenario)], target=target)
    assert results[0].error is not None and "cannot reach the bot" in results[0].error
    assert exit_code(results) == 1


async def test_a_token_that_expired_during_a_turn_fails_the_next_one() -> None:
    clock = FakeClock()
    # The first turn takes longer than the token's whole lifetime.
    fake = FakeDirectLine(_echo(), clock=clock, token_lifetime=60, advance_per_post=100)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, clock=clock, **FAST) as target,
    ):
        with pytest.raises(ConversationError) as caught:
            await target.run_conversation(["one two three", "four five six"], conversation_id="x")
    assert str(caught.value) == (
        "turn 2: the Direct Line token expired before it could be refreshed "
        "(a turn took longer than the token's lifetime)"
    )
    assert len(caught.value.transcript.bot_messages()) == 1


async def test_a_copilot_studio_agent_behind_direct_line_is_attributed_from_plan_events() -> None:
    from tests.simulate.test_copilot_studio import _traced

    fake = FakeDirectLine(_traced)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,
    ):
        transcript = await target.run_conversation(["vacation and payday?"], conversation_id="p")
    assert [m.sender for m in transcript.bot_messages()] == ["PTO", "Payroll", "bot"]


async def test_a_websocket_that_cannot_open_fails_without_printing_its_token() -> None:
    """The stream URL carries the conversation's token: an error about it must not show it."""
    fake = FakeDirectLine(_echo())
    fake.failures["WS stream"] = (403, {"error": {"code": "Forbidden", "message": "no"}})
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,
    ):
        with pytest.raises(ConversationError) as caught:
            await target.run_conversation(["hi there"], conversation_id="w")
    message = str(caught.value)
    assert "cannot open the Direct Line WebSocket" in message
    assert "403" in message
    assert fake.secret not in message
    assert not any(token in message for token in fake.tokens)
    assert "tok-" not in message

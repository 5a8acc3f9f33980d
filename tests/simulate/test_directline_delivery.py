"""How a deployed bot's replies are put in the transcript when they do not arrive neatly: a late
reply to an earlier turn, an activity Direct Line delivers again, a bot still typing, a token
that serves one conversation, and a Copilot Studio URL that cannot be reached."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from harness.detect import detect
from harness.detect.transcript import Message, Transcript
from harness.simulate.copilot_studio import CopilotStudioTarget
from harness.simulate.directline import DirectLineTarget
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios
from harness.simulate.targets import ConversationError
from tests.simulate._directline_fake import FakeDirectLine

FAST = {"quiet_period": 0.15, "reply_timeout": 5.0, "turn_timeout": 30.0, "poll_interval": 0.05}
TRANSPORTS = pytest.mark.parametrize("transport", ["websocket", "polling"])
LATE = "Second part: your next payday is Friday, December 4."
WARNED = (
    "late: a reply to turn 1 came after that turn was over (received with turn 2's replies); it "
    "is kept at the end of turn 1"
)


def _bot(text: str) -> dict[str, Any]:
    return {"type": "message", "text": text, "from": {"id": "bot", "name": "helpdesk"}}


def _late_to_turn_one() -> Any:
    """A bot that answers each message at once and, with its answer to the second one, sends
    a second part of its answer to the first (``replyToId`` names the first message)."""
    asked: list[str] = []

    async def reply(activity: dict[str, Any]) -> list[dict[str, Any]]:
        asked.append(activity["id"])
        answer = _bot(f"First: got '{activity['text']}'. Your next payday is Friday, December 4.")
        if len(asked) == 2:
            return [answer, {**_bot(LATE), "replyToId": asked[0]}]
        return [answer]

    return reply


def _shape(transcript: Transcript) -> list[tuple[int, str, str]]:
    return [(m.turn, m.role, m.text) for m in transcript]


@TRANSPORTS
async def test_a_late_reply_is_kept_at_the_end_of_the_turn_it_answers(
    transport: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeDirectLine(_late_to_turn_one())
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, transport=transport, **FAST) as target,  # type: ignore[arg-type]
        target.conversation("late") as talk,
    ):
        await talk.send("PTO and payday?")
        second = await talk.send("and my W-2?")
        await talk.send("thanks")
    turns = [m.turn for m in talk.transcript]
    assert turns == [1, 1, 1, 2, 2, 3, 3]  # in turn order, and the third turn is turn 3
    assert _shape(talk.transcript)[2] == (1, "bot", LATE)
    assert [m.text for m in talk.late] == [LATE]
    assert WARNED in caplog.text
    # send() gives what was received with the turn, the late reply with the turn it answers.
    assert [(m.turn, m.text) for m in second] == [
        (2, "First: got 'and my W-2?'. Your next payday is Friday, December 4."),
        (1, LATE),
    ]
    detect(talk.transcript)


async def test_a_late_reply_like_a_later_message_is_checked_not_a_crash(tmp_path: Path) -> None:
    """The run goes on and gives a report (the late reply used to crash the detector)."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "scenarios:\n"
        "  - name: late\n    turns:\n      - user: 'slow: PTO and payday?'\n"
        "      - user: and my W-2?\n"
        "  - name: after\n    turns:\n      - user: when is payday\n"
    )
    fake = FakeDirectLine(_late_to_turn_one())
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,
    ):
        late, after = await run_scenarios([load_scenarios(scenario)], target=target)
    assert late.error is None and after.error is None
    assert [(m.turn, m.text) for m in late.transcript.bot_messages(1)][-1] == (1, LATE)


async def test_a_late_reply_over_the_bot_framework_channel_stays_in_its_turn(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``simulate --endpoint``: the bot answers turn 1 again while it answers turn 2."""
    from aiohttp import web

    from harness.simulate.endpoint import EndpointTarget
    from tests.hosting._support import running

    asked: list[dict[str, Any]] = []

    async def post(activity: dict[str, Any], text: str, to: dict[str, Any]) -> None:
        url = activity["serviceUrl"].rstrip("/")
        path = f"/v3/conversations/{activity['conversation']['id']}/activities/{to['id']}"
        async with aiohttp.ClientSession() as http:
            await http.post(url + path, json={**_bot(text), "replyToId": to["id"]})

    async def messages(request: web.Request) -> web.Response:
        activity = await request.json()
        asked.append(activity)
        await post(activity, f"First: got '{activity['text']}'. Payday is Friday.", activity)
        if len(asked) == 2:
            await post(activity, LATE, asked[0])
        return web.Response(status=200)

    app = web.Application()
    app.router.add_post("/api/messages", messages)
    async with (
        running(app, shutdown_timeout=0.5) as bot,
        EndpointTarget(f"{bot}/api/messages", quiet_period=0.1) as target,
    ):
        transcript = await target.run_conversation(
            ["PTO and payday?", "and my W-2?", "thanks"], conversation_id="late"
        )
    assert [m.turn for m in transcript] == [1, 1, 1, 2, 2, 3, 3]
    assert _shape(transcript)[2] == (1, "bot", LATE)
    assert transcript.messages[2].arrived_during == 2  # its note in the report
    assert WARNED in caplog.text  # the same words as over Direct Line
    detect(transcript)


def test_detect_takes_a_reply_that_follows_a_later_turn() -> None:
    """A transcript built in arrival order (a late reply to turn 1 after turn 2's messages) is
    checked, not a ``math domain error``; the repeated fact is still found."""
    transcript = Transcript(conversation="late")
    for id, turn, role, text in [
        ("u1", 1, "user", "slow: PTO and payday?"),
        ("b1", 1, "bot", "First: got 'slow: PTO and payday?'. Your next payday is Friday, Dec 4."),
        ("u2", 2, "user", "and my W-2?"),
        ("b2", 2, "bot", "First: got 'and my W-2?'. Your next payday is Friday, Dec 4."),
        ("b3", 1, "bot", "Second part: your next payday is Friday, Dec 4."),
    ]:
        sender = "user" if role == "user" else "helpdesk"
        transcript.append(Message(id=id, turn=turn, role=role, sender=sender, text=text))  # type: ignore[arg-type]
    found = [set(f.message_ids) for f in detect(transcript) if f.kind == "duplicate"]
    assert any({"b1", "b3"} <= ids for ids in found)


def _payday_answered_late(order: str) -> Transcript:
    """Turn 3 asks again for payday and is answered; turn 1's late answer, with the same text,
    comes last (``arrival``) or at the end of turn 1 (``turns``)."""
    rows = [
        ("u1", 1, "user", "what's my PTO balance and when is payday?"),
        ("b1", 1, "bot", "Your PTO balance is 12 days."),
        ("u2", 2, "user", "and where is my W-2?"),
        ("b2", 2, "bot", "Your W-2 is in the Documents tab of the portal."),
        ("u3", 3, "user", "when is payday again?"),
        ("b3", 3, "bot", "Your next payday is Friday, December 4."),
        ("b4", 1, "bot", "Your next payday is Friday, December 4."),
    ]
    if order == "turns":
        rows.sort(key=lambda row: row[1])
    transcript = Transcript(conversation=order)
    for id, turn, role, text in rows:
        sender = "user" if role == "user" else "helpdesk"
        transcript.append(Message(id=id, turn=turn, role=role, sender=sender, text=text))  # type: ignore[arg-type]
    return transcript


def test_detect_judges_messages_out_of_turn_order_as_in_turn_order() -> None:
    """The user asked again in turn 3, so turn 3 repeating turn 1's late answer is excused, as
    it is when the same messages come in turn order; and the count of turns is 3, not the
    last message's turn."""
    arrival, ordered = _payday_answered_late("arrival"), _payday_answered_late("turns")

    def seen(transcript: Transcript) -> list[tuple[str, int, tuple[str, ...]]]:
        return [(f.kind, f.turn, f.message_ids) for f in detect(transcript)]

    assert seen(arrival) == seen(ordered)
    assert not [f for f in seen(arrival) if f[0] == "duplicate"]
    assert arrival.turn_count == ordered.turn_count == 3
    assert [m.id for m in arrival][-1] == "b4"  # the caller's transcript is left as it was


def _echo(activity: dict[str, Any]) -> Any:
    return [{"type": "typing"}, _bot(f"You said: {activity['text']}. It is logged.")]


async def _echoed(activity: dict[str, Any]) -> list[dict[str, Any]]:
    return _echo(activity)


@TRANSPORTS
async def test_an_activity_delivered_again_is_dropped_not_a_duplicate(transport: str) -> None:
    fake = FakeDirectLine(_echoed)
    fake.resend = 2  # a poll or a reconnected socket starts two activities before the watermark
    if transport == "websocket":
        fake.drop_sockets = 1
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, transport=transport, **FAST) as target,  # type: ignore[arg-type]
    ):
        transcript = await target.run_conversation(
            ["where is my W-2 form", "what is my gross pay"], conversation_id="r"
        )
    assert [m.turn for m in transcript.bot_messages()] == [1, 2]
    assert not [f for f in detect(transcript) if f.kind == "duplicate"]
    assert target.replays_dropped >= 1
    assert ("GET /conversations/{id}" in fake.requests) == (transport == "websocket")


async def test_polling_waits_when_a_poll_brings_only_activities_received_already() -> None:
    """Every poll delivers three old activities again: the target still waits poll_interval
    between polls (it used to poll again at once, hundreds of times a second)."""
    fake = FakeDirectLine(_echoed)
    fake.resend = 3
    settings = {**FAST, "poll_interval": 0.2, "quiet_period": 1.0}
    loop = asyncio.get_running_loop()
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, transport="polling", **settings) as target,  # type: ignore[arg-type]
    ):
        started = loop.time()
        transcript = await target.run_conversation(
            ["where is my W-2 form", "what is my gross pay"], conversation_id="p"
        )
        took = loop.time() - started
    assert [m.turn for m in transcript.bot_messages()] == [1, 2]
    polls = fake.requests.count("GET activities")
    # One poll per interval at most, plus one right after each turn's post: a generous bound.
    assert polls <= took / 0.2 + 6, (polls, took)
    assert target.replays_dropped >= 1


async def _generated_token(fake: FakeDirectLine) -> str:
    """A token made with the secret, as a pipeline would make one before the run."""
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{fake.base_url}/tokens/generate",
            headers={"Authorization": f"Bearer {fake.secret}"},
        ) as answer,
    ):
        token: str = (await answer.json())["token"]
        return token


@TRANSPORTS
async def test_a_token_serves_one_scenario_and_the_next_fails_clearly(
    transport: str, tmp_path: Path
) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "scenarios:\n  - name: first\n    turns:\n      - user: when is payday\n"
        "  - name: second\n    turns:\n      - user: where is my W-2 form\n"
    )
    fake = FakeDirectLine(_echoed)
    async with fake.running() as base:
        token = await _generated_token(fake)
        async with DirectLineTarget(base, token=token, transport=transport, **FAST) as target:  # type: ignore[arg-type]
            first, second = await run_scenarios([load_scenarios(scenario)], target=target)
    assert first.error is None
    assert second.error is not None
    assert "a Direct Line token serves one conversation" in second.error
    assert "give the channel's secret instead" in second.error
    assert not second.transcript.bot_messages()  # nothing of the first scenario carried over
    # The second start was tried: the service gave the first conversation back.
    assert fake.requests.count("POST /conversations") == 2
    assert len(fake.conversations) == 1


async def test_a_token_whose_conversation_was_started_elsewhere_is_refused() -> None:
    """Two targets (two worker processes) with one token: Direct Line answers the second start
    with 200 and the first conversation; it is not continued."""
    fake = FakeDirectLine(_echoed)
    async with fake.running() as base:
        token = await _generated_token(fake)
        async with DirectLineTarget(base, token=token, **FAST) as one:
            await one.run_conversation(["when is payday"], conversation_id="a")
        async with DirectLineTarget(base, token=token, **FAST) as two:
            with pytest.raises(ConversationError, match=r"holds another run's messages \(HTTP 200"):
                await two.run_conversation(["where is my W-2 form"], conversation_id="b")


@TRANSPORTS
@pytest.mark.parametrize("status", [None, 200])
async def test_a_server_that_ignores_tokens_runs_every_scenario(
    transport: str, status: int | None, tmp_path: Path
) -> None:
    """As ``offline-directline`` with ``DIRECTLINE_TOKEN`` set: every start is a new, empty
    conversation (answered 200 when the bot behind it answers 200); none is refused."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "scenarios:\n  - name: first\n    turns:\n      - user: when is payday\n"
        "  - name: second\n    turns:\n      - user: where is my W-2 form\n"
    )
    fake = FakeDirectLine(_echoed)
    fake.bind_tokens, fake.start_status = False, status
    async with fake.running() as base:
        token = await _generated_token(fake)
        async with DirectLineTarget(base, token=token, transport=transport, **FAST) as target:  # type: ignore[arg-type]
            first, second = await run_scenarios([load_scenarios(scenario)], target=target)
    assert first.error is None and second.error is None
    assert [m.text for m in second.transcript.bot_messages()] == [
        "You said: where is my W-2 form. It is logged."
    ]


async def test_each_conversation_with_the_secret_is_a_new_one() -> None:
    fake = FakeDirectLine(_echoed)
    async with (
        fake.running() as base,
        DirectLineTarget(base, secret=fake.secret, **FAST) as target,
    ):
        for name in ("a", "b"):
            async with target.conversation(name) as talk:
                await talk.send("when is payday")
                assert [m.turn for m in talk.transcript] == [1, 1]
    assert fake.requests.count("POST /tokens/generate") == 2
    assert sum(c.started for c in fake.conversations.values()) == 2


@TRANSPORTS
async def test_typing_keeps_the_turn_open(transport: str) -> None:
    """The bot answers, then types for twice the quiet period before its second part: the
    turn waits for it (without typing it would have ended after the quiet period)."""
    fake = FakeDirectLine(_echoed)
    quiet = 1.0
    pending: list[asyncio.Task[None]] = []

    async def slow_second_part(activity: dict[str, Any]) -> list[dict[str, Any]]:
        conversation = fake.conversations[activity["conversation"]["id"]]

        async def later() -> None:
            for _ in range(20):  # typing every 0.1 s for 2 s: well within the 1 s quiet period
                await asyncio.sleep(0.1)
                fake._record(conversation, {"type": "typing"}, activity["id"])
            fake._record(conversation, _bot("Part 2: payday is Friday, December 4."), None)

        pending.append(asyncio.create_task(later()))
        return [_bot("Part 1: your PTO balance is 12 days.")]

    fake.bot = slow_second_part
    settings = {**FAST, "quiet_period": quiet}
    try:
        async with (
            fake.running() as base,
            DirectLineTarget(base, secret=fake.secret, transport=transport, **settings) as target,  # type: ignore[arg-type]
        ):
            transcript = await target.run_conversation(
                ["PTO balance and payday?"], conversation_id="t"
            )
    finally:
        await asyncio.gather(*pending, return_exceptions=True)
    assert [m.text for m in transcript.bot_messages(1)] == [
        "Part 1: your PTO balance is 12 days.",
        "Part 2: payday is Friday, December 4.",
    ]


@TRANSPORTS
async def test_a_bot_that_keeps_typing_ends_its_turn_after_the_typing_limit(
    transport: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot answers, then types every 0.1 s for 20 s: the turn ends typing_limit (1 s) after
    the reply, with a warning, instead of failing at turn_timeout (8 s)."""
    fake = FakeDirectLine(_echoed)
    pending: list[asyncio.Task[None]] = []

    async def types_on(activity: dict[str, Any]) -> list[dict[str, Any]]:
        conversation = fake.conversations[activity["conversation"]["id"]]

        async def typing() -> None:
            for _ in range(200):
                await asyncio.sleep(0.1)
                fake._record(conversation, {"type": "typing"}, activity["id"])

        pending.append(asyncio.create_task(typing()))
        return [_bot("Your PTO balance is 12 days.")]

    fake.bot = types_on
    settings = {**FAST, "quiet_period": 0.5, "typing_limit": 1.0, "turn_timeout": 8.0}
    try:
        async with (
            fake.running() as base,
            DirectLineTarget(base, secret=fake.secret, transport=transport, **settings) as target,  # type: ignore[arg-type]
        ):
            transcript = await target.run_conversation(["PTO balance?"], conversation_id="typist")
    finally:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    assert [m.text for m in transcript.bot_messages(1)] == ["Your PTO balance is 12 days."]
    assert "typist: turn 1: the bot was still typing 1s after its last reply" in caplog.text


def _closed_port() -> int:
    """A port on 127.0.0.1 known closed: bound here, then closed. 443 when this process may
    bind it (a port that reads like an HTTP status), else one the system picks."""
    for port in (443, 0):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use, or not ours to bind
            chosen: int = probe.getsockname()[1]
            return chosen
    raise AssertionError("no port on 127.0.0.1 could be bound")


async def test_copilot_studio_that_cannot_be_reached_is_not_an_http_status() -> None:
    port = _closed_port()
    target = CopilotStudioTarget(
        token="t", direct_connect_url=f"https://127.0.0.1:{port}/copilotstudio"
    )
    with pytest.raises(ConversationError) as caught:
        await target.run_conversation(["hello"], conversation_id="n")
    message = str(caught.value)
    assert "cannot reach Copilot Studio" in message
    assert f"HTTP {port}" not in message


def test_a_connection_error_on_port_443_is_not_read_as_http_443() -> None:
    """The error's text names the port ("127.0.0.1:443"); it is not a status."""
    from types import SimpleNamespace

    from harness.simulate.copilot_studio import _describe

    key = SimpleNamespace(host="127.0.0.1", port=443, ssl=True)
    refused = aiohttp.ClientConnectorError(key, ConnectionRefusedError(111, "Connect call failed"))  # type: ignore[arg-type]
    assert "443" in str(refused)
    described = _describe(refused)
    assert described.startswith("cannot reach Copilot Studio: ")
    assert "HTTP 443" not in described

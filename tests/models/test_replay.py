"""ReplayModel: record against the fake server, replay offline, fail clearly on a miss."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import harness
from harness.cli.model_flags import ModelFlags
from harness.exceptions import ConfigError, ModelBehaviorError, ModelRequestError, UsageError
from harness.models import ChatMessage, ScriptedModel
from harness.models.base import ModelResponse
from harness.models.openai import OpenAIModel
from harness.models.replay import (
    CassetteMissError,
    ReplayModel,
    normalise_request,
    recording,
    request_key,
)
from subagents import Usage
from tests.models._requests import act_request
from tests.models.fake_openai import FakeOpenAI
from tests.models.record_sample_cassette import CONFIG, run_helpdesk

SECRET = "sk-secret-key-that-must-not-leak"


async def _record(server: FakeOpenAI, path: Path) -> list[dict[str, object]]:
    model = OpenAIModel("gpt-4o-mini", base_url=server.url, api_key=SECRET)
    return await run_helpdesk(recording(model, path))


async def test_record_then_replay_gives_the_same_transcript(
    helpdesk_server: FakeOpenAI, tmp_path: Path
) -> None:
    cassette = tmp_path / "helpdesk.jsonl"
    recorded = await _record(helpdesk_server, cassette)
    served = len(helpdesk_server.requests)
    replay = ReplayModel(cassette)
    assert len(replay) == served
    replayed = await run_helpdesk(replay)
    assert replayed == recorded
    assert replay.misses == []
    assert len(helpdesk_server.requests) == served  # replay never touched the server


async def test_no_key_or_header_reaches_the_cassette(
    helpdesk_server: FakeOpenAI, tmp_path: Path
) -> None:
    cassette = tmp_path / "helpdesk.jsonl"
    await _record(helpdesk_server, cassette)
    text = cassette.read_text(encoding="utf-8")
    assert helpdesk_server.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert SECRET not in text
    assert "authorization" not in text.lower() and "127.0.0.1" not in text
    for line in text.splitlines():
        record = json.loads(line)
        assert set(record) == {"key", "request", "response"}
        assert record["key"] == request_key(record["request"])


async def test_usage_is_replayed(helpdesk_server: FakeOpenAI, tmp_path: Path) -> None:
    cassette = tmp_path / "helpdesk.jsonl"
    model = OpenAIModel("gpt-4o-mini", base_url=helpdesk_server.url)
    bot = harness.load_bot(CONFIG, model=recording(model, cassette))
    live = await bot.conversation(id="c").send("When is my next payday?")
    await bot.aclose()
    bot = harness.load_bot(CONFIG, model=ReplayModel(cassette))
    again = await bot.conversation(id="c").send("When is my next payday?")
    assert again.usage == live.usage
    assert again.usage.cost_usd is not None and again.usage.input_tokens > 0


def test_keys_are_stable_across_runs_and_versions() -> None:
    normalised = normalise_request(act_request())
    assert "timeout" not in normalised and "context" not in normalised
    assert "keywords" not in json.dumps(normalised)  # read by the rules model only
    canonical = json.dumps(normalised, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert request_key(normalised) == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    # pinned: a key that changed would orphan every recorded cassette
    assert request_key(normalised) == (
        "cdfcbd95f46b814a5ddfed80feb0221da3e6728109605ff28c90e947e12d4a3c"
    )
    assert request_key(normalise_request(act_request(timeout=5))) == request_key(normalised)


async def test_a_cassette_line_that_still_names_its_task_is_found(tmp_path: Path) -> None:
    """Requests lost their ``task`` field; lines recorded with it still match (keys are computed
    again on loading, without it)."""
    old = {**normalise_request(act_request()), "task": "act"}
    line = {"key": "recorded-before", "request": old, "response": {"text": "from the old line"}}
    cassette = tmp_path / "old.jsonl"
    cassette.write_text(json.dumps(line) + "\n", encoding="utf-8")
    response = await ReplayModel(cassette).request(act_request())
    assert response.text == "from the old line"


async def test_a_miss_shows_the_closest_recorded_request_and_a_diff(
    helpdesk_server: FakeOpenAI, tmp_path: Path
) -> None:
    cassette = tmp_path / "helpdesk.jsonl"
    await _record(helpdesk_server, cassette)
    bot = harness.load_bot(CONFIG, model=ReplayModel(cassette))
    with pytest.raises(CassetteMissError) as caught:
        await bot.conversation().send("How many vacation days do I have left?")
    error = caught.value
    text = str(error)
    assert "the plan request of 'helpdesk' is not in the cassette" in text
    assert "closest recorded: the plan request of 'helpdesk' at line" in text
    assert "-message 1 (user): How many vacation days do I have remaining" in text
    assert "+message 1 (user): How many vacation days do I have left?" in text
    assert error.closest_line is not None and isinstance(error, ModelRequestError)


async def test_a_subagent_miss_fails_that_subagent_with_the_reason(tmp_path: Path) -> None:
    cassette = tmp_path / "one.jsonl"
    scripted = ScriptedModel([ModelResponse(text="hi")])
    recorder = recording(scripted, cassette)
    await recorder.request(act_request(messages=(ChatMessage(role="user", content="a"),)))
    replay = ReplayModel(cassette)
    with pytest.raises(CassetteMissError, match=r"(?s)similarity.*-message 1 \(user\): a"):
        await replay.request(act_request(messages=(ChatMessage(role="user", content="b"),)))
    assert len(replay.misses) == 1


async def test_repeated_requests_are_served_in_recorded_order(tmp_path: Path) -> None:
    cassette = tmp_path / "repeat.jsonl"
    answers = [ModelResponse(text="first"), ModelResponse(text="second", usage=Usage(requests=1))]
    recorder = recording(ScriptedModel(answers), cassette)
    for _ in answers:
        await recorder.request(act_request())
    assert recorder.recorded == 2
    replay = ReplayModel(cassette)
    texts = [(await replay.request(act_request())).text for _ in range(3)]
    assert texts == ["first", "second", "second"]


async def test_recorded_errors_are_replayed_as_errors(tmp_path: Path) -> None:
    cassette = tmp_path / "errors.jsonl"
    failing = ScriptedModel(
        [
            ModelBehaviorError("bad JSON twice", agent="payroll", body="{oops"),
            ModelRequestError("HTTP 500 after 4 attempts", status=500, attempts=4),
        ]
    )
    recorder = recording(failing, cassette)
    with pytest.raises(ModelBehaviorError):
        await recorder.request(act_request())
    with pytest.raises(ModelRequestError):
        await recorder.request(act_request(agent="pto"))
    replay = ReplayModel(cassette)
    with pytest.raises(ModelBehaviorError, match="bad JSON twice") as behavior:
        await replay.request(act_request())
    assert behavior.value.agent == "payroll" and behavior.value.body == "{oops"
    with pytest.raises(ModelRequestError, match="HTTP 500") as request_error:
        await replay.request(act_request(agent="pto"))
    assert (request_error.value.status, request_error.value.attempts) == (500, 4)


def test_bad_cassettes_are_config_errors_with_the_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such cassette"):
        ReplayModel(tmp_path / "missing.jsonl")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('\n{"request": {}, "response": {}}\nnot json\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"broken.jsonl:3: not a cassette line"):
        ReplayModel(broken)
    partial = tmp_path / "partial.jsonl"
    partial.write_text('{"request": {}}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"partial.jsonl:1: .*'response'"):
        ReplayModel(partial)
    with pytest.raises(ConfigError, match="wrapped"):
        ReplayModel(tmp_path / "x.jsonl", mode="record")


def test_model_flags_build_the_model_the_flags_ask_for(tmp_path: Path) -> None:
    assert ModelFlags().build() is None
    assert ModelFlags(model="rules").build() == "rules"  # checked now, built by the bot
    built = ModelFlags(model="openai:gpt-4o-mini", base_url="http://127.0.0.1:1/v1").build()
    assert isinstance(built, OpenAIModel) and built.base_url == "http://127.0.0.1:1/v1"
    cassette = str(tmp_path / "r.jsonl")
    recorder = ModelFlags(model="openai:gpt-4o-mini", record=cassette).build()
    assert isinstance(recorder, ReplayModel) and recorder.mode == "record"
    assert isinstance(recorder.wrapped, OpenAIModel)
    replayer = ModelFlags(model="openai:gpt-4o-mini", replay=cassette).build()
    assert isinstance(replayer, ReplayModel) and replayer.mode == "replay"
    with pytest.raises(UsageError, match="together"):
        ModelFlags(record="a", replay="b").build()
    with pytest.raises(UsageError, match="--base-url needs an OpenAI model"):
        ModelFlags(model="rules", base_url="http://127.0.0.1:1/v1", record="a").build()
    with pytest.raises(UsageError, match="--record needs the model"):
        ModelFlags(record="a").build()
    with pytest.raises(UsageError, match="--base-url needs --model"):
        ModelFlags(base_url="http://127.0.0.1:1/v1").build()

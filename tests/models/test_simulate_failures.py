"""A model that fails does not lose the simulator's report, and does not end a chat session."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.models.openai import OpenAIModel
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios
from tests.models.fake_openai import FakeOpenAI, Fault
from tests.models.helpdesk_brain import helpdesk_brain

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk"
SCENARIOS = HELPDESK / "scenarios-openai.yaml"


@pytest.fixture
def closed_port_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens (the OS gave the port, then it was closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_simulate_writes_its_report_when_the_model_is_unreachable(
    closed_port_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "report.json"
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            str(SCENARIOS),
            "--model",
            "openai:gpt-4o-mini",
            "--base-url",
            closed_port_url,
            "--model-setting",
            "max_retries=0",
            "--format",
            "json",
            "--output",
            str(out),
        ],
    )
    assert result.exit_code == 1, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    errors = [t.get("error") for t in report["transcripts"]]
    assert len(errors) == 4 and all(errors)
    # The parent's failed plan and reply are a failed turn (the user is told), so the scenario
    # fails with the reason.
    assert all(
        "turn 1: plan failed: ModelRequestError" in e and "cannot reach" in e for e in errors
    )
    assert all("after 1 attempt:" in e for e in errors)  # --model-setting max_retries=0 applied
    assert "error: 4 of 4 scenario(s) ran to the end with a failed call:" in result.stderr
    assert "  pto-and-payday: turn 1: plan failed: ModelRequestError" in result.stderr


async def test_one_failing_scenario_is_reported_and_the_others_run(tmp_path: Path) -> None:
    def brain(body: dict[str, Any]) -> dict[str, Any] | Fault:
        if "password" in json.dumps(body["messages"][-1]):
            return Fault(status=401, body={"error": {"message": "bad key"}})
        return helpdesk_brain(body)

    async with FakeOpenAI(brain) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=server.url, backoff=0)
        results = await run_scenarios([load_scenarios(SCENARIOS)], model=model)
    by_name = {r.name: r for r in results}
    assert len(results) == 4
    broken = by_name["password-and-w2"]
    assert broken.error is not None and "HTTP 401: bad key" in broken.error
    assert broken.transcript.messages[0].text.startswith("I forgot my password")
    assert [r.error for n, r in by_name.items() if n != "password-and-w2"] == [None] * 3
    assert all(not r.errors for r in results if r.error is None)


def test_text_and_junit_reports_show_the_failed_scenario(
    closed_port_url: str, tmp_path: Path
) -> None:
    args = ["simulate", str(SCENARIOS), "--model", "openai:m", "--base-url", closed_port_url]
    args += ["--model-setting", "max_retries=0"]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 1
    assert "pto-and-payday: failed (1 turn, 2 messages): turn 1: plan failed:" in text.stdout
    assert "4 with a failed call" in text.stdout
    junit = tmp_path / "report.xml"
    result = CliRunner().invoke(cli, [*args, "--format", "junit", "--output", str(junit)])
    assert result.exit_code == 1
    xml = junit.read_text(encoding="utf-8")
    assert 'errors="4"' in xml and "<error " in xml


def test_simulate_with_no_api_key_fails_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = CliRunner().invoke(cli, ["simulate", str(SCENARIOS), "--model", "openai:gpt-4o"])
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and "no API key for the OpenAI model" in line


def test_chat_with_no_api_key_fails_before_the_first_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    config = str(HELPDESK / "helpdesk.yaml")
    result = CliRunner().invoke(cli, ["chat", config, "--model", "openai:gpt-4o"], input="")
    assert result.exit_code == 2
    assert "you>" not in result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and "no API key for the OpenAI model" in line


def test_serve_with_no_api_key_fails_before_it_listens(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that came up healthy and answered every user with an apology would hide the
    mistake until the first user; it stops at start, as chat and simulate do."""
    import harness.hosting.app

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server was started")

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setattr(harness.hosting.app, "serve", never)
    config = str(HELPDESK / "helpdesk.yaml")
    result = CliRunner().invoke(cli, ["serve", config, "--model", "openai:gpt-4o"])
    assert result.exit_code == 2, result.output
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and "no API key for the OpenAI model" in line
    assert " on http://" not in result.output


def test_an_unreachable_request_does_not_end_the_chat(closed_port_url: str) -> None:
    config = str(HELPDESK / "helpdesk.yaml")
    args = ["chat", config, "--model", "openai:m", "--base-url", closed_port_url]
    args += ["--model-setting", "max_retries=0"]
    result = CliRunner().invoke(cli, args, input="When is payday?\nAnd my PTO?\nexit\n")
    # Each failed turn is answered and noted; the chat goes on to the next message and to exit,
    # whose code says that turns failed.
    assert result.exit_code == 1, result.output
    assert result.output.count("plan failed: ModelRequestError: the OpenAI model 'm'") == 2
    assert "error: 2 of 2 turns failed" in result.stderr
    # The offline planner still routed each message to its agent (which failed the same way).
    assert "failed: payroll (ModelRequestError" in result.output
    assert "failed: pto (ModelRequestError" in result.output

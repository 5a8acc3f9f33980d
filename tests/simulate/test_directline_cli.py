"""``harness simulate --directline`` / ``--copilot-studio`` and ``target:`` in scenario files, run
against the local fakes (each on its own event loop in a thread, since the CLI runs its own)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from tests.simulate._copilot_fake import FakeCopilotStudio
from tests.simulate._directline_fake import FakeDirectLine, in_thread
from tests.simulate.test_copilot_studio import _traced

SCENARIO = """\
scenarios:
  - name: pto-and-payday
    turns:
      - user: "How many vacation days do I have left, and when is payday?"
        requests:
          - {agent: pto, expect: "12 PTO days left"}
  - name: second
    turns:
      - user: "Thanks, and where is my W-2?"
"""


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


async def _restating(activity: dict[str, Any]) -> list[dict[str, Any]]:
    """A bot behind Direct Line whose every message comes from the same account."""
    return [
        {"type": "message", "text": "You have 12 PTO days left this year (out of 20)."},
        {"type": "message", "text": "To sum up: You have 12 PTO days left this year (out of 20)."},
    ]


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "scenarios.yaml"
    path.write_text(SCENARIO)
    return path


def test_directline_with_a_secret_reports_junit(scenario: Path, tmp_path: Path) -> None:
    fake = FakeDirectLine(_restating)
    out = tmp_path / "report.xml"
    with in_thread(fake) as base:
        code, _, err = run(
            "simulate",
            str(scenario),
            "--directline",
            base,
            "--directline-secret",
            fake.secret,
            "--quiet-period",
            "0.15",
            "--format",
            "junit",
            "--output",
            str(out),
        )
    assert code == 1, err
    suite = ET.parse(out).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "2" and suite.get("failures") == "2"
    assert fake.requests.count("POST /tokens/generate") == 2  # a conversation per scenario


def test_the_secret_comes_from_the_environment(scenario: Path) -> None:
    fake = FakeDirectLine(_restating)
    with in_thread(fake) as base:
        code, out, err = run(
            "simulate",
            str(scenario),
            "--directline",
            base,
            "--quiet-period",
            "0.15",
            "--format",
            "json",
            env={"DIRECTLINE_SECRET": fake.secret},
        )
    assert code == 1, err
    report = json.loads(out)
    assert report["summary"]["duplicate"] == 2
    # Every message came from one account ("bot"): the duplicates are found all the same.
    finding = report["transcripts"][0]["findings"][0]
    assert finding["senders"] == ["bot", "bot"]


def test_a_failing_service_fails_each_scenario_and_the_run_goes_on(scenario: Path) -> None:
    fake = FakeDirectLine(_restating)
    fake.failures["POST activities"] = (503, {"error": {"code": "ServiceUnavailable"}})
    with in_thread(fake) as base:
        code, out, err = run(
            "simulate", str(scenario), "--directline", base, "--directline-secret", fake.secret
        )
    assert code == 1, err
    assert (
        "pto-and-payday: failed (1 turn, 1 message): turn 1: Direct Line answered HTTP 503" in out
    )
    assert "second: failed" in out
    assert "2 failed to complete" in out


def test_a_scenario_file_can_name_its_target(tmp_path: Path) -> None:
    fake = FakeDirectLine(_restating)
    with in_thread(fake) as base:
        path = tmp_path / "deployed.yaml"
        target = (
            f"target:\n  directline: {{url: '{base}', secret_env: MY_DL_SECRET, "
            "transport: polling}\n  quiet_period: 0.15\n"
        )
        path.write_text(target + SCENARIO)
        code, out, err = run(
            "simulate", str(path), "--format", "json", env={"MY_DL_SECRET": fake.secret}
        )
    assert code == 1, err
    assert json.loads(out)["summary"]["duplicate"] == 2
    assert "GET activities" in fake.requests


def test_copilot_studio_by_direct_connect_url(scenario: Path) -> None:
    fake = FakeCopilotStudio(_traced)
    with in_thread(fake) as url:
        code, out, err = run(
            "simulate",
            str(scenario),
            "--copilot-studio",
            url,
            "--format",
            "json",
            env={"COPILOT_STUDIO_TOKEN": fake.token},
        )
    assert code == 1, err
    findings = json.loads(out)["transcripts"][0]["findings"]
    assert ["PTO", "HR Helpdesk"] in [f["senders"] for f in findings if f["kind"] == "duplicate"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--bot", "x.yaml", "--directline", "http://127.0.0.1:9"],
            "use one of --bot, --directline",
        ),
        (["--environment-id", "e"], "--environment-id applies to --copilot-studio only"),
        (["--copilot-studio", "cr1_hr"], "--copilot-studio SCHEMA needs --environment-id"),
        (
            ["--copilot-studio", "cr1_hr", "--environment-id", "e"],
            "no Copilot Studio token: set COPILOT_STUDIO_TOKEN",
        ),
        (["--directline", "http://127.0.0.1:9", "--model", "rules"], "need an in-process bot"),
    ],
)
def test_usage_errors(scenario: Path, args: list[str], message: str) -> None:
    code, _, err = run("simulate", str(scenario), *args, env={"COPILOT_STUDIO_TOKEN": ""})
    assert code == 2
    assert message in err


def test_a_deployed_bot_gets_a_longer_quiet_period_by_default() -> None:
    """An agent pauses between a connected agent's message and the parent's: 0.5 s (the
    --endpoint default) would cut the turn before the parent's restatement arrives."""
    from harness.cli.simulate import _remote_target
    from harness.simulate.directline import DirectLineTarget

    def build(quiet: float | None) -> Any:
        return _remote_target(
            directline="http://127.0.0.1:9/v3/directline",
            secret="s",
            token=None,
            transport="websocket",
            copilot_studio=None,
            environment_id=None,
            cloud="Prod",
            agent_type="published",
            tenant_id=None,
            client_id=None,
            quiet_period=quiet,
            reply_timeout=60.0,
            others={},
        )

    default, chosen = build(None), build(0.7)
    assert isinstance(default, DirectLineTarget) and default.quiet_period == 3.0
    assert chosen.quiet_period == 0.7

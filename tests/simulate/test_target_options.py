"""``harness simulate``'s deployed-bot options are applied or refused, never silently ignored:
they override a scenario file's ``target:``, and the ones the bot being run cannot use are a usage
error that says where they apply. A Direct Line turn's time limit follows ``reply_timeout`` (or
its own ``turn_timeout``), not a fixed 120 s."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.simulate._remote import target_from_spec
from harness.simulate.directline import DirectLineTarget
from harness.simulate.scenarios import TargetSpec
from tests.simulate._directline_fake import FakeDirectLine, in_thread

HELPDESK = str(Path(__file__).resolve().parents[2] / "samples" / "helpdesk" / "helpdesk.yaml")
SCENARIOS = """\
scenarios:
  - name: payday
    turns:
      - user: "When is payday?"
"""


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def _slow_bot() -> FakeDirectLine:
    """A Direct Line whose bot answers a second after the message was posted."""
    fake: FakeDirectLine

    async def answer_later(activity: dict[str, Any]) -> list[dict[str, Any]]:
        conversation = fake.conversations[activity["conversation"]["id"]]
        reply = {"type": "message", "text": "Your next payday is Friday, December 4."}
        loop = asyncio.get_running_loop()
        loop.call_later(1.0, fake._record, conversation, reply, activity["id"])
        return []

    fake = FakeDirectLine(answer_later)
    return fake


def _deployed(tmp_path: Path, base: str, keys: str = "") -> Path:
    path = tmp_path / "deployed.yaml"
    path.write_text(
        f"target:\n  directline: {{url: '{base}'}}\n  quiet_period: 0.15\n{keys}" + SCENARIOS
    )
    return path


def test_the_command_line_overrides_the_files_reply_timeout(tmp_path: Path) -> None:
    fake = _slow_bot()
    with in_thread(fake) as base:
        path = _deployed(tmp_path, base, "  reply_timeout: 0.2\n")
        env = {"DIRECTLINE_SECRET": fake.secret}
        code, out, err = run("simulate", str(path), "--reply-timeout", "30", env=env)
    assert code == 0, out + err
    assert "no reply within" not in out


def test_the_command_line_overrides_the_files_transport(tmp_path: Path) -> None:
    async def quick(activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"type": "message", "text": "Your next payday is Friday, December 4."}]

    fake = FakeDirectLine(quick)
    with in_thread(fake) as base:
        path = _deployed(tmp_path, base)  # the file says nothing: the WebSocket
        env = {"DIRECTLINE_SECRET": fake.secret}
        code, out, err = run("simulate", str(path), "--transport", "polling", env=env)
    assert code == 0, out + err
    assert "GET activities" in fake.requests
    assert "WS stream" not in fake.requests


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--bot", HELPDESK, "--quiet-period", "5", "--transport", "polling", "--cloud", "Gov"],
            "--quiet-period, --transport do not apply to --bot (a bot in this process); they are "
            "for a deployed bot (--endpoint, --directline, --copilot-studio or a scenario file's "
            "target:); --cloud applies to --copilot-studio only",
        ),
        (["--reply-timeout", "10"], "--reply-timeout does not apply to a bot run in this process"),
        (["--bot", HELPDESK, "--turn-timeout", "300"], "--turn-timeout does not apply to --bot"),
    ],
    ids=["bot-flag", "file-bot", "turn-timeout"],
)
def test_deployed_bot_options_with_an_in_process_bot_are_refused(
    tmp_path: Path, options: list[str], message: str
) -> None:
    path = tmp_path / "scenarios.yaml"
    path.write_text(f"bot: {HELPDESK}\n" + SCENARIOS)
    code, _, err = run("simulate", str(path), *options)
    assert code == 2, err
    assert message in err


def test_an_option_of_the_other_kind_of_target_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deployed.yaml"
    path.write_text(
        "target:\n  directline: {url: 'http://127.0.0.1:9/v3/directline'}\n" + SCENARIOS
    )
    code, _, err = run("simulate", str(path), "--cloud", "Gov")
    assert code == 2, err
    assert "--cloud applies to --copilot-studio only (a scenario file's target: takes" in err
    studio = tmp_path / "studio.yaml"
    studio.write_text(
        "target:\n  copilot_studio: {direct_connect_url: 'https://127.0.0.1:9/x'}\n" + SCENARIOS
    )
    code, _, err = run("simulate", str(studio), "--transport", "polling")
    assert code == 2, err
    assert "--transport does not apply to" in err and "(Copilot Studio)" in err


def test_a_directline_secret_option_with_a_files_target_names_the_variable(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deployed.yaml"
    path.write_text(
        "target:\n  directline: {url: 'http://127.0.0.1:9/v3/directline'}\n" + SCENARIOS
    )
    code, _, err = run("simulate", str(path), "--directline-secret", "s3cret")
    assert code == 2, err
    assert "--directline-secret only applies to --directline" in err
    assert "DIRECTLINE_SECRET" in err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--directline", "http://127.0.0.1:9", "--cloud", "Gov"],
            "--cloud applies to --copilot-studio only",
        ),
        (
            ["--copilot-studio", "https://127.0.0.1:9/x", "--transport", "polling"],
            "--transport does not apply to --copilot-studio",
        ),
        (
            ["--copilot-studio", "https://127.0.0.1:9/x", "--quiet-period", "2"],
            "--quiet-period does not apply to --copilot-studio",
        ),
        (["--endpoint", "http://127.0.0.1:9", "--reply-timeout", "5"], "does not apply to"),
    ],
    ids=["directline-cloud", "studio-transport", "studio-quiet", "endpoint-reply"],
)
def test_options_the_named_bot_cannot_use_are_refused(
    tmp_path: Path, options: list[str], message: str
) -> None:
    path = tmp_path / "scenarios.yaml"
    path.write_text(SCENARIOS)
    code, _, err = run("simulate", str(path), *options)
    assert code == 2, err
    assert message in err


def test_a_zero_quiet_period_names_the_option(tmp_path: Path) -> None:
    path = tmp_path / "scenarios.yaml"
    path.write_text(SCENARIOS)
    code, _, err = run(
        "simulate", str(path), "--directline", "http://127.0.0.1:9", "--quiet-period", "0"
    )
    assert code == 2
    assert "'--quiet-period'" in err
    assert "--directline / --copilot-studio" not in err


def test_a_turn_timeout_below_the_reply_timeout_names_both_options(tmp_path: Path) -> None:
    path = tmp_path / "scenarios.yaml"
    path.write_text(SCENARIOS)
    code, _, err = run(
        "simulate",
        str(path),
        "--directline",
        "http://127.0.0.1:9",
        "--reply-timeout",
        "300",
        "--turn-timeout",
        "100",
        env={"DIRECTLINE_SECRET": "x"},
    )
    assert code == 2, err
    assert "--directline: --turn-timeout (100s) is below --reply-timeout (300s)" in err


def _built(**keys: Any) -> DirectLineTarget:
    spec = TargetSpec.model_validate({"directline": {}, **keys})
    target = target_from_spec(spec, environ={"DIRECTLINE_SECRET": "x"})
    assert isinstance(target, DirectLineTarget)
    return target


def test_a_long_reply_timeout_is_not_cut_by_a_fixed_turn_limit() -> None:
    assert _built(reply_timeout=300).turn_timeout == 360
    assert _built().turn_timeout == 120  # the default stays as it was
    assert _built(reply_timeout=300, turn_timeout=900).turn_timeout == 900


def test_turn_limits_that_would_be_ignored_or_cut_short_are_refused() -> None:
    with pytest.raises(ValueError, match=r"turn_timeout \(10s\) is below reply_timeout \(60s\)"):
        TargetSpec.model_validate({"directline": {}, "turn_timeout": 10})
    with pytest.raises(ValueError, match="quiet_period applies to Direct Line"):
        TargetSpec.model_validate(
            {"copilot_studio": {"direct_connect_url": "x"}, "quiet_period": 1}
        )


def test_a_files_turn_timeout_below_a_command_line_reply_timeout_is_refused(
    tmp_path: Path,
) -> None:
    path = _deployed(tmp_path, "http://127.0.0.1:9/v3/directline", "  turn_timeout: 100\n")
    code, _, err = run("simulate", str(path), "--reply-timeout", "300")
    assert code == 2, err
    assert "target: with --reply-timeout: turn_timeout (100s) is below reply_timeout (300s)" in err


def test_the_jobs_workers_apply_the_overrides(tmp_path: Path) -> None:
    fake = _slow_bot()
    with in_thread(fake) as base:
        path = _deployed(tmp_path, base, "  reply_timeout: 0.2\n")
        second = tmp_path / "second.yaml"
        second.write_text(path.read_text().replace("name: payday", "name: payday-2"))
        env = {"DIRECTLINE_SECRET": fake.secret}
        code, out, err = run(
            "simulate", str(path), str(second), "-j", "2", "--reply-timeout", "30",
            "--format", "json", env=env,
        )  # fmt: skip
    assert code == 0, out + err
    assert json.loads(out)["totals"]["failed"] == 0

"""Model settings from YAML (``parent.model_settings``) and the CLI (``--model-setting``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness import load_bot
from harness.exceptions import ConfigError
from harness.models.openai import OpenAIModel
from tests.models.fake_openai import FakeOpenAI

HELPDESK = Path(__file__).resolve().parents[2] / "samples" / "helpdesk"


def config_with(tmp_path: Path, settings: str) -> Path:
    shutil.copy(HELPDESK / "tools.py", tmp_path / "tools.py")
    text = (HELPDESK / "helpdesk.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "  model: rules\n", f"  model: openai:local\n  model_settings: {settings}\n"
    )
    path = tmp_path / "bot.yaml"
    path.write_text(text, encoding="utf-8")
    return path


async def test_yaml_settings_reach_the_wire(helpdesk_server: FakeOpenAI, tmp_path: Path) -> None:
    path = config_with(tmp_path, "{temperature: 0, seed: 42, output_mode: json_object}")
    bot = load_bot(path, base_url=helpdesk_server.url)
    assert isinstance(bot.model, OpenAIModel) and bot.model.settings.seed == 42
    await bot.conversation().send("When will I be getting my next paycheck?")
    await bot.aclose()
    bodies = helpdesk_server.requests
    assert bodies and all(b["temperature"] == 0 and b["seed"] == 42 for b in bodies)
    assert all(b["response_format"]["type"] == "json_object" for b in bodies)


def test_cli_settings_win_over_yaml(tmp_path: Path) -> None:
    path = config_with(tmp_path, "{temperature: 0.5, seed: 1}")
    bot = load_bot(path, base_url="http://127.0.0.1:9/v1", settings={"seed": 2})
    assert isinstance(bot.model, OpenAIModel)
    assert (bot.model.settings.temperature, bot.model.settings.seed) == (0.5, 2)


def test_a_misspelt_yaml_setting_is_named(tmp_path: Path) -> None:
    path = config_with(tmp_path, "{temprature: 0}")
    with pytest.raises(ConfigError, match="unknown model setting 'temprature'"):
        load_bot(path, base_url="http://127.0.0.1:9/v1")


@pytest.mark.parametrize("command", ["chat", "serve"])
def test_every_command_that_runs_a_bot_takes_model_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """``chat``, ``simulate`` and ``serve`` share ``--model``, ``--base-url`` and
    ``--model-setting`` (``harness.cli.model_flags.model_options``); the settings reach the bot."""
    from click.testing import CliRunner

    from harness.cli import cli
    from harness.cli.model_flags import ModelFlags

    built: list[object] = []
    load = ModelFlags.load_bot

    def stop_after_loading(self: ModelFlags, *args: object, **kwargs: object) -> object:
        bot = load(self, *args, **kwargs)  # type: ignore[arg-type]
        built.append(bot)
        raise SystemExit(0)  # the bot is built: no chat loop, no server

    # Patched on the class the commands call, not as ``harness.runtime.loading.load_bot``: a
    # command module imported for the first time inside this test (``harness.cli.commands``,
    # by ``chat``) would bind that name to the stand-in for the rest of the process, and a
    # later ``harness instructions bot:bot`` in the same process would print nothing.
    monkeypatch.setattr(ModelFlags, "load_bot", stop_after_loading)
    path = config_with(tmp_path, "{temperature: 0.5}")
    args = [command, str(path), "--model", "openai:local", "--base-url", "http://127.0.0.1:9/v1"]
    result = CliRunner().invoke(cli, [*args, "--model-setting", "seed=7"])
    assert result.exit_code == 0, result.output
    (bot,) = built
    assert isinstance(bot.model, OpenAIModel)  # type: ignore[attr-defined]
    assert bot.model.settings.seed == 7  # type: ignore[attr-defined]
    typo = CliRunner().invoke(cli, [*args, "--model-setting", "temprature=0"])
    assert typo.exit_code == 2 and "unknown model setting 'temprature'" in typo.output

"""Storage URLs and the switch that turns a missing server's skip into a failure."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.exceptions import ConfigError
from harness.hosting import HarnessBot, open_store
from harness.hosting._redis import RedisStore
from tests.hosting import _servers
from tests.hosting._support import HELPDESK, helpdesk


def test_a_redis_url_keeps_its_options_out_of_the_connection() -> None:
    store = open_store("redis://:pw@10.0.0.5:6380/2?prefix=bot1:&lease_ttl=2.5&lease_wait=9")
    assert isinstance(store, RedisStore)
    assert (store.prefix, store.lease_ttl, store.lease_wait) == ("bot1:", 2.5, 9.0)
    assert store.url == "redis://:pw@10.0.0.5:6380/2"


@pytest.mark.parametrize("query", ["lease_ttl=0", "lease_ttl=soon", "lease_wait=-1"])
def test_bad_lease_options_are_config_errors(query: str) -> None:
    with pytest.raises(ConfigError, match="positive number"):
        open_store(f"redis://127.0.0.1:6379/0?{query}")


def test_a_window_must_hold_a_turn() -> None:
    with pytest.raises(ConfigError, match="window_turns"):
        HarnessBot(helpdesk(), window_turns=0)


def test_serve_refuses_a_window_of_no_turns() -> None:
    result = CliRunner().invoke(cli, ["serve", "bot.yaml", "--window-turns", "0"])
    assert result.exit_code == 2 and "--window-turns" in result.output


def test_a_missing_server_skips_unless_servers_are_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(_servers.shutil, "which", lambda _name: None)
    monkeypatch.delenv("HARNESS_REQUIRE_SERVERS", raising=False)
    with (
        pytest.raises(pytest.skip.Exception, match="redis-server is not installed"),
        _servers.redis_server(tmp_path),
    ):
        pass
    monkeypatch.setenv("HARNESS_REQUIRE_SERVERS", "1")
    with (
        pytest.raises(pytest.fail.Exception, match="HARNESS_REQUIRE_SERVERS is set"),
        _servers.redis_server(tmp_path),
    ):
        pass


def test_serve_refuses_an_app_password_without_an_app_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MicrosoftAppId", raising=False)
    result = CliRunner().invoke(cli, ["serve", "bot.yaml", "--app-password", "s3cret"])
    assert result.exit_code == 2 and "--app-id" in result.output
    assert "s3cret" not in result.output


def test_serve_keeps_the_azure_sdks_http_logging_out_of_the_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import logging

    from harness.hosting import app

    async def served(*_args: object, **_kwargs: object) -> None:
        return None

    monkeypatch.setattr(app, "serve", served)
    azure = logging.getLogger("azure")
    monkeypatch.setattr(azure, "level", logging.NOTSET)
    result = CliRunner().invoke(cli, ["serve", str(HELPDESK)])
    assert result.exit_code == 0, result.output
    assert azure.level == logging.WARNING

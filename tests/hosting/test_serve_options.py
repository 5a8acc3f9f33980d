"""``harness serve``'s options refused before anything starts: a shutdown wait that is not a
number of seconds, and an app id without the password its replies need; the shutdown wait's
default."""

from __future__ import annotations

import inspect
import math

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.exceptions import ConfigError
from harness.hosting import create_app
from tests.hosting._support import helpdesk


@pytest.mark.parametrize(
    ("value", "why"), [("-1", "not in the range x>=0"), ("soon", "not a valid float")]
)
def test_a_negative_or_non_number_shutdown_timeout_is_refused(value: str, why: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "bot.yaml", "--shutdown-timeout", value])
    assert result.exit_code == 2
    assert "--shutdown-timeout" in result.output and why in result.output


@pytest.mark.parametrize("value", [-0.5, math.nan])
def test_create_app_refuses_a_shutdown_timeout_below_zero(value: float) -> None:
    with pytest.raises(ConfigError, match="shutdown_timeout must be 0 or more seconds"):
        create_app(helpdesk(), shutdown_timeout=value)


KUBERNETES_GRACE_S = 30.0
"""Kubernetes' default ``terminationGracePeriodSeconds``: SIGTERM, then SIGKILL this much later."""


def test_the_default_shutdown_stops_within_kubernetes_default_grace_period() -> None:
    """``serve``'s stop is the drain (``--shutdown-timeout``), then up to ``HANDLERS_AFTER_DRAIN_S``
    for a request still running and as long again once it is cancelled (27.0 s from SIGTERM to
    exit with 25, measured). With the old default, 30, a worker with a stuck turn was killed."""
    from harness.cli.serve import serve_command
    from harness.hosting import app

    option = next(p for p in serve_command.params if p.name == "shutdown_timeout")
    default = inspect.signature(create_app).parameters["shutdown_timeout"].default
    assert option.default == default == app.DEFAULT_SHUTDOWN_TIMEOUT
    # a second to spare for closing the models and the process's exit
    assert default + 2 * app.HANDLERS_AFTER_DRAIN_S + 1 <= KUBERNETES_GRACE_S


def test_serve_refuses_an_app_id_without_an_app_password(monkeypatch: pytest.MonkeyPatch) -> None:
    """It used to start and look configured, and no reply could get a token (with a tenant id,
    botbuilder stopped with a bare ``Property 'APP_PASSWORD' is expected``)."""
    monkeypatch.delenv("MicrosoftAppPassword", raising=False)
    result = CliRunner().invoke(cli, ["serve", "bot.yaml", "--app-id", "0000-app"])
    assert result.exit_code == 2
    assert "--app-id (env MicrosoftAppId) is set without --app-password" in result.output
    assert "replies" in result.output and "UserAssignedMSI" in result.output


@pytest.mark.parametrize("adapter", ["botbuilder", "agents-sdk"])
def test_create_app_refuses_an_app_id_without_an_app_password(adapter: str) -> None:
    with pytest.raises(ConfigError, match=r"app_id is set without app_password: .* replies"):
        create_app(helpdesk(), adapter=adapter, app_id="0000-app")  # type: ignore[arg-type]

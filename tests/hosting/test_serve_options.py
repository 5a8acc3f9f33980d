"""``harness serve``'s options refused before anything starts: a shutdown wait that is not a
number of seconds, and an app id without the password its replies need."""

from __future__ import annotations

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

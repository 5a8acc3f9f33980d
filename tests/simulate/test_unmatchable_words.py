"""A ``words:`` entry the missed-request check reads as no content word and no number ("£",
"no", "it is") can never match an answer: loading the scenario says so, with the file and line,
instead of a missed request the developer cannot explain."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.exceptions import ConfigError
from harness.simulate.scenarios import load_scenarios

SCENARIOS = """\
scenarios:
  - name: fare
    turns:
      - user: "How much is a return to York?"
        requests:
          - {{text: "How much is a return to York", agent: fares, words: [{words}]}}
"""


def _file(tmp_path: Path, words: str) -> Path:
    path = tmp_path / "scenarios.yaml"
    path.write_text(SCENARIOS.format(words=words), encoding="utf-8")
    return path


@pytest.mark.parametrize("words", ['"£"', '"?!"', '"  "', '"£14.60", "£"', '"_"'])
def test_a_word_without_a_letter_or_digit_is_refused_at_its_line(
    tmp_path: Path, words: str
) -> None:
    with pytest.raises(ConfigError, match="gives no content word or number, so no answer") as e:
        load_scenarios(_file(tmp_path, words))
    assert e.value.line == 6


@pytest.mark.parametrize("words", ['"no"', '"OK"', '"not"', '"none"', '"it is"', '"late", "no"'])
def test_a_word_the_check_reads_as_nothing_is_refused(tmp_path: Path, words: str) -> None:
    # Letters, but only words the check leaves out of an answer's content: it could never match.
    with pytest.raises(ConfigError, match="gives no content word or number") as e:
        load_scenarios(_file(tmp_path, words))
    assert e.value.line == 6


@pytest.mark.parametrize("words", ['"£14.60"', '"14"', '"return"', '"café"', '"not running"'])
def test_words_with_a_letter_or_digit_load(tmp_path: Path, words: str) -> None:
    (scenario,) = load_scenarios(_file(tmp_path, words)).scenarios
    assert scenario.turns[0].requests[0].words


def test_simulate_says_it_in_one_line_and_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["simulate", str(_file(tmp_path, '"£"')), "--bot", "x.yaml"])
    assert result.exit_code == 2
    assert "scenarios.yaml:6:" in result.output
    assert "words: '£' gives no content word or number" in result.output

"""``harness scenario from-botium`` and ``from-kit``: the tests a team already has become scenarios,
and what has no counterpart is listed, never dropped in silence (issue 28, item 5).

The fixtures in tests/fixtures/importers/ were written for these tests in each tool's documented
format; none is copied from a project."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from harness.cli import cli
from harness.exceptions import ConfigError
from harness.simulate.importers import botium_scenarios, imported_yaml, kit_scenarios
from harness.simulate.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "importers"
GOOD = ROOT / "samples" / "helpdesk" / "helpdesk.yaml"
PASSWORD = [
    FIXTURES / "password.convo.txt",
    FIXTURES / "payday.pconvo.txt",
    FIXTURES / "FORGOT_UTT.utterances.txt",
]


def _written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "imported.yaml"
    path.write_text(text, encoding="utf-8")
    load_scenarios(path)  # every import is a valid scenario file
    return path


def test_a_botium_convo_with_utterances_and_a_partial_convo(tmp_path: Path) -> None:
    (scenario,) = botium_scenarios(PASSWORD)
    assert scenario.name == "password reset"
    assert scenario.turns == [
        {"user": "I forgot my password", "bot": [{"expect": "reset link"}]},
        {
            "user": "When is payday?",
            "bot": [{"not": "reset link"}, {"expect": "Is there anything else", "optional": True}],
        },
    ]
    _written(tmp_path, imported_yaml([scenario], tool="Botium"))


def test_expanded_utterances_give_one_scenario_per_utterance() -> None:
    scenarios = botium_scenarios(PASSWORD, expand_utterances=True)
    assert [s.turns[0]["user"] for s in scenarios] == [
        "I forgot my password",
        "I can't remember my password, help",
    ]
    assert len({s.name for s in scenarios}) == 2


def test_wildcards_asserters_and_hooks(tmp_path: Path) -> None:
    (scenario,) = botium_scenarios([FIXTURES / "asserters.convo.txt"])
    (turn,) = scenario.turns
    first, second = turn["bot"]
    both = re.compile(first["regex"])
    assert both.search("hello there, I can help with your payday")
    assert not both.search("Hello there, how can I help?")  # the asserter's words are missing
    assert not both.search("Payday is Friday.")  # the wildcard text is missing
    not_all = re.compile(second["regex"])
    assert not_all.search("Sorry, I could not find that.")  # not both words: passes
    assert not not_all.search("Sorry, an error happened.")
    skipped = "\n".join(scenario.skipped)
    for note in ("bot message before the first user message", "PAUSE 500", "BUTTONS Yes|No"):
        assert note in skipped
    _written(tmp_path, imported_yaml([scenario], tool="Botium"))


@pytest.mark.parametrize(
    ("mode", "passes", "fails"),
    [
        ("wildcardIgnoreCase", "Your RESET LINK is on its way", "no link today"),
        ("wildcard", "your reset link is here", "RESET LINK"),
        ("equalsIgnoreCase", " Reset Link ", "your reset link"),
        ("regexp", "reset link", "Reset link"),
    ],
)
def test_botium_matching_modes(mode: str, passes: str, fails: str) -> None:
    scenarios = botium_scenarios(PASSWORD, matching=mode)  # type: ignore[arg-type]
    check = scenarios[0].turns[0]["bot"][0]
    kind, value = next(iter(check.items()))
    if kind == "expect":
        assert value.lower() in passes.lower() and value.lower() not in fails.lower()
    elif kind == "equals":
        assert passes.strip().lower() == value.lower() != fails.lower()
    else:
        assert re.search(value, passes) and not re.search(value, fails)


def test_an_include_of_a_missing_partial_convo_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"password.convo.txt:10: INCLUDE payday"):
        botium_scenarios([FIXTURES / "password.convo.txt"])


def test_the_imported_convo_runs_and_fails_when_the_bot_says_what_it_must_not(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    made = runner.invoke(
        cli,
        ["scenario", "from-botium", *map(str, PASSWORD), "--bot", str(GOOD)],
    )
    assert made.exit_code == 0, made.output
    scenario = _written(tmp_path, made.output)
    passed = runner.invoke(cli, ["simulate", str(scenario), "-q"])
    assert passed.exit_code == 0, passed.output
    # The same convo with the first answer negated: the bot does send a reset link.
    negated = tmp_path / "negated.convo.txt"
    negated.write_text(
        PASSWORD[0].read_text(encoding="utf-8").replace("\nreset link", "\n!reset link"),
        encoding="utf-8",
    )
    made = runner.invoke(
        cli, ["scenario", "from-botium", str(negated), *map(str, PASSWORD[1:]), "--bot", str(GOOD)]
    )
    scenario = _written(tmp_path, made.output)
    failed = runner.invoke(cli, ["simulate", str(scenario), "-q"])
    assert failed.exit_code == 1, failed.output
    assert "failed_check" in failed.output


def test_a_kit_test_set(tmp_path: Path) -> None:
    scenarios = {s.name: s for s in kit_scenarios(FIXTURES / "kit-tests.csv")}
    assert scenarios["TST-001"].turns == [{"user": "I forgot my password", "expect": "reset link"}]
    assert scenarios["TST-002"].turns == [{"user": "When is payday?", "not": "Sorry"}]
    (begins,) = scenarios["TST-003"].turns[0]["bot"]  # position 1: the first message
    assert re.search(begins["regex"], "hello there") and not re.search(begins["regex"], "Oh, hello")
    assert scenarios["TST-004"].turns == [{"user": "Where is my W-2?"}]
    assert "Topic Match" in scenarios["TST-004"].skipped[0]
    multi = scenarios["TST-010"]  # the children, by their Order column
    assert [t["user"] for t in multi.turns] == [
        "I want to change my direct deposit account",
        "How many vacation days have I taken?",
        "Thanks",
        "What is the PTO policy?",
    ]
    ends = multi.turns[2]["regex"]
    assert re.search(ends, "You're welcome!") and not re.search(ends, "Thanks, GOODBYE ")
    assert any("Generative Answers" in note for note in multi.skipped)
    text = imported_yaml(list(scenarios.values()), tool="the Copilot Studio Kit")
    assert "# Not imported" in text
    assert len(load_scenarios(_written(tmp_path, text)).scenarios) == 5


def test_kit_columns_by_dataverse_name_and_operator_value(tmp_path: Path) -> None:
    csv = tmp_path / "dataverse.csv"
    csv.write_text(
        "cat_name;cat_testtype;cat_testutterance;cat_expectedresponse;cat_comparisonoperator\n"
        "T1;Response Match;Hi;hello;526430002\n",
        encoding="utf-8",
    )
    (scenario,) = kit_scenarios(csv)
    assert scenario.turns == [{"user": "Hi", "expect": "hello"}]


def test_a_csv_without_utterances_is_a_clear_error(tmp_path: Path) -> None:
    csv = tmp_path / "other.csv"
    csv.write_text("id,question\n1,hello\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["scenario", "from-kit", str(csv)])
    assert result.exit_code == 2, result.output
    assert "no 'Test Utterance' column" in result.output
    assert "Traceback" not in result.output


def test_the_file_header_lists_what_was_not_imported(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["scenario", "from-botium", str(FIXTURES / "asserters.convo.txt")]
    )
    assert result.exit_code == 0, result.output
    header = [line for line in result.output.splitlines() if line.startswith("#")]
    assert any("BUTTONS Yes|No" in line for line in header)
    assert yaml.safe_load(result.output)["scenarios"][0]["name"] == "asserters and hooks"

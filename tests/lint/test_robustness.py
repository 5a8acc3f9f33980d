"""HC100: broken files get one finding each, with file and line, and the rest is still linted."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.exceptions import UsageError
from harness.lint import lint_paths
from tests.lint.conftest import LINT, Writer, ids

BROKEN = LINT / "broken"


def _where(report_findings: tuple, rule: str = "HC100") -> list[tuple[str, int | None]]:  # type: ignore[type-arg]
    return [(Path(f.file).name, f.line) for f in report_findings if f.id == rule]


def test_broken_files_are_reported_and_the_others_still_linted() -> None:
    report = lint_paths([BROKEN])
    assert _where(report.findings) == [
        ("broken_syntax.yaml", 7),
        ("unknown_kind.yaml", 5),
        ("wrong_type.yaml", 3),
        ("wrong_type.yaml", 9),
        ("wrong_type.yaml", 10),
        ("agent.mcs.yml", 5),  # agents/Bad: unclosed flow sequence
        ("agent.mcs.yml", 1),  # agents/Odd: misspelt kind
    ]
    # The valid files, and the valid parts of invalid ones, keep their findings.
    assert ("good.yaml", 10) in _where(report.findings, "HC004")
    assert ("unknown_kind.yaml", 12) in _where(report.findings, "HC001")
    fine = [f.id for f in report.findings if "/Fine/" in f.file]
    assert sorted(fine) == ["HC001", "HC004", "HC009"]


def test_hc100_messages_name_the_problem() -> None:
    messages = {
        (Path(f.file).name, f.line): f.message
        for f in lint_paths([BROKEN]).findings
        if f.id == "HC100"
    }
    assert "unclosed" not in messages[("broken_syntax.yaml", 7)]
    assert "quoted scalar" in messages[("broken_syntax.yaml", 7)]
    assert "'child' or 'connected'" in messages[("unknown_kind.yaml", 5)]
    assert "got 'robot'" in messages[("unknown_kind.yaml", 5)]
    assert "timeout" in messages[("wrong_type.yaml", 9)]
    assert "unknown kind 'AgentDialogue'" in messages[("agent.mcs.yml", 1)]


def test_a_folder_search_skips_yaml_that_is_not_a_config() -> None:
    report = lint_paths([BROKEN])
    assert all(not f.file.endswith("scenarios.yaml") for f in report.findings)


def test_an_explicit_non_config_file_is_hc100(write: Writer) -> None:
    path = write("scenarios.yaml", "scenarios: []\n")
    findings = lint_paths([path]).findings
    assert ids(findings) == ["HC100"]
    assert "not an agent config" in findings[0].message
    text = write("notes.txt", "hello\n")
    assert ids(lint_paths([text]).findings) == ["HC100"]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("parent: {name: x}\nsubagents: {}\n", 2, "'subagents' must be a list"),
        ("subagents: []\n", 1, "'parent' section is missing"),
        ("- just\n- a list\n", 1, "not an agent config"),
        ("parent: {name: x}\nversion: 2\nsubagents: []\n", 2, "unknown key 'version'"),
        (
            "parent: {name: x}\nsubagents:\n  - {name: a, kind: child, mode: direct}\n"
            "  - {name: a, kind: child, mode: direct}\n",
            4,
            "duplicate sub-agent name 'a'",
        ),
        (
            "parent: {name: x}\nsubagents:\n  - name: a b\n    kind: child\n    mode: direct\n",
            3,
            "letters, digits",
        ),
        (
            "parent: {name: x}\nsubagents:\n  - name: a\n    kind: child\n    mode: loud\n",
            5,
            "'silent', 'direct' or 'conversational'",
        ),
        (
            "parent: {name: x}\nsubagents:\n  - name: a\n    kind: child\n    mode: direct\n"
            "    tools: [pto_balance]\n",
            6,
            "file.py:function",
        ),
        (
            "parent: {name: x}\nsubagents:\n  - name: a\n    kind: child\n    mode: direct\n"
            "    descripton: typo\n",
            6,
            "unknown key",
        ),
        ("parent:\n  name: x\n  name: y\nsubagents: []\n", 3, "duplicate key"),
    ],
)
def test_schema_problems_are_one_hc100_each_with_their_line(
    write: Writer, text: str, line: int, words: str
) -> None:
    findings = [f for f in lint_paths([write("bot.yaml", text)]).findings if f.id == "HC100"]
    assert len(findings) == 1, findings
    assert findings[0].line == line
    assert words in findings[0].message


def test_wrong_types_in_copilot_studio_files_are_hc100(write: Writer) -> None:
    path = write(
        "agents/Odd/agent.mcs.yml",
        """\
        kind: AgentDialog
        beginDialog: just text
        settings:
          instructions: [not, text]
          historyType:
            kind: SomeHistory
        outputType:
          properties: [answered]
        """,
    )
    findings = lint_paths([path]).findings
    assert [(f.id, f.line) for f in findings if f.id == "HC100"] == [
        ("HC100", 2),
        ("HC100", 4),
        ("HC100", 5),
        ("HC100", 8),
    ]


def test_missing_paths_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no such file or folder: /nowhere/at/all"):
        lint_paths(["/nowhere/at/all"])


def test_unreadable_bytes_are_hc100(write: Writer) -> None:
    path = write("bot.yaml", "")
    path.write_bytes(b"parent:\n  name: \xff\xfe\n")
    assert ids(lint_paths([path]).findings) == ["HC100"]


def test_linting_never_imports_tools(write: Writer, tmp_path: Path) -> None:
    marker = tmp_path / "imported"
    side_effect = f"from pathlib import Path\nPath({str(marker)!r}).write_text('imported')\n"
    write("tools.py", side_effect + "\ndef pto_balance() -> str:\n    return '12 days'\n")
    write("tools_pkg/__init__.py", side_effect)
    write("tools_pkg/evil.py", side_effect + "\nasync def run() -> None:\n    pass\n")
    config = write(
        "bot.yaml",
        """\
        parent: {name: helpdesk}
        subagents:
          - name: pto
            kind: child
            mode: direct
            description: Answers PTO questions.
            tools: ["tools.py:pto_balance", "tools_pkg.evil:run"]
        """,
    )
    assert lint_paths([config]).findings == ()
    assert not marker.exists()


@pytest.mark.parametrize(
    ("reference", "words"),
    [
        ("tools.py:missing", "'tools.py' has no function 'missing'"),
        ("nowhere.py:run", "tool module 'nowhere.py' not found next to the config"),
        ("no_such_pkg.mod:run", "cannot import tool module 'no_such_pkg.mod'"),
        ("tools_pkg.evil:nothing", "'tools_pkg.evil' has no function 'nothing'"),
        ("just_a_name", "must look like 'file.py:function' or 'module:function'"),
        ("broken.py:run", "cannot parse tool module 'broken.py'"),
        ("json:loads", None),
        ("os.path:join", None),
        ("json.decoder:JSONDecoder", None),
    ],
)
def test_tool_references_must_resolve(write: Writer, reference: str, words: str | None) -> None:
    write("tools.py", "def pto_balance() -> str:\n    return '12 days'\n")
    write("tools_pkg/__init__.py", "")
    write("tools_pkg/evil.py", "def run() -> None:\n    pass\n")
    write("broken.py", "def run(:\n")
    config = write(
        "bot.yaml",
        f"""\
        parent: {{name: helpdesk}}
        subagents:
          - name: pto
            kind: child
            mode: direct
            description: Answers PTO questions.
            tools: ["{reference}"]
        """,
    )
    findings = lint_paths([config]).findings
    if words is None:
        assert findings == ()
    else:
        assert ids(findings) == ["HC100"]
        assert words in findings[0].message
        assert findings[0].line == 7


def test_yaml_tags_are_not_constructed(write: Writer, tmp_path: Path) -> None:
    config = write(
        "bot.yaml",
        """\
        parent: !!python/object/apply:os.system ["touch pwned"]
        subagents: []
        """,
    )
    findings = lint_paths([config]).findings
    assert ids(findings) == ["HC100"]
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            "parent: {name: x}\nsubagent: []\n",
            2,
            "subagent: unknown key 'subagent' (did you mean 'subagents'?)",
        ),
        (
            "parent: {name: x}\nsubagents:\n  - {name: a, kind: child, mode: direct, "
            "descripton: d}\n",
            3,
            "subagents[0].descripton: unknown key 'descripton' (did you mean 'description'?)",
        ),
        (
            "parent: {name: x, zzz: 1}\nsubagents: []\n",
            1,
            "parent.zzz: unknown key 'zzz' (expected one of ",
        ),
    ],
)
def test_unknown_keys_are_worded_as_the_runtime_words_them(
    write: Writer, text: str, line: int, message: str
) -> None:
    findings = lint_paths([write("bot.yaml", text)]).findings
    assert [(f.line, f.message[: len(message)]) for f in findings if f.id == "HC100"] == [
        (line, message)
    ]


@pytest.mark.parametrize(
    ("name", "accepted"),
    [("ünïcode_agent", True), ("Café-Bar", True), ("日本語", True), ("two words", False)],
)
def test_lint_accepts_the_names_the_runtime_accepts(
    write: Writer, name: str, accepted: bool
) -> None:
    """`harness chat`, `simulate` and `instructions` build a sub-agent named in any script (letters,
    digits, '-', '_'); the lint judges the same name alike."""
    from subagents import ChildAgent
    from subagents._errors import ConfigError

    try:
        ChildAgent(name=name, description="d", mode="direct")
        built = True
    except ConfigError:
        built = False
    assert built is accepted
    path = write(
        "bot.yaml",
        f"parent:\n  name: bot\nsubagents:\n  - name: {name}\n    kind: child\n    mode: direct\n"
        "    description: Answers questions about opening hours.\n",
    )
    refused = [f for f in lint_paths([path]).findings if "sub-agent name" in f.message]
    assert (not refused) is accepted

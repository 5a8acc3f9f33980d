"""The pages under ``docs/`` run as written: their Python snippets and their ``harness`` sessions.

Conventions for the fenced blocks of a docs page (``test_readme.py``'s, plus ``# not run`` and
``console``):

- ```` ```python ````: executed on its own (a fresh namespace) with the repository root as the
  working directory. When the next block is ```` ```text ````, the snippet's standard output must
  equal it (surrounding whitespace ignored); otherwise the snippet must print nothing.
- A ```` ```python ```` block whose first line is ``# not run`` is only compiled, never executed (it
  needs a server, an API key or the network); the ```` ```text ```` block after it is not checked.
- ```` ```console ````: a shell session. A line ``$ harness ...`` runs that command in-process (click's
  test runner, from the repository root); the lines after it, up to the next ``$`` line, are its
  expected output (standard output and standard error together, trailing spaces ignored). A line
  ``...`` stands for any number of lines. ``$ echo $?`` checks the previous command's exit code
  against the line after it; a command that exits non-zero must be followed by one.
- ```` ```sh ````, ```` ```yaml ````, ```` ```toml ```` and the other languages are never run.

Every ``--option`` a page mentions must be an option of a ``harness`` command, and every relative
link must point at a file that exists.
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from harness.cli import cli

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
NOT_RUN = "# not run"
ANY_LINES = "..."
CLI_ENV = {"NO_COLOR": "1", "FORCE_COLOR": None, "TERM": "dumb", "COLUMNS": "200"}
FOREIGN_OPTIONS = frozenset(
    {
        "--help",
        "--pairs",
        "--harness-html",
        "--harness-repeat",
        "--harness-min-pass-rate",
        "--harness-min-confidence",
        "--harness-meaning",
        "--sgd",
        "--findings-only",
        "--threshold",
        "--corpus",
        "--members",
        "--embeddings",
        "--tune-lexical",
        "--tune",
        "--plain",
        "--planner",
        "--models",
        "--every",
        "--weight",
        "--nested",
        "--thresholds",
        "--out",
        "--null",
        "--rows",
        "--share",
        "--no-measure",
        "--embedder",
        "--clinc",
        "--table-only",
        "--minilm",
        "--linear",
        "--dev-only",
        "--matcher",
    }
)
"""Options a page may mention that no harness command declares (``--pairs``: the calibration
script ``tests/simulate/calibration/measure.py``; ``--harness-*``: the pytest plugin's;
``--sgd`` and ``--corpus``: the detector's training script ``tools/detector/fit.py``;
``--embeddings``, ``--tune-lexical``, ``--tune``, ``--planner`` and ``--plain``: the routing figures' and the
out-of-scope fit's scripts in ``tests/planning`` and ``tests/detect``; ``--models``: the embedding
comparison ``tools/detector/embeddings.py``; ``--every``, ``--weight``, ``--nested`` and ``--thresholds``: the
detector's fitting scripts ``tools/detector/fit.py`` and ``tools/detector/tune.py``; ``--out``:
where ``tools/detector/fit.py acts-sentences`` writes its tagger; ``--null``, ``--rows`` and
``--share``: ``fit spread``'s refits with a noise feature or fewer rows; ``--embedder``:
``tools/detector/fit_answers.py --semantic``'s choice of the check's embedding model; ``--clinc``:
``tools/detector/fit_answers.py``'s paraphrase table, ``--table-only``: that table alone;
``--minilm``: the routing figures' scripts with ``MiniLMEmbedder``; ``--linear``:
``fit_answers.py --semantic``'s logistic regression instead of trees; ``--dev-only``:
``routing_eval``'s development sets alone; ``--matcher``: ``new_bot_eval``'s matcher with no
gate)."""


@dataclass(frozen=True, slots=True)
class Block:
    """One fenced block of a page."""

    page: str
    line: int
    """The 1-based line of the block's first body line."""
    lang: str
    body: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [
        Block(
            page=page.name,
            line=text.count("\n", 0, match.start(2)) + 1,
            lang=match.group(1),
            body=match.group(2),
        )
        for match in BLOCK.finditer(text)
    ]


def _python_cases() -> list[object]:
    cases: list[object] = []
    for page in PAGES:
        blocks = _blocks(page)
        for index, block in enumerate(blocks):
            if block.lang != "python":
                continue
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            expected = following.body if following is not None and following.lang == "text" else ""
            cases.append(pytest.param(block, expected, id=block.id))
    return cases


def _console_cases() -> list[object]:
    return [
        pytest.param(block, id=block.id)
        for page in PAGES
        for block in _blocks(page)
        if block.lang == "console"
    ]


def _run_python(block: Block) -> str:
    # Pad with blank lines so a traceback points at the page's own line numbers.
    code = compile("\n" * (block.line - 1) + block.body, f"docs/{block.page}", "exec")
    if block.body.lstrip().startswith(NOT_RUN):
        return ""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"__name__": "__docs__"})
    return out.getvalue()


@pytest.mark.parametrize(("block", "expected"), _python_cases())
def test_python_snippet_runs_and_prints_what_the_page_shows(
    block: Block, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    printed = _run_python(block)
    if block.body.lstrip().startswith(NOT_RUN):
        return
    assert _lines(printed) == _lines(expected)


# --- console sessions -------------------------------------------------------------------------


@dataclass(slots=True)
class Step:
    """One ``$ harness ...`` command and what the page says it prints and returns."""

    command: str
    line: int
    output: list[str]
    exit_code: int | None = None


def _steps(block: Block) -> list[Step]:
    steps: list[Step] = []
    awaiting_code: Step | None = None
    for offset, raw in enumerate(block.body.splitlines()):
        line = raw.rstrip()
        if awaiting_code is not None:
            awaiting_code.exit_code = int(line)
            awaiting_code = None
            continue
        if line == "$ echo $?":
            if not steps or steps[-1].exit_code is not None:
                raise AssertionError(f"{block.id}: `echo $?` without a command before it")
            awaiting_code = steps[-1]
        elif line.startswith("$ "):
            command = line[2:]
            if not command.startswith("harness "):
                raise AssertionError(f"{block.id}: only `harness` commands can run: {command}")
            steps.append(Step(command=command, line=block.line + offset, output=[]))
        elif not steps:
            raise AssertionError(f"{block.id}: output before the first `$` line: {line!r}")
        else:
            steps[-1].output.append(line)
    return steps


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where an expected ``...`` line matches any number of lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == ANY_LINES:
        return any(_matches(rest, actual[start:]) for start in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and _matches(rest, actual[1:])


@pytest.mark.parametrize("block", _console_cases())
def test_console_session_prints_and_exits_as_the_page_shows(
    block: Block, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    # A page's session is typed at a terminal: reports keep their terminal layout (a table).
    monkeypatch.setattr("harness.cli.options.stdout_is_terminal", lambda: True)
    monkeypatch.setattr("harness.cli.options.stderr_is_terminal", lambda: True)
    runner = CliRunner(env=CLI_ENV)
    for step in _steps(block):
        result = runner.invoke(cli, shlex.split(step.command)[1:], prog_name="harness")
        where = f"docs/{block.page}:{step.line}: $ {step.command}"
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{where} crashed") from result.exception
        actual = _lines(result.output)
        expected = _lines("\n".join(step.output))
        assert _matches(expected, actual), f"{where}\n--- printed:\n{result.output}"
        wanted = 0 if step.exit_code is None else step.exit_code
        assert result.exit_code == wanted, f"{where}: exit {result.exit_code}, page says {wanted}"


# --- the pages as a whole ---------------------------------------------------------------------


@functools.cache
def _known_options() -> frozenset[str]:
    """Every ``--option`` of the ``harness`` group and of its commands."""
    known: set[str] = set()
    context = click.Context(cli)
    commands: list[click.Command] = [cli]
    for name in cli.list_commands(context):
        command = cli.get_command(context, name)
        assert command is not None
        commands.append(command)
    for command in commands:
        for param in command.params:
            known.update(o for o in (*param.opts, *param.secondary_opts) if o.startswith("--"))
    return frozenset(known)


def test_there_are_pages() -> None:
    assert len(PAGES) >= 8, [p.name for p in PAGES]


PYTEST_OPTIONS = frozenset({"--collect-only", "--continue-on-collection-errors", "--junitxml"})
"""pytest's own options that the pages mention (next to the plugin's)."""


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_option_a_page_mentions_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    mentioned = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))
    unknown = sorted(mentioned - _known_options() - FOREIGN_OPTIONS - PYTEST_OPTIONS)
    assert not unknown, f"{page.name} mentions options no harness command has: {unknown}"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_points_at_a_file(page: Path) -> None:
    text = BLOCK.sub("", page.read_text(encoding="utf-8"))
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    missing = [t for t in targets if "://" not in t and not (page.parent / t).resolve().exists()]
    assert not missing, f"{page.name} links to missing files: {missing}"

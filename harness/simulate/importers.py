"""Scenarios from the test files bot teams already have: Botium convos and Copilot Studio Kit tests.

Each importer reads its format into :class:`Imported` scenarios (this SDK's scenario schema, as
plain data) plus the parts it could not map, which :func:`imported_yaml` writes as comments so
nothing is dropped silently.

**Botium** (``.convo.txt``, ``.pconvo.txt``, ``.utterances.txt``), as Botium's text compiler reads
them: the lines before the first ``#`` section are the convo's name and description; ``#me``
starts a user message, ``#bot`` a bot message (``#me channel`` and ``#bot channel`` too); a bot
line prefixed ``!`` must not match and ``?`` marks the message optional. Text is matched as
Botium's matching mode says (``wildcardIgnoreCase`` by default: contains, ``*`` for any text).
A user line naming an utterance list (``HELLO_UTT``, or ``NAME_UTT arg`` for one with ``%s``)
becomes its first utterance, or each in turn with ``expand_utterances``; a bot line naming one
matches any of them. ``INCLUDE name|name`` splices partial convos in. The text asserters
(``TEXT_CONTAINS_ANY``, ``TEXT_CONTAINS_ALL``, ``TEXT_EQUALS_ANY``, ``TEXT_REGEXP_ANY``, their
``_IC`` forms, negated with ``!``) become regular expressions. Buttons, cards, media, intents,
entities, JSON paths, pauses, scripting memory and a bot message before the first user message
have no counterpart and are listed as not imported.

**Copilot Studio Kit** test sets, exported as CSV: a row per test, with the columns of the Kit's
test table by display name or Dataverse name (``Name``/``cat_name``, ``Test Type``,
``Test Utterance``, ``Expected Response``, ``Comparison Operator``, ``Expected Position of the
Response Message``). Response Match tests map operator by operator: Equals → ``equals``,
Contains → ``expect``, Doesn't contain → ``not``, Begins/Ends with → an anchored ``regex``, and the
negated forms (Doesn't equal, begin or end with) → a ``regex`` with a negative look-ahead, all
case-insensitive as the Kit compares. An expected position checks that message of the turn (the
``bot:`` list). Rows of a multi-turn test (a ``Parent Test`` column naming it, ordered by
``Order``) become the turns of one scenario. Attachments, Topic Match, Generative Answers and
Plan Validation tests need the Kit's enrichment or an AI judge and are listed as not imported.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args

import yaml

from harness.exceptions import ConfigError

__all__ = [
    "MATCHING_MODES",
    "Imported",
    "MatchingMode",
    "botium_scenarios",
    "imported_yaml",
    "kit_scenarios",
]

MatchingMode = Literal[
    "wildcardIgnoreCase",
    "wildcard",
    "includeIgnoreCase",
    "include",
    "equalsIgnoreCase",
    "equals",
    "regexpIgnoreCase",
    "regexp",
]
MATCHING_MODES: tuple[MatchingMode, ...] = get_args(MatchingMode)


@dataclass(slots=True)
class Imported:
    """One scenario read from another tool's test file."""

    name: str
    source: str
    """The file (and line or row) it came from."""
    turns: list[dict[str, Any]] = field(default_factory=list)
    """Scenario turns as plain data (``user``, ``bot``, ``expect``, ...)."""
    skipped: list[str] = field(default_factory=list)
    """What the file asked for that has no counterpart here, one line each."""


def imported_yaml(scenarios: Sequence[Imported], *, tool: str, bot: str | None = None) -> str:
    """A scenario file (YAML text) with what could not be imported as comments."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    lines = [f"# Imported from {tool} by `harness scenario` on {stamp}."]
    dropped = [(s, note) for s in scenarios for note in s.skipped]
    if dropped:
        lines.append("# Not imported (no counterpart in harness scenarios):")
        lines.extend(f"#   {s.name} ({s.source}): {note}" for s, note in dropped)
    empty = [s for s in scenarios if not s.turns]
    if empty:
        lines.append("# Left out, no user message to send:")
        lines.extend(f"#   {s.name} ({s.source})" for s in empty)
    kept = [s for s in scenarios if s.turns]
    if not kept:
        raise ConfigError(f"nothing to import from the {tool} files: no test has a user message")
    document: dict[str, Any] = {}
    if bot is not None:
        document["bot"] = bot
    names: set[str] = set()
    document["scenarios"] = [{"name": _unique(s.name, names), "turns": s.turns} for s in kept]
    body: str = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    return "\n".join(lines) + "\n" + body


def _unique(name: str, used: set[str]) -> str:
    name = name.strip() or "scenario"
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{name} ({n})"
    used.add(candidate)
    return candidate


# --- Botium -----------------------------------------------------------------------------------

# Botium's asserters and logic hooks (its own registry of names): lines starting with one are not
# message text.
_HOOKS = frozenset(
    [
        "BUTTON",
        "BUTTONS",
        "BUTTONS_COUNT",
        "BUTTONS_COUNT_REC",
        "MEDIA",
        "MEDIA_COUNT",
        "MEDIA_COUNT_REC",
        "CARDS",
        "CARDS_COUNT",
        "CARDS_COUNT_REC",
        "FORM",
        "FORMS",
        "INTENT",
        "INTENT_CONFIDENCE",
        "INTENT_UNIQUE",
        "ENTITIES",
        "ENTITY_VALUES",
        "ENTITY_CONTENT",
        "JSON_PATH",
        "JSON_PATH_COUNT",
        "RESPONSE_LENGTH",
        "WER",
        "PAUSE",
        "PAUSE_ASSERTER",
        "WAITFORBOT",
        "INCLUDE",
        "SET_SCRIPTING_MEMORY",
        "ASSIGN_SCRIPTING_MEMORY",
        "CLEAR_SCRIPTING_MEMORY",
        "UPDATE_CUSTOM",
        "UPDATE_CONTEXT",
        "CLEAR_QUEUE",
        "ORDERED_LIST_TO_BUTTON",
        "CONVO_STEP_PARAMETERS",
        "BOT_CONSUMED",
        "BOT_UNCONSUMED_COUNT",
        "TEXT",
        "TEXT_IC",
        "TEXT_CONTAINS_ANY",
        "TEXT_CONTAINS_ANY_IC",
        "TEXT_CONTAINS_ALL",
        "TEXT_CONTAINS_ALL_IC",
        "TEXT_EQUALS_ANY",
        "TEXT_EQUALS_ANY_IC",
        "TEXT_REGEXP_ANY",
        "TEXT_REGEXP_ANY_IC",
        "TEXT_REGEXP_ALL",
        "TEXT_REGEXP_ALL_IC",
        "TEXT_WILDCARD_ANY",
        "TEXT_WILDCARD_ANY_IC",
        "TEXT_WILDCARD_ALL",
        "TEXT_WILDCARD_ALL_IC",
        "CONDITIONAL_STEP_TIME_BASED",
        "CONDITIONAL_STEP_BUSINESS_HOURS",
        "CONDITIONAL_STEP_CAPABILITY_VALUE_BASED",
        "CONDITIONAL_STEP_JSON_PATH_BASED",
    ]
)
_HOOK_LINE = re.compile(r"^[?!]*([A-Z][A-Z0-9_]*)(?:\s+(.*))?$")


@dataclass(slots=True)
class _Step:
    sender: str
    line: int
    text: list[str] = field(default_factory=list)
    hooks: list[tuple[str, str, bool, bool]] = field(default_factory=list)
    """(name, args, negated, optional)."""
    negated: bool = False
    optional: bool = False


@dataclass(slots=True)
class _Convo:
    name: str
    path: str
    steps: list[_Step]


def botium_scenarios(
    paths: Iterable[Path],
    *,
    matching: MatchingMode = "wildcardIgnoreCase",
    expand_utterances: bool = False,
) -> list[Imported]:
    """Scenarios from Botium files: convos, partial convos (``INCLUDE``) and utterance lists.

    Raises:
        ConfigError: a file that cannot be read, or an ``INCLUDE`` of an unknown partial convo.
    """
    convos: list[_Convo] = []
    partial: dict[str, _Convo] = {}
    utterances: dict[str, list[str]] = {}
    for path in paths:
        text = _read(path)
        lines = text.splitlines()
        lower = path.name.lower()
        if lower.endswith(".utterances.txt"):
            content = [line.strip() for line in lines if line.strip()]
            if content:
                utterances[content[0]] = content[1:]
        elif lower.endswith(".pconvo.txt"):
            convo = _parse_convo(lines, path)
            partial[convo.name] = convo
        else:
            convos.append(_parse_convo(lines, path))
    if not convos:
        raise ConfigError("no Botium convo among the files (a .convo.txt with #me / #bot)")
    out: list[Imported] = []
    for convo in convos:
        steps = _expand_includes(convo, partial, set())
        choices = _utterance_choices(steps, utterances) if expand_utterances else [{}]
        for pick in choices:
            suffix = "".join(f" [{name} {i + 1}]" for name, i in pick.items())
            out.append(
                _botium_scenario(convo, steps, utterances, pick, matching, name=convo.name + suffix)
            )
    return out


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text") from None


def _parse_convo(lines: Sequence[str], path: Path) -> _Convo:
    header: list[str] = []
    steps: list[_Step] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line.startswith("#"):
            sender = line[1:].strip().split(" ", 1)[0].lower()
            steps.append(_Step(sender=sender, line=number))
            continue
        if not steps:
            if line:
                header.append(line)
            continue
        step = steps[-1]
        hook = _HOOK_LINE.match(line)
        if hook and hook.group(1) in _HOOKS:
            prefix = line[: line.index(hook.group(1))]
            step.hooks.append((hook.group(1), hook.group(2) or "", "!" in prefix, "?" in prefix))
            continue
        if not step.text and step.sender == "bot" and line:
            while line[:1] in ("!", "?"):
                step.negated |= line[0] == "!"
                step.optional |= line[0] == "?"
                line = line[1:]
        step.text.append(line)
    name = header[0] if header else path.name.split(".")[0]
    for step in steps:  # Botium trims the blank lines around a message
        while step.text and not step.text[-1]:
            step.text.pop()
        while step.text and not step.text[0]:
            step.text.pop(0)
    return _Convo(name=name, path=str(path), steps=steps)


def _expand_includes(convo: _Convo, partial: Mapping[str, _Convo], seen: set[str]) -> list[_Step]:
    steps: list[_Step] = []
    for step in convo.steps:
        includes = [args for name, args, _, _ in step.hooks if name == "INCLUDE"]
        for args in includes:
            for name in (a.strip() for a in args.split("|") if a.strip()):
                if name not in partial:
                    raise ConfigError(
                        f"{convo.path}:{step.line}: INCLUDE {name}: no partial convo of that "
                        "name among the files (give its .pconvo.txt too)"
                    )
                if name in seen:
                    raise ConfigError(f"{convo.path}:{step.line}: INCLUDE {name} includes itself")
                steps.extend(_expand_includes(partial[name], partial, seen | {name}))
        step.hooks = [h for h in step.hooks if h[0] != "INCLUDE"]
        if step.text or step.hooks or (step.sender in ("me", "bot") and not includes):
            steps.append(step)
    return steps


def _utterance_choices(
    steps: Sequence[_Step], utterances: Mapping[str, list[str]]
) -> list[dict[str, int]]:
    """One pick per utterance of each user-side list in turn (the others at their first)."""
    names: list[str] = []
    for step in steps:
        if step.sender == "me" and step.text:
            ref = step.text[0].split(" ", 1)[0]
            if ref in utterances and ref not in names:
                names.append(ref)
    picks: list[dict[str, int]] = [{}]
    for name in names:
        picks.extend({name: i} for i in range(1, len(utterances[name])))
    return picks


def _botium_scenario(
    convo: _Convo,
    steps: Sequence[_Step],
    utterances: Mapping[str, list[str]],
    pick: Mapping[str, int],
    matching: MatchingMode,
    *,
    name: str,
) -> Imported:
    scenario = Imported(name=name, source=convo.path)
    turn: dict[str, Any] | None = None
    for step in steps:
        where = f"line {step.line}"
        if step.sender in ("begin", "end"):
            scenario.skipped.extend(f"{where}: #{step.sender} {h[0]}" for h in step.hooks)
            continue
        if step.sender == "me":
            text = _user_text(step, utterances, pick)
            scenario.skipped.extend(f"{where}: user {h[0]} {h[1]}".rstrip() for h in step.hooks)
            if not text:
                scenario.skipped.append(f"{where}: a user message with no text")
                turn = None
                continue
            turn = {"user": text}
            scenario.turns.append(turn)
            continue
        entry, notes = _bot_entry(step, utterances, matching)
        scenario.skipped.extend(f"{where}: {note}" for note in notes)
        if turn is None:
            scenario.skipped.append(f"{where}: a bot message before the first user message")
            continue
        turn.setdefault("bot", []).append(entry)
    for t in scenario.turns:  # a bot list of messages that check nothing checks nothing
        if "bot" in t and not any(e for e in t["bot"]):
            del t["bot"]
    return scenario


def _user_text(step: _Step, utterances: Mapping[str, list[str]], pick: Mapping[str, int]) -> str:
    text = "\n".join(step.text).strip()
    ref, _, args = text.partition(" ")
    if utterances.get(ref):
        chosen = utterances[ref][pick.get(ref, 0)]
        for arg in args.split("|") if args else []:
            chosen = chosen.replace("%s", arg.strip(), 1)
        return chosen
    return text


def _bot_entry(
    step: _Step, utterances: Mapping[str, list[str]], matching: MatchingMode
) -> tuple[dict[str, Any], list[str]]:
    entry: dict[str, Any] = {}
    notes: list[str] = []
    text = "\n".join(step.text).strip()
    if text:
        options = utterances.get(text) or [text]
        entry.update(_text_check(options, matching, negated=step.negated))
    for name, args, negated, optional in step.hooks:
        check = _asserter(name, args, negated)
        if check is None:
            notes.append(f"bot {'!' if negated else ''}{name} {args}".rstrip())
        else:
            _merge(entry, check)
        step.optional |= optional
    if step.optional:
        entry["optional"] = True
    return entry, notes


def _merge(entry: dict[str, Any], check: Mapping[str, str]) -> None:
    """Add ``check`` to one message's checks; two of one kind become one regular expression that
    needs both."""
    for kind, value in check.items():
        if kind not in entry:
            entry[kind] = value
            continue
        parts = [_as_regex(kind, entry.pop(kind)), _as_regex(kind, value)]
        if "regex" in entry:  # fold an existing expression in too: one regex per message
            parts.insert(0, _as_regex("regex", entry.pop("regex")))
        entry["regex"] = "^" + "".join(f"(?=[\\s\\S]*?{p})" for p in parts)


def _as_regex(kind: str, value: str) -> str:
    """A check of ``kind`` as a group that can sit inside a look-ahead, its flags kept local."""
    if kind == "regex":
        if value.startswith("(?i)"):
            return f"(?i:{value[4:]})"
        return f"(?:{value})"
    escaped = re.escape(value)
    if kind == "expect":
        return f"(?i:{escaped})"
    if kind == "equals":
        return f"(?i:^\\s*{escaped}\\s*$)"
    return f"(?i:^(?![\\s\\S]*{escaped}))"  # not


def _text_check(options: Sequence[str], mode: MatchingMode, *, negated: bool) -> dict[str, str]:
    """One bot message's text check: any of ``options`` (an utterance list), as ``mode`` says."""
    ignore = mode.endswith("IgnoreCase")
    flags = "(?i)" if ignore else ""
    if len(options) == 1 and ignore and not negated:
        only = options[0]
        if mode.startswith("include") or (mode.startswith("wildcard") and "*" not in only):
            return {"expect": only}
        if mode.startswith("equals"):
            return {"equals": only}
    plain = mode.startswith(("include", "wildcard")) and "*" not in options[0]
    if len(options) == 1 and ignore and negated and plain:
        return {"not": options[0]}
    parts = [_pattern(o, mode) for o in options]
    body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    if negated:
        return {"regex": f"{flags}^(?![\\s\\S]*{body})"}
    return {"regex": flags + body}


def _pattern(text: str, mode: MatchingMode) -> str:
    if mode.startswith("regexp"):
        return text
    if mode.startswith("equals"):
        return "^\\s*" + re.escape(text) + "\\s*$"
    if mode.startswith("wildcard"):
        return "[\\s\\S]*".join(re.escape(part) for part in text.split("*"))
    return re.escape(text)


def _asserter(name: str, args: str, negated: bool) -> dict[str, str] | None:
    """A Botium text asserter as one regular expression (None: not a text asserter)."""
    values = [a.strip() for a in args.split("|") if a.strip()]
    if not values or not name.startswith("TEXT"):
        return None
    flags = "(?i)" if name.endswith("_IC") else ""
    base = name.removesuffix("_IC")
    if base in ("TEXT_CONTAINS_ANY", "TEXT_CONTAINS_ALL"):
        parts = [re.escape(v) for v in values]
    elif base in ("TEXT_REGEXP_ANY", "TEXT_REGEXP_ALL"):
        parts = values
    elif base in ("TEXT_WILDCARD_ANY", "TEXT_WILDCARD_ALL"):
        parts = ["[\\s\\S]*".join(re.escape(p) for p in v.split("*")) for v in values]
    elif base in ("TEXT_EQUALS_ANY", "TEXT"):
        parts = ["^\\s*" + re.escape(v) + "\\s*$" for v in values]
    else:
        return None
    if base.endswith("_ALL"):
        every = "".join(f"(?=[\\s\\S]*{p})" for p in parts)
        # negated: not all of them are there (at least one is missing)
        return {"regex": flags + (f"^(?!{every})" if negated else "^" + every)}
    alternatives = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    if negated:
        return {"regex": f"{flags}^(?![\\s\\S]*{alternatives})"}
    return {"regex": flags + alternatives}


# --- Copilot Studio Kit -----------------------------------------------------------------------

_COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "cat_name", "test name"),
    "type": ("test type", "cat_testtype"),
    "utterance": ("test utterance", "cat_testutterance", "utterance"),
    "expected": ("expected response", "cat_expectedresponse"),
    "operator": ("comparison operator", "cat_comparisonoperator", "response match type"),
    "position": (
        "expected position of the response message",
        "cat_expectedresponseposition",
        "expected position",
    ),
    "parent": ("parent test", "multi-turn test", "cat_parenttest", "cat_multiturntest"),
    "order": ("order", "cat_order"),
}

# The Kit's operators by label and by Dataverse option value.
_OPERATORS: dict[str, str] = {
    "equals": "equals",
    "526430000": "equals",
    "does not equal": "not equals",
    "doesn't equal": "not equals",
    "526430001": "not equals",
    "contains": "contains",
    "526430002": "contains",
    "does not contain": "not contains",
    "doesn't contain": "not contains",
    "526430003": "not contains",
    "begins with": "begins",
    "526430004": "begins",
    "does not begin with": "not begins",
    "doesn't begin with": "not begins",
    "526430005": "not begins",
    "ends with": "ends",
    "526430006": "ends",
    "does not end with": "not ends",
    "doesn't end with": "not ends",
    "526430007": "not ends",
}


def kit_scenarios(path: Path) -> list[Imported]:
    """Scenarios from a Copilot Studio Kit test set exported as CSV.

    Raises:
        ConfigError: the file cannot be read or has no ``Test Utterance`` column.
    """
    text = _read(path)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.DictReader(io.StringIO(text), dialect=dialect))
    if not rows:
        raise ConfigError(f"{path}: no test rows (a header row and one row per test)")
    headers = {h.strip().lower(): h for h in rows[0] if h}
    columns = {
        key: next((headers[n] for n in names if n in headers), None)
        for key, names in _COLUMNS.items()
    }
    if columns["utterance"] is None:
        raise ConfigError(
            f"{path}: no 'Test Utterance' column (found: {', '.join(sorted(headers))})"
        )

    def cell(row: Mapping[str, str | None], key: str) -> str:
        column = columns[key]
        return ((row.get(column) or "") if column else "").strip()

    scenarios: dict[str, Imported] = {}
    ordered: dict[str, list[tuple[float, int, dict[str, Any]]]] = {}
    for number, row in enumerate(rows, start=2):
        kind = cell(row, "type").lower() or "response match"
        name = cell(row, "name") or f"row {number}"
        if kind in ("multi-turn", "multiturn"):
            continue  # the parent row: its children carry the turns
        parent = cell(row, "parent")
        key = parent or name
        scenario = scenarios.setdefault(key, Imported(name=key, source=f"{path.name} row {number}"))
        utterance = cell(row, "utterance")
        if not utterance:
            scenario.skipped.append(f"row {number} ({name}): no test utterance")
            continue
        turn: dict[str, Any] = {"user": utterance}
        if kind == "response match":
            _kit_check(turn, cell(row, "operator"), cell(row, "expected"), cell(row, "position"))
            if cell(row, "expected") and len(turn) == 1:
                scenario.skipped.append(
                    f"row {number} ({name}): comparison operator {cell(row, 'operator')!r}"
                )
        else:
            scenario.skipped.append(
                f"row {number} ({name}): a {cell(row, 'type') or kind} test (needs the Kit's "
                "enrichment or an AI judge); its utterance is kept, unchecked"
            )
        try:
            order = float(cell(row, "order") or number)
        except ValueError:
            order = float(number)
        ordered.setdefault(key, []).append((order, number, turn))
    for key, turns in ordered.items():
        scenarios[key].turns = [t for _, _, t in sorted(turns, key=lambda x: (x[0], x[1]))]
    return list(scenarios.values())


def _kit_check(turn: dict[str, Any], operator: str, expected: str, position: str) -> None:
    if not expected:
        return
    op = _OPERATORS.get(operator.strip().lower() or "equals")
    if op is None:
        return
    escaped = re.escape(expected)
    check: dict[str, str]
    if op == "equals":
        check = {"equals": expected}
    elif op == "contains":
        check = {"expect": expected}
    elif op == "not contains":
        check = {"not": expected}
    elif op == "begins":
        check = {"regex": f"(?i)^\\s*{escaped}"}
    elif op == "ends":
        check = {"regex": f"(?i){escaped}\\s*$"}
    elif op == "not equals":
        check = {"regex": f"(?i)^(?!\\s*{escaped}\\s*$)"}
    elif op == "not begins":
        check = {"regex": f"(?i)^(?!\\s*{escaped})"}
    else:  # not ends
        check = {"regex": f"(?i)^(?![\\s\\S]*{escaped}\\s*$)"}
    index = int(position) if position.isdigit() and int(position) > 0 else 0
    if index:
        turn["bot"] = [{} for _ in range(index - 1)] + [check]
    else:
        # The Kit checks the turn's response: here, the turn's bot messages (``not``: none of
        # them contains it; the others: one of them passes).
        turn.update(check)

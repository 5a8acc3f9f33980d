"""Fuzz the file loaders: whatever the bytes, the answer is a ``ConfigError`` or a result.

Hypothesis generates YAML (random data dumped as YAML, then mutated: cut, spliced with
anchors and aliases, nested, re-encoded) for configs and scenario files, and JSON / JSONL text for
transcripts. A traceback of any other type is a bug. Runs are derandomised (fixed seed), bounded by
``max_examples``, and keep no example database, so CI sees the same inputs every time.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness import load_bot
from harness._yaml import read_yaml
from harness.detect.readers import parse_transcript
from harness.exceptions import ConfigError
from harness.simulate.scenarios import load_scenarios

FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

TRIED: dict[str, int] = {}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.sampled_from(["yes", "off", "1:30", "~", "&a", "*a", "!!python/object", "<<", "\ud800"]),
)
data = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=30,
)
config_like = st.fixed_dictionaries(
    {
        "parent": st.one_of(data, st.fixed_dictionaries({"name": data})),
        "subagents": st.one_of(
            data,
            st.lists(
                st.fixed_dictionaries(
                    {"name": data, "kind": st.sampled_from(["child", "connected", 3]), "mode": data}
                ),
                max_size=3,
            ),
        ),
    }
)
fragments = st.sampled_from(
    [
        "",
        "&a [x, *a]",
        "*nowhere",
        "<<: *a",
        "[" * 80,
        "{" * 80,
        "\t",
        "---\n",
        "? [1]\n: 2",
        "a: &a [lol, lol]\nb: [*a, *a, *a]",
        "\x00",
        "%YAML 1.1\n",
        "!!binary AAAA",
    ]
)


def _yaml_text(value: Any) -> str:
    return yaml.safe_dump(value, allow_unicode=True, default_flow_style=None)


@st.composite
def yaml_bytes(draw: st.DrawFn, shape: st.SearchStrategy[Any]) -> bytes:
    try:
        text = _yaml_text(draw(shape))
    except (yaml.YAMLError, UnicodeEncodeError):
        text = "a: 1\n"
    cut = draw(st.integers(0, len(text)))
    text = text[:cut] + draw(fragments) + text[cut:]
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    return text.encode(
        encoding, errors="surrogatepass" if encoding.startswith("utf") else "replace"
    )


def _only_config_errors(kind: str, call: Any) -> None:
    TRIED[kind] = TRIED.get(kind, 0) + 1
    with contextlib.suppress(ConfigError):
        call()


@FUZZ
@given(raw=yaml_bytes(config_like))
def test_config_files_never_crash_the_loader(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "bot.yaml"
    path.write_bytes(raw)
    _only_config_errors("configs", lambda: load_bot(path))


@FUZZ
@given(
    raw=yaml_bytes(
        st.fixed_dictionaries(
            {
                "bot": data,
                "scenarios": st.one_of(
                    data,
                    st.lists(st.fixed_dictionaries({"name": data, "turns": data}), max_size=3),
                ),
            }
        )
    )
)
def test_scenario_files_never_crash_the_loader(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "scenarios.yaml"
    path.write_bytes(raw)
    _only_config_errors("scenario files", lambda: load_scenarios(path))


@FUZZ
@given(raw=yaml_bytes(data))
def test_any_yaml_is_read_or_refused_with_a_config_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(raw)
    _only_config_errors("yaml", lambda: read_yaml(path))


json_data = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "text",
                    "from",
                    "name",
                    "role",
                    "conversation",
                    "id",
                    "sender",
                    "turn",
                    "x",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=25,
)
message = st.fixed_dictionaries(
    {
        "role": st.sampled_from(["user", "bot", 5, None]),
        "sender": st.one_of(st.text(max_size=8), st.none()),
        "text": st.one_of(st.text(max_size=30), st.integers()),
        "turn": st.one_of(st.integers(-2, 5), st.text(max_size=3)),
    }
)


@st.composite
def transcript_text(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        lines = draw(st.lists(st.one_of(message, json_data), min_size=0, max_size=6))
        text = "\n".join(json.dumps(line) for line in lines)
    else:
        text = json.dumps(draw(st.lists(st.one_of(json_data, message), max_size=6)))
    cut = draw(st.integers(0, len(text)))
    splice = draw(st.sampled_from(["", "[" * 3000, '{"a":' * 3000, "\n", "\ufeff", "]", "}"]))
    return text[:cut] + splice + text[cut:]


@FUZZ
@given(text=transcript_text())
def test_transcripts_never_crash_the_parser(text: str) -> None:
    _only_config_errors("transcripts", lambda: parse_transcript(text, file="fuzz.jsonl"))


def test_report_the_fuzz_counts() -> None:
    """Not a check: prints how many inputs each loader was given (``pytest -s`` shows it)."""
    print("fuzz inputs tried:", ", ".join(f"{k} {v}" for k, v in sorted(TRIED.items())))

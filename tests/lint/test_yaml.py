"""The fast YAML path loads exactly what ruamel.yaml loads, with the same lines, or defers to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.lint._yaml import (
    LMap,
    LSeq,
    YamlSyntaxError,
    _Parser,
    _Unsupported,
    load_yaml,
    load_yaml_slow,
)
from tests.lint.conftest import FIXTURES


def _same(fast: Any, slow: Any, path: str = "$") -> None:
    assert type(fast) is type(slow), f"{path}: {type(fast)} vs {type(slow)}"
    if isinstance(fast, LMap):
        assert list(fast) == list(slow), path
        assert fast.line == slow.line, path
        assert fast.key_lines == slow.key_lines, path
        for key in fast:
            _same(fast[key], slow[key], f"{path}.{key}")
    elif isinstance(fast, LSeq):
        assert len(fast) == len(slow), path
        assert fast.line == slow.line, path
        assert fast.item_lines == slow.item_lines, path
        for i, (a, b) in enumerate(zip(fast, slow, strict=True)):
            _same(a, b, f"{path}[{i}]")
    elif isinstance(fast, str | int | float | bool | None):
        assert fast == slow, path
    else:
        assert str(fast) == str(slow), path


def _fixture_files() -> list[Path]:
    return sorted(
        p
        for p in FIXTURES.rglob("*")
        if p.is_file() and (p.name == "data" or p.suffix in (".yml", ".yaml"))
    )


def test_fast_path_matches_ruamel_on_every_fixture() -> None:
    fast_parsed = 0
    for path in _fixture_files():
        text = path.read_text(encoding="utf-8")
        try:
            slow = load_yaml_slow(text)
        except YamlSyntaxError:
            with pytest.raises(YamlSyntaxError):
                load_yaml(text)
            continue
        try:
            fast = _Parser(text).document()
        except _Unsupported:
            _same(load_yaml(text), slow)
            continue
        fast_parsed += 1
        _same(fast, slow, str(path))
    assert fast_parsed > 50


SNIPPETS = [
    "a: 1\nb: -2\nc: 1.5\nd: true\ne: False\nf: ~\ng:\nh: null\ni: off\nj: yes\n",
    "a: 'it''s'\nb: \"tab\\there \\u00e9\"\nc: \"x # not a comment\"\nd: plain # comment\n",
    "list:\n- a\n- b\nnested:\n  - name: x\n    value: y\n  -\n    name: z\n",
    "flow: [a, 'b', \"c\", {name: d, description: e f}]\nempty: []\nmap: {}\n",
    "lit: |\n  line 1\n\n  line 2\n    indented\nnext: 1\n",
    "keep: |+\n  text\n\n\nstrip: |-\n  text\n\nfold: >\n  a\n  b\n\n  c\nend: 2\n",
    "folded_strip: >-\n  one\n  two\n",
    "multi: this plain scalar\n  goes on here\n\n  and here\nnext: x\n",
    "url: http://example.com:8080/path\ntool: tools.py:pto_balance\n",
    "'quoted key': 1\n\"other\": 2\nmcs.metadata:\n  componentName: x\n",
    "# only a comment\n\n",
    "top:\n  # comment inside\n  a: 1 # trailing\n\n  b: [1, 2, 3]  # flow then comment\n",
    "- a: 1\n  b:\n    - x\n- - nested\n",
    "a: &anchor 1\nb: *anchor\n",
    "a: !tag x\n",
    "date: 2024-01-01\n",
    "a: [1,\n  2]\n",
    'a: "multi\n  line"\n',
    "a: |2\n   x\n",
    'a: "b\tc"\n',
    "-\n  scalar after a bare dash\n- x\n",
]


@pytest.mark.parametrize("text", SNIPPETS)
def test_fast_path_matches_ruamel_or_defers(text: str) -> None:
    _same(load_yaml(text), load_yaml_slow(text))


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: 1\na: 2\n", 2),
        ("a: b: c\n", 1),
        ("a:\n  - x\n b: 2\n", 3),
        ('a: "open\nb: 1\n', 1),
        ("a: [1,\nb: 2\n", 1),
    ],
)
def test_syntax_errors_come_from_ruamel_with_their_line(text: str, line: int) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        load_yaml(text)
    assert info.value.line == line


def test_lines_of_keys_and_items() -> None:
    data = load_yaml("parent:\n  name: x\nsubagents:\n  - name: a\n\n  - name: b\n")
    assert isinstance(data, LMap)
    assert data.line_of("subagents") == 3
    assert data["parent"].line_of("name") == 2
    assert data["subagents"].item_lines == [4, 6]
    assert data["subagents"][1].line_of("name") == 6
    assert data.line_of("missing") == data.line == 1

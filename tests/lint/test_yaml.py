"""The YAML reader (PyYAML's libyaml compose + a walker) loads what ruamel.yaml loads, with lines.

ruamel.yaml's round-trip loader is the reference: the same values (YAML 1.2 scalars) and the same
line of every key and list item, on every fixture and on the snippets below. Hostile files fail at
once with one error naming the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness._yaml import MAX_DEPTH, MAX_NODES, LMap, LSeq, YamlSyntaxError, parse_yaml, read_yaml
from harness.exceptions import ConfigError
from tests.lint.conftest import FIXTURES


def _reference(text: str) -> Any:
    """ruamel.yaml's round-trip reading, in the same containers."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    def convert(node: Any, line: int) -> Any:
        if isinstance(node, CommentedMap):
            start = node.lc.line + 1 if node.lc.line is not None else line
            out = LMap(start)
            for key, value in node.items():
                key_line = node.lc.key(key)[0] + 1
                plain = convert(key, key_line)
                out[plain] = convert(value, key_line)
                out.key_lines[plain] = key_line
            return out
        if isinstance(node, CommentedSeq):
            start = node.lc.line + 1 if node.lc.line is not None else line
            seq = LSeq(start)
            for index, value in enumerate(node):
                item_line = node.lc.item(index)[0] + 1
                seq.append(convert(value, item_line))
                seq.item_lines.append(item_line)
            return seq
        if isinstance(node, bool) or node is None:
            return node
        for kind in (str, int, float):
            if isinstance(node, kind):
                return kind(node)
        return str(node)

    return convert(YAML(typ="rt").load(text), 1)


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


def test_same_as_ruamel_on_every_fixture() -> None:
    from ruamel.yaml.error import YAMLError

    compared = 0
    for path in _fixture_files():
        text = path.read_text(encoding="utf-8")
        try:
            reference = _reference(text)
        except YAMLError:
            with pytest.raises(YamlSyntaxError):
                parse_yaml(text)
            continue
        _same(parse_yaml(text), reference, str(path))
        compared += 1
    assert compared > 50


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
def test_same_as_ruamel(text: str) -> None:
    _same(parse_yaml(text), _reference(text))


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
def test_syntax_errors_name_their_line(text: str, line: int) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        parse_yaml(text)
    assert info.value.line == line


def test_lines_of_keys_and_items() -> None:
    data = parse_yaml("parent:\n  name: x\nsubagents:\n  - name: a\n\n  - name: b\n")
    assert isinstance(data, LMap)
    assert data.line_of("subagents") == 3
    assert data["parent"].line_of("name") == 2
    assert data["subagents"].item_lines == [4, 6]
    assert data["subagents"][1].line_of("name") == 6
    assert data.line_of("missing") == data.line == 1


def test_an_alias_bomb_is_refused_at_once() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]")
    with pytest.raises(YamlSyntaxError) as info:
        parse_yaml("\n".join(lines) + "\n")
    assert "alias bomb" in info.value.problem
    assert info.value.line is not None


def test_a_large_file_without_aliases_is_not_called_an_alias_bomb(tmp_path: Path) -> None:
    # Audit s58 finding 9: a big topic with no alias at all was refused as "an alias bomb?".
    text = "triggers:\n" + "".join(f"  - phrase {i}\n" for i in range(MAX_NODES + 1))
    with pytest.raises(YamlSyntaxError) as info:
        parse_yaml(text)
    assert "alias" not in info.value.problem
    assert f"more than {MAX_NODES:,} values" in info.value.problem
    path = tmp_path / "big.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_yaml(path)
    assert "alias" not in str(caught.value)
    assert f"more than {MAX_NODES:,} values" in str(caught.value)


@pytest.mark.parametrize(
    "anchor",
    ["base: &b {x: 1}\nuse: *b\n", "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n"],
    ids=["alias", "merge-key"],
)
def test_a_large_file_with_one_ordinary_alias_is_not_called_an_alias_bomb(
    tmp_path: Path, anchor: str
) -> None:
    # Review of s58-fixmisc: a few values from one anchor in a large file made it "an alias bomb?".
    text = anchor + "items:\n" + "".join(f"  - v{i}\n" for i in range(MAX_NODES + 500))
    with pytest.raises(YamlSyntaxError) as info:
        parse_yaml(text)
    path = tmp_path / "big.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        read_yaml(path)
    for message in (info.value.problem, str(caught.value)):
        assert "alias bomb" not in message and "through aliases" not in message
        assert f"holds more than {MAX_NODES:,} values" in message
        assert "of them from aliases" in message


def test_the_read_yaml_alias_bomb_message_names_aliases(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="alias bomb"):
        read_yaml(path)


@pytest.mark.parametrize(
    "text",
    [
        "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5),
        "".join(f"{'  ' * i}k{i}:\n" for i in range(MAX_DEPTH + 5))
        + "  " * (MAX_DEPTH + 5)
        + "x\n",
        "[" * 20_000,
        "a: &x [*x]\n",
    ],
)
def test_over_deep_nesting_is_refused(text: str) -> None:
    with pytest.raises(YamlSyntaxError) as info:
        parse_yaml(text)
    assert "deep" in info.value.problem


def test_tags_build_nothing() -> None:
    data = parse_yaml("a: !!python/object/apply:os.system ['echo hi']\nb: !custom 3\n")
    assert data == {"a": ["echo hi"], "b": "3"}


def test_json_reads_with_lines() -> None:
    data = parse_yaml('{\n  "a": {\n    "b": [1, true, null]\n  }\n}\n')
    assert data == {"a": {"b": [1, True, None]}}
    assert data["a"].line_of("b") == 3

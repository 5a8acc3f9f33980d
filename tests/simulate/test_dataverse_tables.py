"""Copilot Studio conversations as whole Dataverse tables: the ``ConversationTranscript`` table
exported as CSV, or the Dataverse Web API's answer ``{"value": [...]}``. One row that cannot be read
costs only that row; JSON of another shape is named for what it is, not called "not JSON"."""

from __future__ import annotations

import csv
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from harness.detect import ReadNote, detect, settle_notes
from harness.detect.readers import load_transcript, parse_transcript
from harness.exceptions import ConfigError


def _talk(question: str, answer: str, restated: str) -> str:
    """A row's content: a question, a sub-agent's answer and the parent restating it."""

    def message(i: int, role: int, text: str) -> dict[str, Any]:
        return {
            "id": f"m{i}",
            "type": "message",
            "from": {"role": role},
            "text": text,
            "timestamp": i,
        }

    return json.dumps(
        {"activities": [message(1, 1, question), message(2, 0, answer), message(3, 0, restated)]}
    )


LOCKER = _talk(
    "Which locker is mine?",
    "Your locker is number 214 on the second floor.",
    "Got it. Your locker is number 214 on the second floor.",
)
PARKING = _talk(
    "Where do I park?",
    "Your parking spot is B-17 in the north garage.",
    "Summary: your parking spot is B-17 in the north garage.",
)
CUT_SHORT = LOCKER[:60]  # a cell limit or a spreadsheet round trip cut the JSON


def _csv(path: Path, rows: list[tuple[str, str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Name", "Content"])
        writer.writerows(rows)
    return path


def test_a_csv_row_that_cannot_be_read_costs_that_row_only(tmp_path: Path) -> None:
    path = _csv(
        tmp_path / "export.csv",
        [("lockers", LOCKER), ("broken", CUT_SHORT), ("parking", PARKING)],
    )
    unread: list[ConfigError] = []
    transcripts = load_transcript(path, unread=unread)
    assert [t.conversation for t in transcripts] == ["lockers", "parking"]
    assert all(f.kind == "duplicate" for t in transcripts for f in detect(t))
    [error] = unread
    assert (error.file, error.line) == (str(path), 3)
    assert str(error).startswith(f"{path}:3: not JSON: ")
    assert str(error).endswith("; conversation broken is not checked (the other rows are)")


def test_without_a_list_for_them_an_unreadable_row_is_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A caller that does not collect such rows cannot report them: the file is an error, as
    before rows could be collected, not a conversation left out with a logged warning."""
    path = _csv(tmp_path / "export.csv", [("lockers", LOCKER), ("broken", CUT_SHORT)])
    with caplog.at_level(logging.WARNING), pytest.raises(ConfigError) as caught:
        load_transcript(path)
    assert (caught.value.file, caught.value.line) == (str(path), 3)
    assert str(caught.value).startswith(f"{path}:3: not JSON: ")
    assert caplog.messages == []
    answer = _web_api({"name": "lockers", "content": LOCKER}, {"name": "b", "content": CUT_SHORT})
    with pytest.raises(ConfigError, match=r"^answer\.json: value\[1\]\.content: not JSON: "):
        parse_transcript(answer, file="answer.json")


def test_scenario_from_transcript_on_a_table_with_an_unreadable_row_exits_2(
    tmp_path: Path,
) -> None:
    """The scenario file would lose that conversation without a word: nothing is written."""
    from click.testing import CliRunner

    from harness.cli import cli

    path = _csv(tmp_path / "export.csv", [("lockers", LOCKER), ("broken", CUT_SHORT)])
    written = tmp_path / "regress.yaml"
    result = CliRunner().invoke(cli, ["scenario", "from-transcript", str(path), "-o", str(written)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {path}:3: not JSON: ")
    assert not written.exists()


def test_a_csv_none_of_whose_rows_can_be_read_is_an_error(tmp_path: Path) -> None:
    path = _csv(tmp_path / "export.csv", [("a", CUT_SHORT), ("b", '{"activities": 3}')])
    with pytest.raises(ConfigError) as caught:
        load_transcript(path, unread=[])
    assert str(caught.value).startswith(f"{path}:2: not JSON: ")
    assert "(none of the CSV's 2 rows can be read: 2 cannot)" in str(caught.value)


def _web_api(*rows: dict[str, Any]) -> str:
    """What ``GET .../api/data/v9.2/conversationtranscripts`` answers, pretty-printed."""
    return json.dumps(
        {"@odata.context": "https://org.crm.dynamics.com/$metadata", "value": list(rows)}, indent=2
    )


def test_reads_the_dataverse_web_api_answer_as_rows(tmp_path: Path) -> None:
    answer = _web_api(
        {"conversationtranscriptid": "5d1c", "name": "lockers", "content": LOCKER},
        {"conversationtranscriptid": "77ab", "name": "", "content": CUT_SHORT},
        {"conversationtranscriptid": "90fe", "content": PARKING},
        {"conversationtranscriptid": "a0a0", "content": None},
    )
    unread: list[ConfigError] = []
    transcripts = parse_transcript(answer, file="answer.json", unread=unread)
    assert [t.conversation for t in transcripts] == ["lockers", "90fe"]
    assert [len([f for f in detect(t) if f.kind == "duplicate"]) for t in transcripts] == [1, 1]
    [error] = unread
    assert str(error).startswith("answer.json: value[1].content: not JSON: ")
    assert "conversation 77ab is not checked" in str(error)
    compact = json.dumps({"value": [{"name": "parking", "content": PARKING}]})
    assert [t.conversation for t in parse_transcript(compact)] == ["parking"]


def test_a_row_content_whose_activities_come_later_is_read() -> None:
    content = json.loads(LOCKER)
    document = json.dumps({"schemaVersion": 1, **content}, indent=2)
    (transcript,) = parse_transcript(document)
    assert [m.role for m in transcript] == ["user", "bot", "bot"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (
            json.dumps({"version": 1, "transcripts": [], "totals": {"errors": 0}}, indent=2),
            "; this is an object with the keys version, transcripts, totals",
        ),
        ('{"version": 1}', "; this is an object with the keys version"),
        ("42", ""),
    ],
)
def test_valid_json_of_another_shape_is_named_for_what_it_is(text: str, found: str) -> None:
    """A harness JSON report given by mistake, say: not "not JSON", but what was expected."""
    with pytest.raises(ConfigError) as caught:
        parse_transcript(text, file="report.json")
    message = str(caught.value)
    assert message.startswith("report.json: valid JSON, but not a transcript: expected ")
    assert message.endswith(f'"name": "..."}}]}}){found}')


def test_a_pretty_printed_object_that_is_not_json_says_where_it_breaks() -> None:
    text = '{\n  "value": [\n    {"name": "lockers",}\n  ]\n}\n'
    with pytest.raises(ConfigError) as caught:
        parse_transcript(text, file="answer.json")
    assert str(caught.value).startswith("answer.json:3: not JSON: ")


def test_jsonl_is_read_as_before() -> None:
    line = {"id": "1", "turn": 1, "role": "user", "text": "Which locker is mine?"}
    (transcript,) = parse_transcript(json.dumps(line))
    assert [m.text for m in transcript] == ["Which locker is mine?"]
    with pytest.raises(ConfigError, match="unknown key 'lockers'"):
        parse_transcript(json.dumps({**line, "lockers": 1}), file="t.jsonl")


def test_detect_reports_the_other_rows_then_the_unreadable_one_and_exits_2(tmp_path: Path) -> None:
    """As for several files (docs/simulate.md): the readable rows are checked and reported, the
    row that cannot be read is named on standard error after them, and the exit code is 2."""
    from click.testing import CliRunner

    from harness.cli import cli

    path = _csv(tmp_path / "export.csv", [("lockers", LOCKER), ("broken", CUT_SHORT)])
    result = CliRunner().invoke(cli, ["detect", str(path), "--format", "json"])
    assert result.exit_code == 2, result.output
    assert [t["conversation"] for t in json.loads(result.stdout)["transcripts"]] == ["lockers"]
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: {path}:3: not JSON: ")
    assert line.endswith("conversation broken is not checked (the other rows are)")


@pytest.mark.parametrize("several_files", [False, True])
def test_what_could_not_be_read_is_in_the_json_and_junit_reports(
    tmp_path: Path, several_files: bool
) -> None:
    """A CI that reads the report, not the exit code, sees the conversations left unchecked: a
    row of a table, or a whole file among several, is counted in ``totals.unread`` and is an
    error test case of the JUnit report."""
    import xml.etree.ElementTree as ET

    from click.testing import CliRunner

    from harness.cli import cli

    if several_files:
        good = _csv(tmp_path / "good.csv", [("lockers", LOCKER)])
        bad = tmp_path / "bad.jsonl"
        bad.write_text("not json\n", encoding="utf-8")
        args, where = [str(good), str(bad)], f"{bad}:1: "
    else:
        path = _csv(tmp_path / "export.csv", [("lockers", LOCKER), ("broken", CUT_SHORT)])
        args, where = [str(path)], f"{path}:3: not JSON: "
    runner = CliRunner()
    result = runner.invoke(cli, ["detect", *args, "--format", "json"])
    assert result.exit_code == 2, result.output
    report = json.loads(result.stdout)
    assert report["totals"]["unread"] == 1
    [unread] = report["unread"]
    assert unread["error"].startswith(where)
    result = runner.invoke(cli, ["detect", *args, "--format", "junit"])
    assert result.exit_code == 2, result.output
    suite = ET.fromstring(result.stdout).find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("errors")) == ("2", "1")
    [error] = suite.iter("error")
    assert (error.get("type"), error.get("message", "")[: len(where)]) == ("unread", where)
    read_args = ["detect", str(_csv(tmp_path / "read.csv", [("l", LOCKER)]))]
    read = runner.invoke(cli, [*read_args, "--format", "json"])
    assert read.exit_code == 1, read.output  # LOCKER's duplicate; every row read
    report = json.loads(read.stdout)
    assert (report["totals"]["unread"], "unread" in report) == (0, False)


@pytest.mark.parametrize("fmt", ["lines", "github", "table", "html"])
def test_a_row_that_could_not_be_read_is_in_every_report_format(tmp_path: Path, fmt: str) -> None:
    """Not only JSON and JUnit: a log, an annotation or a page read instead of standard error
    also says which row was not checked, and why."""
    import html

    from click.testing import CliRunner

    from harness.cli import cli

    path = _csv(tmp_path / "export.csv", [("lockers", LOCKER), ("broken", CUT_SHORT)])
    result = CliRunner().invoke(cli, ["detect", str(path), "--format", fmt])
    assert result.exit_code == 2, result.output
    report = html.unescape(result.stdout) if fmt == "html" else result.stdout
    reason = "conversation broken is not checked (the other rows are)"
    assert reason in report
    if fmt == "lines":
        [line] = [x for x in report.splitlines() if reason in x]
        assert line.startswith(f"unread: {path}:3: not JSON: ")
    if fmt == "github":
        [line] = [x for x in report.splitlines() if reason in x]
        assert line.startswith(f"::error file={path},line=3,title=unread::not JSON: ")
    if fmt == "table":  # on one line, however narrow the console
        [line] = [x for x in report.splitlines() if reason in x]
        assert line.startswith(f"unread: {path}:3: not JSON: ")
    if fmt != "html":  # the closing line a CI log's reader looks at does not read as clean
        assert report.splitlines()[-1].endswith("; 1 not read")
    if fmt == "html":
        assert 'id="unread"' in result.stdout
    # The row is still named on standard error, after the report.
    assert result.stderr.startswith(f"error: {path}:3: not JSON: ")


NEXT_LINK = (
    "https://org.crm.dynamics.com/api/data/v9.2/conversationtranscripts?$skiptoken=%3Ccookie"
)


def test_a_web_api_page_with_a_next_link_is_named_as_one_page(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A Web API answer with ``@odata.nextLink`` is one page of a longer result: the rows read are
    checked, and a note says the rest of the table was not read, and how to get all of it."""
    answer = json.loads(_web_api({"name": "lockers", "content": LOCKER}))
    answer["@odata.nextLink"] = NEXT_LINK
    notes: list[ReadNote] = []
    transcripts = parse_transcript(json.dumps(answer), file="page.json", notes=notes)
    assert [t.conversation for t in transcripts] == ["lockers"]
    [note] = notes
    assert note.file == "page.json"
    assert str(note).startswith("page.json: one page of the Dataverse Web API's answer (1 row)")
    assert "@odata.nextLink" in note.message and "Export data" in note.message
    # Without a list for it, the note is a warning on standard error (as the CLI's log shows).
    with caplog.at_level(logging.WARNING, logger="harness.detect.readers"):
        parse_transcript(json.dumps(answer), file="page.json")
    assert any("one page of the" in r.getMessage() for r in caplog.records)
    # An answer without a next link is the whole result: no note.
    whole: list[ReadNote] = []
    parse_transcript(_web_api({"name": "lockers", "content": LOCKER}), notes=whole)
    assert settle_notes(whole) == []


@pytest.mark.parametrize("fmt", ["json", "junit", "lines", "github", "html"])
def test_detect_warns_that_a_web_api_page_is_not_the_whole_table(tmp_path: Path, fmt: str) -> None:
    import html

    from click.testing import CliRunner

    from harness.cli import cli

    answer = json.loads(_web_api({"name": "lockers", "content": LOCKER}))
    answer["@odata.nextLink"] = NEXT_LINK
    path = tmp_path / "page.json"
    path.write_text(json.dumps(answer, indent=2), encoding="utf-8")
    result = CliRunner().invoke(cli, ["detect", str(path), "--format", fmt])
    assert result.exit_code == 1, result.output  # the duplicate in the page read; no error
    assert result.stderr.startswith(f"warning: {path}: one page of the Dataverse")
    if fmt == "json":
        report = json.loads(result.stdout)
        assert report["totals"]["notes"] == 1
        [note] = report["notes"]
        assert note["file"] == str(path) and "@odata.nextLink" in note["note"]
    else:
        text = html.unescape(result.stdout) if fmt in ("html", "junit") else result.stdout
        assert "one page of the Dataverse Web API's answer" in text
    if fmt == "github":
        assert f"::warning file={path},title=one page of a longer result::" in result.stdout


def _pages(folder: Path, *links: str | None) -> list[Path]:
    """A page per link (None: the last page, without one), each with one conversation."""
    paths = []
    for number, link in enumerate(links, start=1):
        answer = json.loads(_web_api({"name": f"lockers-{number}", "content": LOCKER}))
        if link is not None:
            answer["@odata.nextLink"] = f"{NEXT_LINK}{number}"
        path = folder / f"page-{number}.json"
        path.write_text(json.dumps(answer, indent=2), encoding="utf-8")
        paths.append(path)
    return paths


def _detect(*args: str | Path) -> Any:
    from click.testing import CliRunner

    from harness.cli import cli

    return CliRunner().invoke(cli, ["detect", *map(str, args)])


def test_every_page_of_a_query_given_says_nothing(tmp_path: Path) -> None:
    """docs/deployed-bots.md's way: save every page and give them all; the last page has no
    next link, so the whole result was read."""
    result = _detect(*_pages(tmp_path, NEXT_LINK, NEXT_LINK, None), "--format", "lines")
    assert result.exit_code == 1, result.output  # the pages' duplicates
    assert "warning:" not in result.stderr
    assert "note:" not in result.stdout
    result = _detect(*_pages(tmp_path, NEXT_LINK, NEXT_LINK, None), "--format", "json")
    assert json.loads(result.stdout)["totals"]["notes"] == 0


def test_pages_of_a_query_without_its_last_are_one_note(tmp_path: Path) -> None:
    first, second = _pages(tmp_path, NEXT_LINK, NEXT_LINK)
    result = _detect(first, second, "--format", "lines")
    assert result.exit_code == 1, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: {first}: one of 2 pages of the Dataverse Web API's answer given (with "
        f"{second}), each carrying @odata.nextLink and none the last, so the table has more "
        "rows, in no file given. Save each page (GET the @odata.nextLink URL until an answer "
        "has none) and give them all, or export the whole table from Power Apps (Tables > "
        "ConversationTranscript > Export > Export data, a .csv file)"
    ]
    assert result.stdout.count("note:") == 1


def test_a_page_whose_rows_could_not_be_read_keeps_its_note(tmp_path: Path) -> None:
    answer = json.loads(_web_api({"name": "broken", "content": "not a transcript"}))
    answer["@odata.nextLink"] = NEXT_LINK
    page = tmp_path / "page.json"
    page.write_text(json.dumps(answer), encoding="utf-8")
    alone = _detect(page)
    assert alone.exit_code == 2
    assert f"warning: {page}: one page of the Dataverse Web API's answer" in alone.stderr
    other = tmp_path / "other.json"
    other.write_text(LOCKER, encoding="utf-8")  # a row's content, not a Web API page
    both = _detect(page, other, "--format", "json")
    assert both.exit_code == 2
    [note] = json.loads(both.stdout)["notes"]
    assert note["file"] == str(page)


def test_settled_notes_settle_to_themselves(tmp_path: Path) -> None:
    notes: list[ReadNote] = []
    for path in _pages(tmp_path, NEXT_LINK, NEXT_LINK):
        load_transcript(path, notes=notes)
    settled = settle_notes(notes)
    assert len(settled) == 1
    assert settle_notes(settled) == settled


def test_from_transcript_warns_of_a_page_as_a_warning(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from harness.cli import cli

    (page,) = _pages(tmp_path, NEXT_LINK)
    result = CliRunner().invoke(cli, ["scenario", "from-transcript", str(page)])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"warning: {page}: one page of the Dataverse")
    assert "not checked" not in result.stderr

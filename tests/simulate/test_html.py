"""The HTML report: its summary, the data it embeds, escaping, and its size at 100,000 messages.

What the page draws from its data is checked in a real browser by ``test_html_browser.py``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from harness.detect import DetectionResult, Finding, detect, load_transcript
from harness.detect.findings import Highlight
from harness.detect.html import render_html, report_data
from harness.detect.transcript import Message, PlannedRequest, Transcript, TurnRecord
from harness.runtime.loading import run_sync
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios
from subagents import Usage
from tests.simulate._helpers import conversation, embedded_data

ROOT = Path(__file__).resolve().parents[2]
HELPDESK = ROOT / "samples" / "helpdesk"

HOSTILE = [
    "</script><script>window.pwned = 1</script>",
    '<img src=x onerror="window.pwned = 1"> & <b>bold</b> &amp; &lt;',
    "<!-- <script> a comment opener, then a line\u2028separator and a\u2029paragraph one",
    "{{ 7 * 7 }} {% if true %}jinja{% endif %} ${'template'} `back`",
]


def hostile_result() -> DetectionResult:
    """A conversation whose every field an attacker could control holds markup."""
    sender = "<i>agent</i>"
    messages = [
        Message(id="u1", turn=1, role="user", sender="user", text=HOSTILE[0]),
        Message(id="<b1>", turn=1, role="bot", sender=sender, text=HOSTILE[1], mode="direct"),
        Message(id="b2", turn=1, role="bot", sender="helpdesk", text=HOSTILE[2], request="<req>"),
        Message(id="b3", turn=1, role="bot", sender="helpdesk", text=HOSTILE[3]),
    ]
    transcript = Transcript.from_messages(
        messages,
        conversation="</script>conv",
        turns=[TurnRecord(turn=1, plan=(PlannedRequest(agent=sender, request="<script>"),))],
    )
    finding = Finding(
        kind="duplicate",
        turn=1,
        message_ids=("<b1>", "b2"),
        senders=(sender, "helpdesk"),
        evidence='restates "<b>bold</b>" </script><script>window.pwned = 2</script>',
        scope="same_turn",
        method="near",
    )
    return DetectionResult(
        file="<x>.jsonl", conversation="</script>conv", transcript=transcript, findings=(finding,)
    )


def _naive() -> list[DetectionResult]:
    scenarios = load_scenarios(HELPDESK / "scenarios.yaml")
    return run_sync(run_scenarios([scenarios], bot=str(HELPDESK / "helpdesk-naive.yaml")))


def _good() -> list[DetectionResult]:
    scenarios = load_scenarios(HELPDESK / "scenarios.yaml")
    return run_sync(run_scenarios([scenarios], bot=str(HELPDESK / "helpdesk.yaml")))


def _summary(page: str) -> dict[str, str]:
    return dict(re.findall(r'<dd id="sum-([a-z]+)">([^<]*)</dd>', page))


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def _tags(page: str) -> list[str]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


def _assert_structure(results: list[DetectionResult], data: dict[str, Any]) -> None:
    """One message row per message, in order; every finding names messages of its conversation
    and is listed by it; every highlight is a substring of its message."""
    assert len(data["conversations"]) == len(results)
    assert len(data["findings"]) == sum(len(r.findings) for r in results)
    for index, (result, conv) in enumerate(zip(results, data["conversations"], strict=True)):
        assert [row[0] for row in conv["messages"]] == [m.id for m in result.transcript.messages]
        assert [row[5] for row in conv["messages"]] == [m.text for m in result.transcript.messages]
        texts = {row[0]: row[5] for row in conv["messages"]}
        mine = [f for f in data["findings"] if f["conversation"] == index]
        assert [data["findings"][i] for i in conv["findings"]] == mine
        assert [(f["kind"], f["turn"], tuple(f["message_ids"])) for f in mine] == [
            (f.kind, f.turn, f.message_ids) for f in result.findings
        ]
        for finding in mine:
            assert set(finding["message_ids"]) <= set(texts)
            for highlight in finding["highlights"]:
                assert highlight["message_id"] in finding["message_ids"]
                assert highlight["text"] in texts[highlight["message_id"]]


def test_naive_helpdesk_summary_and_data() -> None:
    results = _naive()
    page = render_html(results, title="naive helpdesk", usage=Usage(requests=39))
    summary = _summary(page)
    findings = [f for r in results for f in r.findings]
    assert summary == {
        "conversations": "4",
        "clean": str(sum(1 for r in results if not r.findings)),
        "turns": str(sum(r.transcript.turn_count for r in results)),
        "messages": str(sum(len(r.transcript) for r in results)),
        "findings": str(len(findings)),
        "errors": str(sum(1 for f in findings if f.severity == "error")),
        "warnings": str(sum(1 for f in findings if f.severity == "warning")),
    }
    duplicates = sum(1 for f in findings if f.kind == "duplicate")
    assert f'<td id="sum-kind-duplicate">{duplicates}</td>' in page
    assert 'data-verdict="fail"' in page
    assert "model usage: 39 requests (no tokens reported by the model)</p>" in page
    data = embedded_data(page)
    assert data == report_data(results, title="naive helpdesk")
    _assert_structure(results, data)
    # The summary comes before the findings and conversations.
    assert (
        page.index('id="summary"') < page.index('id="findings"') < page.index('id="conversations"')
    )
    # The naive parent restates its sub-agent: the repeated sentence is marked in both messages.
    first = data["findings"][0]
    assert first["kind"] == "duplicate"
    assert {h["message_id"] for h in first["highlights"]} == set(first["message_ids"])
    # Sub-agents carry their mode, the parent is named as such, and turn plans are kept.
    conv = data["conversations"][0]
    assert [row[4] for row in conv["messages"]] == [None, "direct", "parent"]
    assert conv["plans"][0][1] == [
        ["pto", "How many vacation days do I have remaining"],
        ["payroll", "when will I be getting my next paycheck"],
    ]


def test_model_usage_with_tokens_and_cost() -> None:
    usage = Usage(requests=3, input_tokens=1_200, output_tokens=80, cost_usd=0.0012)
    page = render_html([], usage=usage)
    match = re.search(r'<p id="sum-usage" class="usage">(.*?)</p>', page, re.S)
    assert match is not None
    text = " ".join(match.group(1).split())
    assert (
        text == "model usage: 3 requests, 1200 input and 80 output tokens, estimated cost $0.0012"
    )
    assert 'data-verdict="pass"' in page  # nothing checked, nothing failed
    assert _summary(page)["conversations"] == "0"


def test_good_helpdesk_is_a_pass_with_every_message() -> None:
    results = _good()
    page = render_html(results)
    assert 'data-verdict="pass"' in page
    assert _summary(page)["findings"] == "0"
    assert "model usage" not in page  # none given
    data = embedded_data(page)
    assert data["findings"] == []
    _assert_structure(results, data)


def test_a_conversation_that_could_not_complete_fails_the_page_and_is_not_clean() -> None:
    transcript = conversation(("When is payday?", [("payroll", "Payday is Friday.")]))
    stopped = DetectionResult(
        file="s.yaml",
        conversation="payday",
        transcript=transcript,
        findings=(),
        error="CassetteMissError: the plan request is not in the cassette",
    )
    page = render_html([stopped])
    assert re.search(r'data-verdict="fail">FAIL: 0 errors, 1 could not complete<', page)
    summary = _summary(page)
    assert (summary["failed"], summary["clean"], summary["errors"]) == ("1", "0", "0")


def test_without_highlights_quoted_evidence_is_marked_where_found() -> None:
    transcript = conversation(
        (
            "vacation days?",
            [
                ("pto", "You have 12 vacation days left for 2026.", {"mode": "direct"}),
                ("helpdesk", "As mentioned above, you have 12 vacation days left for 2026."),
            ],
        )
    )
    findings = tuple(detect(transcript))
    assert {f.kind for f in findings} == {"duplicate", "awkward_ack"}
    result = DetectionResult(file="t", conversation="c", transcript=transcript, findings=findings)
    data = report_data([result])
    by_kind = {f["kind"]: f for f in data["findings"]}
    assert by_kind["awkward_ack"]["highlights"] == [
        {"message_id": "t1b2", "text": "As mentioned above"}
    ]
    # Both quotes of a near duplicate are looked for in both messages (ignoring case, keeping the
    # message's spelling); a passage inside a longer one of the same message is dropped.
    assert by_kind["duplicate"]["highlights"] == [
        {"message_id": "t1b1", "text": "You have 12 vacation days left for 2026."},
        {"message_id": "t1b2", "text": transcript.messages[2].text},
    ]


def test_a_findings_own_highlights_are_drawn_instead_of_its_evidence() -> None:
    transcript = conversation(
        (
            "vacation days and payday?",
            [
                ("pto", "You have 12 vacation days left for 2026.", {"mode": "direct"}),
                (
                    "helpdesk",
                    "Your next payday is Friday. You have 12 vacation days left for 2026.",
                ),
            ],
        )
    )
    finding = Finding(
        kind="duplicate",
        turn=1,
        message_ids=("t1b1", "t1b2"),
        senders=("pto", "helpdesk"),
        evidence='restates "Your next payday is Friday."',  # would mark the wrong passage
        highlights=(
            Highlight(message_id="t1b1", text="12 vacation days left for 2026"),
            Highlight(message_id="t1b2", text="12 vacation days left for 2026"),
            Highlight(message_id="t1b2", text="not in the message"),  # dropped
        ),
    )
    result = DetectionResult(file="t", conversation="c", transcript=transcript, findings=(finding,))
    assert report_data([result])["findings"][0]["highlights"] == [
        {"message_id": "t1b1", "text": "12 vacation days left for 2026"},
        {"message_id": "t1b2", "text": "12 vacation days left for 2026"},
    ]


def test_missed_request_has_no_messages_and_marks_its_turn() -> None:
    (transcript,) = load_transcript(ROOT / "docs" / "examples" / "transcript.jsonl")
    result = DetectionResult(
        file="t", conversation="c", transcript=transcript, findings=tuple(detect(transcript))
    )
    data = report_data([result])
    missed = [f for f in data["findings"] if f["kind"] == "missed_request"]
    assert len(missed) == 1
    assert (missed[0]["message_ids"], missed[0]["turn"], missed[0]["highlights"]) == ([], 2, [])
    assert data["conversations"][0]["plans"][1] == [
        2,
        [["benefits", "what is my dental deductible"], ["pto", "can I carry PTO over"]],
        [],
    ]


def test_hostile_content_cannot_break_out_of_the_page() -> None:
    result = hostile_result()
    page = render_html([result], title="</title><script>window.pwned = 3</script>")
    # Exactly the page's own two scripts: the data and the behaviour.
    assert _tags(page).count("script") == 2
    assert page.count("</script>") == 2
    assert page.count("<script") == 2
    for raw in ("<script>window", "<img", "<b>", "<i>", "<!--", "\u2028", "\u2029", "<req>"):
        assert raw not in page, raw
    assert "<title>&lt;/title&gt;&lt;script&gt;window.pwned = 3&lt;/script&gt;</title>" in page
    # The data is intact once parsed: the escapes mean the same characters.
    data = embedded_data(page)
    assert [row[5] for row in data["conversations"][0]["messages"]] == [
        m.text for m in result.transcript.messages
    ]
    assert data["conversations"][0]["title"] == "<x>.jsonl::</script>conv"
    assert data["findings"][0]["highlights"] == [{"message_id": "<b1>", "text": "<b>bold</b>"}]
    _assert_structure([result], data)


def test_the_script_never_writes_html_from_data() -> None:
    """The page's script sets untrusted text with textContent or text nodes only."""
    from importlib import resources

    script = resources.files("harness.detect").joinpath("templates", "report.js").read_text()
    assert "innerHTML" not in script
    assert "outerHTML" not in script
    assert "insertAdjacentHTML" not in script
    assert "document.write" not in script


def large_results(total: int, *, per_conversation: int) -> list[DetectionResult]:
    """``total`` messages of helpdesk-like chat, a duplicate finding every third turn."""
    results: list[DetectionResult] = []
    for c in range(total // per_conversation):
        messages: list[Message] = []
        findings: list[Finding] = []
        turns: list[TurnRecord] = []
        for i in range(per_conversation):
            turn = i // 3 + 1
            if i % 3 == 0:
                text = f"How many vacation days do I have left, and when is payday? ({c}/{turn})"
                messages.append(
                    Message(id=f"m{i}", turn=turn, role="user", sender="user", text=text)
                )
                turns.append(
                    TurnRecord(
                        turn=turn,
                        plan=(
                            PlannedRequest(agent="pto", request="vacation days left"),
                            PlannedRequest(agent="payroll", request="when is payday"),
                        ),
                    )
                )
                continue
            sender, mode = ("pto", "direct") if i % 3 == 1 else ("helpdesk", None)
            text = f"You have {turn % 30} PTO days left this year (out of 20)."
            if mode is None:
                text = (
                    "To sum up: " + text + f" Your next payday is Friday, December {turn % 28 + 1}."
                )
            messages.append(
                Message(id=f"m{i}", turn=turn, role="bot", sender=sender, text=text, mode=mode)
            )
            if mode is None and turn % 3 == 0:
                findings.append(
                    Finding(
                        kind="duplicate",
                        turn=turn,
                        message_ids=(f"m{i - 1}", f"m{i}"),
                        senders=("pto", "helpdesk"),
                        evidence=f'restates "You have {turn % 30} PTO days left this year (out of 20)."',
                        scope="same_turn",
                        method="containment",
                        score=1.0,
                    )
                )
        transcript = Transcript.from_messages(messages, conversation=f"c{c}", turns=turns)
        results.append(
            DetectionResult(
                file="big.jsonl",
                conversation=f"c{c}",
                transcript=transcript,
                findings=tuple(findings),
            )
        )
    return results


@pytest.mark.parametrize("per_conversation", [99_999, 999], ids=["one-long", "many-short"])
def test_size_at_100k_messages(per_conversation: int) -> None:
    results = large_results(100_000, per_conversation=per_conversation)
    messages = sum(len(r.transcript) for r in results)
    assert messages >= 99_900
    page = render_html(results)
    size = len(page.encode("utf-8"))
    # Measured: about 19 MB (about 190 bytes a message, with the plans and findings; the
    # messages here are 60 to 130 characters).
    assert size < 25_000_000, size
    # Lazy: no bubble is HTML until the page draws a conversation.
    assert 'class="msg' not in page
    data = embedded_data(page)
    assert sum(len(c["messages"]) for c in data["conversations"]) == messages
    assert len(data["findings"]) == sum(len(r.findings) for r in results)


def _parking_result(score: float | None) -> DetectionResult:
    """A car-park bot that answered the opening hours and not the height limit, with a missed
    request of ``score``."""
    transcript = Transcript(
        conversation="parking",
        messages=(
            Message(
                id="u1",
                turn=1,
                role="user",
                sender="user",
                text="When does the Dock Street car park open, and what is its height limit?",
            ),
            Message(id="b1", turn=1, role="bot", sender="bot", text="It opens at 6:30 am."),
        ),
    )
    finding = Finding(
        kind="missed_request",
        turn=1,
        message_ids=(),
        senders=("bot",),
        evidence='request not addressed: "what is its height limit"',
        score=score,
    )
    return DetectionResult(
        file="p", conversation="parking", transcript=transcript, findings=(finding,)
    )


def test_a_missed_requests_confidence_is_in_the_page_as_the_text_reports_show_it() -> None:
    # 0.97395 shows as 0.973, never as 0.974 (the sure level it is below), as in the text reports.
    (judged,) = report_data([_parking_result(0.97395)])["findings"]
    assert judged["confidence"] == "confidence 0.973"
    (unjudged,) = report_data([_parking_result(None)])["findings"]
    assert "confidence" not in unjudged

"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

Skipped with the reason when Chromium or Playwright is missing; ``.ci/run`` installs Chromium and
sets ``HARNESS_REQUIRE_BROWSER=1``, which turns the skip into a failure. Playwright never downloads
a browser here: it drives the system's ``chromium`` (or ``HARNESS_CHROMIUM``).

The screenshot of the naive helpdesk's report is saved to ``tests/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.detect import DetectionResult
from harness.detect.html import render_html
from harness.runtime.loading import run_sync
from harness.simulate.runner import run_scenarios
from harness.simulate.scenarios import load_scenarios
from tests.simulate.test_html import hostile_result, large_results

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing(reason: str) -> None:
    if os.environ.get("HARNESS_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HARNESS_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = os.environ.get("HARNESS_CHROMIUM") or shutil.which("chromium")
    if executable is None:
        _missing("Chromium is not installed (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed (pip install playwright)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def naive_results() -> list[DetectionResult]:
    scenarios = load_scenarios(ROOT / "samples" / "helpdesk" / "scenarios.yaml")
    bot = str(ROOT / "samples" / "helpdesk" / "helpdesk-naive.yaml")
    return run_sync(run_scenarios([scenarios], bot=bot))


def _open(browser: Any, path: Path, problems: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda r: None if r.url.startswith("file:") else problems.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready=true]")
    return page


def test_naive_helpdesk_report_in_chromium(
    naive_results: list[DetectionResult], browser: Any, tmp_path: Path
) -> None:
    # naive_results first: Playwright's sync API keeps an event loop running once it has started.
    from playwright.sync_api import expect

    findings = [f for r in naive_results for f in r.findings]
    assert findings, "the naive helpdesk has findings to show"
    report = tmp_path / "naive.html"
    report.write_text(render_html(naive_results, title="naive helpdesk"), encoding="utf-8")
    problems: list[str] = []
    page = _open(browser, report, problems)

    # The summary shows the right counts.
    assert page.inner_text("#sum-conversations") == str(len(naive_results))
    assert page.inner_text("#sum-messages") == str(sum(len(r.transcript) for r in naive_results))
    errors = sum(len(r.errors) for r in naive_results)
    assert page.inner_text("#sum-errors") == str(errors)
    duplicates = sum(1 for f in findings if f.kind == "duplicate")
    assert page.inner_text("#sum-kind-duplicate") == str(duplicates)
    assert page.inner_text("#verdict") == f"FAIL: {errors} error{'' if errors == 1 else 's'}"
    expect(page.locator("#findings .finding")).to_have_count(len(findings))

    # Clicking the first finding opens its conversation and brings its messages into view.
    first = findings[0]
    assert len(first.message_ids) >= 2
    page.locator("#findings .finding-link").first.click()
    for message_id in first.message_ids:
        bubble = page.locator(f'.msg[data-id="{message_id}"]')
        expect(bubble).to_have_count(1)
        expect(bubble).to_be_in_viewport()
        expect(bubble).to_have_class(re.compile(r"\bselected\b"))
    marked = page.locator(f'.msg[data-id="{first.message_ids[0]}"] mark').first
    expected = next(h.text for h in first.highlights if h.message_id == first.message_ids[0])
    expect(marked).to_have_text(expected)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "html-report-naive-helpdesk.png"), full_page=True)

    # Once every conversation is open: one bubble per message, in order.
    closed = page.locator(".conversation-toggle[aria-expanded=false]")
    for _ in range(closed.count()):
        closed.first.click()
    assert page.locator(".chunk .gap").count() == 0  # every conversation fits in its first chunk
    for index, result in enumerate(naive_results):
        ids = page.locator(f"#c-{index} .msg").evaluate_all("nodes => nodes.map(n => n.dataset.id)")
        assert ids == [m.id for m in result.transcript.messages]

    # The filters narrow the findings and the conversations.
    page.locator("input[name=kind][value=duplicate]").uncheck()
    expect(page.locator("#findings .finding")).to_have_count(len(findings) - duplicates)
    expect(page.locator(".flag.kind-duplicate").first).to_be_hidden()
    page.locator("input[name=kind][value=duplicate]").check()
    page.locator("input[name=severity][value=error]").uncheck()
    warnings = sum(1 for f in findings if f.severity == "warning")
    expect(page.locator("#findings .finding")).to_have_count(warnings)
    page.locator("input[name=severity][value=error]").check()
    page.fill("#filter-conversation", "password")
    expect(page.locator("#conversations .conversation")).to_have_count(1)
    expect(page.locator("#findings .finding")).to_have_count(
        sum(len(r.findings) for r in naive_results if "password" in r.title)
    )
    page.fill("#filter-conversation", "")
    page.locator("#filter-with-findings").check()
    expect(page.locator("#conversations .conversation")).to_have_count(
        sum(1 for r in naive_results if r.findings)
    )
    assert problems == []
    page.close()


def test_hostile_transcript_renders_as_text_in_chromium(browser: Any, tmp_path: Path) -> None:
    result = hostile_result()
    report = tmp_path / "hostile.html"
    report.write_text(render_html([result], title="<b>hostile</b>"), encoding="utf-8")
    problems: list[str] = []
    page = _open(browser, report, problems)
    page.locator(".conversation-toggle").first.click()
    texts = page.locator(".msg .text").all_inner_texts()
    assert texts == [m.text for m in result.transcript.messages]
    assert page.evaluate("() => window.pwned === undefined")
    assert page.locator(".msg img, .msg script, .msg b").count() == 0
    assert page.title() == "<b>hostile</b>"
    assert problems == []
    page.close()


def test_a_finding_deep_in_a_long_conversation_draws_only_its_chunk(
    browser: Any, tmp_path: Path
) -> None:
    (result,) = large_results(2_000, per_conversation=1_999)
    report = tmp_path / "long.html"
    report.write_text(render_html([result]), encoding="utf-8")
    problems: list[str] = []
    page = _open(browser, report, problems)
    assert page.locator(".msg").count() == 0  # nothing is drawn until asked for
    page.click("#findings-more")
    page.locator("#findings .finding-link").last.click()
    last = result.findings[-1]
    positions = {m.id: i for i, m in enumerate(result.transcript.messages)}
    assert positions[last.message_ids[0]] >= 1_600  # in the fifth chunk of 400
    for message_id in last.message_ids:
        expect_in_view(page.locator(f'.msg[data-id="{message_id}"]'))
    # The first chunk (opening the conversation) and the finding's; the three between are buttons.
    assert page.locator(".msg").count() == 400 + 399
    gaps = page.locator(".chunk .gap")
    assert gaps.all_inner_texts() == [
        f"show messages {a}–{a + 399} of 1999" for a in (401, 801, 1201)
    ]
    gaps.first.click()
    assert page.locator(".msg").count() == 1_199
    assert problems == []
    page.close()


def expect_in_view(locator: Any) -> None:
    from playwright.sync_api import expect

    expect(locator).to_have_count(1)
    expect(locator).to_be_in_viewport()


def test_a_missed_requests_confidence_is_drawn(browser: Any, tmp_path: Path) -> None:
    from tests.simulate.test_html import _parking_result

    report = tmp_path / "parking.html"
    report.write_text(render_html([_parking_result(0.6251)], title="parking"), encoding="utf-8")
    problems: list[str] = []
    page = _open(browser, report, problems)
    assert page.inner_text("#findings .finding .confidence") == "confidence 0.625"
    page.locator("#findings .finding-link").first.click()
    assert "; confidence 0.625" in page.locator(".flag.kind-missed_request").first.inner_text()
    assert problems == []
    page.close()

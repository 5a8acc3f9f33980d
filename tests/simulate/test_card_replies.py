"""Replies sent as cards (an Adaptive Card, a Hero card) with no ``text``, as Copilot Studio topics
and many Bot Framework bots answer: what the card shows is the message's text, in recorded
transcripts and from deployed bots alike; a message with nothing to read is named on stderr."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.cli import cli
from harness.detect import detect
from harness.detect.activities import activity_message, activity_text
from harness.detect.readers import load_transcript, parse_transcript
from harness.simulate.copilot_studio import CopilotStudioTarget
from harness.simulate.directline import DirectLineTarget
from tests.simulate._copilot_fake import FakeCopilotStudio
from tests.simulate._directline_fake import FakeDirectLine
from tests.simulate.test_directline import FAST

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "copilot-studio-transcript.json"

ADAPTIVE = "application/vnd.microsoft.card.adaptive"


def _adaptive(*body: dict[str, Any]) -> dict[str, Any]:
    return {
        "contentType": ADAPTIVE,
        "content": {"type": "AdaptiveCard", "version": "1.5", "body": list(body)},
    }


def _block(text: str) -> dict[str, Any]:
    return {"type": "TextBlock", "text": text, "wrap": True}


ORDER = "Your order of three notebooks ships on Tuesday, March 3."
RETURNS = "Returns are free within 30 days."


def test_an_adaptive_card_reads_as_its_blocks_runs_and_facts_in_order() -> None:
    card = _adaptive(
        _block("Order status"),
        {
            "type": "Container",
            "items": [
                {
                    "type": "RichTextBlock",
                    "inlines": [
                        {"type": "TextRun", "text": "Your order ", "weight": "bolder"},
                        "of three notebooks ships on Tuesday, March 3.",
                    ],
                }
            ],
        },
        {
            "type": "ColumnSet",
            "columns": [
                {"type": "Column", "items": [_block("Carrier")]},
                {"type": "Column", "items": [_block("Parcelway")]},
            ],
        },
        {
            "type": "FactSet",
            "facts": [{"title": "Tracking", "value": "PW-4471"}, {"title": "Weight", "value": ""}],
        },
        {"type": "Image", "url": "https://example.com/box.png"},
        {"type": "ActionSet", "actions": [{"type": "Action.Submit", "title": "Cancel order"}]},
    )
    activity = {"type": "message", "attachments": [card]}
    assert activity_text(activity).splitlines() == [
        "Order status",
        ORDER,
        "Carrier",
        "Parcelway",
        "Tracking: PW-4471",
        "Weight",
    ]


def test_hero_and_thumbnail_cards_read_as_title_subtitle_and_text_after_the_text() -> None:
    activity = {
        "type": "message",
        "text": "Here is what I found.",
        "attachments": [
            {
                "contentType": "application/vnd.microsoft.card.hero",
                "content": {"title": "Returns", "subtitle": "Policy", "text": RETURNS},
            },
            {
                "contentType": "application/vnd.microsoft.card.thumbnail",
                "content": {"title": "Returns", "text": "Print the label from your account."},
            },
            {"contentType": "image/png", "contentUrl": "https://example.com/label.png"},
        ],
    }
    assert activity_text(activity).splitlines() == [
        "Here is what I found.",
        "Returns",
        "Policy",
        RETURNS,
        "Print the label from your account.",
    ]


def test_a_card_sent_as_a_json_string_is_read_as_the_card() -> None:
    card = _adaptive(_block(RETURNS), _block("Print the label from your account."))
    sent = {**card, "content": json.dumps(card["content"])}
    assert activity_text({"type": "message", "attachments": [sent]}).splitlines() == [
        RETURNS,
        "Print the label from your account.",
    ]
    for content in ("{not json", "a plain string", '["a list"]'):
        broken = {"type": "message", "attachments": [{"contentType": ADAPTIVE, "content": content}]}
        assert activity_text(broken) == ""


def test_a_card_that_restates_the_text_is_not_read_twice() -> None:
    activity = {"type": "message", "text": RETURNS, "attachments": [_adaptive(_block(RETURNS))]}
    assert activity_text(activity) == RETURNS
    assert activity_text({"type": "message", "attachments": [{"contentType": ADAPTIVE}]}) == ""


def test_a_deployed_bots_card_reply_is_a_message() -> None:
    activity = {
        "type": "message",
        "from": {"name": "Shop"},
        "attachments": [_adaptive(_block(ORDER))],
    }
    message = activity_message(activity, turn=1, message_id="r1")
    assert message is not None and (message.text, message.sender) == (ORDER, "Shop")
    assert activity_message({"type": "message", "attachments": []}, turn=1, message_id="r2") is None


def _bot_framework(reply: dict[str, Any]) -> list[dict[str, Any]]:
    conversation = {"id": "shop"}
    return [
        {
            "type": "message",
            "id": "u1",
            "from": {"id": "u", "role": "user"},
            "conversation": conversation,
            "text": "Where is my order, and what is the return policy?",
        },
        {
            "type": "message",
            "id": "b1",
            "from": {"id": "b", "name": "orders", "role": "bot"},
            "conversation": conversation,
            "replyToId": "u1",
            "text": ORDER,
        },
        {
            "type": "message",
            "id": "b2",
            "from": {"id": "b", "name": "shop", "role": "bot"},
            "conversation": conversation,
            "replyToId": "u1",
            **reply,
        },
    ]


def test_detect_finds_a_duplicate_inside_a_card_reply(tmp_path: Path) -> None:
    """The parent restates the sub-agent's answer in an Adaptive Card: the duplicate is found, and
    the card's answer to the second question is no missed request."""
    path = tmp_path / "card.transcript"
    card = _adaptive(_block(f"{ORDER} {RETURNS}"))
    path.write_text(json.dumps(_bot_framework({"attachments": [card]})), encoding="utf-8")
    result = CliRunner().invoke(cli, ["detect", str(path), "--format", "json"])
    assert result.exit_code == 1, result.output
    findings = json.loads(result.stdout)["transcripts"][0]["findings"]
    assert [(f["kind"], f["message_ids"]) for f in findings] == [("duplicate", ["b1", "b2"])]


def test_a_message_with_nothing_to_read_is_named_on_stderr(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "image.json"
    image = {"contentType": "image/png", "contentUrl": "https://example.com/box.png"}
    path.write_text(json.dumps(_bot_framework({"attachments": [image]})), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="harness.detect.readers"):
        load_transcript(path)
    assert caplog.messages == [
        f"{path}: 1 message activity has neither text nor a card with text, so nothing in it is "
        "checked (b2)"
    ]


def _copilot_content(*, card: bool) -> str:
    """The documented Copilot Studio example, its parent's "To sum up" sent as an Adaptive Card."""
    content = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    (summary,) = [a for a in content["activities"] if a.get("id") == "a11"]
    if card:
        summary["attachments"] = [_adaptive(_block(summary.pop("text")))]
    else:
        summary.pop("text")
    return json.dumps(content)


def test_a_copilot_studio_transcript_reads_card_replies(caplog: pytest.LogCaptureFixture) -> None:
    (transcript,) = parse_transcript(_copilot_content(card=True), file="cs.json")
    assert sorted(f.message_ids for f in detect(transcript) if f.kind == "duplicate") == [
        ("a06", "a11"),
        ("a09", "a11"),
    ]
    with caplog.at_level(logging.WARNING, logger="harness.detect.readers"):
        (transcript,) = parse_transcript(_copilot_content(card=False), file="cs.json")
    assert "a11" not in {m.id for m in transcript}
    assert caplog.messages == [
        "cs.json: 1 message activity has neither text nor a card with text, so nothing in it is "
        "checked (a11)"
    ]


async def test_direct_line_and_copilot_studio_read_card_replies() -> None:
    async def reply(_activity: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"type": "message", "text": ORDER, "from": {"id": "bot", "name": "Shop"}},
            {
                "type": "message",
                "attachments": [_adaptive(_block(f"To sum up: {ORDER}"))],
                "from": {"id": "bot", "name": "Shop"},
            },
        ]

    fake = FakeDirectLine(reply)
    async with fake.running() as base, DirectLineTarget(base, secret=fake.secret, **FAST) as dl:
        direct = await dl.run_conversation(["where is my order?"], conversation_id="d")
    studio = FakeCopilotStudio(reply)
    async with studio.running() as url:
        target = CopilotStudioTarget(token=studio.token, direct_connect_url=url)
        copilot = await target.run_conversation(["where is my order?"], conversation_id="c")
    for transcript in (direct, copilot):
        assert [m.text for m in transcript.bot_messages()][-1] == f"To sum up: {ORDER}"
        assert [f.kind for f in detect(transcript)] == ["duplicate"]

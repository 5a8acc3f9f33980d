"""A message with no text, only a card's submitted values or attachments (audit s58, finding 11).

It runs no turn (the bot reads text only), but the user is told so in one short message, and the
log says why, instead of a silent 201.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from aiohttp import ClientSession

from harness.hosting import EndpointTarget, create_app
from harness.hosting.core import NOT_TEXT_REPLY
from tests.hosting._support import ADAPTERS, activity, helpdesk, running

CASES = {
    "card submit": ({"value": {"action": "approve", "ticket": 42}}, "the card you submitted"),
    "one image": (
        {"attachments": [{"contentType": "image/png", "contentUrl": "http://127.0.0.1:9/a.png"}]},
        "the attachment",
    ),
    "teams image": (  # Teams sends an image with a text/html copy of the message
        {
            "attachments": [
                {"contentType": "image/*", "contentUrl": "http://127.0.0.1:9/a.png"},
                {"contentType": "text/html", "content": '<div><img src="a.png"></div>'},
            ]
        },
        "the attachment",
    ),
    "two files": (
        {
            "attachments": [
                {"contentType": "image/png", "contentUrl": "http://127.0.0.1:9/a.png"},
                {"contentType": "application/pdf", "contentUrl": "http://127.0.0.1:9/b.pdf"},
            ]
        },
        "the attachments",
    ),
}


async def _replies(channel: EndpointTarget, conversation: str, count: int) -> list[Any]:
    """The replies of a conversation once ``count`` have arrived (polled, generous limit)."""
    for _ in range(1200):
        got = channel.replies.get(conversation, [])
        if len(got) >= count:
            return got
        await asyncio.sleep(0.05)
    return channel.replies.get(conversation, [])


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_message_without_text_gets_one_short_note(
    adapter: str, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    extra, what = CASES[case]
    caplog.set_level(logging.INFO, logger="harness.hosting")
    conversation = f"notext-{case.replace(' ', '-')}"
    async with (
        running(create_app(helpdesk(), adapter=adapter)) as base,  # type: ignore[arg-type]
        EndpointTarget(f"{base}/api/messages") as channel,
        ClientSession() as http,
    ):
        assert channel.service_url is not None
        body = activity("", conversation=conversation, service_url=channel.service_url, **extra)
        async with http.post(f"{base}/api/messages", json=body) as response:
            assert response.status in (201, 202), await response.text()  # botbuilder, agents-sdk
        replies = await _replies(channel, conversation, 1)
    assert [r.activity["text"] for r in replies] == [NOT_TEXT_REPLY.format(what=what)]
    assert replies[0].activity["from"]["name"] == "helpdesk"
    logged = [r.getMessage() for r in caplog.records if r.name == "harness.hosting"]
    assert any(f"only {what}, runs no turn" in line for line in logged), logged


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_blank_message_with_nothing_else_is_still_ignored(adapter: str) -> None:
    async with (
        running(create_app(helpdesk(), adapter=adapter)) as base,  # type: ignore[arg-type]
        EndpointTarget(f"{base}/api/messages") as channel,
        ClientSession() as http,
    ):
        assert channel.service_url is not None
        blank = activity("  ", conversation="blank", service_url=channel.service_url)
        async with http.post(f"{base}/api/messages", json=blank) as response:
            assert response.status in (201, 202)
        # A text message after it is answered; the blank one left nothing before that answer.
        received = await channel.send_turn("blank", "where can I locate my W-2 form")
    assert received and "Tax forms" in received[0].activity["text"]
    assert [r.activity["text"] for r in channel.replies["blank"]] == [
        r.activity["text"] for r in received
    ]


@pytest.mark.parametrize("adapter", ADAPTERS)
async def test_a_redelivered_activity_gets_the_note_once(adapter: str) -> None:
    extra, what = CASES["card submit"]
    async with (
        running(create_app(helpdesk(), adapter=adapter)) as base,  # type: ignore[arg-type]
        EndpointTarget(f"{base}/api/messages") as channel,
        ClientSession() as http,
    ):
        assert channel.service_url is not None
        body = activity("", conversation="again", service_url=channel.service_url, **extra)
        for _ in range(2):  # the channel retries the same activity (same id)
            async with http.post(f"{base}/api/messages", json=body) as response:
                assert response.status in (201, 202), await response.text()
        await _replies(channel, "again", 1)
        other = dict(body, id="a2")  # another card submit: a new note
        async with http.post(f"{base}/api/messages", json=other) as response:
            assert response.status in (201, 202), await response.text()
        await _replies(channel, "again", 2)
        received = await channel.send_turn("again", "where can I locate my W-2 form")
    note = NOT_TEXT_REPLY.format(what=what)
    assert [r.activity["text"] for r in channel.replies["again"]] == [
        note,
        note,
        *(r.activity["text"] for r in received),
    ]

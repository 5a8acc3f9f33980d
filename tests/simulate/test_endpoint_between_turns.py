"""``EndpointTarget`` (``simulate --endpoint``, ``chat --endpoint``): a reply that arrives between
two turns is not lost."""

from __future__ import annotations

from typing import Any

import aiohttp
from aiohttp import web

from harness.simulate.endpoint import EndpointTarget
from tests.hosting._support import running
from tests.simulate.test_directline_delivery import LATE


async def test_a_reply_between_turns_over_the_bot_framework_channel_comes_with_the_next() -> None:
    """``--endpoint``: a reply to the first message that arrives after that turn was over and
    before the next message is returned with the next turn (it used to be dropped), with the
    turn it answers (so ``chat --endpoint`` shows it, labelled late)."""
    asked: list[dict[str, object]] = []

    async def post(activity: dict[str, Any], text: str) -> None:
        url = str(activity["serviceUrl"]).rstrip("/")
        path = f"/v3/conversations/{activity['conversation']['id']}/activities/{activity['id']}"
        reply = {"type": "message", "text": text, "from": {"id": "bot", "name": "helpdesk"}}
        async with aiohttp.ClientSession() as http:
            await http.post(url + path, json={**reply, "replyToId": activity["id"]})

    async def messages(request: web.Request) -> web.Response:
        activity = await request.json()
        asked.append(activity)
        await post(activity, f"got {activity['text']}")
        return web.Response(status=200)

    app = web.Application()
    app.router.add_post("/api/messages", messages)
    async with (
        running(app, shutdown_timeout=0.5) as bot,
        EndpointTarget(f"{bot}/api/messages", quiet_period=0.1) as target,
    ):
        first = await target.send_turn("c", "PTO and payday?")
        # The first turn is over and the next message not sent yet; the channel has it once
        # the post is answered.
        await post(asked[0], LATE)
        assert len(target.replies["c"]) == 2
        second = await target.send_turn("c", "and my W-2?")
    assert [r.activity["text"] for r in first] == ["got PTO and payday?"]
    assert [(r.turn, r.activity["text"]) for r in second] == [
        (1, LATE),
        (2, "got and my W-2?"),
    ]

"""``EndpointTarget`` (``simulate --endpoint``, ``chat --endpoint``): a reply that arrives between
two turns is not lost."""

from __future__ import annotations

from typing import Any

import aiohttp
from aiohttp import web

from harness.cli.remote_chat import _EndpointBot
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


def _plan(failed: list[str]) -> dict[str, Any]:
    value = {"plan": [], "answered_by": [], "requests_answered": [], "failed": failed}
    return {"type": "event", "name": "harness.plan", "value": value}


async def test_chat_endpoint_takes_this_turns_plan_not_a_late_one() -> None:
    """``chat --endpoint``: turn 1's plan, arriving after turn 1 was over (a slow bot, or a turn
    that hit ``--turn-timeout``), comes with turn 2's replies; ``/plan`` and the turn's failure
    are turn 2's own plan's, not turn 1's (which names a failed call)."""
    asked: list[dict[str, Any]] = []

    async def post(activity: dict[str, Any], body: dict[str, Any]) -> None:
        url = str(activity["serviceUrl"]).rstrip("/")
        path = f"/v3/conversations/{activity['conversation']['id']}/activities/{activity['id']}"
        reply = {**body, "replyToId": activity["id"], "from": {"id": "bot", "name": "helpdesk"}}
        async with aiohttp.ClientSession() as http:
            await http.post(url + path, json=reply)

    async def messages(request: web.Request) -> web.Response:
        activity = await request.json()
        asked.append(activity)
        await post(activity, {"type": "message", "text": f"got {activity['text']}"})
        if len(asked) == 2:
            await post(activity, _plan([]))
        return web.Response(status=200)

    app = web.Application()
    app.router.add_post("/api/messages", messages)
    async with (
        running(app, shutdown_timeout=0.5) as bot,
        EndpointTarget(f"{bot}/api/messages", quiet_period=0.1) as target,
    ):
        chat = _EndpointBot(target, "c")
        _, first = await chat.send("PTO?")
        await post(asked[0], _plan(["hr"]))  # turn 1's plan, after turn 1 was over
        _, second = await chat.send("W-2?")
    assert first is None
    assert second is not None and (second.turn, second.failed) == (2, ())


async def test_a_message_without_reply_to_between_turns_belongs_to_the_next_turn() -> None:
    """A message that names no ``replyToId`` (a proactive one) and arrives between two turns
    is given the turn it is returned with, as Direct Line gives it: not a late reply to the
    turn before."""
    asked: list[dict[str, Any]] = []

    async def messages(request: web.Request) -> web.Response:
        asked.append(await request.json())
        return web.Response(status=200)

    async def proactive(text: str) -> None:
        activity = asked[0]
        url = str(activity["serviceUrl"]).rstrip("/")
        path = f"/v3/conversations/{activity['conversation']['id']}/activities"
        body = {"type": "message", "text": text, "from": {"id": "bot", "name": "helpdesk"}}
        async with aiohttp.ClientSession() as http:
            await http.post(url + path, json=body)

    app = web.Application()
    app.router.add_post("/api/messages", messages)
    async with (
        running(app, shutdown_timeout=0.5) as bot,
        EndpointTarget(f"{bot}/api/messages", quiet_period=0.1) as target,
    ):
        await target.send_turn("c", "PTO and payday?")
        await proactive("Reminder: payday is Friday.")
        second = await target.send_turn("c", "and my W-2?")
    assert [(r.turn, r.activity["text"]) for r in second] == [(2, "Reminder: payday is Friday.")]
    assert [r.turn for r in target.replies["c"]] == [2]

"""The user's answer to a remote agent's question goes over HTTP as ``userAnswers``, beside a
``scopedRequest`` that stays the user's request. A host of this version acts on it; a host that
does not read the key (an older version of the SDK, or a third-party host) loses the answer, and
its agent asks again, with no error (docs/contract.md, "The user's answer to an agent's
question"). A garden-centre delivery desk, written for these tests."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import ClientSession, web

from harness import ChildAgent, ConnectedAgent, Mode, Parent
from harness.hosting import create_app
from tests.hosting._support import running

_ASK = "I'd like to order compost for delivery"
_QUESTION = "How many bags do you want?"


def _host(ordered: list[int]) -> Parent:
    def order_compost(bags: int) -> str:
        """Order bags of compost for delivery from the garden centre."""
        ordered.append(bags)
        return f"{bags} bags of compost are on their way."

    compost = ChildAgent(
        name="compost",
        mode=Mode.DIRECT,
        description="Orders compost for delivery from the garden centre.",
        tools=[order_compost],
    )
    return Parent(name="garden", model="rules", subagents=[compost])


def _front(url: str) -> Parent:
    compost = ConnectedAgent(
        name="compost",
        mode=Mode.DIRECT,
        url=url,
        description="Orders compost for delivery from the garden centre.",
        examples=["order compost for delivery"],
    )
    return Parent(name="front", model="rules", subagents=[compost])


def _forwarding(target: str, seen: list[dict[str, Any]], *, drop: str | None) -> web.Application:
    """A host in front of ``target`` that records each body and, with ``drop``, takes that key
    out before passing it on: how a host that does not read the key treats it."""

    async def forward(request: web.Request) -> web.Response:
        body = await request.json()
        seen.append(dict(body))
        if drop is not None:
            body.pop(drop, None)
        async with (
            ClientSession() as session,
            session.post(f"{target}{request.path}", json=body) as answer,
        ):
            return web.json_response(await answer.json(), status=answer.status)

    app = web.Application()
    app.router.add_post("/agents/{name}", forward)
    return app


async def _two_turns(ordered: list[int], *, drop: str | None) -> tuple[list[str], list[Any]]:
    seen: list[dict[str, Any]] = []
    async with (
        running(create_app(_host(ordered), expose=True)) as host,
        running(_forwarding(host, seen, drop=drop)) as front_door,
    ):
        front = _front(f"{front_door}/agents/compost")
        chat = front.conversation()
        said = []
        for message in (_ASK, "12"):
            turn = await chat.send(message)
            said.extend(m.text for m in turn.messages)
        await front.aclose()
    return said, seen


async def test_a_host_of_this_version_acts_on_the_answer() -> None:
    ordered: list[int] = []
    said, seen = await _two_turns(ordered, drop=None)
    assert ordered == [12]
    assert said[0] == _QUESTION
    assert [b["scopedRequest"] for b in seen] == [_ASK, _ASK]
    assert seen[1]["userAnswers"] == [{"request": _ASK, "question": _QUESTION, "value": "12"}]


async def test_a_host_that_ignores_user_answers_loses_the_answer_and_asks_again() -> None:
    ordered: list[int] = []
    said, seen = await _two_turns(ordered, drop="userAnswers")
    # The parent sent the answer; the host never read it: no order, the same question, no error.
    assert seen[1]["userAnswers"] == [{"request": _ASK, "question": _QUESTION, "value": "12"}]
    assert ordered == []
    assert said == [_QUESTION, _QUESTION]
    assert "12" not in json.dumps([b["scopedRequest"] for b in seen])


async def test_the_host_reads_a_missing_or_null_question_and_refuses_malformed_answers() -> None:
    ordered: list[int] = []
    async with (
        running(create_app(_host(ordered), expose=True)) as host,
        ClientSession() as session,
    ):
        url = f"{host}/agents/compost"
        statuses = []
        for question in ({}, {"question": None}, {"question": 3}):
            answer = {"request": _ASK, "value": "5", **question}
            body = {"scopedRequest": _ASK, "userAnswers": [answer]}
            async with session.post(url, json=body) as reply:
                statuses.append(reply.status)
        async with session.post(url, json={"scopedRequest": _ASK, "userAnswers": "5"}) as reply:
            statuses.append(reply.status)
    assert statuses == [200, 200, 400, 400]
    assert ordered == [5, 5]

"""A plain Bot Framework echo bot, written with botbuilder only (nothing of this SDK).

It is what a bot developer would write from Microsoft's echo sample: an ``ActivityHandler``, a
``CloudAdapter`` with ``ConfigurationBotFrameworkAuthentication``, ``POST /api/messages``. With
``times=2`` it deliberately sends every answer twice, the duplicate the simulator must catch. The
hosting benchmark uses it (``times=1``) as the baseline.
"""

from __future__ import annotations

from aiohttp import web
from botbuilder.core import ActivityHandler, MessageFactory, TurnContext
from botbuilder.integration.aiohttp import (
    CloudAdapter,
    ConfigurationBotFrameworkAuthentication,
)
from botbuilder.schema import ChannelAccount


class _Config:
    APP_ID = ""
    APP_PASSWORD = ""


class EchoBot(ActivityHandler):  # type: ignore[misc]
    def __init__(self, times: int) -> None:
        self.times = times

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        text = f"Thanks! I received your message: {turn_context.activity.text}"
        for _ in range(self.times):
            await turn_context.send_activity(MessageFactory.text(text))

    async def on_members_added_activity(
        self, members_added: list[ChannelAccount], turn_context: TurnContext
    ) -> None:
        return None


def echo_app(*, times: int = 1) -> web.Application:
    """The echo bot's web application; ``times`` copies of each answer."""
    adapter = CloudAdapter(ConfigurationBotFrameworkAuthentication(_Config()))
    bot = EchoBot(times)

    async def messages(request: web.Request) -> web.Response:
        response = await adapter.process(request, bot)
        return response if response is not None else web.Response(status=201)

    app = web.Application()
    app.router.add_post("/api/messages", messages)
    return app

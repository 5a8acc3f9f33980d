"""The Bot Framework SDK adapter: ``HarnessBot`` behind botbuilder's ``CloudAdapter``.

A thin layer: an ``ActivityHandler`` whose message handler loads the conversation's snapshot from
botbuilder's ``ConversationState`` (over ``MemoryStorage``, or a durable ``StateStore``), runs the
turn through the core, and sends each bot message as its own activity. The activity names its
sender in ``from.name`` and carries ``sender``, ``mode`` and ``request`` in ``channelData``.

Replies do not go through botbuilder's connector: it sends with blocking HTTP (``requests``, a
100-second read timeout) on a small shared thread pool, so a few hung channels froze every
conversation. They are posted with aiohttp instead (``ReplyClient``: async, a timeout per
request, ids URL-encoded), with the connector's own credentials for the token when an app id is
set. Connector clients are still cached per service URL and identity for that token.
"""

from __future__ import annotations

import copy
import logging
from collections import OrderedDict
from typing import Any

from aiohttp import web

from harness.exceptions import MissingExtraError
from harness.hosting._http import error_response
from harness.hosting._offloop import off_the_loop
from harness.hosting._outbound import ReplyClient, ServiceUrlPolicy
from harness.hosting.core import (
    PLAN_EVENT,
    SNAPSHOT_PROPERTY,
    AuthUnavailableError,
    HarnessBot,
    OutgoingMessage,
    describe_send_error,
    not_text,
    report_turn_error,
    wants_plan,
)
from harness.hosting.storage import StateStore

try:
    from botbuilder.core import (
        ActivityHandler,
        BotAdapter,
        ConversationState,
        MemoryStorage,
        Storage,
        TurnContext,
        serializer_helper,
    )
    from botbuilder.core.bot_state import CachedBotState
    from botbuilder.integration.aiohttp import (
        CloudAdapter,
        ConfigurationBotFrameworkAuthentication,
    )
    from botbuilder.schema import Activity, ActivityTypes, InputHints
    from botframework.connector.auth import (
        AuthenticateRequestResult,
        BotFrameworkAuthentication,
        ClaimsIdentity,
        ConnectorFactory,
    )
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("hosting on the Bot Framework SDK", extra="hosting") from exc

__all__ = ["BotbuilderHost", "StoreStorage"]

log = logging.getLogger("harness.hosting")

_CACHE_SIZE = 64

AUTH_TIMEOUT_S = 10.0
"""How long validating one token may take (botframework may fetch its OpenID metadata)."""


def _normal_scheme(header: str) -> str:
    """``bearer x`` as ``Bearer x``: the scheme is case-insensitive (RFC 9110), botframework's
    check is not."""
    scheme, space, rest = header.strip().partition(" ")
    return f"Bearer {rest.strip()}" if space and scheme.lower() == "bearer" else header


class StoreStorage(Storage):  # type: ignore[misc]
    """botbuilder's ``Storage`` over a durable ``StateStore`` (SQLite or JSON files)."""

    def __init__(self, store: StateStore) -> None:
        super().__init__()
        self.store = store

    async def read(self, keys: list[str]) -> dict[str, Any]:
        return await self.store.read(keys)

    async def write(self, changes: dict[str, Any]) -> None:
        plain: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            if not isinstance(value, dict):
                raise TypeError(f"state {key!r} must be a dict, not {type(value).__name__}")
            plain[key] = value
        await self.store.write(plain)

    async def delete(self, keys: list[str]) -> None:
        await self.store.delete(keys)


class _ValueCachedState(CachedBotState):  # type: ignore[misc]
    """botbuilder's cached state, with change detection by a copy of the value.

    botbuilder detects a change by flattening the whole state with jsonpickle and comparing the
    strings, twice per save: for a conversation that holds a 1 MB message, tens of milliseconds
    on the event loop per save, several saves per turn, every conversation waiting. Here the
    "hash" is a deep copy of the (JSON-like) state and a change is an unequal value: the same
    outcome for JSON data (what is stored here), found in time that does not grow with the text
    (strings are shared by the copy and compared by identity, then by length, then by memcmp).
    """

    def compute_hash(self, obj: object) -> Any:
        return copy.deepcopy(obj)


class _ConversationState(ConversationState):  # type: ignore[misc]
    """botbuilder's ``ConversationState``, its loaded state cached as ``_ValueCachedState``."""

    async def load(self, turn_context: TurnContext, force: bool = False) -> None:
        # As BotState.load, with the cached state's class the only change.
        cached = self.get_cached_state(turn_context)
        if force or not cached or not cached.state:
            key = self.get_storage_key(turn_context)
            items = await self._storage.read([key])
            turn_context.turn_state[self._context_service_key] = _ValueCachedState(items.get(key))


class _Settings:
    """The configuration object ``ConfigurationBotFrameworkAuthentication`` reads."""

    def __init__(self, app_id: str | None, app_password: str | None, tenant_id: str | None):
        self.APP_ID = app_id or ""
        self.APP_PASSWORD = app_password or ""
        if tenant_id:
            self.APP_TYPE = "SingleTenant"
            self.APP_TENANTID = tenant_id
        else:
            self.APP_TYPE = "MultiTenant"


def _identity_key(claims: ClaimsIdentity | None) -> tuple[str, str]:
    values = getattr(claims, "claims", None) or {}
    return str(values.get("aud", "")), str(values.get("appid") or values.get("azp") or "")


class _CachingConnectorFactory(ConnectorFactory):  # type: ignore[misc]
    def __init__(self, inner: ConnectorFactory, owner: _CachingAuthentication, key: Any) -> None:
        self._inner = inner
        self._owner = owner
        self._key = key

    async def create(self, service_url: str, audience: str | None = None) -> Any:
        cache = self._owner.connectors
        key = (self._key, service_url, audience)
        client = cache.get(key)
        if client is None:
            client = await self._inner.create(service_url, audience)
            cache[key] = client
            while len(cache) > _CACHE_SIZE:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return client


class _CachingAuthentication(BotFrameworkAuthentication):  # type: ignore[misc]
    """Delegates to the configured authentication; reuses connector and token clients."""

    def __init__(self, inner: BotFrameworkAuthentication) -> None:
        self.inner = inner
        self.connectors: OrderedDict[Any, Any] = OrderedDict()
        self._token_clients: dict[Any, Any] = {}

    async def authenticate_request(
        self, activity: Activity, auth_header: str
    ) -> AuthenticateRequestResult:
        try:
            if auth_header:  # botframework fetches its metadata with blocking `requests`
                result = await off_the_loop(
                    lambda: self.inner.authenticate_request(activity, auth_header),
                    AUTH_TIMEOUT_S,
                    name="harness-auth",
                )
            else:
                result = await self.inner.authenticate_request(activity, auth_header)
        except PermissionError:
            raise
        except TimeoutError as exc:
            log.warning(
                "cannot validate a token: the Bot Framework's OpenID metadata did not answer "
                "within %gs",
                AUTH_TIMEOUT_S,
            )
            raise AuthUnavailableError("the OpenID metadata did not answer") from exc
        except OSError as exc:  # requests' errors are OSErrors: the metadata is unreachable
            log.warning(
                "cannot validate a token: the Bot Framework's OpenID metadata is unreachable (%s)",
                describe_send_error(exc),
            )
            raise AuthUnavailableError(str(exc)) from exc
        except Exception as exc:  # botframework raises KeyError, ValueError... for bad tokens
            log.warning("refused a request: its token could not be validated (%r)", exc)
            raise PermissionError("the token could not be validated") from exc
        if result.connector_factory is not None:
            result.connector_factory = _CachingConnectorFactory(
                result.connector_factory, self, _identity_key(result.claims_identity)
            )
        return result

    async def authenticate_streaming_request(
        self, auth_header: str, channel_id_header: str
    ) -> AuthenticateRequestResult:
        return await self.inner.authenticate_streaming_request(auth_header, channel_id_header)

    def create_connector_factory(self, claims_identity: ClaimsIdentity) -> ConnectorFactory:
        return _CachingConnectorFactory(
            self.inner.create_connector_factory(claims_identity),
            self,
            _identity_key(claims_identity),
        )

    async def create_user_token_client(self, claims_identity: ClaimsIdentity) -> Any:
        key = _identity_key(claims_identity)
        client = self._token_clients.get(key)
        if client is None:
            client = await self.inner.create_user_token_client(claims_identity)
            self._token_clients[key] = client
        return client

    def create_bot_framework_client(self) -> Any:
        return self.inner.create_bot_framework_client()

    def get_originating_audience(self) -> str:
        return str(self.inner.get_originating_audience())

    async def authenticate_channel_request(self, auth_header: str) -> ClaimsIdentity:
        return await self.inner.authenticate_channel_request(auth_header)

    async def aclose(self) -> None:
        clients = list(self.connectors.values())
        self.connectors.clear()
        self._token_clients.clear()
        for client in clients:
            try:
                await client.__aexit__(None, None, None)
            except Exception:  # closing is best effort
                log.debug("closing a connector client failed", exc_info=True)


class _Handler(ActivityHandler):  # type: ignore[misc]
    def __init__(self, host: BotbuilderHost) -> None:
        self._host = host

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        await self._host.on_message(turn_context)


class BotbuilderHost:
    """Serves a ``HarnessBot`` on botbuilder's ``CloudAdapter``.

    Args:
        bot: the bot core.
        store: durable state; None keeps conversations in botbuilder's ``MemoryStorage``.
        app_id: the Microsoft App ID; with it, requests without a valid token are refused.
        app_password: the app's password (client secret).
        tenant_id: for a single-tenant app registration.
    """

    name = "botbuilder"

    def __init__(
        self,
        bot: HarnessBot,
        *,
        store: StateStore | None = None,
        app_id: str | None = None,
        app_password: str | None = None,
        tenant_id: str | None = None,
    ) -> None:
        self.bot = bot
        self.storage: Storage = MemoryStorage() if store is None else StoreStorage(store)
        self.conversation_state = _ConversationState(self.storage)
        self._snapshot = self.conversation_state.create_property(SNAPSHOT_PROPERTY)
        self._auth = _CachingAuthentication(
            ConfigurationBotFrameworkAuthentication(_Settings(app_id, app_password, tenant_id))
        )
        self.adapter = CloudAdapter(self._auth)
        self.adapter.on_turn_error = self._on_turn_error
        self.handler = _Handler(self)
        self.auth_enabled = bool(app_id)
        self.replies = ReplyClient(timeout=bot.reply_timeout)
        self.policy = ServiceUrlPolicy(app_id=app_id)
        """Where replies may go (``create_app`` sets the configured allow-list)."""

    async def process(self, request: web.Request, body: dict[str, Any]) -> web.StreamResponse:
        """Run one validated activity through the adapter and answer the HTTP request."""
        try:
            activity = Activity().deserialize(body)
        except Exception as exc:  # msrest raises several types for a malformed activity
            return error_response(400, "BadArgument", f"the activity could not be read: {exc}")
        auth_header = _normal_scheme(request.headers.get("Authorization", ""))
        try:
            invoke = await self.adapter.process_activity(
                auth_header, activity, self.handler.on_turn
            )
        except PermissionError:
            return error_response(401, "Unauthorized", "the request is not authorized")
        if invoke is not None:
            return web.json_response(serializer_helper(invoke.body), status=invoke.status)
        return web.Response(status=201)

    async def on_message(self, turn_context: TurnContext) -> None:
        """The message handler: one user message through the core."""
        activity = turn_context.activity
        state = self.conversation_state

        async def load() -> Any:
            await state.load(turn_context, force=True)
            return await self._snapshot.get(turn_context)

        async def save(snapshot: str) -> None:
            await self._snapshot.set(turn_context, snapshot)
            await state.save_changes(turn_context)

        async def send(message: OutgoingMessage) -> None:
            await self._post(turn_context, message.text, message.channel_data, message.sender)

        # The reply token first: without one nothing can be sent, so the turn is not run (503).
        await self._preflight_token(turn_context)

        async def send_plan(value: dict[str, Any]) -> None:
            await self._post(turn_context, "", {}, self.bot.name, event=value)

        asked = self.bot.send_plans or wants_plan(activity.channel_data)
        await self.bot.handle_message(
            key=state.get_storage_key(turn_context),
            conversation_id=activity.conversation.id,
            text=activity.text or "",
            load=load,
            save=save,
            send=send,
            activity_id=activity.id,
            send_plan=send_plan if asked else None,
            instead_of_text=not_text(attachments=activity.attachments, value=activity.value),
        )

    async def _token(self, turn_context: TurnContext) -> str | None:
        if not self.auth_enabled:
            return None
        client = turn_context.turn_state.get(BotAdapter.BOT_CONNECTOR_CLIENT_KEY)
        credentials = getattr(getattr(client, "config", None), "credentials", None)
        if credentials is None or not getattr(credentials, "microsoft_app_id", None):
            return None

        # MSAL caches the token; the first call goes to the network (blocking, no timeout), so on
        # a thread of its own: a hung sign-in endpoint never holds the shared executor's threads.
        async def get() -> str:
            return str(credentials.get_access_token())

        return await off_the_loop(get, self.bot.reply_timeout, name="harness-msal")

    async def _preflight_token(self, turn_context: TurnContext) -> None:
        try:
            await self._token(turn_context)
        except Exception as exc:  # msal raises ValueError, requests' errors, TimeoutError...
            log.warning(
                "cannot get a token to reply with (%s); answering 503", describe_send_error(exc)
            )
            raise AuthUnavailableError("no token to reply with") from exc

    async def _post(
        self,
        turn_context: TurnContext,
        text: str,
        channel_data: dict[str, Any],
        sender: str,
        *,
        event: dict[str, Any] | None = None,
    ) -> None:
        """Post a message to the channel, or with ``event`` the ``harness.plan`` event."""
        incoming = turn_context.activity
        if not self.policy.allows(incoming.service_url):
            raise PermissionError(f"replies may not go to {incoming.service_url!r}")
        bot = incoming.recipient
        user = incoming.from_property
        content: dict[str, Any] = (
            {"type": ActivityTypes.event, "name": PLAN_EVENT, "value": event}
            if event is not None
            else {
                "type": ActivityTypes.message,
                "text": text,
                "channelData": channel_data,
                "inputHint": InputHints.accepting_input,
            }
        )
        activity = {
            **content,
            "from": {"id": getattr(bot, "id", None) or "bot", "name": sender, "role": "bot"},
            "recipient": user.serialize() if user is not None else None,
            "conversation": incoming.conversation.serialize(),
            "channelId": incoming.channel_id,
            "serviceUrl": incoming.service_url,
            "replyToId": incoming.id,
            "locale": incoming.locale,
        }
        await self.replies.reply(
            service_url=incoming.service_url,
            conversation_id=incoming.conversation.id,
            reply_to_id=incoming.id,
            activity={k: v for k, v in activity.items() if v is not None},
            token=await self._token(turn_context),
        )

    async def _on_turn_error(self, turn_context: TurnContext, error: Exception) -> None:
        async def send(text: str, channel_data: dict[str, Any]) -> None:
            await self._post(turn_context, text, channel_data, self.bot.name)

        conversation_id = getattr(turn_context.activity.conversation, "id", "?")
        await report_turn_error(conversation_id, error, bot_name=self.bot.name, send=send)

    async def aclose(self) -> None:
        """Close the reply client and the cached connector clients."""
        await self.replies.aclose()
        await self._auth.aclose()

"""The Microsoft 365 Agents SDK adapter: ``HarnessBot`` as an ``AgentApplication``.

The Agents SDK is the maintained successor of the archived Bot Framework Python SDK. This adapter is
as thin as the botbuilder one: a ``message`` route that loads the conversation's snapshot from the
SDK's ``ConversationState`` (over its ``MemoryStorage`` or a durable ``StateStore``), runs the turn
through the core and sends each bot message as its own attributed activity.

With an app id configured, ``/api/messages`` is guarded by the SDK's JWT validation; replies then
need tokens from the SDK's MSAL package (``microsoft-agents-authentication-msal``), loaded when the
first token is needed.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, cast

from aiohttp import web

from harness.exceptions import MissingExtraError
from harness.hosting._http import error_response
from harness.hosting._outbound import ServiceUrlPolicy
from harness.hosting.core import (
    PLAN_EVENT,
    SNAPSHOT_PROPERTY,
    HarnessBot,
    OutgoingMessage,
    report_turn_error,
    wants_plan,
)
from harness.hosting.storage import StateStore

try:
    from jwt import PyJWKClientConnectionError, PyJWTError
    from microsoft_agents.activity import Activity, ActivityTypes, ChannelAccount
    from microsoft_agents.hosting.aiohttp import CloudAdapter, start_agent_process
    from microsoft_agents.hosting.core import (
        AccessTokenProviderBase,
        AgentApplication,
        AgentAuthConfiguration,
        AnonymousTokenProvider,
        ApplicationOptions,
        ConnectionManager,
        ConversationState,
        JwtTokenValidator,
        MemoryStorage,
        Storage,
        StoreItem,
        TurnContext,
        TurnState,
    )
    from pydantic import ValidationError
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("hosting on the Microsoft 365 Agents SDK", extra="agents-sdk") from exc

__all__ = ["AgentsSdkHost", "AgentsSdkStorage"]

log = logging.getLogger("harness.hosting")


class AgentsSdkStorage(Storage):
    """The Agents SDK's ``Storage`` over a durable ``StateStore`` (SQLite or JSON files)."""

    def __init__(self, store: StateStore) -> None:
        self.store = store

    async def read(self, keys: list[str], *, target_cls: Any, **kwargs: Any) -> dict[str, Any]:
        if not keys:
            raise ValueError("Storage.read(): keys are required")
        found = await self.store.read(keys)
        return {key: target_cls.from_json_to_store_item(value) for key, value in found.items()}

    async def write(self, changes: dict[str, Any]) -> None:
        if not changes:
            raise ValueError("Storage.write(): changes are required")
        plain: dict[str, dict[str, Any]] = {}
        for key, item in changes.items():
            value = item.store_item_to_json() if isinstance(item, StoreItem) else item
            if not isinstance(value, dict):
                raise TypeError(f"state {key!r} must serialise to a dict")
            plain[key] = value
        await self.store.write(plain)

    async def delete(self, keys: list[str]) -> None:
        await self.store.delete(keys)


class _DeferredMsalProvider(AccessTokenProviderBase):
    """The SDK's MSAL token provider, imported when the first token is needed."""

    def __init__(self, config: AgentAuthConfiguration) -> None:
        self._config = config
        self._inner: Any = None

    def _provider(self) -> Any:
        if self._inner is None:
            try:
                from microsoft_agents.authentication.msal import MsalAuth
            except ImportError as exc:
                raise MissingExtraError(
                    "replying with an app id on the Agents SDK adapter "
                    "(install microsoft-agents-authentication-msal)",
                    extra="agents-sdk",
                ) from exc
            self._inner = MsalAuth(self._config)
        return self._inner

    @property
    def configuration(self) -> AgentAuthConfiguration:
        return self._config

    async def get_access_token(
        self, resource_url: str, scopes: list[str], force_refresh: bool = False
    ) -> str:
        return str(await self._provider().get_access_token(resource_url, scopes, force_refresh))

    def get_token_credential(self) -> Any:
        return self._provider().get_token_credential()

    async def acquire_token_on_behalf_of(self, scopes: list[str], user_assertion: str) -> str:
        return str(await self._provider().acquire_token_on_behalf_of(scopes, user_assertion))

    async def get_agentic_application_token(self, tenant_id: str, instance_id: str) -> Any:
        return await self._provider().get_agentic_application_token(tenant_id, instance_id)

    async def get_agentic_instance_token(self, tenant_id: str, instance_id: str) -> Any:
        return await self._provider().get_agentic_instance_token(tenant_id, instance_id)

    async def get_agentic_user_token(
        self, tenant_id: str, instance_id: str, user_id: str, scopes: list[str]
    ) -> Any:
        return await self._provider().get_agentic_user_token(
            tenant_id, instance_id, user_id, scopes
        )


class _AnonymousNotice(logging.Filter):
    """Drops the SDK's per-turn warning that no app id is set: without one, that is the point."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "App ID is not provided" not in record.getMessage()


_ANONYMOUS_NOTICE = _AnonymousNotice()
_TOKEN_CLIENT_LOGGER = "microsoft_agents.hosting.core.connector.client.user_token_client"

MULTI_TENANT_AUTHORITY = "botframework.com"
"""The tenant a multi-tenant Bot Framework app gets its tokens from (as botbuilder does)."""


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/").lower() == b.rstrip("/").lower()


async def _attribute(
    context: TurnContext,
    activities: list[Activity],
    next_send: Callable[[], Awaitable[Any]],
) -> Any:
    # The SDK stamps the agent's account on every reply; name the component that spoke instead.
    for activity in activities:
        data = activity.channel_data
        if isinstance(data, dict) and isinstance(data.get("sender"), str):
            account = activity.from_property
            activity.from_property = ChannelAccount(
                id=getattr(account, "id", None) or "bot", name=data["sender"], role="bot"
            )
    return await next_send()


class AgentsSdkHost:
    """Serves a ``HarnessBot`` as an Agents SDK ``AgentApplication`` on its aiohttp ``CloudAdapter``.

    Args:
        bot: the bot core.
        store: durable state; None keeps conversations in the SDK's ``MemoryStorage``.
        app_id: the app (client) id; with it, requests without a valid token are refused.
        app_password: the client secret, used for the tokens replies need.
        tenant_id: the app's tenant.
    """

    name = "agents-sdk"

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
        self.storage: Storage = MemoryStorage() if store is None else AgentsSdkStorage(store)
        self.auth_enabled = bool(app_id)
        self.policy = ServiceUrlPolicy(app_id=app_id)
        """Where replies may go (``create_app`` sets the configured allow-list)."""
        self.auth_configuration = AgentAuthConfiguration(
            client_id=app_id or None,
            client_secret=app_password or None,
            # A multi-tenant app has no tenant of its own: its tokens come from botframework.com.
            tenant_id=tenant_id or (MULTI_TENANT_AUTHORITY if app_id else None),
            anonymous_allowed=not app_id,
        )
        provider: Callable[[AgentAuthConfiguration], AccessTokenProviderBase] = (
            _DeferredMsalProvider if app_id else lambda _config: AnonymousTokenProvider()
        )
        connections = ConnectionManager(
            provider, connections_configurations={"SERVICE_CONNECTION": self.auth_configuration}
        )
        self.adapter = CloudAdapter(connection_manager=connections)
        if not app_id:
            token_log = logging.getLogger(_TOKEN_CLIENT_LOGGER)
            if _ANONYMOUS_NOTICE not in token_log.filters:
                token_log.addFilter(_ANONYMOUS_NOTICE)
        self.application = AgentApplication[TurnState](
            ApplicationOptions(
                storage=self.storage,
                start_typing_timer=False,
                turn_state_factory=TurnState,
            ),
            connection_manager=connections,
        )
        self.application.activity(ActivityTypes.message)(self.on_message)
        self.application.error(self._on_error)

    def install(self, app: web.Application) -> None:
        """Give the SDK's JWT check its configuration (it reads it from the application)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", web.NotAppKeyWarning)
            app["agent_configuration"] = self.auth_configuration

    async def process(self, request: web.Request, body: dict[str, Any]) -> web.StreamResponse:
        """Run one validated activity through the SDK and answer the HTTP request."""
        try:
            Activity.model_validate(body)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "activity"
            return error_response(
                400, "BadArgument", f"the activity could not be read: {where}: {first['msg']}"
            )
        if self.auth_enabled:
            refusal = await self._authenticate(request, body)
            if refusal is not None:
                return refusal
        return await self._process(request)

    async def _authenticate(
        self, request: web.Request, body: dict[str, Any]
    ) -> web.StreamResponse | None:
        """Validate the bearer token as the SDK's JWT middleware does, plus what it leaves out.

        An unreachable signing-key endpoint is a 503 (logged in one line), not a 401, and the
        token's ``serviceurl`` claim must name the activity's ``serviceUrl`` (as botbuilder checks).
        """
        parts = request.headers.get("Authorization", "").split()
        if len(parts) != 2 or parts[0].lower() != "bearer":
            return error_response(401, "Unauthorized", "the request is not authorized")
        try:
            identity = await JwtTokenValidator(self.auth_configuration).validate_token(parts[1])
        except PyJWKClientConnectionError as exc:
            log.warning("cannot validate a token: the signing keys are unreachable (%s)", exc)
            return error_response(
                503, "ServiceUnavailable", "tokens cannot be validated right now; try again later"
            )
        except (PyJWTError, ValueError, KeyError, TypeError) as exc:
            log.warning(
                "refused a request: its token could not be validated (%s)", type(exc).__name__
            )
            return error_response(401, "Unauthorized", "the request is not authorized")
        claim = identity.get_claim_value("serviceurl")
        if claim is not None and not _same_url(str(claim), str(body.get("serviceUrl", ""))):
            log.warning("refused a request: its token is for another serviceUrl")
            return error_response(401, "Unauthorized", "the token is for another serviceUrl")
        with warnings.catch_warnings():  # the SDK reads this plain string key
            warnings.simplefilter("ignore", web.NotAppKeyWarning)
            request["claims_identity"] = identity
        return None

    async def _process(self, request: web.Request) -> web.StreamResponse:
        response = await start_agent_process(request, self.application, self.adapter)
        return response if response is not None else web.Response(status=202)

    async def on_message(self, context: TurnContext, _state: TurnState) -> None:
        """The message route: one user message through the core."""
        activity = context.activity
        context.on_send_activities(_attribute)
        state = ConversationState(self.storage)

        async def load() -> Any:
            await state.load(context, force=True)
            return state.get_value(SNAPSHOT_PROPERTY)

        async def save(snapshot: str) -> None:
            state.set_value(SNAPSHOT_PROPERTY, cast(Any, snapshot))
            await state.save(context)

        async def send(message: OutgoingMessage) -> None:
            if not self.policy.allows(activity.service_url or ""):
                raise PermissionError(f"replies may not go to {activity.service_url!r}")
            await context.send_activity(
                Activity(
                    type=ActivityTypes.message,
                    text=message.text,
                    channel_data=message.channel_data,
                    input_hint="acceptingInput",
                )
            )

        async def send_plan(value: dict[str, Any]) -> None:
            if not self.policy.allows(activity.service_url or ""):
                raise PermissionError(f"replies may not go to {activity.service_url!r}")
            await context.send_activity(
                Activity(type=ActivityTypes.event, name=PLAN_EVENT, value=value)
            )

        asked = self.bot.send_plans or wants_plan(activity.channel_data)
        await self.bot.handle_message(
            key=state.get_storage_key(context),
            conversation_id=activity.conversation.id,
            text=activity.text or "",
            load=load,
            save=save,
            send=send,
            activity_id=activity.id,
            send_plan=send_plan if asked else None,
        )

    async def _on_error(self, context: TurnContext, error: Exception) -> None:
        async def send(text: str, channel_data: dict[str, Any]) -> None:
            await context.send_activity(
                Activity(type=ActivityTypes.message, text=text, channel_data=channel_data)
            )

        conversation_id = getattr(context.activity.conversation, "id", "?")
        await report_turn_error(conversation_id, error, bot_name=self.bot.name, send=send)

    async def aclose(self) -> None:
        """Nothing to release: the SDK opens its HTTP clients per turn."""

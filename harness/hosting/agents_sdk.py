"""The Microsoft 365 Agents SDK adapter: ``HarnessBot`` as an ``AgentApplication``.

The Agents SDK is the maintained successor of the archived Bot Framework Python SDK. This adapter is
as thin as the botbuilder one: a ``message`` route that loads the conversation's snapshot from the
SDK's ``ConversationState`` (over its ``MemoryStorage`` or a durable ``StateStore``), runs the turn
through the core and sends each bot message as its own attributed activity.

With an app id configured, ``/api/messages`` is guarded by the SDK's JWT validation, with the checks
botbuilder makes on a channel's token: the signature, the audience (the app id), the issuer (the
Bot Framework's, or the app's tenant's: the SDK's ``VALIDATE_ISSUER``, checked on the unverified
token first so a foreign issuer is refused before any key is fetched), the tenant binding, and
the ``serviceurl`` claim. Replies then need tokens from the SDK's MSAL package
(``microsoft-agents-authentication-msal``): msal discovers its authority and asks for tokens with
blocking ``requests`` calls and no timeout, so every token call runs off the event loop with a
time limit (``TOKEN_TIMEOUT_S``), one at a time per scope, its token cached until shortly before
it expires. When no token can be had the request is answered 503 with ``Retry-After`` before the
turn runs.

Replies are posted with ``ReplyClient`` (as in the botbuilder adapter), not the SDK's connector:
redirects are never followed, and a ``serviceUrl`` with a path or a query works.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import time
import warnings
from collections.abc import Callable, MutableMapping
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

from aiohttp import web

from harness.exceptions import MissingExtraError
from harness.hosting._errors import AuthUnavailableError
from harness.hosting._http import error_response
from harness.hosting._offloop import off_the_loop
from harness.hosting._outbound import ReplyClient, ServiceUrlPolicy
from harness.hosting.core import (
    PLAN_EVENT,
    SNAPSHOT_PROPERTY,
    HarnessBot,
    OutgoingMessage,
    describe_send_error,
    not_text,
    report_turn_error,
    wants_plan,
)
from harness.hosting.storage import StateStore

try:
    import jwt
    from jwt import PyJWKClientConnectionError, PyJWTError
    from microsoft_agents.activity import Activity, ActivityTypes
    from microsoft_agents.hosting.aiohttp import CloudAdapter
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
        TempState,
        TurnContext,
        TurnState,
        UserState,
    )
    from microsoft_agents.hosting.core.authorization._entra_issuers import (
        well_known_first_party_issuers,
    )
    from microsoft_agents.hosting.core.rest_channel_service_client_factory import (
        RestChannelServiceClientFactory,
    )
    from microsoft_agents.hosting.core.state.agent_state import CachedAgentState
    from pydantic import ValidationError
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError("hosting on the Microsoft 365 Agents SDK", extra="agents-sdk") from exc

__all__ = ["AgentsSdkHost", "AgentsSdkStorage"]

log = logging.getLogger("harness.hosting")

TOKEN_TIMEOUT_S = 10.0
"""How long getting one token (msal's discovery included) may take before identity counts as
unavailable."""

TOKEN_EARLY_S = 300.0
"""A cached token is renewed this many seconds before it expires."""

REPLY_TOKEN_KEY = "harness.reply_token"
"""Where the turn's reply token waits in the turn state (None without an app id)."""


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


class _ValueCachedState(CachedAgentState):
    """The SDK's cached state, with change detection by a copy of the value.

    The SDK detects a change by hashing ``str()`` of the whole state, twice per save: for a
    conversation that holds a 1 MB message, tens of milliseconds on the event loop per save,
    several saves per turn, every conversation waiting. Here the "hash" is a deep copy of the
    state's JSON form and a change is an unequal value: the same outcome for JSON data (what is
    stored here), found in time that does not grow with the text (strings are shared by the copy
    and compared by identity, then by length, then by memcmp).
    """

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        super().__init__(state)
        self.hash: Any = self.compute_hash()

    def compute_hash(self) -> Any:
        return copy.deepcopy(self.store_item_to_json())

    @staticmethod
    def from_json_to_store_item(json_data: MutableMapping[str, Any]) -> _ValueCachedState:
        return _ValueCachedState(cast(dict[str, Any], json_data))


class _ConversationState(ConversationState):
    """The SDK's ``ConversationState``, its loaded state cached as ``_ValueCachedState``."""

    async def load(self, turn_context: TurnContext, force: bool = False) -> None:
        # As AgentState.load, with the cached state's class the only change.
        key = self.get_storage_key(turn_context)
        if self._should_load(turn_context, force):
            items = await self._storage.read([key], target_cls=_ValueCachedState)
            value = items.get(key) or _ValueCachedState()
            self._cached_state = value
            turn_context.turn_state[self._context_service_key] = value


class _TurnState(TurnState):
    """The application's turn state, its conversation scope a ``_ConversationState``: the SDK
    loads and saves the conversation around every turn too, hashing the whole state each time."""

    async def load(self, context: TurnContext, storage: Storage) -> _TurnState:
        # As TurnState.load, with the conversation scope's class the only change.
        conversation, user = _ConversationState(storage), UserState(storage)
        temp = TempState()  # type: ignore[abstract, no-untyped-call]  # as the SDK builds it
        await conversation.load(context)
        await user.load(context)
        await temp.load(context)
        self._scopes[ConversationState.__name__] = conversation
        self._scopes[UserState.__name__] = user
        self._scopes[TempState.SCOPE_NAME] = temp
        return self


class _ParsedRequest:
    """An aiohttp request as the SDK's ``HttpRequestProtocol``, with the body already parsed (and
    checked) by the server: the SDK would parse it again on the event loop."""

    def __init__(self, request: web.Request, body: dict[str, Any]) -> None:
        self._request = request
        self._body = body

    @property
    def method(self) -> str:
        return self._request.method

    @property
    def headers(self) -> Any:
        return self._request.headers

    async def json(self) -> dict[str, Any]:
        return self._body

    def get_claims_identity(self) -> Any:
        return self._request.get("claims_identity")

    def get_path_param(self, name: str) -> str:
        return self._request.match_info[name]


class _CloudAdapter(CloudAdapter):
    """The SDK's aiohttp ``CloudAdapter``, handed the activity the server parsed already."""

    async def process_parsed(
        self, request: web.Request, body: dict[str, Any], agent: Any
    ) -> web.Response:
        return self._to_aiohttp_response(
            await self.process_request(_ParsedRequest(request, body), agent)
        )


class _DeferredMsalProvider(AccessTokenProviderBase):
    """The SDK's MSAL token provider, imported when the first token is needed."""

    def __init__(self, config: AgentAuthConfiguration) -> None:
        self._config = config
        self._inner: Any = None
        self._tokens: dict[tuple[str, tuple[str, ...]], tuple[str, float]] = {}
        self._fetching: dict[tuple[str, tuple[str, ...]], asyncio.Future[str]] = {}

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
        """A token for ``scopes``: cached, else fetched off the event loop within
        ``TOKEN_TIMEOUT_S``; one fetch at a time per scope, shared by whoever waits for it.

        Raises:
            AuthUnavailableError: msal could not get a token (unreachable, silent or refusing).
        """
        key = (resource_url, tuple(scopes))
        cached = self._tokens.get(key)
        if cached is not None and not force_refresh and time.time() < cached[1]:
            return cached[0]
        fetch = self._fetching.get(key)
        if fetch is None:
            fetch = asyncio.ensure_future(self._fetch(key, force_refresh))
            self._fetching[key] = fetch
            fetch.add_done_callback(lambda _done: self._fetching.pop(key, None))
        return await asyncio.shield(fetch)

    async def _fetch(self, key: tuple[str, tuple[str, ...]], force_refresh: bool) -> str:
        resource_url, scopes = key
        provider = self._provider()

        async def get() -> tuple[str, float]:
            detailed = getattr(provider, "_get_access_token", None)
            if detailed is None:  # no expiry known: msal's own cache still serves repeats
                token = await provider.get_access_token(resource_url, list(scopes), force_refresh)
                return str(token), 0.0
            access = await detailed(resource_url, list(scopes), force_refresh)
            return str(access.token), float(access.expires_on) - TOKEN_EARLY_S

        try:
            token, fresh_until = await off_the_loop(get, TOKEN_TIMEOUT_S, name="harness-msal")
        except TimeoutError as exc:
            log.warning(
                "cannot get a token: the sign-in endpoint did not answer within %gs",
                TOKEN_TIMEOUT_S,
            )
            raise AuthUnavailableError("the sign-in endpoint did not answer") from exc
        except Exception as exc:  # msal raises ValueError, requests' errors...
            log.warning("cannot get a token (%s)", describe_send_error(exc))
            raise AuthUnavailableError("no token could be had from the sign-in endpoint") from exc
        self._tokens[key] = (token, fresh_until)
        return token

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


class _ValidationTraceback(logging.Filter):
    """Drops the SDK's ERROR-with-traceback for an activity that fails validation: the adapter
    answers it 400 and logs one line itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Validation error for Activity")


_VALIDATION_TRACEBACK = _ValidationTraceback()
_ACTIVITY_LOGGER = "microsoft_agents.activity.activity"
_TOKEN_CLIENT_LOGGER = "microsoft_agents.hosting.core.connector.client.user_token_client"

MULTI_TENANT_AUTHORITY = "botframework.com"
"""The tenant a multi-tenant Bot Framework app gets its tokens from (as botbuilder does)."""


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/").lower() == b.rstrip("/").lower()


def _connector_base(url: str) -> str:
    """The ``serviceUrl`` as the SDK's connector wants its base: a path ending in ``/``, no
    query (aiohttp refuses anything else, which made such a ``serviceUrl`` a 500)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc, parts.path.rstrip("/") + "/", "", ""))


class _ClientFactory(RestChannelServiceClientFactory):
    """The SDK's client factory, plus: the reply token is fetched first (its failure is a 503
    before the turn runs) and kept for the turn; the connector gets a base URL it accepts."""

    async def create_connector_client(
        self,
        context: TurnContext | None,
        claims_identity: Any,
        service_url: str,
        audience: str,
        scopes: list[str] | None = None,
        use_anonymous: bool = False,
    ) -> Any:
        if context is not None and not use_anonymous:
            provider = self._connection_manager.get_token_provider(claims_identity, service_url)
            context.turn_state[REPLY_TOKEN_KEY] = await provider.get_access_token(
                audience, scopes or claims_identity.get_token_scope()
            )
        return await super().create_connector_client(
            context,
            claims_identity,
            _connector_base(service_url),
            audience,
            scopes,
            use_anonymous,
        )


def _account(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    return cast(dict[str, Any], value.model_dump(mode="json", by_alias=True, exclude_none=True))


def _accepted_issuers(config: AgentAuthConfiguration) -> frozenset[str]:
    """The issuers the SDK accepts with ``VALIDATE_ISSUER`` on (lower case): the connection's
    (the Bot Framework's and its tenant's) and Microsoft's first-party ones, as botbuilder."""
    return frozenset(
        issuer.lower()
        for issuer in (*config.ISSUERS, *well_known_first_party_issuers(config.AUTHORITY))
    )


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
            validate_issuer=bool(app_id),
        )
        provider: Callable[[AgentAuthConfiguration], AccessTokenProviderBase] = (
            _DeferredMsalProvider if app_id else lambda _config: AnonymousTokenProvider()
        )
        connections = ConnectionManager(
            provider, connections_configurations={"SERVICE_CONNECTION": self.auth_configuration}
        )
        self.adapter = _CloudAdapter(
            connection_manager=connections,
            channel_service_client_factory=_ClientFactory(connections),
        )
        self.adapter.on_turn_error = self._on_adapter_error
        self.replies = ReplyClient(timeout=bot.reply_timeout)
        self._issuers = _accepted_issuers(self.auth_configuration)
        if not app_id:
            token_log = logging.getLogger(_TOKEN_CLIENT_LOGGER)
            if _ANONYMOUS_NOTICE not in token_log.filters:
                token_log.addFilter(_ANONYMOUS_NOTICE)
        activity_log = logging.getLogger(_ACTIVITY_LOGGER)
        if _VALIDATION_TRACEBACK not in activity_log.filters:
            activity_log.addFilter(_VALIDATION_TRACEBACK)
        self.application = AgentApplication[TurnState](
            ApplicationOptions(
                storage=self.storage,
                start_typing_timer=False,
                turn_state_factory=_TurnState,
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
            message = f"the activity could not be read: {where}: {first['msg']}"
            log.info("refused an activity (400): %s", message)
            return error_response(400, "BadArgument", message)
        if self.auth_enabled:
            refusal = await self._authenticate(request, body)
            if refusal is not None:
                return refusal
        return await self._process(request, body)

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
        problem = self._issuer_problem(parts[1])  # so a foreign token never makes us fetch keys
        if problem is not None:
            log.warning("refused a request: %s", problem)
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

    def _issuer_problem(self, token: str) -> str | None:
        """What is wrong with the bearer token before its signature is checked, for the log:
        it is no JWT, it names no issuer, or its issuer is not one this bot trusts (named: an
        issuer is no secret); None when its issuer is trusted. The token itself is never
        logged."""
        try:
            claims = jwt.decode(token, options={"verify_signature": False})
        except PyJWTError as exc:  # "Not enough segments", "Invalid header padding", ...
            return f"its bearer token is not a JWT ({exc})"
        issuer = claims.get("iss")
        if issuer is None or issuer == "":
            return "its token names no issuer (no 'iss' claim)"
        if not isinstance(issuer, str):
            return "its token's issuer ('iss' claim) is not a string"
        if issuer.lower() not in self._issuers:
            # cut, but not made one line: a stray space or line break may be why it is refused
            shown = issuer if len(issuer) <= 200 else issuer[:199] + "…"
            return f"its token is from an issuer this bot does not trust ({shown!r})"
        return None

    async def _process(self, request: web.Request, body: dict[str, Any]) -> web.StreamResponse:
        response = await self.adapter.process_parsed(request, body, self.application)
        return response if response is not None else web.Response(status=202)

    async def on_message(self, context: TurnContext, _state: TurnState) -> None:
        """The message route: one user message through the core."""
        activity = context.activity
        state = _ConversationState(self.storage)

        async def load() -> Any:
            await state.load(context, force=True)
            return state.get_value(SNAPSHOT_PROPERTY)

        async def save(snapshot: str) -> None:
            state.set_value(SNAPSHOT_PROPERTY, cast(Any, snapshot))
            await state.save(context)

        async def send(message: OutgoingMessage) -> None:
            await self._post(context, message.text, message.channel_data, message.sender)

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
            instead_of_text=not_text(attachments=activity.attachments, value=activity.value),
        )

    async def _post(
        self, context: TurnContext, text: str, channel_data: dict[str, Any], sender: str
    ) -> None:
        incoming = context.activity
        service_url = incoming.service_url or ""
        if not self.policy.allows(service_url):
            raise PermissionError(f"replies may not go to {service_url!r}")
        bot = incoming.recipient
        activity = {
            "type": ActivityTypes.message,
            "text": text,
            "channelData": channel_data,
            "inputHint": "acceptingInput",
            "from": {"id": getattr(bot, "id", None) or "bot", "name": sender, "role": "bot"},
            "recipient": _account(incoming.from_property),
            "conversation": _account(incoming.conversation),
            "channelId": str(incoming.channel_id) if incoming.channel_id else None,
            "serviceUrl": service_url,
            "replyToId": incoming.id,
            "locale": incoming.locale,
        }
        await self.replies.reply(
            service_url=service_url,
            conversation_id=incoming.conversation.id,
            reply_to_id=incoming.id,
            activity={k: v for k, v in activity.items() if v is not None},
            token=str(context.turn_state.get(REPLY_TOKEN_KEY) or "") or None,
        )

    async def _on_error(self, context: TurnContext, error: Exception) -> None:
        async def send(text: str, channel_data: dict[str, Any]) -> None:
            await self._post(context, text, channel_data, self.bot.name)

        conversation_id = getattr(context.activity.conversation, "id", "?")
        await report_turn_error(conversation_id, error, bot_name=self.bot.name, send=send)

    async def _on_adapter_error(self, _context: TurnContext, error: Exception) -> None:
        # The application reported the error already (or it is a 503 to answer): pass it on,
        # instead of the SDK's default, which prints a traceback and tells the user the error.
        raise error

    async def aclose(self) -> None:
        """Close the reply client (the SDK opens its own HTTP clients per turn)."""
        await self.replies.aclose()

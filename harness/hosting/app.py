"""The web application behind ``harness serve``: ``POST /api/messages``, ``/healthz``, exposed agents.

``create_app`` builds an aiohttp application around one bot and one adapter (``botbuilder`` or
``agents-sdk``). Every request body is checked here first, so malformed JSON, an activity without a
type, or an oversized body gets a 4xx with a JSON body that says what was wrong, and never reaches
the SDK. With an app id configured, a request without credentials is refused with 401 before its
body is read. On shutdown ``serve`` keeps listening while the turns in flight finish: new
requests get 503 and ``/healthz`` says ``draining``, so a load balancer sees the worker leave;
then it closes (at once on a second signal).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import signal
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal, Protocol

from aiohttp import web

from harness.exceptions import ConfigError, UsageError
from harness.hosting import _health
from harness.hosting._errors import UnavailableError
from harness.hosting._health import StoreHealth, shown_storage
from harness.hosting._http import (
    BodyError,
    error_response,
    read_json_object,
    unavailable_response,
)
from harness.hosting._open import open_store
from harness.hosting._outbound import ServiceUrlPolicy, check_service_url
from harness.hosting.core import (
    DEFAULT_REPLY_TIMEOUT,
    DEFAULT_TURN_TIMEOUT,
    DEFAULT_WINDOW_TURNS,
    BusyError,
    HarnessBot,
)
from harness.hosting.storage import StateStore
from harness.runtime.guard_process import (
    DEFAULT_CHECK_TIMEOUT,
    DEFAULT_WORKERS,
    configure_guard_process,
    start_guard_process,
)
from harness.runtime.parent import Parent
from harness.transport.http import TOKEN_ENV

__all__ = ["DEFAULT_MAX_BODY_BYTES", "AdapterName", "check_agent_token", "create_app", "serve"]

log = logging.getLogger("harness.hosting")

AdapterName = Literal["botbuilder", "agents-sdk"]

DEFAULT_MAX_BODY_BYTES = 1_000_000
"""The default limit on a request body (1 MB); Bot Framework activities are far smaller."""

DEFAULT_SHUTDOWN_TIMEOUT = 25.0
"""Seconds a shutdown waits for the turns in flight by default (``harness serve
--shutdown-timeout``). ``serve`` stops up to ``2 * HANDLERS_AFTER_DRAIN_S`` later, so the whole
stop stays within Kubernetes' default grace period (``terminationGracePeriodSeconds``, 30 s)."""

NO_PASSWORD = (
    "the bot would check the channel's tokens but could get none for its replies: it signs in "
    "with the app's password (client secret), as the Bot Framework's MultiTenant and "
    "SingleTenant app types do. An app id alone is enough only for a user-assigned managed "
    "identity (app type UserAssignedMSI), which this server does not support"
)
"""Why an app id without a password is refused (``create_app``, ``harness serve``)."""

BOT_KEY = web.AppKey("harness_bot", HarnessBot)
HEALTH_KEY = web.AppKey("harness_store_health", StoreHealth)
DRAIN_KEY = web.AppKey[Callable[[], Awaitable[None]]]("harness_drain")
"""Stops the app accepting turns and waits for those in flight (once; later calls return)."""


class _Host(Protocol):
    name: str
    auth_enabled: bool
    policy: ServiceUrlPolicy

    async def process(self, request: web.Request, body: dict[str, Any]) -> web.StreamResponse: ...

    async def aclose(self) -> None: ...


MAX_ID_LENGTH = 1024
"""The longest conversation or activity id accepted (Teams ids run to a few hundred characters)."""


def _odd(ch: str) -> bool:
    # A plain space is allowed: the simulator names conversations after its scenarios.
    return (ch != " " and ch.isspace()) or ord(ch) < 32 or ch in "/\\?#%"


def _check_id(value: str, what: str) -> str | None:
    if len(value) > MAX_ID_LENGTH:
        return f"the activity's {what} is longer than {MAX_ID_LENGTH} characters"
    if any(_odd(ch) for ch in value) or ".." in value:
        return (
            f"the activity's {what} contains characters ids never have "
            "(/ \\ ? # % .. line breaks or control characters)"
        )
    return None


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]{0,30})://")


def _check_activity(body: Mapping[str, Any]) -> str | None:
    """Why an activity cannot be processed, or None when it has what every adapter needs."""
    kind = body.get("type")
    if not isinstance(kind, str) or not kind.strip():
        return "the activity has no type"
    conversation = body.get("conversation")
    if not isinstance(conversation, Mapping) or not isinstance(conversation.get("id"), str):
        return "the activity has no conversation.id"
    if not conversation["id"].strip():
        return "the activity's conversation.id is empty"
    channel = body.get("channelId")
    if not isinstance(channel, str) or not channel.strip():
        return "the activity has no channelId"
    service_url = body.get("serviceUrl")
    if not isinstance(service_url, str) or not service_url.strip():
        return "the activity has no serviceUrl (an http or https URL to send replies to)"
    if not service_url.lower().startswith(("http://", "https://")):
        scheme = _SCHEME.match(service_url)
        said = (
            f"has the scheme {scheme[1]!r}"
            if scheme
            else f"{service_url[:40]!r} does not start with http:// or https://"
        )
        return f"the activity's serviceUrl {said}; replies can only go to an http or https URL"
    problem = check_service_url(service_url)
    if problem is not None:
        return problem
    for field in ("from", "recipient"):
        if field in body and body[field] is not None and not isinstance(body[field], Mapping):
            return f"the activity's {field!r} must be an object"
    for field in ("text", "id", "replyToId"):
        if field in body and body[field] is not None and not isinstance(body[field], str):
            return f"the activity's {field!r} must be a string"
    for field, what in (("id", "id"), ("replyToId", "replyToId")):
        if isinstance(body.get(field), str):
            problem = _check_id(body[field], what)
            if problem is not None:
                return problem
    return _check_id(conversation["id"], "conversation.id")


def check_agent_token(token: str | None) -> None:
    """Refuse an agent token that would turn ``/agents`` auth off: empty, blank, or
    ``HARNESS_AGENT_TOKEN`` set to an empty value when no token is given.

    Raises:
        UsageError: for such a token.
    """
    if token is not None and not token.strip():
        raise UsageError(
            "the agent token (--expose-token / HARNESS_AGENT_TOKEN) is empty; give a real "
            "token, or leave it unset"
        )
    if token is None and TOKEN_ENV in os.environ and not os.environ[TOKEN_ENV].strip():
        raise UsageError(
            f"{TOKEN_ENV} is set but empty; give a real token, or unset it (an empty token "
            "would leave /agents open)"
        )


def _make_host(
    adapter: str,
    bot: HarnessBot,
    *,
    store: StateStore | None,
    app_id: str | None,
    app_password: str | None,
    tenant_id: str | None,
) -> _Host:
    if adapter == "botbuilder":
        from harness.hosting.botbuilder import BotbuilderHost

        return BotbuilderHost(
            bot, store=store, app_id=app_id, app_password=app_password, tenant_id=tenant_id
        )
    if adapter == "agents-sdk":
        from harness.hosting.agents_sdk import AgentsSdkHost

        return AgentsSdkHost(
            bot, store=store, app_id=app_id, app_password=app_password, tenant_id=tenant_id
        )
    raise ConfigError(f"unknown adapter {adapter!r}; use botbuilder or agents-sdk", field="adapter")


def create_app(
    bot: Parent | HarnessBot,
    *,
    adapter: AdapterName = "botbuilder",
    storage: str | Path | StateStore | None = None,
    app_id: str | None = None,
    app_password: str | None = None,
    tenant_id: str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    expose: bool = False,
    expose_token: str | None = None,
    shutdown_timeout: float = DEFAULT_SHUTDOWN_TIMEOUT,
    allow_service_urls: Iterable[str] = (),
    reply_timeout: float = DEFAULT_REPLY_TIMEOUT,
    window_turns: int | None = DEFAULT_WINDOW_TURNS,
    turn_timeout: float = DEFAULT_TURN_TIMEOUT,
    send_plans: bool = False,
) -> web.Application:
    """Build the web application that serves ``bot`` to Bot Framework channels.

    Args:
        bot: the parent (or a ready ``HarnessBot``).
        adapter: ``botbuilder`` (the Bot Framework SDK) or ``agents-sdk`` (Microsoft 365 Agents
            SDK).
        storage: where conversation state lives: None or ``memory`` (lost on restart), a
            ``.sqlite`` / ``.db`` file, a directory of JSON files, or a ``StateStore``.
        app_id: the Microsoft App ID. With it, requests must carry a valid Bot Framework token.
        app_password: the app's password (client secret).
        tenant_id: the app's tenant, for single-tenant registrations.
        max_body_bytes: larger request bodies are refused with 413.
        expose: also serve each sub-agent at ``POST /agents/{name}`` (and the list at
            ``GET /agents``) for other harness hosts to use as remote connected agents.
        expose_token: require ``Authorization: Bearer <token>`` on the exposed agents (callers
            send the ``HARNESS_AGENT_TOKEN`` environment variable). An empty or blank token is
            refused (``UsageError``), as is ``HARNESS_AGENT_TOKEN`` set but empty: neither
            turns the check off.
        shutdown_timeout: how many seconds shutdown waits for in-flight turns (0: none);
            then it stops anyway (``harness serve --shutdown-timeout``; 25 by default, so
            ``serve``'s whole stop fits a 30 s grace period).
        allow_service_urls: more reply addresses to allow (``fnmatch`` patterns on the
            ``serviceUrl``'s origin or whole URL). Without an app id only loopback addresses
            are allowed by default; with one, the Bot Framework channel hosts.
        reply_timeout: seconds one reply may take to reach the channel.
        window_turns: recent turns kept in each conversation's stored state (None: all); the
            store's log keeps the whole transcript.
        turn_timeout: seconds one turn may run in all before it is cancelled and its lease
            given up (default 300).
        send_plans: send every turn's plan to the channel as a ``harness.plan`` event (without
            it, only to activities whose ``channelData`` asks: ``{"harness": {"plan": true}}``).

    Raises:
        ConfigError: for an unknown adapter, an unusable storage path, a negative
            ``shutdown_timeout``, or an ``app_id`` without an ``app_password`` (no reply could
            get a token).
        UsageError: for an empty agent token.
    """
    if max_body_bytes < 1024:
        raise ConfigError("max_body_bytes must be at least 1024", field="max_body_bytes")
    if app_id and not app_password:
        raise ConfigError(
            f"app_id is set without app_password: {NO_PASSWORD}", field="app_password"
        )
    if not shutdown_timeout >= 0:  # NaN too
        raise ConfigError(
            f"shutdown_timeout must be 0 or more seconds, not {shutdown_timeout!r}",
            field="shutdown_timeout",
        )
    if expose:
        check_agent_token(expose_token)
    store = open_store(storage)
    if isinstance(bot, HarnessBot):
        core = bot
        core.store = core.store or store
    else:
        core = HarnessBot(
            bot,
            reply_timeout=reply_timeout,
            store=store,
            window_turns=window_turns,
            turn_timeout=turn_timeout,
            send_plans=send_plans,
        )
    policy = ServiceUrlPolicy(allow_service_urls, app_id=app_id)
    host = _make_host(
        adapter, core, store=store, app_id=app_id, app_password=app_password, tenant_id=tenant_id
    )
    host.policy = policy
    app = web.Application(client_max_size=max_body_bytes)
    app[BOT_KEY] = core
    health = StoreHealth(core.store)
    app[HEALTH_KEY] = health
    install = getattr(host, "install", None)
    if install is not None:
        install(app)

    async def messages(request: web.Request) -> web.StreamResponse:
        if not core.accepting:
            return unavailable_response(
                "the bot is shutting down (draining); try again later", retry_after=1
            )
        if host.auth_enabled and not request.headers.get("Authorization"):
            return error_response(401, "Unauthorized", "the request has no Authorization header")
        try:
            body = await read_json_object(request, max_bytes=max_body_bytes)
        except BodyError as exc:
            return exc.response()
        problem = _check_activity(body)
        if problem is not None:
            return error_response(400, "BadArgument", problem)
        if body["type"] == "invoke":  # as botbuilder answers an invoke no handler takes
            return error_response(501, "NotImplemented", "this bot handles no invoke activities")
        if not host.auth_enabled and not policy.allows(body["serviceUrl"]):
            # With an app id the token is checked first; the adapter refuses the reply instead.
            return error_response(
                403,
                "Forbidden",
                f"replies may not go to {body['serviceUrl']!r}; allowed: {policy.describe()} "
                "(see --allow-service-url)",
            )
        conversation = f"{body['channelId']}/{body['conversation']['id']}"
        try:
            async with core.admit(conversation):
                try:
                    return await host.process(request, body)
                except UnavailableError as exc:  # nothing was sent: the channel tries again
                    return unavailable_response(
                        f"{exc}; try again later", retry_after=exc.retry_after
                    )
                except Exception:
                    log.exception("the %s adapter failed on an activity", host.name)
                    return error_response(
                        500, "InternalError", "the bot failed to handle the activity"
                    )
        except BusyError as exc:
            response = error_response(exc.status, "TooManyRequests", str(exc))
            response.headers["Retry-After"] = "1"
            return response

    async def healthz(_request: web.Request) -> web.Response:
        about = {"bot": core.name, "adapter": host.name, "inFlight": core.in_flight}
        if not core.accepting:
            return web.json_response({"status": "draining", **about}, status=503)
        problem = await health.current()
        if problem is not None:  # every turn would be answered 503: out of rotation
            return web.json_response(
                {"status": "storage unavailable", "reason": problem, **about}, status=503
            )
        return web.json_response({"status": "ok", **about})

    app.router.add_post("/api/messages", messages)
    app.router.add_get("/healthz", healthz)
    if expose:
        from harness.hosting.remote import add_agent_routes

        if not expose_token and app_id:
            raise UsageError(
                "--expose with an app id needs an agent token (--expose-token or "
                "HARNESS_AGENT_TOKEN): the app id protects /api/messages only, and /agents "
                "would run the sub-agents for anyone"
            )
        if not expose_token:
            log.warning(
                "sub-agents are exposed without a token: anyone who can reach /agents can run them"
            )
        add_agent_routes(app, core, max_body_bytes=max_body_bytes, token=expose_token)

    drained = False

    async def drain() -> None:
        nonlocal drained
        if not drained:  # serve drains while still listening; on_shutdown then has nothing left
            drained = True
            await core.drain(shutdown_timeout)

    async def drain_on_shutdown(_app: web.Application) -> None:
        await drain()

    async def close(_app: web.Application) -> None:
        await health.aclose()
        await host.aclose()
        if store is not None:
            await store.aclose()

    app[DRAIN_KEY] = drain
    app.on_shutdown.append(drain_on_shutdown)
    app.on_cleanup.append(close)
    return app


def _freeze_startup_objects() -> None:
    """Leave what the server loaded out of the garbage collector's full passes (``gc.freeze``).

    A full pass walks every tracked object and holds the interpreter meanwhile, whichever thread
    set it off: with a bot, its models and the SDKs loaded (about 110,000 objects), about 70 ms of
    CPU, during which no conversation is served. The analysis of a long message (in a worker
    thread) allocates enough to set off such passes. The objects loaded at start-up live as long
    as the server, so the passes need not look at them; they then walk only what turns made.
    """
    gc.collect()
    gc.freeze()


async def _check_store(health: StoreHealth, spec: object) -> None:
    """Stop before listening when the store has not answered within ``START_WITHIN_S`` seconds,
    or at once when it refused its configuration (``ConfigError``, exit code 2)."""
    shown = shown_storage(str(spec)) if isinstance(spec, (str, Path)) else type(spec).__name__
    within = _health.START_WITHIN_S

    def told(problem: str) -> None:
        log.warning("storage %s does not answer (%s); trying again for %gs", shown, problem, within)

    try:
        problem = await health.check_within(within, told)
    except ConfigError as exc:  # no retry mends it: say what is wrong now
        raise ConfigError(f"{shown}: {exc.message}", field="storage") from exc
    if problem is None:
        return
    raise ConfigError(
        f"{shown} does not answer ({problem}); check that it is running and reachable from "
        "this machine, and the URL's host, port and password (or the connection string)",
        field="storage",
    )


HANDLERS_AFTER_DRAIN_S = 1.0
"""After ``serve``'s drain, how long a request handler still running may take before it is
cancelled (and as long again to unwind after that); then its connection is closed."""


def _restore_signals(loop: asyncio.AbstractEventLoop, installed: list[signal.Signals]) -> None:
    """Give the signals ``serve`` handled back to their default handlers (once)."""
    for sig in installed:
        loop.remove_signal_handler(sig)
    installed.clear()


async def serve(
    bot: Parent,
    *,
    host: str = "127.0.0.1",
    port: int = 3978,
    on_ready: Callable[[str], None] | None = None,
    guard_timeout: float = DEFAULT_CHECK_TIMEOUT,
    guard_workers: int = DEFAULT_WORKERS,
    **options: Any,
) -> None:
    """Serve ``bot`` until SIGINT or SIGTERM, then finish in-flight turns and close the bot.

    A second SIGINT or SIGTERM while the turns finish stops at once (its default handler:
    ``KeyboardInterrupt``, or the process ends).

    Args:
        bot: the parent to serve.
        host: the interface to listen on.
        port: the TCP port (0 picks a free one).
        on_ready: called with the base URL once the server listens.
        guard_timeout: seconds the duplicate guard's check of a long text may take; then the
            draft is sent unchecked (``harness.runtime.guard_process``).
        guard_workers: how many such checks may run at once, each in its own worker process.
        **options: passed to ``create_app``.

    Raises:
        ConfigError: when the store has not answered within ``START_WITHIN_S`` seconds (30; a
            wrong address, a stopped server, a refused password): such a worker could answer no
            turn.
        UsageError: when the address cannot be listened on (a port in use, say).
    """
    app = create_app(bot, **options)
    runner = web.AppRunner(
        app,
        # The drain has waited shutdown_timeout for the turns; what is still running then is cut
        # short. aiohttp's own default waits 60 s for it, then 60 s more once cancelled, so a
        # stop took up to two minutes longer than the drain.
        shutdown_timeout=HANDLERS_AFTER_DRAIN_S,
        handle_signals=False,
        access_log=logging.getLogger("harness.hosting.access"),
        access_log_format='%a "%r" %s %b %Tfs',
    )
    await runner.setup()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    try:
        await _check_store(app[HEALTH_KEY], options.get("storage"))
        if bot.duplicate_guard != "off":
            configure_guard_process(timeout=guard_timeout, workers=guard_workers)
            # Loaded before the server listens, so the first long message need not wait for it.
            await start_guard_process()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
        if host not in ("127.0.0.1", "localhost", "::1") and not options.get("app_id"):
            log.warning(
                "listening on %s without an app id: anyone who can reach it can talk to the bot",
                host,
            )
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
                installed.append(sig)
            except (NotImplementedError, RuntimeError):  # not on this platform or thread
                pass
        address = runner.addresses[0] if runner.addresses else (host, port)
        url = f"http://{address[0]}:{address[1]}"
        _freeze_startup_objects()
        log.info("serving %s on %s", bot.name, url)
        if on_ready is not None:
            on_ready(url)
        await stop.wait()
        # The default handlers are back during the drain: a second Ctrl-C or SIGTERM stops the
        # process at once instead of waiting for the turns in flight.
        _restore_signals(loop, installed)
        # aiohttp's runner closes the listening socket before its shutdown hooks run. Draining
        # first keeps the port open meanwhile: new requests get 503 and /healthz says
        # "draining" (a health check sees the worker leave) instead of a refused connection.
        log.info("shutting down: waiting for %d request(s) in flight", app[BOT_KEY].in_flight)
        await app[DRAIN_KEY]()
    finally:
        _restore_signals(loop, installed)
        await runner.cleanup()
        await bot.aclose()

"""The ``serve`` command: run a bot as a Bot Framework endpoint."""

from __future__ import annotations

import logging
import re

import click

from harness.cli.command import HarnessCommand
from harness.cli.model_flags import ModelFlags, model_options
from harness.runtime.loading import run_sync
from harness.runtime.parent import check_models

__all__ = ["serve_command"]


@click.command("serve", cls=HarnessCommand)
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    default=3978,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: one the OS picks).",
)
@click.option(
    "--adapter",
    type=click.Choice(["botbuilder", "agents-sdk"]),
    default="botbuilder",
    show_default=True,
    help="Bot Framework SDK (botbuilder) or Microsoft 365 Agents SDK.",
)
@click.option("--expose", is_flag=True, help="Also serve each sub-agent at POST /agents/{name}.")
@click.option(
    "--expose-token",
    envvar="HARNESS_AGENT_TOKEN",
    help="Require this bearer token on /agents (env HARNESS_AGENT_TOKEN; callers send the same).",
)
@click.option(
    "--storage",
    default="memory",
    show_default=True,
    help="Conversation state: memory, a FILE.sqlite, a DIRECTORY of JSON files, or shared by "
    "several workers: redis://HOST:PORT/DB or azblob://CONTAINER (the storage extra).",
)
@click.option(
    "--window-turns",
    default=50,
    show_default=True,
    type=click.IntRange(1),
    help="Recent turns kept in each conversation's stored state; the store's log keeps all.",
)
@click.option("--app-id", envvar="MicrosoftAppId", help="Microsoft App ID (env MicrosoftAppId).")
@click.option(
    "--app-password",
    envvar="MicrosoftAppPassword",
    help="The app's password (env MicrosoftAppPassword).",
)
@click.option("--tenant-id", envvar="MicrosoftAppTenantId", help="Tenant of a single-tenant app.")
@click.option(
    "--max-body-bytes",
    default=1_000_000,
    show_default=True,
    type=click.IntRange(1024),
    help="Larger request bodies are refused with 413.",
)
@click.option(
    "--allow-service-url",
    "allow_service_urls",
    multiple=True,
    metavar="PATTERN",
    help="Also allow replies to serviceUrls matching PATTERN (repeatable; e.g. "
    "'https://*.example.com'). Default: loopback only without an app id, Bot Framework "
    "channel hosts with one.",
)
@click.option(
    "--reply-timeout",
    default=15.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Seconds one reply may take to reach the channel.",
)
@click.option(
    "--turn-timeout",
    default=300.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Seconds one turn may run in all; then it is cancelled and its lease given up.",
)
@click.option(
    "--shutdown-timeout",
    default=25.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds a shutdown (SIGINT or SIGTERM) waits for the turns in flight to finish before "
    "it stops anyway (0: stop at once); stopping takes about 2 s more, so the default fits a "
    "30 s grace period.",
)
@click.option(
    "--guard-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1),
    help="Seconds the duplicate guard's check of a long text may take; then the reply is sent "
    "unchecked.",
)
@click.option(
    "--guard-workers",
    default=2,
    show_default=True,
    type=click.IntRange(1),
    help="How many long texts the duplicate guard may check at once (one process each).",
)
@click.option(
    "--send-plan",
    is_flag=True,
    help="Send every turn's plan to the channel as a 'harness.plan' event (otherwise only when "
    'the user\'s activity asks: channelData {"harness": {"plan": true}}).',
)
@model_options()
def serve_command(
    config: str,
    host: str,
    port: int,
    adapter: str,
    expose: bool,
    expose_token: str | None,
    storage: str,
    window_turns: int,
    app_id: str | None,
    app_password: str | None,
    tenant_id: str | None,
    max_body_bytes: int,
    allow_service_urls: tuple[str, ...],
    reply_timeout: float,
    turn_timeout: float,
    shutdown_timeout: float,
    guard_timeout: float,
    guard_workers: int,
    send_plan: bool,
    model: str | None,
    base_url: str | None,
    model_settings: tuple[str, ...] = (),
) -> None:
    """Serve the bot in CONFIG at POST /api/messages (and GET /healthz) until Ctrl-C."""
    from harness.hosting.app import NO_PASSWORD, serve

    if app_password and not app_id:
        raise click.UsageError(
            "--app-password (env MicrosoftAppPassword) is set without --app-id (env "
            "MicrosoftAppId): without an app id the endpoint is open and the password unused; "
            "set both, or neither"
        )
    if app_id and not app_password:
        raise click.UsageError(
            "--app-id (env MicrosoftAppId) is set without --app-password (env "
            f"MicrosoftAppPassword): {NO_PASSWORD}; set the password too, or neither"
        )
    bot = ModelFlags.parse(model, base_url, model_settings).load_bot(config)
    check_models(bot)  # a model that cannot work (no API key) stops the server before it listens
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    logging.getLogger("azure").setLevel(
        logging.WARNING
    )  # its HTTP dumps are INFO (--storage azblob)

    def ready(url: str) -> None:
        auth = "app id set: unauthenticated requests get 401" if app_id else "no app id: open"
        shown = re.sub(r"://([^:@/]*):[^@/]*@", r"://\1:***@", storage)  # no password on screen
        click.echo(f"{bot.name} on {url}/api/messages ({adapter}, {auth}, storage: {shown})")
        if expose:
            click.echo(f"sub-agents exposed at {url}/agents")

    run_sync(
        serve(
            bot,
            host=host,
            port=port,
            on_ready=ready,
            adapter=adapter,
            storage=storage,
            app_id=app_id or None,
            app_password=app_password or None,
            tenant_id=tenant_id or None,
            max_body_bytes=max_body_bytes,
            expose=expose,
            expose_token=expose_token,  # an empty one is refused there, not ignored
            allow_service_urls=allow_service_urls,
            reply_timeout=reply_timeout,
            turn_timeout=turn_timeout,
            shutdown_timeout=shutdown_timeout,
            guard_timeout=guard_timeout,
            guard_workers=guard_workers,
            window_turns=window_turns,
            send_plans=send_plan,
        )
    )

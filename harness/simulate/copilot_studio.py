"""The Copilot Studio target: hold scenario conversations with a published Copilot Studio agent.

Built on Microsoft's ``microsoft-agents-copilotstudio-client`` (``CopilotClient``), which posts each
turn to the Power Platform API and reads the replies as server-sent events; a turn is over when its
stream closes. The agent is addressed by its environment id and schema name (with the cloud and
whether it is published or prebuilt), or by a direct-connect URL.

Authentication is a Power Platform API token (scope ``https://api.powerplatform.com/.default``): a
ready one (from an environment variable), or one MSAL gets with :func:`msal_token_provider` (device
code for a person, client credentials for CI).

Messages are attributed to child and connected agents from the plan events the orchestrator emits
around them, where present (:class:`~harness.detect.activities.TraceAttribution`); otherwise
every message is the agent's own, and duplicates are found from the text alone.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from harness.detect.activities import TraceAttribution, activity_message, user_message
from harness.detect.transcript import Transcript
from harness.exceptions import MissingExtraError, RunError, UsageError
from harness.simulate.targets import ConversationError, Target

try:
    import aiohttp
    from microsoft_agents.copilotstudio.client import (
        AgentType,
        ConnectionSettings,
        CopilotClient,
        PowerPlatformCloud,
    )
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise MissingExtraError(
        "the Copilot Studio target (simulate --copilot-studio)", extra="copilot-studio"
    ) from exc

if TYPE_CHECKING:
    from microsoft_agents.activity import Activity

__all__ = ["CopilotStudioTarget", "TokenProvider", "msal_token_provider"]

TokenProvider = Callable[[], str]
"""Returns a current access token (called once per conversation, off the event loop)."""


class CopilotStudioTarget(Target):
    """A Copilot Studio agent, through ``CopilotClient``.

    Args:
        token: a Power Platform API token, or a function that returns a current one (MSAL).
        environment_id: the agent's environment id.
        schema_name: the agent's schema name (``cr123_helpdesk``).
        cloud: the Power Platform cloud (``Prod``, ``Gov``, ``High``, ``DoD``, ...).
        agent_type: ``published`` or ``prebuilt``.
        direct_connect_url: address the agent by this URL instead of environment and schema.
        turn_timeout: the longest a turn's stream may stay open.
        greeting: start each conversation with the start event, so the agent's greeting (turn 0)
            is in the transcript.
    """

    def __init__(
        self,
        *,
        token: str | TokenProvider,
        environment_id: str | None = None,
        schema_name: str | None = None,
        cloud: str = "Prod",
        agent_type: Literal["published", "prebuilt"] = "published",
        direct_connect_url: str | None = None,
        turn_timeout: float = 120.0,
        greeting: bool = True,
    ) -> None:
        if not direct_connect_url and not (environment_id and schema_name):
            raise UsageError(
                "a Copilot Studio agent needs its environment id and schema name, "
                "or a direct-connect URL"
            )
        if direct_connect_url and not direct_connect_url.startswith(("http://", "https://")):
            raise UsageError(f"the direct-connect URL must be http(s), got {direct_connect_url!r}")
        by_name = {c.value.lower(): c for c in PowerPlatformCloud}
        if cloud.lower() not in by_name:
            raise UsageError(
                f"unknown Power Platform cloud {cloud!r} (one of {', '.join(sorted(by_name))})"
            )
        if turn_timeout <= 0:
            raise UsageError("turn_timeout must be positive")
        self.token = token
        self.environment_id = environment_id
        self.schema_name = schema_name
        self.cloud = by_name[cloud.lower()]
        self.agent_type = AgentType(agent_type)
        self.direct_connect_url = direct_connect_url
        self.turn_timeout = turn_timeout
        self.greeting = greeting
        self.name = direct_connect_url or f"{environment_id}/{schema_name}"

    def settings(self) -> ConnectionSettings:
        """Fresh client settings (the client writes the discovered URL into them)."""
        return ConnectionSettings(
            environment_id=self.environment_id or "",
            agent_identifier=self.schema_name or "",
            cloud=self.cloud,
            copilot_agent_type=self.agent_type,
            direct_connect_url=self.direct_connect_url,
        )

    async def _token(self) -> str:
        if isinstance(self.token, str):
            return self.token
        return await asyncio.to_thread(self.token)

    async def run_conversation(self, turns: Sequence[str], *, conversation_id: str) -> Transcript:
        """Start a conversation, send each turn, read its stream to the end.

        Raises:
            ConversationError: the API refused or failed, a turn timed out, or the agent sent
                nothing; it carries the messages so far.
        """
        transcript = Transcript(conversation=conversation_id)
        attribution = TraceAttribution()
        used: set[str] = set()
        number = 0
        try:
            client = CopilotClient(self.settings(), await self._token())
            if self.greeting:
                await self._collect(
                    client.start_conversation(emit_start_conversation_event=True),
                    transcript,
                    0,
                    attribution,
                    used,
                )
            for number, text in enumerate(turns, start=1):
                transcript.append(user_message(conversation_id, number, text))
                received = await self._collect(
                    client.ask_question(text), transcript, number, attribution, used
                )
                if not received:
                    raise RunError("the agent's reply stream closed without a message")
        except RunError as exc:
            where = f"turn {number}: " if number else ""
            raise ConversationError(
                f"{where}{exc}", transcript=transcript, turn=number or None
            ) from exc
        except (aiohttp.ClientError, ValueError) as exc:
            where = f"turn {number}: " if number else "cannot start the conversation: "
            raise ConversationError(
                where + _describe(exc), transcript=transcript, turn=number or None
            ) from exc
        return transcript

    async def _collect(
        self,
        stream: Any,
        transcript: Transcript,
        turn: int,
        attribution: TraceAttribution,
        used: set[str],
    ) -> int:
        """Read one stream to its end; return how many bot messages it carried."""
        count = 0
        try:
            async with asyncio.timeout(self.turn_timeout):
                async for activity in stream:
                    record = _as_dict(activity)
                    sender = record.get("from")
                    if isinstance(sender, dict) and sender.get("role") == "user":
                        continue
                    attribution.observe(record)
                    raw_id = record.get("id")
                    message_id = raw_id if isinstance(raw_id, str) and raw_id else ""
                    if not message_id or message_id in used:
                        message_id = f"{transcript.conversation}-b{len(used) + 1}"
                    message = activity_message(
                        record, turn=turn, message_id=message_id, sender=attribution.sender
                    )
                    if message is not None:
                        used.add(message_id)
                        transcript.append(message)
                        count += 1
        except TimeoutError as exc:
            what = "the greeting" if turn == 0 else f"the reply stream of turn {turn}"
            raise RunError(f"{what} did not close within {self.turn_timeout:g}s") from exc
        return count


def _as_dict(activity: Activity | dict[str, Any]) -> dict[str, Any]:
    if isinstance(activity, dict):
        return activity
    dumped: dict[str, Any] = activity.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def _describe(exc: BaseException) -> str:
    text = str(exc)
    # No answer came (DNS, refused, TLS, a proxy, a dropped connection): a number in the text
    # is a port, not a status.
    if isinstance(exc, aiohttp.ClientConnectorError):
        return f"cannot reach Copilot Studio: {text or type(exc).__name__}"
    if isinstance(exc, aiohttp.ClientConnectionError):
        return f"the connection to Copilot Studio failed: {text or type(exc).__name__}"
    status: int | None = None
    if isinstance(exc, aiohttp.ClientResponseError):
        status = exc.status
    elif match := _CLIENT_STATUS.search(text):
        status = int(match.group(1))
    if status in (401, 403):
        return (
            f"Copilot Studio refused the token (HTTP {status}); check that it is for "
            "https://api.powerplatform.com and has not expired, and that the account may use "
            "the agent"
        )
    if status == 404:
        return (
            "Copilot Studio has no such agent (HTTP 404); check the environment id and schema name"
        )
    if status is not None:
        return f"Copilot Studio answered HTTP {status}"
    if isinstance(exc, aiohttp.ClientError):
        return f"cannot reach Copilot Studio: {text or type(exc).__name__}"
    return text


_CLIENT_STATUS = re.compile(r"^Error [a-z ]+: ([1-5]\d\d)$")
"""The status in ``CopilotClient``'s own errors ("Error sending request: 404")."""


def msal_token_provider(
    *,
    tenant_id: str,
    client_id: str,
    client_secret: str | None = None,
    scope: str = "https://api.powerplatform.com/.default",
    authority_host: str = "https://login.microsoftonline.com",
) -> TokenProvider:
    """A token provider that signs in with MSAL and caches the token (refreshing it silently).

    With ``client_secret``, the app signs in as itself (client credentials, for CI); the app
    registration needs the Power Platform API permission and the agent must accept it. Without, a
    person signs in with a device code printed on standard error.

    Raises:
        MissingExtraError: ``msal`` is not installed (the ``copilot-studio`` extra).
    """
    try:
        import msal  # type: ignore[import-untyped]
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise MissingExtraError("MSAL sign-in", extra="copilot-studio") from exc
    authority = f"{authority_host.rstrip('/')}/{tenant_id}"
    scopes = [scope]
    app: Any
    if client_secret:
        app = msal.ConfidentialClientApplication(
            client_id, authority=authority, client_credential=client_secret
        )
    else:
        app = msal.PublicClientApplication(client_id, authority=authority)

    def provide() -> str:
        if client_secret:
            result = app.acquire_token_for_client(scopes=scopes)
        else:
            accounts = app.get_accounts()
            result = app.acquire_token_silent(scopes, account=accounts[0]) if accounts else None
            if not result:
                flow = app.initiate_device_flow(scopes=scopes)
                if "user_code" not in flow:
                    raise RunError(
                        f"MSAL could not start a device code sign-in: {_msal_error(flow)}"
                    )
                print(flow["message"], file=sys.stderr, flush=True)
                result = app.acquire_token_by_device_flow(flow)
        token = result.get("access_token") if isinstance(result, dict) else None
        if not isinstance(token, str):
            raise RunError(f"MSAL sign-in failed: {_msal_error(result)}")
        return token

    return provide


def _msal_error(result: Any) -> str:
    if not isinstance(result, dict):
        return "no result"
    return str(result.get("error_description") or result.get("error") or "no details")

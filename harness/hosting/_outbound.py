"""Where replies may go, and sending them without blocking anything.

A channel names its reply address in each activity's ``serviceUrl``. Posting wherever a request says
would let anyone who can reach ``/api/messages`` make the bot send requests into the host's network
(SSRF). ``ServiceUrlPolicy`` is the outbound allow-list: with no app id only loopback addresses are
allowed (the Emulator, the simulator, tests); with an app id the Bot Framework channel hosts are;
``--allow-service-url PATTERN`` adds more.

``ReplyClient`` posts reply activities with aiohttp (one pooled session, a timeout per request),
so a slow channel never holds a thread of a shared pool; conversation and activity ids are
URL-encoded in the reply path. It never follows a redirect: a channel on the allow-list that
answers 3xx would otherwise send the reply (and its token) to an address the list does not allow,
so a redirect is a failed send.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from fnmatch import fnmatchcase
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import aiohttp

from harness.exceptions import RunError

__all__ = [
    "BOT_FRAMEWORK_HOSTS",
    "RedirectRefusedError",
    "ReplyClient",
    "ServiceUrlPolicy",
    "check_service_url",
    "reply_url",
]

BOT_FRAMEWORK_HOSTS = (
    "https://*.botframework.com",
    "https://smba.trafficmanager.net",
    "https://*.trafficmanager.net",
    "https://*.botframework.azure.us",
    "https://*.botframework.us",
    "https://*.teams.microsoft.com",
)
"""Reply hosts of the Bot Framework channels (Azure Bot Service, Teams, government clouds)."""


def check_service_url(url: str) -> str | None:
    """Why ``url`` is not an absolute http(s) URL with a host and a valid port, or None."""
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError for a port out of range
    except ValueError as exc:
        return f"the activity's serviceUrl is malformed ({exc})"
    del port
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "the activity's serviceUrl must be an absolute http or https URL"
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        return "the activity's serviceUrl contains white space or control characters"
    return None


def _origin(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    default = {"http": 80, "https": 443}.get(parts.scheme)
    suffix = f":{port}" if port is not None and port != default else ""
    return f"{parts.scheme}://{host.lower()}{suffix}"


def _is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ServiceUrlPolicy:
    """The outbound allow-list for reply addresses.

    Args:
        patterns: shell-style patterns (``fnmatch``, case-sensitive on the path) matched against a
            ``serviceUrl``'s origin (``https://smba.trafficmanager.net``) or the whole URL
            (``https://example.com/bot/*``).
        app_id: with an app id the Bot Framework channel hosts are allowed; without, loopback only.
    """

    def __init__(self, patterns: Iterable[str] = (), *, app_id: str | None = None) -> None:
        self.patterns = tuple(patterns)
        self.loopback = not app_id
        self.defaults = BOT_FRAMEWORK_HOSTS if app_id else ()

    def allows(self, url: str) -> bool:
        """Whether replies may be posted to ``url``."""
        if self.loopback and _is_loopback(url):
            return True
        origin = _origin(url)
        return any(
            fnmatchcase(origin, pattern.rstrip("/")) or fnmatchcase(url, pattern)
            for pattern in (*self.defaults, *self.patterns)
        )

    def describe(self) -> str:
        """What is allowed, for an error message."""
        allowed = ["loopback addresses"] if self.loopback else []
        allowed += [*self.defaults, *self.patterns]
        return ", ".join(allowed) or "nothing"


class RedirectRefusedError(RunError, aiohttp.ClientError):
    """A channel answered a reply with a redirect; replies never follow one."""


def reply_url(service_url: str, conversation_id: str, reply_to_id: str | None) -> str:
    """The Bot Framework reply address under ``service_url``, ids URL-encoded.

    The ``/v3/...`` path is appended to the ``serviceUrl``'s own path; a query string stays at
    the end, where it belongs.
    """
    parts = urlsplit(service_url)
    path = f"{parts.path.rstrip('/')}/v3/conversations/{quote(conversation_id, safe='')}/activities"
    if reply_to_id:
        path += f"/{quote(reply_to_id, safe='')}"
    return urlunsplit((parts.scheme.lower(), parts.netloc, path, parts.query, ""))


class ReplyClient:
    """Posts reply activities to channels with aiohttp (one session, a timeout per request)."""

    def __init__(self, *, timeout: float) -> None:
        self.timeout = timeout
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.timeout),
                connector=aiohttp.TCPConnector(limit=0, limit_per_host=16),
            )
        return self._session

    async def reply(
        self,
        *,
        service_url: str,
        conversation_id: str,
        reply_to_id: str | None,
        activity: Mapping[str, Any],
        token: str | None = None,
    ) -> None:
        """POST one activity to the conversation (as a reply when ``reply_to_id`` is set).

        Raises:
            aiohttp.ClientError: the channel refused it, could not be reached, or answered with
                a redirect (``RedirectRefusedError``).
            TimeoutError: the channel did not answer within the timeout.
        """
        url = reply_url(service_url, conversation_id, reply_to_id)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self._client().post(
            url, json=dict(activity), headers=headers, allow_redirects=False
        ) as response:
            if 300 <= response.status < 400:
                raise RedirectRefusedError(
                    f"the channel answered {response.status} (a redirect to "
                    f"{response.headers.get('Location', '?')!r}); replies never follow redirects"
                )
            if response.status >= 400:
                raise aiohttp.ClientResponseError(
                    response.request_info,
                    response.history,
                    status=response.status,
                    message=f"the channel answered {response.status}",
                )
            await response.read()

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

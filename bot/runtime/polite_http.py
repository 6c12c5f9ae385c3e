"""Reads a public web API politely, as chess.com and lichess.org ask.

Both sites ask the same of a client. It sends one request at a time, since parallel ones get 429.
It sends a User-Agent with contact details. After a 429 it is patient, and lichess asks it to
"wait a full minute". `PoliteReader.get` does that for one URL:

- The lock is held across the retries, so other callers wait too.
- A 200 with an `ETag` is remembered, and the next request for the URL sends `If-None-Match`. A
  304 gives the remembered value.
- A 429, a 5xx, a network failure or a time-out is retried `max_retries` times. It waits for
  `Retry-After` in seconds, or else 1 s, 2 s, 4 s and so on. After a 429 it waits at least
  `rate_limit_wait`.
- A 404 or 410 raises `ApiNotFound` at once, and another 4xx raises `ApiRefused`.

`PoliteClient` is what the chess.com and lichess clients share: their settings, the reader and
closing it.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from importlib import metadata
from types import TracebackType
from typing import Any, ClassVar, Protocol, Self, TypeVar

import aiohttp

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
GONE_STATUSES = frozenset({404, 410})
RATE_LIMITED = 429
CACHE_ENTRIES = 2048
"""At most this many ETag-cached values are kept. The oldest is dropped first."""

Sleep = Callable[[float], Awaitable[None]]
Decoded = TypeVar("Decoded")


def _version() -> str:
    """Arbiter's installed version, or the source tree's when it is not installed."""
    try:
        return metadata.version("arbiter")
    except metadata.PackageNotFoundError:
        return "0.1.0"


VERSION = _version()


def user_agent(contact: str, site: str) -> str:
    """The User-Agent `Arbiter/<version> (<contact>)`.

    Raises ValueError without a contact when `site` requires one.
    """
    contact = contact.strip()
    if not contact:
        raise ValueError(f"{site} requires a contact in the User-Agent: set the contact")
    return f"Arbiter/{VERSION} ({contact})"


class SiteSettings(Protocol):
    """What a polite client needs from its configuration section, `[chesscom]` or `[lichess]`.

    That is the site's address, the operator's contact for the User-Agent, the timeout and how many
    times a failed request is retried.
    """

    @property
    def base_url(self) -> str: ...

    @property
    def contact(self) -> str: ...

    @property
    def timeout_seconds(self) -> float: ...

    @property
    def max_retries(self) -> int: ...


class ApiError(Exception):
    """A request to a web API failed. `url` and, when there was a response, `status` tell which."""

    def __init__(self, message: str, url: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.url = url
        self.status = status


class ApiNotFound(ApiError):
    """The site answered 404 or 410: there is no such match, club, player or user, or no longer."""


class ApiUnavailable(ApiError):
    """The site could not be reached, or kept failing with 429, 5xx or network errors.

    It failed after every retry.
    """


class ApiTimeout(ApiUnavailable):
    """Every attempt timed out."""


class ApiRefused(ApiError):
    """The site refused the request with another 4xx, such as 403 without a User-Agent."""


class ApiPayloadError(ApiError):
    """The site answered 200 with a body that is not what the client reads."""


class PoliteReader:
    """GETs for one API, serialised, cached by ETag and retried.

    Close it, or let the owner of a session passed in close that.
    """

    def __init__(
        self,
        *,
        agent: str,
        accept: str,
        timeout_seconds: float,
        max_retries: int,
        session: aiohttp.ClientSession | None = None,
        sleep: Sleep = asyncio.sleep,
        backoff_seconds: float = 1.0,
        rate_limit_wait: float = 0.0,
    ) -> None:
        if timeout_seconds <= 0:
            raise ValueError("timeout_seconds must be positive")
        if max_retries < 0:
            raise ValueError("max_retries must not be negative")
        self.agent = agent
        self.accept = accept
        self.timeout = aiohttp.ClientTimeout(total=timeout_seconds)
        self.max_retries = max_retries
        self.rate_limit_wait = rate_limit_wait
        self._session = session
        self._owns_session = session is None
        self._sleep = sleep
        self._backoff = backoff_seconds
        self._lock = asyncio.Lock()
        self._cache: dict[str, tuple[str, Any]] = {}

    async def close(self) -> None:
        """Close the session if this reader opened it."""
        if self._owns_session and self._session is not None:
            await self._session.close()
            self._session = None

    def _session_for_request(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
            self._owns_session = True
        return self._session

    async def get(self, url: str, decode: Callable[[str], Decoded]) -> Decoded:
        """Gets `url` and returns its body decoded by `decode`, or the value remembered for a 304.

        A ValueError from `decode` becomes `ApiPayloadError`. One request is in flight at a time.
        """
        async with self._lock:
            return await self._get(url, decode)

    async def _get(self, url: str, decode: Callable[[str], Decoded]) -> Decoded:
        session = self._session_for_request()
        headers = {"User-Agent": self.agent, "Accept": self.accept}
        cached = self._cache.get(url)
        if cached is not None:
            headers["If-None-Match"] = cached[0]
        failure = "no attempt made"
        timed_out = False
        delay = 0.0
        for attempt in range(self.max_retries + 1):
            if attempt:
                await self._sleep(delay)
            delay = self._backoff * 2**attempt
            try:
                async with session.get(url, headers=headers, timeout=self.timeout) as response:
                    if response.status == 304 and cached is not None:
                        self._cache[url] = self._cache.pop(url)  # most recently used last
                        value: Decoded = cached[1]
                        return value
                    if response.status == 200:
                        body = await response.text()
                        return self._remember(url, response.headers.get("ETag"), body, decode)
                    if response.status in GONE_STATUSES:
                        raise ApiNotFound(
                            await _error_message(response, "not found"), url, response.status
                        )
                    if response.status in RETRY_STATUSES:
                        failure = f"HTTP {response.status}"
                        timed_out = False
                        delay = _retry_after(response.headers.get("Retry-After"), delay)
                        if response.status == RATE_LIMITED:
                            delay = max(delay, self.rate_limit_wait)
                        continue
                    raise ApiRefused(
                        await _error_message(response, f"HTTP {response.status}"),
                        url,
                        response.status,
                    )
            except TimeoutError:
                failure = f"no answer within {self.timeout.total:g} s"
                timed_out = True
            except aiohttp.ClientError as error:
                failure = str(error) or type(error).__name__
                timed_out = False
        tries = self.max_retries + 1
        message = f"{failure} (after {tries} attempt{'s' if tries != 1 else ''})"
        if timed_out:
            raise ApiTimeout(message, url)
        raise ApiUnavailable(message, url)

    def _remember(
        self, url: str, etag: str | None, body: str, decode: Callable[[str], Decoded]
    ) -> Decoded:
        try:
            value = decode(body)
        except ValueError as error:
            raise ApiPayloadError(str(error), url, 200) from error
        if etag:
            self._cache.pop(url, None)
            self._cache[url] = (etag, value)
            while len(self._cache) > CACHE_ENTRIES:
                del self._cache[next(iter(self._cache))]
        return value


class PoliteClient:
    """A client of one site over a `PoliteReader`, used as an async context manager.

    Without `async with`, call its close method when done. A session passed in is shared and left
    open.
    """

    SITE: ClassVar[str]
    """The site's name, for the error about a missing contact."""
    ACCEPT: ClassVar[str] = "application/json"
    RATE_LIMIT_WAIT: ClassVar[float] = 0.0
    """Seconds waited after a 429 at the least."""

    def __init__(
        self,
        settings: SiteSettings,
        *,
        session: aiohttp.ClientSession | None = None,
        sleep: Sleep = asyncio.sleep,
        backoff_seconds: float = 1.0,
    ) -> None:
        self.base_url = settings.base_url.rstrip("/")
        self.user_agent = user_agent(settings.contact, self.SITE)
        self.timeout_seconds = settings.timeout_seconds
        self.max_retries = settings.max_retries
        self._reader = PoliteReader(
            agent=self.user_agent,
            accept=self.ACCEPT,
            timeout_seconds=settings.timeout_seconds,
            max_retries=settings.max_retries,
            session=session,
            sleep=sleep,
            backoff_seconds=backoff_seconds,
            rate_limit_wait=self.RATE_LIMIT_WAIT,
        )

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the session if this client opened it."""
        await self._reader.close()


def _retry_after(value: str | None, default: float) -> float:
    """The delay a `Retry-After` header asks for in its seconds form, else the back-off default.

    The default also applies to a value that is not a finite number of seconds, since `inf` would
    never return.
    """
    if value is None:
        return default
    try:
        seconds = float(value.strip())
    except ValueError:
        return default
    return seconds if math.isfinite(seconds) and seconds >= 0 else default


async def _error_message(response: aiohttp.ClientResponse, fallback: str) -> str:
    """The API's own error message when it sent one: chess.com's `{"code": 0, "message": …}`,
    lichess's `{"error": …}`."""
    try:
        data = json.loads(await response.text())
    except (ValueError, aiohttp.ClientError):
        return fallback
    if isinstance(data, dict):
        for key in ("message", "error"):
            if isinstance(data.get(key), str) and data[key]:
                return str(data[key])
    return fallback

"""The chess.com Published-Data API client: one session, one request at a time, polite.

chess.com rate-limits parallel requests and refuses requests without a User-Agent naming a
contact, so every request goes through one lock, carries `Arbiter/<version> (<contact>)`,
reuses ETags (`If-None-Match` → 304 → the cached body), and retries 429 / 5xx / network
failures with back-off (honouring `Retry-After`). 404 / 410 raise `ChessComNotFound` at once.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import metadata
from types import TracebackType
from typing import Any, Protocol, TypeVar
from urllib.parse import quote

import aiohttp
from pydantic import BaseModel, ValidationError

from bot.chesscom.models import (
    ClubMatches,
    ClubMembers,
    ClubProfile,
    MatchBoard,
    PlayerProfile,
    PlayerStats,
    TeamMatch,
)

DEFAULT_BASE_URL = "https://api.chess.com/pub"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
GONE_STATUSES = frozenset({404, 410})
CACHE_ENTRIES = 2048
"""At most this many ETag-cached bodies are kept (the oldest is dropped first)."""

Sleep = Callable[[float], Awaitable[None]]
ModelT = TypeVar("ModelT", bound=BaseModel)


def _version() -> str:
    """Arbiter's installed version, or the source tree's when it is not installed."""
    try:
        return metadata.version("arbiter")
    except metadata.PackageNotFoundError:
        return "0.1.0"


VERSION = _version()


class ChessComSettings(Protocol):
    """What the client needs from configuration (the `[chesscom]` section of config.toml)."""

    @property
    def base_url(self) -> str: ...

    @property
    def contact(self) -> str: ...

    @property
    def timeout_seconds(self) -> float: ...

    @property
    def max_retries(self) -> int: ...


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """Plain client settings, for the CLI and tests (config.toml provides the same fields)."""

    contact: str
    base_url: str = DEFAULT_BASE_URL
    timeout_seconds: float = 10.0
    max_retries: int = 3


class ChessComError(Exception):
    """A request to chess.com failed; `url` and (when there was a response) `status` tell which."""

    def __init__(self, message: str, url: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.url = url
        self.status = status


class ChessComNotFound(ChessComError):
    """chess.com answered 404 or 410: no such match, club or player (or no longer)."""


class ChessComUnavailable(ChessComError):
    """chess.com could not be reached or kept failing (429, 5xx, network) after every retry."""


class ChessComTimeout(ChessComUnavailable):
    """Every attempt timed out."""


class ChessComRefused(ChessComError):
    """chess.com refused the request (another 4xx, e.g. 403 without a User-Agent)."""


class ChessComPayloadError(ChessComError):
    """chess.com answered 200 with a body that is not the JSON Arbiter expects."""


class ChessComClient:
    """An async chess.com API client. Use as `async with ChessComClient(settings) as client:`
    or call `close()`; a session passed in is shared and left open."""

    def __init__(
        self,
        settings: ChessComSettings,
        *,
        session: aiohttp.ClientSession | None = None,
        sleep: Sleep = asyncio.sleep,
        backoff_seconds: float = 1.0,
    ) -> None:
        contact = settings.contact.strip()
        if not contact:
            raise ValueError("chess.com requires a contact in the User-Agent: set the contact")
        if settings.timeout_seconds <= 0:
            raise ValueError("timeout_seconds must be positive")
        if settings.max_retries < 0:
            raise ValueError("max_retries must not be negative")
        self.base_url = settings.base_url.rstrip("/")
        self.user_agent = f"Arbiter/{VERSION} ({contact})"
        self.timeout = aiohttp.ClientTimeout(total=settings.timeout_seconds)
        self.max_retries = settings.max_retries
        self._session = session
        self._owns_session = session is None
        self._sleep = sleep
        self._backoff = backoff_seconds
        self._lock = asyncio.Lock()
        self._cache: dict[str, tuple[str, Any]] = {}

    async def __aenter__(self) -> ChessComClient:
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
        if self._owns_session and self._session is not None:
            await self._session.close()
            self._session = None

    def _session_for_request(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
            self._owns_session = True
        return self._session

    async def get_json(self, path: str) -> Any:
        """GET `base_url + path` and return the decoded JSON (one request in flight at a time)."""
        async with self._lock:
            return await self._get(f"{self.base_url}/{path.lstrip('/')}")

    async def _get(self, url: str) -> Any:
        session = self._session_for_request()
        headers = {"User-Agent": self.user_agent, "Accept": "application/json"}
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
                        return cached[1]
                    if response.status == 200:
                        body = await response.text()
                        return self._remember(url, response.headers.get("ETag"), body)
                    if response.status in GONE_STATUSES:
                        raise ChessComNotFound(
                            await _error_message(response, "not found"), url, response.status
                        )
                    if response.status in RETRY_STATUSES:
                        failure = f"HTTP {response.status}"
                        timed_out = False
                        delay = _retry_after(response.headers.get("Retry-After"), delay)
                        continue
                    raise ChessComRefused(
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
            raise ChessComTimeout(message, url)
        raise ChessComUnavailable(message, url)

    def _remember(self, url: str, etag: str | None, body: str) -> Any:
        try:
            data = json.loads(body)
        except ValueError as error:
            raise ChessComPayloadError(f"the answer is not JSON ({error})", url, 200) from error
        if etag:
            self._cache.pop(url, None)
            self._cache[url] = (etag, data)
            while len(self._cache) > CACHE_ENTRIES:
                del self._cache[next(iter(self._cache))]
        return data

    async def _model(self, model: type[ModelT], path: str) -> ModelT:
        data = await self.get_json(path)
        try:
            return model.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "body"
            raise ChessComPayloadError(
                f"unexpected {model.__name__} payload at {where}: {first['msg']}",
                f"{self.base_url}/{path}",
                200,
            ) from error

    async def team_match(self, match_id: int | str, *, live: bool = False) -> TeamMatch:
        """A daily team match (`/match/{id}`) or a live one (`/match/live/{id}`)."""
        return await self._model(TeamMatch, _match_path(match_id, live))

    async def match_board(
        self, match_id: int | str, board: int, *, live: bool = False
    ) -> MatchBoard:
        """One board of a team match with its games."""
        return await self._model(MatchBoard, f"{_match_path(match_id, live)}/{int(board)}")

    async def club(self, url_id: str) -> ClubProfile:
        """A club's profile."""
        return await self._model(ClubProfile, f"club/{_segment(url_id)}")

    async def club_members(self, url_id: str) -> ClubMembers:
        """A club's members (weekly, monthly and all-time activity groups)."""
        return await self._model(ClubMembers, f"club/{_segment(url_id)}/members")

    async def club_matches(self, url_id: str) -> ClubMatches:
        """A club's team matches by state."""
        return await self._model(ClubMatches, f"club/{_segment(url_id)}/matches")

    async def player(self, username: str) -> PlayerProfile:
        """A player's profile (status tells a closed account)."""
        return await self._model(PlayerProfile, f"player/{_segment(username)}")

    async def player_stats(self, username: str) -> PlayerStats:
        """A player's statistics (daily rating and timeout percentage)."""
        return await self._model(PlayerStats, f"player/{_segment(username)}/stats")


def _segment(value: str) -> str:
    """A username or url-id as one lowercase, escaped URL path segment."""
    value = value.strip().lower()
    if not value:
        raise ValueError("an empty name or id")
    return quote(value, safe="")


def _match_path(match_id: int | str, live: bool) -> str:
    text = str(match_id).strip()
    if not text.isdigit():
        raise ValueError(f"{match_id!r} is not a chess.com match id (digits only)")
    return f"match/live/{text}" if live else f"match/{text}"


def _retry_after(value: str | None, default: float) -> float:
    """The delay a `Retry-After` header asks for (seconds form), else the back-off default
    (also for a value that is not a finite number of seconds: `inf` would never return)."""
    if value is None:
        return default
    try:
        seconds = float(value.strip())
    except ValueError:
        return default
    return seconds if math.isfinite(seconds) and seconds >= 0 else default


async def _error_message(response: aiohttp.ClientResponse, fallback: str) -> str:
    """chess.com's own error message (`{"code": 0, "message": ...}`) when it sent one."""
    try:
        data = json.loads(await response.text())
    except (ValueError, aiohttp.ClientError):
        return fallback
    if isinstance(data, dict) and isinstance(data.get("message"), str) and data["message"]:
        return str(data["message"])
    return fallback

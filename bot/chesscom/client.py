"""The chess.com Published-Data API client: one session, one request at a time, polite.

chess.com rate-limits parallel requests and refuses requests without a User-Agent naming a
contact, so every request goes through one `PoliteReader` (`bot.runtime.polite_http`): one lock,
`Arbiter/<version> (<contact>)`, ETags reused (`If-None-Match` → 304 → the cached body), and
429 / 5xx / network failures retried with back-off (honouring `Retry-After`). 404 / 410 raise
`ApiNotFound` at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar
from urllib.parse import quote

from pydantic import BaseModel, ValidationError

from bot.chesscom.models import (
    ClubMatches,
    ClubMembers,
    ClubProfile,
    GameArchive,
    MatchBoard,
    PlayerProfile,
    PlayerStats,
    TeamMatch,
)
from bot.runtime.polite_http import VERSION as VERSION
from bot.runtime.polite_http import PoliteClient, SiteSettings

DEFAULT_BASE_URL = "https://api.chess.com/pub"
FIRST_ARCHIVE_YEAR = 2005
"""No chess.com game archive is older. The site opened in 2005."""

ModelT = TypeVar("ModelT", bound=BaseModel)


ChessComSettings = SiteSettings
"""What the client needs from configuration, the `[chesscom]` section of config.toml."""


@dataclass(frozen=True, slots=True)
class ClientSettings:
    """Plain client settings for the CLI and tests. config.toml provides the same fields."""

    contact: str
    base_url: str = DEFAULT_BASE_URL
    timeout_seconds: float = 10.0
    max_retries: int = 3


class ChessComClient(PoliteClient):
    """An async chess.com API client. Use as `async with ChessComClient(settings) as client:`
    or call `close()`. A session passed in is shared and left open."""

    SITE = "chess.com"

    async def get_json(self, path: str) -> Any:
        """GETs `base_url + path` and returns the decoded JSON, with one request in flight at a
        time.
        """
        return await self._reader.get(f"{self.base_url}/{path.lstrip('/')}", _json)

    async def _model(self, model: type[ModelT], path: str) -> ModelT:
        """GETs `path` as `model`, parsing and validating the body in one pass.

        It uses pydantic-core's JSON reader rather than `json.loads` and then the model, since this
        is the hot path of every import. The frozen model is kept for a 304.
        """
        url = f"{self.base_url}/{path.lstrip('/')}"
        return await self._reader.get(url, lambda body: _validated(model, body))

    async def team_match(self, match_id: int | str, *, live: bool = False) -> TeamMatch:
        """A daily team match at `/match/{id}` or a live one at `/match/live/{id}`."""
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
        """A club's members in the weekly, monthly and all-time activity groups."""
        return await self._model(ClubMembers, f"club/{_segment(url_id)}/members")

    async def club_matches(self, url_id: str) -> ClubMatches:
        """A club's team matches by state."""
        return await self._model(ClubMatches, f"club/{_segment(url_id)}/matches")

    async def player(self, username: str) -> PlayerProfile:
        """A player's profile. Its status tells a closed account."""
        return await self._model(PlayerProfile, f"player/{_segment(username)}")

    async def player_stats(self, username: str) -> PlayerStats:
        """A player's statistics: the daily rating and the timeout percentage."""
        return await self._model(PlayerStats, f"player/{_segment(username)}/stats")

    async def player_games(self, username: str, year: int, month: int) -> GameArchive:
        """The games a player finished in one month, from `/player/{name}/games/{YYYY}/{MM}`.

        This monthly archive holds live and daily games, each with its PGN.
        """
        return await self._model(GameArchive, archive_path(username, year, month))


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


def archive_path(username: str, year: int, month: int) -> str:
    """The API path of a player's monthly game archive.

    Raises ValueError for a month that cannot have one, before chess.com existed or not a month.
    """
    if not 1 <= month <= 12 or not FIRST_ARCHIVE_YEAR <= year <= date.max.year:
        raise ValueError(f"{year}/{month} is not a month with a chess.com game archive")
    return f"player/{_segment(username)}/games/{year:04d}/{month:02d}"


def _validated(model: type[ModelT], body: str) -> ModelT:
    """`body` as `model`, or ValueError naming why not: not JSON, or where the JSON differs."""
    try:
        return model.model_validate_json(body)
    except ValidationError as error:
        first = error.errors()[0]
        if first["type"] == "json_invalid":
            raise ValueError(f"the answer is not JSON ({first['msg']})") from None
        where = ".".join(str(part) for part in first["loc"]) or "body"
        message = f"unexpected {model.__name__} payload at {where}: {first['msg']}"
        raise ValueError(message) from None


def _json(body: str) -> Any:
    """A response body as JSON, or ValueError naming why it is not."""
    try:
        return json.loads(body)
    except ValueError as error:
        raise ValueError(f"the answer is not JSON ({error})") from None

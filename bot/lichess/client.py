"""The lichess.org game-export client: one session, one request at a time, polite.

lichess asks API clients to "only make one request at a time" and, after a 429, to "wait a
full minute before resuming API usage". A User-Agent names the operator. So every request goes
through one `PoliteReader` of `bot.runtime.polite_http`. It holds one lock and sends a User-Agent
with the operator's contact. It reuses ETags when lichess sends one and retries 5xx and network
failures with back-off. After a 429 it waits at least a minute, longer if `Retry-After` says so.
A 404 raises `ApiNotFound` at once. Games come as NDJSON, asked for with
`Accept: application/x-ndjson`, with the PGN in each object through `pgnInJson=true`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote, urlencode

from pydantic import ValidationError

from bot.lichess.models import LichessGame
from bot.runtime.polite_http import PoliteClient, SiteSettings

DEFAULT_BASE_URL = "https://lichess.org"
NDJSON = "application/x-ndjson"
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,29}$")
"""A lichess username: up to 30 letters, digits, `_` and `-`, starting with a letter or digit."""


LichessSettings = SiteSettings
"""What the client needs from configuration, the `[lichess]` section of config.toml."""


@dataclass(frozen=True, slots=True)
class LichessClientSettings:
    """Plain client settings for tests and tools. config.toml provides the same fields."""

    contact: str
    base_url: str = DEFAULT_BASE_URL
    timeout_seconds: float = 10.0
    max_retries: int = 3


def check_username(name: str) -> str:
    """`name` stripped if it can be a lichess username, else ValueError saying why."""
    value = name.strip()
    if not USERNAME.match(value):
        raise ValueError(
            f"{value[:40]!r} is not a lichess username (up to 30 letters, digits, _ or -)"
        )
    return value


def millis(instant: datetime) -> int:
    """An aware instant as lichess's milliseconds since the epoch."""
    if instant.tzinfo is None:
        raise ValueError("lichess timestamps need a timezone-aware instant")
    return int(instant.timestamp() * 1000)


def games_from_ndjson(body: str) -> list[LichessGame]:
    """The games of an NDJSON body, skipping blank lines, or ValueError naming a bad line."""
    games = []
    for number, line in enumerate(body.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            games.append(LichessGame.model_validate(json.loads(line)))
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "body"
            raise ValueError(f"line {number}: unexpected game at {where}: {first['msg']}") from None
        except ValueError as error:
            raise ValueError(f"line {number}: not JSON ({error})") from None
    return games


class LichessClient(PoliteClient):
    """An async lichess client, used as an async context manager.

    Without `async with`, call its close method when done. A session passed in is shared and left
    open.
    """

    SITE = "lichess"
    ACCEPT = NDJSON
    RATE_LIMIT_WAIT = 60.0
    """Seconds waited after a 429 at the least: lichess asks for a full minute."""

    def user_games_url(
        self,
        username: str,
        *,
        vs: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> str:
        """The export URL of a user's finished games, each with its PGN.

        It asks for games against `vs`, played in [since, until]. Raises ValueError for a name that
        is not a lichess username.
        """
        query: dict[str, str] = {}
        if vs is not None:
            query["vs"] = check_username(vs)
        if since is not None:
            query["since"] = str(millis(since))
        if until is not None:
            query["until"] = str(millis(until))
        query |= {"finished": "true", "pgnInJson": "true", "clocks": "false", "evals": "false"}
        name = quote(check_username(username), safe="")
        return f"{self.base_url}/api/games/user/{name}?{urlencode(query)}"

    async def user_games(
        self,
        username: str,
        *,
        vs: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LichessGame]:
        """A user's finished games from `/api/games/user/{username}`, most recent first, each with
        its PGN.

        With `vs`, `since` and `until`, only games against that user and played in that window are
        read.
        """
        url = self.user_games_url(username, vs=vs, since=since, until=until)
        return await self._reader.get(url, games_from_ndjson)

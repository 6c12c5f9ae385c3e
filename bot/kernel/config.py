"""Arbiter's configuration: `config.toml` validated into immutable pydantic models.

A missing file means every default. A bad file raises `ConfigError` with one line naming the key and
the problem, so the CLI can print it and exit 2 without a traceback.
"""

from __future__ import annotations

import datetime as dt
import os
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)

from bot.formats.numbers import Count, Number
from bot.formats.plain_words import plain, suggestion, unknown_first
from bot.formats.rule_fields import HHMM, rule_fields, season_rules
from bot.kernel.request_limits import MAX_RETRIES, MAX_TIMEOUT_SECONDS
from core.league import season as league
from core.league.season import START_ZONE
from core.tour.appeals import DEADLINE_TIME, DEFAULT_APPEAL_ZONE
from core.tour.disconnections import RECONNECT_WINDOW
from core.tour.prizes import AMBASSADOR_POOL_MINIMUM
from core.tour.qualification import TOP_OF_STANDINGS, size_problems
from core.tour.ranking import DEFAULT_POINTS_TABLES, EVENT_SIZES, EventType
from core.tour.rules import (
    CONFIRM_HOURS,
    MAX_REMINDER_MINUTES,
    ROUND_REMINDER_MINUTES,
    SESSION_START,
    TourRules,
)

DEFAULT_PATH = Path("config.toml")
TOKEN_ENV = "DISCORD_TOKEN"
CHESSCOM_URL_ENV = "ARBITER_CHESSCOM_URL"
CHESSCOM_CONTACT_ENV = "ARBITER_CHESSCOM_CONTACT"
DISCORD_API_ENV = "ARBITER_DISCORD_API"
DATABASE_URL_ENV = "ARBITER_DATABASE_URL"
"""A PostgreSQL URL that replaces the file's database, so its password need not sit in a file."""
DISCORD_API = "https://discord.com/api/v10"

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class ConfigError(Exception):
    """A configuration file that cannot be used. `str()` is the one-line explanation."""


class _Section(BaseModel):
    """Base of config sections: immutable, and an unknown key is an error, which catches typos."""

    model_config = ConfigDict(frozen=True, extra="forbid")


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class DatabaseConfig(_Section):
    """Where the database is, and how long SQLite's writer waits for its lock.

    The database is either a SQLite file at `path`, the embedded default, or a PostgreSQL server at
    `url`.
    """

    path: Path = Field(Path("data/arbiter.db"), description="SQLite file; its folder is created")
    url: str | None = Field(
        None, description="PostgreSQL server instead of a file: postgresql://user@host/database"
    )
    busy_timeout_ms: Count = Field(5000, ge=0, description="wait this long for a locked database")

    @field_validator("url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(POSTGRES_SCHEMES):
            raise ValueError("must be a postgresql:// URL (a SQLite file is database.path)")
        if not value.isprintable() or " " in value:
            raise ValueError("must be a URL without spaces or control characters")
        return value

    @model_validator(mode="after")
    def _path_or_url(self) -> Self:
        if self.url is not None and "path" in self.model_fields_set:
            raise ValueError("give database.path (SQLite) or database.url (PostgreSQL), not both")
        return self

    @property
    def location(self) -> Path | str:
        """What `storage.engine.locations.open_database` opens: the URL, else the file's path."""
        return self.url if self.url is not None else self.path

    @property
    def key(self) -> str:
        """The key naming the database in messages: `database.url` or `database.path`."""
        return "database.url" if self.url is not None else "database.path"


class TimeZones(_Section):
    """The zones in which the regulations state their times. Stored instants are UTC."""

    league_start: str = Field(START_ZONE, description="CL-13/CL-22 start time zone")
    appeals: str = Field(DEFAULT_APPEAL_ZONE, description="CCT-11 appeal deadline zone")

    @field_validator("league_start", "appeals")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r} (use an IANA name)") from None
        return value


def _clock(text: str) -> dt.time:
    """An `HH:MM` setting, validated by its pattern, as a time of day."""
    return dt.time.fromisoformat(text)


CL_LEFT_OUT = tuple(f.name for f in league.rule_settings() if not f.metadata["config"])
"""`SeasonRules` fields the config does not set as such.

A season's cut-off is given when it is created with `/season create cutoff`, and its zone is
`timezones.league_start`.
"""


class _ClSettings(_Section):
    """CL defaults frozen into each new season by CCT-16.

    They are every `SeasonRules` field but `CL_LEFT_OUT`, generated from it by
    `bot.formats.rule_fields`, plus the divisions new seasons start with. A value below the
    regulation's floor, such as fewer than CL-23's 3 voters, is refused.
    """

    divisions: list[str] = Field(
        default_factory=lambda: ["Premier Division", "Division One", "Division Two"],
        min_length=1,
        description="CL-7, in order",
    )
    min_players: list[Count] = Field(
        default_factory=lambda: [15, 11, 5], description="CL-9..11, one per division"
    )

    @model_validator(mode="after")
    def _honourable(self) -> Self:
        """Refuses what core cannot honour, naming the key. ConfigError adds the file."""
        for key, problem in league.rules_problems(self.season_rules()):
            raise ValueError(f"{key}: {problem}")
        if len(self.min_players) != len(self.divisions):
            raise ValueError(
                f"min_players: needs one value per division ({len(self.divisions)}),"
                f" got {len(self.min_players)}"
            )
        if any(n < 1 for n in self.min_players):
            raise ValueError("min_players: every division needs at least 1 player (CL-9..11)")
        if len(set(self.divisions)) != len(self.divisions) or not all(self.divisions):
            raise ValueError("divisions: names must be different and not empty (CL-7)")
        return self

    def season_rules(
        self, zone: str = START_ZONE, cutoff: dt.date | None = None
    ) -> league.SeasonRules:
        """CCT-16: every rule value a new season freezes, which are the season file's `rules`.

        Its matches start at `start_time` in `zone`, the config's `timezones.league_start`. Its
        divisions are decided by the standings as at `cutoff`, by CL-1.
        """
        return season_rules(dict(self), start_zone=zone, divisions_cutoff=cutoff)

    def season_divisions(self) -> tuple[league.Division, ...]:
        """CL-7, CL-9..11: a new season's divisions, best first, before clubs register."""
        return tuple(
            league.Division(name, minimum, ())
            for name, minimum in zip(self.divisions, self.min_players, strict=True)
        )

    def start_clock(self) -> dt.time:
        """CL-13: the local start time of every match, for `division_schedule(at=…)`."""
        return self.season_rules().start_time

    def timeout_limit(self) -> Fraction:
        """CL-21: the timeout percentage above which a removal is justified, exactly."""
        return self.season_rules().timeout_ratio_limit_percent


if TYPE_CHECKING:
    ClDefaults = _ClSettings
else:
    ClDefaults = create_model(
        "ClDefaults",
        __base__=_ClSettings,
        __doc__=_ClSettings.__doc__,
        __module__=__name__,
        **rule_fields(leave_out=CL_LEFT_OUT),
    )


class CctDefaults(_Section):
    """CCT defaults frozen into each new event by CCT-16."""

    regular_players: Count = Field(EVENT_SIZES[EventType.REGULAR], ge=2, description="CCT-2")
    major_players: Count = Field(EVENT_SIZES[EventType.MAJOR], ge=2, description="CCT-2")
    finals_players: Count = Field(EVENT_SIZES[EventType.FINALS], ge=2, description="CCT-2")
    qualifying_top: Count = Field(TOP_OF_STANDINGS, ge=0, description="CCT-3")
    appeal_deadline: str = Field(
        DEADLINE_TIME.strftime("%H:%M"), pattern=HHMM, description="CCT-11"
    )
    reconnect_seconds: Count = Field(
        int(RECONNECT_WINDOW.total_seconds()), ge=0, le=3600, description="CCT-10"
    )
    confirm_hours: Count = Field(
        CONFIRM_HOURS, ge=1, le=24 * 14, description="a report waits this long for the opponent"
    )
    session_start: str = Field(
        SESSION_START.strftime("%H:%M"), pattern=HHMM, description="sessions start, appeals zone"
    )
    round_reminder_minutes: Count = Field(
        ROUND_REMINDER_MINUTES,
        ge=1,
        le=MAX_REMINDER_MINUTES,
        description="a round's pairings are posted, its players pinged, this long before it",
    )
    ambassador_pool: Count = Field(
        AMBASSADOR_POOL_MINIMUM, ge=AMBASSADOR_POOL_MINIMUM, description="CCT-5, US dollars"
    )

    @model_validator(mode="after")
    def _sizes_hold_the_qualified(self) -> Self:
        """CCT-3: refuses at start-up event sizes that cannot hold the players qualified by right,
        naming the key.

        Otherwise a failing wrap-up would find it weeks later.
        """
        for kind, problem in size_problems(
            {kind: self.event_size(kind) for kind in EventType}, self.qualifying_top
        ):
            raise ValueError(f"{kind.value}_players: {problem}")
        return self

    def tour_rules(self, appeal_zone: str = DEFAULT_APPEAL_ZONE) -> TourRules:
        """CCT-16: every rule value a new tour freezes.

        Its appeal deadline is in `appeal_zone`, the config's `timezones.appeals`.
        """
        return TourRules(
            sizes={kind: self.event_size(kind) for kind in EventType},
            qualifying_top=self.qualifying_top,
            points=dict(DEFAULT_POINTS_TABLES),
            appeal_deadline=self.appeal_clock(),
            appeal_zone=appeal_zone,
            reconnect_seconds=self.reconnect_seconds,
            confirm_hours=self.confirm_hours,
            session_start=_clock(self.session_start),
            ambassador_pool=self.ambassador_pool,
            round_reminder_minutes=self.round_reminder_minutes,
        )

    def event_size(self, event_type: EventType) -> int:
        """CCT-2: the players of a new event of this type, for `qualify_for_event(size=…)`."""
        return {
            EventType.REGULAR: self.regular_players,
            EventType.MAJOR: self.major_players,
            EventType.FINALS: self.finals_players,
        }[event_type]

    def appeal_clock(self) -> dt.time:
        """CCT-11: the local time of the appeal deadline, for `decide_appeal(at=…)`."""
        return _clock(self.appeal_deadline)

    def reconnect_window(self) -> dt.timedelta:
        """CCT-10: the reconnection window, for `disconnection_outcome(window=…)`."""
        return dt.timedelta(seconds=self.reconnect_seconds)


class RuleDefaults(_Section):
    """Rule settings new seasons and events start from, the defaults of docs/rules.md."""

    cl: ClDefaults = Field(default_factory=ClDefaults)
    cct: CctDefaults = Field(default_factory=CctDefaults)


class ChessComConfig(_Section):
    """How to reach chess.com's Published-Data API, which `bot` clients read."""

    base_url: str = Field("https://api.chess.com/pub", pattern=r"^https?://")
    contact: str = Field("", description="operator contact, sent in the User-Agent")
    timeout_seconds: Number = Field(10.0, gt=0, le=MAX_TIMEOUT_SECONDS, description="per request")
    max_retries: Count = Field(3, ge=0, le=MAX_RETRIES, description="on 429 / 5xx / network")
    poll_minutes: Count = Field(
        60, ge=1, le=24 * 60, description="how often open matches are read from chess.com"
    )


class LichessConfig(_Section):
    """How to reach lichess.org's public API, whose game export `bot.lichess` reads.

    An empty `contact` means the `[chesscom]` one, since one operator has one address, as
    `Config.lichess_settings` applies it.
    """

    base_url: str = Field("https://lichess.org", pattern=r"^https?://")
    contact: str = Field("", description="operator contact for the User-Agent; '' = chesscom's")
    timeout_seconds: Number = Field(10.0, gt=0, le=MAX_TIMEOUT_SECONDS, description="per request")
    max_retries: Count = Field(3, ge=0, le=MAX_RETRIES, description="on 429 / 5xx / network")


class DiscordConfig(_Section):
    """Where Discord's HTTP API is. The gateway's address is asked of it with `GET /gateway/bot`.

    Only tests change it, to run the real program against a local stand-in.
    """

    api_base: str = Field(
        DISCORD_API, pattern=r"^https?://[^\s/]+(/\S*)?$", description="REST API root, versioned"
    )

    @field_validator("api_base")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")


WEB_HOST = "127.0.0.1"
WEB_PORT = 8080
WEB_RATE = 600
"""Requests a minute one address may make to the public site, with a burst of a tenth of it."""


class WebConfig(_Section):
    """The public web site: where `arbiter run` serves it and the address people reach it at.

    The site is off while the configuration has no `[web]` table. A guild is shown only once its
    HQ turns it on with `/setup web`.
    """

    host: str = Field(WEB_HOST, min_length=1, description="address to listen on")
    port: Count = Field(WEB_PORT, ge=0, le=65535, description="TCP port; 0 takes any free one")
    base_url: str | None = Field(
        None, description="the site's public address, such as https://arbiter.example.org"
    )
    requests_per_minute: Count = Field(
        WEB_RATE, ge=1, le=1_000_000, description="per client address; more are answered 429"
    )

    @field_validator("host")
    @classmethod
    def _plain_host(cls, value: str) -> str:
        if not value.isprintable() or " " in value or "/" in value:
            raise ValueError("must be a host name or an IP address, such as 127.0.0.1")
        return value

    @field_validator("base_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.isprintable() or " " in value or "?" in value or "#" in value:
            raise ValueError("must be a web address without spaces, query or fragment")
        if not value.startswith(("http://", "https://")) or len(value.split("/")[2]) == 0:
            raise ValueError("must be a web address starting with http:// or https://")
        return value.rstrip("/")


class Config(_Section):
    """The whole configuration of one Arbiter instance."""

    token: str | None = Field(None, description=f"bot token; {TOKEN_ENV} overrides it")
    log_level: LogLevel = "INFO"
    sync_guild: Count | None = Field(None, gt=0, description="default guild for `arbiter sync`")
    database: DatabaseConfig = Field(default_factory=DatabaseConfig)
    timezones: TimeZones = Field(default_factory=TimeZones)
    rules: RuleDefaults = Field(default_factory=RuleDefaults)
    chesscom: ChessComConfig = Field(default_factory=ChessComConfig)
    lichess: LichessConfig = Field(default_factory=LichessConfig)
    discord: DiscordConfig = Field(default_factory=DiscordConfig)
    web: WebConfig | None = Field(None, description="the public web site; no [web] table: off")

    def lichess_settings(self) -> LichessConfig:
        """The `[lichess]` settings with the contact filled in from `[chesscom]` when empty."""
        if self.lichess.contact.strip():
            return self.lichess
        return self.lichess.model_copy(update={"contact": self.chesscom.contact})

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("token", mode="before")
    @classmethod
    def _blank_token(cls, value: object) -> object:
        """A token of spaces is no token, as with `DISCORD_TOKEN='   '` or `token = ""`.

        A real one is used without the spaces or line break a copy and paste may add.
        """
        if isinstance(value, str):
            return value.strip() or None
        return value


_PATTERNS = {r"^https?://": "must be a web address starting with http:// or https://"}
"""What each pattern of the configuration means, in words."""


def _key(problem: Any) -> str:
    return ".".join(str(part) for part in problem["loc"]) or "(top level)"


def _describe(problem: Any) -> str:
    """One problem as `key.path: what is wrong`, in plain words.

    A section's own check that names its key says it under that key.
    """
    key = _key(problem)
    message = plain(problem, _PATTERNS, table=key)
    if problem["type"] == "value_error":
        field, colon, rest = message.partition(": ")
        if colon and field.isidentifier():  # a section's check naming its key
            key, message = f"{key}.{field}", rest
    return f"{key}: {message}"


def load_config(path: Path | None = None, environ: dict[str, str] | None = None) -> Config:
    """Reads `path` and applies the environment.

    The default path is `./config.toml`, and a missing file means the defaults. `DISCORD_TOKEN`
    replaces `token`, `ARBITER_CHESSCOM_URL` replaces `chesscom.base_url`,
    `ARBITER_CHESSCOM_CONTACT` replaces `chesscom.contact`, and `ARBITER_DISCORD_API` replaces
    `discord.api_base`. `ARBITER_DATABASE_URL` replaces `database.url`, and the file's
    `database.path` is then not used.
    """
    env = os.environ if environ is None else environ
    path = DEFAULT_PATH if path is None else path
    data: dict[str, object] = {}
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a BOM is not TOML
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{path}: not valid TOML: {error}") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{path}: not UTF-8 text") from None
        except OSError as error:
            raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    from_env: dict[tuple[str, ...], str] = {}  # key → the variable its value came from
    if env.get(TOKEN_ENV, "").strip():  # a blank DISCORD_TOKEN is no token
        data["token"] = env[TOKEN_ENV]
        from_env[("token",)] = TOKEN_ENV
    chesscom = data.setdefault("chesscom", {})
    if isinstance(chesscom, dict):
        for variable, key in ((CHESSCOM_URL_ENV, "base_url"), (CHESSCOM_CONTACT_ENV, "contact")):
            if env.get(variable):
                chesscom[key] = env[variable]
                from_env[("chesscom", key)] = variable
    database = data.setdefault("database", {})
    if isinstance(database, dict) and env.get(DATABASE_URL_ENV, "").strip():
        database.pop("path", None)
        database["url"] = env[DATABASE_URL_ENV].strip()
        from_env[("database", "url")] = DATABASE_URL_ENV
    discord = data.setdefault("discord", {})
    if isinstance(discord, dict) and env.get(DISCORD_API_ENV):
        discord["api_base"] = env[DISCORD_API_ENV]
        from_env[("discord", "api_base")] = DISCORD_API_ENV
    try:
        config = Config.model_validate(data)
    except ValidationError as error:
        said: dict[str, list[str]] = {}  # every problem, by where its value came from
        problems = unknown_first(error.errors())
        for problem in problems:
            loc = tuple(str(part) for part in problem["loc"])
            source = f"environment variable {from_env[loc]}" if loc in from_env else str(path)
            said.setdefault(source, []).append(_describe(problem) + suggestion(problem, problems))
        raise ConfigError(
            "; ".join(f"{source}: {'; '.join(problems)}" for source, problems in said.items())
        ) from None
    return config

"""Arbiter's configuration: `config.toml` validated into immutable pydantic models.

A missing file means every default; a bad file raises `ConfigError` with one line naming the
key and the problem, so the CLI can print it and exit 2 without a traceback.
"""

from __future__ import annotations

import datetime as dt
import os
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.formats.numbers import Count, Number
from core.league import season as league
from core.league.registration import MIN_ADMINS
from core.league.roster import TIMEOUT_LIMIT_PERCENT
from core.league.season import START_TIME, START_ZONE
from core.tour.appeals import DEADLINE_TIME, DEFAULT_APPEAL_ZONE
from core.tour.disconnections import RECONNECT_WINDOW
from core.tour.prizes import AMBASSADOR_POOL_MINIMUM
from core.tour.qualification import TOP_OF_STANDINGS
from core.tour.ranking import DEFAULT_POINTS_TABLES, EVENT_SIZES, EventType
from core.tour.rules import (
    CONFIRM_HOURS,
    MAX_REMINDER_MINUTES,
    ROUND_REMINDER_MINUTES,
    SESSION_START,
    TourRules,
)
from core.votes import MINIMUM_VOTERS, VOTE_HOURS

DEFAULT_PATH = Path("config.toml")
TOKEN_ENV = "DISCORD_TOKEN"
CHESSCOM_URL_ENV = "ARBITER_CHESSCOM_URL"
CHESSCOM_CONTACT_ENV = "ARBITER_CHESSCOM_CONTACT"
DISCORD_API_ENV = "ARBITER_DISCORD_API"
DISCORD_API = "https://discord.com/api/v10"

HHMM = r"^([01]\d|2[0-3]):[0-5]\d$"
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class ConfigError(Exception):
    """A configuration file that cannot be used; `str()` is the one-line explanation."""


class _Section(BaseModel):
    """Base of config sections: immutable, and an unknown key is an error (catches typos)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class DatabaseConfig(_Section):
    """Where the database is — a SQLite file (`path`, the embedded default) or a PostgreSQL
    server (`url`), one or the other — and how long SQLite's writer waits for its lock."""

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
        """What `storage.locations.open_database` opens: the URL, else the file's path."""
        return self.url if self.url is not None else self.path

    @property
    def key(self) -> str:
        """The key naming the database in messages: `database.url` or `database.path`."""
        return "database.url" if self.url is not None else "database.path"


class TimeZones(_Section):
    """The zones in which the regulations state their times (stored instants are UTC)."""

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


MAX_RETRIES = 10
"""chesscom.max_retries: more would keep a command waiting minutes on a failing API."""


def _clock(text: str) -> dt.time:
    """An `HH:MM` setting (validated by its pattern) as a time of day."""
    return dt.time.fromisoformat(text)


class ClDefaults(_Section):
    """CL defaults frozen into each new season (CCT-16): the season file's `rules` plus the
    settings core's CL functions take as parameters."""

    games_per_board: Count = Field(league.GAMES_PER_BOARD, ge=1, description="CL-14")
    challenge_deadline_hours: Count = Field(
        league.CHALLENGE_DEADLINE_HOURS,
        ge=0,
        le=league.MAX_CHALLENGE_DEADLINE_HOURS,
        description="CL-15",
    )
    max_members: Count = Field(league.MAX_MEMBERS, ge=1, description="CL-5")
    max_avg_rating: Number = Field(league.MAX_AVG_RATING, gt=0, description="CL-6")
    forfeits_to_disqualify: Count = Field(league.FORFEITS_TO_DISQUALIFY, ge=1, description="CL-DQ")
    start_time: str = Field(START_TIME.strftime("%H:%M"), pattern=HHMM, description="CL-13")
    divisions: list[str] = Field(
        default_factory=lambda: ["Premier Division", "Division One", "Division Two"],
        min_length=1,
        description="CL-7, in order",
    )
    min_players: list[Count] = Field(
        default_factory=lambda: [15, 11, 5], description="CL-9..11, one per division"
    )
    clubs_per_division: Count = Field(13, ge=2, description="CL-12")
    promoted: Count = Field(3, ge=0, description="CL-8")
    relegated: Count = Field(3, ge=0, description="CL-8")
    min_club_admins: Count = Field(MIN_ADMINS, ge=1, description="CL-2..4")
    timeout_ratio_limit_percent: Number = Field(
        float(TIMEOUT_LIMIT_PERCENT), ge=0, le=100, description="CL-21"
    )
    vote_deadline_hours: Count = Field(VOTE_HOURS, ge=1, description="CL-23")
    vote_quorum: Count = Field(MINIMUM_VOTERS, ge=1, description="CL-23")
    reminder_hours: list[Count] = Field(
        default_factory=lambda: list(league.REMINDER_HOURS),
        max_length=10,
        description="CL-15: reminders this many hours before the challenge deadline",
    )

    @model_validator(mode="after")
    def _honourable(self) -> Self:
        """Refuse what core cannot honour, naming the key (ConfigError adds the file)."""
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

    def season_rules(self, zone: str = START_ZONE) -> league.SeasonRules:
        """CCT-16: every rule value a new season freezes (the season file's `rules`), its
        matches starting at `start_time` in `zone` (the config's `timezones.league_start`)."""
        return league.SeasonRules(
            games_per_board=self.games_per_board,
            challenge_deadline_hours=self.challenge_deadline_hours,
            max_members=self.max_members,
            max_avg_rating=self.max_avg_rating,
            forfeits_to_disqualify=self.forfeits_to_disqualify,
            promoted=self.promoted,
            relegated=self.relegated,
            reminder_hours=tuple(self.reminder_hours),
            vote_deadline_hours=self.vote_deadline_hours,
            vote_quorum=self.vote_quorum,
            min_club_admins=self.min_club_admins,
            timeout_ratio_limit_percent=self.timeout_limit(),
            clubs_per_division=self.clubs_per_division,
            start_time=self.start_clock(),
            start_zone=zone,
        )

    def season_divisions(self) -> tuple[league.Division, ...]:
        """CL-7, CL-9..11: a new season's divisions, best first, before clubs register."""
        return tuple(
            league.Division(name, minimum, ())
            for name, minimum in zip(self.divisions, self.min_players, strict=True)
        )

    def start_clock(self) -> dt.time:
        """CL-13: the local start time of every match (`division_schedule(at=…)`)."""
        return _clock(self.start_time)

    def timeout_limit(self) -> Fraction:
        """CL-21: the timeout percentage above which a removal is justified, exactly."""
        return league.exact_percent(self.timeout_ratio_limit_percent)


class CctDefaults(_Section):
    """CCT defaults frozen into each new event (CCT-16)."""

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

    def tour_rules(self, appeal_zone: str = DEFAULT_APPEAL_ZONE) -> TourRules:
        """CCT-16: every rule value a new tour freezes, its appeal deadline in `appeal_zone`
        (the config's `timezones.appeals`)."""
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
        """CCT-2: the players of a new event of this type (`qualify_for_event(size=…)`)."""
        return {
            EventType.REGULAR: self.regular_players,
            EventType.MAJOR: self.major_players,
            EventType.FINALS: self.finals_players,
        }[event_type]

    def appeal_clock(self) -> dt.time:
        """CCT-11: the local time of the appeal deadline (`decide_appeal(at=…)`)."""
        return _clock(self.appeal_deadline)

    def reconnect_window(self) -> dt.timedelta:
        """CCT-10: the reconnection window (`disconnection_outcome(window=…)`)."""
        return dt.timedelta(seconds=self.reconnect_seconds)


class RuleDefaults(_Section):
    """Rule settings new seasons and events start from (RULES.md values)."""

    cl: ClDefaults = Field(default_factory=ClDefaults)
    cct: CctDefaults = Field(default_factory=CctDefaults)


class ChessComConfig(_Section):
    """How to reach chess.com's Published-Data API (read by `bot` clients)."""

    base_url: str = Field("https://api.chess.com/pub", pattern=r"^https?://")
    contact: str = Field("", description="operator contact, sent in the User-Agent")
    timeout_seconds: Number = Field(10.0, gt=0, le=600, description="per request")
    max_retries: Count = Field(3, ge=0, le=MAX_RETRIES, description="on 429 / 5xx / network")
    poll_minutes: Count = Field(
        60, ge=1, le=24 * 60, description="how often open matches are read from chess.com"
    )


class LichessConfig(_Section):
    """How to reach lichess.org's public API (the game export, read by `bot.lichess`). An empty
    `contact` means the `[chesscom]` one: one operator, one address (`Config.lichess_settings`)."""

    base_url: str = Field("https://lichess.org", pattern=r"^https?://")
    contact: str = Field("", description="operator contact for the User-Agent; '' = chesscom's")
    timeout_seconds: Number = Field(10.0, gt=0, le=600, description="per request")
    max_retries: Count = Field(3, ge=0, le=MAX_RETRIES, description="on 429 / 5xx / network")


class DiscordConfig(_Section):
    """Where Discord's HTTP API is (the gateway's address is asked of it: `GET /gateway/bot`).
    Only tests change it, to run the real program against a local stand-in."""

    api_base: str = Field(
        DISCORD_API, pattern=r"^https?://[^\s/]+(/\S*)?$", description="REST API root, versioned"
    )

    @field_validator("api_base")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
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

    def lichess_settings(self) -> LichessConfig:
        """The `[lichess]` settings with the contact filled in from `[chesscom]` when empty."""
        if self.lichess.contact.strip():
            return self.lichess
        return self.lichess.model_copy(update={"contact": self.chesscom.contact})

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


def _describe(error: ValidationError) -> str:
    """One line for the first problem pydantic found, `key.path: message`, and how many more
    (`(and N more)`, as the CLI says of season and tour files)."""
    problems = error.errors()
    first = problems[0]
    key = ".".join(str(part) for part in first["loc"]) or "(top level)"
    message = first["msg"]
    if first["type"] == "extra_forbidden":
        message = "unknown key"
    elif first["type"] in ("model_type", "model_attributes_type", "dict_type"):
        message = f"should be a table ([{key}] with its keys), not a single value"
    elif message.startswith("Value error, "):
        message = message.removeprefix("Value error, ")
        field, colon, rest = message.partition(": ")
        if colon and field.isidentifier():  # a section's check naming its key
            key, message = f"{key}.{field}", rest
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{key}: {message}{more}"


def load_config(path: Path | None = None, environ: dict[str, str] | None = None) -> Config:
    """Read `path` (default `./config.toml`; missing means defaults) and apply the environment.

    `DISCORD_TOKEN` replaces `token`; `ARBITER_CHESSCOM_URL` replaces `chesscom.base_url`;
    `ARBITER_CHESSCOM_CONTACT` replaces `chesscom.contact`; `ARBITER_DISCORD_API` replaces
    `discord.api_base`.
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
    if env.get(TOKEN_ENV):
        data["token"] = env[TOKEN_ENV]
        from_env[("token",)] = TOKEN_ENV
    chesscom = data.setdefault("chesscom", {})
    if isinstance(chesscom, dict):
        for variable, key in ((CHESSCOM_URL_ENV, "base_url"), (CHESSCOM_CONTACT_ENV, "contact")):
            if env.get(variable):
                chesscom[key] = env[variable]
                from_env[("chesscom", key)] = variable
    discord = data.setdefault("discord", {})
    if isinstance(discord, dict) and env.get(DISCORD_API_ENV):
        discord["api_base"] = env[DISCORD_API_ENV]
        from_env[("discord", "api_base")] = DISCORD_API_ENV
    try:
        config = Config.model_validate(data)
    except ValidationError as error:
        loc = tuple(str(part) for part in error.errors()[0]["loc"])
        source = f"environment variable {from_env[loc]}" if loc in from_env else str(path)
        raise ConfigError(f"{source}: {_describe(error)}") from None
    return config

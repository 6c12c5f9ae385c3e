"""A CL season's facts as immutable domain values, by CL-1 to CL-23.

Every adapter, the season file and the database alike, produces these same values. The rest of
`core.league` derives standings, forfeits and disqualifications from them. Scores are integer
half-points, so a board's 1.5 is 3. That keeps them exact and cheap to add.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import Field, dataclass, field, fields
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core.league.registration import MIN_ADMINS
from core.votes import MINIMUM_VOTERS, VOTE_HOURS

GAMES_PER_BOARD = 2
"""CL-14: games per board."""
CHALLENGE_DEADLINE_HOURS = 120
"""CL-15: the challenge is issued and accepted this long before the start."""
MAX_CHALLENGE_DEADLINE_HOURS = 24 * 366
"""CL-15: the longest challenge notice core accepts, a year.

A longer one is a typo and would put every match's deadline out of the calendar.
"""
MAX_MEMBERS = 400
"""CL-5: a club's members at match start."""
MAX_AVG_RATING = 1700.0
"""CL-6: a club's average daily rating at match start."""
FORFEITS_TO_DISQUALIFY = 3
"""CL-DQ: forfeits on one counter that disqualify a club."""
PROMOTION_PLACES = 3
"""CL-8: clubs promoted and relegated at each division boundary."""
REMINDER_HOURS = (48, 12)
"""CL-15: reminders this many hours before the challenge deadline."""
CLUBS_PER_DIVISION = 13
"""CL-12: clubs of a division's single round robin."""
START_TIME = dt.time(11, 0)
"""CL-22: matches start at 11:00 by default, a configured value."""
START_ZONE = "America/Los_Angeles"
"""CL-22: the time zone of the start, Pacific time by default, a configured value."""
TIMEOUT_RATIO_LIMIT_PERCENT = Fraction(25)
"""CL-21: a timeout ratio above this justifies removing a player from a roster."""
QUOTE_LIMIT = 60
"""Characters of a name an error message repeats before cutting it with '…'."""


def quoted(name: str) -> str:
    """A name as an error message quotes it, escaped with repr and cut at `QUOTE_LIMIT` characters.

    A hostile 1 MB name or an ANSI escape thus never reaches the terminal whole.
    """
    if len(name) > QUOTE_LIMIT:
        return repr(name[:QUOTE_LIMIT]) + "…"
    return repr(name)


def exact_percent(value: Fraction | Decimal | float | int) -> Fraction:
    """A percentage as an exact Fraction.

    A float is read as the decimal it prints as, so chess.com's `33.33` is 3333/100 and comparing
    with the limit is exact.
    """
    if isinstance(value, bool):
        raise ValueError("a percentage cannot be a boolean")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("a percentage must be a finite number")
        value = Decimal(repr(value))
    percent = Fraction(value)
    if not 0 <= percent <= 100:
        raise ValueError(f"a percentage is between 0 and 100, not {float(percent)}")
    return percent


MAX_REMINDERS = 10
"""CL-15: the reminders a season may send per match. More would flood the clubs' channels."""


@dataclass(frozen=True, slots=True)
class RuleFloor:
    """A fixed part of the regulation that a setting cannot go below.

    It holds the lowest value the regulation's text allows and the rule that says so. A config or
    season file lowering it is refused.
    """

    lowest: int | Fraction
    rule: str
    text: str


def about(
    rule: str,
    doc: str,
    *,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    items: int | None = None,
    floor: RuleFloor | None = None,
    config: bool = True,
) -> dict[str, Any]:
    """A `SeasonRules` field's metadata: its rule, what it is, its bounds and its floor.

    `items` is a list's largest length. This is the one definition that the config's `[rules.cl]`
    and the season file's `rules` are generated from. `config` is False when the config does not set
    the field as such, as for the cut-off date or the zone.
    """
    return {
        "rule": rule,
        "doc": doc,
        "ge": ge,
        "gt": gt,
        "le": le,
        "items": items,
        "floor": floor,
        "config": config,
    }


VOTE_FLOOR = RuleFloor(MINIMUM_VOTERS, "CL-23", "a decision needs at least 3 directors voting")
DISQUALIFY_FLOOR = RuleFloor(
    FORFEITS_TO_DISQUALIFY, "CL-15, CL-20, CL-21", "3 or more forfeits on one counter disqualify"
)
ADMINS_FLOOR = RuleFloor(MIN_ADMINS, "CL-3", "a club needs at least 2 admins")
TIMEOUT_FLOOR = RuleFloor(
    TIMEOUT_RATIO_LIMIT_PERCENT,
    "CL-21",
    "only a timeout ratio above 25 % justifies a removal",
)


@dataclass(frozen=True, slots=True)
class SeasonRules:
    """Every rule value a season is judged and run by, frozen at creation as CCT-16 requires.

    The season file's `rules`, the database's season row and the config's `[rules.cl]` are all
    generated from these fields. A value marked with a floor is the regulation's fixed part, such as
    CL-23's three voters or CL-DQ's three forfeits. It may be set stricter, never lower. Some parts
    are fixed outright and so are no setting at all: CL-23's unanimity, and the comparison of CL-5
    and CL-6, where a club *over* the limit at the start breaks it.
    """

    games_per_board: int = field(
        default=GAMES_PER_BOARD, metadata=about("CL-14", "games per board", ge=1)
    )
    challenge_deadline_hours: int = field(
        default=CHALLENGE_DEADLINE_HOURS,
        metadata=about(
            "CL-15",
            "hours before the start by which the challenge is issued and accepted",
            ge=0,
            le=MAX_CHALLENGE_DEADLINE_HOURS,
        ),
    )
    max_members: int = field(
        default=MAX_MEMBERS, metadata=about("CL-5", "a club's most members at match start", ge=1)
    )
    max_avg_rating: float = field(
        default=MAX_AVG_RATING,
        metadata=about("CL-6", "a club's highest average daily rating at match start", gt=0),
    )
    forfeits_to_disqualify: int = field(
        default=FORFEITS_TO_DISQUALIFY,
        metadata=about(
            "CL-DQ",
            "forfeits on one counter (CL-15, CL-20, CL-21) that disqualify a club",
            ge=1,
            floor=DISQUALIFY_FLOOR,
        ),
    )
    promoted: int = field(
        default=PROMOTION_PLACES,
        metadata=about("CL-8", "clubs going up from each lower division", ge=0),
    )
    relegated: int = field(
        default=PROMOTION_PLACES,
        metadata=about("CL-8", "clubs going down from each higher division (= promoted)", ge=0),
    )
    divisions_cutoff: dt.date | None = field(
        default=None,
        metadata=about(
            "CL-1", "the date whose standings decide next season's divisions", config=False
        ),
    )
    reminder_hours: tuple[int, ...] = field(
        default=REMINDER_HOURS,
        metadata=about(
            "CL-15",
            "remind the clubs this many hours before the challenge deadline",
            items=MAX_REMINDERS,
        ),
    )
    vote_deadline_hours: int = field(
        default=VOTE_HOURS, metadata=about("CL-23", "hours a director motion stays open", ge=1)
    )
    vote_quorum: int = field(
        default=MINIMUM_VOTERS,
        metadata=about("CL-23", "directors who must vote for a decision", ge=1, floor=VOTE_FLOOR),
    )
    min_club_admins: int = field(
        default=MIN_ADMINS,
        metadata=about("CL-2..4", "admins a club keeps", ge=1, floor=ADMINS_FLOOR),
    )
    timeout_ratio_limit_percent: Fraction = field(
        default=TIMEOUT_RATIO_LIMIT_PERCENT,
        metadata=about(
            "CL-21",
            "the timeout percentage above which a roster removal is justified",
            ge=0,
            le=100,
            floor=TIMEOUT_FLOOR,
        ),
    )
    clubs_per_division: int = field(
        default=CLUBS_PER_DIVISION,
        metadata=about("CL-12", "the most clubs of a division's round robin", ge=2),
    )
    start_time: dt.time = field(
        default=START_TIME, metadata=about("CL-13", "the local time every match starts")
    )
    start_zone: str = field(
        default=START_ZONE, metadata=about("CL-22", "the IANA zone of start_time", config=False)
    )

    @property
    def promotion_places(self) -> int:
        """CL-8: the places exchanged at each division boundary by `promotion_proposal`."""
        return self.promoted


def rule_settings() -> tuple[Field[Any], ...]:
    """The fields of `SeasonRules` in order, each with its `setting` metadata."""
    return fields(SeasonRules)


def floor_problems(rules: SeasonRules) -> Iterable[tuple[str, str]]:
    """The regulation's fixed parts that a setting lowers, as (key, problem) pairs.

    Each problem names the rule, among CL-23, CL-15, CL-20, CL-21 and CL-3. A config or season file
    with any of them is refused.
    """
    for item in rule_settings():
        floor = item.metadata["floor"]
        value = getattr(rules, item.name)
        if floor is not None and value < floor.lowest:
            shown = f"{float(value):g}" if isinstance(value, Fraction) else str(value)
            yield (
                item.name,
                f"{shown} is below the regulation's {float(floor.lowest):g} ({floor.rule}:"
                f" {floor.text}); the regulation fixes it: a setting may be stricter, never lower",
            )


def rules_problems(rules: SeasonRules) -> Iterable[tuple[str, str]]:
    """CCT-16: the rule values core cannot honour, as (key, problem) pairs.

    Keys are spelt as the season file's `rules` and the config's `[rules.cl]` spell them. The bounds
    come first, then the regulation's `floor_problems`, then how the values fit together.
    """
    for item in rule_settings():
        value = getattr(rules, item.name)
        if not isinstance(value, int | float | Fraction) or isinstance(value, bool):
            continue
        meta = item.metadata
        if meta["ge"] is not None and value < meta["ge"]:
            if meta["ge"] == 0:
                yield item.name, f"cannot be negative ({value})"
            else:
                yield item.name, f"must be at least {meta['ge']}, not {value}"
        elif meta["gt"] is not None and not value > meta["gt"]:
            yield item.name, f"must be greater than {meta['gt']}, not {value}"
        elif meta["le"] is not None and value > meta["le"]:
            yield item.name, f"must be at most {meta['le']:g}, not {float(value):g}"
    yield from floor_problems(rules)
    if len(rules.reminder_hours) > MAX_REMINDERS:
        yield "reminder_hours", f"at most {MAX_REMINDERS} reminders"
    yield from _reminder_problems(rules.reminder_hours)
    if rules.relegated != rules.promoted:
        yield (
            "relegated",
            f"{rules.relegated} differs from promoted {rules.promoted};"
            " CL-8 keeps every division's size, so they must be equal",
        )
    if rules.promoted > rules.clubs_per_division:
        yield (
            "promoted",
            f"{rules.promoted} is more than the {rules.clubs_per_division} clubs of a division",
        )
    if (
        rules.start_time.tzinfo is not None
        or rules.start_time.second
        or rules.start_time.microsecond
    ):
        yield "start_time", "a local time of day in whole minutes (HH:MM)"
    if not rules.start_zone:
        yield "start_zone", "needs an IANA zone name"


def _reminder_problems(hours: tuple[int, ...]) -> Iterable[tuple[str, str]]:
    """CL-15: reminders come before the deadline, at a positive offset, once each, within a year."""
    for h in hours:
        if h <= 0:
            yield "reminder_hours", f"{h} h would remind at or after the challenge deadline"
            return
        if h > MAX_CHALLENGE_DEADLINE_HOURS:
            yield "reminder_hours", f"at most {MAX_CHALLENGE_DEADLINE_HOURS} hours, not {h}"
            return
    if len(set(hours)) != len(hours):
        yield "reminder_hours", "each reminder once"


@dataclass(frozen=True, slots=True)
class Division:
    """A CL-7 division, in the season's order, best first.

    It holds its clubs in pairing order and its minimum number of players by CL-9..11.
    """

    name: str
    min_players: int
    clubs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Challenge:
    """The CL-15 chess.com challenge of a match: who issued it, when, and its acceptance."""

    issued_by: str
    issued: dt.datetime
    accepted: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class ClubAtStart:
    """A club's facts at match start by CL-5, CL-6 and CL-20. Any may be None when unknown."""

    members: int | None = None
    avg_rating: float | None = None
    players: int | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a team match by CL-14: a player of each club and their half-points."""

    home_player: str
    away_player: str
    home_half: int
    away_half: int


@dataclass(frozen=True, slots=True)
class Match:
    """A team match between two clubs of one division, by CL-13 to CL-15 and CL-20.

    Its `id` is stable: the season file's id and the database's key.
    """

    id: str
    division: str
    round: int
    home: str
    away: str
    start: dt.datetime
    finished: dt.datetime | None = None
    challenge: Challenge | None = None
    at_start: Mapping[str, ClubAtStart] = field(default_factory=dict)
    boards: tuple[Board, ...] = ()
    deadline: dt.datetime | None = None
    """CL-15: the challenge deadline a passed reschedule motion fixed.

    It is either a judged deadline kept or the new start when the notice no longer fits. When None,
    the deadline is the season's `challenge_deadline_hours` before the start.
    """


@dataclass(frozen=True, slots=True)
class DirectorForfeit:
    """A forfeit imposed by the directors on one club in one match, by CL-21 and CL-23.

    Without `decided` it takes effect at the match start.
    """

    match: str
    club: str
    rule: str = "CL-21"
    decided: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class DirectorDisqualification:
    """A disqualification decided by the directors, by CL-18 and CL-23."""

    club: str
    rule: str = "CL-23"
    decided: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class Season:
    """A whole CL season's facts: the single input of the league standings."""

    name: str
    divisions: tuple[Division, ...]
    rules: SeasonRules = SeasonRules()
    matches: tuple[Match, ...] = ()
    closed_accounts: tuple[str, ...] = ()
    director_forfeits: tuple[DirectorForfeit, ...] = ()
    director_disqualifications: tuple[DirectorDisqualification, ...] = ()
    withdrawn: tuple[str, ...] = ()
    """CL-8: clubs not continuing next season."""

    def club_division(self) -> dict[str, str]:
        """Each club's division name. Once checked, clubs are unique across divisions."""
        return {club: d.name for d in self.divisions for club in d.clubs}

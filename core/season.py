"""The CL season file (`../shared/formats/season-file.md`) as immutable pydantic models.

A season file holds the *facts* of a season; standings, forfeits and disqualifications are
derived from them by `core.league`. Cross-reference checks (unknown clubs, board sums,
duplicate ids) live in `Season`'s validators so every door (CLI, import, bot) applies them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from core.points import HalfPoints, decimal_text, number_only

Count = Annotated[int, BeforeValidator(number_only)]
"""An integer field of the season file (a count, hours, a round): text and booleans refused."""
Number = Annotated[float, BeforeValidator(number_only)]
"""A real-valued field of the season file (a rating): text and booleans refused."""


class _Fact(BaseModel):
    """Base of season-file models: immutable; unknown keys are kept (room for more)."""

    model_config = ConfigDict(frozen=True, extra="allow")


class Rules(_Fact):
    """Per-season rule settings frozen at creation (CCT-16 applies to CL seasons too)."""

    games_per_board: Count = Field(2, ge=1, description="CL-14: games per board")
    challenge_deadline_hours: Count = Field(120, ge=0, description="CL-15")
    max_members: Count = Field(400, ge=1, description="CL-5")
    max_avg_rating: Number = Field(1700, gt=0, description="CL-6")
    forfeits_to_disqualify: Count = Field(3, ge=1, description="CL-DQ, each counter separately")
    promotion_places: Count = Field(3, ge=0, description="CL-8: clubs up / down per boundary")
    divisions_cutoff: dt.date | None = Field(
        None, description="CL-1: the date whose standings decide next season's divisions"
    )


ClubName = Annotated[str, Field(min_length=1)]
"""A club's name in the season file (unique within the file; never empty)."""

ForfeitRule = Literal["CL-5", "CL-6", "CL-15", "CL-20", "CL-21", "CL-23"]
"""CL-21, CL-23: the rules a director forfeit may be given under (it feeds that rule's
CL-DQ counter when the rule has one)."""

DisqualificationRule = Literal["CL-15", "CL-18", "CL-20", "CL-21", "CL-23", "CL-DQ"]
"""CL-DQ, CL-18, CL-23: the rules a director disqualification may be given under."""


class Division(_Fact):
    """A division (CL-7) with its clubs and its minimum number of players (CL-9..11)."""

    name: str = Field(min_length=1)
    min_players: Count = Field(ge=1)
    clubs: list[ClubName]


class Challenge(_Fact):
    """The chess.com challenge for a match (CL-15): who issued it, when, and its acceptance."""

    issued_by: str
    issued: AwareDatetime
    accepted: AwareDatetime | None = None


class ClubAtStart(_Fact):
    """A club's facts at match start (CL-5, CL-6, CL-20); any may be unknown."""

    # The bound comes before the boolean check so the JSON Schema shows it as `minimum`.
    members: Annotated[int, Field(ge=0), BeforeValidator(number_only)] | None = None
    avg_rating: Annotated[float, Field(ge=0), BeforeValidator(number_only)] | None = None
    players: Annotated[int, Field(ge=0), BeforeValidator(number_only)] | None = None


class Board(_Fact):
    """One board of a team match (CL-14): a player of each club and the points each scored."""

    home_player: str = Field(min_length=1)
    away_player: str = Field(min_length=1)
    home_points: HalfPoints
    away_points: HalfPoints


class Match(_Fact):
    """A team match between two clubs of one division, as facts (CL-13..15, CL-20)."""

    id: str = Field(min_length=1)
    division: str
    round: Count = Field(ge=1)
    home: str
    away: str
    start: AwareDatetime
    finished: AwareDatetime | None = None
    challenge: Challenge | None = None
    at_start: dict[str, ClubAtStart] = Field(default_factory=dict)
    boards: list[Board] = Field(default_factory=list)


class DirectorForfeit(_Fact):
    """A forfeit imposed by the directors (CL-21, CL-23) on one club in one match."""

    match: str
    club: str
    rule: ForfeitRule = "CL-21"
    decided: AwareDatetime | None = None


class DirectorDisqualification(_Fact):
    """A disqualification decided by the directors (CL-18, CL-23)."""

    club: str
    rule: DisqualificationRule = "CL-23"
    decided: AwareDatetime | None = None


class Season(_Fact):
    """A whole CL season's facts: the single input of the league standings."""

    name: str = Field(min_length=1)
    rules: Rules = Field(default_factory=Rules)
    divisions: list[Division]
    matches: list[Match] = Field(default_factory=list)
    closed_accounts: list[str] = Field(default_factory=list)
    director_forfeits: list[DirectorForfeit] = Field(default_factory=list)
    director_disqualifications: list[DirectorDisqualification] = Field(default_factory=list)
    withdrawn: list[str] = Field(
        default_factory=list, description="CL-8: clubs not continuing next season"
    )

    @model_validator(mode="after")
    def _cross_references(self) -> Season:
        problems = list(season_problems(self))
        if problems:
            raise SeasonProblems(problems)
        return self

    def club_division(self) -> dict[str, str]:
        """Each club's division name (clubs are unique across divisions once validated)."""
        return {club: d.name for d in self.divisions for club in d.clubs}


class SeasonProblems(ValueError):
    """Cross-reference problems of a season file, each a (path, problem) pair."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("\n".join(f"{path}: {problem}" for path, problem in problems))
        self.problems = problems


class SeasonFileError(ValueError):
    """A season file that cannot be used: every problem with the path where it lies."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("\n".join(f"{path or '(file)'}: {problem}" for path, problem in problems))
        self.problems = problems


def _path(loc: Iterable[Any]) -> str:
    """Render a pydantic location as `matches[3].boards[7].home_points`."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def load_season(data: str | bytes | dict[str, Any]) -> Season:
    """Parse and validate a season file (JSON text or decoded JSON); raise SeasonFileError
    naming the path and the problem of every error found."""
    try:
        if isinstance(data, dict):
            return Season.model_validate(data)
        return Season.model_validate_json(data)
    except ValidationError as error:
        problems: list[tuple[str, str]] = []
        for item in error.errors(include_url=False):
            cause = (item.get("ctx") or {}).get("error")
            if isinstance(cause, SeasonProblems):
                problems.extend(cause.problems)
                continue
            message = item["msg"].removeprefix("Value error, ")
            problems.append((_path(item["loc"]), message))
        raise SeasonFileError(problems) from None


def dump_season(season: Season) -> dict[str, Any]:
    """The season as JSON-ready data that `load_season` reads back to an equal season.

    CCT-16: the `rules` are always written in full, defaults included, so an exported season
    keeps the settings it was created with even if a later version changes the defaults.
    """
    data = season.model_dump(mode="json", exclude_unset=True)
    data.pop("rules", None)
    return {"name": data.pop("name"), "rules": season.rules.model_dump(mode="json"), **data}


def _second_seats(
    board: Board, b_index: int, home_seat: int, away_seat: int, where: str
) -> Iterable[tuple[str, str]]:
    """CL-18: the players of `board` already seated on an earlier board of the same match."""
    for side, seat in (("home_player", home_seat), ("away_player", away_seat)):
        if seat != b_index:
            yield (
                f"{where}.boards[{b_index}].{side}",
                f"{getattr(board, side)!r} already plays on boards[{seat}] of this match",
            )


def season_problems(season: Season) -> Iterable[tuple[str, str]]:
    """Cross-reference checks of a season file (season-file.md): unique clubs, divisions and
    match ids, clubs known and in the match's division, boards adding up to games_per_board."""
    club_division: dict[str, str] = {}
    division_names: set[str] = set()
    for d_index, division in enumerate(season.divisions):
        if division.name in division_names:
            yield f"divisions[{d_index}].name", f"division {division.name!r} is listed twice"
        division_names.add(division.name)
        for c_index, club in enumerate(division.clubs):
            if club in club_division:
                yield (
                    f"divisions[{d_index}].clubs[{c_index}]",
                    f"club {club!r} is already in {club_division[club]!r}"
                    " (a club plays in one division)",
                )
            else:
                club_division[club] = division.name
    games = season.rules.games_per_board
    full = 2 * games
    try:
        # CL-15: every match's deadline is start - this; both must be representable.
        notice: dt.timedelta | None = dt.timedelta(hours=season.rules.challenge_deadline_hours)
    except OverflowError:
        notice = None
        yield "rules.challenge_deadline_hours", "too large to compute a challenge deadline"
    match_clubs: dict[str, tuple[str, str]] = {}
    for m_index, match in enumerate(season.matches):
        where = f"matches[{m_index}]"
        if match.id in match_clubs:
            yield f"{where}.id", f"duplicate match id {match.id!r}"
        match_clubs.setdefault(match.id, (match.home, match.away))
        if match.division not in division_names:
            yield f"{where}.division", f"unknown division {match.division!r}"
        for side in ("home", "away"):
            club = getattr(match, side)
            if club not in club_division:
                yield f"{where}.{side}", f"unknown club {club!r}"
            elif match.division in division_names and club_division[club] != match.division:
                yield (
                    f"{where}.{side}",
                    f"club {club!r} is in {club_division[club]!r}, not {match.division!r}"
                    " (a match is between clubs of one division)",
                )
        if match.home == match.away:
            yield f"{where}.away", f"club {match.home!r} cannot play itself"
        if match.finished is not None and match.finished < match.start:
            yield f"{where}.finished", "finished before its start"
        if notice is not None:
            try:
                match.start - notice
            except OverflowError:
                yield (
                    f"{where}.start",
                    "too early: its challenge deadline (CL-15) falls before year 1",
                )
        sides = (match.home, match.away)
        if match.challenge is not None and match.challenge.issued_by not in sides:
            yield (
                f"{where}.challenge.issued_by",
                f"{match.challenge.issued_by!r} is not a club of this match",
            )
        accepted = match.challenge.accepted if match.challenge is not None else None
        if (
            accepted is not None
            and match.challenge is not None
            and accepted < match.challenge.issued
        ):
            yield (
                f"{where}.challenge.accepted",
                "accepted before it was issued (CL-15 cannot judge it)",
            )
        for club in match.at_start:
            if club not in sides:
                yield f"{where}.at_start.{club}", f"{club!r} is not a club of this match"
        seated: dict[str, int] = {}  # CL-18: a player takes one seat in a match
        for b_index, board in enumerate(match.boards):
            home_name, away_name = board.home_player.lower(), board.away_player.lower()
            if home_name == away_name:
                yield (
                    f"{where}.boards[{b_index}].away_player",
                    f"{board.away_player!r} cannot play themselves",
                )
            home_seat = seated.setdefault(home_name, b_index)
            away_seat = seated.setdefault(away_name, b_index)
            if home_seat != b_index or away_seat != b_index:
                yield from _second_seats(board, b_index, home_seat, away_seat, where)
            # In integer half-points (a HalfPoints Fraction's denominator is 1 or 2): exact,
            # and far cheaper than Fraction arithmetic over 100,000 boards.
            home, away = board.home_points, board.away_points
            if home.denominator > 2 or away.denominator > 2:  # only a model built unvalidated
                yield f"{where}.boards[{b_index}]", "points must be multiples of ½"
                continue
            home_half = home.numerator * 2 // home.denominator
            away_half = away.numerator * 2 // away.denominator
            if home_half < 0 or away_half < 0:
                yield f"{where}.boards[{b_index}]", "points cannot be negative"
            elif home_half + away_half != full:
                yield (
                    f"{where}.boards[{b_index}].home_points",
                    f"home {decimal_text(home)} + away {decimal_text(away)}"
                    f" = {decimal_text(home + away)}, not games_per_board {games}",
                )
    for f_index, forfeit in enumerate(season.director_forfeits):
        where = f"director_forfeits[{f_index}]"
        if forfeit.match not in match_clubs:
            yield f"{where}.match", f"unknown match {forfeit.match!r}"
        elif forfeit.club not in match_clubs[forfeit.match]:
            yield f"{where}.club", f"{forfeit.club!r} does not play match {forfeit.match!r}"
    for q_index, decision in enumerate(season.director_disqualifications):
        if decision.club not in club_division:
            yield f"director_disqualifications[{q_index}].club", f"unknown club {decision.club!r}"
    for w_index, club in enumerate(season.withdrawn):
        if club not in club_division:
            yield f"withdrawn[{w_index}]", f"unknown club {club!r}"

"""The CL season file (`../shared/formats/season-file.md`): an adapter between JSON and the
season's domain values (`core.league.season`).

The pydantic models here are the file's shape — its published JSON Schema, unknown keys
kept (room for more), numbers and instants as the schema says. `load_season` turns a file
into a domain `Season` (cross-checked by `core.league.season.season_problems`, with the
path of each problem); `dump_season` writes one back.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Annotated, Any, Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema

from bot.formats.json_path import json_path
from bot.formats.numbers import (
    Count,
    HalfPoints,
    Name,
    Number,
    Printable,
    ShortName,
    Username,
    finite_number,
    iso_text,
)
from core.league import season as domain
from core.league.registration import MIN_ADMINS
from core.league.season import MAX_CHALLENGE_DEADLINE_HOURS, season_problems
from core.votes import MINIMUM_VOTERS, VOTE_HOURS

Instant = Annotated[AwareDatetime, BeforeValidator(iso_text)]
"""An instant: ISO 8601 text with an offset (a Unix integer is refused, as the schema says)."""
Day = Annotated[dt.date, BeforeValidator(iso_text)]
"""A calendar date: YYYY-MM-DD text."""
HHMM = r"^([01]\d|2[0-3]):[0-5]\d$"
"""A local time of day, HH:MM."""
MAX_REMINDERS = 10
"""CL-15: reminders a season may send per match (more would flood the clubs' channels)."""


class _Fact(BaseModel):
    """Base of season-file models: immutable; unknown keys are kept (room for more)."""

    model_config = ConfigDict(frozen=True, extra="allow")


class RulesModel(_Fact):
    """Every per-season rule value, frozen at creation (CCT-16 applies to CL seasons too);
    a key left out takes the regulation's value (`core.league.season`)."""

    model_config = ConfigDict(title="Rules")

    games_per_board: Count = Field(
        domain.GAMES_PER_BOARD, ge=1, description="CL-14: games per board"
    )
    challenge_deadline_hours: Count = Field(
        domain.CHALLENGE_DEADLINE_HOURS, ge=0, le=MAX_CHALLENGE_DEADLINE_HOURS, description="CL-15"
    )
    reminder_hours: list[Count] = Field(
        list(domain.REMINDER_HOURS),  # pydantic copies it per model
        max_length=MAX_REMINDERS,
        description="CL-15: remind the clubs this many hours before the challenge deadline",
    )
    max_members: Count = Field(domain.MAX_MEMBERS, ge=1, description="CL-5")
    max_avg_rating: Number = Field(int(domain.MAX_AVG_RATING), gt=0, description="CL-6")
    forfeits_to_disqualify: Count = Field(
        domain.FORFEITS_TO_DISQUALIFY, ge=1, description="CL-DQ, each counter separately"
    )
    promoted: Count = Field(
        domain.PROMOTION_PLACES, ge=0, description="CL-8: clubs up per boundary"
    )
    relegated: Count = Field(
        domain.PROMOTION_PLACES, ge=0, description="CL-8: clubs down per boundary (= promoted)"
    )
    promotion_places: Count = Field(
        domain.PROMOTION_PLACES,
        ge=0,
        description="CL-8: promoted and relegated at once (older files; kept equal to promoted)",
    )
    divisions_cutoff: Day | None = Field(
        None, description="CL-1: the date whose standings decide next season's divisions"
    )
    clubs_per_division: Count = Field(
        domain.CLUBS_PER_DIVISION, ge=2, description="CL-12: clubs of a round robin, at most"
    )
    start_time: str = Field(
        domain.START_TIME.strftime("%H:%M"), pattern=HHMM, description="CL-13: local start, HH:MM"
    )
    start_zone: Printable = Field(
        domain.START_ZONE, min_length=1, max_length=64, description="CL-13, CL-22: IANA zone"
    )
    vote_deadline_hours: Count = Field(
        VOTE_HOURS, ge=1, description="CL-23: hours a director motion stays open"
    )
    vote_quorum: Count = Field(MINIMUM_VOTERS, ge=1, description="CL-23: directors who must vote")
    min_club_admins: Count = Field(MIN_ADMINS, ge=1, description="CL-2..4: admins a club keeps")
    timeout_ratio_limit_percent: Number = Field(
        float(domain.TIMEOUT_RATIO_LIMIT_PERCENT),
        ge=0,
        le=100,
        description="CL-21: timeout ratio above which a roster removal is justified",
    )

    @field_validator("start_zone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown time zone {domain.quoted(value)} (use an IANA name)"
            ) from None
        return value

    @model_validator(mode="before")
    @classmethod
    def _places(cls, data: Any) -> Any:
        """CL-8: a key left out of promoted, relegated and promotion_places takes the value of
        the others (promoted: promotion_places; relegated and promotion_places: promoted)."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "promoted" not in data and "promotion_places" in data:
            data["promoted"] = data["promotion_places"]
        if "promoted" in data:
            data.setdefault("relegated", data["promoted"])
            data.setdefault("promotion_places", data["promoted"])
        return data

    @model_validator(mode="after")
    def _places_agree(self) -> Self:
        """CL-8: an older file's promotion_places cannot contradict promoted."""
        if self.promotion_places != self.promoted:
            raise ValueError(
                f"promotion_places: {self.promotion_places} differs from promoted {self.promoted}"
            )
        return self


ClubName = ShortName
"""A club's name in the season file (unique within the file; never empty)."""

ForfeitRule = Literal["CL-5", "CL-6", "CL-15", "CL-20", "CL-21", "CL-23"]
"""CL-21, CL-23: the rules a director forfeit may be given under (it feeds that rule's
CL-DQ counter when the rule has one)."""

DisqualificationRule = Literal["CL-15", "CL-18", "CL-20", "CL-21", "CL-23", "CL-DQ"]
"""CL-DQ, CL-18, CL-23: the rules a director disqualification may be given under."""


class DivisionModel(_Fact):
    """A division (CL-7) with its clubs and its minimum number of players (CL-9..11)."""

    model_config = ConfigDict(title="Division")

    name: ShortName
    min_players: Count = Field(ge=1)
    clubs: list[ClubName]


class ChallengeModel(_Fact):
    """The chess.com challenge for a match (CL-15): who issued it, when, and its acceptance."""

    model_config = ConfigDict(title="Challenge")

    issued_by: Printable
    issued: Instant
    accepted: Instant | None = None


class ClubAtStartModel(_Fact):
    """A club's facts at match start (CL-5, CL-6, CL-20); any may be unknown."""

    model_config = ConfigDict(title="ClubAtStart")

    # The bound comes before the number check so the JSON Schema shows it as `minimum`.
    members: Annotated[int, Field(ge=0), BeforeValidator(finite_number)] | None = None
    avg_rating: Annotated[float, Field(ge=0), BeforeValidator(finite_number)] | None = None
    players: Annotated[int, Field(ge=0), BeforeValidator(finite_number)] | None = None


class BoardModel(_Fact):
    """One board of a team match (CL-14): a player of each club and the points each scored."""

    model_config = ConfigDict(title="Board")

    home_player: Username
    away_player: Username
    home_points: HalfPoints
    away_points: HalfPoints


class MatchModel(_Fact):
    """A team match between two clubs of one division, as facts (CL-13..15, CL-20)."""

    model_config = ConfigDict(title="Match")

    id: Name
    division: Printable
    round: Count = Field(ge=1)
    home: Printable
    away: Printable
    start: Instant
    finished: Instant | None = None
    challenge: ChallengeModel | None = None
    at_start: dict[str, ClubAtStartModel] = Field(default_factory=dict)
    boards: list[BoardModel] = Field(default_factory=list)


class DirectorForfeitModel(_Fact):
    """A forfeit imposed by the directors (CL-21, CL-23) on one club in one match."""

    model_config = ConfigDict(title="DirectorForfeit")

    match: Printable
    club: Printable
    rule: ForfeitRule = "CL-21"
    decided: Instant | None = None


class DirectorDisqualificationModel(_Fact):
    """A disqualification decided by the directors (CL-18, CL-23)."""

    model_config = ConfigDict(title="DirectorDisqualification")

    club: Printable
    rule: DisqualificationRule = "CL-23"
    decided: Instant | None = None


class SeasonModel(_Fact):
    """A whole CL season's facts: the single input of the league standings."""

    model_config = ConfigDict(title="Season")

    name: ShortName
    rules: RulesModel = Field(default_factory=RulesModel)
    divisions: list[DivisionModel]
    matches: list[MatchModel] = Field(default_factory=list)
    closed_accounts: list[Username] = Field(default_factory=list)
    director_forfeits: list[DirectorForfeitModel] = Field(default_factory=list)
    director_disqualifications: list[DirectorDisqualificationModel] = Field(default_factory=list)
    withdrawn: list[Printable] = Field(
        default_factory=list, description="CL-8: clubs not continuing next season"
    )


class _FileNames(GenerateJsonSchema):
    """Publishes each model under its file name (`Board`, not `BoardModel`)."""

    def normalize_name(self, name: str) -> str:
        return super().normalize_name(name).removesuffix("Model")


def season_schema() -> dict[str, Any]:
    """The published JSON Schema of the season file (`arbiter schema season`)."""
    return SeasonModel.model_json_schema(schema_generator=_FileNames)


class SeasonFileError(ValueError):
    """A season file that cannot be used: every problem with the path where it lies."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("\n".join(f"{path or '(file)'}: {problem}" for path, problem in problems))
        self.problems = problems


class _NotInHalves(ValueError):
    """A board's points that are not multiples of ½ (only in a model built unvalidated)."""


def _half(points: Fraction) -> int:
    """A HalfPoints value as integer half-points (validated: its denominator is 1 or 2)."""
    if points.denominator > 2:
        raise _NotInHalves(points)
    return points.numerator * 2 // points.denominator


def _unhalved(model: SeasonModel) -> list[tuple[str, str]]:
    """CORE-5: where a board built unvalidated holds points that are not multiples of ½."""
    return [
        (f"matches[{m_index}].boards[{b_index}]", "points must be multiples of ½")
        for m_index, m in enumerate(model.matches)
        for b_index, b in enumerate(m.boards)
        if b.home_points.denominator > 2 or b.away_points.denominator > 2
    ]


def _rules(r: RulesModel) -> domain.SeasonRules:
    """The file's `rules` as the domain value."""
    return domain.SeasonRules(
        games_per_board=r.games_per_board,
        challenge_deadline_hours=r.challenge_deadline_hours,
        max_members=r.max_members,
        max_avg_rating=r.max_avg_rating,
        forfeits_to_disqualify=r.forfeits_to_disqualify,
        promoted=r.promoted,
        relegated=r.relegated,
        divisions_cutoff=r.divisions_cutoff,
        reminder_hours=tuple(r.reminder_hours),
        vote_deadline_hours=r.vote_deadline_hours,
        vote_quorum=r.vote_quorum,
        min_club_admins=r.min_club_admins,
        timeout_ratio_limit_percent=domain.exact_percent(r.timeout_ratio_limit_percent),
        clubs_per_division=r.clubs_per_division,
        start_time=dt.time.fromisoformat(r.start_time),
        start_zone=r.start_zone,
    )


def _rules_model(rules: domain.SeasonRules) -> RulesModel:
    """CCT-16: the domain rules as the file writes them, every value given."""
    return RulesModel(
        games_per_board=rules.games_per_board,
        challenge_deadline_hours=rules.challenge_deadline_hours,
        reminder_hours=list(rules.reminder_hours),
        max_members=rules.max_members,
        max_avg_rating=rules.max_avg_rating,
        forfeits_to_disqualify=rules.forfeits_to_disqualify,
        promoted=rules.promoted,
        relegated=rules.relegated,
        promotion_places=rules.promoted,
        divisions_cutoff=rules.divisions_cutoff,
        clubs_per_division=rules.clubs_per_division,
        start_time=rules.start_time.strftime("%H:%M"),
        start_zone=rules.start_zone,
        vote_deadline_hours=rules.vote_deadline_hours,
        vote_quorum=rules.vote_quorum,
        min_club_admins=rules.min_club_admins,
        timeout_ratio_limit_percent=float(rules.timeout_ratio_limit_percent),
    )


def to_domain(model: SeasonModel) -> domain.Season:
    """The file's season as domain values (no cross-checks: see `load_season`)."""
    rules = _rules(model.rules)
    Board = domain.Board
    matches = tuple(
        domain.Match(
            id=m.id,
            division=m.division,
            round=m.round,
            home=m.home,
            away=m.away,
            start=m.start,
            finished=m.finished,
            challenge=None
            if m.challenge is None
            else domain.Challenge(m.challenge.issued_by, m.challenge.issued, m.challenge.accepted),
            at_start={
                club: domain.ClubAtStart(f.members, f.avg_rating, f.players)
                for club, f in m.at_start.items()
            },
            boards=tuple(
                Board(b.home_player, b.away_player, _half(b.home_points), _half(b.away_points))
                for b in m.boards
            ),
        )
        for m in model.matches
    )
    return domain.Season(
        name=model.name,
        divisions=tuple(
            domain.Division(d.name, d.min_players, tuple(d.clubs)) for d in model.divisions
        ),
        rules=rules,
        matches=matches,
        closed_accounts=tuple(model.closed_accounts),
        director_forfeits=tuple(
            domain.DirectorForfeit(f.match, f.club, f.rule, f.decided)
            for f in model.director_forfeits
        ),
        director_disqualifications=tuple(
            domain.DirectorDisqualification(q.club, q.rule, q.decided)
            for q in model.director_disqualifications
        ),
        withdrawn=tuple(model.withdrawn),
    )


def _set(**values: Any) -> dict[str, Any]:
    """The keys worth writing: None and empty collections are the file's defaults."""
    return {key: value for key, value in values.items() if value not in (None, (), {}, [])}


def from_domain(season: domain.Season) -> SeasonModel:
    """The domain season as the file's model (rules in full; empty optional keys left out)."""
    rules = season.rules
    return SeasonModel(
        name=season.name,
        rules=_rules_model(rules),
        divisions=[
            DivisionModel(name=d.name, min_players=d.min_players, clubs=list(d.clubs))
            for d in season.divisions
        ],
        matches=[
            MatchModel(
                id=m.id,
                division=m.division,
                round=m.round,
                home=m.home,
                away=m.away,
                start=m.start,
                **_set(
                    finished=m.finished,
                    challenge=None
                    if m.challenge is None
                    else ChallengeModel(
                        issued_by=m.challenge.issued_by,
                        issued=m.challenge.issued,
                        **_set(accepted=m.challenge.accepted),
                    ),
                    at_start={
                        club: ClubAtStartModel(
                            **_set(members=f.members, avg_rating=f.avg_rating, players=f.players)
                        )
                        for club, f in m.at_start.items()
                    },
                    boards=[
                        BoardModel(
                            home_player=b.home_player,
                            away_player=b.away_player,
                            home_points=Fraction(b.home_half, 2),
                            away_points=Fraction(b.away_half, 2),
                        )
                        for b in m.boards
                    ],
                ),
            )
            for m in season.matches
        ],
        **_set(
            closed_accounts=list(season.closed_accounts),
            director_forfeits=[
                DirectorForfeitModel(
                    match=f.match, club=f.club, rule=f.rule, **_set(decided=f.decided)
                )
                for f in season.director_forfeits
            ],
            director_disqualifications=[
                DirectorDisqualificationModel(club=q.club, rule=q.rule, **_set(decided=q.decided))
                for q in season.director_disqualifications
            ],
            withdrawn=list(season.withdrawn),
        ),
    )


def _parse(data: str | bytes | dict[str, Any]) -> tuple[SeasonModel, domain.Season]:
    """Validate the file, convert it, cross-check the season; raise SeasonFileError naming
    the path and the problem of every error found."""
    try:
        if isinstance(data, dict):
            model = SeasonModel.model_validate(data)
        else:
            model = SeasonModel.model_validate_json(data)
    except ValidationError as error:
        problems = [
            (json_path(item["loc"]), item["msg"].removeprefix("Value error, "))
            for item in error.errors(include_url=False)
        ]
        raise SeasonFileError(problems) from None
    try:
        season = to_domain(model)
    except _NotInHalves:
        raise SeasonFileError(_unhalved(model)) from None
    found = list(season_problems(season))
    if found:
        raise SeasonFileError(found)
    return model, season


def load_season(data: str | bytes | dict[str, Any]) -> domain.Season:
    """A season file (JSON text or decoded JSON) as a cross-checked domain `Season`."""
    return _parse(data)[1]


def read_season_file(data: str | bytes | dict[str, Any]) -> SeasonModel:
    """A season file as its checked file model, unknown keys included (for a round trip)."""
    return _parse(data)[0]


def dump_season(season: domain.Season | SeasonModel) -> dict[str, Any]:
    """The season as JSON-ready data that `load_season` reads back to an equal season.

    CCT-16: the `rules` are always written in full, defaults included, so an exported season
    keeps the settings it was created with even if a later version changes the defaults
    (promotion_places too, equal to promoted, for readers of older files). A file model keeps
    the keys its file had, unknown ones included.
    """
    model = from_domain(season) if isinstance(season, domain.Season) else season
    data = model.model_dump(mode="json", exclude_unset=True)
    data.pop("rules", None)
    return {"name": data.pop("name"), "rules": model.rules.model_dump(mode="json"), **data}

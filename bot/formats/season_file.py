"""The CL season file (docs/season-file.md): an adapter between JSON and the
season's domain values (`core.league.season`).

The pydantic models here are the file's shape — its published JSON Schema, an unknown key
refused with its path (as the config and the tour file refuse one), numbers and instants as
the schema says; the `rules` are generated from `SeasonRules`. `load_season` turns a file
into a domain `Season` (cross-checked by `core.league.season.season_problems`, with the
path of each problem); `dump_season` writes one back.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema

from bot.formats.json_path import json_path
from bot.formats.numbers import (
    Count,
    HalfPoints,
    Name,
    Printable,
    ShortName,
    Username,
    finite_number,
    iso_text,
    whole_number,
)
from bot.formats.plain_words import plain, suggestion, unknown_first
from bot.formats.rule_fields import known_zone, rule_fields, rule_values, season_rules
from core.league import season as domain
from core.league.season import season_problems

Instant = Annotated[AwareDatetime, BeforeValidator(iso_text)]
"""An instant: ISO 8601 text with an offset (a Unix integer is refused, as the schema says)."""
Day = Annotated[dt.date, BeforeValidator(iso_text)]
"""A calendar date: YYYY-MM-DD text."""


class _Fact(BaseModel):
    """Base of season-file models: immutable; an unknown key is refused with its JSON path
    (a typo — `board` for `boards`, `acepted` — would otherwise silently become a forfeit)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class _Rules(_Fact):
    """Every per-season rule value, frozen at creation (CCT-16 applies to CL seasons too):
    the fields of `core.league.season.SeasonRules` (generated, `bot.formats.rule_fields`);
    a key left out takes the regulation's value, a value below a floor is refused."""

    model_config = ConfigDict(title="Rules")

    promotion_places: Count = Field(
        domain.PROMOTION_PLACES,
        ge=0,
        description="CL-8: promoted and relegated at once (older files; kept equal to promoted)",
    )

    @field_validator("start_zone", check_fields=False)
    @classmethod
    def _known_zone(cls, value: str) -> str:
        return known_zone(value)

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
        if self.promotion_places != dict(self)["promoted"]:
            raise ValueError(
                f"promotion_places: {self.promotion_places} differs from promoted"
                f" {dict(self)['promoted']}"
            )
        return self

    def season_rules(self) -> domain.SeasonRules:
        """The file's `rules` as the domain value."""
        return season_rules(dict(self))


if TYPE_CHECKING:
    RulesModel = _Rules
else:
    RulesModel = create_model(
        "RulesModel",
        __base__=_Rules,
        __doc__=_Rules.__doc__,
        __module__=__name__,
        **rule_fields(day=Day | None),
    )


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
    members: Annotated[int, Field(ge=0), BeforeValidator(whole_number)] | None = None
    avg_rating: Annotated[float, Field(ge=0), BeforeValidator(finite_number)] | None = None
    players: Annotated[int, Field(ge=0), BeforeValidator(whole_number)] | None = None


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
    challenge_deadline: Instant | None = Field(
        None,
        description="CL-15: the match's own challenge deadline, fixed by a passed reschedule"
        " motion (absent: rules.challenge_deadline_hours before the start)",
    )


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


def _rules_model(rules: domain.SeasonRules) -> RulesModel:
    """CCT-16: the domain rules as the file writes them, every value given."""
    return RulesModel(**rule_values(rules), promotion_places=rules.promoted)


def to_domain(model: SeasonModel) -> domain.Season:
    """The file's season as domain values (no cross-checks: see `load_season`)."""
    rules = model.rules.season_rules()
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
            deadline=m.challenge_deadline,
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
                    challenge_deadline=m.deadline,
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
        items = unknown_first(error.errors(include_url=False))
        problems = [
            (json_path(item["loc"]), plain(item) + suggestion(item, items)) for item in items
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

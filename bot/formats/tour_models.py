"""The tour file's JSON as pydantic models, as docs/tour-file.md describes it.

The models check the shape of a file. `bot.formats.tour_file` turns a checked file into the
core's domain values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from bot.formats.numbers import Name, printable
from core.names import NOTE_LIMIT
from core.tour.knockout import (
    STAGE_NAMES,
    Tie,
)
from core.tour.ranking import (
    EVENT_SIZES,
    EventType,
)

FINALS_SIZE = EVENT_SIZES[EventType.FINALS]
"""CCT-2: the Finals' places when the file's reader does not give `finals_size`."""
SCORE = r"^\s*\d+(\.5)?\s*-\s*\d+(\.5)?\s*$"
Score = Annotated[str, Field(pattern=SCORE, description='"2.5-1.5", first-named player first')]
MAX_TABLE_POINTS = 1000
"""The most one place or stage of a CCT-6 table may give. A Major winner gets 80."""
Points = Annotated[int, Field(ge=0, le=MAX_TABLE_POINTS)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class KnockoutPoints(_Model):
    """CCT-6: tour points per knock-out stage. 3rd and 4th default to the semi-final value."""

    winner: Points
    runner_up: Points = Field(alias="runner-up")
    third: Points | None = Field(None, alias="3rd")
    fourth: Points | None = Field(None, alias="4th")
    semi_final: Points = Field(alias="semi-final")
    quarter_final: Points = Field(0, alias="quarter-final")


class PointsModel(_Model):
    """CCT-6: one event type's tour points table."""

    preliminary: list[Points]
    knockout: KnockoutPoints


class PointsByType(_Model):
    regular: PointsModel | None = None
    major: PointsModel | None = None


ScoringName = Literal["1/½/0", "3/1/0"]
"""CCT-8a: a preliminary's game scoring, one of `core.tour.preliminary.SCORINGS`."""


class RulesModel(_Model):
    points: PointsByType = Field(default_factory=PointsByType)
    scoring: ScoringName = Field("1/½/0", description="the preliminaries' game scoring (CCT-8a)")


GameResult = Literal["1-0", "1/2-1/2", "0-1", "+/-", "-/+", "-/-"]


class PrelimGameModel(_Model):
    """One preliminary game by CCT-8a: its round, White, Black and result."""

    round: int = Field(ge=1, le=100)
    white: Name
    black: Name
    result: GameResult


class PreliminaryModel(_Model):
    """The preliminary's order: the official one, a TRF file to compute it, or the games.

    The official order lists every player, best first. A TRF file computes it by CCT-8b. As an
    extension written by `/tour export`, it may give the players in pairing-number order with every
    game, the tie-break reading and a drawing of lots for ties left after every criterion.
    """

    order: list[Name] | None = None
    trf: Name | None = Field(None, description="path relative to the tour file")
    players: list[Name] | None = Field(None, description="with games: pairing-number order")
    games: list[PrelimGameModel] | None = None
    tiebreaks: Literal["cct", "fide2024"] = "cct"
    lots: Name | None = Field(None, description="with games: the drawing of lots' seed (CORE-3)")

    @model_validator(mode="after")
    def _one_source(self) -> PreliminaryModel:
        given = [key for key in ("order", "trf", "games") if getattr(self, key) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of `order`, `trf` and `games`")
        if (self.games is None) != (self.players is None):
            raise ValueError("`games` and `players` come together")
        return self


class PlayoffModel(_Model):
    """CCT-8d: the 2 blitz games' score and, at 1-1, the Armageddon winner, a or b."""

    blitz: Score
    armageddon: Literal["a", "b"] | None = None


Round = Literal["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "3rd"]
AwardReasonText = Literal["withdrawal", "no-show", "illness", "other"]
"""CCT-9: why a round or Finals match was awarded without play."""
Note = Annotated[Name, Field(max_length=200)]
"""A walkover's short note, printed as it is, so it passes the name gate."""


class KnockoutModel(_Model):
    """One knock-out round by CCT-8c and CCT-8d."""

    round: Round
    a: Name
    b: Name
    days: list[Score] | None = Field(None, description="the two rapid matches' scores")
    playoff: PlayoffModel | None = None
    winner: Name | None = None
    walkover: bool = False
    reason: AwardReasonText | None = Field(None, description="a walkover's reason (CCT-9)")
    note: Note | None = Field(None, description="a walkover's short note (CCT-9)")


class EventModel(_Model):
    """A Regular or Major event."""

    name: Name
    type: Literal["regular", "major"]
    start: str | None = Field(None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    end: str | None = Field(None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    points: PointsModel | None = None
    scoring: ScoringName | None = Field(
        None, description="the preliminary's game scoring (CCT-8a; default the rules')"
    )
    third_place_match: bool = True
    preliminary: PreliminaryModel
    knockout: list[KnockoutModel]


class FinalsMatchModel(_Model):
    a: Name
    b: Name
    winner: Name
    decided: Literal["rapid", "tiebreak"]
    walkover: bool = Field(False, description="awarded without play, scored 3/0 (CCT-9, 8f)")
    reason: AwardReasonText | None = None
    note: Note | None = None


DeclineNote = Annotated[
    str, StringConstraints(min_length=1, max_length=NOTE_LIMIT), AfterValidator(printable)
]


class DeclineModel(_Model):
    """CCT-3, an extension: a qualified player who declined the Finals, with the organiser's
    note.
    """

    player: Name
    note: DeclineNote | None = None


class FinalsModel(_Model):
    """The Finals: the finalists in pairing-number order and their decided matches.

    No finalists means the Finals are not drawn yet. As an extension by CCT-3, it also lists who
    declined, in order, and the wildcards.
    """

    players: list[Name] = Field(
        default_factory=list, description="the finalists in pairing-number order; none: not drawn"
    )
    matches: list[FinalsMatchModel] = Field(default_factory=list)
    declined: list[DeclineModel] = Field(
        default_factory=list, description="CCT-3: players who declined, in the order they did"
    )
    wildcards: list[Name] | None = Field(
        None,
        description="CCT-3: the organiser's wildcards into places the lists cannot fill "
        "(absent: every finalist not offered a place)",
    )


class TourFile(_Model):
    """A CCT tour file, as docs/tour-file.md describes it."""

    name: Name
    rules: RulesModel = Field(default_factory=RulesModel)
    ambassadors: list[Name] = Field(default_factory=list)
    expelled: list[Name] = Field(
        default_factory=list, description="players expelled from the tour (CCT-9)"
    )
    events: list[EventModel]
    finals: FinalsModel | None = None


TIES: Mapping[str, Tie] = {
    **{t.value: t for t in (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4, Tie.SF1, Tie.SF2)},
    "F": Tie.FINAL,
    "3rd": Tie.THIRD_PLACE,
}
ROUND_NAMES = {tie: name for name, tie in TIES.items()}
STAGE_KEYS = STAGE_NAMES
"""The tour file's names of the knock-out stages. The JSON output uses them too."""

"""The CL season file (`../shared/formats/season-file.md`) as immutable pydantic models.

A season file holds the *facts* of a season; standings, forfeits and disqualifications are
derived from them by `core.league`. Cross-reference checks (unknown clubs, board sums,
duplicate ids) live in `Season`'s validators so every door (CLI, import, bot) applies them.
"""

from __future__ import annotations

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from core.points import HalfPoints


class _Fact(BaseModel):
    """Base of season-file models: immutable; unknown keys are kept (room for more)."""

    model_config = ConfigDict(frozen=True, extra="allow")


class Rules(_Fact):
    """Per-season rule settings frozen at creation (CCT-16 applies to CL seasons too)."""

    games_per_board: int = Field(2, ge=1, description="CL-14: games per board")
    challenge_deadline_hours: int = Field(120, ge=0, description="CL-15")
    max_members: int = Field(400, ge=1, description="CL-5")
    max_avg_rating: float = Field(1700, gt=0, description="CL-6")
    forfeits_to_disqualify: int = Field(3, ge=1, description="CL-DQ, each counter separately")


class Division(_Fact):
    """A division (CL-7) with its clubs and its minimum number of players (CL-9..11)."""

    name: str = Field(min_length=1)
    min_players: int = Field(ge=1)
    clubs: list[str]


class Challenge(_Fact):
    """The chess.com challenge for a match (CL-15): who issued it, when, and its acceptance."""

    issued_by: str
    issued: AwareDatetime
    accepted: AwareDatetime | None = None


class ClubAtStart(_Fact):
    """A club's facts at match start (CL-5, CL-6, CL-20); any may be unknown."""

    members: int | None = Field(None, ge=0)
    avg_rating: float | None = Field(None, ge=0)
    players: int | None = Field(None, ge=0)


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
    round: int = Field(ge=1)
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
    rule: str = "CL-21"
    decided: AwareDatetime | None = None


class DirectorDisqualification(_Fact):
    """A disqualification decided by the directors (CL-18, CL-23)."""

    club: str
    rule: str = "CL-23"
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

"""What a director motion is about by CL-23: the request, its checked subject and its outcome.

A motion's subject is checked when it opens and kept in its `subject` JSON. Each kind of subject
knows how to store itself and how to read itself back from a stored motion.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.formats.boards_csv import BoardRow
from core.votes import MotionKind
from storage.league.matches import BoardRecord
from storage.league.motions import Motion
from storage.league.seasons import SeasonRecord


@dataclass(frozen=True)
class MotionRequest:
    """What a director puts to the vote: the kind and the subject its action needs."""

    kind: MotionKind | str
    reason: str
    season: str | int | None = None
    match_id: int | str | None = None
    """The match, by its number or its key such as `DO-1-1`."""
    club: str | int | None = None
    rule: str | None = None
    boards: Sequence[BoardRow] = ()
    next_season: str | None = None
    start: dt.datetime | str | None = None
    """A reschedule's new start. Text is read in the season's zone by CL-13 and CL-22."""
    tie_order: Sequence[str] = ()
    """A division make-up's decision on ties across a line by CL-17: the tied clubs, best first."""


@dataclass(frozen=True)
class Subject:
    """What a motion is about, checked when it opened.

    It holds its title and the action it would take, both shown on the motion, and the season,
    match, club and rule it names. It also holds the season whose frozen CL-23 settings govern the
    vote, or None for the config's.
    """

    title: str
    details: str = ""
    season_id: int | None = None
    match_id: int | None = None
    club_id: int | None = None
    rule: str | None = None
    governing: SeasonRecord | None = field(default=None, compare=False)

    def stored(self) -> dict[str, Any]:
        """What the motion keeps beyond its columns, in its `subject` JSON."""
        return (
            {"title": self.title, "details": self.details}
            if self.details
            else {"title": self.title}
        )


@dataclass(frozen=True)
class Correction(Subject):
    """CL-14: a result correction's subject: the corrected boards."""

    boards: tuple[BoardRecord, ...] = ()

    def stored(self) -> dict[str, Any]:
        """The title, details and the boards as [number, home, away, home ½, away ½]."""
        boards = [
            [b.board, b.home_player, b.away_player, b.home_half, b.away_half] for b in self.boards
        ]
        return {**super().stored(), "boards": boards}

    @staticmethod
    def boards_of(motion: Motion) -> tuple[BoardRecord, ...]:
        """The corrected boards a stored motion holds."""
        return tuple(
            BoardRecord(int(b[0]), str(b[1]), str(b[2]), int(b[3]), int(b[4]))
            for b in motion.subject["boards"]
        )


@dataclass(frozen=True)
class NextDivision:
    """CL-8: one of next season's divisions, with its name, its clubs best first and its minimum."""

    name: str
    clubs: tuple[str, ...]
    min_players: int


@dataclass(frozen=True)
class Makeup(Subject):
    """CL-8: a division make-up's subject: next season's name and divisions."""

    next_season: str = ""
    divisions: tuple[NextDivision, ...] = ()

    def stored(self) -> dict[str, Any]:
        """The title, details, next season's name and divisions as [name, clubs, min]."""
        return {
            **super().stored(),
            "next_season": self.next_season,
            "divisions": [[d.name, list(d.clubs), d.min_players] for d in self.divisions],
        }

    @staticmethod
    def of(motion: Motion) -> tuple[str, tuple[NextDivision, ...]]:
        """Next season's name and divisions a stored motion holds."""
        divisions = tuple(
            NextDivision(str(name), tuple(str(c) for c in clubs), int(minimum))
            for name, clubs, minimum in motion.subject["divisions"]
        )
        return str(motion.subject["next_season"]), divisions


@dataclass(frozen=True)
class Outcome:
    """What applying a passed motion did, as the sentence its closing says."""

    text: str


class NotApplied(Exception):
    """A passed motion whose action can no longer be applied. Its outcome says so."""

"""The tour: event types and sizes by CCT-2, tour points and the tour ranking by CCT-6.

Points tables are data frozen into each event by CCT-16. The defaults are CCT-6's. A Regular gives
40/25/15/10/0 in the knock-out and 10/8/6/5/4/3/2/1 for preliminary places, and a Major doubles
them.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from core.ranks import equal_runs, shared_ranks
from core.tour.knockout import KoStage

Player = Hashable


class EventType(enum.Enum):
    """CCT-2: the three kinds of tour event."""

    REGULAR = "regular"
    MAJOR = "major"
    FINALS = "finals"


EVENT_SIZES: Mapping[EventType, int] = {
    EventType.REGULAR: 16,
    EventType.MAJOR: 12,
    EventType.FINALS: 10,
}
"""CCT-2: the configured default number of players per event type.

An event's own size is however many players its preliminary has. The 2020-21 tour held 16-player
Majors.
"""

KNOCKOUT_PLACES = 8
"""CCT-8c: preliminary places 1-8 go on to the knock-out."""

KO_SLOTS: Mapping[KoStage, int] = {
    KoStage.QUARTER_FINAL: 4,
    KoStage.SEMI_FINAL: 2,
    KoStage.FOURTH: 1,
    KoStage.THIRD: 1,
    KoStage.RUNNER_UP: 1,
    KoStage.WINNER: 1,
}
"""CCT-8c: how many players finish at each knock-out stage.

The two semi-final losers are either both SEMI_FINAL, or THIRD and FOURTH after the 3rd-place match.
"""

SEMI_FINAL_LOSERS = frozenset({KoStage.SEMI_FINAL, KoStage.THIRD, KoStage.FOURTH})
"""CCT-8c: the stages of a semi-final loser, with or without the 3rd-place match."""


class TourError(ValueError):
    """Tour data the regulation does not allow, such as a bad table or an inconsistent event."""


@dataclass(frozen=True, slots=True)
class PointsTable:
    """CCT-6: the configured tour points by preliminary place and knock-out stage.

    Index 0 of the places is 1st. `label` says where the table comes from. A table without 3rd and
    4th values gives both semi-final losers its SEMI_FINAL value.
    """

    label: str
    preliminary: tuple[int, ...]
    knockout: Mapping[KoStage, int]

    def __post_init__(self) -> None:
        # CCT-16: the table is frozen as created. Changing the mapping passed in changes nothing.
        object.__setattr__(self, "preliminary", tuple(self.preliminary))
        object.__setattr__(self, "knockout", MappingProxyType(dict(self.knockout)))
        if any(p < 0 for p in self.preliminary) or any(p < 0 for p in self.knockout.values()):
            raise TourError(f"{self.label}: tour points cannot be negative")

    def points(self, place: int, stage: KoStage) -> int:
        """CCT-6: points for a preliminary place plus the knock-out stage reached."""
        prelim = self.preliminary[place - 1] if 1 <= place <= len(self.preliminary) else 0
        return prelim + self.stage_points(stage)

    def stage_points(self, stage: KoStage) -> int:
        """CCT-6: the knock-out points of a stage. 3rd and 4th fall back to the semi-final value."""
        if stage in (KoStage.THIRD, KoStage.FOURTH) and stage not in self.knockout:
            stage = KoStage.SEMI_FINAL
        return self.knockout.get(stage, 0)

    def scaled(self, factor: int, label: str) -> PointsTable:
        """This table with every entry multiplied by `factor`, under a new label."""
        return PointsTable(
            label=label,
            preliminary=tuple(p * factor for p in self.preliminary),
            knockout={stage: p * factor for stage, p in self.knockout.items()},
        )


REGULAR_POINTS = PointsTable(
    label="CCT-6 default Regular table",
    preliminary=(10, 8, 6, 5, 4, 3, 2, 1),
    knockout={
        KoStage.QUARTER_FINAL: 0,
        KoStage.SEMI_FINAL: 10,
        KoStage.FOURTH: 10,
        KoStage.THIRD: 15,
        KoStage.RUNNER_UP: 25,
        KoStage.WINNER: 40,
    },
)
"""CCT-6: the default Regular table. A semi-final loser without a 3rd-place match gets 10."""

MAJOR_POINTS = REGULAR_POINTS.scaled(2, label="CCT-6 default Major table (Regular doubled)")
"""CCT-6: the default Major table, every Regular value doubled."""

DEFAULT_POINTS_TABLES: Mapping[EventType, PointsTable] = {
    EventType.REGULAR: REGULAR_POINTS,
    EventType.MAJOR: MAJOR_POINTS,
}
"""CCT-6: default tables per event type. The Finals award the tour title, not tour points."""


@dataclass(frozen=True, slots=True)
class EventFinish:
    """One player's finish in an event: preliminary place and knock-out stage reached."""

    player: Player
    place: int
    stage: KoStage = KoStage.NONE


@dataclass(frozen=True, slots=True)
class TourEvent:
    """CCT-2: a finished Regular or Major event with every participant's finish.

    By CCT-16 the tour points table is frozen into it at creation. When None, the table passed for
    its type is used when points are computed, see `with_points_table`.
    """

    name: str
    type: EventType
    finishes: tuple[EventFinish, ...]
    points_table: PointsTable | None = None

    def __post_init__(self) -> None:
        players = [f.player for f in self.finishes]
        if len(set(players)) != len(players):
            raise TourError(f"{self.name}: a player is listed twice")
        places = sorted(f.place for f in self.finishes)
        if places != list(range(1, len(places) + 1)):
            raise TourError(f"{self.name}: preliminary places must be 1..{len(places)} once each")
        for finish in self.finishes:
            if finish.stage is not KoStage.NONE and finish.place > KNOCKOUT_PLACES:
                raise TourError(
                    f"{self.name}: {finish.player!r} placed {finish.place} cannot reach the "
                    "knock-out (places 1-8, CCT-8c)"
                )
        for stage, slots in KO_SLOTS.items():
            count = sum(1 for f in self.finishes if f.stage is stage)
            if count > slots:
                raise TourError(f"{self.name}: {count} players at stage {stage.value!r}")
        if sum(1 for f in self.finishes if f.stage in SEMI_FINAL_LOSERS) > 2:
            raise TourError(f"{self.name}: more than two semi-final losers")

    def with_points_table(
        self, tables: Mapping[EventType, PointsTable] = DEFAULT_POINTS_TABLES
    ) -> TourEvent:
        """CCT-16: this event with its type's table in `tables` frozen into it.

        An event that already stores one keeps it, since rules change only prospectively.
        """
        if self.points_table is not None:
            return self
        table = tables.get(self.type)
        if table is None:
            raise TourError(f"{self.name}: no tour points table for {self.type.value} events")
        return TourEvent(self.name, self.type, self.finishes, table)

    @property
    def winner(self) -> Player | None:
        """The event winner, that is the knock-out winner, if known."""
        return next((f.player for f in self.finishes if f.stage is KoStage.WINNER), None)


@dataclass(frozen=True, slots=True)
class TourRecord:
    """CCT-6: a player's tour points and the five tie criteria."""

    player: Player
    points: int = 0
    wins: int = 0
    events: int = 0
    finals: int = 0
    semi_finals: int = 0
    quarter_finals: int = 0

    def sort_key(self) -> tuple[int, ...]:
        """CCT-6: points, wins, events and final, SF and QF appearances.

        More is better for all of them except events, where fewer is better.
        """
        return (
            -self.points,
            -self.wins,
            self.events,
            -self.finals,
            -self.semi_finals,
            -self.quarter_finals,
        )


@dataclass(frozen=True, slots=True)
class TourRank:
    """CCT-6: one line of the tour ranking. `tied` is set when the rank is shared after all
    criteria.
    """

    rank: int
    player: Player
    record: TourRecord
    tied: bool = False


_FINAL = {KoStage.RUNNER_UP, KoStage.WINNER}
_SEMI = _FINAL | SEMI_FINAL_LOSERS
_QUARTER = _SEMI | {KoStage.QUARTER_FINAL}


def tour_records(
    events: Iterable[TourEvent],
    tables: Mapping[EventType, PointsTable] = DEFAULT_POINTS_TABLES,
) -> dict[Player, TourRecord]:
    """CCT-6: tour points and tie criteria per player over `events`.

    An event scores with the table frozen into it by CCT-16, else with `tables[event.type]`. An
    appearance counts every knock-out round played, so a finalist also appeared in a semi-final and
    a quarter-final.
    """
    records: dict[Player, TourRecord] = {}
    for event in events:
        table = event.points_table or tables.get(event.type)
        if table is None:
            raise TourError(f"{event.name}: no tour points table for {event.type.value} events")
        for f in event.finishes:
            r = records.get(f.player, TourRecord(f.player))
            records[f.player] = TourRecord(
                player=f.player,
                points=r.points + table.points(f.place, f.stage),
                wins=r.wins + (f.stage is KoStage.WINNER),
                events=r.events + 1,
                finals=r.finals + (f.stage in _FINAL),
                semi_finals=r.semi_finals + (f.stage in _SEMI),
                quarter_finals=r.quarter_finals + (f.stage in _QUARTER),
            )
    return records


def tour_ranking(
    events: Iterable[TourEvent],
    tables: Mapping[EventType, PointsTable] = DEFAULT_POINTS_TABLES,
) -> tuple[TourRank, ...]:
    """CCT-6: the tour ranking over `events`, as `rank_records` orders it."""
    return rank_records(tour_records(events, tables).values())


def rank_records(records: Iterable[TourRecord]) -> tuple[TourRank, ...]:
    """CCT-6: orders by points and the five tie criteria.

    Players equal on all of them share the rank, as in 1, 2, 2, 4, and are listed by their id for a
    stable display.
    """
    ordered = sorted(records, key=lambda r: (r.sort_key(), str(r.player)))
    return tuple(
        TourRank(rank, record.player, record, len(group) > 1)
        for rank, group in shared_ranks(equal_runs(ordered, TourRecord.sort_key))
        for record in group
    )


def tie_at_cut(ranking: Sequence[TourRank], taken: int) -> tuple[Player, ...]:
    """CCT-6: the players sharing the rank that the cut after `taken` places splits.

    Some are in and some out. This is a "play-off required (organiser may forgo)" group. It is empty
    when the cut is clean.
    """
    if not 0 < taken < len(ranking) or ranking[taken - 1].rank != ranking[taken].rank:
        return ()
    rank = ranking[taken].rank
    return tuple(r.player for r in ranking if r.rank == rank)

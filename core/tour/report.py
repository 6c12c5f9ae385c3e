"""A whole tour computed from its played events and Finals.

It gives every event's placings and tour points by CCT-6 and CCT-8c, the tour ranking, the Finals
qualification by CCT-3 and the Finals table with bonus points by CCT-8f.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from core.tour.events import PlayedEvent
from core.tour.finals import FinalsError, FinalsStandings, bonus_points, finals_standings
from core.tour.knockout import ContestStatus, KoStage
from core.tour.qualification import (
    FinalsField,
    QualificationList,
    finals_field,
    major_winners,
    qualify_for_event,
    qualify_for_finals,
    regular_winners_since_last_major,
)
from core.tour.ranking import (
    DEFAULT_POINTS_TABLES,
    EVENT_SIZES,
    EventType,
    PointsTable,
    TourError,
    TourRank,
    rank_records,
    tour_records,
)
from core.tour.timecontrols import Phase

Player = Hashable


@dataclass(frozen=True, slots=True)
class FinalsMatch:
    """CCT-8f: one decided Finals match, in the rapid games for 3/0 or the tie-break for 2/1."""

    a: Player
    b: Player
    winner: Player
    rapid: bool

    def status(self) -> ContestStatus:
        """The match as the Finals scoring counts a decided contest."""
        loser = self.b if self.winner == self.a else self.a
        phase = Phase.RAPID if self.rapid else Phase.BLITZ
        return ContestStatus((), winner=self.winner, loser=loser, decided_by=phase)


@dataclass(frozen=True, slots=True)
class FinalsResults:
    """CCT-8f: the finalists and the matches decided so far. Each pair meets once."""

    players: tuple[Player, ...]
    matches: tuple[FinalsMatch, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "matches", tuple(self.matches))
        if len(set(self.players)) != len(self.players):
            raise FinalsError("a finalist is listed twice")
        seen: set[frozenset[Player]] = set()
        for m in self.matches:
            pair = frozenset((m.a, m.b))
            if len(pair) != 2 or not pair <= set(self.players) or m.winner not in pair:
                raise FinalsError(f"{m.a!r} v {m.b!r} is not a match between two finalists")
            if pair in seen:
                raise FinalsError(f"{m.a!r} and {m.b!r} meet once in the round robin")
            seen.add(pair)


@dataclass(frozen=True, slots=True)
class Tour:
    """CCT-2: a tour and who takes part in it.

    It holds its events in order, the Finals when held, and its Tour Ambassadors, who take the
    Finals' last places by CCT-3 and share the pool by CCT-5. It holds the players expelled from it,
    who by CCT-9 play no further event and so qualify for none. It also holds the players who
    declined the Finals, in the order they did, and the Finals' wildcards by CCT-3.
    """

    name: str
    events: tuple[PlayedEvent, ...]
    finals: FinalsResults | None = None
    ambassadors: tuple[Player, ...] = ()
    expelled: tuple[Player, ...] = ()
    finals_declined: tuple[Player, ...] = ()
    finals_wildcards: tuple[Player, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", tuple(self.events))
        object.__setattr__(self, "ambassadors", tuple(self.ambassadors))
        object.__setattr__(self, "expelled", tuple(self.expelled))
        object.__setattr__(self, "finals_declined", tuple(self.finals_declined))
        object.__setattr__(self, "finals_wildcards", tuple(self.finals_wildcards))
        names = [e.name for e in self.events]
        if len(set(names)) != len(names):
            raise TourError("two events have the same name")


@dataclass(frozen=True, slots=True)
class EventPoints:
    """CCT-6: one player's tour points from one event, with what earned them."""

    player: Player
    points: int
    preliminary_place: int
    stage: KoStage


@dataclass(frozen=True, slots=True)
class EventReport:
    """CCT-8c and CCT-6: one event's placings and tour points, in placing order."""

    event: PlayedEvent
    table: PointsTable
    placings: tuple[tuple[int, Player], ...]
    points: tuple[EventPoints, ...]


@dataclass(frozen=True, slots=True)
class TourReport:
    """The tour as after `after`, or after every event with the Finals for None."""

    name: str
    after: str | None
    events: tuple[EventReport, ...]
    ranking: tuple[TourRank, ...]
    qualification: QualificationList
    finals: FinalsStandings | None
    field: FinalsField | None = None
    """CCT-3: the Finals field as it formed: declines, where their places went, wildcards."""


def event_report(event: PlayedEvent, table: PointsTable) -> EventReport:
    """CCT-6/CCT-8c: placings and each player's tour points from `table`."""
    finishes = {f.player: f for f in event.finishes()}
    placings = event.placings()
    points = tuple(
        EventPoints(
            p,
            table.points(finishes[p].place, finishes[p].stage),
            finishes[p].place,
            finishes[p].stage,
        )
        for _, p in placings
    )
    return EventReport(event, table, placings, points)


def tour_report(
    tour: Tour,
    after: str | None = None,
    tables: Mapping[EventType, PointsTable] = DEFAULT_POINTS_TABLES,
    finals_size: int = EVENT_SIZES[EventType.FINALS],
) -> TourReport:
    """CCT-3, CCT-6, CCT-8c and CCT-8f: the tour after the event named `after`, or after every
    event.

    After a named event the Finals are left out. An event scores with its own table, else with the
    table in `tables` for its type, by CCT-16. The Finals list gives its 2 Ambassador places to the
    tour's best-ranked Ambassadors not already in, and a tour naming none leaves them to the
    organiser. By CCT-3 the Finals' declines and wildcards count only after every event, since
    before that no one had declined yet.
    """
    events = list(tour.events)
    if after is not None:
        names = [e.name for e in events]
        if after not in names:
            raise TourError(f"no event named {after!r}")
        events = events[: names.index(after) + 1]
    frozen = [e.tour_event().with_points_table(tables) for e in events]
    reports = tuple(
        event_report(e, t.points_table)
        for e, t in zip(events, frozen, strict=True)
        if t.points_table is not None
    )
    records = tour_records(frozen, tables)
    ranking = rank_records(records.values())
    field = finals_field(
        ranking,
        major_winners(frozen),
        tour.ambassadors,
        tour.finals_declined if after is None else (),
        tour.finals_wildcards if after is None else (),
        tour.expelled,
        size=finals_size,
    )
    finals = None
    if after is None and tour.finals is not None:
        if len(tour.finals.players) != finals_size:
            raise FinalsError(
                f"the Finals have {finals_size} players, not {len(tour.finals.players)}"
            )
        points = {p: records[p].points if p in records else 0 for p in tour.finals.players}
        finals = finals_standings(bonus_points(points), (m.status() for m in tour.finals.matches))
    return TourReport(tour.name, after, reports, ranking, field.listed, finals, field)


def event_qualification(
    prior: Sequence[PlayedEvent],
    event_type: EventType,
    size: int,
    *,
    ambassadors: Collection[Player] = (),
    top: int = 8,
    tables: Mapping[EventType, PointsTable] = DEFAULT_POINTS_TABLES,
    expelled: Collection[Player] = (),
) -> QualificationList:
    """CCT-3: who is qualified for an event of `event_type` and `size` played after the events
    `prior`.

    `prior` is in tour order. It takes the top of the tour standings after them, the Regular winners
    since the last Major for a Major, and the Major winners and Ambassadors for the Finals. By CCT-9
    an `expelled` player qualifies for nothing, and their place goes on as a decliner's.
    """
    frozen = [e.tour_event().with_points_table(tables) for e in prior]
    ranking = rank_records(tour_records(frozen, tables).values())
    if event_type is EventType.FINALS:
        return qualify_for_finals(ranking, major_winners(frozen), ambassadors, expelled, size=size)
    winners = regular_winners_since_last_major(frozen) if event_type is EventType.MAJOR else []
    return qualify_for_event(event_type, ranking, winners, expelled, size=size, top=top)


def event_finals_field(
    prior: Sequence[PlayedEvent],
    size: int,
    *,
    ambassadors: Collection[Player] = (),
    tables: Mapping[EventType, PointsTable] = DEFAULT_POINTS_TABLES,
    expelled: Collection[Player] = (),
    declined: Sequence[Player] = (),
    wildcards: Sequence[Player] = (),
) -> FinalsField:
    """CCT-3: the Finals field after the events `prior` — the list with the `declined`
    players' places offered on, and the `wildcards` in the places it cannot fill."""
    frozen = [e.tour_event().with_points_table(tables) for e in prior]
    ranking = rank_records(tour_records(frozen, tables).values())
    return finals_field(
        ranking, major_winners(frozen), ambassadors, declined, wildcards, expelled, size
    )

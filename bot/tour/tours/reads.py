"""Tour read models: a tour's card, the tour report, the qualification for one event and the prizes.

The card shows its events and their state. The report holds every finished event's placings and tour
points, the ranking with the five CCT-6 criteria, and the Finals qualification and table. It is what
`arbiter tour` computes from the exported file. The qualification follows CCT-3 and the prizes
CCT-5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.kernel.errors import UserError
from bot.kernel.inputs import named, shown
from bot.tour.event_state import tour_event_state
from bot.tour.references import find_event, find_tour
from bot.tour.store import LoadedEvent, LoadedTour, load_tour
from core.results import Scoring
from core.tour.prizes import (
    FUNDS,
    REGULAR_PRIZES,
    PrizeDistribution,
    PrizeError,
    PrizeTable,
    ambassador_shares,
    distribute_prizes,
)
from core.tour.qualification import FinalsField, QualificationList
from core.tour.ranking import EventType, PointsTable, TourError
from core.tour.report import TourReport, event_qualification, tour_report
from core.tour.rules import TourRules
from storage.guild import GuildStore
from storage.tour.events import TourEventRecord


@dataclass(frozen=True)
class EventLine:
    """One event of a tour card: name, type, size, start, status, players entered, winner.

    The status and winner are `bot.tour.event_state`'s, the same the event's own card shows.
    """

    name: str
    type: str
    size: int
    start: str
    status: str
    players: int
    winner: str | None
    points: PointsTable | None = None
    """CCT-6: the event's own tour points table, when it is not the tour's for its type."""
    scoring: Scoring | None = None
    """CCT-8a: the event's game scoring, when it is not the tour's."""
    tied_for_first: tuple[str, ...] = ()
    """CCT-8f: the players sharing first place in finished Finals, for the organiser to decide."""


@dataclass(frozen=True)
class TourCard:
    """`/tour show`: the tour's events in order, its players and Ambassadors, and its rules.

    The rules are the tour points tables and the game scoring that new events take.
    """

    name: str
    events: tuple[EventLine, ...]
    players: int
    ambassadors: tuple[str, ...]
    rules: TourRules | None = None


async def loaded_tour(store: GuildStore, tour: str | int) -> LoadedTour:
    """The tour `tour` names or numbers, loaded whole from one read snapshot."""
    async with store.read() as view:
        record = await find_tour(view, tour)
        return await load_tour(view, record)


async def tour_card(store: GuildStore, tour: str) -> TourCard:
    """`/tour show`: events and their state."""
    return card_of(await loaded_tour(store, tour))


def card_of(loaded: LoadedTour) -> TourCard:
    """`/tour show` of a loaded tour: events and their state."""
    lines = []
    for event in loaded.events:
        record = event.record
        state = tour_event_state(loaded, event)
        own = record.points
        tours = loaded.rules.points_table(record.type)
        if own is None or tours is None or _pays(own) == _pays(tours):
            own = None
        lines.append(
            EventLine(
                record.name,
                record.type.value,
                record.size,
                record.start.isoformat(),
                state.status,
                len(event.players),
                state.winner,
                own,
                None if record.scoring == loaded.rules.scoring else record.scoring,
                state.tied_for_first,
            )
        )
    return TourCard(
        loaded.record.name,
        tuple(lines),
        len(loaded.players),
        loaded.ambassadors,
        loaded.rules,
    )


def _pays(table: PointsTable) -> tuple[object, ...]:
    """CCT-6: what a table pays, whatever its label."""
    return (table.preliminary, dict(table.knockout))


def report_of(loaded: LoadedTour, after: str | None = None) -> TourReport:
    """CCT-3, CCT-6, CCT-8c and CCT-8f: the tour report from the stored facts.

    It uses the finished events, the Finals once drawn and the Ambassadors, as after the event
    `after` if given.
    """
    tour = loaded.tour()
    finals = loaded.finals()
    size = finals.record.size if finals is not None else loaded.rules.sizes[EventType.FINALS]
    if after is not None:
        names = {e.name.casefold(): e.name for e in tour.events}
        if after.strip().casefold() not in names:
            raise UserError(f"{shown(after)} is not a finished event of {named(tour.name)}.")
        after = names[after.strip().casefold()]
    try:
        return tour_report(tour, after, loaded.rules.points, size)
    except (TourError, ValueError) as error:
        raise UserError(f"The tour {named(tour.name)} cannot be computed: {error}.") from None


async def tour_standings(store: GuildStore, tour: str, after: str | None = None) -> TourReport:
    """`/tour standings`: the report, as after `after` if given."""
    return report_of(await loaded_tour(store, tour), after)


async def qualification(
    store: GuildStore, tour: str, event: str
) -> tuple[TourEventRecord, QualificationList, FinalsField | None]:
    """CCT-3: who is qualified for `event` and why, from the events finished before it.

    For the Finals it gives the field as it forms, with declines, wildcards and places open.
    """
    loaded = await loaded_tour(store, tour)
    async with store.read() as view:
        record = await find_event(view, event, loaded.record)
    return qualification_of(loaded, record)


def qualification_of(
    loaded: LoadedTour, record: TourEventRecord
) -> tuple[TourEventRecord, QualificationList, FinalsField | None]:
    """CCT-3: `qualification` for an event of a loaded tour."""
    target = next(e for e in loaded.events if e.record.id == record.id)
    if record.type is EventType.FINALS:
        try:
            field = loaded.finals_field(target)
        except TourError as error:
            raise UserError(f"Qualification for {named(record.name)}: {error}.") from None
        return record, field.listed, field
    try:
        listed = event_qualification(
            loaded.played_before(target),
            record.type,
            record.size,
            ambassadors=loaded.ambassadors,
            top=loaded.rules.qualifying_top,
            tables=loaded.rules.points,
            expelled=loaded.expelled,
        )
    except TourError as error:
        raise UserError(f"Qualification for {named(record.name)}: {error}.") from None
    return record, listed, None


@dataclass(frozen=True)
class EventPrizes:
    """CCT-5: one event's fund and distribution.

    It is None when no table is configured or the event is not over.
    """

    event: str
    type: EventType
    fund: int
    table: PrizeTable | None
    distribution: PrizeDistribution | None


@dataclass(frozen=True)
class Prizes:
    """CCT-5: the events' prizes and the Ambassador pool's shares."""

    events: tuple[EventPrizes, ...]
    pool: int
    shares: dict[str, Fraction]


def prize_table(event_type: EventType, size: int) -> PrizeTable | None:
    """CCT-5: the distribution table of an event.

    The default Regular table serves a Regular of 16. The regulation's other tables are images
    missing from its text.
    """
    if event_type is EventType.REGULAR and size == max(REGULAR_PRIZES.places):
        return REGULAR_PRIZES
    return None


async def prizes(store: GuildStore, tour: str, event: str | None = None) -> Prizes:
    """CCT-5: each finished event's prizes and the pool. Players in breach get none."""
    loaded = await loaded_tour(store, tour)
    chosen = loaded.events
    if event is not None:
        async with store.read() as view:
            record = await find_event(view, event, loaded.record)
        chosen = tuple(e for e in loaded.events if e.record.id == record.id)
    return prizes_of(loaded, chosen)


def prizes_of(loaded: LoadedTour, chosen: Sequence[LoadedEvent]) -> Prizes:
    """CCT-5: `prizes` of the events `chosen` of a loaded tour."""
    found = []
    for item in chosen:
        record = item.record
        table = prize_table(record.type, record.size)
        played = loaded.played.get(record.id)
        distribution = None
        if table is not None and played is not None:
            try:
                distribution = distribute_prizes(table, played.finishes(), loaded.expelled)
            except PrizeError as error:
                raise UserError(f"Prizes of {named(record.name)}: {error}.") from None
        found.append(
            EventPrizes(
                record.name,
                record.type,
                FUNDS[record.type],
                table,
                distribution,
            )
        )
    shares: dict[str, Fraction] = {}
    if loaded.ambassadors:
        shares = {
            str(p): share
            for p, share in ambassador_shares(
                loaded.rules.ambassador_pool, loaded.ambassadors, loaded.expelled
            ).items()
        }
    return Prizes(tuple(found), loaded.rules.ambassador_pool, shares)

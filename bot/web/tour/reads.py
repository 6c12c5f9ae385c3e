"""What the tour's pages read: the same services and views the tour commands use, by path id.

Each function finds its tour or event by the number in the path, so no user text names a record,
and it returns the views the commands render. A service's refusal to find something becomes the
404 page in the site's error middleware.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot.kernel.errors import UserError
from bot.rendering.tour.bracket import BracketView
from bot.rendering.tour.prizes_embeds import AmbassadorPool, EventPrizes
from bot.rendering.tour.views import FinalsView, PreliminaryView, TourStandingsView
from bot.tour import event_reads, views
from bot.tour.event_reads import EventRead
from bot.tour.finals.reads import FinalsCard, finals_card
from bot.tour.store import LoadedEvent, LoadedTour
from bot.tour.tours import reads as tour_reads
from bot.tour.tours.reads import TourCard
from bot.web.pages import BadRequest, Guild, NotFound, number
from core.tour.event_facts import TieState
from core.tour.knockout import Tie
from core.tour.qualification import FinalsField, QualificationList
from core.tour.ranking import EventType
from core.tour.report import TourReport
from storage.tour.events import TourEventRecord


@dataclass(frozen=True)
class EventQualification:
    """CCT-3: who is qualified for one event of the tour, as `/tour qualification` shows it."""

    event: TourEventRecord
    listed: QualificationList | None
    field: FinalsField | None
    problem: str | None = None
    """Why the list cannot be computed from the stored facts, when it cannot."""


@dataclass(frozen=True)
class TourPage:
    """A tour as its page shows it: the card, the standings, each event's qualification, prizes."""

    loaded: LoadedTour
    card: TourCard
    report: TourReport
    standings: TourStandingsView
    after: LoadedEvent | None
    qualification: tuple[EventQualification, ...]
    prizes: tuple[list[EventPrizes], AmbassadorPool | None]


async def tour_page(guild: Guild, request: web.Request) -> TourPage:
    """`/tour show`, `/tour standings` (with `?after=` an event id), `/tour qualification` for
    each event and `/tour prizes`, from one loaded tour."""
    loaded = await tour_reads.loaded_tour(guild.store, number(request, "tour"))
    after = _after(loaded, request.query.get("after"))
    report = tour_reads.report_of(loaded, None if after is None else after.record.name)
    listed = []
    for event in loaded.events:
        try:
            _, found, field = tour_reads.qualification_of(loaded, event.record)
        except UserError as error:
            listed.append(EventQualification(event.record, None, None, error.message))
            continue
        listed.append(EventQualification(event.record, found, field))
    return TourPage(
        loaded,
        tour_reads.card_of(loaded),
        report,
        views.tour_standings(report),
        after,
        tuple(listed),
        views.prizes(tour_reads.prizes_of(loaded, loaded.events)),
    )


async def tour_standings(guild: Guild, request: web.Request) -> TourStandingsView:
    """`/tour standings`, as after the event `?after=` numbers if given."""
    loaded = await tour_reads.loaded_tour(guild.store, number(request, "tour"))
    after = _after(loaded, request.query.get("after"))
    report = tour_reads.report_of(loaded, None if after is None else after.record.name)
    return views.tour_standings(report)


def _after(loaded: LoadedTour, text: str | None) -> LoadedEvent | None:
    """The event `?after=` numbers, one of the tour's; the 404 page for another."""
    if text is None or text == "":
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise BadRequest(f"after must be an event's number, not {text[:40]!r}.")
    found = next((e for e in loaded.events if e.record.id == int(text)), None)
    if found is None:
        raise NotFound(f"no event {text} in the tour")
    return found


@dataclass(frozen=True)
class EventPage:
    """An event as its page shows it: the preliminary, the bracket and the Finals as known."""

    read: EventRead
    preliminary: PreliminaryView | None
    bracket: BracketView | None
    ties: dict[Tie, TieState]
    finals: FinalsView | None
    finals_card: FinalsCard | None
    problem: str | None = None
    """Why the Finals table cannot be computed from the stored facts, when it cannot."""

    @property
    def record(self) -> TourEventRecord:
        """The event's record."""
        return self.read.loaded.record


async def event_page(guild: Guild, request: web.Request) -> EventPage:
    """`/event standings`, `/event bracket` and `/finals standings` of the event in the path,
    each only once the event has it."""
    event = number(request, "event")
    read = await event_reads.read_event(guild.store, event)
    loaded = read.loaded
    record = loaded.record
    preliminary = bracket = finals = None
    ties: dict[Tie, TieState] = {}
    card = None
    problem = None
    if record.type is EventType.FINALS:
        if loaded.facts.players:
            try:
                card = await finals_card(guild.store, event)
            except UserError as error:
                problem = error.message
            else:
                finals = views.finals(card.event, card.standings)
    elif record.drawn_at is not None:
        _, rows = event_reads.standings_of(read)
        preliminary = views.preliminary(loaded, rows)
        if loaded.facts.seeds:
            found = event_reads.bracket_of(read)
            ties = found.ties
            bracket = views.bracket(found.read.loaded, found.ties)
    return EventPage(read, preliminary, bracket, ties, finals, card, problem)

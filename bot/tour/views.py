"""The tour's read models as the views the tour renderers draw (bot/rendering/tour/views.py,
bracket.py): a preliminary with its standings and games, the knock-out bracket with
each series' state, the Finals table, the tour standings with their play-off marks, the
prizes — so the embeds, images and CSV of the tour commands come from one set of modules."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import discord

from bot.rendering.tour.bracket import BracketView, bracket_view
from bot.rendering.tour.bracket_image import bracket_png
from bot.rendering.tour.prizes_embeds import AmbassadorPool, EventPrizes
from bot.rendering.tour.standings_embeds import preliminary_embeds
from bot.rendering.tour.views import (
    FinalsView,
    PreliminaryView,
    TourStandingsView,
    finals_view,
    preliminary_view,
    tour_standings_view,
)
from bot.tour.store import LoadedEvent
from bot.tour.tours.reads import Prizes
from core.standings import PlayerStanding
from core.tiebreaks import Game
from core.tour.event_facts import TieState
from core.tour.finals import FinalsStandings
from core.tour.knockout import Bracket, ContestStatus, Tie
from core.tour.report import TourReport


def preliminary(loaded: LoadedEvent, rows: tuple[PlayerStanding, ...]) -> PreliminaryView:
    """CCT-8b: the preliminary's standings with its settled games, once per loaded event."""
    return loaded.derived("preliminary view", lambda: _preliminary(loaded, rows))


def preliminary_pages(loaded: LoadedEvent, rows: tuple[PlayerStanding, ...]) -> list[discord.Embed]:
    """CCT-8b: the standings embeds, drawn once per loaded event and handed out as new embeds.

    A reply's pages get their own footers.
    """
    pages = loaded.derived(
        "preliminary pages",
        lambda: [e.to_dict() for e in preliminary_embeds(preliminary(loaded, rows))],
    )
    return [discord.Embed.from_dict(page) for page in pages]


def bracket_image(loaded: LoadedEvent, ties: dict[Tie, TieState]) -> bytes:
    """CCT-8c to CCT-8e: the bracket PNG, drawn once per loaded event."""
    return loaded.derived("bracket png", lambda: bracket_png(bracket(loaded, ties)))


def _preliminary(loaded: LoadedEvent, rows: tuple[PlayerStanding, ...]) -> PreliminaryView:
    facts = loaded.facts
    games = [Game(g.white, g.black, g.result, g.round) for g in facts.prelim_games]
    return preliminary_view(
        loaded.record.name,
        rows,
        games,
        reading=facts.reading,
        places_going_on=facts.places_that_count,
        scoring=facts.scoring,
    )


def bracket(loaded: LoadedEvent, ties: dict[Tie, TieState]) -> BracketView:
    """CCT-8c-e: the bracket from the seeds, each known round's series or recorded winner."""
    facts = loaded.facts
    statuses: dict[Tie, ContestStatus] = {
        tie: state.status for tie, state in ties.items() if state.status is not None
    }
    awarded = {tie: state.record.winner for tie, state in ties.items() if state.record}
    walkovers = [tie for tie, state in ties.items() if state.record and state.record.walkover]
    reasons = {
        tie: state.record.reason.value
        for tie, state in ties.items()
        if state.record is not None and state.record.reason is not None
    }
    return bracket_view(
        loaded.record.name,
        Bracket(tuple(facts.seeds)),
        statuses=statuses,
        awarded=awarded,
        walkovers=walkovers,
        third_place_match=facts.third_place_match,
        controls=facts.time_controls,
        walkover_reasons=reasons,
    )


def finals(event: str, standings: FinalsStandings) -> FinalsView:
    """CCT-8f: the Finals table."""
    return finals_view(event, standings)


def tour_standings(report: TourReport) -> TourStandingsView:
    """CCT-6: the tour ranking, with the ties that decide a Finals place marked."""
    return tour_standings_view(
        report.name, report.ranking, after=report.after, qualification=report.qualification
    )


def prizes(found: Prizes) -> tuple[list[EventPrizes], AmbassadorPool | None]:
    """CCT-5: the events with a table and a distribution, and the Ambassador pool."""
    events = [
        EventPrizes(e.event, e.table, e.distribution)
        for e in found.events
        if e.table is not None and e.distribution is not None
    ]
    shares: dict[Hashable, Fraction] = {p: share for p, share in found.shares.items()}
    pool = AmbassadorPool(found.pool, shares) if shares else None
    return events, pool

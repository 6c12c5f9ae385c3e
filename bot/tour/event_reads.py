"""Event read models, all derived from the stored facts on every read.

They are the event card, its pairings by round with results, the CCT-8b preliminary standings with
DE, WIN, SB and KS, the knock-out bracket with each series' score and next game by CCT-8c to CCT-8e,
and its calendar.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from bot.tour.event_state import EventState, event_state
from bot.tour.game_targets import GameTarget, knockout_ties, open_targets
from bot.tour.references import find_event, find_tour
from bot.tour.schedule import day_start, round_starts
from bot.tour.store import LoadedEvent, load_tour, read_loaded
from core.standings import PlayerStanding
from core.tour.calendar import KNOCKOUT_FIRST_DAY
from core.tour.event_facts import TieState, preliminary_standings, round_robin
from core.tour.knockout import Tie
from core.tour.ranking import EventType
from core.tour.rules import TourRules
from storage.guild import GuildStore
from storage.tour.games import TourGame


@dataclass(frozen=True)
class EventRead:
    """An event loaded with its tour's rules, from one read snapshot."""

    loaded: LoadedEvent
    rules: TourRules
    tour: str
    state: EventState
    """How the event stands: its status and winner, as its tour's card shows them."""


async def read_event(store: GuildStore, event: str | int) -> EventRead:
    """The event `event` names, loaded."""
    async with store.read() as view:
        record = await find_event(view, event)
        tour = await find_tour(view, record.tour_id)
        loaded = await read_loaded(store, view, record)
        bonus: dict[str, Fraction] = {}
        if record.type is EventType.FINALS and loaded.facts.players:
            bonus = (await load_tour(view, tour)).finals_bonus(loaded)
        return EventRead(loaded, tour.rules, tour.name, event_state(loaded, bonus))


@dataclass(frozen=True)
class PairingLine:
    """One preliminary or Finals game: round, board, players, result and its status."""

    round: int
    board: int
    white: str
    black: str
    game: TourGame | None


async def event_pairings(
    store: GuildStore, event: str, round_no: int | None = None
) -> tuple[EventRead, list[PairingLine], dict[int, dt.datetime]]:
    """CCT-8a: the event's pairings with their results so far, and each round's session start.

    Only round `round_no` is given when it is set.
    """
    read = await read_event(store, event)
    loaded = read.loaded
    if loaded.record.drawn_at is None:
        raise UserError(f"{named(loaded.record.name)} has no draw yet (`/event draw`).")
    pairings = round_robin(loaded.facts.players)
    rounds = max(p.round for p in pairings)
    if round_no is not None and not 1 <= round_no <= rounds:
        raise UserError(f"{named(loaded.record.name)} has rounds 1 to {rounds}.")
    by_slot = {(g.round, g.board): g for g in loaded.games if g.stage == "preliminary"}
    lines = [
        PairingLine(p.round, p.board, str(p.white), str(p.black), by_slot.get((p.round, p.board)))
        for p in pairings
        if round_no is None or p.round == round_no
    ]
    return read, lines, round_starts(loaded.record, read.rules, rounds)


async def event_standings(
    store: GuildStore, event: str | int
) -> tuple[EventRead, tuple[PlayerStanding, ...]]:
    """CCT-8b: the preliminary standings with points, DE, WIN, SB, KS and shared ranks."""
    return standings_of(await read_event(store, event))


def standings_of(read: EventRead) -> tuple[EventRead, tuple[PlayerStanding, ...]]:
    """CCT-8b: `event_standings` of an event already read."""
    loaded = read.loaded
    if loaded.record.type is EventType.FINALS:
        raise UserError("The Finals' table is `/finals standings` (CCT-8f).")
    if loaded.record.drawn_at is None:
        raise UserError(f"{named(loaded.record.name)} has no draw yet (`/event draw`).")
    return read, loaded.derived("standings", lambda: preliminary_standings(loaded.facts))


@dataclass(frozen=True)
class Bracket:
    """CCT-8c: the known knock-out rounds and, for each undecided one, its next game."""

    read: EventRead
    ties: dict[Tie, TieState]
    next_games: dict[str, GameTarget]


async def event_bracket(store: GuildStore, event: str | int) -> Bracket:
    """CCT-8c to CCT-8e: the bracket with series scores and the next game's colours and time
    control.
    """
    return bracket_of(await read_event(store, event))


def bracket_of(read: EventRead) -> Bracket:
    """CCT-8c to CCT-8e: `event_bracket` of an event already read."""
    loaded = read.loaded
    if loaded.record.type is EventType.FINALS:
        raise UserError("The Finals are a round robin: `/finals standings` (CCT-8f).")
    ties = knockout_ties(loaded)
    if not ties:
        raise UserError(f"The knock-out of {named(loaded.record.name)} has not started.")
    nexts = {t.contest or "": t for t in open_targets(loaded) if t.stage == "knockout"}
    return Bracket(read, ties, nexts)


@dataclass(frozen=True)
class CalendarDay:
    """One day of an event: its date, session start and what is played."""

    day: int
    start: dt.datetime
    what: str


async def event_calendar(
    store: GuildStore, event: str | int
) -> tuple[EventRead, list[CalendarDay]]:
    """The event's days, each with its session start.

    They are preliminary rounds, knock-out rounds of two days each by CCT-8d, or Finals rounds.
    """
    read = await read_event(store, event)
    record = read.loaded.record
    days: list[CalendarDay] = []
    rounds = record.size - 1 + record.size % 2
    if record.type is EventType.FINALS:
        for r in range(1, rounds + 1):
            days.append(CalendarDay(r, day_start(record, read.rules, r), f"Round {r}"))
        return read, days
    starts = round_starts(record, read.rules, rounds)
    by_day: dict[dt.datetime, list[int]] = {}
    for r, start in starts.items():
        by_day.setdefault(start, []).append(r)
    for index, (start, played) in enumerate(sorted(by_day.items()), start=1):
        days.append(CalendarDay(index, start, f"Preliminary rounds {played[0]}–{played[-1]}"))
    names = {4: "Quarter-finals", 6: "Semi-finals", 8: "Final and 3rd-place match"}
    if not record.third_place_match:
        names[8] = "Final"
    for first in sorted(set(KNOCKOUT_FIRST_DAY.values())):
        for offset, part in ((0, "match 1"), (1, "match 2 and play-off")):
            day = first + offset
            days.append(
                CalendarDay(day, day_start(record, read.rules, day), f"{names[first]}, {part}")
            )
    return read, days

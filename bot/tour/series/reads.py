"""`/series show`: a knock-out round or a Finals match, its games so far and what comes next.

It shows each match's score and the play-off's. What comes next is the next game with its colours
and time control by CCT-7, CCT-8d and CCT-8e, a colour choice due, or the winner.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tour.event_reads import EventRead, read_event
from bot.tour.game_names import ROUND_NAMES, finals_key
from bot.tour.game_targets import (
    GameTarget,
    finals_label,
    finals_match,
    open_targets,
    tie_named,
)
from core.tour.event_facts import ContestRecord
from core.tour.knockout import ContestStatus
from core.tour.ranking import EventType
from storage.guild import GuildStore
from storage.tour.games import TourGame


@dataclass(frozen=True)
class SeriesCard:
    """A contest: its name, players, state, games recorded in order, and its next game if one is
    due.

    Players are listed higher-ranked or Berger-White first.
    """

    read: EventRead
    name: str
    first: str
    second: str
    status: ContestStatus | None
    games: tuple[TourGame, ...]
    next_game: GameTarget | None
    recorded_winner: str | None = None
    record: ContestRecord | None = None
    """The contest's recorded outcome: an import or a CCT-9 award, which is a walkover."""


async def series_card(store: GuildStore, event: str, round: str) -> SeriesCard:
    """The contest `round` names in `event`: QF1 to F or 3rd, and in the Finals `R2 A v B`."""
    read = await read_event(store, event)
    loaded = read.loaded
    if loaded.record.type is EventType.FINALS:
        state = finals_match(loaded, round)
        p = state.pairing
        key, label = finals_key(p.round, p.board), finals_label(state)
        first, second = str(p.white), str(p.black)
        status, record = state.status, state.record
    else:
        tie, tie_state = tie_named(loaded, round)
        key, label = ROUND_NAMES[tie], ROUND_NAMES[tie]
        first, second = str(tie_state.pairing.higher), str(tie_state.pairing.lower)
        status, record = tie_state.status, tie_state.record
    games = tuple(sorted((g for g in loaded.games if g.contest == key), key=lambda g: g.order))
    upcoming = next((t for t in open_targets(loaded) if t.contest == key), None)
    return SeriesCard(
        read,
        label,
        first,
        second,
        status,
        games,
        upcoming,
        None if record is None else str(record.winner),
        record,
    )

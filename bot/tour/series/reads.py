"""`/series show`: a knock-out round or a Finals match, its games so far and what comes next.

It shows each match's score and the play-off's. What comes next is the next game with its colours
and time control by CCT-7, CCT-8d and CCT-8e, a colour choice due, or the winner.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.app.errors import UserError
from bot.app.inputs import named, shown
from bot.tour.events.reads import EventRead, read_event
from bot.tour.game_names import ROUND_NAMES, TIE_OF, finals_key, normal, pairing_name
from bot.tour.games.targets import GameTarget, finals_states, knockout_ties, open_targets
from core.tour.event_facts import ContestRecord
from core.tour.knockout import ContestStatus
from core.tour.ranking import EventType
from storage.guild import GuildStore
from storage.tour_games import TourGame


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
        for state in finals_states(loaded):
            p = state.pairing
            label = pairing_name(p.round, str(p.white), str(p.black))
            if normal(label) == normal(round):
                key, first, second = finals_key(p.round, p.board), str(p.white), str(p.black)
                status, record = state.status, state.record
                break
        else:
            raise UserError(f"No Finals match {shown(round)} in {named(loaded.record.name)}.")
    else:
        tie = TIE_OF.get(round.strip().casefold())
        if tie is None:
            raise UserError(f"{shown(round)} is not a knock-out round (QF1 … SF2, F, 3rd).")
        ties = knockout_ties(loaded)
        if tie not in ties:
            if not ties:
                raise UserError(f"The knock-out of {named(loaded.record.name)} has not started.")
            raise UserError(f"The players of {ROUND_NAMES[tie]} are not known yet (CCT-8c).")
        state_ = ties[tie]
        key, label = ROUND_NAMES[tie], ROUND_NAMES[tie]
        first, second = str(state_.pairing.higher), str(state_.pairing.lower)
        status, record = state_.status, state_.record
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

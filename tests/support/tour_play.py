"""A drawn tour event played through the services for the automation's tests: the preliminary
decided by the arbiter in the order given (the first listed wins), the knock-out started and
each series played game by game — the higher-ranked player choosing White for game 1, winning
games 1 and 2 of match 1 and drawing game 3 (2½-½), then winning game 1 of match 2 and
drawing games 2 and 3 (2-1: the series is decided and match 2 stops, CCT-8d) — up to the
event's deciding game, which is left for the caller (e.g. to a player's report)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.tour.events import service as events
from bot.tour.game_names import ROUND_NAMES
from bot.tour.game_targets import GameTarget, knockout_ties, open_targets
from bot.tour.games import service as games
from bot.tour.series import service as series
from bot.tour.store import LoadedEvent, load_event
from core.results import Result
from storage.guild import GuildStore
from tests.support.tour_world import ARBITER, ORGANISER, by_order, settle_preliminary

DECIDING = "day 2 game 3"
"""In these series a draw in game 3 of match 2 decides (2½-½, then 2-1 stops match 2)."""


async def _loaded(store: GuildStore, event: str) -> LoadedEvent:
    """The event as stored now."""
    async with store.read() as view:
        record = (await view.tour_events.by_name(event))[0]
        return await load_event(view, record)


def _result(target: GameTarget, rank: dict[str, int]) -> Result:
    """The higher-ranked player wins game 1 of each match and game 2 of match 1, and draws
    the rest."""
    if target.game_no == 3 or (target.game_no == 2 and target.match_no == 2):
        return Result.DRAW
    higher = min((target.white, target.black), key=rank.__getitem__)
    return Result.WHITE_WIN if higher == target.white else Result.BLACK_WIN


async def play_to_the_deciding_game(
    store: GuildStore,
    event: str,
    order: Sequence[str],
    knockout_day: Callable[[], Awaitable[None]] | None = None,
) -> str:
    """Play the drawn event up to its deciding game and return that game's name: the
    preliminary in `order`, the knock-out built from it, every series played as above.
    `knockout_day` (e.g. the clock moved on) runs once the knock-out is built, before its
    games: a game is recorded only once its session has started."""
    await settle_preliminary(store, event, by_order(order))
    await events.start_knockout(store, ORGANISER, event, confirm=True)
    if knockout_day is not None:
        await knockout_day()
    rank = {name: i for i, name in enumerate(order)}
    while True:
        loaded = await _loaded(store, event)
        ties = knockout_ties(loaded)
        waiting = [t for t, s in ties.items() if s.status and s.status.choice_required]
        if waiting:
            await series.choose_colour(store, ARBITER, event, ROUND_NAMES[waiting[0]], "white")
            continue
        open_ties = [t for t, s in ties.items() if s.winner is None]
        targets = open_targets(loaded)
        if len(open_ties) == 1 and len(ties) >= 7 and targets[0].name.endswith(DECIDING):
            return targets[0].name
        target = targets[0]
        await games.report_game(store, ARBITER, event, target.name, _result(target, rank))

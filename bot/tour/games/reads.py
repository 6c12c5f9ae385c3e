"""Game read models: a game's card, and the games offered to a member typing a `game` option.

The card shows the players, the result and its life cycle, the CCT-7 flag, the time control and the
override history. The games offered are the member's own open games first, then the other open
games, then played ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.errors import UserError
from bot.tour.event_reads import EventRead, read_event
from bot.tour.game_names import normal
from bot.tour.game_targets import GameTarget, find_target, open_targets
from bot.tour.games.links import Usernames
from bot.tour.games.pgn import game_url
from bot.tour.references import find_event
from bot.tour.store import LoadedEvent, read_loaded
from storage.guild import GuildStore
from storage.tour.games import OverrideRow

CHOICES = 25
"""Discord: at most 25 autocomplete choices."""


@dataclass(frozen=True)
class GameCard:
    """`/game show`: the game, where it stands, and its CCT-9 arbiter overrides."""

    read: EventRead
    target: GameTarget
    overrides: tuple[OverrideRow, ...]


async def game_card(store: GuildStore, event: str, game: str) -> GameCard:
    """The game `game` names in `event`."""
    read = await read_event(store, event)
    target = find_target(read.loaded, game)
    overrides: tuple[OverrideRow, ...] = ()
    if target.row is not None:
        async with store.read() as view:
            rows = await view.tour_games.overrides(read.loaded.record.id)
        overrides = tuple(o for o in rows if o.game_id == target.row.id)
    return GameCard(read, target, overrides)


@dataclass(frozen=True)
class GameChoice:
    """A game offered by autocomplete: its name as the value, whether it is the member's, and
    whether it is still open.
    """

    name: str
    mine: bool
    open: bool


async def game_choices(
    store: GuildStore, event: str | None, typed: str, user_id: int
) -> list[GameChoice]:
    """The event's games holding `typed`, or nothing when the event is unknown.

    The member's own open games come first, then other open ones, then played ones.
    """
    if not event:
        return []
    async with store.read() as view:
        try:
            record = await find_event(view, event)
        except UserError:  # an unknown or ambiguous event: nothing to offer
            return []
        loaded = await read_loaded(store, view, record)
        mine = await view.tours.player_of_user(record.tour_id, user_id)
    return _ranked(loaded, typed, None if mine is None else mine.name)


def _ranked(loaded: LoadedEvent, typed: str, me: str | None) -> list[GameChoice]:
    wanted = normal(typed)
    choices: list[tuple[tuple[int, int], GameChoice]] = []
    seen: set[str] = set()
    for index, target in enumerate(open_targets(loaded)):
        if wanted and wanted not in normal(target.name):
            continue
        own = me is not None and me in (target.white, target.black)
        choices.append(((0 if own else 1, index), GameChoice(target.name, own, True)))
        seen.add(target.name)
    for index, row in enumerate(loaded.games):
        name = loaded.game_name(row)
        if name in seen or (wanted and wanted not in normal(name)):
            continue
        own = me is not None and me in (loaded.names[row.white_id], loaded.names[row.black_id])
        choices.append(((2, -index), GameChoice(name, own, False)))
    choices.sort(key=lambda pair: pair[0])
    return [choice for _, choice in choices[:CHOICES]]


async def site_usernames(store: GuildStore, event: str, game: str) -> Usernames:
    """The chess.com and lichess usernames of the game's players, White first, to find a linked
    game.
    """
    read = await read_event(store, event)
    target = find_target(read.loaded, game)
    ids = read.loaded.ids
    async with store.read() as view:
        players = [await view.tours.player(ids[name]) for name in (target.white, target.black)]
    return Usernames(
        tuple(p.chesscom for p in players if p is not None and p.chesscom),
        tuple(p.lichess for p in players if p is not None and p.lichess),
    )


async def counted_already(store: GuildStore, link: str) -> bool:
    """Whether the game at this chess.com or lichess.org link counted already.

    The report itself checks again and decides. This check spares a read of the site.
    """
    url = game_url(link)
    if url is None:
        return False
    async with store.read() as view:
        return await view.tour_games.by_source(url) is not None

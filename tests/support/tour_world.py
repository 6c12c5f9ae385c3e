"""Tours built through the services for the tour's tests: a tour with events whose players
are linked members (user ids from 1000), drawn from a fixed seed, and helpers that settle a
preliminary and play knock-out series game by game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.kernel.actor import Actor, Role
from bot.kernel.config import Config
from bot.tour.events import service as events
from bot.tour.game_targets import open_targets
from bot.tour.games import service as games
from bot.tour.store import load_event
from bot.tour.tours import service as tours
from core.results import Result
from core.tour.game_reports import GameReport, ReportStatus
from core.tour.ranking import EventType
from storage.guild import GuildStore

ORGANISER = Actor(101, frozenset({Role.HQ}))
ARBITER = Actor(103, frozenset({Role.ARBITER}))
FIRST_USER = 1000
MATE_MOVES = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"
"""The moves of a mate in four, White winning."""
EARLY_DRAW_MOVES = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2"
"""The moves of a draw agreed at move 5 (CCT-7: before move 40)."""


def player_names(count: int, prefix: str = "P") -> list[str]:
    """`P01`, `P02` … (sorted as numbered)."""
    return [f"{prefix}{n:02d}" for n in range(1, count + 1)]


def pgn_text(white: str, black: str, moves: str, *, site: str | None = None) -> str:
    """The PGN of a game of the event "Open": its headers (`site` when given), a blank line,
    then `moves`, which end with the result."""
    site_line = "" if site is None else f'[Site "{site}"]\n'
    result = moves.rsplit(" ", 1)[1]
    headers = f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
    return f'[Event "Open"]\n{site_line}{headers}\n{moves}\n'


def user_of(index: int) -> int:
    """The member linked to the `index`-th player (0-based) of `player_names`."""
    return FIRST_USER + index


def member(user_id: int) -> Actor:
    """A plain member (a player when linked)."""
    return Actor(user_id)


async def tour_with_event(
    store: GuildStore,
    *,
    tour: str = "Tour",
    event: str = "Open",
    kind: EventType = EventType.REGULAR,
    players: Sequence[str] | None = None,
    seed: str | None = "s1",
    start: str = "2026-04-21",
    first_user: int = FIRST_USER,
    config: Config | None = None,
    played: bool = False,
) -> None:
    """A tour (created unless it exists) with an event of `players` (linked to members from
    `first_user`), drawn from `seed` (None: not drawn), its preliminary decided in the order
    of `players` when `played`."""
    names = list(
        players or player_names({EventType.REGULAR: 16, EventType.MAJOR: 12}.get(kind, 10))
    )
    async with store.read() as view:
        exists = await view.tours.by_name(tour)
    if exists is None:
        await tours.create_tour(store, ORGANISER, config or Config(), tour)
    await events.create_event(store, ORGANISER, tour, event, kind, start, players=len(names))
    # CCT-3: a Finals of a tour with no earlier event has nobody qualified: every place is open
    # for the organiser's wildcards (a tour that had events is built by its own test).
    wildcards = kind is EventType.FINALS and exists is None
    for index, name in enumerate(names):
        await events.add_player(
            store, ORGANISER, event, name, first_user + index, wildcard=wildcards
        )
    if seed is not None:
        await events.draw_event(store, ORGANISER, event, seed=seed, confirm=True)
    if played:
        await preliminary_played(store, event, by_order(names))


async def knockout_started(store: GuildStore, event: str, **options: Any) -> None:
    """`tour_with_event(store, event=event, **options)` with its preliminary decided in the
    order of its players and its knock-out started."""
    await tour_with_event(store, event=event, played=True, **options)
    await events.start_knockout(store, ORGANISER, event, confirm=True)


def by_order(names: Sequence[str]) -> Callable[[str, str], Result]:
    """Results in which the player listed earlier in `names` beats the later one (a clear
    preliminary order: `names` itself)."""
    rank = {name: i for i, name in enumerate(names)}

    def result(white: str, black: str) -> Result:
        return Result.WHITE_WIN if rank[white] < rank[black] else Result.BLACK_WIN

    return result


async def settle_preliminary(
    store: GuildStore, event: str, result: Callable[[str, str], Result]
) -> None:
    """Every open preliminary game entered by the arbiter with `result(white, black)`."""
    async with store.read() as view:
        record = (await view.tour_events.by_name(event))[0]
        loaded = await load_event(view, record)
    for target in open_targets(loaded):
        if target.stage == "preliminary":
            await games.report_game(
                store, ARBITER, event, target.name, result(target.white, target.black)
            )


async def preliminary_played(
    store: GuildStore, event: str, result: Callable[[str, str], Result]
) -> None:
    """Every open preliminary game of `event` decided with `result(white, black)` in one unit
    of work (test set-up: the games' own life cycle is tested elsewhere)."""
    async with store.change(None, "test.results", f"event:{event}") as uow:
        record = (await uow.tour_events.by_name(event))[0]
        loaded = await load_event(uow.view(), record)
        for game in loaded.games:
            if game.stage == "preliminary" and not game.status.settled:
                decided = GameReport(
                    ReportStatus.DECIDED,
                    result(loaded.names[game.white_id], loaded.names[game.black_id]),
                )
                await uow.tour_games.apply(game, decided, by=None, source="import")
        await uow.tour_events.bump(record.id)

"""Benchmark: polling 500 open pairings of a tour for their games on chess.com and lichess —
requests per pairing per poll (target ≤ 1) and the wall time of a poll, against the chess.com
and lichess stand-ins on 127.0.0.1 through the real clients (`bot.sites.poll`).

The tour: 40 round-robin events of 16 players on their current round (8 pairings each, 3 of 5
events on chess.com, 2 on lichess) and 45 knock-out matches of 4 rapid games, each game with its
own 40-minute window (same two players). Every pairing's game was played in its window; each
chess.com player also has `--noise` other games that month (blitz, against other players), so
archives weigh what an active player's do. Poll 1 reads everything (200), poll 2 the same
unchanged (304 through the ETags). Every pairing must find exactly its game.

Run from the worktree root: `python3 benchmarks/game_search.py [--noise N] [--polls P]`, or
`--job EVENTS` to poll through the bot's `cct.poll` job (bot/tour/automation/polling.py) on a
real database: EVENTS 16-player events, their day-1 rounds open, run by the scheduler.

Figures (2 cores, Python 3.11, load average ~5 from other work, servers and client in one
process): 419 requests a poll (0.838 per pairing: 219 chess.com archives, a knock-out match's
4 games sharing one, and 200 lichess exports), all 500 pairings finding their game; poll 1
(200s, 23,640 archive entries) 1.7 s, polls 2–3 (304s) 0.8–1.0 s.
Through the job (`--job 13`): 520 open pairings, half played; the start-up's polls make 268
requests (0.515 per pairing) and report all 260 games found, 3.1 s at load 4.5; an hour later
179 requests for the 260 still open (0.688), 1.2 s; 4.2 s of CPU for the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.chesscom.client import ChessComClient, ClientSettings
from bot.lichess.client import LichessClient, LichessClientSettings
from bot.offline.chesscom_standin import ChessComStandIn
from bot.offline.lichess_standin import LichessStandIn
from bot.sites.fetch_plan import Watch
from bot.sites.poll import poll
from core.tour.game_search import GameQuery, SearchStatus, Site
from core.tour.ranking import EventType
from core.tour.timecontrols import RAPID

SESSION = datetime(2021, 2, 7, 17, tzinfo=UTC)
NOW = SESSION + timedelta(hours=4)
PGN = (
    '[Event "Live Chess"]\n[Site "Chess.com"]\n[White "{white}"]\n[Black "{black}"]\n'
    '[Result "1-0"]\n[TimeControl "{control}"]\n\n'
    "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n"
)


def chesscom_game(
    number: int, white: str, black: str, ended: datetime, control: str
) -> dict[str, Any]:
    """An archive game as chess.com's documentation describes it (a short legal PGN)."""
    return {
        "url": f"https://www.chess.com/game/live/{number}",
        "pgn": PGN.format(white=white, black=black, control=control),
        "time_control": control,
        "end_time": int(ended.timestamp()),
        "rated": True,
        "time_class": "rapid" if control == "900+10" else "blitz",
        "rules": "chess",
        "white": {"username": white, "rating": 1800, "result": "win"},
        "black": {"username": black, "rating": 1800, "result": "checkmated"},
    }


def lichess_game(game_id: str, white: str, black: str, ended: datetime) -> dict[str, Any]:
    """An exported game as lichess's documentation describes it (`pgnInJson` on)."""
    millis = int(ended.timestamp() * 1000)
    return {
        "id": game_id,
        "rated": False,
        "variant": "standard",
        "speed": "rapid",
        "perf": "rapid",
        "createdAt": millis - 20 * 60_000,
        "lastMoveAt": millis,
        "status": "mate",
        "players": {
            "white": {"user": {"name": white, "id": white.lower()}, "rating": 1900},
            "black": {"user": {"name": black, "id": black.lower()}, "rating": 1900},
        },
        "winner": "white",
        "pgn": PGN.format(white=white, black=black, control="900+10"),
        "clock": {"initial": 900, "increment": 10, "totalTime": 1300},
    }


def build(
    chesscom: ChessComStandIn, lichess: LichessStandIn, noise: int
) -> tuple[list[Watch], list[str]]:
    """The 500 watches and, for each, the URL of the game it must find; the stand-ins filled."""
    watches: list[Watch] = []
    expected: list[str] = []
    number = 1

    def add(
        pairing: object, site: Site, white: str, black: str, start: datetime, length: timedelta
    ) -> None:
        nonlocal number
        ended = start + length / 2
        query = GameQuery(site, white, black, white, start, start + length, RAPID)
        watches.append(Watch(pairing, query))
        if site is Site.CHESSCOM:
            chesscom.add_game(chesscom_game(number, white, black, ended, "900+10"))
            expected.append(f"https://www.chess.com/game/live/{number}")
        else:
            game_id = f"g{number:07d}"
            lichess.add_game(lichess_game(game_id, white, black, ended))
            expected.append(f"https://lichess.org/{game_id}")
        number += 1

    for event in range(40):
        site = Site.CHESSCOM if event % 5 < 3 else Site.LICHESS
        players = [f"e{event}p{n}" for n in range(16)]
        for board in range(8):
            add(
                ("rr", event, board),
                site,
                players[board],
                players[15 - board],
                SESSION,
                timedelta(hours=3),
            )
        if site is Site.CHESSCOM:
            for n, player in enumerate(players):
                for k in range(noise):
                    other = players[(n + k + 1) % 16]
                    ended = SESSION - timedelta(days=1 + k % 6, minutes=n)
                    chesscom.add_game(
                        chesscom_game(10_000_000 + number, player, other, ended, "180+2")
                    )
                    number += 1
    for match in range(45):
        site = Site.CHESSCOM if match % 5 < 3 else Site.LICHESS
        a, b = f"k{match}a", f"k{match}b"
        for game in range(4):
            white, black = (a, b) if game % 2 == 0 else (b, a)
            start = SESSION + game * timedelta(minutes=40)
            add(("ko", match, game), site, white, black, start, timedelta(minutes=40))
    return watches, expected


async def run(noise: int, polls: int) -> None:
    chesscom, lichess = ChessComStandIn(), LichessStandIn()
    watches, expected = build(chesscom, lichess, noise)
    await chesscom.start()
    await lichess.start()
    cc = ChessComClient(ClientSettings(contact="bench@example.org", base_url=chesscom.base_url))
    li = LichessClient(
        LichessClientSettings(contact="bench@example.org", base_url=lichess.base_url)
    )
    archive_games = sum(len(games) for games in chesscom.archives.values())
    print(
        f"pairings: {len(watches)}; chess.com archive entries: {archive_games};"
        f" lichess games: {len(lichess.games)}"
    )
    try:
        for number in range(1, polls + 1):
            before = (len(chesscom.requests), len(lichess.requests))
            started = time.perf_counter()
            found = await poll(watches, NOW, chesscom=cc, lichess=li)
            elapsed = time.perf_counter() - started
            seen = chesscom.requests[before[0] :] + lichess.requests[before[1] :]
            made = len(seen)
            statuses = sorted({request.status for request in seen})
            right = sum(
                1
                for index, search in found.searches.items()
                if search.status is SearchStatus.FOUND
                and search.game is not None
                and search.game.url == expected[index]
            )
            print(
                f"poll {number}: {made} requests ({made / len(watches):.3f} per pairing,"
                f" statuses {statuses}), {elapsed * 1000:.0f} ms;"
                f" {right}/{len(watches)} pairings found their game,"
                f" failures {len(found.failures)}, deferred {len(found.deferred)}"
            )
            if right != len(watches) or made > len(watches):
                raise SystemExit("FAILED: a pairing missed its game or the poll went over budget")
    finally:
        await cc.close()
        await li.close()
        await chesscom.stop()
        await lichess.stop()


JOB_DAY = datetime(2021, 2, 7, tzinfo=UTC).date()
"""The day the benchmark's events start (day 1: rounds 1-5 of a 16-player preliminary)."""


async def through_job(events: int, noise: int) -> None:
    """The same kind of load through the bot's `cct.poll` job (bot/tour/automation/polling):
    `events` 16-player Regulars drawn in one guild (3 of 5 on chess.com, 2 on lichess), their
    day-1 rounds (5 rounds, 40 pairings each) open; half the pairings have played their game.
    The scheduler's start-up runs every event's overdue poll (fetch, then the unit of work
    reporting each game found); an hour later the next polls read the pairings still open."""
    import tempfile

    from bot.kernel.actor import Actor, Role
    from bot.kernel.config import Config
    from bot.runtime.clock import VirtualClock
    from bot.runtime.scheduler import JobRegistry, Scheduler
    from bot.tour.automation.context import TourAutomation
    from bot.tour.events import service as events_service
    from bot.tour.jobs import register_tour_jobs
    from bot.tour.schedule import day_start
    from bot.tour.tours import service as tours
    from core.tour.event_facts import round_robin
    from storage.engine.database import Database
    from storage.guild import GuildStore, on_commit

    chesscom, lichess = ChessComStandIn(), LichessStandIn()
    await chesscom.start()
    await lichess.start()
    cc = ChessComClient(ClientSettings(contact="bench@example.org", base_url=chesscom.base_url))
    li = LichessClient(
        LichessClientSettings(contact="bench@example.org", base_url=lichess.base_url)
    )
    hq = Actor(1, frozenset({Role.HQ}))
    folder = tempfile.TemporaryDirectory()
    clock = VirtualClock(datetime(2021, 2, 1, tzinfo=UTC))
    database = await Database.open(Path(folder.name) / "bench.db", clock=clock)
    try:
        await database.migrate()
        store = GuildStore(database, 1)
        async with store.change(None, "bench.setup", "settings") as uow:
            await uow.settings.update(announcements_channel_id=10)
        tour = await tours.create_tour(store, hq, Config(), "Bench Tour")
        pairings = played = 0
        number = 1
        for event in range(events):
            site = Site.CHESSCOM if event % 5 < 3 else Site.LICHESS
            name = f"Event {event}"
            names = [f"e{event}p{n}" for n in range(16)]
            await events_service.create_event(
                store, hq, "Bench Tour", name, EventType.REGULAR, JOB_DAY.isoformat()
            )
            for player in names:
                await events_service.add_player(store, hq, name, player)
            plan = await events_service.draw_event(store, hq, name, seed="bench", confirm=True)
            async with store.change(None, "bench.usernames", name) as uow:
                for player in await uow.tours.players(tour.id):
                    if player.name in names:
                        cc_name = player.name if site is Site.CHESSCOM else None
                        li_name = player.name if site is Site.LICHESS else None
                        await uow.tours.set_usernames(player.id, cc_name, li_name)
            start = day_start(plan.event, tour.rules, 1)
            for pairing in round_robin(plan.numbers):
                if pairing.round > 5:
                    continue
                pairings += 1
                white, black = str(pairing.white), str(pairing.black)
                if (pairing.round + pairing.board) % 2:
                    continue  # not played yet: open at the next poll too
                played += 1
                ended = start + timedelta(minutes=30 * pairing.round)
                if site is Site.CHESSCOM:
                    chesscom.add_game(chesscom_game(number, white, black, ended, "900+10"))
                else:
                    lichess.add_game(lichess_game(f"j{number:07d}", white, black, ended))
                number += 1
            if site is Site.CHESSCOM:
                for n, player in enumerate(names):
                    for k in range(noise):
                        other = names[(n + k + 1) % 16]
                        ended = start - timedelta(days=1 + k % 6, minutes=n)
                        chesscom.add_game(
                            chesscom_game(10_000_000 + number, player, other, ended, "180+2")
                        )
                        number += 1
        registry = JobRegistry()
        register_tour_jobs(registry, TourAutomation(database, cc, li))
        scheduler = Scheduler(database, registry, timer=clock)
        on_commit(database, scheduler.on_commit)  # the polls' next runs go on the clock
        day_one = datetime.combine(JOB_DAY, datetime.min.time(), tzinfo=UTC)
        await clock.advance_to(day_one + timedelta(hours=21))
        print(f"open pairings watched: {pairings} in {events} events; games played: {played}")
        for poll_no in (1, 2):
            before = len(chesscom.requests) + len(lichess.requests)
            began = time.perf_counter()
            if poll_no == 1:
                await scheduler.recover()  # every event's poll is overdue: one run each
            else:
                await clock.advance_to(clock() + timedelta(minutes=61))
            elapsed = time.perf_counter() - began
            made = len(chesscom.requests) + len(lichess.requests) - before
            async with store.read() as view:
                found = 0
                for record in await view.tour_events.of_tour(tour.id):
                    games = await view.tour_games.of_event(record.id)
                    found += sum(1 for g in games if g.source == "bot")
            watched = pairings if poll_no == 1 else pairings - played
            print(
                f"poll {poll_no} through the job: {made} requests for {watched} open pairings"
                f" ({made / watched:.3f} per pairing), {elapsed * 1000:.0f} ms"
                f" (fetch and the units of work reporting); reported by the bot so far: {found}"
            )
            if made > watched:
                raise SystemExit("FAILED: a poll went over one request per pairing")
        if found != played:
            raise SystemExit(f"FAILED: {played} games played, {found} reported")
    finally:
        await database.close()
        folder.cleanup()
        await cc.close()
        await li.close()
        await chesscom.stop()
        await lichess.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--noise", type=int, default=30, help="other games per chess.com player")
    parser.add_argument("--polls", type=int, default=2, help="polls in a row (the 2nd is 304s)")
    parser.add_argument(
        "--job",
        type=int,
        metavar="EVENTS",
        help="poll through the bot's cct.poll job instead: EVENTS 16-player events (13: 520)",
    )
    args = parser.parse_args()
    if args.job:
        asyncio.run(through_job(args.job, args.noise))
    else:
        asyncio.run(run(args.noise, args.polls))


if __name__ == "__main__":
    main()

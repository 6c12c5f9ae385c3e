"""CCT-7 through game links: `/game report link:` finds a lichess.org game among the
exported games of its players (their linked lichess usernames), or a chess.com game in the
monthly archive of a player's linked chess.com username — through the project's clients and
their stand-ins on 127.0.0.1 — fills the result from its PGN, and counts the game once."""

from __future__ import annotations

import json
from pathlib import Path

from bot.kernel.config import ChessComConfig, Config, DatabaseConfig, LichessConfig
from bot.offline.chesscom_standin import ChessComStandIn
from bot.offline.lichess_standin import LichessStandIn
from bot.tour.store import load_event
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.tour_desk import tour_desk
from tests.support.tour_world import player_names, tour_with_event

PGN = """[Site "{site}"]
[White "{white}"]
[Black "{black}"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"""


async def test_cct_7_a_game_link_fills_the_result_and_counts_once(tmp_path: Path) -> None:
    standin, lichess = ChessComStandIn(), LichessStandIn()
    base = await standin.start()
    lichess_url = await lichess.start()
    try:
        config = Config(
            database=DatabaseConfig(path=tmp_path / "tour.db"),
            chesscom=ChessComConfig(base_url=base, contact="tests", max_retries=0),
            lichess=LichessConfig(base_url=lichess_url, contact="tests", max_retries=0),
        )
        async with tour_desk(tmp_path / "tour.db", config=config) as desk:
            store = GuildStore(desk.bot.database, DEFAULT_GUILD_ID)
            names = player_names(8)
            await tour_with_event(store, players=names, first_user=5000)
            async with store.read() as view:
                loaded = await load_event(view, (await view.tour_events.by_name("Open"))[0])
            first, second = loaded.games[0], loaded.games[1]
            white, black = loaded.names[first.white_id], loaded.names[first.black_id]
            for name in (white, black):
                await desk.run(
                    "tour link",
                    desk.organiser,
                    player=name,
                    user=desk.player(names.index(name)),
                    tour="Tour",
                    lichess=f"{name.lower()}-li",
                )
            lichess.add_game(
                {
                    "id": "AbCdEfGh",
                    "createdAt": 1777600000000,
                    "status": "mate",
                    "winner": "black",
                    "players": {
                        "white": {"user": {"name": f"{white}-li", "id": f"{white.lower()}-li"}},
                        "black": {"user": {"name": f"{black}-li", "id": f"{black.lower()}-li"}},
                    },
                    "pgn": PGN.format(
                        site="https://lichess.org/AbCdEfGh",
                        white=f"{white}-li",
                        black=f"{black}-li",
                    ),
                }
            )
            link = "https://lichess.org/AbCdEfGh/black"
            reported = await desk.run(
                "game report", desk.arbiter, event="Open", game=loaded.game_name(first), link=link
            )
            assert "0-1, decided by an arbiter" in (reported.reply.content or "")
            twice = await desk.run(
                "game report", desk.arbiter, event="Open", game=loaded.game_name(second), link=link
            )
            assert twice.reply.ephemeral and "cannot count twice" in (twice.reply.content or "")
            # chess.com: the game is found in the archive of the linked White player.
            white2, black2 = loaded.names[second.white_id], loaded.names[second.black_id]
            await desk.run(
                "tour link",
                desk.organiser,
                player=white2,
                user=desk.player(names.index(white2)),
                tour="Tour",
                chesscom=white2.lower(),
            )
            url = "https://www.chess.com/game/live/123456"
            archive = {
                "games": [
                    {"url": url, "pgn": PGN.format(site=url, white=white2.lower(), black=black2)}
                ]
            }
            standin.serve_bytes(
                f"player/{white2.lower()}/games/2026/05", json.dumps(archive).encode()
            )
            found = await desk.run(
                "game report", desk.arbiter, event="Open", game=loaded.game_name(second), link=url
            )
            assert "0-1, decided by an arbiter" in (found.reply.content or "")
            other = next(
                g
                for g in loaded.games
                if g.id != second.id
                and white2 in (loaded.names[g.white_id], loaded.names[g.black_id])
            )
            missing = await desk.run(
                "game report",
                desk.arbiter,
                event="Open",
                game=loaded.game_name(other),
                link="https://www.chess.com/game/live/999",
            )
            assert missing.reply.ephemeral
            assert "not in this or last month" in (missing.reply.content or "")
    finally:
        await standin.stop()
        await lichess.stop()

"""A restart between a player's report and the opponent's confirmation loses nothing: the
new bot (a new process-equivalent on the same database file, caches empty) still answers the
report's persistent Confirm button (a `DynamicItem`: the state is in its custom id and the
database), and the result counts in the standings."""

from __future__ import annotations

from pathlib import Path

from bot.tour.store import load_event
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.tour_desk import tour_desk
from tests.support.tour_tables import table_rows
from tests.support.tour_world import player_names, tour_with_event


async def test_a_restart_between_a_report_and_its_confirmation_loses_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tour.db"
    names = player_names(8)
    async with tour_desk(path) as desk:
        store = GuildStore(desk.bot.database, DEFAULT_GUILD_ID)
        await tour_with_event(store, players=names, first_user=5000)
        async with store.read() as view:
            loaded = await load_event(view, (await view.tour_events.by_name("Open"))[0])
        game = loaded.games[0]
        white = desk.player(names.index(loaded.names[game.white_id]))
        black_index = names.index(loaded.names[game.black_id])
        report = await desk.run(
            "game report", white, event="Open", game=loaded.game_name(game), result="1-0"
        )
        assert report.reply.buttons == ["Confirm", "Dispute"]
    async with tour_desk(path, set_up=False) as again:  # a new bot on the same file
        confirmed = await again.click(report.reply, "Confirm", again.player(black_index))
        assert "confirmed" in (confirmed.reply.content or "")
        standings = await again.run("event standings", again.player(0), event="Open")
        first = table_rows(standings.reply.embeds[0]["description"])[0]
        assert first[:2] == ("1", loaded.names[game.white_id])

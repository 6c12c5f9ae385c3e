"""Issue 36: `/my games` through the real tree, and the Confirm and Dispute buttons of a report in
the view and in a direct message, clicked with real payloads. A DM click names its guild: a
clicker not in it, or not the one to answer, gets one private line and nothing changes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.app.ui.my_buttons import NOT_A_MEMBER
from bot.rendering.tour.automation import dm_report_buttons
from tests.support.command_world import dump
from tests.support.discord_harness import DEFAULT_GUILD_ID, OTHER_GUILD_ID, Member, Outcome
from tests.support.tour_desk import PLAYER_IDS, Desk, tour_desk
from tests.support.tour_world import player_names, tour_with_event

NAMES = player_names(16)
STAMP = re.compile(r"<t:\d+:R>")


async def _event(desk: Desk) -> tuple[str, int, Member, Member]:
    """A drawn event of 16 linked players: its first round-1 game's name and id, White, Black."""
    await tour_with_event(desk.store, tour="Mine", event="Open", first_user=PLAYER_IDS)
    loaded = await desk.event("Open")
    game = next(g for g in loaded.games if g.round == 1)
    white = desk.player(NAMES.index(loaded.names[game.white_id]))
    black = desk.player(NAMES.index(loaded.names[game.black_id]))
    return loaded.game_name(game), game.id, white, black


def _ids(components: list[dict[str, Any]]) -> list[str]:
    return [str(b["custom_id"]) for row in components for b in row["components"]]


async def _dm_click(desk: Desk, custom_id: str, user: Member, components: list[Any]) -> Outcome:
    """A click in a direct message: the payload has a user and no guild."""
    harness = desk.harness
    message = harness.message_payload(harness.fresh_id(), {"components": components})
    data = {"custom_id": custom_id, "component_type": 2}
    return await harness.run(harness.interaction_payload(3, data, user, message=message, dm=True))


async def test_my_games_lists_open_games_and_what_each_awaits(tmp_path: Path) -> None:
    async with tour_desk(tmp_path / "tour.db") as desk:
        name, _game_id, white, black = await _event(desk)
        shown = (await desk.run("my games", white)).reply
        assert shown.ephemeral and not shown.components
        text = shown.text()
        assert name in text and "session from" in text and "it awaits its result" in text
        assert STAMP.search(text), text
        assert "…and 5 more" in text  # 15 rounds, 10 shown

        nobody = (await desk.run("my games", desk.organiser)).reply
        assert nobody.ephemeral and not nobody.components
        assert "You have no open tour game" in nobody.text()

        await desk.run("game report", white, event="Open", game=name, result="1-0")
        theirs = (await desk.run("my games", white)).reply.text()
        assert "your report awaits" in theirs and "the bot confirms it" in theirs
        mine = (await desk.run("my games", black)).reply
        assert "a report awaits your confirmation" in mine.text()
        assert mine.buttons == ["Confirm 1", "Dispute 1"]
        assert _ids(mine.components) == [
            f"tourgame:{_game_id}:confirm",
            f"tourgame:{_game_id}:dispute",
        ]

        confirmed = await desk.click(mine, "Confirm 1", black)
        assert confirmed.reply.type == 7 and "confirmed" in (confirmed.reply.content or "")
        after = (await desk.run("my games", black)).reply
        assert name not in after.text() and not after.components


async def test_a_disputed_report_awaits_an_arbiter(tmp_path: Path) -> None:
    async with tour_desk(tmp_path / "tour.db") as desk:
        name, _game_id, white, black = await _event(desk)
        report = await desk.run("game report", black, event="Open", game=name, result="0-1")
        await desk.click(report.reply, "Dispute", white)
        for player in (white, black):
            text = (await desk.run("my games", player)).reply.text()
            assert "it awaits an arbiter's decision" in text


async def test_dm_report_buttons_answer_for_the_opponent_only(tmp_path: Path) -> None:
    path = tmp_path / "tour.db"
    async with tour_desk(path) as desk:
        name, game_id, white, black = await _event(desk)
        await desk.run("game report", white, event="Open", game=name, result="1-0")
        desk.harness.seat(DEFAULT_GUILD_ID, [white, black])
        desk.harness.seat(OTHER_GUILD_ID, [])
        components = dm_report_buttons(DEFAULT_GUILD_ID, game_id)
        confirm, dispute = _ids(components)
        before = dump(path)

        stranger = desk.harness.member(guild_id=OTHER_GUILD_ID, user_id=black.id + 1000)
        refused = await _dm_click(desk, confirm, stranger, components)
        assert refused.reply.ephemeral and refused.reply.content == NOT_A_MEMBER
        elsewhere = dm_report_buttons(OTHER_GUILD_ID, game_id)
        refused = await _dm_click(desk, _ids(elsewhere)[1], black, elsewhere)
        assert refused.reply.content == NOT_A_MEMBER
        own = await _dm_click(desk, dispute, white, components)
        assert own.reply.ephemeral and "your opponent confirms" in (own.reply.content or "")
        assert dump(path) == before

        confirmed = await _dm_click(desk, confirm, black, components)
        assert confirmed.reply.type == 7 and "confirmed" in (confirmed.reply.content or "")
        assert not confirmed.reply.components
        assert name not in (await desk.run("my games", black)).reply.text()

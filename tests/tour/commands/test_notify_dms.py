"""The tour's direct messages through the real command tree: a player's `/game report` queues one
direct message to the opponent, in the report's own unit of work, with the Confirm and Dispute
buttons that name the guild and a link to the channel the report was made in. The opponent's
Confirm, clicked under the report, tells the reporter who chose GAME_OUTCOME. The channel reply is
as it was."""

from __future__ import annotations

from bot.kernel.notifications import Kind
from bot.rendering.tour.automation import dm_report_buttons
from bot.runtime.notify import jump_link
from storage.shared.outbox import OutboxMessage
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.tour_desk import IN_MODULE_LOOP, PLAYER_IDS, Desk, module_desk
from tests.support.tour_world import player_names, tour_with_event

NAMES = player_names(8)

desk = module_desk("notify-dms")


async def _dms(desk: Desk) -> list[OutboxMessage]:
    """The direct messages waiting in the outbox."""
    async with desk.store.read() as view:
        return [m for m in await view.outbox.pending() if m.dm_user_id is not None]


@IN_MODULE_LOOP
async def test_a_report_asks_the_opponent_by_dm_and_the_confirm_tells_the_reporter(
    desk: Desk,
) -> None:
    """CONFIRM on by default, GAME_OUTCOME chosen by White: White's report queues one direct
    message to Black with the DM buttons, Black's Confirm queues one to White. Black, who
    acted, is not told of their own Confirm."""
    await tour_with_event(desk.store, first_user=PLAYER_IDS, players=NAMES)
    loaded = await desk.event("Open")
    game = next(g for g in loaded.games if g.round == 1)
    name = loaded.game_name(game)
    white = desk.player(NAMES.index(loaded.names[game.white_id]))
    black = desk.player(NAMES.index(loaded.names[game.black_id]))
    for user in (white.id, black.id):
        async with desk.store.change(user, "test.notify", f"user:{user}") as uow:
            await uow.notifications.choose(user, Kind.GAME_OUTCOME.key, True)
    report = await desk.run("game report", white, event="Open", game=name, result="1-0")
    assert report.reply.buttons == ["Confirm", "Dispute"]
    assert f"<@{black.id}>: confirm or dispute." in (report.reply.content or "")
    [asked] = await _dms(desk)
    assert asked.dm_user_id == black.id and asked.channel_id == report.reply.channel_id
    text = asked.content or ""
    assert text.startswith(f"{loaded.names[game.white_id]} reported your game in **Open**")
    assert text.endswith(jump_link(DEFAULT_GUILD_ID, asked.channel_id))
    assert list(asked.components or ()) == dm_report_buttons(DEFAULT_GUILD_ID, game.id)
    confirmed = await desk.click(report.reply, "Confirm", black)
    assert confirmed.reply.type == 7 and "confirmed" in (confirmed.reply.content or "")
    told = [m for m in await _dms(desk) if m.id != asked.id]
    assert [(m.dm_user_id, m.content) for m in told] == [
        (
            white.id,
            f"Your game in **Open**, {name} ({loaded.names[game.white_id]} – "
            f"{loaded.names[game.black_id]}): 1-0, confirmed.\n"
            + jump_link(DEFAULT_GUILD_ID, desk.harness.channel("announcements")),
        )
    ]

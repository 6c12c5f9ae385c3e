"""Queuing direct messages: who gets one by the kind's default or their choice, the mark of a
member whose direct messages were refused, and guilds stay apart."""

from __future__ import annotations

from bot.kernel.notifications import Kind, wants
from bot.runtime.notify import jump_link, notify
from storage.engine.database import Database
from storage.guild import GuildStore

GUILD, OTHER = 101, 202
ANNA, BEN, CARL = 11, 12, 13
CHANNEL = 900


async def test_a_kind_that_asks_to_act_is_on_by_default_and_others_are_off() -> None:
    """Defaults: on only for what asks this member to act."""
    assert [kind.key for kind in Kind if kind.default] == [
        "challenge",
        "confirm",
        "vote",
        "vote-closing",
    ]
    assert wants(Kind.VOTE, {}) and not wants(Kind.MATCH_START, {})
    assert not wants(Kind.VOTE, {"vote": False}) and wants(Kind.MATCH_START, {"match-start": True})
    assert Kind.named("vote") is Kind.VOTE and Kind.named("nonsense") is None


async def test_notify_queues_one_dm_per_member_who_wants_the_kind(database: Database) -> None:
    store = GuildStore(database, GUILD)
    async with store.change(ANNA, "notify.choose", "user") as uow:
        await uow.notifications.choose(BEN, Kind.VOTE.key, False)
        await uow.notifications.choose(CARL, Kind.MATCH_START.key, True)
    async with store.change(None, "test", "motion") as uow:
        to_vote = await notify(
            uow, Kind.VOTE, [ANNA, BEN, ANNA], channel_id=CHANNEL, content="Motion 3 awaits you."
        )
        starting = await notify(
            uow, Kind.MATCH_START, [ANNA, CARL], channel_id=CHANNEL, content="It starts."
        )
    assert to_vote == [ANNA] and starting == [CARL]
    async with store.read() as view:
        pending = await view.outbox.pending()
    assert [(m.dm_user_id, m.channel_id) for m in pending] == [(ANNA, CHANNEL), (CARL, CHANNEL)]
    assert pending[0].content == f"Motion 3 awaits you.\n{jump_link(GUILD, CHANNEL)}"
    assert pending[0].ping_users == ()
    async with GuildStore(database, OTHER).read() as view:
        assert await view.notifications.choices(BEN) == {}
        assert await view.outbox.pending() == []


async def test_a_member_whose_dms_were_refused_stays_marked_until_reopened(
    database: Database,
) -> None:
    """The mark is kept once however often it is set. Their notifications are queued as direct
    messages still: the outbox sender, which knows whether they are still in the server, mentions
    them in the channel instead (tests/runtime/test_outbox_dms.py)."""
    store = GuildStore(database, GUILD)
    async with store.change(None, "outbox.dm_closed", "user") as uow:
        await uow.notifications.mark_closed(ANNA)
        await uow.notifications.mark_closed(ANNA)
    async with store.change(None, "test", "motion") as uow:
        await notify(uow, Kind.VOTE, [ANNA], channel_id=CHANNEL, content="Vote, please.")
        await notify(uow, Kind.VOTE, [ANNA], channel_id=0, content="Nowhere to say it.")
    async with store.read() as view:
        pending = await view.outbox.pending()
        assert await view.notifications.closed([ANNA, BEN]) == {ANNA}
    assert [(row.dm_user_id, row.channel_id, row.ping_users) for row in pending] == [
        (ANNA, CHANNEL, ()),
        (ANNA, 0, ()),
    ]
    async with store.change(ANNA, "notify.reopen", "user") as uow:
        assert await uow.notifications.reopen(ANNA)
        assert not await uow.notifications.reopen(ANNA)
    async with store.read() as view:
        assert await view.notifications.closed([ANNA]) == set()

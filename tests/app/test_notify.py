"""`/notify` through the real command tree with real payloads: the settings with their defaults,
turning a kind or every kind on and off, repeats and floods that leave one row per kind,
refusals that write nothing, a direct message, two servers kept apart, and the mark of closed
DMs that running `/notify` clears."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.app.arbiter import ArbiterBot
from bot.kernel.notifications import Kind
from bot.rendering.common.notifications import REOPENED
from storage.guild import GuildStore
from tests.support.discord_harness import (
    DEFAULT_GUILD_ID,
    OTHER_GUILD_ID,
    DiscordHarness,
    Member,
    Outcome,
    message_limit_problems,
)

USER_ID = 700_000_000_000_000_042


async def rows(bot: ArbiterBot) -> list[tuple[int, int, str, int]]:
    """Every stored choice of every guild: (guild, user, kind, enabled), sorted."""
    async with bot.database.read() as connection:
        cursor = await connection.execute(
            "SELECT guild_id, user_id, kind, enabled FROM notification_choices"
        )
        found = await cursor.fetchall()
    return sorted((int(r[0]), int(r[1]), str(r[2]), int(r[3])) for r in found)


async def audit(bot: ArbiterBot, guild_id: int = DEFAULT_GUILD_ID) -> list[tuple[str, Any]]:
    """The guild's audit rows, oldest first, as (action, details)."""
    async with GuildStore(bot.database, guild_id).read() as view:
        return [(entry.action, entry.details) for entry in await view.audit.recent()]


async def closed(bot: ArbiterBot, user_id: int, guild_id: int = DEFAULT_GUILD_ID) -> bool:
    """Whether the member's DMs are marked closed in the guild."""
    async with GuildStore(bot.database, guild_id).read() as view:
        return user_id in await view.notifications.closed([user_id])


async def close_dms(bot: ArbiterBot, user_id: int, guild_id: int = DEFAULT_GUILD_ID) -> None:
    """Marks the member's DMs closed, as the outbox sender does on Discord's 50007."""
    async with GuildStore(bot.database, guild_id).change(None, "test", "closed") as uow:
        await uow.notifications.mark_closed(user_id)


def one_line(outcome: Outcome) -> str:
    """The text of the only reply, which must be private and one line."""
    assert len(outcome.replies) == 1, outcome.replies
    assert outcome.reply.ephemeral
    assert not outcome.posts
    text = outcome.reply.content or ""
    assert text and "\n" not in text, text
    return text


def settings(outcome: Outcome) -> dict[str, str]:
    """The shown state of each kind, by key, from the only reply's settings embed."""
    assert len(outcome.replies) == 1, outcome.replies
    assert outcome.reply.ephemeral
    assert message_limit_problems(outcome.reply.data) == []
    [embed] = outcome.reply.embeds
    shown = {}
    for field in embed["fields"]:
        for line in field["value"].split("\n"):
            key, rest = line.split(" ", 1)
            shown[key.strip("`")] = rest.split(" — ")[0]
    return shown


def member(harness: DiscordHarness, guild_id: int = DEFAULT_GUILD_ID) -> Member:
    """The same person in whichever guild is asked."""
    return harness.member(guild_id=guild_id, user_id=USER_ID, name="alice")


async def test_notify_alone_shows_every_kind_by_audience_with_its_default(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    outcome = await harness.command("notify", user=member(harness))
    [embed] = outcome.reply.embeds
    assert [f["name"] for f in embed["fields"]] == [
        "For club admins",
        "For tour players",
        "For directors",
    ]
    assert "/notify kind: on:" in embed["description"]
    assert REOPENED not in embed["description"]
    expected = {k.key: ("**on** (default)" if k.default else "off (default)") for k in Kind}
    assert settings(outcome) == expected
    assert settings(outcome)["confirm"] == "**on** (default)"
    assert settings(outcome)["match-result"] == "off (default)"
    players = embed["fields"][1]["value"]
    assert "`confirm`" in players and "a report on my game awaiting my confirmation" in players
    assert "`challenge`" not in players
    assert await rows(bot) == [] and await audit(bot) == []


async def test_a_member_turns_one_kind_on_then_off(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    alice = member(harness)
    text = one_line(await harness.command("notify", user=alice, kind="match-start", on=True))
    assert text == "Direct messages for `match-start` (my club's match starting): **on**."
    assert await rows(bot) == [(DEFAULT_GUILD_ID, USER_ID, "match-start", 1)]
    shown = settings(await harness.command("notify", user=alice))
    assert shown["match-start"] == "**on**"
    assert shown["forfeit"] == "off (default)"

    text = one_line(await harness.command("notify", user=alice, kind="match-start", on=False))
    assert text.endswith(": **off**.")
    assert await rows(bot) == [(DEFAULT_GUILD_ID, USER_ID, "match-start", 0)]
    assert settings(await harness.command("notify", user=alice))["match-start"] == "off"
    chosen = [{"user_id": USER_ID, "kind": "match-start", "enabled": e} for e in (True, False)]
    assert await audit(bot) == [("notify.set", {"notification": [entry]}) for entry in chosen]


async def test_all_off_stores_every_kind_off_and_again_writes_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    alice = member(harness)
    await harness.command("notify", user=alice, kind="vote", on=False)
    text = one_line(await harness.command("notify", user=alice, kind="all", on=False))
    assert text == f"Direct messages for all {len(Kind)} kinds: **off**."
    assert await rows(bot) == sorted((DEFAULT_GUILD_ID, USER_ID, k.key, 0) for k in Kind)
    assert set(settings(await harness.command("notify", user=alice)).values()) == {"off"}
    changes = await audit(bot)
    assert len(changes) == 2
    assert len(changes[1][1]["notification"]) == len(Kind) - 1  # vote was off already

    again = one_line(await harness.command("notify", user=alice, kind="all", on=False))
    assert again == f"Direct messages for all {len(Kind)} kinds were **off** already."
    assert await audit(bot) == changes
    assert len(await rows(bot)) == len(Kind)


async def test_a_repeated_choice_keeps_one_row_and_one_audit_row(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    alice = member(harness)
    first = one_line(await harness.command("notify", user=alice, kind="vote", on=True))
    assert first.endswith(": **on**.")  # chosen now, though on by default
    for _ in range(3):
        again = one_line(await harness.command("notify", user=alice, kind="vote", on=True))
        assert again.endswith("were **on** already.")
    assert await rows(bot) == [(DEFAULT_GUILD_ID, USER_ID, "vote", 1)]
    assert [action for action, _ in await audit(bot)] == ["notify.set"]
    assert settings(await harness.command("notify", user=alice))["vote"] == "**on**"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"kind": "nope", "on": True}, "'nope' is not a kind of direct message"),
        ({"kind": "ALL", "on": False}, "'ALL' is not a kind of direct message"),
        ({"kind": "", "on": False}, "'' is not a kind of direct message"),
        ({"kind": "vote\n@everyone", "on": False}, "is not a kind of direct message"),
        ({"kind": "<@1> **x** " + "y" * 5000, "on": True}, "is not a kind of direct message"),
        ({"kind": "vote"}, "Say on:True"),
        ({"on": True}, "Name the kind"),
    ],
)
async def test_a_bad_option_gets_one_private_line_and_nothing_is_written(
    harness: DiscordHarness, bot: ArbiterBot, options: dict[str, Any], says: str
) -> None:
    alice = member(harness)
    await close_dms(bot, USER_ID)
    before = await audit(bot)
    text = one_line(await harness.command("notify", user=alice, **options))
    assert says in text
    assert len(text) < 500 and "<@1>" not in text  # the mention is escaped
    if "kind" in options and "on" in options:
        assert "choose challenge, match-start," in text and "or all." in text
    assert await rows(bot) == []
    assert await audit(bot) == before
    assert await closed(bot, USER_ID)  # a refusal clears nothing either


async def test_notify_in_a_direct_message_is_refused_and_help_there_leaves_it_out(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    alice = member(harness)
    for options in ({}, {"kind": "vote", "on": False}):
        outcome = await harness.command("notify", user=alice, dm=True, **options)
        assert one_line(outcome).startswith("Use /notify in the server")
    assert await rows(bot) == [] and await audit(bot) == []
    assert "/notify" not in (await harness.command("help", user=alice, dm=True)).reply.text()
    listed = (await harness.command("help", user=harness.member())).reply.text()
    assert "`/notify` — Show or choose the direct messages Arbiter sends you here." in listed


async def test_a_choice_in_one_server_does_not_show_or_change_in_another(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    here, there = member(harness), member(harness, OTHER_GUILD_ID)
    await close_dms(bot, USER_ID, OTHER_GUILD_ID)
    await harness.command("notify", user=here, kind="all", on=True)
    await harness.command("notify", user=here, kind="challenge", on=False)
    assert {row[0] for row in await rows(bot)} == {DEFAULT_GUILD_ID}
    assert await closed(bot, USER_ID, OTHER_GUILD_ID)  # only the other server's command clears it

    shown = await harness.command("notify", user=there)
    assert settings(shown) == {
        k.key: ("**on** (default)" if k.default else "off (default)") for k in Kind
    }
    assert REOPENED in shown.reply.embeds[0]["description"]
    assert not await closed(bot, USER_ID, OTHER_GUILD_ID)
    assert settings(await harness.command("notify", user=here))["challenge"] == "off"
    assert (await audit(bot, OTHER_GUILD_ID))[-1] == ("notify.reopen", {"reopened": True})


async def test_a_flood_of_changes_leaves_one_row_per_kind_holding_the_last_choice(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    alice = member(harness)
    names = [k.key for k in Kind] + ["all"]
    draw = random.Random(36)
    last: dict[str, bool] = {}
    for _ in range(100):
        name, on = draw.choice(names), draw.choice((True, False))
        one_line(await harness.command("notify", user=alice, kind=name, on=on))
        last.update({k.key: on for k in Kind} if name == "all" else {name: on})
    stored = await rows(bot)
    assert len(stored) == len({row[2] for row in stored}) == len(last)
    assert {row[2]: bool(row[3]) for row in stored} == last
    shown = settings(await harness.command("notify", user=alice))
    assert {key for key, state in shown.items() if "default" not in state} == set(last)


async def test_a_member_with_every_kind_and_a_hundred_unknown_ones_gets_one_reply(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    """Rows of kinds Arbiter does not know (left by another version, say) are not shown, and
    the reply stays one message within Discord's limits."""
    alice = member(harness)
    await harness.command("notify", user=alice, kind="all", on=True)
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(None, "test", "x") as uow:
        for number in range(100):
            await uow.notifications.choose(USER_ID, f"unknown-{number:03}-" + "z" * 80, True)
    await close_dms(bot, USER_ID)
    outcome = await harness.command("notify", user=alice)
    assert set(settings(outcome)) == {k.key for k in Kind}
    assert set(settings(outcome).values()) == {"**on**"}
    assert "unknown-" not in outcome.reply.text()
    assert REOPENED in outcome.reply.text()


async def test_running_notify_reopens_closed_dms_and_says_so_once(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    alice = member(harness)
    await close_dms(bot, USER_ID)
    text = one_line(await harness.command("notify", user=alice, kind="session", on=True))
    assert text.endswith(REOPENED)
    assert not await closed(bot, USER_ID)
    assert (await audit(bot))[-1][1]["reopened"] is True

    await close_dms(bot, USER_ID)
    repeat = one_line(await harness.command("notify", user=alice, kind="session", on=True))
    assert repeat.startswith("Direct messages for `session`") and repeat.endswith(REOPENED)
    assert not await closed(bot, USER_ID)
    assert await rows(bot) == [(DEFAULT_GUILD_ID, USER_ID, "session", 1)]

    shown = await harness.command("notify", user=alice)
    assert REOPENED not in shown.reply.text()

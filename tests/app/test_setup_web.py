"""`/setup web` through the real command tree: who may turn a server's public site on, the slugs
it refuses, a slug another server holds, renaming, and turning it off under Confirm / Cancel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import Config, DatabaseConfig, WebConfig
from storage.guild import GuildStore
from tests.support.discord_harness import (
    DEFAULT_GUILD_ID,
    OTHER_GUILD_ID,
    DiscordHarness,
    Member,
    Outcome,
)

BASE_URL = "https://arbiter.example.org"


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """The site configured, with its public address."""
    return Config(
        database=DatabaseConfig(path=tmp_path / "bot.db"), web=WebConfig(base_url=BASE_URL)
    )


async def hq(harness: DiscordHarness, guild_id: int = DEFAULT_GUILD_ID) -> Member:
    """A member with Manage Server and the HQ role, once `/setup set` named that role."""
    manager = harness.member(permissions=harness.MANAGE_SERVER, guild_id=guild_id)
    role = harness.role("HQ", guild_id=guild_id)
    await harness.command("setup set", user=manager, hq_role=role)
    return harness.member("HQ", permissions=harness.MANAGE_SERVER, guild_id=guild_id)


async def state(bot: ArbiterBot, guild_id: int) -> tuple[str | None, list[tuple[str, Any]]]:
    """The guild's slug and its audit rows, oldest first, as (action, details)."""
    async with GuildStore(bot.database, guild_id).read() as view:
        slug = await view.web_sites.slug()
        audit = await view.audit.recent()
    return slug, [(entry.action, entry.details) for entry in audit]


def buttons(outcome: Outcome) -> list[str]:
    """The custom ids of a reply's buttons, Confirm first."""
    return [c["custom_id"] for row in outcome.reply.components for c in row["components"]]


async def test_hq_turns_the_site_on_and_the_reply_gives_its_address(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    member = await hq(harness)
    shown = await harness.command("setup web", user=member)
    assert shown.reply.ephemeral
    assert "is off" in (shown.reply.content or "")

    reply = await harness.command("setup web", user=member, slug="my-club")
    text = reply.reply.content or ""
    assert reply.reply.ephemeral
    assert f"<{BASE_URL}/g/my-club/>" in text
    assert "does not serve" not in text
    slug, audit = await state(bot, member.guild_id)
    assert slug == "my-club"
    assert audit[-1] == ("setup.web", {"web_site": [{"slug": "my-club"}]})

    again = await harness.command("setup web", user=member, slug="my-club")
    assert "nothing changed" in (again.reply.content or "")
    assert len((await state(bot, member.guild_id))[1]) == len(audit)

    shown = await harness.command("setup web", user=member)
    assert f"{BASE_URL}/g/my-club/" in (shown.reply.content or "")


async def test_renaming_moves_the_site_and_frees_the_old_slug(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    member = await hq(harness)
    await harness.command("setup web", user=member, slug="old-name")
    reply = await harness.command("setup web", user=member, slug="new-name")
    text = reply.reply.content or ""
    assert "moved to" in text and "/g/new-name/" in text and "/g/old-name/" in text
    slug, audit = await state(bot, member.guild_id)
    assert slug == "new-name"
    assert audit[-1][1]["renamed_from"] == "old-name"

    other = await hq(harness, OTHER_GUILD_ID)
    taken = await harness.command("setup web", user=other, slug="old-name")
    assert "is on, at" in (taken.reply.content or "")


async def test_a_slug_another_server_holds_is_refused_and_nothing_is_written(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    member = await hq(harness)
    await harness.command("setup web", user=member, slug="chess-club")
    other = await hq(harness, OTHER_GUILD_ID)
    before = await state(bot, OTHER_GUILD_ID)
    refused = await harness.command("setup web", user=other, slug="chess-club")
    assert refused.reply.ephemeral
    assert refused.reply.content == (
        "The slug 'chess-club' is taken by another server: choose another one."
    )
    assert await state(bot, OTHER_GUILD_ID) == before
    assert (await state(bot, member.guild_id))[0] == "chess-club"


@pytest.mark.parametrize(
    ("slug", "problem"),
    [
        ("", "Give the site a slug"),
        ("   ", "Give the site a slug"),
        ("ab", "has 2 characters"),
        ("a" * 41, "has 41 characters"),
        ("My-Club", "has capital letters"),
        ("my\x00club", "holds other characters"),
        ("my\nclub", "holds other characters"),
        ("../x", "holds other characters"),
        ("my club", "holds other characters"),
        ("-club", "starts or ends with a dash"),
        ("club-", "starts or ends with a dash"),
    ],
)
async def test_a_bad_slug_gets_one_ephemeral_line_and_nothing_is_written(
    harness: DiscordHarness, bot: ArbiterBot, slug: str, problem: str
) -> None:
    member = await hq(harness)
    before = await state(bot, member.guild_id)
    refused = await harness.command("setup web", user=member, slug=slug)
    text = refused.reply.content or ""
    assert refused.reply.ephemeral
    assert problem in text
    assert "3 to 40 lower-case letters, digits and dashes" in text
    assert "\n" not in text and "\x00" not in text
    assert await state(bot, member.guild_id) == before


async def test_only_hq_with_manage_server_may_and_a_refusal_writes_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await hq(harness)
    before = await state(bot, harness.member().guild_id)
    manager = harness.member(permissions=harness.MANAGE_SERVER)
    refused = await harness.command("setup web", user=manager, slug="my-club")
    assert refused.reply.ephemeral and "league HQ" in (refused.reply.content or "")
    hq_only = harness.member("HQ")
    refused = await harness.command("setup web", user=hq_only, slug="my-club")
    assert refused.reply.ephemeral and "Manage Server" in (refused.reply.content or "")
    assert await state(bot, manager.guild_id) == before

    listed = (await harness.command("help", user=manager)).reply.text()
    assert "/setup set" in listed and "/setup web" not in listed
    member = harness.member("HQ", permissions=harness.MANAGE_SERVER)
    assert "/setup web" in (await harness.command("help", user=member)).reply.text()


async def test_off_asks_to_confirm_and_cancel_keeps_the_site(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    member = await hq(harness)
    await harness.command("setup web", user=member, slug="my-club")
    before = await state(bot, member.guild_id)

    both = await harness.command("setup web", user=member, slug="x-club", off=True)
    assert both.reply.ephemeral and "not both" in (both.reply.content or "")

    preview = await harness.command("setup web", user=member, off=True)
    assert "Turn off the public site" in (preview.reply.content or "")
    assert f"{BASE_URL}/g/my-club/" in (preview.reply.content or "")
    confirm, cancel = buttons(preview)
    message = preview.reply.message_id or 0
    stranger = harness.member("HQ", permissions=harness.MANAGE_SERVER, user_id=4242)
    refused = await harness.click(confirm, user=stranger, message_id=message)
    assert refused.reply.ephemeral and "Only the member" in (refused.reply.content or "")
    cancelled = await harness.click(cancel, user=member, message_id=message)
    assert "nothing was stored" in (cancelled.reply.content or "")
    assert await state(bot, member.guild_id) == before


async def test_off_confirmed_removes_the_site_at_once(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    member = await hq(harness)
    await harness.command("setup web", user=member, slug="my-club")
    preview = await harness.command("setup web", user=member, off=True)
    confirm, _ = buttons(preview)
    done = await harness.click(confirm, user=member, message_id=preview.reply.message_id or 0)
    assert "is off" in (done.reply.content or "") and "/g/my-club/" in (done.reply.content or "")
    slug, audit = await state(bot, member.guild_id)
    assert slug is None
    assert audit[-1] == (
        "setup.web",
        {"web_site": [{"withdrawn": True}], "slug": "my-club"},
    )
    async with bot.database.read() as connection:
        rows = await connection.execute_fetchall("SELECT COUNT(*) FROM web_sites", ())
    assert rows[0][0] == 0

    off = await harness.command("setup web", user=member, off=True)
    assert off.reply.ephemeral and "is off" in (off.reply.content or "")
    assert not buttons(off)
    other = await hq(harness, OTHER_GUILD_ID)
    freed = await harness.command("setup web", user=other, slug="my-club")
    assert "is on, at" in (freed.reply.content or "")


async def test_without_a_web_table_the_reply_says_the_bot_does_not_serve_the_site(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    bot.config = bot.config.model_copy(update={"web": None})
    member = await hq(harness)
    reply = await harness.command("setup web", user=member, slug="my-club")
    text = reply.reply.content or ""
    assert "the path `/g/my-club/` of the bot's site" in text
    assert "This bot does not serve the site yet" in text
    assert (await state(bot, member.guild_id))[0] == "my-club"

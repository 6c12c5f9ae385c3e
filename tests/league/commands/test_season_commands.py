"""/season and /club through the real tree: a refusal naming the role that writes nothing,
autocomplete from the guild's data, and the schedule preview's Confirm / Cancel buttons."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.app.arbiter import ArbiterBot
from tests.support.command_world import dump
from tests.support.discord_harness import DiscordHarness

FIRST_ROUND = (
    dt.date.today() + dt.timedelta(days=364 - (dt.date.today().weekday() - 5) % 7)
).isoformat()
"""A Saturday about a year ahead: within the window a first round may lie in (5 years)."""


async def _setup(harness: DiscordHarness) -> Any:
    await harness.set_up()
    return harness.member("HQ", name="hq")


async def _clubs(bot: ArbiterBot, names: list[str]) -> None:
    store = bot.guild_store(800_000_000_000_000_001)
    async with store.change(None, "test.clubs", "clubs") as uow:
        for name in names:
            await uow.clubs.register(name, name.lower(), status="approved")


async def test_season_create_is_refused_to_a_player_naming_hq_and_writes_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await _setup(harness)
    player = harness.member()
    before = dump(bot.database.path)
    outcome = await harness.command(
        "season create", user=player, name="Spring", first_round=FIRST_ROUND
    )
    assert outcome.reply.ephemeral and "league HQ" in (outcome.reply.content or "")
    assert dump(bot.database.path) == before


async def test_a_date_in_the_past_is_one_ephemeral_line(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    hq = await _setup(harness)
    before = dump(bot.database.path)
    outcome = await harness.command("season create", user=hq, name="Old", first_round="2001-01-01")
    assert outcome.reply.ephemeral and "in the past" in (outcome.reply.content or "")
    assert dump(bot.database.path) == before


async def test_schedule_preview_confirm_stores_and_cancel_does_not(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    hq = await _setup(harness)
    await harness.command("season create", user=hq, name="Spring", first_round=FIRST_ROUND)
    await _clubs(bot, ["Alpha", "Beta", "Gamma"])
    for club in ("Alpha", "Beta", "Gamma"):
        await harness.command(
            "season club-add", user=hq, season="Spring", division="Premier Division", club=club
        )
    choices = await harness.autocomplete("season show", user=hq, focused="season", season="spr")
    assert [c["value"] for c in choices] == ["Spring"]
    clubs = await harness.autocomplete("club info", user=hq, focused="club", club="a")
    assert {c["value"] for c in clubs} == {"Alpha", "Beta", "Gamma"}

    before = dump(bot.database.path)
    preview = await harness.command("season schedule", user=hq, season="Spring")
    assert "Nothing is stored" in (preview.reply.content or "")
    ids = [c["custom_id"] for row in preview.reply.components for c in row["components"]]
    other = harness.member("HQ")
    refused = await harness.click(ids[0], user=other, message_id=preview.reply.message_id or 0)
    assert refused.reply.ephemeral and "Only the member" in (refused.reply.content or "")
    cancelled = await harness.click(ids[1], user=hq, message_id=preview.reply.message_id or 0)
    assert "nothing was stored" in (cancelled.reply.content or "")
    assert dump(bot.database.path) == before

    preview = await harness.command("season schedule", user=hq, season="Spring")
    ids = [c["custom_id"] for row in preview.reply.components for c in row["components"]]
    confirmed = await harness.click(ids[0], user=hq, message_id=preview.reply.message_id or 0)
    assert "matches stored" in (confirmed.reply.content or "")
    buttons = [c for row in confirmed.reply.components for c in row["components"]]
    assert buttons and all(b.get("disabled") for b in buttons)
    listed = await harness.command("match list", user=hq, season="Spring")
    assert "Alpha" in listed.reply.text()
    matches = await harness.autocomplete("match show", user=hq, focused="match", match=1)
    assert 1 <= len(matches) <= 3 and all(c["name"].startswith("Spring") for c in matches)
    shown = await harness.command("match show", user=hq, match=matches[0]["value"])
    assert "<t:" in shown.reply.text() and ":R>" in shown.reply.text()

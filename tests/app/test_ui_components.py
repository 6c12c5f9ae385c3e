"""The surface's moving parts through the real tree: Previous / Next pages, the schedule
preview's Confirm timing out on its own, `/help` per role, and the season's show, calendar
(.ics), export and import round trip, division-add and club-remove."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from storage.guild import GuildStore
from tests.support.command_world import SPRING, CommandWorld, copy_world, dump, league_bot, members
from tests.support.discord_harness import DEFAULT_GUILD_ID, Upload


def _buttons(components: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    return {str(b["label"]): b for row in components for b in row["components"]}  # type: ignore[attr-defined]


async def test_previous_and_next_turn_the_pages_for_the_asker_only(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _):
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(None, "t", "clubs") as uow:
            for n in range(150):
                await uow.clubs.register(f"Club number {n:03d}", f"club-{n:03d}")
        player = members(harness)["player"]
        first = await harness.command("club list", user=player)
        footer = first.reply.embeds[0]["footer"]["text"]
        assert footer.startswith("Page 1/") and int(footer.split("/")[1]) >= 2
        buttons = _buttons(first.reply.components)
        assert buttons["Previous"].get("disabled") and not buttons["Next"].get("disabled")
        message = first.reply.message_id or 0
        other = await harness.click(
            str(buttons["Next"]["custom_id"]), user=members(harness)["HQ"], message_id=message
        )
        assert other.reply.ephemeral and "run the command yourself" in (other.reply.content or "")
        turned = await harness.click(
            str(buttons["Next"]["custom_id"]), user=player, message_id=message
        )
        assert turned.reply.embeds[0]["footer"]["text"].startswith("Page 2/")
        assert turned.reply.embeds[0]["description"] != first.reply.embeds[0]["description"]
        back = await harness.click(
            str(buttons["Previous"]["custom_id"]), user=player, message_id=message
        )
        assert back.reply.embeds[0]["description"] == first.reply.embeds[0]["description"]


async def test_the_schedule_preview_expires_on_its_own_and_stores_nothing(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """The view's timer (`loop.call_later(60, expire)`) is driven by calling `expire()`, as
    the timer would; a Confirm after the 60 s on the database clock is refused too."""
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (bot, harness, clock):
        hq = members(harness)["HQ"]
        before = dump(path)
        preview = await harness.command("season schedule", user=hq, season=SPRING)
        cog = bot.get_cog("Seasons")
        view = cog.previews[preview.reply.message_id or 0]  # type: ignore[union-attr]
        with harness._recording(harness.channel("general")) as edited:
            await view.expire()
        assert "expired" in (edited.replies[-1].content or "")
        assert all(b.get("disabled") for b in _buttons(edited.replies[-1].components).values())
        confirm = _buttons(preview.reply.components)["Confirm"]["custom_id"]
        # The expired view has stopped listening (its buttons show disabled): nothing runs.
        late = await harness.click(str(confirm), user=hq, message_id=preview.reply.message_id or 0)
        assert not late.replies
        assert dump(path) == before

        second = await harness.command("season schedule", user=hq, season=SPRING)
        await clock.advance(dt.timedelta(seconds=61))
        confirm = _buttons(second.reply.components)["Confirm"]["custom_id"]
        late = await harness.click(str(confirm), user=hq, message_id=second.reply.message_id or 0)
        assert "expired" in (late.reply.content or "")
        assert dump(path) == before


async def test_help_lists_what_each_role_may_use(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, _clock):
        cast = members(harness)

        async def listed(role: str) -> str:
            outcome = await harness.command("help", user=cast[role])
            assert all(r.ephemeral for r in outcome.replies)
            return "".join(r.text() for r in outcome.replies)

        roles = ("player", "HQ", "director", "arbiter", "server manager")
        player, hq, director, arbiter, manager = [await listed(r) for r in roles]
        for text in (player, hq, director, arbiter, manager):
            assert "/standings" in text or "/match show" in text
        assert "/season create" not in player and "/season create" in hq
        assert "/match reschedule" not in hq and "/match reschedule" in director
        assert "/vote open" not in hq and "/vote open" in director
        assert "/match result" in arbiter and "/match result" not in director
        assert "/setup set" in manager and "/setup set" not in hq


async def test_season_show_calendar_and_a_file_round_trip(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (_bot, harness, _):
        hq = members(harness)["HQ"]
        added = await harness.command(
            "season division-add", user=hq, season=SPRING, name="Second", min_players=3
        )
        assert "Second" in (added.reply.content or "")
        removed = await harness.command(
            "season club-remove", user=hq, season=SPRING, division="Premier Division", club="B"
        )
        assert "no longer plays" in (removed.reply.content or "")
        shown = await harness.command("season show", user=hq, season="Test season")
        assert "Test season" in shown.reply.text()

        calendar = await harness.command("season calendar", user=hq, season="Test season")
        assert calendar.reply.files == ["calendar.ics"]
        ics = calendar.reply.uploads["calendar.ics"].decode("utf-8")
        lines = ics.replace("\r\n ", "").split("\r\n")
        assert lines[0] == "BEGIN:VCALENDAR" and lines[-2:] == ["END:VCALENDAR", ""]
        assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") >= 6
        assert any(line.startswith("DTSTART:20260401T180000Z") for line in lines), ics

        exported = await harness.command("season export", user=hq, season="Test season")
        ((name, data),) = exported.reply.uploads.items()
        assert name.endswith(".json") and json.loads(data)["name"] == "Test season"
        imported = await harness.command(
            "season import", user=hq, file=Upload(name, data), name="Test season copy"
        )
        assert "imported" in (imported.reply.content or "")
        again = await harness.command("season export", user=hq, season="Test season copy")
        copy = json.loads(next(iter(again.reply.uploads.values())))
        original = json.loads(data)
        assert copy.pop("name") == "Test season copy"
        original.pop("name")
        assert copy == original


async def test_buttons_answer_through_the_trees_one_error_handler(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21: the motion buttons had their own error wording and a literal 2000, and the
    preview's Confirm caught only UserError (showing it in the public preview). Now a refused
    Confirm leaves the public preview saying only that nothing was stored, and the clicker
    gets the refusal privately; an unexpected failure of either button gets the tree's line
    with an error id (logged), as a command would."""
    from bot.app.ui import motion_buttons
    from bot.app.ui.confirm import FAILED
    from bot.kernel.errors import UserError
    from bot.kernel.inputs import named
    from bot.rendering.league.motions import vote_buttons

    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (bot, harness, _clock):
        hq = members(harness)["HQ"]
        before = dump(path)
        preview = await harness.command("season schedule", user=hq, season=SPRING)
        view = bot.get_cog("Seasons").previews[preview.reply.message_id or 0]  # type: ignore[union-attr]

        async def refused() -> str:
            raise UserError(f"Season {named('**x** <@1>')} changed meanwhile.")

        monkeypatch.setattr(view, "on_confirm", refused)
        button = _buttons(preview.reply.components)["Confirm"]["custom_id"]
        clicked = await harness.click(
            str(button), user=hq, message_id=preview.reply.message_id or 0
        )
        edited, private = clicked.replies
        assert edited.content == FAILED and not edited.ephemeral
        assert private.ephemeral and "changed meanwhile" in (private.content or "")
        assert "<@1>" not in (private.content or "")  # the name it quotes neutralised
        assert dump(path) == before

        async def broken(*args: object) -> object:
            raise RuntimeError("boom")

        monkeypatch.setattr(motion_buttons, "cast_vote", broken)
        director = harness.member("Director", user_id=102, name="d102")
        motion = world_file[1].motion
        payload = harness.click_payload(
            f"motion:{motion}:yes",
            director,
            1,  # the motion's message, as Discord sends it with its buttons
            message={"content": f"Motion {motion}", "components": vote_buttons(motion)},
            channel_id=harness.channel("general"),
        )
        failed = await harness.run(payload, errors_expected=True)
        assert failed.reply.ephemeral
        assert "Something went wrong on my side (error id `" in (failed.reply.content or "")
        assert any("button motion:" in record.getMessage() for record in failed.errors)

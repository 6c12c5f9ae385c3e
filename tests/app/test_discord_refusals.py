"""Refusals (`UserError`) quote user values shown as typed in Discord — escaped at the Discord
boundary (bot.app.tree), our own markdown kept, text the cogs escaped not escaped twice — and
unchanged in the plain text the CLI and the logs use. Through the real command tree."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.kernel.errors import UserError
from bot.kernel.inputs import named, shown
from bot.rendering.common.user_text import user_text
from storage.league.clubs import name_key
from tests.support.command_world import SPRING, CommandWorld, copy_world, league_bot, members

BOLD = "**Bold** x_y"
BOLD_SHOWN = r"\*\*Bold\*\* x\_y"


def _rename(path: Path, old: str, new: str) -> None:
    connection = sqlite3.connect(path)
    try:
        with connection:
            changed = connection.execute(
                "UPDATE clubs SET name = ?, name_key = ? WHERE name = ?", (new, name_key(new), old)
            )
            assert changed.rowcount == 1
    finally:
        connection.close()


def test_a_refusal_keeps_its_plain_text_for_the_cli_and_escapes_values_for_discord() -> None:
    """`message` (CLI, logs, str()) is byte-for-byte the text without marks; `markdown`
    escapes only the quoted values: our own bold stays, a value escaped already stays once."""
    value = "**Bold** x_y" + "z" * 40
    refusal = UserError(f"No club {shown(value)} for **you**; see {user_text('a_b')}.")
    plain = f"No club {value[:40]!r}… for **you**; see a\\_b."
    assert refusal.message == plain and str(refusal) == plain
    assert refusal.markdown == f"No club '{BOLD_SHOWN}{'z' * 28}'… for **you**; see a\\_b."
    named_refusal = UserError(f"Season {named('S_1')} has no date.")
    assert named_refusal.message == "Season S_1 has no date."
    assert named_refusal.markdown == r"Season S\_1 has no date."


def test_typed_marks_cannot_forge_a_quoted_value() -> None:
    """The marks are control characters: `shown` escapes them (repr), so a hostile value
    cannot end the quoted part early and leave markdown unescaped after it."""
    hostile = "a\x1f**b**\x1e"
    refusal = UserError(f"No club {shown(hostile)}.")
    assert refusal.message == f"No club {hostile!r}."
    assert "**b**" not in refusal.markdown and r"\*\*b\*\*" in refusal.markdown


async def test_an_unknown_club_with_markdown_is_refused_showing_the_name_as_typed(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """/club info with a name holding `**` and `_`: the ephemeral refusal shows it escaped."""
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, _clock):
        player = members(harness)["player"]
        outcome = await harness.command("club info", user=player, club=BOLD)
        assert outcome.reply.ephemeral
        assert outcome.reply.content == f"No club '{BOLD_SHOWN}' on this server."


async def test_a_stored_name_in_a_refusal_shows_as_typed_and_our_markdown_stays(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """A club named `**Bold** x_y`: adding it to a season it plays in names it escaped (a
    service refusal); /roster remove by a non-admin names it escaped inside our own bold
    (a permission refusal)."""
    path = copy_world(world_file, tmp_path)
    _rename(path, "A", BOLD)
    async with league_bot(path) as (_, harness, _clock):
        cast = members(harness)
        added = await harness.command(
            "season club-add",
            user=cast["HQ"],
            season=SPRING,
            division="Premier Division",
            club=BOLD,
        )
        assert added.reply.content == f"Club {BOLD_SHOWN} is already in a division of {SPRING}."
        removed = await harness.command(
            "roster remove", user=cast["player"], club=BOLD, player="a9", reason="other"
        )
        assert removed.reply.ephemeral
        assert removed.reply.content == f"This command needs a **club admin** of **{BOLD_SHOWN}**."

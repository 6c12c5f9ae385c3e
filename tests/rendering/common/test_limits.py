"""Text users typed stays within Discord's embed limits and shown as typed when it is long:
escaping can double a name's length, so titles, field names and values are cut after
escaping (`escape.cut`) without leaving half an escape; /setup show's undelivered-message
errors are escaped. Renderers directly, and /match show through the real command tree."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

from bot.rendering.common import limits
from bot.rendering.common.guild_settings import settings_embed
from bot.rendering.common.text import cut
from bot.rendering.common.user_text import user_text
from bot.rendering.league.division_view import DivisionView
from bot.rendering.league.embeds import standings_embeds as season_standings
from bot.rendering.league.standings_embeds import standings_embeds
from storage.league.clubs import name_key
from storage.shared.guild_settings import GuildSettings
from storage.shared.outbox import OutboxMessage
from tests.support.command_world import CommandWorld, copy_world, league_bot, members

STARS = "*" * 100
UNDERSCORES = "_" * 100


def _dangling(text: str) -> bool:
    """Whether `text` (before its "…") ends in a backslash escaping nothing."""
    body = text.removesuffix("…")
    return (len(body) - len(body.rstrip("\\"))) % 2 == 1


def test_cut_keeps_short_text_and_never_leaves_half_an_escape() -> None:
    """Within the limit: unchanged. Over it: at most `limit` characters ending in "…", and
    never a lone backslash that would escape the "…" or our markdown after it."""
    assert cut("short", 10) == "short"
    for limit in range(5, 60):
        for text in (user_text(STARS), user_text("a\\b" * 30), user_text("x*" * 40)):
            shown = cut(text, limit)
            assert len(shown) <= limit and shown.endswith("…")
            assert not _dangling(shown), (limit, shown)
            assert text.startswith(shown[:-1])


def test_setup_show_escapes_an_undelivered_messages_error() -> None:
    """/setup show's "Undelivered messages" quotes Discord's error: shown as typed."""
    now = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)
    failed = OutboxMessage(
        1, 5, 77, "x", (), None, "failed", 3, None, None, "403 Missing_Access **x**", now
    )
    embed = settings_embed(GuildSettings(5), failures=[failed]).to_dict()
    [value] = [f["value"] for f in embed["fields"] if f["name"] == "Undelivered messages"]
    assert r"403 Missing\_Access \*\*x\*\*" in value and "**x**" not in value
    assert len(value) <= limits.FIELD_VALUE


def _rename(path: Path, renames: dict[str, str]) -> None:
    connection = sqlite3.connect(path)
    try:
        with connection:
            for old, new in renames.items():
                connection.execute(
                    "UPDATE clubs SET name = ?, name_key = ? WHERE name = ?",
                    (new, name_key(new), old),
                )
    finally:
        connection.close()


async def test_match_show_with_two_long_markdown_names_fits_a_title(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Two clubs named with 100 markdown characters each (200 once escaped): /match show's
    title stays within Discord's 256 (a longer one fails the whole reply), both names cut
    cleanly, shown as typed (escaped)."""
    path = copy_world(world_file, tmp_path)
    _rename(path, {"A": STARS, "D": UNDERSCORES})
    async with league_bot(path) as (_, harness, _clock):
        player = members(harness)["player"]
        shown = await harness.command("match show", user=player, match=world_file[1].open_match)
    embeds = shown.replies[-1].embeds
    assert embeds, shown.replies
    for embed in embeds:
        title = embed["title"]
        assert len(title) <= limits.EMBED_TITLE, len(title)
        home, away = title.split(" – ")
        for side in (home, away):
            assert side.endswith("…") and not _dangling(side)
        assert home.startswith("\\*" * 50) and away.startswith("\\_" * 50)


def test_standings_and_season_titles_of_long_markdown_names_fit() -> None:
    """A season and a division of 100 markdown characters each (`Season · Division`, 403
    once escaped): the /standings and pin embeds' titles are cut to 256, cleanly."""
    view = DivisionView(STARS, UNDERSCORES, None, (), ())
    titles = [e.title or "" for e in standings_embeds(view.title, [view])]
    titles += [e.title or "" for e in season_standings(STARS + UNDERSCORES, [view])]
    assert titles and all(len(t) <= limits.EMBED_TITLE and not _dangling(t) for t in titles), titles
    assert all(t.startswith("\\*" * 100) for t in titles)

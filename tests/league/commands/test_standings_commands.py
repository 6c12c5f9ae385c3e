"""/standings, /crosstable and /standings-pin through the real tree: the phone-width embed
table (paginated when long), the PNGs decoding at their size and byte-identical across two
calls, the CSV's exact values, the cache answering an unchanged season, and the pin posted
through the outbox."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from PIL import Image

import bot.offline.discord_http as http
import bot.offline.discord_stub as stub
from bot.app.arbiter import ArbiterBot
from bot.rendering.common.image_table import (
    HEADER_HEIGHT,
    MARGIN,
    NOTE_HEIGHT,
    SUBTITLE_HEIGHT,
    TITLE_HEIGHT,
)
from bot.rendering.common.standings_image import ROW_HEIGHT, WIDTH
from bot.rendering.league.crosstable_image import crosstable_png
from bot.rendering.league.division_view import division_view
from bot.rendering.league.standings_image import standings_notes
from storage.guild import GuildStore
from tests.support.command_world import dump
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness
from tests.support.motion_world import import_test_season, set_up
from tests.support.rendering_season import CLUBS, generated_report, generated_season

SEASON = "Test season"


@pytest.fixture
def attached(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, bytes]]]:
    """The files the bot attaches to its replies, (name, bytes), as Discord receives them."""
    seen: list[tuple[str, bytes]] = []
    original = http.message_body

    def recording(payload: Any, multipart: Any) -> dict[str, Any]:
        for part in multipart or []:
            if part.get("filename"):
                value = part["value"]
                seen.append((part["filename"], value.getvalue()))
        return original(payload, multipart)

    monkeypatch.setattr(http, "message_body", recording)
    monkeypatch.setattr(stub, "message_body", recording)
    yield seen


def _decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _table_rows(description: str) -> list[str]:
    rows, inside = [], False
    for line in description.split("\n"):
        if line == "```":
            inside = not inside
        elif inside:
            rows.append(line)
    return rows


async def test_standings_embed_is_a_phone_width_table_with_marks(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    await import_test_season(bot.database, generated_season())
    player = harness.member()
    choices = await harness.autocomplete("standings", user=player, focused="season", season="te")
    assert [c["value"] for c in choices] == [SEASON]
    divisions = await harness.autocomplete(
        "standings", user=player, focused="division", season=SEASON, division=""
    )
    assert [c["value"] for c in divisions] == ["P"]
    computed = bot.standings.computed
    reply = (await harness.command("standings", user=player, season=SEASON)).reply
    [embed] = reply.embeds
    rows = _table_rows(embed["description"])
    assert len(rows) == 14 and all(len(row) <= 30 for row in rows)
    assert rows[-1].startswith("DQ")  # the disqualified club, last
    assert "`DQ` disqualified" in embed["description"]
    report = generated_report()
    assert rows[1].split()[0] == "1" and report.standings("P")[0].rank == 1
    again = (await harness.command("standings", user=player, season=SEASON, division="p")).reply
    assert again.embeds[0]["description"] == embed["description"]
    assert bot.standings.computed == computed + 1  # the unchanged season: computed once


async def test_a_long_table_pages_with_buttons(harness: DiscordHarness, bot: ArbiterBot) -> None:
    await set_up(harness)
    clubs = tuple(
        f"{name} of the Northern Valley League {n:02d}" for n, name in enumerate(CLUBS * 4)
    )
    await import_test_season(bot.database, generated_season(clubs=clubs))
    player = harness.member()
    reply = (await harness.command("standings", user=player, season=SEASON)).reply
    assert reply.buttons == ["Previous", "Next"]
    assert "Page 1/" in reply.text()
    next_id = [c for row in reply.components for c in row["components"]][1]["custom_id"]
    turned = await harness.click(next_id, user=player, message_id=reply.message_id or 0)
    assert "Page 2/" in turned.reply.text()
    for embed in [*reply.embeds, *turned.reply.embeds]:
        assert all(len(row) <= 30 for row in _table_rows(embed["description"]))


async def test_standings_image_and_crosstable_decode_at_size_and_repeat_byte_for_byte(
    harness: DiscordHarness, bot: ArbiterBot, attached: list[tuple[str, bytes]]
) -> None:
    await set_up(harness)
    await import_test_season(bot.database, generated_season())
    player = harness.member()
    first = await harness.command("standings", user=player, season=SEASON, format="image")
    second = await harness.command("standings", user=player, season=SEASON, format="image")
    assert first.replies[0].type == 5  # deferred first
    (name1, png1), (name2, png2) = attached
    assert name1 == name2 == "standings-test-season-p.png"
    assert png1 == png2
    view = division_view(generated_report(), "P")
    height = (
        MARGIN + TITLE_HEIGHT + SUBTITLE_HEIGHT + HEADER_HEIGHT + ROW_HEIGHT * 13
        + NOTE_HEIGHT // 2 + NOTE_HEIGHT * len(standings_notes(view)) + MARGIN
    )  # fmt: skip
    assert _decode(png1).size == (WIDTH, height)
    assert second.replies[-1].files == ["standings-test-season-p.png"]

    attached.clear()
    await harness.command("crosstable", user=player, season=SEASON, division="P")
    await harness.command("crosstable", user=player, season=SEASON, division="P")
    (_, cross1), (_, cross2) = attached
    assert cross1 == cross2  # the same facts, the same bytes
    # as the division's crosstable, under a caption that says its state and day
    assert _decode(cross1).size == _decode(crosstable_png(view)).size


async def test_standings_csv_holds_the_exact_values(
    harness: DiscordHarness, bot: ArbiterBot, attached: list[tuple[str, bytes]]
) -> None:
    await set_up(harness)
    await import_test_season(bot.database, generated_season())
    await harness.command("standings", user=harness.member(), season=SEASON, format="csv")
    [(name, data)] = attached
    assert name == "standings-test-season-p.csv"
    rows = list(csv.DictReader(io.StringIO(data.decode())))
    expected = generated_report().standings("P")
    assert [r["club"] for r in rows] == [s.club for s in expected]
    for row, standing in zip(rows, expected, strict=True):
        exact = (standing.match_points, standing.game_points, standing.sb)
        assert tuple(Fraction(row[k]) for k in ("match_points", "game_points", "sb")) == exact
        assert "e" not in row["sb"].lower() and row["played"] == str(standing.played)
        assert row["disqualified"] == ("yes" if standing.disqualified else "no")
    assert rows[-1]["rank"] == "" and rows[-1]["disqualified"] == "yes"


async def test_bad_options_are_one_line_and_write_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    hq = await set_up(harness)
    await import_test_season(bot.database, generated_season())
    before = dump(bot.database.path)
    for options, said in (
        ({"season": "Nope"}, "Nope"),
        ({"season": SEASON, "division": "Z"}, "No division"),
        ({"season": SEASON, "as_of": "yesterday"}, "not a date"),
    ):
        reply = (await harness.command("standings", user=hq, **options)).reply
        assert reply.ephemeral and said in (reply.content or "")
    refused = await harness.command(
        "standings-pin", user=harness.member(), season=SEASON, division="P"
    )
    assert refused.reply.ephemeral and "league HQ" in (refused.reply.content or "")
    assert dump(bot.database.path) == before


async def test_a_bad_season_for_an_image_or_crosstable_is_refused_privately_only(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    """An unknown season or division leaves no public "thinking…" message behind: the
    refusal is the only, ephemeral, reply (the slow render defers only once names are known)."""
    hq = await set_up(harness)
    await import_test_season(bot.database, generated_season())
    for command, options in (
        ("standings", {"season": "Nope", "format": "image"}),
        ("standings", {"season": SEASON, "division": "Z", "format": "csv"}),
        ("crosstable", {"season": "Nope", "division": "P"}),
    ):
        outcome = await harness.command(command, user=hq, **options)
        [reply] = outcome.replies
        assert reply.kind == "response" and reply.ephemeral, (command, options)


async def test_standings_pin_posts_through_the_outbox_and_stores_the_pin(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    await import_test_season(bot.database, generated_season())
    hq = harness.member("HQ")
    channel = harness.channel("announcements")
    outcome = await harness.command(
        "standings-pin", user=hq, season=SEASON, division="P", channel=channel
    )
    assert outcome.reply.ephemeral and f"<#{channel}>" in (outcome.reply.content or "")
    [post] = outcome.posts
    assert post.channel_id == channel and "Test season · P" in post.embeds[0]["title"]
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        [pin] = await view.pins.of_season((await view.seasons.by_name(SEASON)).id)  # type: ignore[union-attr]
    assert pin.message_id == post.message_id and pin.rendered_version == pin.season_version


async def test_club_info_counts_the_clubs_forfeits_of_its_season(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    await import_test_season(bot.database, generated_season())
    report = generated_report()
    late = [b for b in report.forfeits if b.rule == "CL-15"]
    assert late  # the generated season's challenge never issued
    club = late[0].club
    count = sum(1 for b in report.forfeits if b.club == club and b.rule == "CL-15")
    reply = (await harness.command("club info", user=harness.member(), club=club)).replies[-1]
    [field] = [f for f in reply.embeds[0]["fields"] if f["name"] == "Forfeits"]
    assert f"CL-15: {count}" in field["value"]
    spotless = next(s.club for s in report.standings("P") if s.club not in {b.club for b in late})
    if not any(b.club == spotless for b in report.forfeits):
        reply = (await harness.command("club info", user=harness.member(), club=spotless)).replies
        [field] = [f for f in reply[-1].embeds[0]["fields"] if f["name"] == "Forfeits"]
        assert field["value"] == "none"


async def test_promotion_shows_the_make_up_button_that_only_directors_may_use(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    running = {**generated_season(), "name": "Running"}
    await import_test_season(bot.database, running)
    player = harness.member()
    # CL-1, CL-8: a running season without a cut-off past: its make-up is not voted on yet.
    early = (await harness.command("season promotion", user=player, season="Running")).reply
    assert early.buttons == [] and "Not put to the vote yet" in early.text()
    await import_test_season(
        bot.database, {**generated_season(), "rules": {"divisions_cutoff": "2017-11-30"}}
    )
    reply = (await harness.command("season promotion", user=player, season=SEASON)).reply
    assert "as at the cut-off, 2017-11-30" in reply.text()
    assert reply.buttons == ["Open the division make-up motion"]
    [button] = [c for row in reply.components for c in row["components"]]
    before = dump(bot.database.path)
    # The reply as Discord shows it, with its components (the button is a DynamicItem).
    payload = harness.click_payload(
        button["custom_id"], player, reply.message_id or 0, message=reply.data
    )
    clicked = await harness.run(payload)
    assert clicked.reply.ephemeral and "director" in (clicked.reply.content or "").lower()
    assert dump(bot.database.path) == before


async def test_help_lists_the_new_commands_to_those_who_may_use_them(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)

    async def listed(user: Any) -> str:
        outcome = await harness.command("help", user=user)
        return "\n".join(reply.text() for reply in outcome.replies)

    player = await listed(harness.member())
    for command in ("`/standings`", "`/crosstable`", "`/roster link`", "`/roster check`"):
        assert command in player
    assert "`/standings-pin`" not in player and "`/roster remove`" not in player
    assert "`/standings-pin`" in await listed(harness.member("HQ"))


async def test_standings_of_a_division_with_no_clubs_says_so(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    """A new season's divisions without clubs: a sentence each, not an empty `Rk Club` table."""
    await set_up(harness)
    hq = harness.member("HQ", name="hq")
    await harness.command("season create", user=hq, name="Empty", first_round="2030-01-07")
    reply = (await harness.command("standings", user=harness.member(), season="Empty")).reply
    [embed] = reply.embeds
    assert "No clubs in this division yet." in embed["description"]
    assert "Rk Club" not in embed["description"] and "```" not in embed["description"]

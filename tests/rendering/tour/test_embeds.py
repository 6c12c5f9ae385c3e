"""The tour's embeds and CSV (issue 22): the preliminary standings (CCT-8b), the Finals
(CCT-8f) and the tour standings (CCT-6) as phone-width tables paged within Discord's limits
(`discord_stub.message_limit_problems`, the check the harness applies to every message),
the qualification list (CCT-3) and the prizes with the Ambassador pool (CCT-5). Names users
typed are escaped exactly once in embeds and written as typed in CSV, but for the formula guard."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import discord

from bot.offline.discord_messages import message_limit_problems
from bot.rendering.common import limits
from bot.rendering.common.csv_cells import csv_text
from bot.rendering.common.text_table import ROW_LIMIT
from bot.rendering.common.user_text import user_text
from bot.rendering.tour.prizes_embeds import (
    AmbassadorPool,
    EventPrizes,
    dollars,
    prizes_embeds,
)
from bot.rendering.tour.qualification_embeds import qualification_embeds
from bot.rendering.tour.standings_csv import (
    FINALS_HEADER,
    PRELIMINARY_HEADER,
    TOUR_HEADER,
    finals_csv,
    preliminary_csv,
    tour_standings_csv,
)
from bot.rendering.tour.standings_embeds import (
    finals_embeds,
    preliminary_embeds,
    preliminary_table,
    tour_standings_embeds,
)
from bot.rendering.tour.views import finals_view, preliminary_view, tour_standings_view
from core.tour.prizes import REGULAR_PRIZES, ambassador_shares, distribute_prizes
from tests.support.tour_events import (
    HOSTILE,
    REGULAR_PLAYERS,
    TWINS,
    airthings_preliminary,
    regular_preliminary,
    tour_file_report,
    view_of,
)

REGULAR = view_of(regular_preliminary())

ZERO_WIDTH = "\u200b"


def within_limits(embeds: list[discord.Embed]) -> None:
    """Each page is one message: Discord would accept it."""
    assert embeds
    for embed in embeds:
        assert message_limit_problems({"embeds": [embed.to_dict()]}) == []


def text_of(embeds: list[discord.Embed]) -> str:
    return "\n".join(f"{e.title}\n{e.description}" for e in embeds)


def code_rows(embed: discord.Embed) -> list[str]:
    """The lines inside the first code block of an embed's description."""
    description = embed.description or ""
    return description.split("```")[1].strip("\n").split("\n")


def test_preliminary_embed_of_the_regular_is_one_phone_width_page_with_cct_8b_columns() -> None:
    embeds = preliminary_embeds(REGULAR)
    within_limits(embeds)
    assert len(embeds) == 1 and embeds[0].title == "Skilling Open"
    rows = code_rows(embeds[0])
    assert rows[0].split() == ["Rk", "Player", "Pts", "DE", "WIN", "SB", "KS"]
    assert len(rows) == 17 and all(len(row) <= ROW_LIMIT for row in rows)
    # issue 32: SB as people read it (91¼, as the image), which leaves room for a full name
    assert rows[1].split() == ["1", "Wesley", "So", "12½", "11", "91¼", "7"]  # no DE: not tied
    table = preliminary_table(REGULAR)
    for name in REGULAR.names:  # every shortened name is explained, as typed
        shown = any(f" {name} " in row for row in rows)
        assert any(line.endswith(f" {name}") for line in table.legend) or shown


def test_cct_8c_the_preliminary_embed_says_which_tie_needs_a_play_off() -> None:
    description = preliminary_embeds(REGULAR)[0].description or ""
    twins = ", ".join(REGULAR_PLAYERS[i] for i in TWINS)
    assert f"**Play-off required** for place 8 (places 1–8 go on, CCT-8c): {twins}" in description
    assert sum(row.startswith("8=") for row in code_rows(preliminary_embeds(REGULAR)[0])) == 2
    major = preliminary_embeds(view_of(airthings_preliminary()))[0].description or ""
    assert "Play-off" not in major and "=" not in "".join(code_rows(preliminary_embeds(
        view_of(airthings_preliminary()))[0])[1:9])  # fmt: skip


def test_hostile_names_are_escaped_exactly_once_in_embeds() -> None:
    players = HOSTILE + REGULAR_PLAYERS[len(HOSTILE) :]
    view = view_of(regular_preliminary(players=players))
    view = preliminary_view(HOSTILE[0], view.rows, (), name_of=str)
    embeds = preliminary_embeds(view)
    within_limits(embeds)
    text = text_of(embeds)
    assert embeds[0].title == user_text(HOSTILE[0])
    for name in HOSTILE:
        assert user_text(name) in text
        twice = user_text(user_text(name))
        assert twice == user_text(name) or twice not in text  # not escaped twice
    outside_code = text.split("```")[0] + text.split("```")[-1]
    # code shows a name as typed: Discord reads no mention inside it, so none may be outside
    prose = re.sub(r"(?<!\\)`[^`]*(?<!\\)`", "", outside_code)
    assert "@everyone" not in prose.replace(f"@{ZERO_WIDTH}everyone", "")
    assert "<@123456789012345678>" not in prose
    assert "**Bold**" not in prose and "\\[link\\](" in prose
    assert re.search(r"(?<!\\)\[link\]\(", prose) is None  # no masked link


def test_a_long_field_of_long_names_is_paged_and_every_player_kept() -> None:
    players = tuple(f"{'*' * 90} Player {n:02d}" for n in range(1, 25))
    event = regular_preliminary(players=players)
    view = preliminary_view("*" * 300, event.rows, event.games)
    embeds = preliminary_embeds(view)
    within_limits(embeds)
    assert len(embeds) > 1
    assert all(len(e.title or "") <= limits.EMBED_TITLE for e in embeds)
    text = text_of(embeds)
    assert all(user_text(name) in text for name in players)
    rows = [row for e in embeds if "```" in (e.description or "") for row in code_rows(e)[1:]]
    assert len(rows) == 24


def test_finals_embed_of_10_players_flags_the_tie_for_first() -> None:
    report = tour_file_report()
    assert report.finals is not None
    embeds = finals_embeds(finals_view("Finals", report.finals))
    within_limits(embeds)
    rows = code_rows(embeds[0])
    assert rows[0].split() == ["Rk", "Player", "MP", "Bonus", "Total"] and len(rows) == 11
    assert rows[1].split() == ["1=", "A", "4", "4½", "8½"]
    assert "**Tie for first**: A, D — decided as the organiser announces (CCT-8f)" in (
        embeds[0].description or ""
    )


def test_tour_standings_embed_has_the_five_criteria_and_the_play_off() -> None:
    report = tour_file_report("tour_tie_criteria")
    view = tour_standings_view("Tie tour", report.ranking, qualification=report.qualification)
    embeds = tour_standings_embeds(view)
    within_limits(embeds)
    rows = code_rows(embeds[0])
    assert rows[0].split() == ["Rk", "Player", "Pts", "W", "Ev", "F", "SF", "QF"]
    assert len(rows) == len(report.ranking) + 1
    description = embeds[0].description or ""
    assert "**Play-off required** (organiser may forgo) for rank 8: C, G, H" in description
    after = tour_standings_view("Tie tour", report.ranking, after="E_1 **final**")
    shown = tour_standings_embeds(after)[0].description or ""
    assert shown.startswith(f"**Tour standings** after {user_text('E_1 **final**')}\n")


def test_cct_3_qualification_embed_lists_who_and_why_and_the_places_left() -> None:
    report = tour_file_report()
    names = {p: f"**{p}** @here" for p in "ABCDEFGHIJ"}
    embeds = qualification_embeds("Finals", report.qualification, name_of=names.__getitem__)
    within_limits(embeds)
    text = text_of(embeds)
    assert f"1. **{user_text(names['B'])}** — Major winner (won Major)" in text
    assert f"2. **{user_text(names['D'])}** — tour standings (tour rank 2)" in text
    assert "**Places left: 2** — the best-ranked Tour Ambassadors" in text
    assert "@here" not in text.replace(f"@{ZERO_WIDTH}here", "")
    tied = tour_file_report("tour_tie_criteria").qualification
    tied_text = text_of(qualification_embeds("Next", tied))
    assert "**Play-off required** (organiser may forgo): C, G, H" in tied_text
    assert "play-off with G, H" in tied_text


def test_cct_5_prizes_embed_shows_each_prize_a_withheld_one_and_the_ambassador_pool() -> None:
    event = tour_file_report().events[0].event
    breach = event.order[0]
    shared = distribute_prizes(REGULAR_PRIZES, event.finishes(), in_breach=[breach])
    pool = ambassador_shares(200_000, ["A", "B", "C"], in_breach=["C"])
    embeds = prizes_embeds(
        "Tour **2021**",
        [EventPrizes(event.name, REGULAR_PRIZES, shared)],
        AmbassadorPool(200_000, pool),
    )
    within_limits(embeds)
    text = text_of(embeds)
    assert embeds[0].title == "Tour \\*\\*2021\\*\\* · prizes (CCT-5)"
    lines = text.split("\n")
    winner = next(p for p in shared.prizes if p.amount == 30_000)
    withheld = f"{breach} — $15,000 — **withheld** (in breach of the regulations, CCT-5)"
    assert lines.index(f"{winner.player} — $30,000") < lines.index(withheld)
    assert f"Paid {dollars(shared.paid)} · withheld $15,000" in text
    assert "A — ≈ $66,666.67" in text and "C — **withheld**" in text
    assert dollars(Fraction(200_000, 3)) == "≈ $66,666.67"
    assert dollars(Fraction(133_333, 2)) == "$66,666.50" and dollars(30_000) == "$30,000"


def test_csv_of_every_table_has_a_row_per_player_exact_values_and_names_as_typed() -> None:
    players = HOSTILE + REGULAR_PLAYERS[len(HOSTILE) :]
    event = regular_preliminary(players=players)
    view = preliminary_view(event.name, event.rows, event.games)
    rows = list(csv.reader(io.StringIO(preliminary_csv(view))))
    assert tuple(rows[0]) == PRELIMINARY_HEADER and len(rows) == 17
    assert {row[4] for row in rows[1:]} == {csv_text(p) for p in players}  # `@` gets a `'`
    assert all("½" not in cell for row in rows for cell in row)
    by_name = {row[4]: row for row in rows[1:]}
    for standing, name in zip(view.rows, view.names, strict=True):
        assert Fraction(by_name[csv_text(name)][5]) == standing.points
        assert Fraction(by_name[csv_text(name)][8]) == standing.sb
    assert sum(row[3] == "yes" for row in rows[1:]) == len(view.playoff)

    report = tour_file_report()
    assert report.finals is not None
    finals = list(csv.reader(io.StringIO(finals_csv(finals_view("F", report.finals)))))
    assert tuple(finals[0]) == FINALS_HEADER and len(finals) == 11
    assert finals[1] == ["1", "yes", "yes", "A", "4", "4.5", "8.5"]
    tied = tour_file_report("tour_tie_criteria")
    tour = tour_standings_view("T", tied.ranking, qualification=tied.qualification)
    lines = list(csv.reader(io.StringIO(tour_standings_csv(tour))))
    assert tuple(lines[0]) == TOUR_HEADER and len(lines) == len(tied.ranking) + 1
    assert {row[3] for row in lines[1:] if row[2] == "yes"} == {"C", "G", "H"}
    assert preliminary_csv(view).endswith("\r\n")

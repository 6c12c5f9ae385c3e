"""`/event standings`, `/finals standings` and `/tour standings` as embeds.

They use the league's phone-width tables from `standings_table.ranked_lines`, with rows of at most
30 characters, short names explained below and columns kept by importance. The tables go under the
event's or tour's name and are split into embed pages when long. Names in the code block are shown
as typed through `code_text`. In the title and the legend they are escaped once through
`user_text.user_text`.

API: `preliminary_embeds`, `finals_embeds` and `tour_standings_embeds` take a preliminary, Finals
or tour standings view. Each returns a list of embeds with one embed per page. The caller pages
through them as the league's `/standings` does.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.common import limits
from bot.rendering.common.embeds import COLOUR
from bot.rendering.common.pages import DESCRIPTION_LIMIT, pack
from bot.rendering.common.text import cut, halves_text
from bot.rendering.common.text_table import TextTable, ranked_lines, short_name_legend, table_block
from bot.rendering.common.user_text import user_text
from bot.rendering.tour.views import (
    FinalsView,
    PreliminaryView,
    TourStandingsView,
    playoff_groups,
)

NO_PLAYERS = "No players yet."
PRELIMINARY_COLUMNS = ("Pts", "DE", "WIN", "SB", "KS")
"""CCT-8b: points, then the tie-breaks in their order, which is also the order kept when narrow."""
PRELIMINARY_LEGEND = "DE direct encounter · WIN games won · SB Sonneborn-Berger · KS Koya"
FINALS_COLUMNS = ("MP", "Bonus", "Total")
FINALS_PRIORITY = ("Total", "MP", "Bonus")
FINALS_LEGEND = (
    "MP match points: rapid win 3 / loss 0, tie-break win 2 / loss 1 · Bonus ½ per full 10 "
    "tour points above the lowest finalist (CCT-8f)"
)
TOUR_COLUMNS = ("Pts", "W", "Ev", "F", "SF", "QF")
"""CCT-6: tour points, then the five criteria in their order."""
TOUR_LEGEND = (
    "W events won · Ev events played (fewer ranks higher) · F / SF / QF appearances in a "
    "final, semi-final, quarter-final (CCT-6)"
)


def _names(names: Sequence[str]) -> str:
    """Names as typed, each escaped once, joined by commas."""
    return ", ".join(user_text(name) for name in names)


def _embeds(title: str, heading: str, table: TextTable | None) -> list[discord.Embed]:
    """The table's pages as embeds titled `title`, escaped here once."""
    pieces = [f"{heading}\n{NO_PLAYERS}"] if table is None else table_block(heading, table)
    pages = ["\n\n".join(page) for page in pack(pieces, len, DESCRIPTION_LIMIT, None, gap=2)]
    shown = cut(user_text(title), limits.EMBED_TITLE)
    return [discord.Embed(title=shown, description=page, colour=COLOUR) for page in pages]


def _table(
    ranks: Sequence[str],
    names: Sequence[str],
    values: dict[str, list[str]],
    priority: Sequence[str],
    marks: Sequence[str],
    after: Sequence[str],
) -> TextTable:
    """The ranked lines, then the legend: short names, the marks line and the lines `after` it.

    The marks line names the columns left out, if any.
    """
    table = ranked_lines(ranks, names, values, priority, name_header="Player")
    legend = short_name_legend(names, table.short)
    shown = list(marks)
    if table.left_out:
        shown.append(f"Not shown: {' '.join(table.left_out)} (see format:image)")
    legend.append(" · ".join(shown))
    return TextTable(table.lines, (*legend, *after))


def preliminary_table(view: PreliminaryView) -> TextTable:
    """CCT-8b: the preliminary as a phone-width text table with its legend and marks."""
    rows = view.rows
    values = {
        "Pts": [halves_text(row.points) for row in rows],
        "DE": [halves_text(row.de) for row in rows],
        "WIN": [str(row.wins) for row in rows],
        "SB": [halves_text(row.sb) for row in rows],
        "KS": [halves_text(row.ks) for row in rows],
    }
    marks = [PRELIMINARY_LEGEND]
    if any(row.tied for row in rows):
        marks.append("`=` shared rank after every CCT-8b criterion")
    if any(row.by_lot for row in rows):
        marks.append("`*` rank decided by drawing of lots")
    places, players = [r.rank for r in rows], [r.player for r in rows]
    groups = playoff_groups(places, players, view.names, view.playoff)
    after = [
        f"**Play-off required** for place {rank} (places 1–{view.places_going_on} go on, "
        f"CCT-8c): {_names(names)}"
        for rank, names in groups
    ]
    ranks = [view.rank_text(i) for i in range(len(rows))]
    return _table(ranks, view.names, values, PRELIMINARY_COLUMNS, marks, after)


def preliminary_embeds(view: PreliminaryView) -> list[discord.Embed]:
    """`/event standings`: the CCT-8b preliminary table, paginated."""
    heading = view.caption("**Preliminary standings**")
    return _embeds(view.event, heading, preliminary_table(view) if view.rows else None)


def finals_table(view: FinalsView) -> TextTable:
    """CCT-8f: the Finals table as a phone-width text table with its legend and marks."""
    rows = view.rows
    values = {
        "MP": [str(row.match_points) for row in rows],
        "Bonus": [halves_text(row.bonus) for row in rows],
        "Total": [halves_text(row.total) for row in rows],
    }
    ranks = [view.rank_text(i) for i in range(len(rows))]
    marks = [FINALS_LEGEND]
    if any(rank.endswith("=") for rank in ranks):
        marks.append("`=` shared rank")
    after = []
    if view.tied_for_first:
        first = [
            n for r, n in zip(rows, view.names, strict=True) if r.player in view.tied_for_first
        ]
        after.append(
            f"**Tie for first**: {_names(first)} — decided as the organiser announces (CCT-8f)"
        )
    return _table(ranks, view.names, values, FINALS_PRIORITY, marks, after)


def finals_embeds(view: FinalsView) -> list[discord.Embed]:
    """`/finals standings`: the CCT-8f Finals table, paginated."""
    heading = "**Finals standings** · match points + bonus"
    return _embeds(view.event, heading, finals_table(view) if view.rows else None)


def tour_standings_table(view: TourStandingsView) -> TextTable:
    """CCT-6: the tour standings as a phone-width text table with its legend and marks."""
    rows = view.rows
    values = {
        "Pts": [str(r.record.points) for r in rows],
        "W": [str(r.record.wins) for r in rows],
        "Ev": [str(r.record.events) for r in rows],
        "F": [str(r.record.finals) for r in rows],
        "SF": [str(r.record.semi_finals) for r in rows],
        "QF": [str(r.record.quarter_finals) for r in rows],
    }
    marks = [TOUR_LEGEND]
    if any(row.tied for row in rows):
        marks.append("`=` shared rank after all five criteria")
    places, players = [r.rank for r in rows], [r.player for r in rows]
    groups = playoff_groups(places, players, view.names, view.playoff)
    after = [
        f"**Play-off required** (organiser may forgo) for rank {rank}: {_names(names)}"
        for rank, names in groups
    ]
    ranks = [view.rank_text(i) for i in range(len(rows))]
    return _table(ranks, view.names, values, TOUR_COLUMNS, marks, after)


def tour_standings_embeds(view: TourStandingsView) -> list[discord.Embed]:
    """`/tour standings`: tour points and the five CCT-6 criteria, paginated."""
    heading = "**Tour standings**"
    if view.after:
        heading += f" after {user_text(view.after)}"  # an event's name, as typed
    return _embeds(view.tour, heading, tour_standings_table(view) if view.rows else None)

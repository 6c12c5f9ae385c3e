"""The individual standings as a text table, for `arbiter standings`.

Scores are exact. A shared rank is marked `=`, a rank decided by lot `*`, and `-` stands where a
tie-break was not applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from bot.formats.terminal import shown_text
from bot.rendering.common.text import shown_rank
from core.points import decimal_text
from core.standings import PlayerStanding


def score_text(value: Fraction | None) -> str:
    """An exact score as text through `core.points.decimal_text`, or `-` where there is none."""
    return "-" if value is None else decimal_text(value)


def standings_text(
    rows: tuple[PlayerStanding, ...], names: Mapping[Any, str], title: str = ""
) -> str:
    """A readable table under any `title`, with one row per player in rank order.

    Control characters in names are shown escaped by `shown_text`, as the caller must do in `title`.
    """
    names = {player: shown_text(name) for player, name in names.items()}
    width = max([len("Name"), *(len(n) for n in names.values())])
    header = f"{'Rank':>4}  {'No':>3}  {'Name':<{width}}  {'Pts':>5}  {'DE':>5}  "
    header += f"{'WIN':>3}  {'SB':>7}  {'KS':>5}"
    lines = [title, header] if title else [header]
    for row in rows:
        rank = shown_rank(row.rank, row.tied, by_lot=row.by_lot)
        lines.append(
            f"{rank:>4}  {row.player!s:>3}  {names[row.player]:<{width}}  "
            f"{score_text(row.points):>5}  {score_text(row.de):>5}  {row.wins:>3}  "
            f"{score_text(row.sb):>7}  {score_text(row.ks):>5}"
        )
    return "\n".join(lines)

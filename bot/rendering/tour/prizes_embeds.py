"""`/tour prizes`: CCT-5 prize money as embeds.

It shows each event's distribution by its table, who gets what and any prize withheld from a player
in breach, and the Ambassador pool shared equally. Dollars are exact, with whole amounts as
`$30,000`. A share that is not a whole number of cents, as when a pool is split three ways, is shown
rounded to the cent and marked ≈, since the regulation leaves rounding to whoever pays. Names are
escaped once through `user_text.user_text`.

API: `prizes_embeds(title, events, pool, *, name_of=str)` -> `list[discord.Embed]`. `events` is a
sequence of `EventPrizes(event, table, distribution)` from `core.tour.prizes`, and `pool` an
`AmbassadorPool(pool, shares)` from `ambassador_shares`, or None.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import discord

from bot.rendering.common.embeds import paged
from bot.rendering.common.user_text import user_text
from bot.rendering.tour.views import NameOf
from core.tour.prizes import PrizeDistribution, PrizeTable

WITHHELD = "**withheld** (in breach of the regulations, CCT-5)"


@dataclass(frozen=True, slots=True)
class EventPrizes:
    """CCT-5: one event's prize table and the distribution it gives."""

    event: str
    table: PrizeTable
    distribution: PrizeDistribution


@dataclass(frozen=True, slots=True)
class AmbassadorPool:
    """CCT-5: the Ambassador pool and each Ambassador's exact share. A withheld share is 0."""

    pool: int | Fraction
    shares: Mapping[Hashable, Fraction]


def dollars(amount: int | Fraction) -> str:
    """An exact amount of dollars, such as `$30,000` or `$66,666.50`.

    A share finer than a cent is rounded to it, half to even, and marked, as in `≈ $66,666.67`.
    """
    cents = Fraction(amount) * 100
    rounded = round(cents)
    whole, part = divmod(rounded, 100)
    text = f"${whole:,}" if part == 0 and cents.denominator == 1 else f"${whole:,}.{part:02d}"
    return text if cents.denominator == 1 else f"≈ {text}"


def event_lines(prizes: EventPrizes, name_of: NameOf = str) -> list[str]:
    """CCT-5: an event's table, then each prize largest first, then the totals."""
    table, shared = prizes.table, prizes.distribution
    lines = [
        f"**{user_text(prizes.event)}** · {user_text(table.label)} · fund {dollars(table.fund)}"
    ]
    paid = sorted((p for p in shared.prizes if p.amount), key=lambda p: p.amount, reverse=True)
    for prize in paid:
        line = f"{user_text(name_of(prize.player))} — {dollars(prize.amount)}"
        lines.append(f"{line} — {WITHHELD}" if prize.withheld else line)
    totals = f"Paid {dollars(shared.paid)}"
    if shared.withheld:
        totals += f" · withheld {dollars(shared.withheld)}"
    lines.append(totals)
    return lines


def pool_lines(pool: AmbassadorPool, name_of: NameOf = str) -> list[str]:
    """CCT-5: the Ambassador pool, shared equally. A share withheld for a breach is 0."""
    count = len(pool.shares)
    lines = [f"**Ambassador pool** · {dollars(pool.pool)} shared equally by {count}"]
    for player, share in pool.shares.items():
        line = f"{user_text(name_of(player))} — "
        lines.append(line + (WITHHELD if share == 0 else dollars(share)))
    if any(Fraction(share * 100).denominator != 1 for share in pool.shares.values()):
        lines.append("≈ rounded to the cent; the exact share is the pool divided equally")
    return lines


def prizes_embeds(
    title: str,
    events: Sequence[EventPrizes],
    pool: AmbassadorPool | None = None,
    *,
    name_of: NameOf = str,
) -> list[discord.Embed]:
    """`/tour prizes`: every event's distribution, then the Ambassador pool, paged under `title`.

    The title is the tour's name, escaped here.
    """
    lines: list[str] = []
    for prizes in events:
        if lines:
            lines.append("")
        lines += event_lines(prizes, name_of)
    if pool is not None:
        if lines:
            lines.append("")
        lines += pool_lines(pool, name_of)
    return paged(f"{title} · prizes (CCT-5)", lines, "No prizes yet.")  # paged shows it as typed

"""`/standings` and the standings pins as embeds: the phone-width tables of
`standings_table` under one title, one embed per page."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.common import limits
from bot.rendering.common.embeds import COLOUR
from bot.rendering.common.text import cut
from bot.rendering.common.user_text import user_text
from bot.rendering.league.division_view import DivisionView
from bot.rendering.league.standings_table import standings_pages


def standings_embeds(title: str, views: Sequence[DivisionView]) -> list[discord.Embed]:
    """The divisions' tables as embed pages titled `title`. Names in the title are shown as
    typed.
    """
    pages = standings_pages(views) or ["No divisions."]
    shown = cut(user_text(title), limits.EMBED_TITLE)
    return [discord.Embed(title=shown, description=page, colour=COLOUR) for page in pages]


def pin_embeds(view: DivisionView) -> list[dict[str, object]]:
    """A pinned division's standings as the embed dicts of one message, which the outbox stores.

    It holds its pages while they fit one message's limits.
    """
    kept: list[dict[str, object]] = []
    used = 0
    for embed in standings_embeds(view.title, [view]):
        size = len(embed)
        if kept and (len(kept) == limits.EMBEDS_PER_MESSAGE or used + size > limits.EMBED_TOTAL):
            break
        kept.append(dict(embed.to_dict()))
        used += size
    return kept

"""`/standings` and the standings pins as embeds: the phone-width tables of
`standings_table` under one title, one embed per page."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.division_view import DivisionView
from bot.rendering.escape import TITLE_LIMIT, cut, user_text
from bot.rendering.league_embeds import COLOUR
from bot.rendering.pages import EMBED_LIMIT
from bot.rendering.standings_table import standings_pages

MESSAGE_EMBEDS = 10
"""Discord: embeds one message may carry (sharing the 6,000-character budget)."""


def standings_embeds(title: str, views: Sequence[DivisionView]) -> list[discord.Embed]:
    """The divisions' tables as embed pages titled `title` (names in it shown as typed)."""
    pages = standings_pages(views) or ["No divisions."]
    shown = cut(user_text(title), TITLE_LIMIT)
    return [discord.Embed(title=shown, description=page, colour=COLOUR) for page in pages]


def pin_embeds(view: DivisionView) -> list[dict[str, object]]:
    """A pinned division's standings as the embed dicts of one message (the outbox stores
    them): its pages while they fit one message's limits."""
    kept: list[dict[str, object]] = []
    used = 0
    for embed in standings_embeds(view.title, [view]):
        size = len(embed)
        if kept and (len(kept) == MESSAGE_EMBEDS or used + size > EMBED_LIMIT):
            break
        kept.append(embed.to_dict())  # type: ignore[arg-type]
        used += size
    return kept

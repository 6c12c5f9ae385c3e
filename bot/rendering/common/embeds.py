"""The embed colour and the paged list embeds both competitions' replies use."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.common import limits
from bot.rendering.common.pages import line_pages
from bot.rendering.common.text import cut
from bot.rendering.common.user_text import user_text

COLOUR = discord.Colour.dark_teal()


LIST_PAGE = 1800
"""Characters of a list page's description (short enough to read on a phone)."""


def paged(title: str, lines: Sequence[str], empty: str) -> list[discord.Embed]:
    """Embeds titled `title` (as typed: names in it are neutralised here, once) holding the
    markdown `lines` (or `empty`), split into pages."""
    pages = line_pages(lines, LIST_PAGE) or [empty]
    shown = cut(user_text(title), limits.EMBED_TITLE)
    return [discord.Embed(title=shown, description=page, colour=COLOUR) for page in pages]

"""The league's HTML pages, from the same services and views as `/standings` and `/crosstable`."""

from __future__ import annotations

from aiohttp import web

from bot.league.standings.views import standings_views
from bot.rendering.league.division_view import rank_text
from bot.web.pages import Guild, Page, as_of, html, number
from core.points import decimal_text


async def season(guild: Guild, request: web.Request) -> Page:
    """CL-17: every division's table of a season, as at `?as_of=` or now."""
    from bot.web.site import SITE

    site = request.app[SITE]
    found = await standings_views(
        guild.store, site.standings, number(request, "season"), as_of=as_of(request)
    )
    return html(
        "league/season.html",
        guild=guild,
        found=found,
        rank=rank_text,
        points=decimal_text,
    )

"""The league's addresses on the site, each a guild page."""

from __future__ import annotations

from aiohttp import web

from bot.web.league import pages


def add(app: web.Application) -> None:
    """Registers the league's pages."""
    from bot.web.site import add_guild_page

    add_guild_page(app, "/g/{slug}/seasons/{season}", pages.season)

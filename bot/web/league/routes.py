"""The league's addresses on the site, each a guild page."""

from __future__ import annotations

from aiohttp import web

from bot.web.league import files, pages

SEASON = "/g/{slug}/seasons/{season}"
DIVISION = SEASON + "/divisions/{division}"


def add(app: web.Application) -> None:
    """Registers the league's pages, downloads and feeds."""
    from bot.web.site import add_guild_page

    add_guild_page(app, SEASON, pages.season)
    add_guild_page(app, SEASON + "/rounds", pages.rounds)
    add_guild_page(app, SEASON + "/standings.csv", files.season_standings)
    add_guild_page(app, SEASON + "/standings.json", files.season_feed)
    add_guild_page(app, SEASON + "/calendar.ics", files.season_calendar_file)
    add_guild_page(app, SEASON + "/clubs/{club}/calendar.ics", files.club_calendar_file)
    add_guild_page(app, DIVISION, pages.division)
    add_guild_page(app, DIVISION + "/rounds", pages.rounds)
    add_guild_page(app, DIVISION + "/crosstable", pages.crosstable)
    add_guild_page(app, DIVISION + "/standings.png", files.division_standings_png)
    add_guild_page(app, DIVISION + "/standings.csv", files.division_standings_csv)
    add_guild_page(app, DIVISION + "/crosstable.png", files.division_crosstable_png)
    add_guild_page(app, "/g/{slug}/matches/{match}", pages.match)

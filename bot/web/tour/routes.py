"""The tour's addresses on the site, each a guild page.

A feed's address ends in its type, as `/g/{slug}/tours/2.json`, and is registered before the
page of the same record.
"""

from __future__ import annotations

from aiohttp import web

from bot.web.tour import feeds, pages

TOUR = "/g/{slug}/tours/{tour}"
EVENT = "/g/{slug}/events/{event}"


def add(app: web.Application) -> None:
    """Registers the tour's pages, downloads and feeds."""
    from bot.web.site import add_guild_page

    add_guild_page(app, TOUR + ".json", feeds.tour_json)
    add_guild_page(app, TOUR, pages.tour)
    add_guild_page(app, TOUR + "/standings.csv", pages.tour_standings_csv_page)
    add_guild_page(app, TOUR + "/standings.png", pages.tour_standings_png_page)
    add_guild_page(app, TOUR + "/players/{player}/calendar.ics", feeds.player_calendar)
    add_guild_page(app, EVENT + ".json", feeds.event_json)
    add_guild_page(app, EVENT, pages.event)
    add_guild_page(app, EVENT + "/standings.csv", pages.event_standings_csv)
    add_guild_page(app, EVENT + "/standings.png", pages.event_standings_png)
    add_guild_page(app, EVENT + "/crosstable.png", pages.event_crosstable_png)
    add_guild_page(app, EVENT + "/bracket.png", pages.event_bracket_png)
    add_guild_page(app, EVENT + "/calendar.ics", feeds.event_calendar)

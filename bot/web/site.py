"""The aiohttp application of the public web site, read-only and safe to expose.

Every guild page goes through `guild_page`: the slug must be published (`/setup web`), the page
is answered from a small cache while nothing in the guild changed, and it carries an ETag so a
browser that has it gets a 304. Whether the guild changed is one query, shared by the requests
that come while it runs. Every reply carries the security headers, a path that names nothing is
the plain 404 page, a bug the plain 500 page, only GET and HEAD are served, and each address is
held to a request rate.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web
from aiohttp.helpers import ETAG_ANY

from bot.kernel.errors import UserError
from bot.kernel.inputs import SLUG_CHARACTERS
from bot.league.store import StandingsCache
from bot.web.pages import BadRequest, Guild, Handler, NotFound, Page, html
from bot.web.templates import render
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.web_sites import published_guilds, published_site

LOG = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
PAGES_KEPT = 512
"""Pages kept ready per site; a page is dropped when its guild changes."""
QUERY_KEPT = 512
"""The longest query a page reads; a longer one is a bad request, not a new cache entry."""
ADDRESSES_KEPT = 10_000
"""Addresses whose request rate is followed. Past this, those back to a full burst are forgotten,
and if that is not enough, all are."""
PARAMETERS = ("as_of", "after")
"""The query parameters a page reads. Others change nothing, so they do not make a new page."""
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self';"
    " base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


@dataclass
class Site:
    """What the handlers share: the database, the standings cache, the page cache, the limits."""

    database: Database
    standings: StandingsCache
    base_url: str = ""
    requests_per_minute: int = 600
    pages: OrderedDict[tuple[int, str, int, str], tuple[str, Page]] = field(
        default_factory=OrderedDict
    )
    buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    reading: dict[str, asyncio.Future[tuple[int, int] | None]] = field(default_factory=dict)
    """The reads of a slug's guild and last change under way, shared by the requests meanwhile."""
    monotonic: Callable[[], float] = time.monotonic


SITE = web.AppKey("site", Site)


def make_app(
    database: Database,
    standings: StandingsCache | None = None,
    *,
    base_url: str = "",
    requests_per_minute: int = 600,
) -> web.Application:
    """The site over `database`. `arbiter run` passes the bot's standings cache to share it."""
    app = web.Application(middlewares=[headers, limited, errors])
    app[SITE] = Site(
        database, standings or StandingsCache(), base_url.rstrip("/"), requests_per_minute
    )
    app.router.add_get("/", index)
    app.router.add_get("/static/site.css", stylesheet)
    from bot.web.league import routes as league_routes
    from bot.web.tour import routes as tour_routes

    app.router.add_get("/g/{slug}", slash)
    add_guild_page(app, "/g/{slug}/", guild_home)
    league_routes.add(app)
    tour_routes.add(app)
    return app


def add_guild_page(app: web.Application, path: str, handler: Handler) -> None:
    """Registers a guild page at `path`, which starts with `/g/{slug}/`."""
    app.router.add_get(path, guild_page(handler))


def guild_page(handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """The request handler of a guild page: slug, page cache, ETag and 304."""

    async def serve(request: web.Request) -> web.StreamResponse:
        site = request.app[SITE]
        slug = request.match_info["slug"]
        if len(request.query_string) > QUERY_KEPT:
            raise BadRequest("This address's query is too long.")
        found = await published(site, slug) if plain(slug) else None
        if found is None:
            raise NotFound(f"no site {slug}")
        guild_id, changed = found
        minute = site.database.clock().strftime("%Y-%m-%dT%H:%M")
        asked = "&".join(f"{name}={request.query.getone(name, '')}" for name in PARAMETERS)
        key = (guild_id, f"{request.path}?{asked}", changed, minute)
        cached = site.pages.get(key)
        if cached is None:
            page = await handler(Guild(GuildStore(site.database, guild_id), slug), request)
            cached = (f'"{hashlib.sha256(page.body).hexdigest()[:32]}"', page)
            site.pages[key] = cached
            while len(site.pages) > PAGES_KEPT:
                site.pages.popitem(last=False)
        else:
            site.pages.move_to_end(key)
        etag, page = cached
        if unchanged(request, etag):
            return web.Response(status=304, headers={"ETag": etag, "Cache-Control": "no-cache"})
        response = web.Response(body=page.body, content_type=None, headers={"ETag": etag})
        response.headers["Content-Type"] = page.content_type
        response.headers["Cache-Control"] = "no-cache"
        if page.download is not None:
            response.headers["Content-Disposition"] = f'inline; filename="{page.download}"'
        return response

    return serve


async def published(site: Site, slug: str) -> tuple[int, int] | None:
    """The guild under `slug` and its last change. Requests that come while this read is under
    way wait for it rather than each making a trip to the database of its own."""
    reading = site.reading.get(slug)
    if reading is None or reading.done():
        reading = asyncio.ensure_future(published_site(site.database, slug))
        site.reading[slug] = reading
        reading.add_done_callback(lambda done: _read(site, slug, done))
    return await asyncio.shield(reading)


def _read(site: Site, slug: str, done: asyncio.Future[tuple[int, int] | None]) -> None:
    """Forgets the read of `slug` once done, so the next request reads again."""
    if site.reading.get(slug) is done:
        del site.reading[slug]


def plain(slug: str) -> bool:
    """Whether `slug` could name a site: printable ASCII, 1 to 64 characters."""
    return 0 < len(slug) <= 64 and slug.isascii() and slug.isprintable()


def unchanged(request: web.Request, etag: str) -> bool:
    """Whether the request's `If-None-Match` names `etag` or `*` (weak tags match too)."""
    tags = request.if_none_match
    if not tags:
        return False
    value = etag.strip('"')
    return any(tag.value in (value, ETAG_ANY) for tag in tags)


async def index(request: web.Request) -> web.StreamResponse:
    """The site's front page: the guilds that publish their competitions."""
    site = request.app[SITE]
    guilds = await published_guilds(site.database)
    page = html("index.html", guilds=[slug for slug, _ in guilds])
    return web.Response(body=page.body, content_type="text/html", charset="utf-8")


async def slash(request: web.Request) -> web.StreamResponse:
    """`/g/club` without its slash: a redirect to the server's home page, `/g/club/`."""
    slug = request.match_info["slug"]
    if not plain(slug) or not set(slug) <= SLUG_CHARACTERS or request.query_string:
        raise NotFound(f"no site {slug}")
    raise web.HTTPMovedPermanently(f"/g/{slug}/")


async def guild_home(guild: Guild, request: web.Request) -> Page:
    """A guild's front page: its seasons and its tours."""
    async with guild.store.read() as view:
        seasons = await view.seasons.all()
        tours = await view.tours.all()
    return html("guild.html", guild=guild, seasons=seasons, tours=tours)


async def stylesheet(request: web.Request) -> web.StreamResponse:
    """The one stylesheet; no page has inline style or script."""
    response = web.FileResponse(STATIC / "site.css")
    response.headers["Cache-Control"] = "max-age=3600"
    return response


@web.middleware
async def headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """The security headers on every reply, errors included."""
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPException as error:
        error.headers.update(HEADERS)
        raise
    response.headers.update(HEADERS)
    return response


@web.middleware
async def limited(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """At most `requests_per_minute` per address, with a burst of a tenth of it: else 429."""
    site = request.app[SITE]
    rate = site.requests_per_minute / 60
    burst = max(site.requests_per_minute / 10, 1)
    address = request.remote or "?"
    now = site.monotonic()
    tokens, then = site.buckets.get(address, (burst, now))
    tokens = min(burst, tokens + (now - then) * rate)
    if tokens < 1:
        return _error(
            429,
            "Too many requests",
            "Too many requests from this address; try again in a moment.",
            {"Retry-After": str(math.ceil((1 - tokens) / rate))},
        )
    site.buckets[address] = (tokens - 1, now)
    if len(site.buckets) > ADDRESSES_KEPT:
        site.buckets = {
            kept: (left, at)
            for kept, (left, at) in site.buckets.items()
            if left + (now - at) * rate < burst
        }
        if len(site.buckets) > ADDRESSES_KEPT:
            site.buckets = {address: (tokens - 1, now)}
    return await handler(request)


@web.middleware
async def errors(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Errors as plain pages: a path that names nothing is 404, a bad parameter 400."""
    try:
        return await handler(request)
    except (NotFound, UserError, web.HTTPNotFound):
        return _error(404, "Not found", "There is no page at this address.")
    except BadRequest as error:
        return _error(400, "Bad request", str(error))
    except web.HTTPMethodNotAllowed:
        return _error(
            405,
            "Read only",
            "This site only shows pages; it changes nothing.",
            {"Allow": "GET, HEAD"},
        )
    except web.HTTPException:
        raise
    except Exception:
        LOG.exception("web page %s failed", request.path)
        return _error(500, "Server error", "This page could not be shown; try again later.")


def _error(
    status: int, title: str, message: str, extra: dict[str, str] | None = None
) -> web.Response:
    body = render("error.html", title=title, message=message)
    return web.Response(status=status, text=body, content_type="text/html", headers=extra)

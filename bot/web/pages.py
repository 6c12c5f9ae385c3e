"""What a page handler returns, and how the site registers it.

A handler takes the request's guild and the request, and returns a `Page`: its bytes and type.
The site wraps every handler the same way: it finds the guild by its slug, answers from its
page cache while nothing in the guild changed, and sets the ETag.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from bot.kernel.errors import UserError
from bot.web.templates import render
from storage.guild import GuildStore

HTML = "text/html; charset=utf-8"
JSON = "application/json; charset=utf-8"
CSV = "text/csv; charset=utf-8"
ICS = "text/calendar; charset=utf-8"
PNG = "image/png"


@dataclass(frozen=True)
class Page:
    """A page's body and content type, and the file name a download is saved under."""

    body: bytes
    content_type: str = HTML
    download: str | None = None


@dataclass(frozen=True)
class Guild:
    """The guild a request is for: its store and its public slug."""

    store: GuildStore
    slug: str

    def url(self, *parts: object) -> str:
        """The site path of a guild page, such as `/g/club/seasons/3/`."""
        tail = "/".join(str(part) for part in parts)
        return f"/g/{self.slug}/{tail}" if tail else f"/g/{self.slug}/"


Handler = Callable[[Guild, web.Request], Awaitable[Page]]


def html(template: str, **context: object) -> Page:
    """An HTML page from a template."""
    return Page(render(template, **context).encode())


class NotFound(Exception):
    """The path names nothing the guild shows: the site answers its 404 page."""


class BadRequest(Exception):
    """A query parameter is malformed: the site answers 400 with this message."""


def number(request: web.Request, key: str) -> int:
    """A path part that must be a positive id, else the 404 page.

    An id is written one way only, so `01` is not `1`: each page has one address, and one entry
    in the page cache."""
    text = request.match_info[key]
    if not text.isascii() or not text.isdigit() or len(text) > 18 or text.startswith("0"):
        raise NotFound(f"no {key} {text}")
    return int(text)


def as_of(request: web.Request) -> dt.date | None:
    """The `?as_of=YYYY-MM-DD` parameter, or None."""
    text = request.query.get("as_of")
    if text is None or text == "":
        return None
    try:
        return dt.date.fromisoformat(text) if len(text) == 10 else _bad_day(text)
    except ValueError:
        return _bad_day(text)


def _bad_day(text: str) -> dt.date:
    raise BadRequest(f"as_of must be a day written YYYY-MM-DD, not {text[:40]!r}.")


def not_found_from(error: UserError) -> NotFound:
    """A service's refusal to find something, as the 404 page."""
    return NotFound(error.message)

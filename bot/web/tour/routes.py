"""The tour's addresses on the site, each a guild page."""

from __future__ import annotations

from aiohttp import web


def add(app: web.Application) -> None:
    """Registers the tour's pages."""

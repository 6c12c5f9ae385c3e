"""The Jinja2 templates of the site, with autoescaping on: every name is escaped once, here."""

from __future__ import annotations

from typing import Any

import jinja2

FSI, PDI = "\u2068", "\u2069"
"""Unicode's first-strong isolate and pop directional isolate."""


def isolated(name: str) -> str:
    """A name that cannot reorder the text around it, such as one holding a right-to-left
    override, for places where no `<bdi>` element may go, such as a page's title."""
    return FSI + name + PDI


ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
ENVIRONMENT.globals["isolated"] = isolated


def render(name: str, **context: Any) -> str:
    """The template `name` filled with `context`."""
    return ENVIRONMENT.get_template(name).render(**context)

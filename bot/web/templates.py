"""The Jinja2 templates of the site, with autoescaping on: every name is escaped once, here."""

from __future__ import annotations

from typing import Any

import jinja2

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(name: str, **context: Any) -> str:
    """The template `name` filled with `context`."""
    return ENVIRONMENT.get_template(name).render(**context)

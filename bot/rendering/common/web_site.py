"""The replies of `/setup web`: where a guild's public site is, or that it is off.

A slug holds only lower-case letters, digits and dashes, so it is shown as it is.
"""

from __future__ import annotations

NOT_SERVED = (
    "This bot does not serve the site yet: its operator turns it on with a `[web]` table in the"
    " configuration."
)
"""Said with every address while the configuration has no `[web]` table."""


def site_address(slug: str, base_url: str | None) -> str:
    """The address of a guild's home page: the public one, else the path on the bot's site."""
    return f"{base_url or ''}/g/{slug}/"


def _where(slug: str, base_url: str | None) -> str:
    address = site_address(slug, base_url)
    return f"<{address}>" if base_url else f"the path `{address}` of the bot's site"


def _served(served: bool) -> str:
    return "" if served else f"\n{NOT_SERVED}"


def site_on_text(slug: str, before: str | None, base_url: str | None, *, served: bool) -> str:
    """The reply to `/setup web slug:`: the site turned on, renamed, or left as it was."""
    where = _where(slug, base_url)
    if before == slug:
        line = f"The public site of this server is on already, at {where}: nothing changed."
    elif before is not None:
        line = (
            f"The public site of this server moved to {where}."
            f" The old address `/g/{before}/` shows nothing now."
        )
    else:
        line = (
            f"The public site of this server is on, at {where}. It shows the public standings,"
            " results and calendars of its seasons and tours, and nothing else."
        )
    return line + _served(served)


def site_state_text(slug: str | None, base_url: str | None, *, served: bool) -> str:
    """The reply to `/setup web` without options: where the site is, or that it is off."""
    if slug is None:
        line = "The public site of this server is off. Turn it on with `/setup web slug:`."
    else:
        line = (
            f"The public site of this server is on, at {_where(slug, base_url)}."
            " Turn it off with `/setup web off:True`."
        )
    return line + _served(served)


def site_off_preview(slug: str, base_url: str | None) -> str:
    """The text above Confirm / Cancel before the site is turned off."""
    return (
        f"Turn off the public site at {_where(slug, base_url)}? Every page of it shows nothing"
        " from the moment you confirm. Nothing is changed until you confirm (60 s)."
    )


def site_off_text(slug: str | None) -> str:
    """The line that replaces the preview once the site is off, or was off already."""
    if slug is None:
        return "The public site of this server was off already: nothing changed."
    return f"The public site of this server is off: `/g/{slug}/` shows nothing now."

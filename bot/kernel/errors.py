"""Errors a user may see: expected refusals carry their own message and no error id."""

from __future__ import annotations

import re

from discord import app_commands

from bot.rendering.common.user_text import user_text

_OPEN = "\x1e"
_CLOSE = "\x1f"
"""Marks around a quoted user value inside a refusal's text, used by `quote_mark`.

They are control characters. bot.kernel.inputs refuses names that hold them and `repr`
escapes them, so typed text cannot forge them.
"""
_QUOTED = re.compile(f"{_OPEN}([^{_OPEN}{_CLOSE}]*){_CLOSE}")


def quote_mark(value: str) -> str:
    """`value`, already quoted for a message, marked as user text.

    A `UserError` built from a message holding it shows it as typed in Discord and unchanged
    elsewhere. The two marker characters themselves are shown as U+FFFD, so no value can close its
    mark early. They are control characters, which the name gate refuses.
    """
    clean = value.replace(_OPEN, "\ufffd").replace(_CLOSE, "\ufffd")
    return f"{_OPEN}{clean}{_CLOSE}"


class UserError(Exception):
    """A request refused for a reason the user can fix, raised by services.

    `message` is the plain text for the CLI and logs. `markdown` is the same for Discord, with the
    quoted user values escaped.
    """

    def __init__(self, message: str) -> None:
        plain = _QUOTED.sub(r"\1", message)
        super().__init__(plain)
        self.message = plain
        self.markdown = _QUOTED.sub(lambda found: user_text(found.group(1)), message)


def changed_since_preview(what: str, command: str, shows: str) -> UserError:
    """The refusal of a confirmation whose preview no longer holds, so nothing is stored.

    `what` names what changed, `command` the command to run again and `shows` what it shows.
    """
    return UserError(
        f"{what} changed since the preview: nothing is stored. "
        f"Run `{command}` again to see {shows}."
    )


class OptionRefused(UserError, app_commands.AppCommandError):
    """A command option outside what it may hold, refused by its transformer before the command
    runs.

    discord.py passes an `AppCommandError` from a transformer on as it is.
    """


class RoleRequired(app_commands.CheckFailure):
    """A permission check refused the command. `message` names the role it needs."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

"""Why CL-23's electorate cannot be read now, so a reply can name the cause and its fix.

The electorate is the members holding the director role. A reply or an announcement names the cause
and what fixes it, and a retrying job knows whether waiting helps.
"""

from __future__ import annotations

import enum

from bot.kernel.errors import UserError

SETUP_ROLE = "`/setup set director_role`"


class Unreadable(enum.Enum):
    """A cause: `what` happened and the `fix`.

    `lasting` is True when only a person can fix it and waiting does not.
    """

    NO_ROLE = (
        "no director role is set",
        f"someone with Manage Server can set it with {SETUP_ROLE}",
        True,
    )
    ROLE_DELETED = ("the director role was deleted", f"set it again with {SETUP_ROLE}", True)
    INTENT_OFF = (
        "the **Server Members intent** is off",
        "the bot's operator must enable it in the Discord Developer Portal and restart Arbiter",
        True,
    )
    UNAVAILABLE = ("the server is not available to the bot yet", "", False)

    def __init__(self, what: str, fix: str, lasting: bool) -> None:
        self.what = what
        self.fix = fix
        self.lasting = lasting

    @property
    def why(self) -> str:
        """What happened, and what fixes it in parentheses if a person must."""
        return f"{self.what} ({self.fix})" if self.fix else self.what


INTENT_OFF = (
    "Arbiter cannot see who holds the director role: the **Server Members intent** is off. "
    "The bot's operator must enable it (Discord Developer Portal → the application → Bot → "
    "Privileged Gateway Intents → Server Members Intent) and restart Arbiter."
)
_REFUSALS = {
    Unreadable.NO_ROLE: (
        f"No director role is set up: someone with Manage Server can set it with {SETUP_ROLE}."
    ),
    Unreadable.ROLE_DELETED: f"The director role no longer exists: set it again with {SETUP_ROLE}.",
    Unreadable.INTENT_OFF: INTENT_OFF,
    Unreadable.UNAVAILABLE: "This server is not available to the bot yet: try again shortly.",
}


class DirectorsUnknown(UserError):
    """A command that needs the directors now is refused. `cause` says why."""

    def __init__(self, cause: Unreadable) -> None:
        super().__init__(_REFUSALS[cause])
        self.cause = cause


def not_read(cause: Unreadable | None) -> str:
    """The clause a removal's reply or announcement gives for a verification that waits."""
    why = "" if cause is None else f": {cause.why}"
    return f"the directors could not be read{why}; the bot tries again later"

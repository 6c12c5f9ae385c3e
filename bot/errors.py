"""Errors a user may see: expected refusals carry their own message and no error id."""

from __future__ import annotations

from discord import app_commands


class UserError(Exception):
    """A request refused for a reason the user can fix (raised by services); shown as is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RoleRequired(app_commands.CheckFailure):
    """A permission check refused the command; `message` names the role it needs."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

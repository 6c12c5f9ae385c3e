"""Roles, users and guild members as Discord sends them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.offline.discord_messages import TIMESTAMP


def role_payload(role_id: int, name: str, position: int, permissions: int = 0) -> dict[str, Any]:
    """A role as Discord sends it."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A user as Discord sends it."""
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


@dataclass
class Member:
    """A guild member as the stub sends it: id, name, role ids and permissions."""

    id: int
    name: str
    guild_id: int
    role_ids: tuple[int, ...] = ()
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)

    def payload(self) -> dict[str, Any]:
        """The `member` object of an interaction payload."""
        return {
            "user": user_payload(self.id, self.name),
            "roles": [str(r) for r in self.role_ids],
            "permissions": str(self.permissions.value),
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
        }

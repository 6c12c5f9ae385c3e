"""Permission checks for app commands: the guild's HQ, director and arbiter roles, club admins.

Each is a decorator (`@is_director()`) usable on any app command. A refusal raises
`RoleRequired` naming what is needed; the error handler shows it and nothing is changed.
Each predicate carries a `requirement` text, which the command reference prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.app.errors import RoleRequired
from bot.rendering.escape import user_text
from storage.guild import GuildStore

T = TypeVar("T")


@dataclass(frozen=True)
class GuildRole:
    """A role a guild configures with `/setup set`."""

    label: str
    setting: str
    option: str


HQ = GuildRole("league HQ", "hq_role_id", "hq_role")
DIRECTOR = GuildRole("director", "director_role_id", "director_role")
ARBITER = GuildRole("arbiter", "arbiter_role_id", "arbiter_role")


_PERMISSION_NAMES = {"manage_guild": "Manage Server", "view_channel": "View Channels"}


def permission_name(flag: str) -> str:
    """The name Discord's client shows for a permission flag (`manage_guild` → Manage Server)."""
    return _PERMISSION_NAMES.get(flag, flag.replace("_", " ").title())


def guild_store(interaction: discord.Interaction) -> GuildStore:
    """The repositories of the interaction's guild; refuses outside a server."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.client.guild_store(interaction.guild_id)  # type: ignore[attr-defined]


async def has_role(interaction: discord.Interaction, role: GuildRole) -> bool:
    """Whether the caller holds `role`; raises `RoleRequired` saying which role it needs."""
    async with guild_store(interaction).read() as view:
        settings = await view.settings.get()
    role_id: int | None = getattr(settings, role.setting)
    if role_id is None:
        raise RoleRequired(
            f"This command needs the **{role.label}** role, which is not set up on this server "
            f"yet: someone with Manage Server can set it with `/setup set {role.option}`."
        )
    member = interaction.user
    if isinstance(member, discord.Member) and any(r.id == role_id for r in member.roles):
        return True
    raise RoleRequired(f"This command needs the **{role.label}** role (<@&{role_id}>).")


def _role_check(role: GuildRole) -> Callable[[T], T]:
    async def predicate(interaction: discord.Interaction) -> bool:
        return await has_role(interaction, role)

    predicate.requirement = f"{role.label} role"  # type: ignore[attr-defined]
    return app_commands.check(predicate)


def is_hq() -> Callable[[T], T]:
    """Check: the caller holds the guild's league HQ role."""
    return _role_check(HQ)


def is_director() -> Callable[[T], T]:
    """Check: the caller holds the guild's director role."""
    return _role_check(DIRECTOR)


def is_arbiter() -> Callable[[T], T]:
    """Check: the caller holds the guild's arbiter role."""
    return _role_check(ARBITER)


async def administers_club(interaction: discord.Interaction, club: str | None) -> bool:
    """Whether the caller is an admin of `club` (of any club when `club` is None); else refuse."""
    user_id = interaction.user.id
    async with guild_store(interaction).read() as view:
        allowed = (
            bool(await view.club_admins.clubs_of(user_id))
            if club is None
            else await view.club_admins.is_admin(club, user_id)
        )
    if allowed:
        return True
    if club is None:
        raise RoleRequired("This command is for club admins; you are not linked to any club.")
    raise RoleRequired(f"This command needs a **club admin** of **{user_text(club)}**.")


def is_club_admin(option: str = "club") -> Callable[[T], T]:
    """Check: the caller administers the club named by the command's option `option`."""

    async def predicate(interaction: discord.Interaction) -> bool:
        club = getattr(interaction.namespace, option, None)
        return await administers_club(interaction, None if club is None else str(club))

    predicate.requirement = f"admin of the club in `{option}`"  # type: ignore[attr-defined]
    return app_commands.check(predicate)


async def can_use(interaction: discord.Interaction, command: app_commands.Command) -> bool:
    """Whether the caller may run `command` here: context, default permissions and checks."""
    parents: list[app_commands.Group] = []
    node = command.parent
    while node is not None:
        parents.append(node)
        node = node.parent
    root = parents[-1] if parents else command
    if interaction.guild_id is None and root.guild_only:
        return False
    items: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [command, *parents]
    for item in items:
        required = item.default_permissions
        in_guild = interaction.guild_id is not None
        if required is not None and in_guild and not interaction.permissions >= required:
            return False
    try:
        # As discord.py does before a command's own checks: its group's, then its cog's.
        binding = command.binding
        group = command.parent if command.parent is not binding else None
        for check in (
            getattr(group, "interaction_check", None),
            getattr(binding, "interaction_check", None),
        ):
            if check is not None and not await discord.utils.maybe_coroutine(check, interaction):
                return False
        for predicate in command.checks:
            result = predicate(interaction)
            if hasattr(result, "__await__"):
                result = await result
            if not result:
                return False
    except app_commands.AppCommandError:
        return False
    return True

"""What a command requires of its caller, declared once per command.

A requirement is a guild `Role`, which is HQ, director or arbiter, the admin of a club, or a server
permission. It is kept in the command's public `extras`, so the tree checks it, `/help` filters by
it and the command reference prints it:

    @requires(HoldsRole(Role.HQ))
    @group.command(name="approve", description="…")
    async def approve(self, interaction, club: str) -> None: …

`requires` goes above the command decorator, since it needs the command. Each requirement is a
check. A refusal raises `RoleRequired`, or discord.py's `MissingPermissions`, naming what is
needed. The tree's error handler shows it and nothing is changed. Use cases check their `Actor`
of bot.kernel.actor again, for the doors that are not commands such as jobs and the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import discord
from discord import app_commands

from bot.app.interaction import Interaction
from bot.kernel.actor import Role
from bot.kernel.errors import RoleRequired
from bot.rendering.common.user_text import user_text
from storage.guild import GuildStore

REQUIRES = "requires"
"""The key of a command's `extras` holding its requirements as a tuple."""

C = TypeVar("C", bound=app_commands.Command[Any, ..., Any])

_PERMISSION_NAMES = {"manage_guild": "Manage Server", "view_channel": "View Channels"}


def permission_name(flag: str) -> str:
    """The name Discord's client shows for a permission flag, so `manage_guild` is Manage Server."""
    return _PERMISSION_NAMES.get(flag, flag.replace("_", " ").title())


def guild_store(interaction: Interaction) -> GuildStore:
    """The repositories of the interaction's guild. It refuses outside a server."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.client.guild_store(interaction.guild_id)


class Requirement(Protocol):
    """Something a command needs of its caller.

    `text` is how /help and the reference say it, such as `league HQ role`. Calling it checks the
    caller, returning True or raising the refusal.
    """

    @property
    def text(self) -> str:
        """What is needed, in a few words."""
        ...

    async def __call__(self, interaction: Interaction) -> bool:
        """True if the caller meets it. Otherwise it raises the refusal naming it."""
        ...


@dataclass(frozen=True)
class HoldsRole:
    """The caller holds the guild's `role`, as `/setup set` configured it."""

    role: Role

    @property
    def text(self) -> str:
        """`league HQ role`."""
        return f"{self.role.value} role"

    async def __call__(self, interaction: Interaction) -> bool:
        """True if the caller holds the role. Otherwise it refuses, naming the role or how to set
        it up.
        """
        async with guild_store(interaction).read() as view:
            settings = await view.settings.get()
        role_id: int | None = getattr(settings, self.role.setting)
        if role_id is None:
            raise RoleRequired(
                f"This command needs the **{self.role.value}** role, which is not set up on this"
                f" server yet: someone with Manage Server can set it with"
                f" `/setup set {self.role.option}`."
            )
        member = interaction.user
        if isinstance(member, discord.Member) and any(r.id == role_id for r in member.roles):
            return True
        raise RoleRequired(f"This command needs the **{self.role.value}** role (<@&{role_id}>).")


@dataclass(frozen=True)
class AdministersClub:
    """The caller is an admin of the club named by the command's option `option`."""

    option: str = "club"

    @property
    def text(self) -> str:
        """`admin of the club in `club``."""
        return f"admin of the club in `{self.option}`"

    async def __call__(self, interaction: Interaction) -> bool:
        """True for an admin of the club, or of any club when the option is not given yet."""
        club = getattr(interaction.namespace, self.option, None)
        return await administers_club(interaction, None if club is None else str(club))


@dataclass(frozen=True)
class HasPermission:
    """The caller has the server permission `flag` here, such as `manage_guild`."""

    flag: str

    @property
    def text(self) -> str:
        """`Manage Server`."""
        return permission_name(self.flag)

    async def __call__(self, interaction: Interaction) -> bool:
        """True with the permission. Otherwise it raises discord.py's `MissingPermissions`."""
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        if getattr(interaction.permissions, self.flag):
            return True
        raise app_commands.MissingPermissions([self.flag])


def requires(*needs: Requirement) -> Callable[[C], C]:
    """Declares what a command needs. Put it above the command decorator.

    Each requirement becomes one of its checks and is listed in its `extras`, which /help and the
    command reference read.
    """

    def decorate(command: C) -> C:
        if not isinstance(command, app_commands.Command):
            raise TypeError("@requires goes above the @command decorator")
        for need in needs:
            command.add_check(need)
        command.extras[REQUIRES] = (*requirements(command), *needs)
        return command

    return decorate


def requirements(command: app_commands.Command[Any, ..., Any]) -> Sequence[Requirement]:
    """What `command` needs of its caller, as declared with `requires`."""
    found: Sequence[Requirement] = command.extras.get(REQUIRES, ())
    return found


async def administers_club(interaction: Interaction, club: str | None) -> bool:
    """Whether the caller is an admin of `club`, or of any club when `club` is None. Otherwise it
    refuses.
    """
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


async def can_use(interaction: Interaction, command: app_commands.Command[Any, ..., Any]) -> bool:
    """Whether the caller may run `command` here, for /help.

    It weighs the command's context, such as a server-only command in a direct message, the default
    permissions of it and its groups, and what it declares it requires.
    """
    node: app_commands.Command[Any, ..., Any] | app_commands.Group | None = command
    while node is not None:
        if interaction.guild_id is None and node.guild_only:
            return False
        required = node.default_permissions
        in_guild = interaction.guild_id is not None
        if required is not None and in_guild and not interaction.permissions >= required:
            return False
        node = node.parent
    for need in requirements(command):
        try:
            if not await need(interaction):
                return False
        except app_commands.AppCommandError:
            return False
    return True


HQ = HoldsRole(Role.HQ)
"""Needs the league HQ role."""
DIRECTOR = HoldsRole(Role.DIRECTOR)
"""Needs the director role."""
ARBITER = HoldsRole(Role.ARBITER)
"""Needs the arbiter role."""
CLUB_ADMIN = AdministersClub("club")
"""Needs an admin of the club in the `club` option."""
MANAGE_SERVER = HasPermission("manage_guild")
"""Needs Discord's Manage Server permission."""

"""Who is acting on a use case, and the role checks of the roles tables in one place.

Cogs, scheduler jobs and the CLI all pass an `Actor`, and services check it. So a rule of who may
do what is enforced the same way whichever door a request came in by. HQ is not implicitly a
director, and no role stands in for another. The life cycles in core/ call the capacity an actor
acts in on a match or a game its party. See `core.league.lifecycle.Party` and
`core.tour.game_reports.Party`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from storage.league.club_admins import ClubAdminReader
from storage.shared.guild_settings import GuildSettings


class Role(enum.Enum):
    """A guild role that `/setup` configures.

    This is the one definition for the commands' checks in bot.app.permissions and for the actors of
    use cases. The value is how a refusal names the role.
    """

    HQ = "league HQ"
    DIRECTOR = "director"
    ARBITER = "arbiter"

    @property
    def setting(self) -> str:
        """The guild setting holding this role's id, such as `hq_role_id`."""
        return f"{self.name.lower()}_role_id"

    @property
    def option(self) -> str:
        """The `/setup set` option that sets it, such as `hq_role`."""
        return f"{self.name.lower()}_role"


@dataclass(frozen=True)
class Actor:
    """A Discord user with the guild roles they hold, or the system.

    The system is the bot's own jobs or the CLI, and its `user_id` is None. The system holds every
    role and acts for every club.
    """

    user_id: int | None
    roles: frozenset[Role] = frozenset()

    @classmethod
    def system(cls) -> Actor:
        """The bot itself or the shell, audited with no user id.

        It is one value, made once, since every job and import asks for it.
        """
        return _SYSTEM

    @classmethod
    def member(cls, user_id: int, settings: GuildSettings, role_ids: Iterable[int]) -> Actor:
        """A guild member holding the Discord roles `role_ids`, read against the guild's
        configured HQ / director / arbiter roles."""
        held = set(role_ids)
        roles = {role for role in Role if getattr(settings, role.setting) in held}
        return cls(user_id, frozenset(roles))

    @property
    def is_system(self) -> bool:
        """True for the bot or the CLI, where there is no Discord user."""
        return self.user_id is None

    def has(self, role: Role) -> bool:
        """Whether the actor holds exactly this role. HQ is not a director."""
        return role in self.roles

    def require(self, role: Role) -> None:
        """Refuses with a UserError naming the role unless the actor holds `role`."""
        if not self.has(role):
            raise UserError(f"This needs the **{role.value}** role.")

    def require_user(self) -> int:
        """The acting user's id. It refuses the system where a person must act."""
        if self.user_id is None:
            raise UserError("This must be done by a Discord user, not by the bot.")
        return self.user_id


_SYSTEM = Actor(None, frozenset(Role))
"""The system actor, `Actor.system`."""


async def require_club_admin(
    admins: ClubAdminReader, actor: Actor, club_id: int, name: str
) -> None:
    """Refuses unless the actor is an admin of this club. The system acts for any club."""
    if actor.is_system:
        return
    assert actor.user_id is not None
    if not await admins.is_admin(club_id, actor.user_id):
        raise UserError(f"This needs a **club admin** of {named(name)}.")

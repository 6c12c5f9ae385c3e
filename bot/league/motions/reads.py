"""`/vote list`, `/vote show` and the motion autocomplete as read use cases, by CL-23.

They give the guild's motions newest first, one motion with its votes, and the motions matching what
a director types. Only open ones match when the director is about to vote.
"""

from __future__ import annotations

from bot.kernel.errors import UserError
from bot.rendering.league.motions import motion_label
from storage.guild import GuildStore
from storage.league.motions import Motion, MotionStatus

LISTED = 100
"""`/vote list` reads at most this many of the newest motions."""
CANDIDATES = 200
"""The autocomplete looks among at most this many of the newest motions."""
CHOICES = 25
"""Discord: at most 25 autocomplete choices."""


async def motion_list(store: GuildStore, status: MotionStatus | None = None) -> tuple[Motion, ...]:
    """The motions of this guild only, newest first, only those of `status` when it is given."""
    async with store.read() as view:
        return tuple(await view.motions.recent(status, LISTED))


async def motion_card(store: GuildStore, motion_id: int) -> Motion:
    """The motion `motion_id` of this guild with its votes. Another guild's is not found."""
    async with store.read() as view:
        found = await view.motions.get(motion_id) if motion_id > 0 else None
    if found is None:
        raise UserError(f"No motion {motion_id} on this server.")
    return found


async def motion_choices(store: GuildStore, typed: str, open_only: bool) -> tuple[Motion, ...]:
    """The newest motions of this guild whose title holds `typed`, at most 25.

    Titles compare case-insensitively. With `open_only` only open motions match, since a vote can be
    cast on nothing else.
    """
    key = typed.strip().casefold()
    async with store.read() as view:
        found = await view.motions.recent("open" if open_only else None, CANDIDATES)
    return tuple(m for m in found if key in motion_label(m).casefold())[:CHOICES]


async def awaiting_vote(store: GuildStore, user_id: int) -> tuple[Motion, ...]:
    """CL-23: the open motions of this guild whose electorate holds `user_id` and which they have
    not voted on, the nearest deadline first.

    A motion past its deadline is closing and takes no vote, so it is left out.
    """
    now = store.database.clock()
    async with store.read() as view:
        found = await view.motions.recent("open", LISTED)
    waiting = (
        m for m in found if user_id in m.electorate and user_id not in m.votes and now < m.deadline
    )
    return tuple(sorted(waiting, key=lambda m: (m.deadline, m.id)))

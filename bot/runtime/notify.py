"""Queues direct messages to the members a change concerns, in that change's unit of work.

The channel post stays the public record. `notify` adds, for each member who wants this kind, a
direct message. The outbox sender delivers it exactly once to a member still in the server, or,
when Discord refused their direct messages before, mentions them in the channel instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.kernel.notifications import Kind
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.common.user_text import user_text
from storage.guild import UnitOfWork

SERVER_ROOM = 240
"""Room kept in a direct message for the words naming its server, which the sender adds."""


def jump_link(guild_id: int, channel_id: int) -> str:
    """The link to a guild channel, which a direct message ends with to say where it is from."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def from_server(server: str, content: str) -> str:
    """A direct message as sent: `content`, then a last line naming the server it is from,
    before the link to its channel if it has one."""
    body, _, last = content.rpartition("\n")
    if body and last.startswith("https://discord.com/channels/"):
        return f"{body}\nFrom **{user_text(server)}**: {last}"
    return f"{content}\nFrom **{user_text(server)}**"


def closed_mention(user_id: int, content: str) -> str:
    """The channel text for a member whose direct messages are closed."""
    text = f"<@{user_id}>, I could not send you a direct message: {content}"
    return cut(text, limits.MESSAGE_CONTENT)


async def notify(
    uow: UnitOfWork,
    kind: Kind,
    user_ids: Iterable[int],
    *,
    channel_id: int,
    content: str,
    components: Sequence[Mapping[str, Any]] | None = None,
) -> list[int]:
    """Sends `content` by direct message to those of `user_ids` who want `kind`, and returns them.

    `content` is already rendered and neutralised. `channel_id` is the guild channel of the
    public record, 0 if there is none. A member whose direct messages were refused before is
    mentioned there once instead, by the outbox sender, which first checks that they are still
    a member of the server: one who left gets nothing.
    """
    users = list(dict.fromkeys(user_ids))
    if not users:
        return []
    choices = await uow.notifications.choices_of(users, kind.key)
    chosen = [user for user in users if choices.get(user, kind.default)]
    room = limits.MESSAGE_CONTENT - SERVER_ROOM
    for user in chosen:
        text = cut(content, room)
        if channel_id:
            link = jump_link(uow.guild_id, channel_id)
            text = f"{cut(content, room - len(link) - 1)}\n{link}"
        await uow.outbox.post_dm(user, channel_id, content=text, components=components)
    return chosen

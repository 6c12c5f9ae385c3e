"""The outbox: messages to post or edits to make in Discord.

They are written in the same unit of work as the change they announce. The bot's sender in
`bot/runtime/outbox.py` delivers them in order per channel and marks one sent only once Discord
accepted it, keeping Discord's message id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from storage.engine.codecs import from_text, instant_or_none, record, to_text
from storage.engine.connection import Row
from storage.engine.database import Database
from storage.engine.scope import ReadScope, WriteScope
from storage.engine.shards import Shards, shard_condition


@dataclass(frozen=True)
class OutboxMessage:
    """One message of the outbox.

    `embeds` are Discord embed objects as dicts. `edit_of` names a message of the channel to edit
    instead of posting a new one.
    """

    id: int
    guild_id: int
    channel_id: int
    content: str | None
    embeds: tuple[dict[str, Any], ...]
    edit_of: int | None
    status: str  # pending, sent, failed
    attempts: int
    next_attempt_at: datetime | None
    message_id: int | None
    error: str | None
    created_at: datetime
    components: tuple[dict[str, Any], ...] | None = None
    ping_users: tuple[int, ...] = ()
    """The users the message may ping, its intended mentions. Nobody else is pinged."""
    dm_user_id: int | None = None
    """The member a direct message goes to. `channel_id` is then the channel where they are
    mentioned instead if Discord refuses the direct message."""

    @property
    def nonce(self) -> str:
        """The nonce sent with the message.

        Discord refuses a second message with the same nonce under enforce_nonce, so a send repeated
        after a crash does not post twice.
        """
        return f"outbox-{self.id}"


_COLUMNS = (
    "id, guild_id, channel_id, content, embeds, edit_of, status, attempts, next_attempt_at,"
    " message_id, error, created_at, components, ping_users, dm_user_id"
)


def _message(row: Row) -> OutboxMessage:
    components = row["components"]
    return record(
        OutboxMessage,
        row,
        embeds=tuple(json.loads(row["embeds"])),
        next_attempt_at=instant_or_none(row["next_attempt_at"]),
        created_at=from_text(row["created_at"]),
        components=None if components is None else tuple(json.loads(components)),
        ping_users=tuple(int(user) for user in json.loads(row["ping_users"])),
    )


@dataclass(frozen=True)
class _Draft:
    """A message about to be queued, in the forms the table and `OutboxMessage` take."""

    channel_id: int
    content: str | None
    embeds: tuple[dict[str, Any], ...]
    edit_of: int | None
    components: tuple[dict[str, Any], ...] | None
    ping_users: tuple[int, ...]
    dm_user_id: int | None = None

    @classmethod
    def of(
        cls,
        channel_id: int,
        content: str | None,
        embeds: Sequence[Mapping[str, Any]],
        edit_of: int | None,
        components: Sequence[Mapping[str, Any]] | None,
        ping_users: Sequence[int],
    ) -> _Draft:
        rows = None if components is None else tuple(dict(row) for row in components)
        pinged = tuple(dict.fromkeys(int(user) for user in ping_users))
        return cls(channel_id, content, tuple(dict(e) for e in embeds), edit_of, rows, pinged)

    def columns(self, created_at: str) -> tuple[Any, ...]:
        """content, embeds, edit_of, created_at, components, ping_users, dm_user_id as stored."""
        return (
            self.content,
            json.dumps(list(self.embeds), sort_keys=True),
            self.edit_of,
            created_at,
            None if self.components is None else json.dumps(list(self.components), sort_keys=True),
            json.dumps(list(self.ping_users)),
            self.dm_user_id,
        )


class OutboxReader:
    """The outbox of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, message_id: int) -> OutboxMessage | None:
        """The outbox row `message_id` if it belongs to this guild."""
        return await self._scope.one(
            _message,
            f"SELECT {_COLUMNS} FROM outbox WHERE id = ? AND guild_id = ?",
            (message_id, self._scope.guild_id),
        )

    async def latest_embeds(self, outbox_id: int, message_id: int) -> list[Any] | None:
        """The embeds Discord message `message_id` shows or is about to show, or None.

        They are those of the newest of its post, outbox row `outbox_id`, and its queued edits. None
        means neither is here.
        """
        row = await self._scope.fetchone(
            "SELECT embeds FROM outbox WHERE guild_id = ? AND (id = ? OR edit_of = ?)"
            " ORDER BY id DESC LIMIT 1",
            (self._scope.guild_id, outbox_id, message_id),
        )
        return None if row is None else list(json.loads(row[0]))

    async def failures(self, limit: int = 5) -> list[OutboxMessage]:
        """The latest channel messages given up for good, newest first, for a missing channel or
        permission.

        A direct message refused (closed DMs, a member who left) is the member's, not the
        server's: it is left out.
        """
        return await self._scope.each(
            _message,
            f"SELECT {_COLUMNS} FROM outbox WHERE guild_id = ? AND status = 'failed'"
            " AND dm_user_id IS NULL ORDER BY id DESC LIMIT ?",
            (self._scope.guild_id, limit),
        )

    async def pending(self) -> list[OutboxMessage]:
        """This guild's messages not delivered yet, oldest first."""
        return await self._scope.each(
            _message,
            f"SELECT {_COLUMNS} FROM outbox WHERE guild_id = ? AND status = 'pending' ORDER BY id",
            (self._scope.guild_id,),
        )


class OutboxRepository(OutboxReader):
    """The outbox of one guild inside a unit of work.

    `posted` lists the messages written, so the sender is woken once the unit of work commits.
    `sent` lists the rows recorded as delivered, so a pin waiting for its message's id learns of it.
    """

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope
        self.posted: list[OutboxMessage] = []
        self.sent: list[int] = []

    async def post(
        self,
        channel_id: int,
        *,
        content: str | None = None,
        embeds: Sequence[Mapping[str, Any]] = (),
        edit_of: int | None = None,
        components: Sequence[Mapping[str, Any]] | None = None,
        ping_users: Sequence[int] = (),
    ) -> OutboxMessage:
        """Queues a message to `channel_id`, or an edit of the message `edit_of` names.

        `components` are Discord component rows, and None lets an edit keep the message's own.
        `ping_users` are the users it pings. By default it pings nobody, whatever its text says.
        """
        if not content and not embeds:
            raise ValueError("an outbox message needs content or embeds")
        scope = self._write
        draft = _Draft.of(channel_id, content, embeds, edit_of, components, ping_users)
        new_id = await scope.insert(
            "INSERT INTO outbox (guild_id, channel_id, content, embeds, edit_of, created_at,"
            " components, ping_users, dm_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (scope.guild_id, channel_id, *draft.columns(to_text(scope.now))),
        )
        return self._queued(new_id, draft)

    async def post_dm(
        self,
        user_id: int,
        channel_id: int,
        *,
        content: str,
        components: Sequence[Mapping[str, Any]] | None = None,
    ) -> OutboxMessage:
        """Queues a direct message to the member `user_id`.

        `channel_id` is the guild channel of the public record. The sender mentions the member
        there instead if Discord refuses the direct message, or if it has no channel at all (0).
        """
        if not content:
            raise ValueError("a direct message needs content")
        scope = self._write
        draft = replace(
            _Draft.of(channel_id, content, (), None, components, ()), dm_user_id=user_id
        )
        new_id = await scope.insert(
            "INSERT INTO outbox (guild_id, channel_id, content, embeds, edit_of, created_at,"
            " components, ping_users, dm_user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (scope.guild_id, channel_id, *draft.columns(to_text(scope.now))),
        )
        return self._queued(new_id, draft)

    async def post_to_announcements(self, content: str) -> OutboxMessage | None:
        """Queues `content` to the guild's announcements channel. Returns None, queuing nothing,
        when no channel is set up."""
        if not content:
            raise ValueError("an outbox message needs content or embeds")
        scope = self._write
        draft = _Draft.of(0, content, (), None, None, ())
        row = await scope.fetchone(
            "INSERT INTO outbox (guild_id, channel_id, content, embeds, edit_of, created_at,"
            " components, ping_users, dm_user_id) SELECT guild_id, announcements_channel_id,"
            " ?, ?, ?, ?, ?, ?, ? FROM guild_settings"
            " WHERE guild_id = ? AND announcements_channel_id IS NOT NULL"
            " RETURNING id, channel_id",
            (*draft.columns(to_text(scope.now)), scope.guild_id),
        )
        if row is None:
            return None
        return self._queued(int(row[0]), replace(draft, channel_id=int(row[1])))

    def _queued(self, row_id: int, draft: _Draft) -> OutboxMessage:
        """The message just inserted as `row_id`, noted in the audit details and `posted`."""
        scope = self._write
        message = OutboxMessage(
            id=row_id,
            guild_id=scope.guild_id,
            channel_id=draft.channel_id,
            content=draft.content,
            embeds=draft.embeds,
            edit_of=draft.edit_of,
            status="pending",
            attempts=0,
            next_attempt_at=None,
            message_id=None,
            error=None,
            created_at=from_text(to_text(scope.now)),
            components=draft.components,
            ping_users=draft.ping_users,
            dm_user_id=draft.dm_user_id,
        )
        entry = {"id": row_id, "channel_id": draft.channel_id, "edit_of": draft.edit_of}
        if draft.dm_user_id is not None:
            entry["dm_user_id"] = draft.dm_user_id
        scope.record("outbox", entry)
        self.posted.append(message)
        return message

    async def mark_sent(self, outbox_id: int, message_id: int) -> bool:
        """Records that Discord accepted the message as `message_id`. Returns False if it was not
        pending.
        """
        scope = self._write
        scope.details["message_id"] = message_id
        sent = await self._attempted(
            outbox_id,
            "status = 'sent', message_id = ?, error = NULL, finished_at = ?",
            (message_id, to_text(scope.now)),
        )
        if sent:
            self.sent.append(outbox_id)
        return sent

    async def retry_later(self, outbox_id: int, at: datetime, error: str) -> bool:
        """Records a transient failure, such as a 5xx, a 429 or a network error, to try again at
        `at`.
        """
        self._write.details.update(error=error, retry_at=to_text(at))
        return await self._attempted(
            outbox_id, "next_attempt_at = ?, error = ?", (to_text(at), error)
        )

    async def mark_failed(self, outbox_id: int, error: str) -> bool:
        """Gives the message up for good for a missing channel or permission, keeping why."""
        scope = self._write
        scope.details["error"] = error
        return await self._attempted(
            outbox_id, "status = 'failed', error = ?, finished_at = ?", (error, to_text(scope.now))
        )

    async def _attempted(self, outbox_id: int, changes: str, values: tuple[Any, ...]) -> bool:
        """Counts an attempt at the pending message and sets `changes` to `values`.

        Returns False if the message was not pending.
        """
        cursor = await self._write.execute(
            f"UPDATE outbox SET attempts = attempts + 1, {changes}"
            " WHERE id = ? AND guild_id = ? AND status = 'pending'",
            (*values, outbox_id, self._write.guild_id),
        )
        return cursor.rowcount > 0


async def pending_messages(
    database: Database, *, shards: Shards | None = None
) -> list[OutboxMessage]:
    """Every guild's undelivered messages, oldest first, which the sender works through.

    With `shards`, only the messages of those shards' guilds are read.
    """
    condition, parameters = shard_condition(shards)
    async with database.read() as connection:
        cursor = await connection.execute(
            f"SELECT {_COLUMNS} FROM outbox WHERE status = 'pending'{condition} ORDER BY id",
            parameters,
        )
        return [_message(row) for row in await cursor.fetchall()]

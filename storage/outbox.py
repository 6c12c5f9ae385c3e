"""The outbox: messages to post (or edits to make) in Discord, written in the same unit of work
as the change they announce. The bot's sender (`bot/outbox.py`) delivers them in order per
channel and marks one sent only once Discord accepted it, keeping Discord's message id."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import aiosqlite

from storage.database import Database, from_text, to_text
from storage.scope import ReadScope, WriteScope


@dataclass(frozen=True)
class OutboxMessage:
    """One message of the outbox. `embeds` are Discord embed objects (dicts); `edit_of` names
    a message of the channel to edit instead of posting a new one."""

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
    """The users the message may ping (its intended mentions); nobody else is pinged."""

    @property
    def nonce(self) -> str:
        """The nonce sent with the message: Discord refuses a second message with the same
        nonce (enforce_nonce), so a send repeated after a crash does not post twice."""
        return f"outbox-{self.id}"


_COLUMNS = (
    "id, guild_id, channel_id, content, embeds, edit_of, status, attempts, next_attempt_at,"
    " message_id, error, created_at, components, ping_users"
)


def _message(row: aiosqlite.Row) -> OutboxMessage:
    return OutboxMessage(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        content=row["content"],
        embeds=tuple(json.loads(row["embeds"])),
        edit_of=row["edit_of"],
        status=row["status"],
        attempts=row["attempts"],
        next_attempt_at=None
        if row["next_attempt_at"] is None
        else from_text(row["next_attempt_at"]),
        message_id=row["message_id"],
        error=row["error"],
        created_at=from_text(row["created_at"]),
        components=None if row["components"] is None else tuple(json.loads(row["components"])),
        ping_users=tuple(int(user) for user in json.loads(row["ping_users"])),
    )


class OutboxReader:
    """The outbox of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, message_id: int) -> OutboxMessage | None:
        """The outbox row `message_id` if it belongs to this guild."""
        row = await self._scope.fetchone(
            f"SELECT {_COLUMNS} FROM outbox WHERE id = ? AND guild_id = ?",
            (message_id, self._scope.guild_id),
        )
        return None if row is None else _message(row)

    async def failures(self, limit: int = 5) -> list[OutboxMessage]:
        """The latest messages given up for good (missing channel or permission), newest first."""
        rows = await self._scope.fetchall(
            f"SELECT {_COLUMNS} FROM outbox WHERE guild_id = ? AND status = 'failed'"
            " ORDER BY id DESC LIMIT ?",
            (self._scope.guild_id, limit),
        )
        return [_message(row) for row in rows]

    async def pending(self) -> list[OutboxMessage]:
        """This guild's messages not delivered yet, oldest first."""
        rows = await self._scope.fetchall(
            f"SELECT {_COLUMNS} FROM outbox WHERE guild_id = ? AND status = 'pending' ORDER BY id",
            (self._scope.guild_id,),
        )
        return [_message(row) for row in rows]


class OutboxRepository(OutboxReader):
    """The outbox of one guild inside a unit of work. `posted` lists the messages written, so
    the sender is woken once the unit of work commits."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope
        self.posted: list[OutboxMessage] = []

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
        """Queue a message to `channel_id` (or, with `edit_of`, an edit of that message);
        `components` are Discord component rows (None: an edit keeps the message's own);
        `ping_users` the users it pings (by default nobody, whatever its text says)."""
        if not content and not embeds:
            raise ValueError("an outbox message needs content or embeds")
        scope = self._write
        embed_list = [dict(embed) for embed in embeds]
        rows = None if components is None else [dict(row) for row in components]
        pinged = tuple(dict.fromkeys(int(user) for user in ping_users))
        cursor = await scope.execute(
            "INSERT INTO outbox (guild_id, channel_id, content, embeds, edit_of, created_at,"
            " components, ping_users) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                channel_id,
                content,
                json.dumps(embed_list, sort_keys=True),
                edit_of,
                to_text(scope.now),
                None if rows is None else json.dumps(rows, sort_keys=True),
                json.dumps(list(pinged)),
            ),
        )
        row_id = cursor.lastrowid
        assert row_id is not None
        message = OutboxMessage(
            id=row_id,
            guild_id=scope.guild_id,
            channel_id=channel_id,
            content=content,
            embeds=tuple(embed_list),
            edit_of=edit_of,
            status="pending",
            attempts=0,
            next_attempt_at=None,
            message_id=None,
            error=None,
            created_at=from_text(to_text(scope.now)),
            components=None if rows is None else tuple(rows),
            ping_users=pinged,
        )
        scope.record("outbox", {"id": row_id, "channel_id": channel_id, "edit_of": edit_of})
        self.posted.append(message)
        return message

    async def mark_sent(self, outbox_id: int, message_id: int) -> bool:
        """Record that Discord accepted the message as `message_id`; False if not pending."""
        scope = self._write
        cursor = await scope.execute(
            "UPDATE outbox SET status = 'sent', message_id = ?, attempts = attempts + 1,"
            " error = NULL, finished_at = ? WHERE id = ? AND guild_id = ? AND status = 'pending'",
            (message_id, to_text(scope.now), outbox_id, scope.guild_id),
        )
        scope.details["message_id"] = message_id
        return cursor.rowcount > 0

    async def retry_later(self, outbox_id: int, at: datetime, error: str) -> bool:
        """Record a transient failure (5xx, 429, network): try again at `at`."""
        scope = self._write
        cursor = await scope.execute(
            "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, error = ?"
            " WHERE id = ? AND guild_id = ? AND status = 'pending'",
            (to_text(at), error, outbox_id, scope.guild_id),
        )
        scope.details.update(error=error, retry_at=to_text(at))
        return cursor.rowcount > 0

    async def mark_failed(self, outbox_id: int, error: str) -> bool:
        """Give the message up for good (missing channel or permission), keeping why."""
        scope = self._write
        cursor = await scope.execute(
            "UPDATE outbox SET status = 'failed', attempts = attempts + 1, error = ?,"
            " finished_at = ? WHERE id = ? AND guild_id = ? AND status = 'pending'",
            (error, to_text(scope.now), outbox_id, scope.guild_id),
        )
        scope.details["error"] = error
        return cursor.rowcount > 0


async def pending_messages(database: Database) -> list[OutboxMessage]:
    """Every guild's undelivered messages, oldest first: what the sender works through."""
    async with database.read() as connection:
        cursor = await connection.execute(
            f"SELECT {_COLUMNS} FROM outbox WHERE status = 'pending' ORDER BY id"
        )
        return [_message(row) for row in await cursor.fetchall()]

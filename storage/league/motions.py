"""Director motions of one guild by CL-23.

A motion has its frozen electorate and deadline, the directors' votes and its closing. Each director
votes once and may change the vote until the motion closes.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Literal, cast

from core.votes import MotionKind
from storage.engine.codecs import from_text, to_text
from storage.engine.connection import Row
from storage.engine.scope import ReadScope, WriteScope

MotionStatus = Literal["open", "passed", "rejected", "no-decision"]


@dataclass(frozen=True)
class NewMotion:
    """A motion to open: its kind, subject, reason, electorate of user ids and deadline."""

    kind: MotionKind
    reason: str
    electorate: tuple[int, ...]
    deadline: dt.datetime
    quorum: int
    opened_by: int | None
    season_id: int | None = None
    match_id: int | None = None
    club_id: int | None = None
    rule: str | None = None
    subject: dict[str, Any] | None = None


@dataclass(frozen=True)
class Motion:
    """A stored motion. `votes` maps a director's user id to True for yes or False for no."""

    id: int
    kind: MotionKind
    season_id: int | None
    match_id: int | None
    club_id: int | None
    rule: str | None
    subject: dict[str, Any]
    reason: str
    opened_by: int | None
    opened_at: dt.datetime
    deadline: dt.datetime
    quorum: int
    electorate: tuple[int, ...]
    status: MotionStatus
    closed_at: dt.datetime | None
    outcome: str | None
    channel_id: int | None
    outbox_id: int | None
    votes: dict[int, bool]


_COLUMNS = (
    "id, kind, season_id, match_id, club_id, rule, subject, reason, opened_by, opened_at,"
    " deadline, quorum, electorate, status, closed_at, outcome, channel_id, outbox_id"
)


def _motion(row: Row, votes: dict[int, bool]) -> Motion:
    return Motion(
        id=row["id"],
        kind=MotionKind(row["kind"]),
        season_id=row["season_id"],
        match_id=row["match_id"],
        club_id=row["club_id"],
        rule=row["rule"],
        subject=json.loads(row["subject"]),
        reason=row["reason"],
        opened_by=row["opened_by"],
        opened_at=from_text(row["opened_at"]),
        deadline=from_text(row["deadline"]),
        quorum=row["quorum"],
        electorate=tuple(int(u) for u in json.loads(row["electorate"])),
        status=cast(MotionStatus, row["status"]),
        closed_at=None if row["closed_at"] is None else from_text(row["closed_at"]),
        outcome=row["outcome"],
        channel_id=row["channel_id"],
        outbox_id=row["outbox_id"],
        votes=votes,
    )


class MotionReader:
    """The motions and votes of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def _votes(self, motion_id: int) -> dict[int, bool]:
        rows = await self._scope.fetchall(
            "SELECT director_id, choice FROM motion_votes WHERE guild_id = ? AND motion_id = ?"
            " ORDER BY director_id",
            (self._scope.guild_id, motion_id),
        )
        return {int(r[0]): bool(r[1]) for r in rows}

    async def get(self, motion_id: int) -> Motion | None:
        """The motion `motion_id` of this guild, with its votes."""
        row = await self._scope.fetchone(
            f"SELECT {_COLUMNS} FROM motions WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, motion_id),
        )
        return None if row is None else _motion(row, await self._votes(motion_id))

    async def recent(self, status: MotionStatus | None = None, limit: int = 100) -> list[Motion]:
        """The guild's motions of `status`, if given, newest first, each with its votes, read in two
        statements."""
        where, extra = "", cast(tuple[Any, ...], ())
        if status is not None:
            where, extra = " AND status = ?", (status,)
        chosen = f"FROM motions WHERE guild_id = ?{where} ORDER BY id DESC LIMIT ?"
        parameters = (self._scope.guild_id, *extra, limit)
        rows = await self._scope.fetchall(f"SELECT {_COLUMNS} {chosen}", parameters)
        votes: dict[int, dict[int, bool]] = {int(row["id"]): {} for row in rows}
        for vote in await self._scope.fetchall(
            "SELECT motion_id, director_id, choice FROM motion_votes WHERE guild_id = ?"
            f" AND motion_id IN (SELECT id {chosen}) ORDER BY motion_id, director_id",
            (self._scope.guild_id, *parameters),
        ):
            votes.setdefault(int(vote[0]), {})[int(vote[1])] = bool(vote[2])
        return [_motion(row, votes[int(row["id"])]) for row in rows]

    async def of_season(self, season_id: int, kind: MotionKind) -> list[Motion]:
        """The guild's motions of `kind` about season `season_id`, oldest first."""
        rows = await self._scope.fetchall(
            f"SELECT {_COLUMNS} FROM motions WHERE guild_id = ? AND season_id = ? AND kind = ?"
            " ORDER BY id",
            (self._scope.guild_id, season_id, MotionKind(kind).value),
        )
        return [_motion(row, await self._votes(int(row["id"]))) for row in rows]


class MotionRepository(MotionReader):
    """The motions of one guild inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def open(self, motion: NewMotion) -> int:
        """Stores a new open motion and returns its id."""
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO motions (guild_id, kind, season_id, match_id, club_id, rule, subject,"
            " reason, opened_by, opened_at, deadline, quorum, electorate)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                MotionKind(motion.kind).value,
                motion.season_id,
                motion.match_id,
                motion.club_id,
                motion.rule,
                json.dumps(motion.subject or {}, sort_keys=True),
                motion.reason,
                motion.opened_by,
                to_text(scope.now),
                to_text(motion.deadline),
                motion.quorum,
                json.dumps(sorted(motion.electorate)),
            ),
        )
        scope.record("motions", {"id": new_id, "kind": MotionKind(motion.kind).value})
        return new_id

    async def set_message(self, motion_id: int, channel_id: int, outbox_id: int) -> None:
        """Remembers the motion message by its channel and outbox row."""
        await self._write.execute(
            "UPDATE motions SET channel_id = ?, outbox_id = ? WHERE guild_id = ? AND id = ?",
            (channel_id, outbox_id, self._write.guild_id, motion_id),
        )

    async def vote(self, motion_id: int, director_id: int, choice: bool) -> bool:
        """Records or changes a director's vote on an open motion.

        Returns False if nothing changed, because the vote is the same again or the motion is
        closed.
        """
        scope = self._write
        cursor = await scope.execute(
            "INSERT INTO motion_votes (guild_id, motion_id, director_id, choice, at)"
            " SELECT guild_id, id, ?, ?, ? FROM motions"
            " WHERE guild_id = ? AND id = ? AND status = 'open'"
            " ON CONFLICT (motion_id, director_id) DO UPDATE SET choice = excluded.choice,"
            " at = excluded.at WHERE motion_votes.choice <> excluded.choice",
            (director_id, int(choice), to_text(scope.now), scope.guild_id, motion_id),
        )
        changed = cursor.rowcount > 0
        if changed:
            scope.record("votes", {"motion": motion_id, "director": director_id, "yes": choice})
        return changed

    async def close(self, motion_id: int, status: MotionStatus, outcome: str) -> bool:
        """Closes an open motion with its status. Returns False if it was closed already.

        A motion thus closes exactly once, whichever door closes it.
        """
        scope = self._write
        cursor = await scope.execute(
            "UPDATE motions SET status = ?, closed_at = ?, outcome = ?"
            " WHERE guild_id = ? AND id = ? AND status = 'open'",
            (status, to_text(scope.now), outcome, scope.guild_id, motion_id),
        )
        closed = cursor.rowcount > 0
        if closed:
            scope.record("motions_closed", {"id": motion_id, "status": status})
        return closed

"""What one call of a tour use case wrote, read back through the guild's readers: the one
audit row of its unit of work, the messages it queued, the jobs it scheduled or moved, and
the tables it changed. The service tests of tests/tour/ assert all of them together."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.runtime.clock import VirtualClock
from bot.tour.store import LoadedEvent, load_event
from storage.guild import GuildStore
from storage.shared.audit import AuditEntry
from storage.shared.jobs import Job
from storage.shared.outbox import OutboxMessage
from tests.support.services_world import dump
from tests.support.tour_world import knockout_started

T = TypeVar("T")

GUILD = 33
"""The guild of the tour service tests."""
EVE = dt.datetime(2026, 4, 20, 9, tzinfo=dt.UTC)
"""The day before the test events start (`tour_with_event`: 2026-04-21, sessions at 15:00
UTC, appeals closing at 22:00 UTC. An 8-player Regular plays its preliminary on days 1-3 and
its knock-out on days 4-9)."""
ANNOUNCEMENTS = 700
"""The announcements channel of the tour tests' guild."""
ARBITERS = 701
"""The arbiters' channel of the tour tests' guild."""


@dataclass(frozen=True)
class Written:
    """What a call wrote: the audit row of each unit of work, its posts, its new or changed
    jobs, the tables."""

    audits: tuple[AuditEntry, ...]
    posts: tuple[OutboxMessage, ...]
    jobs: tuple[Job, ...]
    tables: frozenset[str]

    @property
    def audit(self) -> AuditEntry:
        """The audit row of the call's one unit of work."""
        [entry] = self.audits
        return entry

    def announced(self) -> list[str]:
        """The text of the posts to the announcements channel."""
        return [
            post_text(p)
            for p in self.posts
            if p.channel_id == ANNOUNCEMENTS and p.dm_user_id is None
        ]

    def to_arbiters(self) -> list[str]:
        """The text of the posts to the arbiters' channel."""
        return [
            post_text(p) for p in self.posts if p.channel_id == ARBITERS and p.dm_user_id is None
        ]

    def dms(self) -> list[OutboxMessage]:
        """The direct messages queued, in order."""
        return [p for p in self.posts if p.dm_user_id is not None]

    def kinds(self) -> list[str]:
        """The kinds of the pending jobs it scheduled or moved, sorted."""
        return sorted(j.kind for j in self.jobs if j.status == "pending")


def post_text(post: OutboxMessage) -> str:
    """A message's content and its embeds' titles and descriptions, one string."""
    parts = [post.content or ""]
    for embed in post.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


async def channels(store: GuildStore) -> None:
    """Set up the guild's announcements and arbiters' channels (test set-up)."""
    async with store.change(None, "test.setup", "guild_settings") as uow:
        await uow.settings.update(
            announcements_channel_id=ANNOUNCEMENTS, arbiters_channel_id=ARBITERS
        )


async def _state(store: GuildStore) -> tuple[list[AuditEntry], dict[int, Any], dict[int, Job]]:
    async with store.read() as view:
        audit = await view.audit.recent(100_000)
        posts = {p.id: p for p in await view.outbox.pending()}
        jobs = {}
        for number in await _job_ids(store):
            job = await view.jobs.get(number)
            if job is not None:
                jobs[number] = job
    return audit, posts, jobs


async def _job_ids(store: GuildStore) -> list[int]:
    async with store.database.read() as connection:
        cursor = await connection.execute(
            "SELECT id FROM scheduled_jobs WHERE guild_id = ? ORDER BY id", (store.guild_id,)
        )
        return [int(row[0]) for row in await cursor.fetchall()]


async def written(store: GuildStore, call: Awaitable[T], *, units: int = 1) -> tuple[T, Written]:
    """Run `call` and return its result with what it wrote: an audit row for each of its
    `units` units of work (each committed whole), the messages, jobs and tables with them."""
    tables_before = await dump(store.database)
    audit_before, posts_before, jobs_before = await _state(store)
    result = await call
    tables_after = await dump(store.database)
    audit_after, posts_after, jobs_after = await _state(store)
    new_audit = [e for e in audit_after if e.id not in {b.id for b in audit_before}]
    assert len(new_audit) == units, [(e.action, e.subject) for e in new_audit]
    posts = tuple(p for n, p in sorted(posts_after.items()) if n not in posts_before)
    jobs = tuple(j for n, j in sorted(jobs_after.items()) if jobs_before.get(n) != j)
    tables = frozenset(t for t, rows in tables_after.items() if tables_before.get(t) != rows)
    return result, Written(tuple(new_audit), posts, jobs, tables)


def at(text: str) -> dt.datetime:
    """An instant written `YYYY-MM-DD HH:MM`, in UTC."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC)


async def event_of(store: GuildStore, event: str) -> LoadedEvent:
    """The event named `event` as stored now."""
    async with store.read() as view:
        return await load_event(view, (await view.tour_events.by_name(event))[0])


async def knockout_on_its_first_day(
    store: GuildStore, clock: VirtualClock, names: list[str]
) -> None:
    """An 8-player Regular `Open` of `names` drawn, its preliminary decided in that order,
    its knock-out started and the clock on the knock-out's first session."""
    await knockout_started(store, "Open", players=names)
    await clock.advance_to(at("2026-04-24 15:30"))

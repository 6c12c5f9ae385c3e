"""A job's state change and the job's completion in one unit of work: a run a crash
interrupted after the change committed finds its job done and is never run again, and a
run interrupted before it changed nothing (exactly once without a separate marker)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from storage.guild import GuildStore, UnitOfWork
from storage.jobs import Job


@asynccontextmanager
async def job_change(store: GuildStore, job: Job, action: str) -> AsyncIterator[UnitOfWork | None]:
    """A unit of work by the system actor, audited as (`action`, the job's subject), that also
    marks `job` done; None (nothing written) when the job is no longer this run's (done or
    cancelled). A block that calls `uow.abandon()` writes nothing and leaves the job to the
    scheduler to finish."""
    async with store.change(None, action, job.subject, {"job": job.id}) as uow:
        current = await uow.jobs.get(job.id)
        if current is None or current.status != "running":
            uow.abandon()
            yield None
        else:
            yield uow
            if not uow.abandoned:
                await uow.jobs.finish(job.id)

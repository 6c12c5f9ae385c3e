"""What one interaction leaves behind: the errors it logged and the tasks it started.

The stub and the replay watch both, so a command that logs an error or leaves a task running
fails where it happens.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class _ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def logged_errors() -> Iterator[list[logging.LogRecord]]:
    """Every record of level ERROR or above logged by any logger inside the block."""
    handler = _ErrorRecords()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


_IN_INTERACTION: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "stub_interaction", default=False
)


@contextmanager
def started_tasks() -> Iterator[list[asyncio.Task[Any]]]:
    """Every task the block starts, and every task those start.

    Tasks inherit the context. The bot's own long-lived tasks, such as the outbox sender, do not
    count.
    """
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    created: list[asyncio.Task[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        if previous is not None:
            task = previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        assert isinstance(task, asyncio.Task)
        if _IN_INTERACTION.get():
            created.append(task)
        return task

    loop.set_task_factory(factory)
    token = _IN_INTERACTION.set(True)
    try:
        yield created
    finally:
        _IN_INTERACTION.reset(token)
        loop.set_task_factory(previous)


async def settle(tasks: list[asyncio.Task[Any]], direct: int) -> list[str]:
    """Waits for the first `direct` tasks, then cancels any task started meanwhile that is still
    pending.

    The direct tasks are what the gateway started for the interaction: event dispatch and the tree
    call. Returns the problems: tasks left pending and tasks that raised.
    """
    await asyncio.gather(*tasks[:direct], return_exceptions=True)
    await asyncio.sleep(0)
    problems = []
    pending = [t for t in tasks if not t.done()]
    raised = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    for task in pending:
        task.cancel()
    if pending:
        names = [repr(t.get_coro()) for t in pending]
        problems.append(f"background tasks still pending: {names}")
    if raised:
        problems.append(f"background tasks raised: {[repr(t.exception()) for t in raised]}")
    return problems

"""The one door to a guild's data: units of work and read views, every repository guild-bound.

    store = GuildStore(database, guild_id)
    async with store.league_change(actor_id, "club.approve", "club:x") as uow:
        await uow.club_admins.add("x", user_id)
        await uow.outbox.post(channel_id, content="Club x approved")
        await uow.jobs.schedule("reminder", "club:x", due_at)

Everything written through `uow` commits together with the change's one audit row, or nothing
does. Then the listeners registered with `on_commit(database, listener)` hear what it left.

A league use case takes a `LeagueUnit` from `league_change`, a tour use case a `TourUnit` from
`tour_change`. Each builds the shared repositories and its own competition's, so mypy proves a
tour use case never touches a league repository. `change` gives a `GuildUnit` with both, for the
scheduler and the pin refresher. Reads go through `async with store.read() as view:`.

To add a repository, write a reader class taking a `ReadScope` and a repository subclassing it
taking a `WriteScope`. Then add one attribute in `GuildView` and one in the unit of work of its
competition, as docs/foundation.md shows.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from storage.engine.codecs import to_text
from storage.engine.database import Database
from storage.engine.scope import ReadScope, WriteScope
from storage.league.club_admins import ClubAdminReader, ClubAdminRepository
from storage.league.clubs import ClubReader, ClubRepository
from storage.league.decisions import DecisionReader, DecisionRepository
from storage.league.lookups import LookupReader
from storage.league.matches import MatchReader, MatchRepository
from storage.league.motions import MotionReader, MotionRepository
from storage.league.pins import PinReader, PinRepository
from storage.league.rosters import RosterReader, RosterRepository
from storage.league.seasons import SeasonReader, SeasonRepository
from storage.shared.audit import AuditReader
from storage.shared.guild_settings import GuildSettingsReader, GuildSettingsRepository
from storage.shared.jobs import Job, JobReader, JobRepository
from storage.shared.notifications import NotificationReader, NotificationRepository
from storage.shared.outbox import OutboxMessage, OutboxReader, OutboxRepository
from storage.shared.web_sites import WebSiteReader, WebSiteRepository
from storage.tour.events import TourEventReader, TourEventRepository
from storage.tour.games import TourGameReader, TourGameRepository
from storage.tour.lookups import TourLookupReader
from storage.tour.rulings import TourRulingReader, TourRulingRepository
from storage.tour.tours import TourReader, TourRepository


class GuildView:
    """Read-only repositories of one guild, from `GuildStore.read`."""

    def __init__(self, scope: ReadScope) -> None:
        self.guild_id = scope.guild_id
        self.settings = GuildSettingsReader(scope)
        self.club_admins = ClubAdminReader(scope)
        self.clubs = ClubReader(scope)
        self.seasons = SeasonReader(scope)
        self.matches = MatchReader(scope)
        self.rosters = RosterReader(scope)
        self.decisions = DecisionReader(scope)
        self.motions = MotionReader(scope)
        self.jobs = JobReader(scope)
        self.outbox = OutboxReader(scope)
        self.audit = AuditReader(scope)
        self.pins = PinReader(scope)
        self.web_sites = WebSiteReader(scope)
        self.notifications = NotificationReader(scope)
        self.lookups = LookupReader(scope)
        self.tours = TourReader(scope)
        self.tour_events = TourEventReader(scope)
        self.tour_games = TourGameReader(scope)
        self.tour_rulings = TourRulingReader(scope)
        self.tour_lookups = TourLookupReader(scope)


class UnitOfWork:
    """One change to one guild: the shared repositories, whose writes share one transaction.

    `details` is the audit row's details. Repositories note what they did there, and the block
    may add to them. `now` is the change's instant by the database clock, also the audit row's
    `at`. `LeagueUnit` and `TourUnit` add their competition's repositories.
    """

    def __init__(self, scope: WriteScope) -> None:
        self._scope = scope
        self.guild_id = scope.guild_id
        self.settings = GuildSettingsRepository(scope)
        self.jobs = JobRepository(scope)
        self.outbox = OutboxRepository(scope)
        self.web_sites = WebSiteRepository(scope)
        self.notifications = NotificationRepository(scope)
        self._view: GuildView | None = None
        self.abandoned = False

    @property
    def now(self) -> datetime:
        """The unit of work's instant, aware and in UTC."""
        return self._scope.now

    @property
    def bumped_seasons(self) -> set[int]:
        """The seasons whose version this unit of work bumped so far."""
        return self._scope.bumped_seasons

    def bumped_events(self) -> tuple[int, ...]:
        """The tour events whose version this unit of work bumped so far."""
        return ()

    @property
    def details(self) -> dict[str, Any]:
        """The audit details the change will record. Add to them freely."""
        return self._scope.details

    def view(self) -> GuildView:
        """Read-only repositories that see this unit of work's writes.

        Computations that take a view use it, such as the league report before and after a
        change. There is one per unit of work.
        """
        if self._view is None:
            self._view = GuildView(self._scope)
        return self._view

    @asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        """A part of the unit of work undone alone if the block raises.

        Its rows, audit details, scheduled jobs and queued messages are undone. The exception
        goes on to the caller.
        """
        jobs, messages = len(self.jobs.changed), len(self.outbox.posted)
        try:
            async with self._scope.savepoint():
                yield
        except BaseException:
            del self.jobs.changed[jobs:]
            del self.outbox.posted[messages:]
            raise

    def abandon(self) -> None:
        """Nothing to change after all: roll back at the end of the block, with no audit row."""
        self.abandoned = True


class LeagueUnit(UnitOfWork):
    """A unit of work of the league: the shared repositories and the league's."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self.club_admins = ClubAdminRepository(scope)
        self.clubs = ClubRepository(scope)
        self.seasons = SeasonRepository(scope)
        self.matches = MatchRepository(scope)
        self.rosters = RosterRepository(scope)
        self.decisions = DecisionRepository(scope)
        self.motions = MotionRepository(scope)
        self.pins = PinRepository(scope)


class TourUnit(UnitOfWork):
    """A unit of work of the tour: the shared repositories and the tour's."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self.tours = TourRepository(scope)
        self.tour_events = TourEventRepository(scope)
        self.tour_games = TourGameRepository(scope)
        self.tour_rulings = TourRulingRepository(scope)

    def bumped_events(self) -> tuple[int, ...]:
        """The tour events whose version this unit of work bumped so far."""
        return tuple(sorted(self.tour_events.bumped))


class GuildUnit(LeagueUnit, TourUnit):
    """A unit of work with both competitions' repositories.

    The scheduler and the pin refresher serve both competitions, and so do the command line and
    the tests. A use case takes a `LeagueUnit` or a `TourUnit` instead.
    """


U = TypeVar("U", bound=UnitOfWork)


@dataclass(frozen=True)
class Committed:
    """What a committed unit of work leaves for the running bot.

    The scheduler hears of its jobs, the outbox sender of its queued messages, and the pin refresher
    of the seasons and events it bumped and the messages it recorded as sent.
    """

    guild_id: int
    jobs: tuple[Job, ...]
    messages: tuple[OutboxMessage, ...]
    seasons: tuple[int, ...] = ()
    events: tuple[int, ...] = ()
    sent: tuple[int, ...] = ()


CommitListener = Callable[[Committed], None]

_LISTENERS: weakref.WeakKeyDictionary[Database, list[CommitListener]] = weakref.WeakKeyDictionary()
"""Each database's commit listeners, held here so the database knows nothing of what a unit of work
leaves."""


def on_commit(database: Database, listener: CommitListener) -> None:
    """Calls `listener` after every unit of work on `database` that commits and left something for
    the bot.

    Listeners run in the order added and must not raise.
    """
    _LISTENERS.setdefault(database, []).append(listener)


def _notify(database: Database, committed: Committed) -> None:
    """Hand a committed unit of work's jobs and messages to `database`'s listeners."""
    for listener in _LISTENERS.get(database, ()):
        listener(committed)


class _Abandoned(Exception):
    """Raised inside the transaction to roll back an abandoned unit of work."""


class GuildStore:
    """The data of one Discord guild. Nothing it hands out can read or change another's rows."""

    def __init__(self, database: Database, guild_id: int) -> None:
        if guild_id <= 0:
            raise ValueError("a guild id is a positive snowflake")
        self.database = database
        self.guild_id = guild_id

    @asynccontextmanager
    async def read(self) -> AsyncIterator[GuildView]:
        """Read-only repositories for the block. Inside a unit of work they see its writes."""
        async with self.database.read() as connection:
            yield GuildView(ReadScope(connection, self.guild_id))

    def change(
        self,
        actor_id: int | None,
        action: str,
        subject: str,
        details: dict[str, Any] | None = None,
    ) -> AbstractAsyncContextManager[GuildUnit]:
        """A unit of work with every repository, for the scheduler, the command line and tests."""
        return self._change(GuildUnit, actor_id, action, subject, details)

    def league_change(
        self,
        actor_id: int | None,
        action: str,
        subject: str,
        details: dict[str, Any] | None = None,
    ) -> AbstractAsyncContextManager[LeagueUnit]:
        """A unit of work of a league use case: the shared and the league's repositories."""
        return self._change(LeagueUnit, actor_id, action, subject, details)

    def tour_change(
        self,
        actor_id: int | None,
        action: str,
        subject: str,
        details: dict[str, Any] | None = None,
    ) -> AbstractAsyncContextManager[TourUnit]:
        """A unit of work of a tour use case: the shared and the tour's repositories."""
        return self._change(TourUnit, actor_id, action, subject, details)

    @asynccontextmanager
    async def _change(
        self,
        unit: type[U],
        actor_id: int | None,
        action: str,
        subject: str,
        details: dict[str, Any] | None = None,
    ) -> AsyncIterator[U]:
        """One unit of work of class `unit`, audited as actor, action and subject.

        It is rolled back whole if the block raises. If the block calls `uow.abandon()` it is
        rolled back with no audit row. After the commit the database's listeners learn of its
        jobs and messages. A nested change is refused.
        """
        uow: U | None = None

        def announce() -> None:  # committed (even if the task was cancelled meanwhile)
            assert uow is not None
            committed = Committed(
                self.guild_id,
                tuple(uow.jobs.changed),
                tuple(uow.outbox.posted),
                tuple(sorted(uow.bumped_seasons)),
                uow.bumped_events(),
                tuple(uow.outbox.sent),
            )
            if (
                committed.jobs
                or committed.messages
                or committed.seasons
                or committed.events
                or committed.sent
            ):
                _notify(self.database, committed)

        try:
            async with self.database.transaction(
                after_commit=announce, guild_id=self.guild_id
            ) as connection:
                scope = WriteScope(
                    connection, self.guild_id, self.database.clock(), dict(details or {})
                )
                uow = unit(scope)
                yield uow
                if uow.abandoned:
                    raise _Abandoned
                await connection.execute(
                    "INSERT INTO audit (guild_id, actor_id, action, subject, details, at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        self.guild_id,
                        actor_id,
                        action,
                        subject,
                        json.dumps(scope.details, sort_keys=True, default=str),
                        to_text(scope.now),
                    ),
                )
                if uow.jobs.changed or uow.outbox.posted:  # other processes hear of it
                    for statement, parameters in self.database.commit_notices(self.guild_id):
                        await connection.execute(statement, parameters)
        except _Abandoned:
            return

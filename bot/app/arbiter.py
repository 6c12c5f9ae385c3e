"""The Arbiter bot: a sharded discord.py bot that owns the database and the scheduler."""

from __future__ import annotations

import asyncio
import datetime as dt
import importlib
import importlib.util
import logging
import pkgutil
from typing import TypedDict

import discord
from discord.ext import commands

from bot.app.discord_endpoint import IdentifyPacer, ask_gateway, use_api
from bot.app.tree import ArbiterTree
from bot.app.ui.game_buttons import TOUR_DYNAMIC_ITEMS
from bot.app.ui.motion_buttons import DYNAMIC_ITEMS
from bot.app.ui.my_buttons import MY_DYNAMIC_ITEMS
from bot.chesscom.client import ChessComClient
from bot.kernel.config import Config
from bot.kernel.errors import UserError
from bot.kernel.mentions import NO_PINGS
from bot.league.automation.context import AutomationContext
from bot.league.electorate import Unreadable
from bot.league.jobs import register_league_jobs
from bot.league.motions.lifecycle import CLOSE_JOB, run_close_job
from bot.league.rosters.removal_checks import VERIFY_JOB, resume_verifications, verification_job
from bot.league.standings.pin import StandingsPins
from bot.league.store import StandingsCache
from bot.lichess.client import LichessClient
from bot.runtime.outbox import OutboxSender
from bot.runtime.pin_refresher import PinRefresher
from bot.runtime.scheduler import JobRegistry, Scheduler, Timer
from bot.tour.automation.context import TourAutomation
from bot.tour.events.pin import EventPins
from bot.tour.jobs import register_tour_jobs
from storage.engine.database import Database
from storage.engine.locations import open_database
from storage.engine.shards import Shards
from storage.guild import GuildStore, on_commit
from storage.shared.ownership import DatabaseOwned, Ownership, own

log = logging.getLogger(__name__)

COGS_PACKAGE = "cogs"
VOICE_WARNINGS = (
    "PyNaCl is not installed, voice will NOT be supported",
    "davey is not installed, voice will NOT be supported",
)
"""What discord.py warns when a client starts without its voice libraries.

Arbiter has no voice, so these say nothing to its operator and are filtered out of discord.py's log.
"""


def _not_about_voice(record: logging.LogRecord) -> bool:
    return record.getMessage() not in VOICE_WARNINGS


logging.getLogger("discord.client").addFilter(_not_about_voice)


def cog_names(package: str = COGS_PACKAGE) -> list[str]:
    """Every cog module under the cogs package and its competition packages, by name, found without
    importing them here.

    Examples are `cogs.setup` and `cogs.league.matches`.
    """
    return sorted(_modules_under(package))


def _modules_under(package: str) -> list[str]:
    """The modules of `package` and of its sub-packages, by name. Private ones are left out."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.submodule_search_locations is None:
        raise RuntimeError(f"cogs package {package!r} not found")
    names: list[str] = []
    for module in pkgutil.iter_modules(spec.submodule_search_locations):
        if module.name.startswith("_"):
            continue
        name = f"{package}.{module.name}"
        names.extend(_modules_under(name) if module.ispkg else [name])
    return names


def arbiter_intents() -> discord.Intents:
    """The default intents plus the privileged Server Members intent, which must be enabled in the
    Developer Portal.

    By CL-23 a motion's electorate is the members holding the director role. Members are fetched per
    guild when a motion opens, not chunked for every guild at start-up.
    """
    intents = discord.Intents.default()
    intents.members = True
    return intents


class _Sharding(TypedDict, total=False):
    """AutoShardedBot's options naming the shards of one process, or none for all it is told."""

    shard_ids: list[int]
    shard_count: int


def _sharding(shards: Shards | None) -> _Sharding:
    """`shard_ids` and `shard_count` for `shards`. Without them it gives nothing, which follows
    Discord's recommendation.
    """
    if shards is None:
        return {}
    return {"shard_ids": list(shards.ids), "shard_count": shards.count}


class ArbiterBot(commands.AutoShardedBot):
    """Arbiter: opens storage, loads every cog and starts the durable scheduler on setup."""

    def __init__(
        self,
        config: Config,
        *,
        database: Database | None = None,
        run_jobs: bool = True,
        timer: Timer | None = None,
        chesscom: ChessComClient | None = None,
        lichess: LichessClient | None = None,
        shared_ownership: bool = False,
        shards: Shards | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=arbiter_intents(),
            chunk_guilds_at_startup=False,
            tree_cls=ArbiterTree,
            help_command=None,
            allowed_mentions=NO_PINGS,  # a message that pings says whom (mentions.pinging)
            **_sharding(shards),
        )
        self.config = config
        self.jobs = JobRegistry()
        self.jobs.register(CLOSE_JOB, run_close_job)
        self.standings = StandingsCache()
        self._database = database
        self.run_jobs = run_jobs
        self.timer = timer  # None means APScheduler and real time, offline a VirtualClock
        self.scheduler: Scheduler | None = None
        self.outbox: OutboxSender | None = None
        self.pins: PinRefresher | None = None
        self._owner: Ownership | None = None
        self.shared_ownership = shared_ownership
        """Owns the database shared with other processes instead of alone, through
        `storage.shared.ownership.own`.

        The other processes are PostgreSQL shard processes, which divide the work by claims.
        """
        self.shard_plan = shards
        """The shards this process runs, of an application run by several processes on one
        PostgreSQL database.

        None means every shard Discord recommends, and every guild's work.
        """
        self._following: set[int] = set()
        self._follows: set[asyncio.Task[None]] = set()
        self._owns_chesscom = chesscom is None and bool(config.chesscom.contact.strip())
        self.chesscom: ChessComClient | None = (
            ChessComClient(config.chesscom) if self._owns_chesscom else chesscom
        )
        """The bot's one chess.com client, with one request in flight and one ETag cache, shared by
        every command and job.

        It is None without a contact, which chess.com requires.
        """
        settings = config.lichess_settings()
        self._owns_lichess = lichess is None and bool(settings.contact.strip())
        self.lichess: LichessClient | None = (
            LichessClient(settings) if self._owns_lichess else lichess
        )
        """The bot's one polite lichess client, with one request in flight.

        `/game report link:` and the tour's polling share it. It is made from
        `config.lichess_settings()` when none was given. Without a contact there is none, and
        lichess is then not read.
        """
        self._pacer = IdentifyPacer()
        self._shutdown: asyncio.Task[None] | None = None
        use_api(config.discord.api_base)

    @property
    def database(self) -> Database:
        """The open database, available from `setup_hook` on."""
        if self._database is None:
            raise RuntimeError("the database is not open yet (setup_hook has not run)")
        return self._database

    def guild_store(self, guild_id: int) -> GuildStore:
        """The repositories of one guild."""
        return GuildStore(self.database, guild_id)

    async def directors_of(self, guild_id: int) -> list[int] | Unreadable:
        """CL-23: the members of a guild holding its director role now, or why they cannot be read.

        Bots are excluded. The members come from the member cache, and the guild is chunked if it is
        not yet. They cannot be read without a director role, when the role was deleted, when the
        Server Members intent is off, or when the guild is not available.
        """
        async with self.guild_store(guild_id).read() as view:
            role_id = (await view.settings.get()).director_role_id
        if role_id is None:
            return Unreadable.NO_ROLE
        if not self.intents.members:
            return Unreadable.INTENT_OFF
        guild = self.get_guild(guild_id)
        if guild is None:
            return Unreadable.UNAVAILABLE
        role = guild.get_role(role_id)
        if role is None:
            return Unreadable.ROLE_DELETED
        if not guild.chunked:
            try:
                await guild.chunk()
            except (discord.HTTPException, discord.ClientException):
                return Unreadable.UNAVAILABLE
        return sorted(member.id for member in role.members if not member.bot)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """The gateway delivered a guild, after start-up or an outage.

        CL-21 verifications that waited for its directors run now, rather than RETRY_AFTER after
        start-up's attempt.
        """
        if self.scheduler is not None:
            await resume_verifications(self.guild_store(guild.id))

    async def open_database(self) -> Database:
        """Opens and migrates the configured database, once.

        A bot that runs jobs first takes ownership of it, and raises `DatabaseOwned` if another bot
        runs on it.
        """
        if self._database is None:
            settings = self.config.database
            database = await open_database(
                settings.location, busy_timeout_ms=settings.busy_timeout_ms
            )
            if self.run_jobs:
                try:
                    self._owner = await own(
                        database, shared=self.shared_ownership, shards=self.shard_plan
                    )
                except DatabaseOwned:
                    await database.close()
                    raise
            self._database = database
        applied = await self._database.migrate()
        if applied:
            log.info("database %s migrated to version %d", self._database.name, applied[-1])
        else:
            version = await self._database.schema_version()
            log.info("database %s at schema version %d", self._database.name, version)
        return self._database

    async def load_cogs(self) -> list[str]:
        """Adds the cogs of every module of `cogs/` and returns the modules' names.

        Each module is imported once per process and its `setup` called for this bot. discord.py's
        `load_extension` would run the module again for every bot, which costs ~50 ms a bot.
        """
        names = cog_names()
        loaded = {cog.__module__ for cog in self.cogs.values()}
        for name in names:
            if name not in loaded:
                await importlib.import_module(name).setup(self)
        return names

    async def setup_hook(self) -> None:
        """Starts the bot's parts in order.

        It opens storage, loads the cogs, starts the outbox sender and the standings pin refresher,
        which repairs stale pins. Then it starts the scheduler, which runs the jobs missed while
        down in due order and schedules the rest.
        """
        await self.open_database()
        self.add_dynamic_items(*DYNAMIC_ITEMS, *TOUR_DYNAMIC_ITEMS, *MY_DYNAMIC_ITEMS)
        loaded = await self.load_cogs()
        log.debug("loaded cogs: %s", ", ".join(loaded))
        log.info(
            "%d slash command(s) in the tree (arbiter sync publishes them)",
            len(self.tree.get_commands()),
        )
        if not self.run_jobs:
            return
        self.outbox = OutboxSender(self.database, self, timer=self.timer, shards=self.shard_plan)
        on_commit(self.database, self.outbox.on_commit)
        self.outbox.start()
        sources = (StandingsPins(self.standings), EventPins())
        self.pins = PinRefresher(self.database, sources, timer=self.timer, shards=self.shard_plan)
        on_commit(self.database, self.pins.on_commit)
        self.pins.start()
        repaired = await self.pins.repair()  # pins left stale by a change before a stop
        if repaired:
            log.debug("pins refreshed at start-up: %d", repaired)
        league = self._automation()
        register_league_jobs(self.jobs, league)
        register_tour_jobs(
            self.jobs,
            TourAutomation(self.database, self.chesscom, self.lichess, league.poll_every),
        )
        fetch, verify = verification_job(self.guild_store, self.chesscom, self.directors_of)
        self.jobs.register_fetching(VERIFY_JOB, fetch, verify)
        self.scheduler = Scheduler(
            self.database, self.jobs, timer=self.timer, shards=self.shard_plan
        )
        on_commit(self.database, self.scheduler.on_commit)
        if self._owner is not None:  # before recover(): a commit meanwhile is not missed
            await self._owner.listen(self._heard)
        self.scheduler.start()
        await self.scheduler.recover()

    def _heard(self, guild_id: int) -> None:
        """Another process committed jobs or messages of `guild_id`.

        That process is the CLI or another shard process. If the guild is this process's, it wakes
        the outbox and follows the guild's jobs.
        """
        if self.shard_plan is not None and not self.shard_plan.owns(guild_id):
            return
        if self.outbox is not None:
            self.outbox.wake()
        if self.scheduler is not None and guild_id not in self._following:
            self._following.add(guild_id)
            task = asyncio.create_task(self._follow(guild_id), name=f"follow {guild_id}")
            self._follows.add(task)
            task.add_done_callback(self._follows.discard)

    async def _follow(self, guild_id: int) -> None:
        """Puts `guild_id`'s pending jobs on the timer, with one read for a burst of notices."""
        assert self.scheduler is not None
        self._following.discard(guild_id)
        try:
            await self.scheduler.follow(guild_id)
        except Exception:  # the database: the next notice or the refill tries again
            log.exception("could not follow the jobs of guild %d", guild_id)

    def chesscom_client(self) -> ChessComClient:
        """The bot's one chess.com client, for a command that must read chess.com.

        It raises a `UserError` saying so when no contact is configured, since chess.com requires
        one.
        """
        if self.chesscom is None:
            raise UserError(
                "chess.com is not configured on this bot: its operator must set"
                " `[chesscom] contact` in config.toml (chess.com requires a contact)."
            )
        return self.chesscom

    def _automation(self) -> AutomationContext:
        """The league jobs' context, with the bot's one chess.com client.

        Without a contact, which chess.com requires, there is no client and nothing is polled.
        """
        if self.chesscom is None:
            log.warning("chesscom.contact is not set: chess.com is not polled")
        every = dt.timedelta(minutes=self.config.chesscom.poll_minutes)
        return AutomationContext(self.database, self.chesscom, every)

    async def connect(self, *, reconnect: bool = True) -> None:
        """Asks the API where the gateway is and how many sessions may start at once, then connects
        every shard.

        The gateway's address is also the one dialled after an invalid session.
        """
        gateway = await ask_gateway(self.http)
        self._pacer = IdentifyPacer(gateway.max_concurrency)
        log.info("gateway %s: %d shard(s) recommended", gateway.url, gateway.shards)
        await super().connect(reconnect=reconnect)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Waits only as long as Discord's IDENTIFY limit needs, see `IdentifyPacer`."""
        await self._pacer.wait(shard_id or 0)

    async def on_ready(self) -> None:
        """Every shard has received its guilds."""
        if self.shard_plan is not None:
            log.info("ready: %d guild(s) on %s", len(self.guilds), self.shard_plan)
        else:
            log.info("ready: %d guild(s) on %d shard(s)", len(self.guilds), self.shard_count or 1)

    async def close(self) -> None:
        """Stops everything once, see `_close`.

        A second call, such as the signal handler's and then `async with`'s, waits for the first to
        finish rather than returning early.
        """
        if self._shutdown is None:
            self._shutdown = asyncio.create_task(self._close(), name="arbiter close")
        await asyncio.shield(self._shutdown)

    async def _close(self) -> None:
        """Stop the scheduler and the outbox sender, disconnect, and close the database."""
        for task in list(self._follows):
            task.cancel()
        if self.scheduler is not None:
            await self.scheduler.shutdown()
        if self.chesscom is not None and self._owns_chesscom:
            await self.chesscom.close()
        if self.lichess is not None and self._owns_lichess:
            await self.lichess.close()
        if self.pins is not None:
            await self.pins.stop()
        if self.outbox is not None:
            await self.outbox.stop()
        await super().close()
        if self._database is not None:
            await self._database.close()
        if self._owner is not None:
            await self._owner.release()
            self._owner = None
            log.info("stopped: scheduler, outbox and gateway closed, database closed and released")


async def offline_bot(config: Config) -> ArbiterBot:
    """A bot on an in-memory database that runs no jobs.

    Its setup hook, or `login()`, loads the command tree without touching the real database, for
    sync, schema checks and the reference.
    """
    database = await Database.open(":memory:")
    return ArbiterBot(config, database=database, run_jobs=False)

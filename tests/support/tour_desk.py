"""Driving the tour through the real command tree in tests: a bot on a database file with
the harness, the guild set up (HQ, Director and Arbiter roles, announcements and an
arbiters' channel), the organiser and arbiter members, players as linked members, and
helpers to click a reply's buttons by label and to set up a tour with a drawn event."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import Config
from bot.runtime.clock import VirtualClock
from bot.tour.store import LoadedEvent
from core.tour.event_facts import round_robin
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.command_world import config_for
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Member, Outcome, Reply
from tests.support.tour_units import event_of

IN_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")
"""The mark of a test sharing its module's desk (and its event loop)."""

START = dt.datetime(2026, 5, 1, 9, tzinfo=dt.UTC)
ORGANISER_ID, ARBITER_ID, DIRECTOR_ID, MANAGER_ID = 301, 302, 303, 304
PLAYER_IDS = 5000
"""The member of the n-th player (0-based) of a desk's events is PLAYER_IDS + n."""


@dataclass
class Desk:
    """A running bot with its harness and clock, and the cast."""

    bot: ArbiterBot
    harness: DiscordHarness
    clock: VirtualClock
    organiser: Member
    arbiter: Member
    director: Member

    @property
    def store(self) -> GuildStore:
        """The default guild's store."""
        return GuildStore(self.bot.database, DEFAULT_GUILD_ID)

    async def event(self, name: str) -> LoadedEvent:
        """The event named `name` as stored now."""
        return await event_of(self.store, name)

    async def first_pairing(self, event: str) -> tuple[str, str]:
        """White and Black of round 1, board 1 of the event's round robin."""
        first = round_robin((await self.event(event)).facts.players)[0]
        return str(first.white), str(first.black)

    def player(self, index: int) -> Member:
        """The member linked to the `index`-th player."""
        return self.harness.member(user_id=PLAYER_IDS + index, name=f"player{index}")

    async def run(self, path: str, caller: Member, **options: Any) -> Outcome:
        """`/path` as `caller` (an option may be called `user`)."""
        return await self.harness.run(self.harness.command_payload(path, caller, options))

    async def click(self, reply: Reply, label: str, user: Member) -> Outcome:
        """Click the button labelled `label` on an interaction reply (or a post)."""
        buttons = {c.get("label"): c for row in reply.components for c in row.get("components", [])}
        assert label in buttons, f"no button {label!r} in {list(buttons)}"
        payload = self.harness.click_payload(
            str(buttons[label]["custom_id"]),
            user,
            reply.message_id or 0,
            message=reply.data,
            channel_id=reply.channel_id,
        )
        return await self.harness.run(payload)

    async def create_event(self, tour: str, name: str, **options: Any) -> Outcome:
        """`/event create` `name` in `tour` as the organiser, with `options` (type, start …)."""
        return await self.run("event create", self.organiser, tour=tour, name=name, **options)

    async def enter(
        self, event: str, players: Sequence[str], first: int = 0, **options: Any
    ) -> None:
        """`/event player-add` each of `players` (with `options`), player n linked to
        `self.player(first + n)`."""
        for index, name in enumerate(players):
            await self.run(
                "event player-add",
                self.organiser,
                event=event,
                player=name,
                user=self.player(first + index),
                **options,
            )

    async def draw(self, event: str, seed: str = "lots") -> Outcome:
        """`/event draw` from `seed` and its Confirm clicked; the Confirm's outcome."""
        preview = await self.run("event draw", self.organiser, event=event, seed=seed)
        return await self.click(preview.reply, "Confirm", self.organiser)

    async def choices(self, path: str, user: Member, focused: str, **options: Any) -> list[str]:
        """The autocomplete values offered for option `focused`."""
        found = await self.harness.autocomplete(path, user=user, focused=focused, **options)
        return [str(choice["value"]) for choice in found]


@asynccontextmanager
async def tour_desk(
    path: Path, now: dt.datetime = START, *, set_up: bool = True, config: Config | None = None
) -> AsyncIterator[Desk]:
    """A bot on `path` (its clock at `now`; `config`, default the tests' with chess.com
    nowhere), the guild set up unless `set_up` is False."""
    clock = VirtualClock(now)
    database = await Database.open(path, clock=clock)
    bot = ArbiterBot(config or config_for(path), database=database, timer=clock)
    harness = DiscordHarness(bot)
    async with bot:
        await bot.setup_hook()
        desk = Desk(
            bot,
            harness,
            clock,
            harness.member("HQ", user_id=ORGANISER_ID, name="organiser"),
            harness.member("Arbiter", user_id=ARBITER_ID, name="arbiter"),
            harness.member("Director", user_id=DIRECTOR_ID, name="director"),
        )
        if set_up:
            manager = harness.member(permissions=harness.MANAGE_SERVER, user_id=MANAGER_ID)
            await harness.set_up(manager, announcements="announcements", arbiters_channel="general")
        await clock.advance(dt.timedelta(0))
        yield desk
    harness.check()


def module_desk(folder: str, config: Callable[[Path], Config] | None = None) -> Any:
    """A module-scoped `desk` fixture: one bot for the module's tests on a database file in a
    new `folder` (its config `config(path)`, default the tests' with chess.com nowhere)."""

    @pytest_asyncio.fixture(scope="module", loop_scope="module", name="desk")
    async def desk(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Desk]:
        path = tmp_path_factory.mktemp(folder) / "tour.db"
        async with tour_desk(path, config=None if config is None else config(path)) as running:
            yield running

    return desk


async def drawn_event(
    desk: Desk,
    players: Sequence[str],
    *,
    tour: str = "Tour",
    event: str = "Open",
    kind: str = "regular",
    seed: str = "lots",
    create_tour: bool = True,
    first_player: int = 0,
) -> Outcome:
    """A tour (unless it exists) with an event of `players` (player n linked to member
    `desk.player(first_player + n)`), drawn from `seed` and confirmed; the Confirm's outcome."""
    if create_tour:
        await desk.run("tour create", desk.organiser, name=tour)
    await desk.create_event(
        tour,
        event,
        type=kind,
        start="2026-05-01",
        players=len(players),
    )
    await desk.enter(event, players, first_player)
    return await desk.draw(event, seed)

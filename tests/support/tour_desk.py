"""Driving the tour through the real command tree in tests: a bot on a database file with
the harness, the guild set up (HQ, Director and Arbiter roles, announcements and an
arbiters' channel), the organiser and arbiter members, players as linked members, and
helpers to click a reply's buttons by label and to set up a tour with a drawn event."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import Config
from bot.runtime.clock import VirtualClock
from storage.database import Database
from tests.support.command_world import config_for
from tests.support.discord_harness import DiscordHarness, Member, Outcome, Reply

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
            await harness.command(
                "setup set",
                user=manager,
                hq_role=harness.role("HQ"),
                director_role=harness.role("Director"),
                arbiter_role=harness.role("Arbiter"),
                announcements=harness.channel("announcements"),
                arbiters_channel=harness.channel("general"),
            )
        await clock.advance(dt.timedelta(0))
        yield desk
    harness.check()


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
    await desk.run(
        "event create",
        desk.organiser,
        tour=tour,
        name=event,
        type=kind,
        start="2026-05-01",
        players=len(players),
    )
    for index, name in enumerate(players):
        await desk.run(
            "event player-add",
            desk.organiser,
            event=event,
            player=name,
            user=desk.player(first_player + index),
        )
    preview = await desk.run("event draw", desk.organiser, event=event, seed=seed)
    return await desk.click(preview.reply, "Confirm", desk.organiser)

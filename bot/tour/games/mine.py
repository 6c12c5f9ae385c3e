"""`/my games` as a read use case: a member's open tour games and what each awaits.

A game awaits its result from its session on, a report awaits the opponent's confirmation or the
bot's after the tour's waiting time, and a disputed report awaits an arbiter.
"""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass

from bot.tour.game_targets import open_targets
from bot.tour.schedule import target_session
from bot.tour.store import read_loaded
from core.tour.game_reports import Party, ReportStatus, confirm_deadline
from storage.guild import GuildStore


class GameAwaits(enum.Enum):
    """What an open game waits for, seen from the member who plays it."""

    RESULT = "result"
    """No report yet: a player reports the result once the session has started."""
    MY_ANSWER = "my answer"
    """A report waits for this member to confirm or dispute it."""
    THEIR_ANSWER = "their answer"
    """This member's report waits for the opponent."""
    ARBITER = "arbiter"
    """A disputed report waits for an arbiter's decision."""


@dataclass(frozen=True)
class MyGame:
    """An open game of the member: its event, name, opponent and what it awaits.

    `when` is the session's start for a game to play, or the bot's confirmation for a report.
    `game_id` is the stored game a report is on, else None.
    """

    event: str
    name: str
    opponent: str
    awaits: GameAwaits
    when: dt.datetime | None
    game_id: int | None


async def my_games(store: GuildStore, user_id: int) -> tuple[MyGame, ...]:
    """The open games of this guild's events that `user_id` plays, as linked to a tour player.

    An event before its draw or imported by its results has none.
    """
    now = store.database.clock()
    found: list[tuple[dt.datetime, MyGame]] = []
    async with store.read() as view:
        for tour in await view.tours.all():
            player = await view.tours.player_of_user(tour.id, user_id)
            if player is None:
                continue
            for event_id in sorted(await view.tour_events.events_of_player(player.id)):
                record = await view.tour_events.get(event_id)
                if record is None or record.drawn_at is None or record.recorded:
                    continue
                loaded = await read_loaded(store, view, record)
                me = loaded.player_of_user(user_id)
                for target in open_targets(loaded):
                    if me not in (target.white, target.black):
                        continue
                    starts = target_session(loaded, tour.rules, target, now).starts
                    opponent = target.black if me == target.white else target.white
                    row = target.row
                    awaits = GameAwaits.RESULT
                    when: dt.datetime | None = starts
                    if row is not None and row.status is ReportStatus.DISPUTED:
                        awaits, when = GameAwaits.ARBITER, None
                    elif row is not None and row.status is ReportStatus.REPORTED:
                        mine = Party.WHITE if me == target.white else Party.BLACK
                        awaits = (
                            GameAwaits.THEIR_ANSWER
                            if row.reported_side is mine
                            else GameAwaits.MY_ANSWER
                        )
                        reported = row.reported_at
                        hours = tour.rules.confirm_hours
                        when = None if reported is None else confirm_deadline(reported, hours)
                    game_id = None if row is None else row.id
                    game = MyGame(record.name, target.name, opponent, awaits, when, game_id)
                    found.append((starts, game))
    return tuple(game for _, game in sorted(found, key=lambda pair: pair[0]))

"""CCT-11 fair-play appeals.

A player of the event lodges one about a game, in writing, by 23:59 in the appeals zone on the day
of the game's playing session. The zone is Europe/Paris. A later appeal is refused and nothing is
stored. An accepted one is recorded with its timestamp and deadline. An arbiter decides it, upheld
or dismissed with a reason, and the decision is announced. The player who lodged it is told by
direct message where they chose it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.kernel.inputs import NOTE_LIMIT, clean_text, named
from bot.kernel.notifications import Kind
from bot.rendering.tour import cards as tour_cards
from bot.rendering.tour import direct
from bot.runtime.announce import announce
from bot.runtime.notify import notify
from bot.tour.game_names import TIE_OF
from bot.tour.game_targets import GameTarget, find_target
from bot.tour.notices import record_channel
from bot.tour.references import find_appeal, find_event, find_tour
from bot.tour.schedule import game_day, session_date
from bot.tour.store import LoadedEvent, load_event
from core.tour.appeals import (
    AppealDecision,
    LodgedAppeal,
    check_undecided,
    decide_appeal,
    second_appeal,
)
from core.tour.event_facts import round_robin
from core.tour.rules import TourRules
from storage.guild import GuildStore
from storage.tour.rulings import Appeal

APPEAL_LIMIT = 1500
"""Characters of an appeal's text, which must fit the announcement."""
Decision = Literal["upheld", "dismissed"]


@dataclass(frozen=True)
class AppealLodged:
    """An appeal recorded: its number, the game and the deadline it met."""

    id: int
    event: str
    game: str
    decision: AppealDecision


def appeal_check(
    loaded: LoadedEvent, target: GameTarget, rules: TourRules, now: dt.datetime
) -> AppealDecision:
    """CCT-11: whether an appeal lodged `now` about `target` is in time.

    The deadline is 23:59 in the tour's appeals zone on the day of its session.
    """
    rounds = max((p.round for p in round_robin(loaded.facts.players)), default=1)
    tie = TIE_OF.get((target.contest or "").casefold()) if target.stage == "knockout" else None
    day = game_day(
        loaded.record, round_no=target.round, rounds=rounds, tie=tie, match_no=target.match_no
    )
    return decide_appeal(
        now, session_date(loaded.record, day), rules.appeal_zone, rules.appeal_deadline
    )


async def lodge_appeal(
    store: GuildStore, actor: Actor, event: str, game: str, text: str
) -> AppealLodged:
    """CCT-11: a player's appeal about a game of their event, refused after the deadline
    and when it is their second about that game."""
    user = actor.require_user()
    body = clean_text(text, "appeal", APPEAL_LIMIT)
    async with store.tour_change(actor.user_id, "appeal.lodge", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        tour = await find_tour(view, record.tour_id)
        loaded = await load_event(view, record)
        mine = await uow.tours.player_of_user(record.tour_id, user)
        if mine is None or mine.id not in loaded.names:
            raise UserError(
                f"This needs a **player** of {named(record.name)}: only its players lodge appeals."
            )
        target = find_target(loaded, game)
        decision = appeal_check(loaded, target, tour.rules, uow.now)
        if not decision.accepted:
            raise UserError(f"Appeal refused: {decision.reason}.")
        earlier = [
            LodgedAppeal(a.id, a.status, a.lodged_at)
            for a in await uow.tour_rulings.appeals(record.id)
            if a.player_id == mine.id and a.game == target.name
        ]
        repeated = second_appeal(earlier, tour.rules.appeal_zone)
        if repeated is not None:
            raise UserError(f"Appeal refused: {repeated}.")
        appeal_id = await uow.tour_rulings.add_appeal(
            record.id, target.name, mine.id, user, body, decision.deadline
        )
        await announce(
            uow, tour_cards.appeal_notice(appeal_id, record.name, target.name, mine.name)
        )
        return AppealLodged(appeal_id, record.name, target.name, decision)


async def decide(
    store: GuildStore, actor: Actor, appeal: int, decision: Decision, reason: str
) -> Appeal:
    """CCT-11: an arbiter's decision on an open appeal, with the reason, announced."""
    actor.require(Role.ARBITER)
    if decision not in ("upheld", "dismissed"):
        raise UserError("The decision is upheld or dismissed.")
    why = clean_text(reason, "reason", NOTE_LIMIT)
    async with store.tour_change(actor.user_id, "appeal.decide", f"appeal:{appeal}") as uow:
        found = await find_appeal(uow.view(), appeal)
        try:
            check_undecided(found.status, found.id)
        except ValueError as error:
            raise UserError(f"{str(error).capitalize()} (CCT-11).") from None
        if not await uow.tour_rulings.decide_appeal(found.id, decision, why, actor.user_id):
            raise UserError(f"Appeal {found.id} was decided meanwhile: it is decided once.")
        record = await uow.tour_events.get(found.event_id)
        assert record is not None
        await announce(uow, tour_cards.appeal_decided(found.id, record.name, decision, why))
        decided = await uow.tour_rulings.appeal(found.id)
        assert decided is not None
        await notify(
            uow,
            Kind.APPEAL,
            [decided.lodged_by],
            channel_id=await record_channel(uow),
            content=direct.appeal_decided(found.id, record.name, found.game, decision, why),
        )
        return decided

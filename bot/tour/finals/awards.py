"""CCT-9 `/finals award`: an arbiter gives a Finals match to one player without play.

The reason is a withdrawal, a no-show, illness, or another with a note. It scores as a rapid win,
3/0, by CCT-8f and `core.tour.finals.AWARD_DECIDED_BY`. The preview, the unit of work and the
refusals are those of a series' award in `bot.tour.series.awards`.
"""

from __future__ import annotations

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from bot.rendering.tour import cards as tour_cards
from bot.tour.game_names import finals_key
from bot.tour.game_targets import finals_label, finals_match
from bot.tour.planning.follow import event_finished
from bot.tour.references import find_event
from bot.tour.series.awards import AwardPlan, award_in_event, award_reason, store_award
from bot.tour.store import load_event
from core.tour.event_facts import award_finals_match
from core.tour.finals import DEFAULT_FINALS_SCORING as SCORING
from core.tour.ranking import EventType
from storage.guild import GuildStore


async def award_contest_finals(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    match: str,
    winner: str,
    reason: str,
    note: str | None = None,
    *,
    confirm: bool,
) -> AwardPlan:
    """CCT-9 with CCT-8f: the Finals match `match` awarded to `winner` without play.

    The match is named as in `R2 A v B`. It scores 3/0 as a rapid win, as
    `core.tour.finals.AWARD_DECIDED_BY` says.
    """
    actor.require(Role.ARBITER)
    why, text = award_reason(reason, note)
    async with store.tour_change(actor.user_id, "finals.award", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        if record.type is not EventType.FINALS:
            raise UserError(f"{named(record.name)} is not the Finals: `/series award`.")
        if record.recorded:
            raise UserError(f"{named(record.name)} was imported by its results: it stands.")
        loaded = await load_event(view, record)
        if not loaded.facts.players:
            raise UserError(f"{named(record.name)} has no draw yet (`/event draw`).")
        state = finals_match(loaded, match)
        key, label = finals_key(state.pairing.round, state.pairing.board), finals_label(state)
        players = (str(state.pairing.white), str(state.pairing.black))
        who, row, after = award_in_event(
            loaded,
            key,
            label,
            players,
            winner,
            lambda who: award_finals_match(state, who, why, text),
        )
        loser = players[1] if who == players[0] else players[0]
        played = sum(1 for g in loaded.games if g.contest == key)
        follows: tuple[str, ...] = (
            f"{tour_cards.name(who)} {SCORING.rapid_win} match points, "
            f"{tour_cards.name(loser)} {SCORING.rapid_loss} (CCT-8f)",
        )
        if event_finished(after):
            follows += (f"{tour_cards.name(record.name)} are over: the table is final",)
        plan = AwardPlan(record.name, label, who, loser, why, text, played, follows)
        return await store_award(uow, loaded, after, row, plan, confirm=confirm)

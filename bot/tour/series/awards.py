"""CCT-9 awards without play: an arbiter gives a knock-out series to one player with `/series
award`.

The reason is a withdrawal, a no-show, illness, or another with a note. A preview says who gets what
and what follows. Confirm stores the award, its audit row and its announcement in one unit of work.
Only an undecided contest may be awarded. Games already played stay recorded and shown, and the
award decides the contest. A Finals match's award in `bot.tour.finals.awards` and a game's in
`bot.tour.games.service` share its pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.kernel.inputs import NOTE_LIMIT, clean_text, named, shown
from bot.rendering.tour import cards as tour_cards
from bot.runtime.announce import announce
from bot.tour.finals_bonus import check_bonus_fixed
from bot.tour.game_names import ROUND_NAMES, normal
from bot.tour.game_targets import tie_named
from bot.tour.planning.follow import follow_award
from bot.tour.references import find_event
from bot.tour.store import LoadedEvent, load_event
from core.tour.event_facts import (
    AwardReason,
    AwardRefused,
    ContestRecord,
    award_series,
    knockout_state,
)
from core.tour.knockout import KnockoutError, Tie
from core.tour.ranking import EventType
from storage.guild import GuildStore, TourUnit
from storage.tour.games import ContestRow

REASONS: dict[str, AwardReason] = {reason.value: reason for reason in AwardReason}
"""CCT-9: the reasons of an award, by their option names."""


@dataclass(frozen=True)
class AwardPlan:
    """An award as its preview shows it.

    It holds the contest, who gets it and who loses it, why, how many games were played before it,
    which are kept, and what follows in the event.
    """

    event: str
    contest: str
    winner: str
    loser: str
    reason: AwardReason
    note: str | None
    played: int
    follows: tuple[str, ...]


def award_reason(reason: str, note: str | None) -> tuple[AwardReason, str | None]:
    """The reason, one of `REASONS`, and the note as typed, checked. By CCT-9 `other` needs a
    note.
    """
    if reason not in REASONS:
        raise UserError(f"No reason {shown(reason)}: one of {', '.join(REASONS)}.")
    text = None if note is None else clean_text(note, "note", NOTE_LIMIT, required=False) or None
    if REASONS[reason] is AwardReason.OTHER and text is None:
        raise UserError("An award for another reason needs a short `note` saying why (CCT-9).")
    return REASONS[reason], text


def award_player(typed: str, players: Sequence[str], contest: str) -> str:
    """The player of `players` the arbiter named, case and spacing aside, or a refusal."""
    for player in players:
        if normal(player) == normal(typed):
            return player
    raise UserError(
        f"{shown(typed)} does not play {named(contest)}: {named(players[0])} or "
        f"{named(players[1])}."
    )


def refuse_waiting(loaded: LoadedEvent, key: str, label: str) -> None:
    """A contest whose game waits for a confirmation is settled first: the award would leave
    that report hanging."""
    waiting = [g for g in loaded.games if g.contest == key and not g.status.settled]
    if waiting:
        raise UserError(
            f"{named(loaded.game_name(waiting[0]))} waits for its result to be settled: confirm "
            f"or decide it before awarding {named(label)}."
        )


def award_in_event(
    loaded: LoadedEvent,
    key: str,
    label: str,
    players: tuple[str, str],
    winner: str,
    award: Callable[[str], ContestRecord],
) -> tuple[str, ContestRow, LoadedEvent]:
    """CCT-9: the contest `key` awarded by `award` to the player `winner` names.

    It returns who gets it, the contest's row with the award and the event after it. A refused
    award, or a game of the contest still waiting, is refused with one line.
    """
    who = award_player(winner, players, label)
    try:
        record = award(who)
    except AwardRefused as error:
        raise UserError(f"Not awarded: {error}.") from None
    refuse_waiting(loaded, key, label)
    row = contest_row(loaded, key, record_data(loaded, players, record))
    return who, row, loaded.with_contest(row)


def record_data(
    loaded: LoadedEvent, players: tuple[str, str], record: ContestRecord
) -> dict[str, Any]:
    """The award as stored: the tour file's round with `walkover` and `reason`, by CCT-9."""
    ids = loaded.ids
    data: dict[str, Any] = {
        "a": ids[players[0]],
        "b": ids[players[1]],
        "winner": ids[str(record.winner)],
        "walkover": True,
        "decided": "rapid" if record.rapid else "tiebreak",
        "reason": None if record.reason is None else record.reason.value,
    }
    if record.note is not None:
        data["note"] = record.note
    return data


def _knockout_follows(before: LoadedEvent, after: LoadedEvent, tie: Tie) -> tuple[str, ...]:
    """CCT-8c/CCT-6: what the award decides next — a round whose players are now known, the
    event's winner or the 3rd place."""
    old = knockout_state(before.facts)
    new = knockout_state(after.facts)
    winner = str(new.winners[tie])
    lines: list[str] = []
    for later, state in new.ties.items():
        if later in old.ties:
            continue
        pairing = state.pairing
        lines.append(
            f"{ROUND_NAMES[later]}: {tour_cards.name(pairing.higher)} v "
            f"{tour_cards.name(pairing.lower)}"
        )
    if not lines and tie in _ONWARD:
        lines.append(f"{tour_cards.name(winner)} goes on to {ROUND_NAMES[_ONWARD[tie]]}")
    if tie is Tie.FINAL:
        lines.append(f"{tour_cards.name(winner)} wins {tour_cards.name(after.record.name)}")
    if tie is Tie.THIRD_PLACE:
        lines.append(f"{tour_cards.name(winner)} is 3rd (CCT-6)")
    if new.finished and not old.finished:
        lines.append(f"{tour_cards.name(after.record.name)} is over: placings and tour points")
    return tuple(lines)


_ONWARD: dict[Tie, Tie] = {
    Tie.QF1: Tie.SF1,
    Tie.QF4: Tie.SF1,
    Tie.QF2: Tie.SF2,
    Tie.QF3: Tie.SF2,
    Tie.SF1: Tie.FINAL,
    Tie.SF2: Tie.FINAL,
}
"""CCT-8c: the round a round's winner goes on to."""


async def store_award(
    uow: TourUnit,
    before: LoadedEvent,
    after: LoadedEvent,
    row: ContestRow,
    plan: AwardPlan,
    *,
    confirm: bool,
) -> AwardPlan:
    """The award, its announcement and the jobs it calls for, in the unit of work.

    Without `confirm` nothing is stored and the plan is the preview.
    """
    if not confirm:
        uow.abandon()
        return plan
    assert row.recorded is not None
    await uow.tour_games.award_contest(before.record.id, row.key, row.recorded)
    await uow.tour_events.bump(before.record.id)
    uow.details["award"] = {"contest": plan.contest, "reason": plan.reason.value}
    await follow_award(uow, before, after)
    await announce(
        uow,
        tour_cards.award_notice(
            plan.event, plan.contest, plan.winner, plan.loser, plan.reason.value, plan.note
        ),
    )
    return plan


async def award_contest_series(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    round: str,
    winner: str,
    reason: str,
    note: str | None = None,
    *,
    confirm: bool,
) -> AwardPlan:
    """CCT-9: the knock-out round `round` awarded to `winner` without play.

    Without `confirm` it gives a preview. With it the award is stored and announced, and the bracket
    follows.
    """
    actor.require(Role.ARBITER)
    why, text = award_reason(reason, note)
    async with store.tour_change(actor.user_id, "series.award", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        if record.type is EventType.FINALS:
            raise UserError("A Finals match is awarded with `/finals award`.")
        if record.recorded:
            raise UserError(f"{named(record.name)} was imported by its results: it stands.")
        await check_bonus_fixed(uow, record)
        loaded = await load_event(view, record)
        tie, state = tie_named(loaded, round)
        key = ROUND_NAMES[tie]
        players = (str(state.pairing.higher), str(state.pairing.lower))
        who, row, after = award_in_event(
            loaded, key, key, players, winner, lambda who: award_series(state, who, why, text)
        )
        try:
            follows = _knockout_follows(loaded, after, tie)
        except KnockoutError as error:
            raise UserError(f"That award cannot stand: {error}") from None
        loser = players[1] if who == players[0] else players[0]
        played = sum(1 for g in loaded.games if g.contest == key)
        plan = AwardPlan(record.name, key, who, loser, why, text, played, follows)
        return await store_award(uow, loaded, after, row, plan, confirm=confirm)


def contest_row(loaded: LoadedEvent, key: str, data: dict[str, Any]) -> ContestRow:
    """The contest's row with the award as its record. Its colour choices are kept."""
    row = loaded.contests.get(key)
    if row is None:
        return ContestRow(key, None, None, None, None, data)
    return replace(row, recorded=data)

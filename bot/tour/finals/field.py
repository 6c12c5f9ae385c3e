"""The Finals field as it forms, by CCT-3 and its Interpretation.

An organiser records that a qualified player declined the Finals, and the place goes to the next in
line. This shows a preview, then Confirm audits and announces it in one unit of work. An organiser
may also withdraw a mistaken decline before the draw. The field itself is derived by
`core.tour.qualification.finals_field` from the stored facts: the declines, where their places went,
the wildcards and the places open.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError, changed_since_preview
from bot.kernel.inputs import NOTE_LIMIT, named, optional_text
from bot.rendering.tour import cards as tour_cards
from bot.runtime.announce import announce
from bot.tour.references import find_event, find_player, find_tour
from bot.tour.store import LoadedEvent, LoadedTour, load_tour
from core.tour.qualification import (
    Decline,
    FinalsField,
    FinalsFieldError,
    check_decline,
    check_entry,
    field_problem,
)
from core.tour.ranking import EventType, TourError
from storage.guild import GuildStore, GuildView, TourUnit
from storage.tour.events import TourEventRecord
from storage.tour.tours import TourPlayer


@dataclass(frozen=True)
class DeclinePlan:
    """CCT-3: a decline or its withdrawal as its preview shows it.

    It holds the player, where the place goes and the places left open after it. `replaced_by` is
    nobody when the lists cannot fill the place. `stored` is set once confirmed.
    """

    event: TourEventRecord
    player: str
    note: str | None
    replaced_by: tuple[str, ...]
    open_places: int
    stored: bool


async def _finals_in_setup(view: GuildView, event: str | int) -> TourEventRecord:
    """The Finals `event` names, before their draw. By CCT-3 the field is set until then."""
    record = await find_event(view, event)
    if record.type is not EventType.FINALS:
        raise UserError(f"{named(record.name)} is not the Finals: only the Finals take declines.")
    if record.drawn_at is not None:
        raise UserError(
            f"The Finals {named(record.name)} are drawn: their field cannot change any more "
            "(CCT-3)."
        )
    return record


def _named(player: object) -> str:
    """A player's name as a refusal marks it."""
    return named(str(player))


def refusal(error: FinalsFieldError) -> UserError:
    """CCT-3: a refusal of the field's rules as one line, with names marked by the checks."""
    text = str(error)
    return UserError(f"{text[:1].upper()}{text[1:]} (CCT-3).")


def field_of(loaded: LoadedTour, record: TourEventRecord) -> tuple[LoadedEvent, FinalsField]:
    """CCT-3: the Finals event as loaded and its field.

    A list the rules cannot give, such as more Major winners than places, is refused.
    """
    finals = next(e for e in loaded.events if e.record.id == record.id)
    try:
        return finals, loaded.finals_field(finals)
    except TourError as error:
        raise UserError(f"Qualification for {named(record.name)}: {error}.") from None


async def _loaded(view: GuildView, record: TourEventRecord) -> LoadedTour:
    return await load_tour(view, await find_tour(view, record.tour_id))


def _decline_of(field: FinalsField, player: str) -> Decline:
    return next(d for d in field.declines if d.player == player)


async def decline(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    player: str,
    *,
    note: str | None = None,
    confirm: bool,
    previewed: tuple[str, ...] | None = None,
) -> DeclinePlan:
    """CCT-3: `player`, offered a Finals place, declined it.

    The place goes to the next in the tour standings, and an Ambassador place to the next
    Ambassador. Otherwise it stays open for a wildcard. Without `confirm` nothing is stored and a
    preview is given. With it the decline is stored and announced, unless its place would now go
    elsewhere than `previewed`.
    """
    actor.require(Role.HQ)
    text = optional_text(note, "note", NOTE_LIMIT)
    async with store.tour_change(actor.user_id, "finals.decline", f"event:{event}") as uow:
        view = uow.view()
        record = await _finals_in_setup(view, event)
        loaded = await _loaded(view, record)
        found = await find_player(view, loaded.record, player)
        finals, field = field_of(loaded, record)
        entered = [p.name for p in finals.players]
        try:
            check_decline(field, found.name, entered, name=_named)
        except FinalsFieldError as error:
            raise refusal(error) from None
        after = _with_decline(loaded, finals, found.name)
        went = _decline_of(after, found.name).replaced_by
        plan = DeclinePlan(
            record, found.name, text, tuple(map(str, went)), after.open_places, confirm
        )
        if not confirm:
            uow.abandon()
            return plan
        if previewed is not None and previewed != plan.replaced_by:
            raise changed_since_preview(
                f"The Finals list of {named(record.name)}",
                "/finals decline",
                "where the place goes",
            )
        await uow.tour_events.add_decline(record, found.id, text, actor.user_id)
        uow.details["replaced_by"] = list(plan.replaced_by)
        await announce(uow, tour_cards.finals_declined(record.name, plan.player, plan.replaced_by))
        return plan


def _with_decline(loaded: LoadedTour, finals: LoadedEvent, player: str) -> FinalsField:
    """The field once `player` declined too, which answers the preview's question of where the
    place goes.
    """
    return loaded.finals_field(finals, (*(d.name for d in loaded.declines), player))


async def withdraw_decline(
    store: GuildStore, actor: Actor, event: str | int, player: str
) -> DeclinePlan:
    """CCT-3: a mistaken decline withdrawn before the draw.

    The player is offered their place again, and whoever it went to is not. It is refused when that
    player, or a wildcard for a place no longer open, is already entered in the Finals.
    """
    actor.require(Role.HQ)
    async with store.tour_change(actor.user_id, "finals.decline_undo", f"event:{event}") as uow:
        view = uow.view()
        record = await _finals_in_setup(view, event)
        loaded = await _loaded(view, record)
        found: TourPlayer = await find_player(view, loaded.record, player)
        finals, field = field_of(loaded, record)
        if found.name not in field.declined:
            raise UserError(
                f"{named(found.name)} has not declined {named(record.name)}: there is no "
                "decline to withdraw."
            )
        went = tuple(map(str, _decline_of(field, found.name).replaced_by))
        kept = tuple(d.name for d in loaded.declines if d.name != found.name)
        after = loaded.finals_field(finals, kept)
        wildcards = [p.name for p in finals.players if p.wildcard]
        problem = field_problem(after, [p.name for p in finals.players], wildcards, _named)
        if problem is not None:
            raise UserError(
                f"Withdrawing the decline of {named(found.name)} would leave a field the rules "
                f"do not give: {problem}. Take that player out of the Finals first (CCT-3)."
            )
        await uow.tour_events.remove_decline(record.id, found.id)
        await announce(uow, tour_cards.finals_decline_withdrawn(record.name, found.name, went))
        return DeclinePlan(record, found.name, None, went, after.open_places, True)


async def check_field(uow: TourUnit, record: TourEventRecord, doing: str = "drawn") -> None:
    """CCT-3: checks that the Finals' entries are a field the rules give.

    It is checked at the draw, where a later event may have changed the list since the players were
    entered, and on import.
    """
    loaded = await _loaded(uow.view(), record)
    finals, field = field_of(loaded, record)
    wildcards = [p.name for p in finals.players if p.wildcard]
    problem = field_problem(field, [p.name for p in finals.players], wildcards, _named)
    if problem is not None:
        raise UserError(f"The Finals {named(record.name)} cannot be {doing}: {problem} (CCT-3).")


async def check_entry_of(
    uow: TourUnit, record: TourEventRecord, player: str, wildcard: bool
) -> None:
    """CCT-3: checks that `player` may enter the Finals `record`.

    The player must be offered a place, or be a `wildcard` into an open place. Otherwise it is
    refused with one line saying why.
    """
    loaded = await _loaded(uow.view(), record)
    _, field = field_of(loaded, record)
    try:
        check_entry(field, player, wildcard=wildcard, name=_named)
    except FinalsFieldError as error:
        raise refusal(error) from None

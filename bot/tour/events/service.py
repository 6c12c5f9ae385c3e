"""Event use cases, each one audited unit of work.

An event is created in a tour with its rules frozen by CCT-2 and CCT-16. Players are entered and
taken out before the draw. The drawing of lots for pairing numbers gives the Berger pairings by
CORE-1 and CCT-8a. The knock-out is built from the final preliminary order by CCT-8b and CCT-8c. The
draw and the knock-out show a preview first, then store on confirm. The draw's pairings are
announced in the same unit of work.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError, changed_since_preview
from bot.kernel.inputs import NAME_LIMIT, clean_text, named, optional_text, shown
from bot.rendering.tour import cards as tour_cards
from bot.rendering.tour.points import scoring_line, table_line
from bot.runtime.announce import announce
from bot.tour.finals import field as finals_field
from bot.tour.planning import plan as automation
from bot.tour.points_input import scoring_option, table_option
from bot.tour.references import find_event, find_tour
from bot.tour.schedule import round_starts
from bot.tour.store import load_event, load_tour
from core.berger import MAX_PLAYERS, MIN_PLAYERS, draw_lots
from core.results import Scoring
from core.standings import PlayerStanding
from core.tiebreaks import DeReading
from core.tour.calendar import check_start
from core.tour.event_facts import (
    Pairing,
    preliminary_complete,
    preliminary_standings,
    round_robin,
)
from core.tour.knockout import QUARTER_FINALS
from core.tour.preliminary import ties_for_places_going_on
from core.tour.ranking import KNOCKOUT_PLACES, EventType, PointsTable
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS
from storage.guild import GuildStore, TourUnit
from storage.tour.events import NewEvent, TourEventRecord
from storage.tour.games import NewGame
from storage.tour.tours import TourPlayer, TourRecord

SEED_LIMIT = 100
"""Characters of a draw seed."""


def seed_text(value: str | None, what: str) -> str | None:
    """CCT-8a: a seed as typed, trimmed and through the name gate, without a backtick.

    It is shown as code, `seed`, which a backtick would end early.
    """
    seed = optional_text(value, what, SEED_LIMIT)
    if seed is not None and "`" in seed:
        raise UserError(f"A {what} may not hold a backtick (`).")
    return seed


def new_seed() -> str:
    """CCT-8a: a fresh random seed for a drawing of lots, shown and stored with the draw."""
    return secrets.token_hex(6)


@dataclass(frozen=True)
class EntryChanged:
    """A player entered in or taken out of an event, and how many it has now."""

    event: TourEventRecord
    player: TourPlayer
    players: int


@dataclass(frozen=True)
class DrawPlan:
    """CCT-8a: a draw with its seed, the players by pairing number, the Berger pairings and their
    sessions' starts.

    The seed is None when the numbers were given. `stored` is set once confirmed.
    """

    event: TourEventRecord
    seed: str | None
    numbers: tuple[str, ...]
    pairings: tuple[Pairing, ...]
    starts: dict[int, dt.datetime]
    stored: bool


@dataclass(frozen=True)
class KnockoutPlan:
    """CCT-8c: the knock-out from the final preliminary order.

    It holds the standings, the 8 seeds and the quarter-finals, higher-ranked first. `stored` is set
    once confirmed.
    """

    event: TourEventRecord
    standings: tuple[PlayerStanding, ...]
    seeds: tuple[str, ...]
    quarter_finals: tuple[tuple[str, str, str], ...]
    lots_seed: str | None
    stored: bool


def _start(text: str) -> dt.date:
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise UserError(f"{shown(text)} is not a date: write it as YYYY-MM-DD.") from None
    try:
        check_start(day)
    except ValueError as error:
        raise UserError(f"The start {error}.") from None
    return day


async def create_event(
    store: GuildStore,
    actor: Actor,
    tour: str,
    name: str,
    event_type: EventType,
    start: str,
    *,
    players: int | None = None,
    third_place_match: bool = True,
    tiebreaks: DeReading = DeReading.CCT,
    reminder_minutes: int | None = None,
    points: str | None = None,
    scoring: str | None = None,
) -> TourEventRecord:
    """CCT-2 and CCT-16: a new event, last of its tour, with its values frozen.

    Its size is the tour's size for its type unless `players` is given. Its CCT-6 points table, its
    CCT-8a preliminary game scoring, its time controls and its round reminder are the tour's, unless
    `points`, `scoring` or `reminder_minutes` give its own. The Finals come last and once.
    """
    actor.require(Role.HQ)
    title = clean_text(name, "event name", NAME_LIMIT)
    day = _start(start)
    if event_type is EventType.FINALS and (points is not None or scoring is not None):
        raise UserError(
            "The Finals pay no tour points and have no preliminary: `points` and `scoring` "
            "are for Regular and Major events (CCT-6, CCT-8f)."
        )
    own_scoring = scoring_option(scoring)
    async with store.tour_change(actor.user_id, "event.create", f"tour:{tour}") as uow:
        record = await find_tour(uow.view(), tour)
        rules = record.rules
        size = rules.sizes[event_type] if players is None else players
        if not MIN_PLAYERS <= size <= MAX_PLAYERS:
            raise UserError(
                f"An event has {MIN_PLAYERS} to {MAX_PLAYERS} players (Berger tables), not {size}."
            )
        finals = rules.sizes[EventType.FINALS]
        if event_type is EventType.FINALS and size != finals:
            raise UserError(
                f"The Finals of {named(record.name)} have {finals} players, the tour's size "
                "frozen at its creation (CCT-8f, CCT-16)."
            )
        if event_type is not EventType.FINALS and size < KNOCKOUT_PLACES:
            raise UserError(
                f"A {event_type.value} event needs at least {KNOCKOUT_PLACES} players for its "
                "knock-out (CCT-8c)."
            )
        existing = await uow.tour_events.of_tour(record.id)
        if any(e.type is EventType.FINALS for e in existing):
            raise UserError(
                f"{named(record.name)} has its Finals already: they are the tour's last event "
                "(CCT-2)."
            )
        if any(e.name.casefold() == title.casefold() for e in existing):
            raise UserError(f"{named(record.name)} has an event named {named(title)} already.")
        table = table_option(points, "points", label=f"{title} table", players=size)
        event = NewEvent(
            title,
            event_type,
            size,
            day,
            third_place_match,
            tiebreaks,
            table or rules.points_table(event_type),
            DEFAULT_TIME_CONTROLS,
            rules.round_reminder_minutes if reminder_minutes is None else reminder_minutes,
            own_scoring or rules.scoring,
        )
        return await uow.tour_events.create(record.id, event, created_by=actor.user_id)


@dataclass(frozen=True)
class PointsPlan:
    """CCT-6 and CCT-8a: an event's tour points table and game scoring before and after a change.

    `stored` is set once confirmed.
    """

    event: TourEventRecord
    before: PointsTable | None
    after: PointsTable | None
    scoring_before: Scoring
    scoring_after: Scoring
    stored: bool


async def set_event_points(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    *,
    points: str | None = None,
    scoring: str | None = None,
    confirm: bool,
    previewed: PointsPlan | None = None,
) -> PointsPlan:
    """CCT-6, CCT-8a and CCT-16: replaces an event's own tour points table or its preliminary's game
    scoring.

    This is allowed only until its draw is confirmed, since from then on it is what the event pays.
    Without `confirm` nothing is stored and a preview is given. With it the change is stored and
    audited with the values before and after. If they are not what the `previewed` plan showed,
    because someone changed them in between, nothing is stored. A Confirm stores its preview or
    nothing.
    """
    actor.require(Role.HQ)
    if points is None and scoring is None:
        raise UserError("Give `points` (the event's table), `scoring`, or both.")
    new_scoring = scoring_option(scoring)
    async with store.tour_change(actor.user_id, "event.points", f"event:{event}") as uow:
        record = await find_event(uow.view(), event)
        if record.type is EventType.FINALS:
            raise UserError(
                "The Finals pay no tour points and have no preliminary: they have no table "
                "to change (CCT-6, CCT-8f)."
            )
        if record.recorded:
            raise UserError(
                f"{named(record.name)} was imported with its results: its tour points table "
                "and game scoring stay as they are (CCT-16)."
            )
        if record.drawn_at is not None:
            raise UserError(
                f"The draw of {named(record.name)} is confirmed: its tour points table and "
                "game scoring are frozen and stay as they are (CCT-16)."
            )
        table = table_option(points, "points", label=f"{record.name} table", players=record.size)
        after = table or record.points
        scoring_after = new_scoring or record.scoring
        if _same_table(after, record.points) and scoring_after == record.scoring:
            raise UserError(
                f"{named(record.name)} has that tour points table and game scoring already."
            )
        plan = PointsPlan(record, record.points, after, record.scoring, scoring_after, confirm)
        if not confirm:
            uow.abandon()
            return plan
        if previewed is not None and not _same_plan(previewed, plan):
            raise changed_since_preview(
                f"The tour points of {named(record.name)}", "/event points", "the change it makes"
            )
        if not await uow.tour_events.set_points(record, after, scoring_after):
            raise UserError(f"The draw of {named(record.name)} is confirmed: nothing is stored.")
        uow.details.update(_points_change(plan))
        return plan


def _same_table(one: PointsTable | None, other: PointsTable | None) -> bool:
    """CCT-6: checks that the two tables pay the same, whatever their labels say."""
    if one is None or other is None:
        return one is other
    return (one.preliminary, dict(one.knockout)) == (other.preliminary, dict(other.knockout))


def _same_plan(one: PointsPlan, other: PointsPlan) -> bool:
    """The two plans show the same tables and scorings, before and after."""
    return (
        _same_table(one.before, other.before)
        and _same_table(one.after, other.after)
        and (one.scoring_before, one.scoring_after) == (other.scoring_before, other.scoring_after)
    )


def _points_change(plan: PointsPlan) -> dict[str, object]:
    """The audit details of a points change: the table and scoring before and after."""
    return {
        "points_before": None if plan.before is None else table_line(plan.before),
        "points_after": None if plan.after is None else table_line(plan.after),
        "scoring_before": scoring_line(plan.scoring_before),
        "scoring_after": scoring_line(plan.scoring_after),
    }


async def _event_in_setup(uow: TourUnit, reference: str | int) -> TourEventRecord:
    event = await find_event(uow.view(), reference)
    if event.drawn_at is not None:
        raise UserError(
            f"The draw of {named(event.name)} is made: its players cannot change (CCT-8a)."
        )
    return event


async def add_player(
    store: GuildStore,
    actor: Actor,
    event: str,
    player: str,
    user_id: int | None = None,
    *,
    wildcard: bool = False,
) -> EntryChanged:
    """Enters a player in an event before the draw.

    The player is a tour player of that name, made when new, linked to `user_id` when given. By
    CCT-3 the Finals take a player offered a place, or a `wildcard` into a place the lists cannot
    fill.
    """
    actor.require(Role.HQ)
    name = clean_text(player, "player name", NAME_LIMIT)
    async with store.tour_change(actor.user_id, "event.player_add", f"event:{event}") as uow:
        record = await _event_in_setup(uow, event)
        entered = await uow.tour_events.players(record.id)
        if len(entered) >= record.size:
            raise UserError(f"{named(record.name)} has its {record.size} players already.")
        found = await uow.tours.player_by_name(record.tour_id, name)
        if user_id is not None:
            other = await uow.tours.player_of_user(record.tour_id, user_id)
            if other is not None and (found is None or other.id != found.id):
                raise UserError(f"<@{user_id}> is {named(other.name)} in this tour already.")
        if found is None:
            found = await uow.tours.add_player(record.tour_id, name, user_id=user_id)
        elif user_id is not None and found.user_id not in (None, user_id):
            raise UserError(
                f"{named(found.name)} is linked to another member: use `/tour link` first."
            )
        elif user_id is not None and found.user_id is None:
            await uow.tours.link(found.id, user_id)
        if any(p.player_id == found.id for p in entered):
            raise UserError(f"{named(found.name)} plays in {named(record.name)} already.")
        if found.expelled:
            raise UserError(
                f"{named(found.name)} was expelled from the tour: they play no further event "
                "of it (CCT-9)."
            )
        if record.type is EventType.FINALS:
            await finals_field.check_entry_of(uow, record, found.name, wildcard)
        elif wildcard:
            raise UserError(
                f"Only the Finals take wildcards (CCT-3): enter {named(found.name)} in "
                f"{named(record.name)} without `wildcard`."
            )
        await uow.tour_events.add_player(record, found.id, wildcard=wildcard)
        linked = await uow.tours.player(found.id)
        assert linked is not None
        return EntryChanged(record, linked, len(entered) + 1)


async def remove_player(store: GuildStore, actor: Actor, event: str, player: str) -> EntryChanged:
    """Takes a player out of an event before the draw. The tour player stays."""
    actor.require(Role.HQ)
    name = clean_text(player, "player name", NAME_LIMIT)
    async with store.tour_change(actor.user_id, "event.player_remove", f"event:{event}") as uow:
        record = await _event_in_setup(uow, event)
        found = await uow.tours.player_by_name(record.tour_id, name)
        if found is None or not await uow.tour_events.remove_player(record.id, found.id):
            raise UserError(f"{named(name)} does not play in {named(record.name)}.")
        left = await uow.tour_events.players(record.id)
        return EntryChanged(record, found, len(left))


def _given_order(text: str, names: Sequence[str]) -> tuple[str, ...]:
    """Pairing numbers drawn elsewhere: every player once, in number order."""
    given = [part.strip() for part in text.split(",") if part.strip()]
    by_key = {n.casefold(): n for n in names}
    order = []
    for part in given:
        if part.casefold() not in by_key:
            raise UserError(f"{shown(part)} does not play in this event.")
        order.append(by_key[part.casefold()])
    if len(set(order)) != len(order):
        raise UserError("A player is listed twice in `order`.")
    if len(order) != len(names):
        raise UserError(f"`order` lists {len(order)} players; the event has {len(names)}.")
    return tuple(order)


async def draw_event(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    *,
    seed: str | None = None,
    order: str | None = None,
    confirm: bool,
    previewed: Sequence[str] | None = None,
) -> DrawPlan:
    """CCT-8a: the drawing of lots for pairing numbers and the CORE-1 Berger pairings it gives.

    The lots are drawn from `seed` over the players in entry order. The seed is generated when not
    given. `order` instead gives numbers drawn elsewhere. Without `confirm` nothing is stored and a
    preview is given. With it the numbers, the seed and every pairing are stored and announced,
    unless they are not the `previewed` numbers because the players changed since. A Confirm stores
    what its preview showed, or nothing.
    """
    actor.require(Role.HQ)
    lots = seed_text(seed, "seed")
    if lots is not None and order is not None:
        raise UserError("Give either a `seed` or the `order` drawn elsewhere, not both.")
    if lots is None and order is None:
        lots = new_seed()
    async with store.tour_change(actor.user_id, "event.draw", f"event:{event}") as uow:
        record = await _event_in_setup(uow, event)
        tour = await find_tour(uow.view(), record.tour_id)
        entered = await uow.tour_events.players(record.id)
        if len(entered) != record.size:
            raise UserError(
                f"{named(record.name)} has {len(entered)} of its {record.size} players: the draw "
                "needs them all."
            )
        await _check_finals_bonus(uow, record, tour)
        if record.type is EventType.FINALS:
            await finals_field.check_field(uow, record)
        names = [p.name for p in entered]
        numbers = draw_lots(names, lots) if lots is not None else _given_order(order or "", names)
        pairings = round_robin(numbers)
        starts = round_starts(record, tour.rules, max(p.round for p in pairings))
        plan = DrawPlan(record, lots, tuple(numbers), pairings, starts, confirm)
        if not confirm:
            uow.abandon()
            return plan
        if previewed is not None and tuple(previewed) != plan.numbers:
            raise changed_since_preview(
                f"The players of {named(record.name)}", "/event draw", "the draw they give"
            )
        ids = {p.name: p.player_id for p in entered}
        await uow.tour_events.record_draw(
            record.id, lots, {ids[n]: no for no, n in enumerate(numbers, start=1)}, actor.user_id
        )
        if record.type is not EventType.FINALS:
            await uow.tour_games.add_many(
                record.tour_id,
                record.id,
                [
                    NewGame(
                        "preliminary", ids[str(p.white)], ids[str(p.black)], None, p.round, p.board
                    )
                    for p in pairings
                ],
            )
        uow.details["numbers"] = list(numbers)
        await _announce_embeds(uow, tour_cards.pairings_embeds(record.name, pairings, starts))
        await automation.schedule(uow, automation.draw_jobs(record, tour.rules, len(starts)))
        drawn = await find_event(uow.view(), record.id)
        await automation.follow_polling(uow, None, await load_event(uow.view(), drawn))
        return plan


async def _check_finals_bonus(uow: TourUnit, record: TourEventRecord, tour: TourRecord) -> None:
    """CCT-8f: checks when the Finals may be drawn.

    The Finals' bonus points are the tour standings at their start. The Finals are thus drawn only
    once every event before them that was drawn is over, and no event before them is drawn after
    them, since its points would move the bonus during the Finals.
    """
    loaded = await load_tour(uow.view(), tour)
    if record.type is EventType.FINALS:
        for event in loaded.events:
            earlier = event.record
            over = earlier.drawn_at is None or earlier.id in loaded.played
            if earlier.position < record.position and not over:
                raise UserError(
                    f"{named(earlier.name)} is not over: the Finals' bonus points come from "
                    "the tour standings at their start (CCT-8f), so they are drawn after it."
                )
        return
    finals = loaded.finals()
    if finals is not None and finals.record.drawn_at is not None:
        raise UserError(
            f"The Finals {named(finals.record.name)} are drawn: an event before them drawn now "
            "would change their bonus points during the Finals (CCT-8f)."
        )


async def start_knockout(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    *,
    lots: str | None = None,
    confirm: bool,
    previewed: Sequence[str] | None = None,
) -> KnockoutPlan:
    """CCT-8c: the knock-out built from the final preliminary order.

    It is refused while a preliminary game is open, or while a tie for a place that goes on or earns
    tour points is unresolved. `lots` orders a CORE-3 drawing of lots for ties left after every
    criterion. Without `confirm` it gives a preview. With it the seeds are frozen, unless they are
    not the `previewed` seeds because a result changed since. A Confirm builds what its preview
    showed, or nothing.
    """
    actor.require(Role.HQ)
    lots_seed = seed_text(lots, "lots seed")
    async with store.tour_change(actor.user_id, "event.start_knockout", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        if record.type is EventType.FINALS:
            raise UserError("The Finals have no knock-out: they are a round robin (CCT-8f).")
        if record.knockout_started_at is not None or record.recorded:
            raise UserError(f"The knock-out of {named(record.name)} has started already.")
        if record.drawn_at is None:
            raise UserError(f"{named(record.name)} has no draw yet (`/event draw`).")
        loaded = await load_event(view, record)
        facts = loaded.facts
        if not preliminary_complete(facts):
            open_games = len(round_robin(facts.players)) - len(facts.prelim_games)
            raise UserError(
                f"{open_games} preliminary game(s) of {named(record.name)} have no settled "
                "result yet: the knock-out starts from the final order (CCT-8c)."
            )
        if lots_seed is not None:
            facts = replace(facts, lots_seed=lots_seed)
        rows = preliminary_standings(facts)
        ties = ties_for_places_going_on(rows, facts.places_that_count)
        if ties:
            groups = "; ".join(", ".join(str(p) for p in group) for group in ties)
            raise UserError(
                f"Still tied after every CCT-8b criterion: {groups}. A place that goes on or "
                "earns tour points cannot be shared: give `lots` (a drawing of lots) or "
                "decide it by play-off first."
            )
        seeds = tuple(str(row.player) for row in rows[:KNOCKOUT_PLACES])
        quarters = tuple(
            (tie.value, seeds[a - 1], seeds[b - 1]) for tie, (a, b) in QUARTER_FINALS.items()
        )
        plan = KnockoutPlan(record, rows, seeds, quarters, lots_seed, confirm)
        if not confirm:
            uow.abandon()
            return plan
        if previewed is not None and tuple(previewed) != seeds:
            raise changed_since_preview(
                f"The preliminary order of {named(record.name)}",
                "/event start-knockout",
                "the bracket it gives (CCT-8c)",
            )
        ids = loaded.ids
        await uow.tour_events.start_knockout(
            record.id, [ids[s] for s in seeds], lots_seed, actor.user_id
        )
        tour = await find_tour(view, record.tour_id)
        await automation.schedule(uow, automation.knockout_jobs(record, tour.rules))
        started = await find_event(view, record.id)
        await automation.follow_polling(uow, loaded, await load_event(view, started))
        await announce(uow, tour_cards.knockout_started(record.name, quarters))
        return plan


async def _announce_embeds(uow: TourUnit, embeds: Sequence[dict[str, object]]) -> None:
    """Posts embeds to the announcements channel, ten a message. Nothing is posted when none is
    set up.
    """
    settings = await uow.settings.get()
    channel = settings.announcements_channel_id
    if channel is None:
        return
    for start in range(0, len(embeds), 10):
        await uow.outbox.post(channel, embeds=embeds[start : start + 10])

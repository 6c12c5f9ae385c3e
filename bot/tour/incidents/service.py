"""CCT-10 disconnections, recorded by an arbiter during a game, in one unit of work.

Core rules on the incident: play continues with the time lost, is paused with 30 s off, or the game
is lost. The ruling is stored and applied. A lost game is decided against the disconnected player
and audited as a CCT-9 override, and its players are told where they chose it. The ruling is
announced.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.kernel.inputs import clean_text, named
from bot.rendering.tour import cards as tour_cards
from bot.rendering.tour import direct
from bot.runtime.announce import announce
from bot.tour.finals_bonus import check_bonus_fixed
from bot.tour.game_targets import find_target
from bot.tour.games.service import too_early
from bot.tour.games.settling import check_settled, game_row
from bot.tour.notices import tell_outcome
from bot.tour.planning.follow import follow_game
from bot.tour.references import find_event, find_tour
from bot.tour.schedule import target_session
from bot.tour.store import load_event
from core.results import Result
from core.tour.disconnections import (
    Disconnection,
    DisconnectionOutcome,
    DisconnectionRuling,
    rule_disconnection,
)
from core.tour.game_reports import (
    Action,
    GameReport,
    Party,
    ReportRefused,
    SessionNotStarted,
    transition,
)
from storage.guild import GuildStore
from storage.tour.rulings import NewIncident, Outcome

MAX_CLOCK = 4 * 3600
"""Seconds a clock can show. No tour game is longer."""
OUTCOMES: dict[DisconnectionOutcome, Outcome] = {
    DisconnectionOutcome.CONTINUE: "continue",
    DisconnectionOutcome.PAUSED: "paused",
    DisconnectionOutcome.LOST: "lost",
}


@dataclass(frozen=True)
class IncidentRuled:
    """A recorded disconnection: the game, the player, the ruling, and the result it set."""

    id: int
    event: str
    game: str
    player: str
    ruling: DisconnectionRuling
    result: Result | None


async def record_disconnection(
    store: GuildStore,
    actor: Actor,
    event: str,
    game: str,
    player: str,
    clock_seconds: int,
    reconnected_within_30s: bool,
    backup_connection: bool,
    *,
    offline_seconds: int | None = None,
) -> IncidentRuled:
    """CCT-10: the ruling for a disconnection of `player` in `game` with `clock_seconds` on
    their clock, computed, stored, applied and announced."""
    actor.require(Role.ARBITER)
    if isinstance(clock_seconds, bool) or not 0 <= clock_seconds <= MAX_CLOCK:
        raise UserError(f"The clock shows 0 to {MAX_CLOCK} seconds, not {clock_seconds}.")
    async with store.tour_change(actor.user_id, "incident.disconnection", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        tour = await find_tour(view, record.tour_id)
        window = tour.rules.reconnect_window
        loaded = await load_event(view, record)
        target = find_target(loaded, game)
        try:  # CCT-10: a disconnection happens during the game, never before its session
            target_session(loaded, tour.rules, target, uow.now).check()
        except SessionNotStarted as error:
            raise too_early(error, target.name) from None
        if target.row is not None and target.row.status.settled:
            raise UserError(
                f"{named(target.name)} has a settled result: a disconnection is ruled on while "
                "the game is played (correct the result with `/game correct`)."
            )
        name = clean_text(player, "player")
        sides = {target.white.casefold(): target.white, target.black.casefold(): target.black}
        if name.casefold() not in sides:
            raise UserError(
                f"{named(name)} does not play {named(target.name)} "
                f"({named(target.white)} v {named(target.black)})."
            )
        who = sides[name.casefold()]
        offline: dt.timedelta | None = None
        if reconnected_within_30s:
            seconds = 0 if offline_seconds is None else offline_seconds
            if not 0 <= seconds <= window.total_seconds():
                raise UserError(
                    f"Reconnected within {window.total_seconds():g} s: offline 0 to "
                    f"{window.total_seconds():g} seconds, not {seconds}."
                )
            offline = dt.timedelta(seconds=seconds)
        ruling = rule_disconnection(
            Disconnection(dt.timedelta(seconds=clock_seconds), offline, backup_connection), window
        )
        after = None if ruling.clock_after is None else int(ruling.clock_after.total_seconds())
        incident = NewIncident(
            target.name,
            loaded.ids[who],
            clock_seconds,
            reconnected_within_30s,
            None if offline is None else int(offline.total_seconds()),
            backup_connection,
            OUTCOMES[ruling.outcome],
            after,
            ruling.reason,
        )
        incident_id = await uow.tour_rulings.add_incident(record.id, incident, actor.user_id)
        result = None
        if ruling.outcome is DisconnectionOutcome.LOST:
            result = Result.BLACK_WIN if who == target.white else Result.WHITE_WIN
            current = target.row.report if target.row is not None else GameReport()
            await check_bonus_fixed(uow, record)
            session = target_session(loaded, tour.rules, target, uow.now)
            try:
                decided = transition(current, Action.REPORT, Party.ARBITER, result, session=session)
            except ReportRefused as error:
                raise UserError(str(error)) from None
            row = await game_row(uow, loaded, target)
            ground = "disconnection" if backup_connection else "no-backup-connection"
            await uow.tour_games.add_override(row, result, ground, ruling.reason, (), actor.user_id)
            stored = await uow.tour_games.apply(row, decided, by=actor.user_id, source="incident")
            await uow.tour_events.bump(record.id)
            changed, lines = check_settled(loaded, stored)
            await follow_game(uow, loaded, stored, changed)
            for line in lines:
                await announce(uow, line)
            await tell_outcome(
                uow,
                loaded,
                target.name,
                target.white,
                target.black,
                result,
                direct.disconnection(who),
                actor=actor.user_id,
            )
        ruled = IncidentRuled(incident_id, record.name, target.name, who, ruling, result)
        await announce(
            uow, tour_cards.incident_notice(record.name, target.name, who, ruling, result)
        )
        return ruled

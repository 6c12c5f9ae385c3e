"""Game use cases, each one unit of work through the life cycle of core/tour/game_reports.

They are a player's report, which waits for the opponent, and the opponent's confirmation or
dispute. A dispute goes to the arbiters' channel. An arbiter's entry is final. An arbiter's
correction with its reason is audited as an override by CCT-9. An arbiter's award of a game not
played is a forfeit win by CCT-9 with CORE-2.

A PGN fills the result and is checked for a draw before move 40 by CCT-7, which is flagged to the
arbiters. A game read from a chess.com or lichess.org game counts once. After every settled result
the event's facts are checked against the knock-out and Finals rules of CCT-8c to CCT-8f before
anything commits. The players a change concerns are told by direct message where they chose
it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.kernel.inputs import NOTE_LIMIT, clean_text, named
from bot.kernel.notifications import Kind
from bot.rendering.tour import cards as tour_cards
from bot.rendering.tour import direct
from bot.rendering.tour.automation import dm_report_buttons
from bot.runtime.announce import announce
from bot.runtime.notify import notify
from bot.tour.finals_bonus import check_bonus_fixed
from bot.tour.game_targets import GameTarget, find_target
from bot.tour.games.pgn import PgnGame, check_linked, check_players, read_game
from bot.tour.games.settling import check_settled, game_row, keep_seeds, stored_as
from bot.tour.notices import tell_outcome
from bot.tour.planning.follow import follow_game
from bot.tour.references import find_event, find_tour
from bot.tour.schedule import target_session
from bot.tour.series.awards import AwardPlan, award_player, award_reason
from bot.tour.store import LoadedEvent, load_event
from core.results import Outcome, Result
from core.tour.event_facts import (
    AwardRefused,
    award_game,
)
from core.tour.game_reports import (
    Action,
    GameReport,
    Party,
    ReportRefused,
    ReportStatus,
    Session,
    SessionNotStarted,
    confirm_deadline,
    transition,
)
from core.tour.overrides import OverrideReason
from core.tour.ranking import KNOCKOUT_PLACES
from storage.guild import GuildStore, TourUnit
from storage.tour.games import Source, TourGame
from storage.tour.tours import TourPlayer

GROUNDS: dict[str, OverrideReason] = {
    "left-camera-view": OverrideReason.LEFT_CAMERA_VIEW,
    "unconfirmed-departure": OverrideReason.UNCONFIRMED_DEPARTURE,
    "deliberate-disconnection": OverrideReason.DELIBERATE_DISCONNECTION,
    "disconnection": OverrideReason.DISCONNECTION,
    "no-backup-connection": OverrideReason.NO_BACKUP_CONNECTION,
    "other": OverrideReason.OTHER,
}
"""CCT-9/CCT-10: the grounds of an arbiter's correction, by their option names."""


@dataclass(frozen=True)
class GameChanged:
    """What a game use case did.

    It holds the game as now stored, its name, who acted as a party, the opponent's member to ask
    for confirmation of a player's report, the CCT-7 flag, and what it settled. It may have decided
    a series or match, or finished the event.
    """

    event: str
    event_id: int
    game: TourGame
    name: str
    party: Party
    white: str
    black: str
    ask_user: int | None = None
    early_draw: bool = False
    decided: tuple[str, ...] = ()


def _refused(error: ReportRefused, target: GameTarget | None = None) -> UserError:
    if isinstance(error, SessionNotStarted):
        return too_early(error, target.name if target is not None else "This game")
    return UserError(str(error))


def too_early(error: SessionNotStarted, game: str) -> UserError:
    """The one line refusing a result or an incident before the game's session starts."""
    return UserError(
        f"{named(game)} is played in the session starting {tour_cards.when(error.starts)}: "
        "nothing is recorded about it before then."
    )


async def session_of(uow: TourUnit, loaded: LoadedEvent, target: GameTarget) -> Session:
    """The playing session of `target`, from its tour's session time, frozen by CCT-16."""
    tour = await find_tour(uow.view(), loaded.record.tour_id)
    return target_session(loaded, tour.rules, target, uow.now)


def _party(actor: Actor, loaded: LoadedEvent, target: GameTarget) -> Party:
    """Who the actor is for this game: an arbiter, or one of its two players by linked members.

    Anyone else is refused.
    """
    if actor.has(Role.ARBITER):
        return Party.ARBITER
    if actor.is_system:
        return Party.SYSTEM
    assert actor.user_id is not None
    mine = loaded.player_of_user(actor.user_id)
    if mine is not None and mine == target.white:
        return Party.WHITE
    if mine is not None and mine == target.black:
        return Party.BLACK
    raise UserError(
        f"This needs a **player** of {named(target.name)} (a member linked to "
        f"{named(target.white)} or {named(target.black)}) or the **arbiter** role."
    )


def _opponent_user(loaded: LoadedEvent, party: Party, target: GameTarget) -> int | None:
    return loaded.user_of(target.black if party is Party.WHITE else target.white)


async def _event(uow: TourUnit, event: str | int) -> LoadedEvent:
    view = uow.view()
    record = await find_event(view, event)
    if record.recorded:
        raise UserError(
            f"{named(record.name)} was imported by its results: it has no games to report."
        )
    return await load_event(view, record)


async def _identities(uow: TourUnit, loaded: LoadedEvent) -> dict[str, TourPlayer]:
    """The tour player of each player of the event, by name, with their linked usernames."""
    players = {p.id: p for p in await uow.tours.players(loaded.record.tour_id)}
    return {name: players[pid] for name, pid in loaded.ids.items() if pid in players}


def _known_as(name: str, player: TourPlayer | None) -> set[str]:
    """A player's name and linked usernames, compared without case."""
    names = {name.casefold()}
    if player is not None:
        names |= {n.casefold() for n in (player.chesscom, player.lichess) if n}
    return names


def _check_pgn_players(
    parsed: PgnGame, players: dict[str, TourPlayer], target: GameTarget, link: str | None
) -> None:
    """CCT-8a: the PGN is this pairing's game — not the other way round, not a game of
    other players of the event, and a linked game between the players' linked accounts."""
    white = _known_as(target.white, players.get(target.white))
    black = _known_as(target.black, players.get(target.black))
    others = set().union(*(_known_as(n, p) for n, p in players.items()))
    check_players(parsed, white, black, others)
    if link is not None:
        lichess = link.startswith("https://lichess.org/")

        def account(name: str) -> str | None:
            player = players.get(name)
            if player is None:
                return None
            return player.lichess if lichess else player.chesscom

        check_linked(parsed, account(target.white), account(target.black))


def _pgn_result(pgn: PgnGame | None, result: Result | None) -> Result | None:
    if pgn is None:
        return result
    if result is not None and result is not pgn.result:
        raise UserError(
            f"The PGN's result is {tour_cards.result_text(pgn.result)}, not "
            f"{tour_cards.result_text(result)}: give one or the other."
        )
    return pgn.result


async def report_game(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    game: str,
    result: Result | None,
    *,
    pgn: str | None = None,
    source: Source | None = None,
    source_ref: str | None = None,
    channel_id: int = 0,
) -> GameChanged:
    """A result reported. A player's waits for the opponent's confirmation, and an arbiter's is
    final by CCT-9.

    With `pgn` the result is read from it, and must agree with `result` when both are given. The
    PGN's game, or the linked game in `source_ref`, counts only once. `channel_id` is the channel
    the report was made in, which a direct message to the opponent links to.
    """
    parsed = read_game(pgn) if pgn is not None else None
    async with store.tour_change(actor.user_id, "game.report", f"event:{event}") as uow:
        changed, _ = await report_in(
            uow,
            actor,
            event,
            game,
            result,
            parsed=parsed,
            source=source,
            source_ref=source_ref,
            channel_id=channel_id,
        )
    return changed


async def report_in(
    uow: TourUnit,
    actor: Actor,
    event: str | int,
    game: str,
    result: Result | None,
    *,
    parsed: PgnGame | None = None,
    source: Source | None = None,
    source_ref: str | None = None,
    party: Party | None = None,
    channel_id: int = 0,
) -> tuple[GameChanged, LoadedEvent]:
    """`report_game` inside a unit of work, returning what changed and the event as the change
    leaves it.

    The bot's polling job uses it to report a game it found as `party` SYSTEM, and asks the
    players itself.
    """
    result = _pgn_result(parsed, result)
    if result is None:
        raise UserError("Give the result, or a PGN (or game link) to read it from.")
    reference = source_ref or (parsed.source_ref if parsed else None)
    loaded = await _event(uow, event)
    target = find_target(loaded, game)
    if party is None:
        party = _party(actor, loaded, target)
    if reference is not None:
        counted = await uow.tour_games.by_source(reference)
        if counted is not None and (target.row is None or counted.id != target.row.id):
            raise UserError(
                f"That game counted already (game {counted.id}): the same game cannot count twice."
            )
    if parsed is not None:
        _check_pgn_players(parsed, await _identities(uow, loaded), target, source_ref)
    await check_bonus_fixed(uow, loaded.record)
    current = target.row.report if target.row is not None else GameReport()
    try:
        new = transition(
            current, Action.REPORT, party, result, session=await session_of(uow, loaded, target)
        )
    except ReportRefused as error:
        raise _refused(error, target) from None
    row = await game_row(uow, loaded, target)
    origin: Source = source or _SOURCES[party]
    flagged = bool(parsed and parsed.early_draw.flagged)
    stored = await uow.tour_games.apply(
        row,
        new,
        by=actor.user_id,
        source=origin,
        pgn=parsed.text if parsed else None,
        source_ref=reference,
        early_draw=flagged if parsed else None,
    )
    await uow.tour_events.bump(loaded.record.id)
    after, decided = (
        check_settled(loaded, stored) if new.status.settled else (stored_as(loaded, stored), ())
    )
    await follow_game(uow, loaded, stored, after)
    ask = _opponent_user(loaded, party, target) if party.is_player else None
    changed = GameChanged(
        loaded.record.name,
        loaded.record.id,
        stored,
        target.name,
        party,
        target.white,
        target.black,
        ask,
        flagged,
        decided,
    )
    if flagged and parsed is not None:
        await _to_arbiters(
            uow, tour_cards.early_draw_flag(changed.event, changed.name, parsed.early_draw)
        )
    for line in decided:
        await announce(uow, line)
    if ask is not None and new.status is ReportStatus.REPORTED:
        await _ask_opponent(uow, loaded, changed, ask, channel_id)
    elif party is Party.ARBITER:
        await tell_outcome(
            uow,
            loaded,
            target.name,
            target.white,
            target.black,
            stored.result,
            direct.DECIDED,
            actor=actor.user_id,
        )
    return changed, after


async def _ask_opponent(
    uow: TourUnit, loaded: LoadedEvent, changed: GameChanged, user: int, channel_id: int
) -> None:
    """Asks the opponent of a player's report to confirm or dispute it, by direct message."""
    tour = await find_tour(uow.view(), loaded.record.tour_id)
    assert changed.game.reported_at is not None
    reporter = changed.white if changed.party is Party.WHITE else changed.black
    text = direct.confirm_asked(
        changed.event,
        changed.name,
        changed.game.result,
        reporter,
        confirm_deadline(changed.game.reported_at, tour.rules.confirm_hours),
    )
    buttons = dm_report_buttons(uow.guild_id, changed.game.id)
    await notify(uow, Kind.CONFIRM, [user], channel_id=channel_id, content=text, components=buttons)


_SOURCES: dict[Party, Source] = {
    Party.WHITE: "player",
    Party.BLACK: "player",
    Party.ARBITER: "arbiter",
    Party.SYSTEM: "bot",
}
"""Where a report came from, by who made it."""


async def answer_report(
    store: GuildStore, actor: Actor, game_id: int, confirm: bool
) -> GameChanged:
    """The opponent's Confirm, which settles a player's report, or Dispute, which sends it to the
    arbiters.

    For a report the bot made from a site game, either player may answer. The bot's confirmation
    after the waiting time comes as the system.
    """
    verb = "game.confirm" if confirm else "game.dispute"
    async with store.tour_change(actor.user_id, verb, f"game:{game_id}") as uow:
        changed, _ = await answer_in(uow, actor, game_id, confirm)
    return changed


async def answer_in(
    uow: TourUnit, actor: Actor, game_id: int, confirm: bool
) -> tuple[GameChanged, LoadedEvent]:
    """`answer_report` inside a unit of work, the auto-confirmation job's.

    It returns what changed and the event as the change leaves it.
    """
    action = Action.CONFIRM if confirm else Action.DISPUTE
    row = await uow.tour_games.get(game_id)
    if row is None:
        raise UserError(f"No game {game_id} on this server.")
    view = uow.view()
    record = await view.tour_events.get(row.event_id)
    assert record is not None
    loaded = await load_event(view, record)
    target = find_target(loaded, loaded.game_name(row))
    if actor.is_system:
        party = Party.SYSTEM
    else:
        assert actor.user_id is not None
        mine = loaded.player_of_user(actor.user_id)
        names = {target.white: Party.WHITE, target.black: Party.BLACK}
        if mine is None or mine not in names:
            who = "a player" if row.reported_side is Party.SYSTEM else "the opponent"
            raise UserError(f"Only {who} in {named(target.name)} confirms or disputes its report.")
        party = names[mine]
    if confirm:
        await check_bonus_fixed(uow, record)
    try:
        new = transition(row.report, action, party, session=await session_of(uow, loaded, target))
    except ReportRefused as error:
        raise _refused(error, target) from None
    stored = await uow.tour_games.apply(row, new, by=actor.user_id)
    await uow.tour_events.bump(record.id)
    after, decided = (
        check_settled(loaded, stored) if new.status.settled else (stored_as(loaded, stored), ())
    )
    await follow_game(uow, loaded, stored, after)
    changed = GameChanged(
        record.name,
        record.id,
        stored,
        target.name,
        party,
        target.white,
        target.black,
        decided=decided,
    )
    if new.status is ReportStatus.DISPUTED:
        await _to_arbiters(
            uow,
            tour_cards.dispute_notice(changed.event, changed.name, stored.result, party.value),
        )
    for line in decided:
        await announce(uow, line)
    if new.status is ReportStatus.DISPUTED:
        how = direct.disputed(target.white if party is Party.WHITE else target.black)
    else:
        how = direct.AUTO_CONFIRMED if party is Party.SYSTEM else direct.CONFIRMED
    await tell_outcome(
        uow,
        loaded,
        target.name,
        target.white,
        target.black,
        stored.result,
        how,
        actor=actor.user_id,
    )
    return changed, after


def _loser(result: Result, white: str, black: str) -> str | None:
    if result.outcome(white=True) is Outcome.LOSS and result.outcome(white=False) is Outcome.WIN:
        return white
    if result.outcome(white=False) is Outcome.LOSS and result.outcome(white=True) is Outcome.WIN:
        return black
    return None


async def correct_game(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    game: str,
    result: Result,
    reason: str,
    ground: str = "other",
) -> GameChanged:
    """CCT-9: an arbiter sets a game's result with a reason, audited as an override.

    A deliberate disconnection expels the player who loses. A preliminary result cannot change the
    order the knock-out was built from once it started.
    """
    actor.require(Role.ARBITER)
    explanation = clean_text(reason, "reason", NOTE_LIMIT)
    if ground not in GROUNDS:
        raise UserError(f"No ground {named(ground)}: one of {', '.join(GROUNDS)}.")
    async with store.tour_change(actor.user_id, "game.correct", f"event:{event}") as uow:
        loaded = await _event(uow, event)
        target = find_target(loaded, game)
        await check_bonus_fixed(uow, loaded.record)
        current = target.row.report if target.row is not None else GameReport()
        session = await session_of(uow, loaded, target)
        try:
            new = transition(current, Action.CORRECT, Party.ARBITER, result, session=session)
        except ReportRefused as error:
            raise _refused(error, target) from None
        expelled: list[int] = []
        if GROUNDS[ground] is OverrideReason.DELIBERATE_DISCONNECTION:
            loser = _loser(result, target.white, target.black)
            if loser is None:
                raise UserError(
                    "A deliberate disconnection loses the game: give a decisive result (CCT-9)."
                )
            expelled.append(loaded.ids[loser])
        row = await game_row(uow, loaded, target)
        await uow.tour_games.add_override(row, result, ground, explanation, expelled, actor.user_id)
        stored = await uow.tour_games.apply(row, new, by=actor.user_id, source="arbiter")
        for player in expelled:
            await uow.tours.expel(player)
        await uow.tour_events.bump(loaded.record.id)
        after, decided = check_settled(loaded, stored)
        if target.stage == "preliminary" and len(loaded.facts.seeds) == KNOCKOUT_PLACES:
            keep_seeds(loaded, after)
        await follow_game(uow, loaded, stored, after)
        changed = GameChanged(
            loaded.record.name,
            loaded.record.id,
            stored,
            target.name,
            Party.ARBITER,
            target.white,
            target.black,
            decided=decided,
        )
        await announce(
            uow,
            tour_cards.correction_notice(
                changed.event, changed.name, result, explanation, GROUNDS[ground].value
            ),
        )
        for line in decided:
            await announce(uow, line)
        how = direct.corrected(GROUNDS[ground].value, explanation)
        await tell_outcome(
            uow,
            loaded,
            target.name,
            target.white,
            target.black,
            result,
            how,
            actor=actor.user_id,
        )
    return changed


async def _to_arbiters(uow: TourUnit, content: str) -> None:
    """Posts to the arbiters' channel, else announcements. Nothing is posted when neither is set
    up.
    """
    settings = await uow.settings.get()
    channel = settings.arbiters_channel
    if channel is not None:
        await uow.outbox.post(channel, content=tour_cards.clip(content))


async def award_tour_game(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    game: str,
    winner: str,
    reason: str,
    note: str | None = None,
    *,
    confirm: bool,
) -> AwardPlan:
    """CCT-9: the game `game` awarded to `winner` without play, as a forfeit win.

    Without `confirm` it gives a preview. With it the result, its override row and announcement are
    stored.
    """
    actor.require(Role.ARBITER)
    why, text = award_reason(reason, note)
    async with store.tour_change(actor.user_id, "game.award", f"event:{event}") as uow:
        loaded = await _event(uow, event)
        await check_bonus_fixed(uow, loaded.record)
        target = find_target(loaded, game)
        who = award_player(winner, (target.white, target.black), target.name)
        current = target.row.report if target.row is not None else GameReport()
        try:
            result = award_game(current, target.white, target.black, who, why, text)
            # CCT-9: an award without play may come before the game's session (a withdrawal
            # is known in advance), so the session is not checked.
            new = transition(current, Action.CORRECT, Party.ARBITER, result, session=None)
        except (AwardRefused, ReportRefused) as error:
            raise UserError(f"Not awarded: {target.name}: {error}.") from None
        loser = target.black if who == target.white else target.white
        row = await game_row(uow, loaded, target)
        ground = f"walkover ({why.value})"
        await uow.tour_games.add_override(row, result, ground, text or why.value, (), actor.user_id)
        stored = await uow.tour_games.apply(row, new, by=actor.user_id, source="arbiter")
        await uow.tour_events.bump(loaded.record.id)
        after, decided = check_settled(loaded, stored)
        if target.stage == "preliminary" and len(loaded.facts.seeds) == KNOCKOUT_PLACES:
            keep_seeds(loaded, after)
        follows = (f"{tour_cards.name(target.name)} is {tour_cards.result_text(result)}",)
        plan = AwardPlan(
            loaded.record.name, target.name, who, loser, why, text, 0, follows + decided
        )
        if not confirm:
            uow.abandon()
            return plan
        await follow_game(uow, loaded, stored, after)
        await announce(
            uow,
            tour_cards.award_notice(plan.event, plan.contest, who, loser, why.value, text),
        )
        for line in decided:
            await announce(uow, line)
        how = direct.awarded(who, why.value if text is None else f"{why.value}: {text}")
        await tell_outcome(
            uow,
            loaded,
            target.name,
            target.white,
            target.black,
            result,
            how,
            actor=actor.user_id,
        )
    return plan

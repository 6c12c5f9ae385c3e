"""Match results by CL-14 and CL-19.

A finished chess.com match is imported with its closed and fair-play accounts, replacing an earlier
import of the same match. An arbiter may instead enter a manual result from a boards CSV. chess.com
is read before the unit of work opens.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from bot.chesscom.client import ChessComClient
from bot.chesscom.facts import FactsError, MatchFacts, Placement
from bot.chesscom.models import FAIR_PLAY_STATUS, FINISHED
from bot.chesscom.reader import read_match
from bot.formats.boards_csv import BoardRow
from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError, quote_mark
from bot.kernel.notifications import Kind
from bot.league.matches.boards import board_records, checked
from bot.league.matches.counting import changed_matches, judged_counts, what_counts
from bot.league.matches.jobs import POLL, subject
from bot.league.matches.life import MatchNow, allowed, match_now
from bot.league.matches.service import chesscom_match_id
from bot.league.notices import ClubAdmins, tell_admins
from bot.league.references import find_match
from bot.league.store import load_season, with_match_read
from bot.rendering.league import announcements, notices
from bot.runtime.announce import announce
from bot.runtime.polite_http import ApiError, ApiNotFound
from core.league import league_report
from core.league.lifecycle import Party, Step, finish_problem
from core.league.season import Board as DomainBoard
from core.league.season import Season
from storage.guild import GuildStore, LeagueUnit
from storage.league.club_admins import ClubAdminReader
from storage.league.clubs import Club
from storage.league.matches import BoardRecord, MatchRecord
from storage.league.rosters import ClosedAccount
from storage.league.seasons import SeasonRecord
from storage.shared.jobs import Job


@dataclass(frozen=True)
class ResultRecorded:
    """A match's boards as now stored and its finish.

    For an import it also holds the accounts seen closed, by CL-19.
    """

    match: MatchRecord
    boards: tuple[BoardRecord, ...]
    home_half: int
    away_half: int
    closed_accounts: tuple[str, ...]
    source: str
    counts: str | None = None
    """What it counts as, when not as played, and why: a forfeit, void or adjusted boards."""
    changed: tuple[str, ...] = ()
    """Earlier matches whose counted result it changed by CL-18 or CL-19, as announced."""


async def _may_report(admins: ClubAdminReader, actor: Actor, match: MatchRecord) -> None:
    """A club admin of either club, an arbiter, or the bot may report a result."""
    if actor.is_system or actor.has(Role.ARBITER):
        return
    assert actor.user_id is not None
    for club_id in (match.home_club_id, match.away_club_id):
        if await admins.is_admin(club_id, actor.user_id):
            return
    raise UserError(f"This needs a **club admin** of a club of match {match.id}, or an arbiter.")


def _party(actor: Actor) -> Party:
    """Who reports: the bot, an arbiter (a correction), or a club admin."""
    if actor.is_system:
        return Party.BOT
    return Party.ARBITER if actor.has(Role.ARBITER) else Party.CLUB


@dataclass(frozen=True)
class _Before:
    """What a result is checked against, read before it writes (`_read_before`)."""

    record: SeasonRecord
    """The match's season."""
    stored: tuple[BoardRecord, ...]
    """The match's boards as stored, which the result replaces."""
    elsewhere: bool
    """CL-18: whether a player of its boards, before or after, plays for another club of the
    season.
    """
    poll: Job | None
    """The match's pending poll: the result ends it (cancelled then)."""
    closed: tuple[str, ...]
    """CL-19: the season's closed accounts before the result."""


@dataclass(frozen=True)
class Prior:
    """A match's result facts before a result replaces them (`before`, with the season's
    closed accounts) and the life cycle's view of it then (`now`, its judged facts): with the
    season as it is after, they give the season as it was (what the earlier matches counted
    as), without reading the season twice."""

    now: MatchNow
    before: _Before


def _seats(match: MatchRecord, boards: Iterable[BoardRecord]) -> list[tuple[str, int]]:
    """Each player of `boards` with the club they play for in `match`."""
    return sorted(
        {
            seat
            for b in boards
            for seat in ((b.home_player, match.home_club_id), (b.away_player, match.away_club_id))
        }
    )


async def _read_before(
    uow: LeagueUnit, match: MatchRecord, boards: Sequence[BoardRecord]
) -> _Before:
    """What a result is checked against: the match's season (refused when it is gone), its
    boards as stored, whether a player of those or of `boards` plays for another club of
    the season (CL-18), and its pending poll. `match`: the match as read before the unit
    (its season and clubs never change; the caller compares)."""
    record = await uow.seasons.get(match.season_id)
    if record is None:
        raise UserError("This match's season is no longer on this server.")
    stored = await uow.matches.boards(match.id)
    seats = _seats(match, (*boards, *stored))
    elsewhere = await uow.matches.plays_elsewhere(match.season_id, match.id, seats)
    poll = await uow.jobs.pending(POLL, subject(match.id))
    closed = tuple(a.username for a in await uow.rosters.closed_accounts(match.season_id))
    return _Before(record, tuple(stored), elsewhere, poll, closed)


def _check_result(
    uow: LeagueUnit, current: MatchNow, party: Party, finished: dt.datetime, before: _Before
) -> Prior:
    """CL-14 through the life cycle: no result before the start, none finishing before it or
    later than now, none replacing a recorded one but by an arbiter or the bot; and the
    facts the result is about to replace."""
    step = allowed(current.view, Step.RESULT, party)
    problem = finish_problem(current.view, finished.astimezone(dt.UTC))
    if problem is not None:
        raise UserError(f"{problem}.")
    uow.details["notes"] = list(step.notes)
    return Prior(current, before)


def _as_it_was(season: Season, prior: Prior, key: str) -> Season:
    """The season before the result.

    It holds this match with its former boards, finish and at-start facts as judged before it, and
    the former closed accounts of CL-19.
    """
    old = next(m for m in prior.now.season.matches if m.id == key)
    matches = tuple(
        replace(
            m,
            finished=old.finished,
            boards=tuple(
                DomainBoard(b.home_player, b.away_player, b.home_half, b.away_half)
                for b in prior.before.stored
            ),
            at_start=old.at_start,
        )
        if m.id == key
        else m
        for m in season.matches
    )
    return replace(season, matches=matches, closed_accounts=prior.before.closed)


async def _may_change_others(
    uow: LeagueUnit,
    prior: Prior,
    match: MatchRecord,
    boards: Sequence[BoardRecord],
    seen_closed: Sequence[str],
) -> bool:
    """CL-18 and CL-19: whether the result can change how any match counts beyond the judgement.

    It can when an account was seen closed, `seen_closed` marked in this unit of work, or one of its
    players' accounts is closed. It can also when a player of its boards, before or after, plays for
    another club elsewhere in the season, as `prior.before.elsewhere` says. If not, its boards count
    as played or as judged, and so do the other matches'.
    """
    closed = {name.lower() for name in prior.before.closed}
    if seen_closed:
        now_closed = await uow.rosters.closed_accounts(match.season_id)
        if {a.username.lower() for a in now_closed} != closed:
            return True
    if closed & {name.lower() for name, _ in _seats(match, (*boards, *prior.before.stored))}:
        return True
    return prior.before.elsewhere


async def authorise_report(store: GuildStore, actor: Actor, match_id: int | str) -> None:
    """Refuses, naming who may, before anything is read from chess.com or a public reply is
    deferred.

    The unit of work checks again.
    """
    async with store.read() as view:
        match = await find_match(view.matches, match_id)
        await _may_report(view.club_admins, actor, match)


async def _clubs(
    store: GuildStore, match_id: int | str, actor: Actor | None = None
) -> tuple[MatchRecord, Club, Club, int]:
    """The match, its clubs and its games per board, in one read.

    When an actor is given, it first refuses unless they may report the match's result.
    """
    async with store.read() as view:
        match = await find_match(view.matches, match_id)
        home, away = await view.clubs.pair(match.home_club_id, match.away_club_id)
        if actor is not None:
            await _may_report(view.club_admins, actor, match)
    assert home is not None and away is not None
    return match, home, away, match.games_per_board


def _halves(value: Fraction) -> int:
    """Points as whole half-points, since integer arithmetic is faster than a Fraction product."""
    if value.denominator not in (1, 2):
        raise UserError("points must be multiples of ½")
    return value.numerator * (2 // value.denominator)


@dataclass(frozen=True)
class ChessComRead:
    """A finished chess.com team match read for a fixture, ready to store.

    `read_chesscom_result` reads it outside any unit of work and `import_chesscom_result_in` stores
    it.
    """

    match: MatchRecord
    home: Club
    away: Club
    chesscom: int
    facts: MatchFacts
    boards: tuple[BoardRecord, ...]
    observed: dt.datetime


async def read_chesscom_result(
    store: GuildStore,
    client: ChessComClient,
    match_id: int | str,
    chesscom_match: str | int | None = None,
    *,
    actor: Actor | None = None,
) -> ChessComRead:
    """CL-14: reads a finished chess.com team match for the fixture, over the network only.

    Nothing is written. It raises `UserError` when the match cannot be imported. When `actor` is
    given, it first refuses unless they may report the result, before chess.com is read.
    """
    match, home, away, games = await _clubs(store, match_id, actor)
    if chesscom_match is None:
        if match.chesscom_match_id is None:
            raise UserError(f"Match {match.id} has no chess.com match: give its id or URL.")
        chesscom = match.chesscom_match_id
    else:
        chesscom = chesscom_match_id(chesscom_match)
    if home.chesscom_id is None or away.chesscom_id is None:
        raise UserError(f"Match {match.id}'s clubs have no chess.com club to match against.")
    placement = Placement(
        id=match.key,
        home=home.name,
        away=away.name,
        clubs={home.chesscom_id: home.name, away.chesscom_id: away.name},
    )
    observed = store.database.clock()
    try:
        facts = await read_match(
            client, chesscom, placement, observed_at=observed, games_per_board=games
        )
    except ApiNotFound:
        raise UserError(f"No chess.com team match {chesscom}.") from None
    except ApiError as error:
        raise UserError(
            f"chess.com could not be read just now ({quote_mark(error.message)})."
        ) from None
    except FactsError as error:
        raise UserError(
            f"chess.com match {chesscom} is not this fixture: {quote_mark(str(error))}"
        ) from None
    if facts.status != FINISHED or facts.match is None or facts.running_boards:
        raise UserError(f"chess.com match {chesscom} has not finished yet.")
    if facts.unpaired_boards:
        board, why = next(iter(facts.unpaired_boards.items()))
        raise UserError(f"Board {board} cannot be read from chess.com: {quote_mark(why)}.")
    boards = tuple(
        BoardRecord(n, b.home_player, b.away_player, _halves(b.home_points), _halves(b.away_points))
        for n, b in zip(facts.board_numbers, facts.match.boards, strict=True)
    )
    try:
        checked(boards, games)
    except UserError as problem:
        raise UserError(f"chess.com match {chesscom} cannot be stored: {problem.message}") from None
    return ChessComRead(match, home, away, chesscom, facts, boards, observed)


async def import_chesscom_result(
    store: GuildStore,
    client: ChessComClient,
    actor: Actor,
    match_id: int | str,
    chesscom_match: str | int | None = None,
) -> ResultRecorded:
    """CL-14 and CL-19: reads a finished chess.com team match and stores it.

    It stores the boards, replacing an earlier import, the finish and the accounts seen closed or
    removed for fair play.
    """
    read = await read_chesscom_result(store, client, match_id, chesscom_match, actor=actor)
    async with store.league_change(actor.user_id, "match.import", f"match:{read.match.id}") as uow:
        return await import_chesscom_result_in(uow, actor, read)


async def import_chesscom_result_in(
    uow: LeagueUnit, actor: Actor, read: ChessComRead
) -> ResultRecorded:
    """`import_chesscom_result`'s store step inside a unit of work the caller holds (the poll
    job). Every refusal (`UserError`) comes before the first write, so the caller may go on
    in the same unit of work."""
    match, chesscom, facts = read.match, read.chesscom, read.facts
    assert facts.match is not None
    current, linked = await uow.matches.with_chesscom(match.id, chesscom)
    before = await _read_before(uow, match, read.boards)
    if current is None:
        raise UserError(f"No match {match.id} on this server.")
    await _may_report(uow.club_admins, actor, current)
    if (current.home_club_id, current.away_club_id) != (match.home_club_id, match.away_club_id):
        raise UserError(f"Match {match.id} changed meanwhile; try again.")
    if linked is not None and linked.id != match.id:  # one fixture per chess.com match
        raise UserError(f"chess.com match {chesscom} is linked to match {linked.id} already.")
    link = None if current.chesscom_match_id == chesscom else chesscom
    finished = facts.match.finished or uow.now
    # chess.com's own record of the linked match may be read again, and a club admin's
    # re-import counts as the bot's reading. Any other result over a recorded one is an
    # arbiter's correction.
    party = Party.BOT if actor.is_system or link is None else _party(actor)
    now = await match_now(uow, current, uow.now, record=before.record)
    prior = _check_result(uow, now, party, finished, before)
    await uow.matches.replace_boards(match.id, list(read.boards))
    await uow.matches.finish(match.id, finished, link_chesscom=link)
    closed = await _record_closed(uow, current.season_id, facts, read.observed)
    await _record_fielded(uow, current, read.home, read.away, facts)
    updated = replace(current, finished_at=finished.astimezone(dt.UTC), chesscom_match_id=chesscom)
    return await _recorded(
        uow, prior, updated, read.boards, read.home, read.away, closed, "chess.com"
    )


async def _record_closed(
    uow: LeagueUnit, season_id: int, facts: MatchFacts, observed: dt.datetime
) -> tuple[str, ...]:
    """CL-19: every account seen closed or removed for fair play in the match."""
    fair = {name.casefold() for name in facts.fair_play}
    for name in facts.closed_accounts:
        status = FAIR_PLAY_STATUS if name.casefold() in fair else "closed"
        await uow.rosters.mark_closed(season_id, ClosedAccount(name, observed, status))
    return facts.closed_accounts


async def _record_fielded(
    uow: LeagueUnit, match: MatchRecord, home: Club, away: Club, facts: MatchFacts
) -> None:
    """CL-20: the players each club fielded, kept with the members and average already
    recorded at the start."""
    assert facts.match is not None
    players = {}
    for club in (home, away):
        fielded = facts.match.at_start.get(club.name)
        if fielded is not None and fielded.players is not None:
            players[club.id] = fielded.players
    await uow.matches.set_fielded(match.id, players)


async def _recorded(
    uow: LeagueUnit,
    prior: Prior,
    updated: MatchRecord,
    stored: Sequence[BoardRecord],
    home: Club,
    away: Club,
    closed: Sequence[str],
    how: str,
) -> ResultRecorded:
    """The result as now stored: the match as just updated (not read back), its boards
    exactly those just stored (`replace_boards`), by number. It is announced once with what
    it counts as and why (CL-FF, CL-ADJ, CL-DQ), the earlier matches it changed (a CL-18/19
    finding) and the clubs it put out. The admins who want it are told by direct message."""
    boards = tuple(sorted(stored, key=lambda b: b.board))
    home_half = sum(b.home_half for b in boards)
    away_half = sum(b.away_half for b in boards)
    changed: list[str] = []
    if prior.before.poll is not None:
        await uow.jobs.cancel_pending(prior.before.poll)
    if await _may_change_others(uow, prior, updated, boards, closed):
        season = await load_season(uow.view(), prior.now.record)
        now = league_report(season, now=uow.now)
        why = what_counts(now, season, updated.key).why
        was = league_report(_as_it_was(season, prior, updated.key), now=uow.now)
        changed = changed_matches(was, now, season, leave_out=[updated.key])
        forfeits, disqualified = now.forfeits, now.disqualified
    else:  # the judgement alone says what it counts as: only this match's facts changed
        season = await with_match_read(uow.view(), prior.now.season, updated, len(boards))
        judgement = prior.now.judging.with_match(season, updated.key).at(uow.now)
        forfeits, disqualified = judgement.breaches, tuple(judgement.disqualified.values())
        why = judged_counts(forfeits, disqualified, season, updated.key)
    # The clubs it put out: the life cycle judged only its division, where they play (CL-DQ).
    division = {club for d in prior.now.season.divisions for club in d.clubs}
    gone = [q for q in disqualified if q.club in division and q.club not in prior.now.out]
    lines = [
        announcements.result_recorded(home.name, away.name, home_half, away_half, how, why),
        *(
            announcements.disqualified(
                q.club,
                q.rule,
                sum(1 for b in forfeits if b.club == q.club and b.rule == q.rule),
                sum(1 for m in season.matches if q.club in (m.home, m.away)),
            )
            for q in gone
        ),
    ]
    if changed:
        lines.append(announcements.counted_changes(changed))
    await announce(uow, "\n".join(lines))
    admins = ClubAdmins(uow)
    text = notices.result_counted(home.name, away.name, updated.id, home_half, away_half, how, why)
    await tell_admins(uow, admins, Kind.MATCH_RESULT, [home.id, away.id], text)
    for q in gone:
        text = notices.disqualified(q.club, q.rule)
        await tell_admins(uow, admins, Kind.FORFEIT, [q.club], text)
    uow.details["counts"] = why
    return ResultRecorded(
        updated, boards, home_half, away_half, tuple(closed), how, why, tuple(changed)
    )


async def enter_manual_result(
    store: GuildStore,
    actor: Actor,
    match_id: int | str,
    rows: Sequence[BoardRow],
    finished_at: dt.datetime | None = None,
) -> ResultRecorded:
    """CL-14: an arbiter enters a match's boards by hand from a parsed boards CSV.

    This is for when chess.com cannot supply them. Each board's points add up to the season's games.
    """
    actor.require(Role.ARBITER)
    if finished_at is not None and finished_at.tzinfo is None:
        raise UserError("The finish instant needs a time zone.")
    match, home, away, games = await _clubs(store, match_id)
    boards = board_records(rows, games)
    async with store.league_change(actor.user_id, "match.result", f"match:{match.id}") as uow:
        current = await uow.matches.get(match.id)
        before = await _read_before(uow, match, boards)
        if current is None:
            raise UserError(f"No match {match.id} on this server.")
        finished = finished_at or uow.now
        now = await match_now(uow, current, uow.now, record=before.record)
        prior = _check_result(uow, now, Party.ARBITER, finished, before)
        await uow.matches.replace_boards(match.id, boards)
        await uow.matches.finish(match.id, finished)
        updated = replace(current, finished_at=finished.astimezone(dt.UTC))
        return await _recorded(uow, prior, updated, boards, home, away, (), "entered by an arbiter")

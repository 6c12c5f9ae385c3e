"""CL-5, CL-6 and CL-20 at the match start: the at-start facts read from chess.com and stored.

Both clubs' chess.com profiles, with members and daily average, and the match, with the players
fielded, are read now. They are stored as the at-start facts with the instant observed. An
announcement says when a snapshot was taken late and which forfeits the facts cause, and the clubs'
admins who want it are told by direct message. chess.com is read in the job's fetch step and the
facts are stored in its unit of work. When chess.com is unreachable nothing is stored, and the job
retries at the next poll, late and saying so.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from bot.chesscom.client import ChessComClient
from bot.chesscom.facts import FactsError, Placement
from bot.chesscom.reader import read_club_at_start, read_match
from bot.kernel.actor import Actor
from bot.kernel.notifications import Kind
from bot.league.automation.context import AutomationContext
from bot.league.automation.judgement import (
    Judged,
    disqualification_lines,
    judge_at,
    rank_changes,
    reports_at,
    tell_judged,
)
from bot.league.automation.match_facts import (
    MatchFacts,
    failed_cl15,
    match_facts,
    match_id_of,
    same_instant,
)
from bot.league.matches.life import match_now
from bot.league.matches.service import record_at_start_in
from bot.league.notices import ClubAdmins, tell_admins
from bot.league.store import load_season
from bot.rendering.league import announcements, notices
from bot.runtime.announce import announce
from bot.runtime.polite_http import ApiError, ApiNotFound
from bot.runtime.scheduler import RetryLater
from core.league.lifecycle import Party, Step, StepRefused, allow
from core.league.season import ClubAtStart, Season
from storage.guild import LeagueUnit
from storage.league.matches import AtStartRecord
from storage.shared.jobs import Job

log = logging.getLogger(__name__)

LATE_AFTER = dt.timedelta(minutes=15)
"""A snapshot observed later than this after the start is marked late."""


async def _club_facts(
    client: ChessComClient, url_id: str | None
) -> tuple[int | None, float | None]:
    if url_id is None:
        return None, None
    try:
        _, facts = await read_club_at_start(client, url_id)
    except ApiNotFound:
        return None, None
    return facts.members, facts.avg_rating


async def _fielded(
    client: ChessComClient, facts: MatchFacts, observed: dt.datetime
) -> dict[int, int | None]:
    """CL-20: the players each club fielded, from the linked chess.com match once started."""
    fielded: dict[int, int | None] = {facts.home.id: None, facts.away.id: None}
    chesscom = facts.match.chesscom_match_id
    if chesscom is None or facts.home.chesscom_id is None or facts.away.chesscom_id is None:
        return fielded
    placement = Placement(
        id=facts.match.key,
        home=facts.home.name,
        away=facts.away.name,
        clubs={facts.home.chesscom_id: facts.home.name, facts.away.chesscom_id: facts.away.name},
    )
    try:
        read = await read_match(
            client,
            chesscom,
            placement,
            observed_at=observed,
            games_per_board=facts.season.rules.games_per_board,
        )
    except (ApiNotFound, FactsError) as error:
        log.warning("match %d: chess.com match %d unreadable: %s", facts.match.id, chesscom, error)
        return fielded
    if read.match is None or read.status not in ("in_progress", "finished"):
        return fielded
    for club in (facts.home, facts.away):
        known = read.match.at_start.get(club.name)
        fielded[club.id] = known.players if known is not None else None
    return fielded


def _with_facts(season: Season, key: str, clubs: dict[str, AtStartRecord]) -> Season:
    """The season with this match's at-start facts replaced by the snapshot's."""
    matches = tuple(
        replace(
            m,
            at_start={
                name: ClubAtStart(f.members, f.avg_rating, f.players) for name, f in clubs.items()
            },
        )
        if m.id == key
        else m
        for m in season.matches
    )
    return replace(season, matches=matches)


def _describe(name: str, f: AtStartRecord) -> str:
    def shown(value: object) -> str:
        return (
            "unknown" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
        )

    return (
        f"{name} {shown(f.members)} members, daily average {shown(f.avg_rating)},"
        f" {shown(f.players)} players"
    )


@dataclass(frozen=True)
class Snapshot:
    """What chess.com said at the start, read by the fetch step.

    It holds the match start it was read for, each club's facts by name and the instant observed.
    """

    start: dt.datetime
    records: dict[str, AtStartRecord]
    observed: dt.datetime


def at_start_fetcher(context: AutomationContext) -> Callable[[Job], Awaitable[Snapshot | None]]:
    """The read-only step of `cl.at_start` jobs, run outside any transaction.

    It reads both clubs' profiles and the match now, and returns None when no snapshot is due. When
    chess.com is unreachable it raises `RetryLater` for the next poll. Nothing is stored, and the
    snapshot then says it was late.
    """

    async def fetch(job: Job) -> Snapshot | None:
        async with context.store(job.guild_id).read() as view:
            facts = await match_facts(view, match_id_of(job.payload))
            if facts is None or facts.match.finished_at is not None:
                return None
            if job.due_at < facts.match.start - dt.timedelta(seconds=1):
                return None  # the match moved later: its moved job takes the snapshot
        if failed_cl15(facts):
            return None  # CL-FF: not started on time, forfeited for CL-15 only
        client = context.chesscom
        if client is None:
            log.warning("match %d: no chess.com client, no at-start snapshot", facts.match.id)
            return None
        observed = context.now()
        try:
            home = await _club_facts(client, facts.home.chesscom_id)
            away = await _club_facts(client, facts.away.chesscom_id)
            fielded = await _fielded(client, facts, observed)
        except ApiError as error:
            log.warning("match %d: at-start snapshot postponed: %s", facts.match.id, error)
            raise RetryLater(observed + context.poll_every, error.message) from None
        records = {
            facts.home.name: AtStartRecord(facts.home.id, *home, fielded[facts.home.id], observed),
            facts.away.name: AtStartRecord(facts.away.id, *away, fielded[facts.away.id], observed),
        }
        return Snapshot(facts.match.start, records, observed)

    return fetch


async def store_snapshot(job: Job, uow: LeagueUnit, snapshot: Snapshot | None) -> None:
    """The handler of `cl.at_start` jobs, run in the job's unit of work.

    If the match still starts then, it stores the fetched facts with their announcement and the
    forfeits they cause.
    """
    if snapshot is None:
        uow.abandon()
        return
    facts = await match_facts(uow, match_id_of(job.payload))
    if (
        facts is None
        or facts.match.finished_at is not None
        or not same_instant(facts.match.start, snapshot.start)
    ):
        uow.abandon()  # gone, played or moved since the read: nothing stored
        return
    current = await match_now(uow, facts.match, uow.now)
    try:  # CL-FF, CL-DQ: nothing is judged at the start of a forfeited or void match
        allow(current.view, Step.AT_START, Party.BOT)
    except StepRefused as refusal:
        uow.details["not_judged"] = str(refusal)
        uow.abandon()
        return
    key = facts.match.key
    records = snapshot.records
    observed = snapshot.observed
    judging = current.judging.with_match(_with_facts(current.season, key, records), key)
    judged = judge_at(judging, key, facts.match.start)
    late = observed - facts.match.start > LATE_AFTER
    for record in records.values():  # the life cycle allowed it above
        await record_at_start_in(uow, Actor.system(), facts.match.id, record, checked=True)
    uow.details["late"] = late
    uow.details["forfeits"] = [(b.club, b.rule) for b in judged.forfeits]
    if judged.void:
        return
    forfeits = [f"{b.club} ({b.rule})" for b in judged.forfeits]
    lines = [
        announcements.at_start_snapshot(
            facts.home.name,
            facts.away.name,
            facts.match.start,
            [_describe(name, f) for name, f in records.items()],
            observed,
            late,
            forfeits,
        ),
        *disqualification_lines(judged, judging.season),
    ]
    if forfeits:  # the standings, with scores, only when a forfeit may move them
        season = _with_facts(await load_season(uow.view(), current.record), key, records)
        lines += rank_changes(
            reports_at(season, facts.match.start), {facts.home.name, facts.away.name}
        )
    await announce(uow, "\n".join(lines))
    await _tell(uow, facts, judged)


async def _tell(uow: LeagueUnit, facts: MatchFacts, judged: Judged) -> None:
    """The start by direct message to both clubs' admins who want it, then the forfeits and
    disqualifications it causes."""
    home, away, match = facts.home, facts.away, facts.match
    admins = ClubAdmins(uow)
    text = notices.match_started(home.name, away.name, match.id, match.start)
    await tell_admins(uow, admins, Kind.MATCH_START, [home.id, away.id], text)

    def forfeit_text(club: str, rules: list[str]) -> str:
        return notices.start_forfeit(club, home.name, away.name, match.id, rules)

    clubs = {home.name: home.id, away.name: away.id}
    await tell_judged(uow, admins, judged, clubs, forfeit_text)

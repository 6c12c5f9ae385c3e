"""CL-5, CL-6, CL-20 at the match start: both clubs' chess.com profiles (members, daily
average) and the match (players fielded) read now and stored as the at-start facts with the
instant observed, with an announcement that says when a snapshot was taken late and which
forfeits the facts cause. chess.com unreachable: nothing is stored and the snapshot is tried
again at the next poll (late, and saying so)."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import replace

from bot.automation.context import AutomationContext
from bot.automation.job_change import job_change
from bot.automation.judgement import disqualification_lines, judge_at, rank_changes
from bot.automation.match_facts import MatchFacts, match_facts, match_id_of, same_instant
from bot.chesscom.client import ChessComClient, ChessComError, ChessComNotFound
from bot.chesscom.facts import FactsError, Placement
from bot.chesscom.reader import read_club_at_start, read_match
from bot.league_store import load_season
from bot.rendering import announcements
from bot.scheduler import JobHandler
from bot.services.actor import Actor
from bot.services.announce import announce
from bot.services.match_jobs import AT_START
from bot.services.matches import record_at_start_in
from core.league.forfeits import challenge_failures
from core.league.season import ClubAtStart, Season
from storage.jobs import Job
from storage.matches import AtStartRecord

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
    except ChessComNotFound:
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
    except (ChessComNotFound, FactsError) as error:
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


def at_start_handler(context: AutomationContext) -> JobHandler:
    """The handler of `cl.at_start` jobs."""

    async def snapshot(job: Job) -> None:
        store = context.store(job.guild_id)
        async with store.read() as view:
            facts = await match_facts(view, match_id_of(job.payload))
            if facts is None or facts.match.finished_at is not None:
                return
            if job.due_at < facts.match.start - dt.timedelta(seconds=1):
                return  # the match moved later: its moved job takes the snapshot
            season = await load_season(view, facts.season)
        domain = next(m for m in season.matches if m.id == facts.match.key)
        if challenge_failures(domain, facts.deadline):
            return  # CL-FF: not started on time, forfeited for CL-15 only
        client = context.chesscom
        if client is None:
            log.warning("match %d: no chess.com client, no at-start snapshot", facts.match.id)
            return
        observed = context.now()
        try:
            home = await _club_facts(client, facts.home.chesscom_id)
            away = await _club_facts(client, facts.away.chesscom_id)
            fielded = await _fielded(client, facts, observed)
        except ChessComError as error:
            log.warning("match %d: at-start snapshot postponed: %s", facts.match.id, error)
            async with job_change(store, job, "cl.at_start.postponed") as uow:
                if uow is not None:
                    uow.details["error"] = error.message
                    retry = uow.now + context.poll_every
                    await uow.jobs.schedule(AT_START, job.subject, retry, job.payload)
            return
        records = {
            facts.home.name: AtStartRecord(facts.home.id, *home, fielded[facts.home.id], observed),
            facts.away.name: AtStartRecord(facts.away.id, *away, fielded[facts.away.id], observed),
        }
        judged = judge_at(
            _with_facts(season, facts.match.key, records), facts.match.key, facts.match.start
        )
        late = observed - facts.match.start > LATE_AFTER
        async with job_change(store, job, "cl.at_start") as uow:
            if uow is None:
                return
            current = await uow.matches.get(facts.match.id)
            if current is None or not same_instant(current.start, facts.match.start):
                uow.abandon()
                return
            for record in records.values():
                await record_at_start_in(uow, Actor.system(), facts.match.id, record)
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
                *disqualification_lines(judged, season),
            ]
            if forfeits:
                lines += rank_changes(judged, {facts.home.name, facts.away.name})
            await announce(uow, "\n".join(lines))

    return snapshot

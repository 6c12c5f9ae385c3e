"""chess.com polling of one open match every `poll_minutes`, through the bot's one client.

Before the challenge is complete, it reads the clubs' match lists. A match against the fixture's
opponent seen in registration or later counts as issued by chess.com's team1, the club that created
it. It also counts as accepted at the instant first seen, which is an upper bound, and is recorded
as "seen on chess.com".

Once the match has started, it reads the linked match. When that is finished it is imported through
the `/match report` service, which announces the result and ends the polling. An outage such as a
5xx or a timeout records nothing and never a forfeit, and the job retries at the next poll with
`RetryLater`. chess.com is read in the job's fetch step. What it saw is recorded in the job's unit
of work, where the `cl.poll` job schedules its next poll by its natural key until the match is
finished.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.chesscom.client import ChessComClient
from bot.chesscom.models import FINISHED, TeamMatch, last_segment
from bot.kernel.actor import Actor
from bot.kernel.errors import UserError
from bot.league.automation.context import AutomationContext
from bot.league.automation.match_facts import MatchFacts, failed_cl15, match_facts, match_id_of
from bot.league.matches.jobs import POLL
from bot.league.matches.results import (
    ChessComRead,
    import_chesscom_result_in,
    read_chesscom_result,
)
from bot.league.matches.service import accept_challenge_in, issue_challenge_in
from bot.runtime.polite_http import ApiError, ApiNotFound
from bot.runtime.scheduler import RetryLater
from storage.guild import GuildStore, LeagueUnit
from storage.league.clubs import normalise_club
from storage.shared.jobs import Job

log = logging.getLogger(__name__)

LAST_CALL = dt.timedelta(minutes=5)
"""An incomplete challenge gets a last poll this long before its deadline."""


@dataclass(frozen=True)
class Sighting:
    """A chess.com team match of the fixture: its id, the club that created it, its state."""

    chesscom_id: int
    issuer_id: int
    payload: TeamMatch


def _complete(facts: MatchFacts) -> bool:
    challenge = facts.match.challenge
    return challenge is not None and challenge.accepted_at is not None


async def _candidates(client: ChessComClient, facts: MatchFacts) -> list[int]:
    """chess.com matches against the fixture's opponent in registration or running, from
    the home club's list, then the away club's."""
    found: list[int] = []
    for club in (facts.home, facts.away):
        other = facts.opponent(club.id).chesscom_id
        if club.chesscom_id is None or other is None:
            continue
        listed = await client.club_matches(club.chesscom_id)
        for entry in (*listed.registered, *listed.in_progress):
            opponent = last_segment(entry.opponent)
            if opponent is None or normalise_club(opponent) != normalise_club(other):
                continue
            if entry.match_id and entry.match_id.isdigit() and int(entry.match_id) not in found:
                found.append(int(entry.match_id))
    return found


def _issuer(facts: MatchFacts, payload: TeamMatch) -> int | None:
    """The fixture's club that created the chess.com match as team1, or None if neither did."""
    team1 = last_segment(payload.team1.api_id) if payload.team1 is not None else None
    for club in (facts.home, facts.away):
        if team1 and club.chesscom_id and normalise_club(team1) == club.chesscom_id:
            return club.id
    return None


async def _sighting(
    client: ChessComClient, store: GuildStore, facts: MatchFacts
) -> Sighting | None:
    """The fixture's chess.com match: the linked one, else the first candidate from the
    clubs' lists not linked to another fixture. Raises ApiError on an outage."""
    linked = facts.match.chesscom_match_id
    ids = [linked] if linked is not None else await _candidates(client, facts)
    for chesscom_id in ids:
        if linked is None:
            async with store.read() as view:
                other = await view.matches.by_chesscom(chesscom_id)
            if other is not None and other.id != facts.match.id:
                continue
        try:
            payload = await client.team_match(chesscom_id)
        except ApiNotFound:
            continue
        issuer = _issuer(facts, payload)
        if issuer is None:
            continue
        return Sighting(chesscom_id, issuer, payload)
    return None


def _next_poll(context: AutomationContext, facts: MatchFacts, now: dt.datetime) -> dt.datetime:
    """When the next poll comes.

    Polls come every `poll_minutes`. An incomplete challenge gets a last look just before its
    deadline, and a complete one is not read again before the start.
    """
    due = now + context.poll_every
    if not _complete(facts):
        last_call = facts.deadline - LAST_CALL
        if now < last_call:
            due = min(due, last_call)
    elif now < facts.match.start:
        due = max(due, facts.match.start)
    return due


@dataclass(frozen=True)
class PollRead:
    """What one poll read on chess.com in the fetch step.

    It holds the fixture's match if seen, and the finished match's result ready to import. The
    result is None if the match is not finished or not importable.
    """

    sighting: Sighting | None
    result: ChessComRead | None


def poll_fetcher(context: AutomationContext) -> Callable[[Job], Awaitable[PollRead | None]]:
    """The read-only step of `cl.poll` jobs, run outside any transaction.

    It reads the clubs' match lists or the linked match, and a finished match's result. It returns
    None when polling has ended. An outage such as a 5xx or a timeout records nothing and never a
    forfeit, and raises `RetryLater` for the next poll.
    """

    async def fetch(job: Job) -> PollRead | None:
        store = context.store(job.guild_id)
        async with store.read() as view:
            facts = await match_facts(view, match_id_of(job.payload))
        if facts is None or facts.match.finished_at is not None:
            return None
        now = context.now()
        if not _complete(facts) and now > facts.deadline and failed_cl15(facts):
            return None  # forfeited under CL-15: nothing left to read
        client = context.chesscom
        if client is None:
            log.warning("match %d: no chess.com client configured; not polled", facts.match.id)
            return None
        sighting: Sighting | None = None
        result: ChessComRead | None = None
        try:
            if not _complete(facts) or now >= facts.match.start:
                sighting = await _sighting(client, store, facts)
        except ApiError as failure:
            log.warning("match %d: chess.com poll failed: %s", facts.match.id, failure.message)
            raise RetryLater(_next_poll(context, facts, now), failure.message) from None
        if sighting is not None and sighting.payload.status == FINISHED:
            try:
                result = await read_chesscom_result(
                    store, client, facts.match.id, sighting.chesscom_id
                )
            except UserError as refusal:
                log.warning("match %d: import refused: %s", facts.match.id, refusal.message)
        return PollRead(sighting, result)

    return fetch


def poll_handler(
    context: AutomationContext,
) -> Callable[[Job, LeagueUnit, PollRead | None], Awaitable[None]]:
    """The handler of `cl.poll` jobs, run in the job's unit of work.

    A sighting is recorded as the challenge issued and accepted. A finished match is imported, which
    ends the polling. Otherwise the job moves to the next poll.
    """

    async def poll(job: Job, uow: LeagueUnit, read: PollRead | None) -> None:
        current = await match_facts(uow, match_id_of(job.payload))
        if read is None or current is None or current.match.finished_at is not None:
            uow.abandon()  # polling has ended: the job ends with nothing written
            return
        system = Actor.system()
        sighting = read.sighting
        # A chess.com match links one fixture at most, so one linked here is linked nowhere else.
        if sighting is not None and sighting.chesscom_id != current.match.chesscom_match_id:
            other = await uow.matches.by_chesscom(sighting.chesscom_id)
            if other is not None and other.id != current.match.id:
                sighting = None  # linked to another fixture meanwhile
        if sighting is not None and not _complete(current):
            uow.details["seen_on_chesscom"] = sighting.chesscom_id
            if current.match.challenge is None:
                await issue_challenge_in(
                    uow,
                    system,
                    current.match.id,
                    sighting.chesscom_id,
                    club=sighting.issuer_id,
                    source="chesscom",
                    at=uow.now,
                )
            elif current.match.chesscom_match_id is None:
                await uow.matches.link_chesscom(current.match.id, sighting.chesscom_id)
            await accept_challenge_in(uow, system, current.match.id, source="chesscom", at=uow.now)
            refreshed = await match_facts(uow, current.match.id)
            assert refreshed is not None
            current = refreshed
        if read.result is not None and read.result.match.id == current.match.id:
            try:
                await import_chesscom_result_in(uow, system, read.result)
                return  # finished: the import ends the polling
            except UserError as refusal:  # refused: nothing of it is left written
                log.warning("match %d: import refused: %s", current.match.id, refusal.message)
        await uow.jobs.schedule(
            POLL, job.subject, _next_poll(context, current, uow.now), job.payload
        )

    return poll

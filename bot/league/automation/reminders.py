"""CL-15 reminders at the deadline minus 48 h and minus 12 h.

The admins of each club that has not yet issued or accepted the challenge are mentioned in the
club's reminder channel, by default the announcements channel, with the deadline and the command to
run. Each admin who wants it, by `/notify`, also gets a direct message with the button that records
the challenge or its acceptance. A challenge already accepted, a finished match or a stale job of a
moved match says nothing.
After a jump in time only the last reminder due speaks, and none speaks once the deadline passed,
since its judgement speaks instead.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence

from bot.kernel.notifications import Kind
from bot.league.automation.match_facts import MatchFacts, match_facts, match_id_of, same_instant
from bot.league.matches.jobs import REMINDER_FAMILY as PREFIX
from bot.league.matches.life import match_now
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.league import announcements, notices
from bot.rendering.league.match_buttons import dm_match_buttons
from bot.runtime.notify import notify
from bot.runtime.scheduler import JobHandler
from core.league.lifecycle import Party, Step, StepRefused, allow
from storage.guild import LeagueUnit
from storage.league.clubs import Club
from storage.shared.jobs import Job

log = logging.getLogger(__name__)


def reminder_hours(kind: str) -> int:
    """The hours before the deadline a reminder kind stands for, so `cl.reminder.48h` gives 48."""
    hours = kind.removeprefix(PREFIX).removesuffix("h")
    if not kind.startswith(PREFIX) or not hours.isdigit():
        raise ValueError(f"{kind!r} is not a reminder kind")
    return int(hours)


def superseded(
    hours: int, rules_hours: Sequence[int], deadline: dt.datetime, now: dt.datetime
) -> bool:
    """True when a later reminder of the same deadline is due too at `now`.

    The later reminder comes fewer hours before the deadline. Both are due when the bot was down
    over both, so this earlier one says nothing.
    """
    return any(h < hours and now >= deadline - dt.timedelta(hours=h) for h in rules_hours)


def waiting_clubs(facts: MatchFacts) -> list[tuple[Club, str]]:
    """CL-15: the clubs still to act and the command each runs.

    With no challenge either club may issue it, so both are reminded. An issued challenge waits for
    the other club to accept.
    """
    challenge = facts.match.challenge
    if challenge is None:
        return [(facts.home, notices.CHALLENGE_COMMAND), (facts.away, notices.CHALLENGE_COMMAND)]
    if challenge.accepted_at is None:
        return [(facts.opponent(challenge.issued_by), notices.ACCEPT_COMMAND)]
    return []


async def _tell(
    uow: LeagueUnit,
    facts: MatchFacts,
    club: Club,
    admins: list[int],
    command: str,
    channel: int,
) -> list[int]:
    """CL-15: the reminder by direct message to the club's admins who want it, with the button
    that issues or accepts the challenge."""
    match = facts.match
    text = notices.challenge_due(
        club.name, facts.home.name, facts.away.name, match.id, facts.deadline, command
    )
    action = "challenge" if command == notices.CHALLENGE_COMMAND else "accept"
    buttons = dm_match_buttons(uow.guild_id, match.id, action)
    return await notify(
        uow, Kind.CHALLENGE, admins, channel_id=channel, content=text, components=buttons
    )


def reminder_handler() -> JobHandler:
    """The handler of the `cl.reminder.<h>h` family, run in the job's unit of work.

    The reminders and the job's end commit together, so each reminder is posted once.
    """

    async def remind(job: Job, uow: LeagueUnit) -> None:
        offset = reminder_hours(job.kind)
        facts = await match_facts(uow, match_id_of(job.payload))
        if (
            facts is None
            or facts.match.finished_at is not None
            or not same_instant(job.due_at, facts.deadline - dt.timedelta(hours=offset))
            or uow.now >= facts.deadline
            or superseded(offset, facts.season.rules.reminder_hours, facts.deadline, uow.now)
        ):
            uow.abandon()  # gone, played, moved, past its deadline or a later one due: silent
            return
        waiting = waiting_clubs(facts)
        if not waiting:  # the challenge is complete: nobody to remind, no season to judge
            uow.abandon()
            return
        current = await match_now(uow, facts.match, uow.now)
        try:  # CL-DQ: a void match's clubs are not threatened with a forfeit
            allow(current.view, Step.REMIND, Party.BOT)
        except StepRefused:
            uow.abandon()
            return
        settings = await uow.settings.get()
        reminded = []
        for club, command in waiting:
            channel = club.reminder_channel_id or settings.announcements_channel_id
            admins = await uow.club_admins.admins_of(club.id)
            if channel is None:
                log.warning("no channel for the reminder of club %s", club.name)
            else:
                text = announcements.challenge_reminder(
                    club.name,
                    facts.opponent(club.id).name,
                    admins,
                    facts.match.id,
                    facts.deadline,
                    command,
                )
                await uow.outbox.post(
                    channel, content=cut(text, limits.MESSAGE_CONTENT), ping_users=admins
                )
            if await _tell(uow, facts, club, admins, command, channel or 0) or channel:
                reminded.append(club.id)
        if not reminded:
            uow.abandon()
            return
        uow.details["reminded"] = reminded

    return remind

"""Plugs the league's match jobs into the bot's job registry.

It is called in `setup_hook`, before the scheduler runs what fell due while the bot was down.
"""

from __future__ import annotations

from bot.league.automation.at_start import at_start_fetcher, store_snapshot
from bot.league.automation.context import AutomationContext
from bot.league.automation.deadline import deadline_handler
from bot.league.automation.polling import poll_fetcher, poll_handler
from bot.league.automation.reminders import reminder_handler
from bot.league.matches.jobs import AT_START, DEADLINE, POLL, REMINDER_FAMILY
from bot.league.motions.lifecycle import CLOSING_JOB, run_closing_job
from bot.runtime.scheduler import JobRegistry


def register_league_jobs(registry: JobRegistry, context: AutomationContext) -> list[str]:
    """Registers the match jobs and returns their kinds, with the family shown as `cl.reminder.*`.

    The jobs are one handler for the reminder family `cl.reminder.<h>h`, whatever offsets a season
    froze, the deadline, the chess.com reading kinds with their fetch steps, and the reminder of a
    motion closing soon.
    """
    registry.register_family(REMINDER_FAMILY, reminder_handler())
    registry.register(DEADLINE, deadline_handler())
    registry.register_fetching(AT_START, at_start_fetcher(context), store_snapshot)
    registry.register_fetching(POLL, poll_fetcher(context), poll_handler(context))
    registry.register(CLOSING_JOB, run_closing_job)
    return sorted([f"{REMINDER_FAMILY}*", DEADLINE, AT_START, POLL, CLOSING_JOB])

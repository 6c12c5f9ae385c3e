"""Plug the league's match jobs into the bot's job registry (called in `setup_hook`, before
the scheduler runs what fell due while the bot was down)."""

from __future__ import annotations

from bot.automation.at_start import at_start_handler
from bot.automation.context import AutomationContext
from bot.automation.deadline import deadline_handler
from bot.automation.polling import poll_handler
from bot.automation.reminders import reminder_handler
from bot.scheduler import JobRegistry
from bot.services.match_jobs import AT_START, DEADLINE, POLL, REMINDER
from core.league.season import MAX_CHALLENGE_DEADLINE_HOURS


def register_league_jobs(registry: JobRegistry, context: AutomationContext) -> list[str]:
    """Register a handler for every match job kind — a reminder at every offset a season may
    freeze (CL-15: 1 h up to a year before the deadline) — and returns the kinds."""
    remind = reminder_handler(context)
    offsets = range(1, MAX_CHALLENGE_DEADLINE_HOURS + 1)
    kinds = {REMINDER.format(hours=hours): remind for hours in offsets}
    kinds |= {
        DEADLINE: deadline_handler(context),
        AT_START: at_start_handler(context),
        POLL: poll_handler(context),
    }
    for kind, handler in kinds.items():
        registry.register(kind, handler)
    return sorted(kinds)

"""Announcement texts the services queue in the outbox with the change they announce.

Instants are Discord timestamps (`<t:UNIX:F>`), which every reader sees in their own zone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence


def timestamp(instant: dt.datetime, style: str = "F") -> str:
    """A Discord timestamp of an aware instant."""
    return f"<t:{int(instant.timestamp())}:{style}>"


def club_registered(name: str, url_id: str, admins: Sequence[int]) -> str:
    """A new registration waiting for HQ (CL-2..4)."""
    mentions = ", ".join(f"<@{a}>" for a in admins)
    return (
        f"New club registration: **{name}** (https://www.chess.com/club/{url_id}),"
        f" admins {mentions}. Pending until league HQ decides."
    )


def club_decided(name: str, status: str, reason: str | None) -> str:
    """HQ's (or the directors') decision on a club."""
    why = f" Reason: {reason}" if reason else ""
    return f"Club **{name}** is now **{status}**.{why}"


def season_scheduled(season: str, matches: int, first: dt.datetime | None) -> str:
    """A season's fixtures are out (CL-12/13)."""
    when = f"; the first round starts {timestamp(first)}" if first else ""
    return f"Season **{season}** is scheduled: {matches} matches{when}."


def match_rescheduled(home: str, away: str, start: dt.datetime, deadline: dt.datetime) -> str:
    """A director moved a match (and with it its CL-15 deadline)."""
    return (
        f"**{home}** vs **{away}** now starts {timestamp(start)};"
        f" the challenge must be issued and accepted by {timestamp(deadline)} (CL-15)."
    )


def result_recorded(home: str, away: str, home_half: int, away_half: int, how: str) -> str:
    """A match result entered (imported from chess.com or by an arbiter)."""
    return f"Result ({how}): **{home}** {_points(home_half)} – {_points(away_half)} **{away}**."


def decision_recorded(kind: str, subject: str, rule: str, motion_id: int | None) -> str:
    """A director decision applied (CL-23)."""
    motion = f" (motion {motion_id})" if motion_id is not None else ""
    return f"Director decision{motion}: **{kind}** — {subject} under {rule}."


def _points(half: int) -> str:
    whole, rest = divmod(half, 2)
    return f"{whole}½" if rest and whole else ("½" if rest else str(whole))

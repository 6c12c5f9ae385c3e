"""The direct messages of the league: what a club admin or a director is told personally.

Each text stands alone in a direct message, so it names the match or motion it is about.
Names and reasons come as typed and are escaped here by `user_text`, as in the announcements.
None of these texts mentions anyone.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from bot.rendering.common.text import countdown, halves, timestamp
from bot.rendering.common.user_text import user_text
from bot.rendering.league.motions import motion_title
from storage.league.motions import Motion

CHALLENGE_COMMAND = "/match challenge"
"""The command a club runs to record a challenge it issued."""
ACCEPT_COMMAND = "/match accept"
"""The command a club runs to record that it accepted the other club's challenge."""


def _match(home: str, away: str, match_id: int) -> str:
    return f"**{user_text(home)}** vs **{user_text(away)}** (match {match_id})"


def challenge_due(
    club: str, home: str, away: str, match_id: int, deadline: dt.datetime, command: str
) -> str:
    """CL-15: the reminder to a club's admin that their club must still issue or accept."""
    step = "issued and accepted" if command == CHALLENGE_COMMAND else "accepted"
    match = _match(home, away, match_id)
    return (
        f"Your club **{user_text(club)}**: the chess.com challenge of {match}"
        f" must be {step} by {countdown(deadline)} (CL-15), or the match is lost by forfeit."
        f" Use the button below or run `{command}` with match {match_id}."
    )


def challenge_issued(
    issuer: str, home: str, away: str, match_id: int, deadline: dt.datetime
) -> str:
    """CL-15: the other club issued the challenge, and this admin's club must accept it."""
    return (
        f"**{user_text(issuer)}** issued the chess.com challenge of {_match(home, away, match_id)}."
        f" Your club must accept it by {countdown(deadline)} (CL-15), or the match is lost by"
        f" forfeit. Use the button below or run `{ACCEPT_COMMAND}` with match {match_id}."
    )


def match_started(home: str, away: str, match_id: int, start: dt.datetime) -> str:
    """A match of this admin's club started, as the at-start snapshot saw it."""
    return f"Your club's match {_match(home, away, match_id)} started {timestamp(start)}."


def result_counted(
    home: str,
    away: str,
    match_id: int,
    home_half: int,
    away_half: int,
    how: str,
    counts: str | None = None,
) -> str:
    """A result of this admin's club's match counted or corrected, with what it counts as."""
    text = (
        f"Result of your club's match {match_id} ({user_text(how)}): **{user_text(home)}**"
        f" {halves(home_half)} – {halves(away_half)} **{user_text(away)}**"
    )
    if counts:
        return f"{text} on the boards; {user_text(counts)}."
    return f"{text}."


def _forfeit(club: str, home: str, away: str, match_id: int, rule: str, why: str) -> str:
    return (
        f"Your club **{user_text(club)}** forfeits {_match(home, away, match_id)}"
        f" under {user_text(rule)}: {why}."
    )


def deadline_forfeit(club: str, home: str, away: str, match_id: int, deadline: dt.datetime) -> str:
    """CL-15: this admin's club forfeits, the challenge not issued and accepted by the deadline."""
    why = f"the challenge was not issued and accepted by {timestamp(deadline)}"
    return _forfeit(club, home, away, match_id, "CL-15", why)


def start_forfeit(club: str, home: str, away: str, match_id: int, rules: Sequence[str]) -> str:
    """CL-5, CL-6 and CL-20: this admin's club forfeits by its facts at the start."""
    why = "its facts read at the start of the match breach it"
    return _forfeit(club, home, away, match_id, ", ".join(rules), why)


def director_forfeit(
    club: str, home: str, away: str, match_id: int, rule: str, motion_id: int
) -> str:
    """CL-21 and CL-23: this admin's club forfeits by a director decision."""
    why = f"the directors decided it (motion {motion_id})"
    return _forfeit(club, home, away, match_id, rule, why)


def disqualified(club: str, rule: str, motion_id: int | None = None) -> str:
    """CL-DQ: this admin's club is out of the season, and none of its matches count."""
    by = "" if motion_id is None else f" by a director decision (motion {motion_id})"
    return (
        f"Your club **{user_text(club)}** is disqualified{by} (CL-DQ, under {user_text(rule)})."
        " None of its matches count in anyone's standings."
    )


def vote_opened(motion: Motion) -> str:
    """CL-23: a motion opened that awaits this director's vote."""
    return (
        f"{motion_title(motion)} is open and awaits your vote."
        f" It closes {countdown(motion.deadline)} (CL-23)."
    )


def vote_closing(motion: Motion) -> str:
    """CL-23: a motion closing soon, and this director has not voted."""
    return (
        f"{motion_title(motion)} closes {countdown(motion.deadline)} and your vote is not in"
        " yet (CL-23)."
    )

"""Announcement texts the services queue in the outbox with the change they announce.

Instants are Discord timestamps such as `<t:UNIX:F>`, which every reader sees in their own zone.
Names and reasons come as typed and are escaped here by `escape.user_text`, around our own markdown.
None of these texts pings anyone unless its message names whom in `ping_users`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from urllib.parse import quote

from bot.rendering.common.text import countdown, halves, timestamp
from bot.rendering.common.user_text import user_text


def club_url(url_id: str) -> str:
    """A chess.com club's page, with its url-id percent-encoded in the path.

    A link shows no markdown, so escaping the url-id would break the link, while encoding keeps it
    one link.
    """
    return f"https://www.chess.com/club/{quote(url_id, safe='')}"


def club_registered(name: str, url_id: str, admins: Sequence[int]) -> str:
    """A new registration waiting for HQ, by CL-2..4."""
    mentions = ", ".join(f"<@{a}>" for a in admins)
    return (
        f"New club registration: **{user_text(name)}**"
        f" ({club_url(url_id)}),"
        f" admins {mentions}. Pending until league HQ decides."
    )


def club_decided(name: str, status: str, reason: str | None) -> str:
    """HQ's or the directors' decision on a club."""
    why = f" Reason: {user_text(reason)}" if reason else ""
    return f"Club **{user_text(name)}** is now **{status}**.{why}"


def season_scheduled(season: str, matches: int, first: dt.datetime | None) -> str:
    """A season's fixtures are out, by CL-12 and CL-13."""
    when = f"; the first round starts {timestamp(first)}" if first else ""
    return f"Season **{user_text(season)}** is scheduled: {matches} matches{when}."


def match_rescheduled(home: str, away: str, start: dt.datetime, deadline: dt.datetime) -> str:
    """A director moved a match, and with it its CL-15 deadline."""
    return (
        f"**{user_text(home)}** vs **{user_text(away)}** now starts {timestamp(start)};"
        f" the challenge must be issued and accepted by {timestamp(deadline)} (CL-15)."
    )


def challenge_corrected(home: str, away: str, chesscom: int, issuer: str, stands: str) -> str:
    """CL-15: an arbiter corrected a recorded challenge's chess.com match or issuer."""
    return (
        f"An arbiter corrected the challenge of **{user_text(home)}** vs **{user_text(away)}**:"
        f" chess.com match {chesscom}, issued by **{user_text(issuer)}**; {stands} (CL-15)."
    )


def result_recorded(
    home: str, away: str, home_half: int, away_half: int, how: str, counts: str | None = None
) -> str:
    """A match result entered, imported from chess.com or by an arbiter.

    When the match does not count as the boards' score, `counts` says what it counts as: a forfeit,
    void or adjusted boards.
    """
    text = (
        f"Result ({how}): **{user_text(home)}** {halves(home_half)} – {halves(away_half)}"
        f" **{user_text(away)}**"
    )
    if counts:
        return f"{text} on the boards; {user_text(counts)}."
    return f"{text}."


def counted_changes(matches: Sequence[str]) -> str:
    """CL-18, CL-19: a finding that changes how earlier matches count, listing them."""
    listed = "; ".join(user_text(m) for m in matches[:20])
    more = f" and {len(matches) - 20} more" if len(matches) > 20 else ""
    return f"This changes how earlier matches count (CL-18, CL-19): {listed}{more}."


def decision_recorded(kind: str, subject: str, rule: str, motion_id: int | None) -> str:
    """A director decision applied, by CL-23."""
    motion = f" (motion {motion_id})" if motion_id is not None else ""
    return f"Director decision{motion}: **{kind}** — {user_text(subject)} under {rule}."


def challenge_reminder(
    club: str,
    opponent: str,
    admins: Sequence[int],
    match_id: int,
    deadline: dt.datetime,
    command: str,
) -> str:
    """CL-15: a club that has not issued or accepted its challenge is reminded, by name.

    The message pings exactly `admins`, so post it with `ping_users=admins`.
    """
    mentions = " ".join(f"<@{a}>" for a in admins) or f"Admins of **{user_text(club)}**"
    step = "issued and accepted" if command == "/match challenge" else "accepted"
    return (
        f"{mentions}: the chess.com challenge of **{user_text(club)}** vs"
        f" **{user_text(opponent)}** (match {match_id})"
        f" must be {step} by {countdown(deadline)} (CL-15), or the match is lost by forfeit."
        f" Run `{command}` with match {match_id}."
    )


def deadline_forfeits(
    home: str, away: str, losers: Sequence[str], deadline: dt.datetime, late: bool
) -> str:
    """CL-15 judged at the deadline: who forfeits and why."""
    if len(losers) == 2:
        why = "no challenge was issued and accepted in time: both clubs forfeit (0 points each)"
    else:
        why = f"the challenge was not accepted in time: **{user_text(losers[0])}** forfeits"
    note = " (judged at start-up: the bot was down at the deadline)" if late else ""
    return (
        f"Challenge deadline {timestamp(deadline)} passed for **{user_text(home)}**"
        f" vs **{user_text(away)}**:"
        f" {why} (CL-15){note}."
    )


def disqualified(club: str, rule: str, forfeits: int, void: int) -> str:
    """CL-DQ: a club is out of the season, and none of its matches count for anyone."""
    return (
        f"**{user_text(club)}** is disqualified (CL-DQ: {forfeits} forfeits under {rule})."
        f" None of its {void} matches count in anyone's standings."
    )


def standings_change(division: str, changes: Sequence[tuple[str, str, str]]) -> str:
    """The ranks of a division's clubs that moved: `club before → after`."""
    lines = ", ".join(f"{user_text(club)} {before} → {after}" for club, before, after in changes)
    return f"{user_text(division)} standings: {lines}."


def at_start_snapshot(
    home: str,
    away: str,
    start: dt.datetime,
    facts: Sequence[str],
    observed: dt.datetime,
    late: bool,
    forfeits: Sequence[str],
) -> str:
    """CL-5/6/20: the clubs' facts at the start, when they were read, and what they cause."""
    when = f"read {timestamp(observed)}"
    if late:
        when += f", late: the match started {timestamp(start)}; these are the facts as read then"
    text = f"**{user_text(home)}** vs **{user_text(away)}** started. At-start facts ({when}): "
    text += "; ".join(user_text(fact) for fact in facts) + "."  # plain text naming clubs
    if forfeits:
        text += " Forfeits: " + ", ".join(user_text(forfeit) for forfeit in forfeits) + "."
    return text

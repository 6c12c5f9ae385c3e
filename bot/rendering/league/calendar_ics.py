"""A season's matches as an iCalendar file by RFC 5545.

There is one event per match with both clubs, its start and end in UTC, the result once it is known,
and the CL-15 challenge deadline as an alarm on the event.

- DTEND: when the match finished, once known, else a week after the start, which is a CL
  round.
- A forfeit and a void match say what happened in a sentence, with the rule: "Juventus Fans
  won by forfeit: Celtic Fans had too few players (CL-20)", "void: D was disqualified
  (CL-DQ), so this match counts for no one".
- UID: a name-based UUID of the guild, the season's id and the match's key, by
  `bot.rendering.common.calendar_uid`. It is stable, so a calendar imported again updates its
  events, and a renamed season keeps its UIDs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import icalendar

from bot.rendering.common.calendar_uid import calendar_uid
from bot.rendering.common.text import halves
from core.league.facts import challenge_deadline
from core.league.forfeits import Breach
from core.league.lifecycle import MatchState, states
from core.league.report import LeagueReport, rule_order
from core.league.season import Season

ROUND = dt.timedelta(days=7)
"""An unfinished match's event lasts a round."""


@dataclass(frozen=True)
class CalendarMatch:
    """What the calendar shows of one match.

    `deadline` is its CL-15 challenge deadline and `end` when it finished, None until then. `result`
    is its short result once decided, such as `5½–2½` or `A won by forfeit`. `outcome` is the
    sentence saying what happened, a forfeit's or a void match's reason.
    """

    id: str
    division: str
    round: int
    home: str
    away: str
    start: dt.datetime
    deadline: dt.datetime
    end: dt.datetime | None = None
    result: str | None = None
    cancelled: bool = False
    """Void by CL-DQ, since a club of it is disqualified. The event says STATUS:CANCELLED."""
    outcome: str | None = None


def event_uid(guild: int, season: int, match: str) -> str:
    """The stable UID of a match's event, from the guild, the season's id and the match's key."""
    return calendar_uid(guild, "match", season, match)


def _utc(instant: dt.datetime) -> str:
    return instant.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def season_calendar(
    season: str,
    matches: Iterable[CalendarMatch],
    stamp: dt.datetime,
    title: str | None = None,
    *,
    guild: int,
    season_id: int,
) -> bytes:
    """The matches as an .ics file.

    Each event runs from the match start to its end in UTC and names both clubs and, once decided,
    the result. It has an alarm at the CL-15 challenge deadline. A match void by CL-DQ is cancelled
    instead, with STATUS:CANCELLED and no alarm. `stamp` is DTSTAMP. The calendar's name, which a
    calendar application shows, is `title`, else the season's. The UIDs come from `guild` and
    `season_id`, never from a name.
    """
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Arbiter//CL season calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", title or season)
    stamp = stamp.astimezone(dt.UTC)
    for match in sorted(matches, key=lambda m: (m.start, m.id)):
        start = match.start.astimezone(dt.UTC)
        end = (match.end or match.start + ROUND).astimezone(dt.UTC)
        deadline = match.deadline.astimezone(dt.UTC)
        event = icalendar.Event()
        event.add("uid", event_uid(guild, season_id, match.id))
        event.add("dtstamp", stamp)
        event.add("dtstart", start)
        event.add("dtend", max(end, start + dt.timedelta(minutes=1)))
        score = f" ({match.result})" if match.result else ""
        score = " (void)" if match.cancelled else score
        event.add("summary", f"{match.home} – {match.away}{score}")
        lines = [
            f"{season}, {match.division}, round {match.round} (match {match.id}).",
            f"Challenge deadline (CL-15): {_utc(deadline)}",
        ]
        if match.outcome:
            lines.append(f"{match.outcome[0].upper()}{match.outcome[1:]}.")
        elif match.result:
            lines.append(f"Result: {match.home} {match.result} {match.away}.")
        event.add("description", "\n".join(lines))
        event.add("categories", [match.division])
        if match.cancelled:
            event.add("status", "CANCELLED")
            calendar.add_component(event)
            continue
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"Challenge deadline (CL-15): {match.home} – {match.away}")
        alarm.add("trigger", deadline, parameters={"VALUE": "DATE-TIME"})
        event.add_component(alarm)
        calendar.add_component(event)
    data: bytes = calendar.to_ical()
    return data


BREACHES = {
    "CL-5": "had more members than the limit",
    "CL-6": "was over the rating limit",
    "CL-15": "did not start the match on time",
    "CL-20": "had too few players",
    "CL-21": "lost it by the directors' decision on roster removals",
}
"""What each forfeit rule says a club did, as the calendar writes it."""


def _broke(club: str, rules: Sequence[str]) -> str:
    """A club and the rules it broke, such as `Celtic Fans had too few players (CL-20)`."""
    said = [f"{BREACHES.get(rule, 'broke a rule')} ({rule})" for rule in rules]
    return f"{club} {' and '.join(said) if said else 'lost by forfeit'}"


def forfeit_text(home: str, away: str, losers: Sequence[str], breaches: Sequence[Breach]) -> str:
    """A forfeit as a sentence: who won and why the other lost, or that both lost and why."""
    rules = {
        club: sorted({b.rule for b in breaches if b.club == club}, key=rule_order)
        for club in (home, away)
    }
    if len(losers) == 2:
        both = " and ".join(_broke(club, rules[club]) for club in (home, away))
        return f"both clubs lost by forfeit: {both}"
    if not losers:
        return "decided by forfeit"
    (loser,) = losers
    winner = away if loser == home else home
    return f"{winner} won by forfeit: {_broke(loser, rules[loser])}"


def void_text(clubs: Sequence[str]) -> str:
    """A void match as a sentence: who was disqualified, and that it counts for no one."""
    who = " and ".join(clubs) if clubs else "a club"
    verb = "were" if len(clubs) > 1 else "was"
    return f"void: {who} {verb} disqualified (CL-DQ), so this match counts for no one"


def calendar_matches(
    season: Season, report: LeagueReport, now: dt.datetime, only: Sequence[str] | None = None
) -> list[CalendarMatch]:
    """The season's matches with their deadlines, ends, results and which are void.

    Only the matches of the clubs in `only` are given when it is set. The deadline is the CL-15 one,
    or a rescheduled match's own. The results are those the report decided, and a forfeit says who
    won and why. It also says which matches are void at `now` by CL-DQ, and why.
    """
    hours = season.rules.challenge_deadline_hours
    void = {key for key, state in states(season, now) if state is MatchState.VOID}
    results = {r.match: r for r in report.results}
    out = [d.club for d in report.disqualified]
    entries = []
    for m in season.matches:
        if only is not None and m.home not in only and m.away not in only:
            continue
        result = None if m.id in void else results.get(m.id)  # void: counts for nobody
        text = outcome = None
        if m.id in void:
            outcome = void_text([club for club in (m.home, m.away) if club in out])
        elif result is not None and result.forfeit:
            sides = ((m.home, result.home_points), (m.away, result.away_points))
            lost = [club for club, got in sides if not got]
            breaches = [b for b in report.forfeits if b.match == m.id]
            outcome = forfeit_text(m.home, m.away, lost, breaches)
            winners = [club for club, got in sides if got]
            text = f"{winners[0]} won by forfeit" if len(winners) == 1 else "double forfeit"
        elif result is not None:
            text = f"{halves(result.home_half)}–{halves(result.away_half)}"
        entries.append(
            CalendarMatch(
                m.id,
                m.division,
                m.round,
                m.home,
                m.away,
                m.start,
                challenge_deadline(m, hours),
                m.finished,
                text,
                m.id in void,
                outcome,
            )
        )
    return entries

"""`/my matches` as a read use case: the open matches of the clubs a member administers.

Each match of a season not closed yet comes with its CL-15 deadline, its state by the match life
cycle and what it awaits, so the view can offer the button of the step the member's club must take.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.league.matches.listing import match_lines
from bot.league.store import load_season
from bot.rendering.league.embeds import MatchLine
from core.league.lifecycle import MatchState, states
from storage.guild import GuildStore
from storage.league.matches import MatchRecord

OPEN_STATES = (MatchState.SCHEDULED, MatchState.ISSUED, MatchState.ACCEPTED, MatchState.STARTED)
"""The states of a match still to be played or counted."""


class Awaits(enum.Enum):
    """What an open match waits for, seen from the member's club."""

    OUR_CHALLENGE = "challenge"
    """CL-15: no challenge yet, and either club may issue it."""
    OUR_ACCEPTANCE = "accept"
    """CL-15: the other club issued it, and the member's club must accept it."""
    THEIR_ACCEPTANCE = "their acceptance"
    """CL-15: the member's club issued it, and the other club must accept it."""
    START = "start"
    """The challenge is complete, and the match starts by CL-13."""
    RESULT = "result"
    """The match started, and its result comes by CL-14."""

    @property
    def action(self) -> str | None:
        """The button's action of a step the member's club must take, else None."""
        return self.value if self in (Awaits.OUR_CHALLENGE, Awaits.OUR_ACCEPTANCE) else None


@dataclass(frozen=True)
class MyMatch:
    """An open match of one of the member's clubs: its line, that club, and what it awaits."""

    line: MatchLine
    club: str
    opponent: str
    awaits: Awaits


def _awaits(match: MatchRecord, state: MatchState, mine: set[int]) -> Awaits:
    if state is MatchState.STARTED:
        return Awaits.RESULT
    if state is MatchState.ACCEPTED:
        return Awaits.START
    if state is MatchState.ISSUED and match.challenge is not None:
        issuer = match.challenge.issued_by
        other = match.away_club_id if issuer == match.home_club_id else match.home_club_id
        return Awaits.OUR_ACCEPTANCE if other in mine else Awaits.THEIR_ACCEPTANCE
    return Awaits.OUR_CHALLENGE


async def my_matches(store: GuildStore, user_id: int) -> tuple[MyMatch, ...]:
    """The open matches, in start order, of the clubs `user_id` administers in this guild.

    Only seasons not closed are read. A match finished, forfeited by CL-15 or void by CL-DQ is not
    open.
    """
    now = store.database.clock()
    found: list[MyMatch] = []
    async with store.read() as view:
        mine = await view.club_admins.club_ids_of(user_id)
        if not mine:
            return ()
        clubs = {c.id: c.name for c in await view.clubs.all()}
        for record in await view.seasons.all():
            if record.closed:
                continue
            candidates = {
                m.id: m
                for m in await view.matches.of_season(record.id)
                if m.finished_at is None and mine & {m.home_club_id, m.away_club_id}
            }
            if not candidates:
                continue
            season = await load_season(view, record, for_judging=True)
            state = dict(states(season, now))
            divisions = {d.id: d.name for d in await view.seasons.divisions(record.id)}
            for line in match_lines(record, candidates.values(), divisions, clubs):
                match = candidates[line.id]
                if state.get(match.key) not in OPEN_STATES:
                    continue
                ours = match.home_club_id if match.home_club_id in mine else match.away_club_id
                theirs = match.away_club_id if ours == match.home_club_id else match.home_club_id
                awaits = _awaits(match, state[match.key], mine)
                found.append(MyMatch(line, clubs[ours], clubs[theirs], awaits))
    return tuple(sorted(found, key=lambda m: (m.line.start, m.line.id)))

"""`/roster check` as a read use case: a club's players fielded in a season, with the ones to watch.

It lists those playing for several clubs by CL-18, those whose account is closed by CL-19, and those
whose chess.com timeout ratio is above the season's limit by CL-21, read now.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from fractions import Fraction

from bot.league.rosters.facts import club_season, fielded
from bot.league.rosters.removal_checks import PlayerStatsSource
from bot.league.store import StandingsCache
from bot.runtime.polite_http import ApiError
from core.league.adjustments import MultiTeamPlayer
from core.league.season import exact_percent
from storage.guild import GuildStore


@dataclass(frozen=True)
class TimeoutAbove:
    """A player whose daily timeout ratio is above the season's CL-21 limit."""

    player: str
    percent: float


@dataclass(frozen=True)
class RosterCheck:
    """What `/roster check` reports of one club's season."""

    club: str
    season: str
    players: dict[str, int]
    """Players fielded, as first spelled, mapped to the games they played for the club."""
    multi_team: tuple[MultiTeamPlayer, ...]
    closed: tuple[str, ...]
    timeout_limit: Fraction
    above: tuple[TimeoutAbove, ...]
    unknown: tuple[str, ...]
    """Players whose statistics chess.com did not give."""


async def check_roster(
    store: GuildStore,
    standings: StandingsCache,
    chesscom: PlayerStatsSource,
    club: str,
    season: str | None,
    ready: Callable[[], Awaitable[None]],
) -> RosterCheck:
    """CL-18, CL-19 and CL-21 for the club's players of `season`, by default its current one.

    `ready` is awaited once club and season are found, before the standings and chess.com are read.
    An unknown club or season is refused before that.
    """
    async with store.read() as view:
        found, record = await club_season(view, club, season, store.database.clock())
        players = await fielded(view, found.id, record.id)
        closed = {a.username.casefold() for a in await view.rosters.closed_accounts(record.id)}
    await ready()
    report = await standings.report(store, record, now=store.database.clock())
    own = {name.casefold() for name in players}
    multi = {p.player: p for p in report.multi_team_players if p.player in own}
    limit = record.rules.timeout_ratio_limit_percent
    above: list[TimeoutAbove] = []
    unknown: list[str] = []
    for name in sorted(players, key=str.casefold):
        try:
            percent = (await chesscom.player_stats(name)).daily_timeout_percent
        except ApiError:
            unknown.append(name)
            continue
        if percent is not None and exact_percent(percent) > limit:
            above.append(TimeoutAbove(name, percent))
    return RosterCheck(
        found.name,
        record.name,
        players,
        tuple(multi.values()),
        tuple(n for n in players if n.casefold() in closed),
        limit,
        tuple(above),
        tuple(unknown),
    )

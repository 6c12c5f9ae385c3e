"""`/match show` and the reply after a result, as read use cases.

`/match show` gives a match's line and boards with its forfeits. Boards adjusted by CL-18 or CL-19
say why. The reply after a result gives its score as recorded and as it counts, with both clubs'
standings in the division now.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.league.matches.counting import what_counts
from bot.league.matches.lines import board_lines, read_line
from bot.league.references import find_match, find_season
from bot.league.store import StandingsCache
from bot.rendering.league.embeds import BoardLine, MatchLine
from core.league.forfeits import Breach
from core.league.lifecycle import match_state, match_view
from core.league.standings import ClubStanding
from storage.guild import GuildStore
from storage.league.matches import MatchRecord


@dataclass(frozen=True)
class MatchCard:
    """What `/match show` shows: the match, its boards, its forfeits and its life-cycle state.

    When the match does not count as played, it also shows what it counts as and why, by CL-FF,
    CL-ADJ and CL-DQ.
    """

    line: MatchLine
    boards: tuple[BoardLine, ...]
    forfeits: tuple[Breach, ...]
    counts: str | None = None
    state: str = ""


@dataclass(frozen=True)
class ResultCard:
    """What the reply to a result shows.

    It shows the score recorded and as it counts, the adjusted boards and each club's standing. The
    counted score is None until the report counts it, and a standing is None when the club is
    unranked.
    """

    line: MatchLine
    score: tuple[int, int]
    counted: tuple[int, int] | None
    adjusted: tuple[BoardLine, ...]
    ranks: tuple[tuple[str, ClubStanding | None], ...]
    counts: str | None = None
    """Why it counts otherwise than its boards, for a forfeit, a void match or adjusted boards."""


async def match_card(
    store: GuildStore, standings: StandingsCache, match: int | str, season: str | None = None
) -> MatchCard:
    """Match `match` of this guild, its boards and the forfeits recorded against it.

    It is refused when `season` is named and the match belongs to another. The forfeits are those of
    CL-15, CL-5, CL-6 and CL-20, and a director's.
    """
    now = store.database.clock()
    async with store.read() as view:
        scope = None if season is None else await find_season(view.seasons, season)
        record = await find_match(view.matches, match, scope)
        boards = await view.matches.boards(record.id)
        season_record = await find_season(view.seasons, record.season_id)
        line = await read_line(view, record, season_record, boards)
    # The cached report's season and judgement serve the life cycle's view too (CL-DQ: the
    # clubs out by now are the report's disqualified): one read and one judgement at most.
    facts, report = await standings.season_report(store, season_record, now=now)
    out = {q.club: q.effective for q in report.disqualified}
    state = match_state(match_view(facts, record.key, now, out))
    rows = board_lines(boards, report.adjusted_players)
    forfeits = tuple(f for f in report.forfeits if f.match == record.key)
    counted = what_counts(report, facts, record.key)
    return MatchCard(line, tuple(rows), forfeits, counted.why, state.value)


async def result_card(
    store: GuildStore, standings: StandingsCache, match: MatchRecord, why: str | None = None
) -> ResultCard:
    """The just-recorded result of `match`: its score, how it counts and both clubs' standings.

    Boards adjusted by CL-18 or CL-19 say why. `why` is what the result's service said it counts as.
    The standings are those of its division.
    """
    async with store.read() as view:
        season = await find_season(view.seasons, match.season_id)
        boards = await view.matches.boards(match.id)
        line = await read_line(view, match, season, boards)
    report = await standings.report(store, season, now=store.database.clock())
    adjusted = [b for b in board_lines(boards, report.adjusted_players) if b.why is not None]
    counted = next(
        ((r.home_half, r.away_half) for r in report.results if r.match == match.key), None
    )
    table = {s.club: s for s in report.standings(line.division)}
    ranks = tuple((club, table.get(club)) for club in (line.home, line.away))
    assert line.score is not None
    return ResultCard(line, line.score, counted, tuple(adjusted), ranks, why)

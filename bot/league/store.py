"""The league's database adapter, and the per-season standings cache keyed by its version.

A season's facts are written into a guild's store and read back as the same season values the
season-file adapter produces, so `league_report` gives the same standings from either.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from bot.kernel.date_window import EARLIEST_DAY, latest_day
from bot.league.matches.jobs import cancel_jobs, job_kinds
from core.league import LeagueReport, league_report
from core.league.facts import challenge_deadline
from core.league.season import (
    Board,
    Challenge,
    ClubAtStart,
    DirectorDisqualification,
    DirectorForfeit,
    Division,
    Match,
    Season,
)
from storage.guild import GuildStore, GuildView, LeagueUnit
from storage.league.decisions import NewDecision
from storage.league.matches import (
    AtStartRecord,
    BoardRecord,
    ChallengeRecord,
    MatchRecord,
    NewMatch,
)
from storage.league.rosters import ClosedAccount
from storage.league.seasons import SeasonRecord


class LeagueStoreError(ValueError):
    """A season that cannot be imported as asked, because its name is taken or a club differs."""


def _within_window(season: Season, today: dt.date) -> None:
    """Refuse a file whose match dates lie outside the window every command accepts (from
    2000 to five years ahead: `bot.kernel.date_window`), as a typo such as 9999 would be."""
    latest = latest_day(today)
    for m in season.matches:
        for what, instant in (("start", m.start), ("finish", m.finished), ("deadline", m.deadline)):
            if instant is not None and not EARLIEST_DAY <= instant.date() <= latest:
                raise LeagueStoreError(
                    f"match {m.id!r}: its {what} {instant:%Y-%m-%d} is outside the dates a"
                    f" season may hold ({EARLIEST_DAY.isoformat()} to {latest.isoformat()})"
                )


async def import_season(
    uow: LeagueUnit, season: Season, *, name: str | None = None, replace: bool = False
) -> SeasonRecord:
    """Writes a validated season into the unit of work's guild as a new season named `name`.

    The name defaults to the season's own. Its clubs are the guild's clubs of those names, added and
    approved when new. A taken name is refused unless `replace`, which first drops the old season
    and cancels its matches' pending jobs. A club the guild spells differently is refused, and names
    are compared without case.
    """
    name = (name or season.name).strip()
    _within_window(season, uow.now.date())
    existing = await uow.seasons.by_name(name)
    if existing is not None:
        if not replace:
            raise LeagueStoreError(f"season {name!r} exists (use --replace to overwrite it)")
        # Its matches' jobs go with them: SQLite gives a deleted match's id to the next one.
        for old in await uow.matches.of_season(existing.id):
            await cancel_jobs(uow, old.id, job_kinds(existing.rules))
        await uow.seasons.delete(existing.id)
    record = await uow.seasons.create(name, season.rules)
    clubs: dict[str, int] = {}
    for division in season.divisions:
        for club_name in division.clubs:
            club = await uow.clubs.by_name(club_name)
            if club is None:
                club = await uow.clubs.register(club_name, status="approved")
            elif club.name != club_name:
                raise LeagueStoreError(
                    f"club {club_name!r} is {club.name!r} in this guild (names differ in case)"
                )
            clubs[club_name] = club.id
    divisions: dict[str, int] = {}
    for division in season.divisions:
        row = await uow.seasons.add_division(record.id, division.name, division.min_players)
        divisions[division.name] = row.id
        for club_name in division.clubs:
            await uow.seasons.add_club(record.id, row.id, clubs[club_name])
    for club_name in season.withdrawn:
        await uow.seasons.set_withdrawn(record.id, clubs[club_name])
    fixtures = [
        NewMatch(
            division_id=divisions[m.division],
            key=m.id,
            round=m.round,
            home_club_id=clubs[m.home],
            away_club_id=clubs[m.away],
            start=m.start,
            finished_at=m.finished,
            challenge=None
            if m.challenge is None
            else ChallengeRecord(
                clubs[m.challenge.issued_by],
                m.challenge.issued,
                "declared",
                m.challenge.accepted,
                "declared" if m.challenge.accepted else None,
            ),
            deadline_at=m.deadline,
        )
        for m in season.matches
    ]
    ids = await uow.matches.add_many(record.id, fixtures)
    match_ids = {m.id: match_id for m, match_id in zip(season.matches, ids, strict=True)}
    await uow.matches.add_boards_many(
        record.id,
        [
            (
                match_id,
                BoardRecord(number, b.home_player, b.away_player, b.home_half, b.away_half),
            )
            for m, match_id in zip(season.matches, ids, strict=True)
            for number, b in enumerate(m.boards, start=1)
        ],
    )
    for m, match_id in zip(season.matches, ids, strict=True):
        for club_name, facts in m.at_start.items():
            await uow.matches.set_at_start(
                match_id,
                AtStartRecord(
                    clubs[club_name],
                    facts.members,
                    facts.avg_rating,
                    facts.players,
                ),
            )
    for username in season.closed_accounts:
        await uow.rosters.mark_closed(record.id, ClosedAccount(username))
    for forfeit in season.director_forfeits:
        await uow.decisions.record(
            record.id,
            NewDecision(
                "forfeit",
                forfeit.rule,
                match_ids[forfeit.match],
                clubs[forfeit.club],
                forfeit.decided,
            ),
        )
    for decision in season.director_disqualifications:
        await uow.decisions.record(
            record.id,
            NewDecision(
                "disqualification", decision.rule, None, clubs[decision.club], decision.decided
            ),
        )
    uow.details["season"] = {"id": record.id, "name": name, "matches": len(ids)}
    return record


_UNNAMED = Board("", "", 0, 0)
"""A board as `load_season(for_judging=True)` stands it in: only counted, never scored."""


async def load_season(
    view: GuildView, record: SeasonRecord, *, for_judging: bool = False
) -> Season:
    """The season's facts from the database as the same domain values the season file gives.

    They are the values of `bot.formats.season_file.load_season`, so `league_report` computes the
    same league.

    `for_judging` reads the facts that forfeits and disqualifications are judged on by CL-FF, CL-DQ
    and the match life cycle, without reading a board row. Each match's boards are stood in by
    unnamed ones, as many as it has, since CL-20 counts them. No closed account is read, since CL-19
    only adjusts scores. Such facts are never for standings or scores.
    """
    return (await load_season_facts(view, record, for_judging=for_judging)).season


@dataclass(frozen=True)
class SeasonFacts:
    """A season's facts as `load_season` read them, and its closed accounts."""

    season: Season
    closed: tuple[str, ...]
    """The season's closed accounts (CL-19), read judging or not (the judging season has
    none: they only adjust scores)."""


async def load_season_facts(
    view: GuildView, record: SeasonRecord, *, for_judging: bool = False
) -> SeasonFacts:
    """`load_season`, with the season's closed accounts."""
    return await _load_facts(view, record, for_judging, None)


async def load_division_facts(view: GuildView, record: SeasonRecord, division_id: int) -> Season:
    """The facts that judge the matches of division `division_id` by CL-FF and CL-DQ.

    They are `core.league.forfeits.division_facts` of the season read for judging, read without
    the other divisions' matches. No closed account is read, since CL-19 only adjusts scores.
    """
    return (await _load_facts(view, record, True, division_id)).season


async def _load_facts(
    view: GuildView, record: SeasonRecord, for_judging: bool, division_id: int | None
) -> SeasonFacts:
    """The season's facts, only those of `division_id` when it is given (read for judging)."""
    if division_id is None:
        clubs = {club.id: club.name for club in await view.clubs.all()}
    else:  # its matches, their challenges and decisions name its own clubs alone
        clubs = await view.clubs.names_in_division(division_id)
    divisions = await view.seasons.divisions(record.id)
    members = await view.seasons.members(record.id)
    if division_id is not None:
        divisions = [d for d in divisions if d.id == division_id]
        members = [x for x in members if x.division_id == division_id]
    matches = await view.matches.of_season(record.id, division_id)
    counts: dict[int, int] = {}
    boards: dict[int, list[BoardRecord]] = {}
    if for_judging:
        counts = await view.matches.board_counts(record.id, division_id)
    else:
        boards = await view.matches.boards_of_season(record.id)
    at_start = await view.matches.at_start_of_season(record.id, division_id)
    closed: tuple[str, ...] = ()
    if division_id is None:
        closed = tuple(a.username for a in await view.rosters.closed_accounts(record.id))
    decisions = await view.decisions.of_season(record.id)
    if division_id is not None:  # its matches' forfeits, its clubs' disqualifications
        mine = {m.id for m in matches}
        ids = {x.club_id for x in members}
        decisions = [
            d
            for d in decisions
            if (d.match_id in mine if d.kind == "forfeit" else d.club_id in ids)
        ]
    division_names = {d.id: d.name for d in divisions}
    keys = {m.id: m.key for m in matches}
    built = [
        _match(
            m,
            clubs,
            division_names,
            at_start.get(m.id, ()),
            counts.get(m.id, 0) if for_judging else boards.get(m.id, ()),
        )
        for m in matches
    ]
    season = Season(
        name=record.name,
        divisions=tuple(
            Division(
                d.name,
                d.min_players,
                tuple(clubs[x.club_id] for x in members if x.division_id == d.id),
            )
            for d in divisions
        ),
        rules=record.rules,
        matches=tuple(built),
        closed_accounts=() if for_judging else closed,
        director_forfeits=tuple(
            DirectorForfeit(keys[d.match_id], clubs[d.club_id], d.rule, d.decided_at)
            for d in decisions
            if d.kind == "forfeit" and d.match_id is not None and d.club_id is not None
        ),
        director_disqualifications=tuple(
            DirectorDisqualification(clubs[d.club_id], d.rule, d.decided_at)
            for d in decisions
            if d.kind == "disqualification" and d.club_id is not None
        ),
        withdrawn=tuple(clubs[x.club_id] for x in members if x.withdrawn),
    )
    return SeasonFacts(season, closed)


async def with_match_read(
    view: GuildView, season: Season, match: MatchRecord, boards: int
) -> Season:
    """`season`, read for judging, with the facts of `match` alone read again from `view`.

    A change to one match's facts gives the same season as `load_season_facts(for_judging=True)`
    would, without reading the others. `match` is the match as now stored and `boards` how many
    boards it holds.
    """
    old = next(m for m in season.matches if m.id == match.key)
    home, away = await view.clubs.pair(match.home_club_id, match.away_club_id)
    assert home is not None and away is not None
    clubs = {home.id: home.name, away.id: away.name}
    at_start = await view.matches.at_start(match.id)
    new = _match(match, clubs, {match.division_id: old.division}, at_start, boards)
    return replace(season, matches=tuple(new if m is old else m for m in season.matches))


def _match(
    m: MatchRecord,
    clubs: Mapping[int, str],
    division_names: Mapping[int, str],
    at_start: Iterable[AtStartRecord],
    boards: int | Iterable[BoardRecord],
) -> Match:
    """One match's facts as a domain value.

    `boards` is a count when read for judging, with unnamed stand-ins from `_UNNAMED`.
    """
    c = m.challenge
    return Match(
        id=m.key,
        division=division_names[m.division_id],
        round=m.round,
        home=clubs[m.home_club_id],
        away=clubs[m.away_club_id],
        start=m.start,
        finished=m.finished_at,
        challenge=None if c is None else Challenge(clubs[c.issued_by], c.issued_at, c.accepted_at),
        at_start={
            clubs[a.club_id]: ClubAtStart(a.members, a.avg_rating, a.players) for a in at_start
        },
        boards=(_UNNAMED,) * boards
        if isinstance(boards, int)
        else tuple(Board(b.home_player, b.away_player, b.home_half, b.away_half) for b in boards),
        deadline=m.deadline_at,
    )


def _time_points(season: Season) -> list[dt.datetime]:
    """Every instant at which a report computed for 'now' may change without a write.

    These are starts, challenge deadlines, finishes and decisions, by CL-15, CL-20 and CL-23.
    """
    hours = season.rules.challenge_deadline_hours
    points: list[dt.datetime] = []
    for m in season.matches:
        points += [m.start, challenge_deadline(m, hours)]
        if m.finished is not None:
            points.append(m.finished)
        if m.challenge is not None:
            points.append(m.challenge.issued)
            if m.challenge.accepted is not None:
                points.append(m.challenge.accepted)
    points += [f.decided for f in season.director_forfeits if f.decided is not None]
    points += [q.decided for q in season.director_disqualifications if q.decided is not None]
    return points


@dataclass(frozen=True)
class _Cached:
    season: Season
    report: LeagueReport
    valid_from: dt.datetime | None  # for reports as at "now": the window they hold in
    valid_until: dt.datetime | None


STANDINGS_KEPT = 4096
"""League reports the bot keeps: one per season in use at one shard's 2,500 guilds and more
(benchmarks/gateway.py: 64 made `/standings` and `/match show` recompute most reports, 5.8 ms
of CPU an interaction against 3.5 ms; a report of a 13-club season is a few KiB)."""


class StandingsCache:
    """Computed league reports per (guild, season id, version, as_of): a season that has not
    changed since costs one version lookup. A report as at "now" is kept only until the next
    start, deadline or decision instant of the season, when it could change on its own."""

    def __init__(self, size: int = STANDINGS_KEPT) -> None:
        self._entries: OrderedDict[tuple[int, int, int, dt.date | None, bool], _Cached] = (
            OrderedDict()
        )
        self._size = size
        self.computed = 0  # how many reports were computed (a miss): tests and benchmarks

    async def report(
        self,
        store: GuildStore,
        record: SeasonRecord,
        as_of: dt.date | None = None,
        now: dt.datetime | None = None,
    ) -> LeagueReport:
        """The league report of the season as at `as_of`, else as at `now`, cached."""
        return (await self.season_report(store, record, as_of, now))[1]

    async def season_report(
        self,
        store: GuildStore,
        record: SeasonRecord,
        as_of: dt.date | None = None,
        now: dt.datetime | None = None,
    ) -> tuple[Season, LeagueReport]:
        """`report`, with the season's facts it was computed from.

        A read such as `/match show` needs both, with no second read and no second judgement.
        """
        async with store.read() as view:
            version = await view.seasons.version(record.id)
            if version is None:
                raise LookupError(f"season {record.name!r} no longer exists")
            key = (store.guild_id, record.id, version, as_of, as_of is None and now is not None)
            hit = self._entries.get(key)
            if hit is not None and _holds(hit, as_of, now):
                self._entries.move_to_end(key)
                return hit.season, hit.report
            season = await load_season(view, record)
        cutoff_now = None if as_of is not None else now
        report = league_report(season, as_of=as_of, now=cutoff_now)
        self.computed += 1
        valid_from = valid_until = None
        if as_of is None and now is not None:
            points = _time_points(season)
            valid_from = max((p for p in points if p < now), default=None)
            valid_until = min((p for p in points if p >= now), default=None)
        self._entries[key] = _Cached(season, report, valid_from, valid_until)
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)
        return season, report


def _holds(entry: _Cached, as_of: dt.date | None, now: dt.datetime | None) -> bool:
    """Whether a cached report answers for `now` (always, for a fixed as_of or no now)."""
    if as_of is not None or now is None:
        return True
    if entry.valid_from is not None and now <= entry.valid_from:
        return False
    return entry.valid_until is None or now < entry.valid_until

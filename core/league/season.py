"""A CL season's facts as immutable domain values (CL-1..CL-23), and their cross-checks.

Every adapter — the season file, the database — produces these same values; standings,
forfeits and disqualifications are derived from them by the rest of `core.league`. Scores
are integer half-points (a board's 1.5 is 3), so they are exact and cheap to add.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from core.points import decimal_text

GAMES_PER_BOARD = 2
"""CL-14: games per board."""
CHALLENGE_DEADLINE_HOURS = 120
"""CL-15: the challenge is issued and accepted this long before the start."""
MAX_CHALLENGE_DEADLINE_HOURS = 24 * 366
"""CL-15: the longest challenge notice core accepts (a year): a longer one is a typo, and
would put every match's deadline out of the calendar."""
MAX_MEMBERS = 400
"""CL-5: a club's members at match start."""
MAX_AVG_RATING = 1700.0
"""CL-6: a club's average daily rating at match start."""
FORFEITS_TO_DISQUALIFY = 3
"""CL-DQ: forfeits on one counter that disqualify a club."""
PROMOTION_PLACES = 3
"""CL-8: clubs promoted and relegated at each division boundary."""
QUOTE_LIMIT = 60
"""Characters of a name an error message repeats before cutting it with '…'."""


def quoted(name: str) -> str:
    """A name as an error message quotes it: escaped (repr) and cut at `QUOTE_LIMIT`
    characters, so a hostile 1 MB name or an ANSI escape never reaches the terminal whole."""
    if len(name) > QUOTE_LIMIT:
        return repr(name[:QUOTE_LIMIT]) + "…"
    return repr(name)


@dataclass(frozen=True, slots=True)
class SeasonRules:
    """The rule values a season is judged by, frozen when it is created (CCT-16)."""

    games_per_board: int = GAMES_PER_BOARD
    challenge_deadline_hours: int = CHALLENGE_DEADLINE_HOURS
    max_members: int = MAX_MEMBERS
    max_avg_rating: float = MAX_AVG_RATING
    forfeits_to_disqualify: int = FORFEITS_TO_DISQUALIFY
    promotion_places: int = PROMOTION_PLACES
    divisions_cutoff: dt.date | None = None
    """CL-1: the date whose standings decide next season's divisions."""


@dataclass(frozen=True, slots=True)
class Division:
    """A division (CL-7) in the season's order, best first: its clubs in pairing order and
    its minimum number of players (CL-9..11)."""

    name: str
    min_players: int
    clubs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Challenge:
    """The chess.com challenge of a match (CL-15): who issued it, when, and its acceptance."""

    issued_by: str
    issued: dt.datetime
    accepted: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class ClubAtStart:
    """A club's facts at match start (CL-5, CL-6, CL-20); any may be unknown (None)."""

    members: int | None = None
    avg_rating: float | None = None
    players: int | None = None


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a team match (CL-14): a player of each club and their half-points."""

    home_player: str
    away_player: str
    home_half: int
    away_half: int


@dataclass(frozen=True, slots=True)
class Match:
    """A team match between two clubs of one division (CL-13..15, CL-20); `id` is stable
    (the season file's id, the database's key)."""

    id: str
    division: str
    round: int
    home: str
    away: str
    start: dt.datetime
    finished: dt.datetime | None = None
    challenge: Challenge | None = None
    at_start: Mapping[str, ClubAtStart] = field(default_factory=dict)
    boards: tuple[Board, ...] = ()


@dataclass(frozen=True, slots=True)
class DirectorForfeit:
    """A forfeit imposed by the directors (CL-21, CL-23) on one club in one match; without
    `decided` it takes effect at the match start."""

    match: str
    club: str
    rule: str = "CL-21"
    decided: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class DirectorDisqualification:
    """A disqualification decided by the directors (CL-18, CL-23)."""

    club: str
    rule: str = "CL-23"
    decided: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class Season:
    """A whole CL season's facts: the single input of the league standings."""

    name: str
    divisions: tuple[Division, ...]
    rules: SeasonRules = SeasonRules()
    matches: tuple[Match, ...] = ()
    closed_accounts: tuple[str, ...] = ()
    director_forfeits: tuple[DirectorForfeit, ...] = ()
    director_disqualifications: tuple[DirectorDisqualification, ...] = ()
    withdrawn: tuple[str, ...] = ()
    """CL-8: clubs not continuing next season."""

    def club_division(self) -> dict[str, str]:
        """Each club's division name (clubs are unique across divisions once checked)."""
        return {club: d.name for d in self.divisions for club in d.clubs}


def _second_seats(
    board: Board, b_index: int, home_seat: int, away_seat: int, where: str
) -> Iterable[tuple[str, str]]:
    """CL-18: the players of `board` already seated on an earlier board of the same match."""
    for side, seat, name in (
        ("home_player", home_seat, board.home_player),
        ("away_player", away_seat, board.away_player),
    ):
        if seat != b_index:
            yield (
                f"{where}.boards[{b_index}].{side}",
                f"{quoted(name)} already plays on boards[{seat}] of this match",
            )


def _division_problems(season: Season) -> Iterable[tuple[str, str]]:
    """CL-7, CL-12: at least one division, each with clubs; names and clubs unique (clubs
    compared case-insensitively, as chess.com compares them)."""
    if not season.divisions:
        yield "divisions", "a season needs at least one division (CL-7)"
    seen: dict[str, tuple[str, str]] = {}  # casefolded club -> (club, division)
    division_names: set[str] = set()
    for d_index, division in enumerate(season.divisions):
        if division.name in division_names:
            yield f"divisions[{d_index}].name", f"division {quoted(division.name)} is listed twice"
        division_names.add(division.name)
        if not division.clubs:
            yield f"divisions[{d_index}].clubs", "a division needs at least one club (CL-12)"
        for c_index, club in enumerate(division.clubs):
            key = club.casefold()
            if key not in seen:
                seen[key] = (club, division.name)
                continue
            known, where = seen[key]
            problem = (
                f"club {quoted(club)} is already in {quoted(where)} (a club plays in one division)"
                if known == club
                else f"club {quoted(club)} differs from {quoted(known)} only in case"
            )
            yield f"divisions[{d_index}].clubs[{c_index}]", problem


def _match_problems(
    match: Match,
    where: str,
    club_division: Mapping[str, str],
    division_names: set[str],
    notice: dt.timedelta | None,
    games: int,
) -> Iterable[tuple[str, str]]:
    """One match's cross-checks: clubs of its division, times in order, a challenge by one
    of its clubs, each player seated once, and board points adding up."""
    if match.division not in division_names:
        yield f"{where}.division", f"unknown division {quoted(match.division)}"
    for side, club in (("home", match.home), ("away", match.away)):
        if club not in club_division:
            yield f"{where}.{side}", f"unknown club {quoted(club)}"
        elif match.division in division_names and club_division[club] != match.division:
            yield (
                f"{where}.{side}",
                f"club {quoted(club)} is in {quoted(club_division[club])},"
                f" not {quoted(match.division)} (a match is between clubs of one division)",
            )
    if match.home == match.away:
        yield f"{where}.away", f"club {quoted(match.home)} cannot play itself"
    if match.finished is not None and match.finished < match.start:
        yield f"{where}.finished", "finished before its start"
    if notice is not None:
        try:
            match.start - notice
        except OverflowError:
            yield f"{where}.start", "too early: its challenge deadline (CL-15) falls before year 1"
    challenge = match.challenge
    if challenge is not None:
        if challenge.issued_by not in (match.home, match.away):
            yield (
                f"{where}.challenge.issued_by",
                f"{quoted(challenge.issued_by)} is not a club of this match",
            )
        if challenge.accepted is not None and challenge.accepted < challenge.issued:
            yield (
                f"{where}.challenge.accepted",
                "accepted before it was issued (CL-15 cannot judge it)",
            )
    for club in match.at_start:
        if club not in (match.home, match.away):
            yield f"{where}.at_start.{quoted(club)}", f"{quoted(club)} is not a club of this match"
    yield from _board_problems(games, match, where)


def _board_problems(games: int, match: Match, where: str) -> Iterable[tuple[str, str]]:
    """CL-14, CL-18: each board's points add up to `games`, and a player takes one seat."""
    full = 2 * games
    seated: dict[str, int] = {}
    for b_index, board in enumerate(match.boards):
        home_name, away_name = board.home_player.lower(), board.away_player.lower()
        if home_name == away_name:
            yield (
                f"{where}.boards[{b_index}].away_player",
                f"{quoted(board.away_player)} cannot play themselves",
            )
        home_seat = seated.setdefault(home_name, b_index)
        away_seat = seated.setdefault(away_name, b_index)
        if home_seat != b_index or away_seat != b_index:
            yield from _second_seats(board, b_index, home_seat, away_seat, where)
        home, away = board.home_half, board.away_half
        if home < 0 or away < 0:
            yield f"{where}.boards[{b_index}]", "points cannot be negative"
        elif home + away != full:
            yield (
                f"{where}.boards[{b_index}].home_points",
                f"home {decimal_text(Fraction(home, 2))} + away {decimal_text(Fraction(away, 2))}"
                f" = {decimal_text(Fraction(home + away, 2))}, not games_per_board {games}",
            )


def _round_robin_problems(season: Season) -> Iterable[tuple[str, str]]:
    """CL-12: a division is a single round robin, so two clubs meet at most once."""
    met: dict[frozenset[str], int] = {}
    for m_index, match in enumerate(season.matches):
        pair = frozenset((match.home, match.away))
        if len(pair) < 2:
            continue
        first = met.setdefault(pair, m_index)
        if first != m_index:
            yield (
                f"matches[{m_index}]",
                f"{quoted(match.home)} and {quoted(match.away)} already meet in"
                f" matches[{first}] (CL-12: a single round robin)",
            )


def season_problems(season: Season) -> Iterable[tuple[str, str]]:
    """Cross-checks of a season's facts, each a (path, problem) pair: divisions and clubs,
    unique match ids, matches within a division and met once, boards adding up to
    games_per_board, and decisions naming known matches and clubs."""
    yield from _division_problems(season)
    rules = season.rules
    notice: dt.timedelta | None = None
    if rules.challenge_deadline_hours > MAX_CHALLENGE_DEADLINE_HOURS:
        yield (
            "rules.challenge_deadline_hours",
            f"at most {MAX_CHALLENGE_DEADLINE_HOURS} hours (a year), not"
            f" {rules.challenge_deadline_hours}",
        )
    else:
        notice = dt.timedelta(hours=rules.challenge_deadline_hours)
    clubs = season.club_division()
    names = {d.name for d in season.divisions}
    match_clubs: dict[str, tuple[str, str]] = {}
    for m_index, match in enumerate(season.matches):
        where = f"matches[{m_index}]"
        if match.id in match_clubs:
            yield f"{where}.id", f"duplicate match id {quoted(match.id)}"
        match_clubs.setdefault(match.id, (match.home, match.away))
        yield from _match_problems(match, where, clubs, names, notice, rules.games_per_board)
    yield from _round_robin_problems(season)
    for f_index, forfeit in enumerate(season.director_forfeits):
        where = f"director_forfeits[{f_index}]"
        if forfeit.match not in match_clubs:
            yield f"{where}.match", f"unknown match {quoted(forfeit.match)}"
        elif forfeit.club not in match_clubs[forfeit.match]:
            yield (
                f"{where}.club",
                f"{quoted(forfeit.club)} does not play match {quoted(forfeit.match)}",
            )
    for q_index, decision in enumerate(season.director_disqualifications):
        if decision.club not in clubs:
            yield (
                f"director_disqualifications[{q_index}].club",
                f"unknown club {quoted(decision.club)}",
            )
    for w_index, club in enumerate(season.withdrawn):
        if club not in clubs:
            yield f"withdrawn[{w_index}]", f"unknown club {quoted(club)}"

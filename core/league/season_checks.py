"""The cross-checks of a CL season's facts, by CL-7, CL-12, CL-14, CL-15 and CL-18.

The season file checks a whole season with `season_problems` before it is stored. Every door that
stores a match's boards checks them with `board_problems`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from core.league.season import Board, Match, Season, quoted, rules_problems
from core.points import decimal_text


def round_robin_rounds(clubs: int) -> int:
    """CL-12 and CORE-1: the rounds of a single round robin of `clubs`.

    With an odd number one club is idle each round, so there are as many rounds as clubs.
    """
    return clubs if clubs % 2 else max(clubs - 1, 0)


def _division_problems(season: Season) -> Iterable[tuple[str, str]]:
    """CL-7 and CL-12: checks there is at least one division and that names and clubs are unique.

    Clubs are compared case-insensitively, as chess.com compares them. A division may have no clubs
    yet, since a season's configured divisions exist before clubs join and show an empty table.
    """
    if not season.divisions:
        yield "divisions", "a season needs at least one division (CL-7)"
    seen: dict[str, tuple[str, str]] = {}  # casefolded club -> (club, division)
    division_names: set[str] = set()
    for d_index, division in enumerate(season.divisions):
        if division.name in division_names:
            yield f"divisions[{d_index}].name", f"division {quoted(division.name)} is listed twice"
        division_names.add(division.name)
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
    sizes: Mapping[str, int],
    notice: dt.timedelta | None,
    games: int,
) -> Iterable[tuple[str, str]]:
    """One match's cross-checks.

    Its clubs belong to its division, its times are in order, its challenge comes from one of its
    clubs, each player is seated once and the board points add up. `sizes` is each division's number
    of clubs, which bounds its round.
    """
    division_names = sizes.keys()
    if match.division not in division_names:
        yield f"{where}.division", f"unknown division {quoted(match.division)}"
    elif match.round > (rounds := round_robin_rounds(sizes[match.division])):
        yield (
            f"{where}.round",
            f"round {match.round} is beyond the {rounds} rounds of"
            f" the single round robin of {quoted(match.division)} (CL-12)",
        )
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


def board_problems(boards: Sequence[Board], games: int) -> Iterable[tuple[int, str, str]]:
    """CL-14 and CL-18: the one check of a match's boards, as (board index, field, problem) triples.

    Each board's points add up to `games` and are never negative, and a player takes one seat.
    Usernames are compared case-insensitively. The season file and every door that stores boards use
    it: an arbiter's result, a correction motion and a chess.com import.
    """
    full = 2 * games
    seated: dict[str, int] = {}
    for b_index, board in enumerate(boards):
        home_name, away_name = board.home_player.lower(), board.away_player.lower()
        if home_name == away_name:
            yield b_index, "away_player", f"{quoted(board.away_player)} cannot play themselves"
        for side, key, name in (
            ("home_player", home_name, board.home_player),
            ("away_player", away_name, board.away_player),
        ):
            seat = seated.setdefault(key, b_index)
            if seat != b_index:
                yield b_index, side, f"{quoted(name)} already plays on boards[{seat}] of this match"
        home, away = board.home_half, board.away_half
        if home < 0 or away < 0:
            yield b_index, "", "points cannot be negative"
        elif home + away != full:
            yield (
                b_index,
                "home_points",
                f"home {decimal_text(Fraction(home, 2))} + away {decimal_text(Fraction(away, 2))}"
                f" = {decimal_text(Fraction(home + away, 2))}, not games_per_board {games}",
            )


def _board_problems(games: int, match: Match, where: str) -> Iterable[tuple[str, str]]:
    """CL-14, CL-18: `board_problems` of one match, each at its path in the season file."""
    for b_index, side, problem in board_problems(match.boards, games):
        suffix = f".{side}" if side else ""
        yield f"{where}.boards[{b_index}]{suffix}", problem


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
    """Cross-checks of a season's facts, as (path, problem) pairs.

    It checks divisions and clubs, unique match ids, matches within a division and met once, boards
    adding up to games_per_board, and decisions naming known matches and clubs.
    """
    yield from _division_problems(season)
    rules = season.rules
    notice: dt.timedelta | None = None
    found = [(f"rules.{key}", problem) for key, problem in rules_problems(rules)]
    yield from found
    if not any(key == "rules.challenge_deadline_hours" for key, _ in found):
        notice = dt.timedelta(hours=rules.challenge_deadline_hours)
    clubs = season.club_division()
    sizes = {d.name: len(d.clubs) for d in season.divisions}
    match_clubs: dict[str, tuple[str, str]] = {}
    for m_index, match in enumerate(season.matches):
        where = f"matches[{m_index}]"
        if match.id in match_clubs:
            yield f"{where}.id", f"duplicate match id {quoted(match.id)}"
        match_clubs.setdefault(match.id, (match.home, match.away))
        yield from _match_problems(match, where, clubs, sizes, notice, rules.games_per_board)
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

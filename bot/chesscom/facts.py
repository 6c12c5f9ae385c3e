"""Season facts from chess.com payloads: a team match as a season-file `Match`.

It also reads what the regulations need from the match: CL-14 boards, the CL-15 challenge, CL-5 and
CL-6 eligibility and CL-19 closures.

These are pure functions. The caller fetches through `bot.chesscom.reader` and supplies what
chess.com cannot know in a `Placement`: the season match id, division, round and which club is home.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from bot.chesscom.models import (
    FINISHED,
    ClubProfile,
    MatchPlayer,
    MatchTeam,
    TeamMatch,
    game_halves,
    is_fair_play_status,
    username_key,
)
from bot.formats.season_file import BoardModel, ChallengeModel, ClubAtStartModel, MatchModel

UNASSIGNED_DIVISION = "(unassigned)"
UNKNOWN_CLUB = "(unknown)"


class FactsError(ValueError):
    """The payload cannot be read as the season match the caller described."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a chess.com match sits in the season, which chess.com cannot tell.

    `clubs` maps a chess.com club url-id to its season club name, and unmapped clubs keep their
    chess.com name. `home` and `away` are season club names. When `home` is None, chess.com's team1
    is home. `id` defaults to the chess.com match id.
    """

    id: str | None = None
    division: str = UNASSIGNED_DIVISION
    round: int = 1
    home: str | None = None
    away: str | None = None
    clubs: Mapping[str, str] = field(default_factory=dict)

    def club_name(self, team: MatchTeam) -> str:
        """The season name of a chess.com team, through `clubs`, else its chess.com name."""
        by_id = {key.casefold(): name for key, name in self.clubs.items()}
        url_id = (team.url_id or "").casefold()
        return by_id.get(url_id) or team.name or team.url_id or UNKNOWN_CLUB


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """What one chess.com team match tells the season.

    It holds the `Match`, None while its start time is unknown, each club's players, the CL-19
    closed accounts from closed statuses and fair-play removals, and the fair-play cases.
    """

    status: str
    match: MatchModel | None
    players: dict[str, tuple[str, ...]]
    closed_accounts: tuple[str, ...]
    fair_play: tuple[str, ...]
    fair_play_removals: dict[str, tuple[str, ...]]
    board_numbers: tuple[int, ...]
    """chess.com's board number of each of `match.boards`, in the same order."""
    running_boards: tuple[int, ...]
    """Boards with a game still running, where both players are listed."""
    unpaired_boards: dict[int, str] = field(default_factory=dict)
    """Boards left out because one side's player is missing and cannot be read.

    It maps each board to the reason `match_boards` gives.
    """

    @property
    def challenge_issued(self) -> bool:
        """CL-15: the match exists on chess.com, so its challenge was issued."""
        return self.match is not None and self.match.challenge is not None


def board_points(player: MatchPlayer) -> tuple[Fraction, int]:
    """CL-14: a player's points on their board and how many of its games have ended.

    Points are summed in whole half-points, with one Fraction per board rather than per game.
    """
    halves = ended = 0
    for code in (player.played_as_white, player.played_as_black):
        if code:
            halves += game_halves(code)
            ended += 1
    return Fraction(halves, 2), ended


@dataclass(frozen=True, slots=True)
class BoardsRead:
    """The boards of a started match.

    It gives the finished ones by board number, the numbers of boards with a game still running, and
    the boards missing a player, each with the reason.
    """

    boards: dict[int, BoardModel]
    running: list[int]
    unpaired: dict[int, str]


def _removed_player(
    team: MatchTeam, club: str, missing: list[int], number: int
) -> tuple[str | None, str]:
    """CL-19: who was on board `number` of `team` when chess.com no longer lists them.

    That is the team's only fair-play removal not listed among its players, when it has exactly one
    board without a player. Otherwise it returns None and why it cannot be told.
    """
    listed = {username_key(p.username) for p in team.players}
    removed = [n for n in team.fair_play_removals if username_key(n) not in listed]
    if not removed:
        return None, f"no {club} player on board {number} and no fair-play removal to explain it"
    if len(removed) != 1 or len(missing) != 1:
        return None, (
            f"no {club} player on board {number}: {len(removed)} fair-play removal(s) of {club}"
            f" ({', '.join(removed)}) for {len(missing)} board(s) without a player,"
            " so who played it cannot be told (see the board's games)"
        )
    return removed[0], ""


def seated(team: MatchTeam) -> dict[int, MatchPlayer]:
    """The team's players by board number. Players without a board are left out."""
    boards = {}
    for player in team.players:
        number = player.board_number
        if number is not None:
            boards[number] = player
    return boards


def match_boards(
    home: MatchTeam,
    away: MatchTeam,
    games_per_board: int = 2,
    names: tuple[str, str] = ("home", "away"),
) -> BoardsRead:
    """CL-14: the finished boards by board number, the running ones and those missing a player.

    Finished boards have home and away points from all their games. Boards with a game still running
    are left out by number.

    chess.com drops a player removed for fair play from the match's players and lists them in
    `fair_play_removals`. Such a board is read from the remaining player's games once they have all
    ended, since the removed player scored the rest of the board's points. It names the removed
    player when the club has exactly one such removal and one such board. The league then adjusts it
    as a closed account's board by CL-19 and CL-ADJ. Otherwise the board is left out in `unpaired`
    with the reason, and never counted as running.
    """
    by_board = [seated(team) for team in (home, away)]
    numbers = sorted(by_board[0].keys() | by_board[1].keys())
    missing = [[n for n in numbers if n not in side] for side in by_board]
    read = BoardsRead({}, [], {})
    for number in numbers:
        home_player = by_board[0].get(number)
        away_player = by_board[1].get(number)
        present = home_player or away_player
        assert present is not None
        points, ended = board_points(present)
        if home_player is None or away_player is None:
            side = 0 if home_player is None else 1
            removed, why = _removed_player((home, away)[side], names[side], missing[side], number)
            if removed is None:
                read.unpaired[number] = why
            elif ended < games_per_board:
                read.unpaired[number] = (
                    f"no {names[side]} player on board {number}: {removed} was removed for fair"
                    f" play and {present.username}'s games have not all ended"
                )
            else:
                rest = games_per_board - points
                home_name, away_name = (
                    (removed, present.username) if side == 0 else (present.username, removed)
                )
                read.boards[number] = BoardModel(
                    home_player=home_name,
                    away_player=away_name,
                    home_points=rest if side == 0 else points,
                    away_points=points if side == 0 else rest,
                )
            continue
        home_points, home_ended = points, ended
        away_points, away_ended = board_points(away_player)
        if home_ended < games_per_board or away_ended < games_per_board:
            read.running.append(number)
            continue
        # Not validated again: both usernames passed the name gate in `MatchPlayer`, and
        # points summed from game codes are whole halves (the hot path of every import).
        read.boards[number] = BoardModel.model_construct(
            home_player=home_player.username,
            away_player=away_player.username,
            home_points=home_points,
            away_points=away_points,
        )
    return read


def challenge_seen(
    payload: TeamMatch, challenger: str, observed_at: datetime, known: ChallengeModel | None = None
) -> ChallengeModel:
    """CL-15: the challenge as this sighting proves it, merged with an earlier sighting.

    The API gives no issue or acceptance times, so the instants are upper bounds. Each is the
    observation time, capped at the start for a started match, since it was accepted before it
    began. A started match proves acceptance, and so does the opponent club having players signed up
    during registration. `known`, an earlier sighting, keeps its earlier instants.
    """
    bound = observed_at
    if payload.started and payload.start_time is not None:
        bound = min(observed_at, payload.start_time)
    opponent = payload.team2
    accepted = payload.started or (opponent is not None and bool(opponent.players))
    sighting = ChallengeModel(
        issued_by=challenger, issued=bound, accepted=bound if accepted else None
    )
    if known is None:
        return sighting
    accepted_at = [t for t in (known.accepted, sighting.accepted) if t is not None]
    return ChallengeModel(
        issued_by=known.issued_by,
        issued=min(known.issued, sighting.issued),
        accepted=min(accepted_at) if accepted_at else None,
    )


def match_facts(
    payload: TeamMatch,
    placement: Placement,
    *,
    observed_at: datetime,
    games_per_board: int = 2,
    known_challenge: ChallengeModel | None = None,
    at_start: Mapping[str, ClubAtStartModel] | None = None,
) -> MatchFacts:
    """CL-14, CL-15 and CL-19: reads a team match of any status as season facts.

    In registration, the challenge was issued by team1, the club that created it, and the clubs are
    known, with no boards yet. Once started, it reads the boards whose games have all ended, each
    club's players, the number of players fielded, closed accounts and fair-play cases. The number
    fielded, `at_start[club].players`, counts its listed players plus its boards whose player
    chess.com no longer lists. `at_start` adds members and average rating per season club, by CL-5
    and CL-6.
    """
    team1 = payload.team1
    if team1 is None:
        raise FactsError(f"chess.com match {payload.match_id} lists no team")
    team2 = payload.team2
    name1 = placement.club_name(team1)
    name2 = placement.club_name(team2) if team2 is not None else placement.away or UNKNOWN_CLUB
    listed = {username_key(name1): team1}
    if team2 is not None:
        listed[username_key(name2)] = team2

    home_name, away_name = name1, name2
    if placement.home is not None:
        home_name = placement.home
        if placement.away is not None:
            away_name = placement.away
        elif username_key(name1) != username_key(home_name):
            away_name = name1
    expected = {username_key(home_name), username_key(away_name)}
    if len(expected) < 2 or not listed.keys() <= expected:
        raise FactsError(
            f"chess.com match {payload.match_id} is {name1} vs {name2}, "
            f"not {home_name} vs {away_name}"
        )
    home_team = listed.get(username_key(home_name))
    away_team = listed.get(username_key(away_name))

    players: dict[str, tuple[str, ...]] = {}
    removals: dict[str, tuple[str, ...]] = {}
    for name, team in ((home_name, home_team), (away_name, away_team)):
        if team is not None:
            players[name] = tuple(p.username for p in team.players)
            removals[name] = tuple(team.fair_play_removals)
    teams = [team for team in (home_team, away_team) if team is not None]
    everyone = [p for team in teams for p in team.players]

    read = BoardsRead({}, [], {})
    if payload.started and home_team is not None and away_team is not None:
        read = match_boards(home_team, away_team, games_per_board, (home_name, away_name))
    boards = read.boards

    facts_at_start = dict(at_start or {})
    if payload.started:
        # CL-20: a board is only made for two players, so a board where chess.com no longer
        # lists this club's player (a fair-play removal after the start) was fielded too.
        seats = {
            name: seated(team).keys()
            for name, team in ((home_name, home_team), (away_name, away_team))
            if team is not None
        }
        every_board = set().union(*seats.values())
        for name in players:
            fielded = len(players[name]) + len(every_board - seats[name])
            known = facts_at_start.get(name, ClubAtStartModel())
            facts_at_start[name] = known.model_copy(update={"players": fielded})

    match = None
    start = payload.start_time
    match_id = placement.id or payload.match_id
    if match_id is None:
        raise FactsError("the chess.com match has no id: give the season match id")
    if start is not None:
        challenger = home_name if team1 is home_team else away_name
        match = MatchModel(
            id=match_id,
            division=placement.division,
            round=placement.round,
            home=home_name,
            away=away_name,
            start=start,
            finished=payload.end_time if payload.status == FINISHED else None,
            challenge=challenge_seen(payload, challenger, observed_at, known_challenge),
            at_start=facts_at_start,
            boards=list(boards.values()),
        )
    return MatchFacts(
        status=payload.status,
        match=match,
        players=players,
        closed_accounts=_unique(
            [p.username for p in everyone if p.is_closed]
            + [name for team in teams for name in team.fair_play_removals]
        ),
        fair_play=_unique(
            [p.username for p in everyone if is_fair_play_status(p.status)]
            + [name for team in teams for name in team.fair_play_removals]
        ),
        fair_play_removals=removals,
        board_numbers=tuple(boards),
        running_boards=tuple(read.running),
        unpaired_boards=dict(read.unpaired),
    )


def _unique(names: Iterable[str]) -> tuple[str, ...]:
    """Usernames once each, compared case-insensitively, and sorted."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(username_key(name), name)
    return tuple(sorted(by_key.values(), key=username_key))


def average_rating(ratings: Iterable[int | None]) -> Fraction | None:
    """CL-6: the exact mean of the known ratings. Members without one are left out."""
    known = [rating for rating in ratings if rating is not None]
    return Fraction(sum(known), len(known)) if known else None


def club_at_start(
    profile: ClubProfile, member_ratings: Iterable[int | None] | None = None
) -> ClubAtStartModel:
    """CL-5, CL-6: a club's member count and average daily rating, from its profile's
    `average_daily_rating`, or computed from its members' ratings when they are given."""
    average: float | None = profile.average_daily_rating
    if member_ratings is not None:
        mean = average_rating(member_ratings)
        average = float(mean) if mean is not None else None
    return ClubAtStartModel(members=profile.members_count, avg_rating=average)

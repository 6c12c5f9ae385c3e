"""Finds a paired game among the games a site lists, by CCT-7.

The search looks for the one finished game between the two players in the round's window, at the
event's time control. It finds that game, none, or "ambiguous" when more than one fits. It never
finds a wrong one: anything uncertain is left to a player's report or an arbiter, with the near
misses listed so they can see why.

A site game is the same `SiteGame` value whichever site it came from. The adapters in
`bot/chesscom/` and `bot/lichess/` build it. Usernames compare case-insensitively, as both sites
treat them. A game belongs to a round when it **ended** in the round's window `[start, end)`,
because both sites give the end of a finished game but not always its start.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from core.results import Result
from core.tour.early_draws import EarlyDrawCheck, PgnError, check_early_draw
from core.tour.timecontrols import TimeControl


class Site(enum.Enum):
    """Where a game was played."""

    CHESSCOM = "chess.com"
    LICHESS = "lichess.org"


def same_user(one: str, other: str) -> bool:
    """Whether two usernames name the same account. Both sites ignore case."""
    return one.casefold() == other.casefold()


@dataclass(frozen=True, slots=True)
class SiteClock:
    """The clock a site game was played with: one base time for both players and an increment per
    move.

    Both are in seconds. Correspondence games, which sites call "daily", have none.
    """

    base_seconds: int
    increment_seconds: int

    def matches(self, control: TimeControl) -> bool:
        """CCT-7: whether this clock is `control`.

        A site gives both players the same base, so a control with different bases never matches.
        Armageddon, with White 5 min and Black 4, is such a control. Such a game cannot be
        recognised from the site and is reported by hand.
        """
        white = control.white_base.total_seconds()
        black = control.black_base.total_seconds()
        return (
            white == black
            and self.base_seconds == white
            and self.increment_seconds == control.increment.total_seconds()
        )

    def __str__(self) -> str:
        return f"{self.base_seconds // 60} min + {self.increment_seconds} s"


@dataclass(frozen=True, slots=True)
class SiteGame:
    """A game as a site lists it.

    `result` is None for a game with no decided result: aborted, never started, ended by the site's
    fair-play team, or with a code Arbiter does not know. `standard` is False for a variant or a
    game from a set-up position.
    """

    site: Site
    game_id: str
    url: str
    white: str
    black: str
    result: Result | None
    ended_at: datetime
    clock: SiteClock | None
    pgn: str | None = None
    standard: bool = True

    @property
    def key(self) -> tuple[Site, str]:
        """What identifies the game: a site's id is unique on that site."""
        return (self.site, self.game_id)

    def between(self, first: str, second: str) -> bool:
        """Whether the two players of this game are `first` and `second`, in either colours."""
        return (same_user(self.white, first) and same_user(self.black, second)) or (
            same_user(self.white, second) and same_user(self.black, first)
        )


@dataclass(frozen=True, slots=True)
class GameQuery:
    """What is searched for one pairing on one site, by CCT-7.

    It holds the two players' usernames there, which of them has White when the pairing says so, the
    round's window and the time control its games are played at. White is None when either may have
    it.
    """

    site: Site
    first: str
    second: str
    white: str | None
    start: datetime
    end: datetime
    time_control: TimeControl

    def __post_init__(self) -> None:
        if not self.first.strip() or not self.second.strip():
            raise ValueError("a game query needs both players' usernames")
        if same_user(self.first, self.second):
            raise ValueError(f"a player cannot be paired with themselves ({self.first!r})")
        if self.white is not None and not (
            same_user(self.white, self.first) or same_user(self.white, self.second)
        ):
            raise ValueError(f"White ({self.white!r}) is not one of the two players")
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("a round's window needs timezone-aware instants")
        if self.start >= self.end:
            raise ValueError("a round's window must end after it starts")


class SearchStatus(enum.Enum):
    """How a search ended."""

    FOUND = "found"
    NONE = "none"
    AMBIGUOUS = "ambiguous"


class Miss(enum.Enum):
    """Why a game between the two players in the window was not taken."""

    TIME_CONTROL = "played at another time control"
    COLOURS = "played with the colours reversed"
    UNDECIDED = "has no decided result"
    VARIANT = "not standard chess from the start position"
    TAKEN = "already taken for another game"


@dataclass(frozen=True, slots=True)
class GameSearch:
    """CCT-7: a search's outcome.

    For FOUND, `game` is the one candidate, with the move-40 check of its PGN in `early_draw`, or
    why the check could not be made in `pgn_problem`. For AMBIGUOUS, `candidates` holds the games
    that fit equally. `misses` holds the games between the two players in the window that did not
    fit, and why, for whoever reports the game by hand.
    """

    status: SearchStatus
    game: SiteGame | None = None
    candidates: tuple[SiteGame, ...] = ()
    early_draw: EarlyDrawCheck | None = None
    pgn_problem: str | None = None
    misses: tuple[tuple[SiteGame, Miss], ...] = ()


def _miss(game: SiteGame, query: GameQuery, taken: frozenset[tuple[Site, str]]) -> Miss | None:
    """Why `game` is not a candidate, or None if it is. The game is between the two players, in
    the window.
    """
    if game.key in taken:
        return Miss.TAKEN
    if game.result is None:
        return Miss.UNDECIDED
    if not game.standard:
        return Miss.VARIANT
    if game.clock is None or not game.clock.matches(query.time_control):
        return Miss.TIME_CONTROL
    if query.white is not None and not same_user(game.white, query.white):
        return Miss.COLOURS
    return None


def _early_draw(game: SiteGame) -> tuple[EarlyDrawCheck | None, str | None]:
    """CCT-7: the move-40 check of a found game's PGN, or why there is none."""
    if not game.pgn:
        return None, f"{game.site.value} gave no PGN for this game"
    try:
        return check_early_draw(game.pgn), None
    except PgnError as error:
        return None, str(error)


def find_game(
    query: GameQuery,
    games: Iterable[SiteGame],
    taken: Iterable[tuple[Site, str]] = (),
) -> GameSearch:
    """CCT-7: the one finished game on `query.site` between the two players.

    The game must have ended in `[query.start, query.end)`, be standard chess, be played at
    `query.time_control`, have White as the pairing says when it says, and not be taken for another
    game. `taken` holds `SiteGame.key`s. One such game gives FOUND with its move-40 check, none
    gives NONE, and more than one gives AMBIGUOUS, never a guess. A game listed twice, from both
    players' archives, counts once.
    """
    taken_keys = frozenset(taken)
    seen: dict[tuple[Site, str], SiteGame] = {}
    for game in games:
        if (
            game.site is query.site
            and query.start <= game.ended_at < query.end
            and game.between(query.first, query.second)
        ):
            seen.setdefault(game.key, game)
    ordered = sorted(seen.values(), key=lambda game: (game.ended_at, game.game_id))
    candidates: list[SiteGame] = []
    misses: list[tuple[SiteGame, Miss]] = []
    for game in ordered:
        miss = _miss(game, query, taken_keys)
        if miss is None:
            candidates.append(game)
        else:
            misses.append((game, miss))
    if len(candidates) > 1:
        return GameSearch(
            SearchStatus.AMBIGUOUS, candidates=tuple(candidates), misses=tuple(misses)
        )
    if not candidates:
        return GameSearch(SearchStatus.NONE, misses=tuple(misses))
    found = candidates[0]
    early_draw, problem = _early_draw(found)
    return GameSearch(
        SearchStatus.FOUND,
        game=found,
        candidates=(found,),
        early_draw=early_draw,
        pgn_problem=problem,
        misses=tuple(misses),
    )


def find_games(
    searches: Sequence[tuple[GameQuery, Iterable[SiteGame]]],
    taken: Iterable[tuple[Site, str]] = (),
) -> list[GameSearch]:
    """CCT-7: `find_game` for several pairings in order, each game taken at most once.

    A game found for one pairing is `taken` for the later ones. Game 1 and game 3 of a knock-out
    match have the same players and colours, so search them in playing order.
    """
    taken_keys = set(taken)
    results = []
    for query, games in searches:
        result = find_game(query, games, taken_keys)
        if result.game is not None:
            taken_keys.add(result.game.key)
        results.append(result)
    return results

"""The tour Finals by CCT-8f: a round robin of matches plus bonus points from tour points.

A match won in the rapid games scores 3/0 and one won in the tie-break scores 2/1.

Each round's match is a one-match contest of `core.tour.knockout`: 4 rapid games won at 2½, then 2
blitz and an Armageddon at 2-2. Match and play-off rules thus live in one place.

*Interpretation:* the regulation gives no Finals colours. The Berger-table White has White in rapid
game 1, and colours then alternate. The play-off colours are inputs set by the organiser.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import chess

from core.berger import berger_table
from core.ranks import equal_runs, shared_ranks
from core.tour.knockout import ContestPlan, ContestStatus, PlayedGame, contest_status
from core.tour.ranking import EVENT_SIZES, EventType
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS, Phase, TimeControls

Player = Hashable
BONUS_STEP = 10
"""CCT-8f: ½ bonus point for each full 10 tour points above the lowest finalist."""
BONUS_PER_STEP = Fraction(1, 2)


class FinalsError(ValueError):
    """Finals data the regulation does not allow."""


@dataclass(frozen=True, slots=True)
class FinalsScoring:
    """CCT-8f: the configured match points for a rapid win and loss and a tie-break win and loss."""

    rapid_win: int = 3
    rapid_loss: int = 0
    tiebreak_win: int = 2
    tiebreak_loss: int = 1


DEFAULT_FINALS_SCORING = FinalsScoring()
"""CCT-8f: a rapid win scores 3 and a loss 0. A tie-break win scores 2 and a loss 1."""

AWARD_DECIDED_BY = Phase.RAPID
"""CCT-8f with CCT-9, *interpretation*: a Finals match awarded without play counts as won in the
rapid games, 3/0.

Withdrawal, no-show and illness are such cases. No tie-break was played, so the 2/1 of a tie-break
does not apply, and the player who did not play earns nothing.
"""


@dataclass(frozen=True, slots=True)
class FinalsPairing:
    """One Finals match of a round: the Berger-table White and Black player."""

    round_no: int
    white: Player
    black: Player


def finals_rounds(players: Sequence[Player]) -> tuple[tuple[FinalsPairing, ...], ...]:
    """CCT-8f: the 9 rounds of the 10-player Finals by the Berger table of CORE-1.

    `players[0]` holds pairing number 1.
    """
    size = EVENT_SIZES[EventType.FINALS]
    if len(players) != size or len(set(players)) != size:
        raise FinalsError(f"the Finals need {size} different players, got {len(players)}")
    table = berger_table(size)
    return tuple(
        tuple(FinalsPairing(r + 1, players[p.white - 1], players[p.black - 1]) for p in boards)
        for r, boards in enumerate(table.rounds)
    )


def finals_match_plan(
    white: Player,
    black: Player,
    blitz_1_white: Player | None = None,
    armageddon_white: Player | None = None,
) -> ContestPlan:
    """CCT-8f: one Finals match as a one-match contest, with play-off colours as chosen.

    Colours are None when not yet known, and the status then asks for the choice.
    """
    for chosen in (blitz_1_white, armageddon_white):
        if chosen is not None and chosen not in (white, black):
            raise FinalsError(f"{chosen!r} does not play in {white!r} v {black!r}")

    def colour(chosen: Player | None) -> chess.Color | None:
        return None if chosen is None else chosen == white

    return ContestPlan(
        first=white,
        second=black,
        rapid_matches=1,
        first_colour_game_1=chess.WHITE,
        first_colour_blitz_1=colour(blitz_1_white),
        first_colour_armageddon=colour(armageddon_white),
    )


def finals_match_status(
    white: Player,
    black: Player,
    games: Sequence[PlayedGame],
    blitz_1_white: Player | None = None,
    armageddon_white: Player | None = None,
    controls: TimeControls = DEFAULT_TIME_CONTROLS,
) -> ContestStatus:
    """CCT-8f: the next game of a Finals match or its winner, as `core.tour.knockout` finds them."""
    plan = finals_match_plan(white, black, blitz_1_white, armageddon_white)
    return contest_status(plan, games, controls)


def match_points(
    status: ContestStatus, scoring: FinalsScoring = DEFAULT_FINALS_SCORING
) -> dict[Player, int]:
    """CCT-8f: match points of a decided Finals match — 3/0 won in the rapid games, 2/1 won
    in the tie-break."""
    if status.winner is None or status.loser is None:
        raise FinalsError("match points exist only for a decided match")
    if status.decided_by is Phase.RAPID:
        return {status.winner: scoring.rapid_win, status.loser: scoring.rapid_loss}
    return {status.winner: scoring.tiebreak_win, status.loser: scoring.tiebreak_loss}


def bonus_points(tour_points: Mapping[Player, int]) -> dict[Player, Fraction]:
    """CCT-8f: the bonus points of the finalists.

    The finalist with the fewest tour points starts on 0. Every other gets ½ per full 10 tour points
    above that player, so 12 or 19 more both give ½ and 20 gives 1.
    """
    if not tour_points:
        raise FinalsError("no finalists")
    lowest = min(tour_points.values())
    return {
        player: BONUS_PER_STEP * ((points - lowest) // BONUS_STEP)
        for player, points in tour_points.items()
    }


def feeds_drawn_finals(
    event_type: EventType, position: int, finals_position: int, finals_drawn: bool
) -> bool:
    """CCT-8f, CCT-6: whether an event's results feed the bonus of Finals already drawn.
    The bonus is the tour standings at the Finals' start: an event before them gives the
    tour points it is read from, so once they are drawn none of its results may change."""
    return event_type is not EventType.FINALS and finals_drawn and position < finals_position


class DrawCancelRefused(FinalsError):
    """The Finals' draw stands: something was played or decided in them."""


@dataclass(frozen=True, slots=True)
class FinalsPlay:
    """What the drawn Finals hold that cancelling their draw would throw away.

    These are games with a report or a result, matches decided without play by award or record, and
    the disconnections and appeals recorded about their games.
    """

    reported_games: int = 0
    decided_matches: int = 0
    rulings: int = 0


def check_draw_cancellable(play: FinalsPlay) -> None:
    """CCT-8f, read with CCT-16: the Finals' draw may be cancelled, so that an earlier event
    feeding their bonus can be corrected, only while nothing is played or decided in them.
    A played Finals result is never thrown away: otherwise the draw stands."""
    held = []
    if play.reported_games:
        held.append(f"{play.reported_games} game(s) with a report or a result")
    if play.decided_matches:
        held.append(f"{play.decided_matches} match(es) decided without play")
    if play.rulings:
        held.append(f"{play.rulings} disconnection(s) or appeal(s) recorded")
    if held:
        raise DrawCancelRefused(
            f"the Finals hold {' and '.join(held)}, and a played Finals result is never "
            "thrown away (CCT-8f)"
        )


@dataclass(frozen=True, slots=True)
class FinalsRow:
    """CCT-8f: one finalist's bonus, match points and total, with the shared rank."""

    rank: int
    player: Player
    bonus: Fraction
    match_points: int
    total: Fraction


@dataclass(frozen=True, slots=True)
class FinalsStandings:
    """CCT-8f: the Finals table.

    `tied_for_first` names the players sharing first place. The organiser decides that tie as
    announced, and the bot only flags it.
    """

    rows: tuple[FinalsRow, ...]
    tied_for_first: tuple[Player, ...]

    @property
    def leader(self) -> Player | None:
        """CCT-8f: the one player with the most match points plus bonus, or None while first
        place is shared."""
        if not self.rows or self.tied_for_first:
            return None
        return self.rows[0].player


def finals_standings(
    bonus: Mapping[Player, Fraction],
    matches: Iterable[ContestStatus],
    scoring: FinalsScoring = DEFAULT_FINALS_SCORING,
) -> FinalsStandings:
    """CCT-8f: the standings are the bonus plus the match points of the decided matches.

    Undecided matches count nothing yet. Equal totals share the rank, and a tie for first is
    flagged.
    """
    earned: dict[Player, int] = dict.fromkeys(bonus, 0)
    for status in matches:
        if not status.decided:
            continue
        for player, points in match_points(status, scoring).items():
            if player not in earned:
                raise FinalsError(f"{player!r} is not a finalist")
            earned[player] += points
    totals = {p: bonus[p] + earned[p] for p in bonus}
    order = sorted(bonus, key=lambda p: (-totals[p], str(p)))
    rows = tuple(
        FinalsRow(rank, p, bonus[p], earned[p], totals[p])
        for rank, group in shared_ranks(equal_runs(order, totals.__getitem__))
        for p in group
    )
    first = tuple(r.player for r in rows if r.rank == 1)
    return FinalsStandings(rows, first if len(first) > 1 else ())

"""One tour event's stored facts as core values, and what is derived from them.

It derives the Berger pairings of the drawn pairing numbers by CORE-1 and CCT-8a, the preliminary
standings by CCT-8b, the knock-out bracket and each series' state by CCT-8c to CCT-8e, and the
Finals matches and table by CCT-8f. Once the event is over it gives the `PlayedEvent` the tour
ranking counts by CCT-6.

Only settled results are facts here, those confirmed or decided in `core.tour.game_reports`. The
database and a tour file give the same values, so the bot and `arbiter tour` agree by construction.
Nothing derived is stored: standings, winners and placings come from here.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

import chess

from core.berger import pairing_table
from core.results import STANDARD, Result, Scoring
from core.standings import PlayerStanding, standings
from core.tiebreaks import CCT_8B, DeReading, Game
from core.tour.events import ROUND_ORDER, KnockoutResult, PlayedEvent
from core.tour.finals import (
    AWARD_DECIDED_BY,
    FinalsStandings,
    finals_match_plan,
    finals_standings,
)
from core.tour.game_reports import GameReport, ReportStatus
from core.tour.knockout import (
    Bracket,
    ContestStatus,
    KnockoutError,
    KoPairing,
    PlayedGame,
    SeriesChoices,
    Tie,
    contest_status,
    series_status,
)
from core.tour.ranking import KNOCKOUT_PLACES, EventType, PointsTable
from core.tour.report import FinalsMatch, FinalsResults
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS, Phase, TimeControls

Player = Hashable


@dataclass(frozen=True, slots=True)
class Pairing:
    """CORE-1: one game of a round robin: round, board, White and Black."""

    round: int
    board: int
    white: Player
    black: Player


@dataclass(frozen=True, slots=True)
class PrelimGame:
    """CCT-8a: a settled preliminary game."""

    round: int
    white: Player
    black: Player
    result: Result


class AwardReason(enum.Enum):
    """CCT-9: why an arbiter awards a game, a series or a Finals match without play."""

    WITHDRAWAL = "withdrawal"
    NO_SHOW = "no-show"
    ILLNESS = "illness"
    OTHER = "other"


class AwardRefused(ValueError):
    """CCT-9: an award the rules do not allow, because the contest or game is decided already."""


@dataclass(frozen=True, slots=True)
class ContestRecord:
    """A knock-out round or Finals match known by its recorded outcome.

    It comes from a historic event imported from a tour file, or from an arbiter's award. It holds
    the winner and whether it was a walkover, with the award's reason and note by CCT-9. For the
    Finals it says whether the match was decided in the rapid games, scored 3/0 by CCT-8f, or in the
    tie-break, scored 2/1.
    """

    winner: Player
    walkover: bool = False
    rapid: bool = True
    reason: AwardReason | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class ContestFacts:
    """A knock-out series or Finals match: colour choices, settled games in order, or a recorded
    outcome.

    The colour choices are the first player's, by CCT-8e. The Finals' first player is the
    Berger-table White, who has White in game 1.
    """

    colour_game_1: chess.Color | None = None
    colour_blitz_1: chess.Color | None = None
    colour_armageddon: chess.Color | None = None
    games: tuple[PlayedGame, ...] = ()
    record: ContestRecord | None = None


NO_CONTEST = ContestFacts()


@dataclass(frozen=True, slots=True)
class EventFacts:
    """CCT-2: an event's facts.

    `players` are in pairing-number order, with index 0 as no. 1, and empty before the draw. `seeds`
    are preliminary places 1-8 as the knock-out was built from them, empty before it started.
    `recorded_order` is an imported official order.
    """

    name: str
    type: EventType
    players: tuple[Player, ...] = ()
    prelim_games: tuple[PrelimGame, ...] = ()
    reading: DeReading = DeReading.CCT
    lots_seed: str | None = None
    seeds: tuple[Player, ...] = ()
    series: Mapping[Tie, ContestFacts] = field(default_factory=dict)
    finals: Mapping[tuple[int, int], ContestFacts] = field(default_factory=dict)
    third_place_match: bool = True
    points_table: PointsTable | None = None
    recorded_order: tuple[Player, ...] | None = None
    time_controls: TimeControls = DEFAULT_TIME_CONTROLS
    scoring: Scoring = STANDARD
    """CCT-8a: the preliminary's game scoring, 1/½/0 or 3/1/0, frozen with the event."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "series", MappingProxyType(dict(self.series)))
        object.__setattr__(self, "finals", MappingProxyType(dict(self.finals)))

    @property
    def places_that_count(self) -> int:
        """CCT-6/CCT-8c: the preliminary places that go on or earn tour points."""
        table = len(self.points_table.preliminary) if self.points_table else 0
        return max(KNOCKOUT_PLACES, table)


def round_robin(players: Sequence[Player]) -> tuple[Pairing, ...]:
    """CORE-1, CCT-8a and CCT-8f: every game of the single round robin of `players` by the Berger
    table.

    `players` are in pairing-number order. With an odd number there is no game against the bye.
    """
    table = pairing_table(len(players))
    return tuple(
        Pairing(r + 1, b + 1, players[p.white - 1], players[p.black - 1])
        for r, boards in enumerate(table.rounds)
        for b, p in enumerate(boards)
    )


def preliminary_standings(facts: EventFacts) -> tuple[PlayerStanding, ...]:
    """CCT-8a and CCT-8b: points, DE, WIN, SB and KS from the settled games.

    DE follows the event's reading. Remaining ties are ordered by the event's drawing of lots when
    it ordered one.

    Every value counts game points as the event scores them. Under 3/1/0 a player scores 3 a win and
    1 a draw. DE sums those points among the tied players. SB sums, over the games, the opponent's
    final 3/1/0 score times the 3/1/0 points scored against them, so a draw weighs a third of a win
    rather than a half. Koya sums the 3/1/0 points scored against opponents with at least half of
    the most a player can score, which is 3 a game. WIN counts wins whatever the scoring.
    """
    games = [Game(g.white, g.black, g.result, g.round) for g in facts.prelim_games]
    return standings(
        facts.players,
        games,
        scoring=facts.scoring,
        criteria=CCT_8B,
        reading=facts.reading,
        lots_seed=facts.lots_seed,
    )


def preliminary_complete(facts: EventFacts) -> bool:
    """CCT-8a: every game of the round robin has a settled result."""
    return len(facts.prelim_games) == len(round_robin(facts.players)) if facts.players else False


def preliminary_order(facts: EventFacts) -> tuple[Player, ...]:
    """CCT-8b: the preliminary order, best first.

    It is the recorded official order, else the standings with players still tied listed by pairing
    number.
    """
    if facts.recorded_order is not None:
        return facts.recorded_order
    return tuple(row.player for row in preliminary_standings(facts))


def _winner(status: ContestStatus | None, record: ContestRecord | None) -> Player | None:
    """A contest's winner: its recorded outcome's, else its games' once they decide it."""
    if record is not None:
        return record.winner
    return status.winner if status is not None else None


@dataclass(frozen=True, slots=True)
class TieState:
    """CCT-8c and CCT-8d: a knock-out round whose players are known.

    Returns the pairing, higher-ranked first, and the series' state or its recorded outcome.
    """

    tie: Tie
    pairing: KoPairing
    status: ContestStatus | None
    record: ContestRecord | None = None

    @property
    def winner(self) -> Player | None:
        """The series winner, once decided."""
        return _winner(self.status, self.record)


@dataclass(frozen=True, slots=True)
class KnockoutState:
    """CCT-8c: the bracket from the 8 seeds and every round whose players are known."""

    bracket: Bracket
    ties: Mapping[Tie, TieState]
    third_place_match: bool

    @property
    def winners(self) -> dict[Tie, Player]:
        """The decided rounds and their winners."""
        return {t: s.winner for t, s in self.ties.items() if s.winner is not None}

    @property
    def finished(self) -> bool:
        """CCT-8c: the Final is decided, and so is the 3rd-place match if the event has one."""
        needed = [Tie.FINAL] + ([Tie.THIRD_PLACE] if self.third_place_match else [])
        winners = self.winners
        return all(tie in winners for tie in needed)


def knockout_state(facts: EventFacts) -> KnockoutState:
    """CCT-8c to CCT-8e: the bracket built from the seeds, with each known round's series replayed.

    Each series is replayed in order from its settled games or read from its record. Raises
    KnockoutError or its IllegalSequence for facts the rules do not allow, such as games of a round
    whose players are not known.
    """
    bracket = Bracket(tuple(facts.seeds))
    ties: dict[Tie, TieState] = {}
    winners: dict[Tie, Player] = {}
    known = bracket.pairings(winners)
    for tie in ROUND_ORDER:
        contest = facts.series.get(tie, NO_CONTEST)
        if tie is Tie.THIRD_PLACE and not facts.third_place_match:
            if contest.games or contest.record:
                raise KnockoutError("the event has no 3rd-place match (CCT-8c)")
            continue
        if tie not in known:
            if contest.games or contest.record:
                raise KnockoutError(f"{tie.value} has games before its players are known")
            continue
        pairing = known[tie]
        if contest.record is not None:
            if contest.record.winner not in (pairing.higher, pairing.lower):
                raise KnockoutError(f"{contest.record.winner!r} did not play {tie.value}")
            state = TieState(tie, pairing, None, contest.record)
        else:
            choices = SeriesChoices(
                contest.colour_game_1, contest.colour_blitz_1, contest.colour_armageddon
            )
            status = series_status(
                pairing.higher, pairing.lower, choices, contest.games, facts.time_controls
            )
            state = TieState(tie, pairing, status)
        ties[tie] = state
        if state.winner is not None:
            winners[tie] = state.winner
            known = bracket.pairings(winners)
    return KnockoutState(bracket, ties, facts.third_place_match)


def _check_award(
    what: str,
    players: tuple[Player, Player],
    status: ContestStatus | None,
    record: ContestRecord | None,
    winner: Player,
    reason: AwardReason,
    note: str | None,
) -> None:
    """CCT-9: an award names one of the two players, an undecided contest, and a note for
    the reason `other`."""
    if winner not in players:
        raise AwardRefused(f"{winner!r} does not play {what} ({players[0]!r} v {players[1]!r})")
    if record is not None:
        how = "by walkover" if record.walkover else "as recorded"
        raise AwardRefused(f"{what} is decided already: {record.winner!r} won it {how}")
    if status is not None and status.decided:
        raise AwardRefused(f"{what} is decided already: {status.winner!r} won it over the board")
    if reason is AwardReason.OTHER and not (note and note.strip()):
        raise AwardRefused("an award for another reason needs a short note saying why (CCT-9)")


def award_series(
    state: TieState, winner: Player, reason: AwardReason, note: str | None = None
) -> ContestRecord:
    """CCT-9: a knock-out series awarded to `winner` without play.

    Only an undecided series may be awarded. Games already played stay recorded and the award
    decides the series. The bracket and placings follow from the winner as from any other, by CCT-8c
    and CCT-6.
    """
    players = (state.pairing.higher, state.pairing.lower)
    _check_award(state.tie.value, players, state.status, state.record, winner, reason, note)
    return ContestRecord(winner, walkover=True, reason=reason, note=note)


def award_finals_match(
    state: FinalsMatchState, winner: Player, reason: AwardReason, note: str | None = None
) -> ContestRecord:
    """CCT-9 with CCT-8f: a Finals match awarded to `winner` without play.

    It scores as a match won in the rapid games, 3/0, as `core.tour.finals.AWARD_DECIDED_BY` says.
    """
    pairing = state.pairing
    what = f"R{pairing.round} {pairing.white!r} v {pairing.black!r}"
    players = (pairing.white, pairing.black)
    _check_award(what, players, state.status, state.record, winner, reason, note)
    rapid = AWARD_DECIDED_BY is Phase.RAPID
    return ContestRecord(winner, walkover=True, rapid=rapid, reason=reason, note=note)


def award_game(
    report: GameReport,
    white: Player,
    black: Player,
    winner: Player,
    reason: AwardReason,
    note: str | None = None,
) -> Result:
    """CCT-9 with CORE-2: a game awarded without play is a forfeit win, never an invented 1-0.

    The forfeit is +/- or -/+. It counts as a win and as a played game for DE and SB. Only a game
    with no result yet, neither reported nor settled, may be awarded.
    """
    if winner not in (white, black):
        raise AwardRefused(f"{winner!r} does not play that game ({white!r} v {black!r})")
    if report.status is not ReportStatus.OPEN:
        assert report.result is not None
        raise AwardRefused(
            f"the game has a result already ({report.result.value}, {report.status.value})"
        )
    if reason is AwardReason.OTHER and not (note and note.strip()):
        raise AwardRefused("an award for another reason needs a short note saying why (CCT-9)")
    return Result.WHITE_FORFEIT_WIN if winner == white else Result.BLACK_FORFEIT_WIN


def played_event(facts: EventFacts) -> PlayedEvent | None:
    """CCT-6 and CCT-8c: the event as the tour ranking counts it, once its knock-out is over.

    Returns None before that.
    """
    if facts.type is EventType.FINALS or len(facts.seeds) != KNOCKOUT_PLACES:
        return None
    state = knockout_state(facts)
    if not state.finished:
        return None
    results = tuple(
        KnockoutResult(
            t.tie,
            t.pairing.higher,
            t.pairing.lower,
            t.winner,
            bool(t.record and t.record.walkover),
        )
        for t in state.ties.values()
    )
    return PlayedEvent(
        facts.name,
        facts.type,
        preliminary_order(facts),
        results,
        facts.third_place_match,
        facts.points_table,
    )


@dataclass(frozen=True, slots=True)
class FinalsMatchState:
    """CCT-8f: one Finals match: its Berger pairing and its state, or its recorded outcome."""

    pairing: Pairing
    status: ContestStatus | None
    record: ContestRecord | None = None

    @property
    def winner(self) -> Player | None:
        """The match winner, once decided."""
        return _winner(self.status, self.record)

    @property
    def rapid(self) -> bool | None:
        """Whether it was decided in the rapid games. None while undecided."""
        if self.record is not None:
            return self.record.rapid
        if self.status is None or not self.status.decided:
            return None
        return self.status.decided_by is Phase.RAPID


def _finals_status(
    pairing: Pairing, contest: ContestFacts, controls: TimeControls
) -> ContestStatus:
    """CCT-8f: a Finals match replayed from its games.

    The play-off colours are those the first player, the Berger White, chose.
    """

    def chosen(colour: chess.Color | None) -> Player | None:
        if colour is None:
            return None
        return pairing.white if colour == chess.WHITE else pairing.black

    plan = finals_match_plan(
        pairing.white,
        pairing.black,
        chosen(contest.colour_blitz_1),
        chosen(contest.colour_armageddon),
    )
    return contest_status(plan, contest.games, controls)


def _finals_match(facts: EventFacts, pairing: Pairing) -> FinalsMatchState:
    contest = facts.finals.get((pairing.round, pairing.board), NO_CONTEST)
    if contest.record is not None:
        if contest.record.winner not in (pairing.white, pairing.black):
            raise KnockoutError(f"{contest.record.winner!r} did not play that Finals match")
        return FinalsMatchState(pairing, None, contest.record)
    return FinalsMatchState(pairing, _finals_status(pairing, contest, facts.time_controls))


def finals_matches(facts: EventFacts) -> tuple[FinalsMatchState, ...]:
    """CCT-8f: every match of the Finals round robin, in round and board order."""
    return tuple(_finals_match(facts, pairing) for pairing in round_robin(facts.players))


def finals_match(facts: EventFacts, round_no: int, board: int) -> FinalsMatchState:
    """CCT-8f: the Finals match of round `round_no`, board `board`."""
    for pairing in round_robin(facts.players):
        if (pairing.round, pairing.board) == (round_no, board):
            return _finals_match(facts, pairing)
    raise KnockoutError(f"the Finals have no match R{round_no}B{board}")


def finals_finished(facts: EventFacts) -> bool:
    """CCT-8f: the Finals are over once drawn and every match of their round robin is decided."""
    return bool(facts.players) and all(m.winner is not None for m in finals_matches(facts))


def finals_results(facts: EventFacts) -> FinalsResults:
    """CCT-8f: the finalists and the matches decided so far, as the tour report counts them."""
    decided = tuple(
        FinalsMatch(m.pairing.white, m.pairing.black, m.winner, bool(m.rapid))
        for m in finals_matches(facts)
        if m.winner is not None
    )
    return FinalsResults(facts.players, decided)


def finals_table(facts: EventFacts, bonus: Mapping[str, Fraction]) -> FinalsStandings:
    """CCT-8f: bonus + match points of the decided matches, shared ranks, a tie for first
    flagged."""
    by_player: dict[Player, Fraction] = {p: b for p, b in bonus.items()}
    return finals_standings(by_player, (m.status() for m in finals_results(facts).matches))

"""Knock-out rounds of Regular and Major events, by CCT-8c, CCT-8d and CCT-8e.

A *contest* is a head-to-head of one or more rapid matches of 4 games. A match is won at 2½, drawn
at 2-2, and its 4th game is skipped when it is decided. When no one won a match without losing one,
a play-off follows: 2 blitz games, then an Armageddon where a draw goes to Black. A knock-out round
is a contest of two matches. A Finals round is a contest of one, see CCT-8f and `core.tour.finals`.

Given the games played so far, `contest_status` tells the next game with its colours and time
control, or the winner. It rejects sequences the regulation does not allow with `IllegalSequence`.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import chess

from core.points import decimal_text
from core.results import STANDARD, Result
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS, Phase, TimeControl, TimeControls

Player = Hashable
WINNING_SCORE = Fraction(5, 2)
"""CCT-8d: a rapid match is won by the first player to reach 2½."""
MATCH_GAMES = 4
"""CCT-8d: a rapid match has at most 4 games."""
BLITZ_GAMES = 2
"""CCT-8d: a play-off starts with 2 blitz games."""
SERIES_SAFE_SCORE = Fraction(2)
"""CCT-8d: after winning match 1, this score in match 2 is at least a draw, so the series is won."""


class KnockoutError(ValueError):
    """A knock-out input the regulation does not allow."""


class IllegalSequence(KnockoutError):
    """CCT-8d/8e: a game recorded out of order, with the wrong colours, or after the decision."""


class MatchOutcome(enum.Enum):
    """CCT-8d: the state of one rapid match, from the side of the first, higher-ranked player."""

    IN_PROGRESS = "in progress"
    FIRST_WON = "first won"
    SECOND_WON = "second won"
    DRAWN = "drawn"
    STOPPED = "stopped"
    """The match stopped before 2½ or its 4th game because the series was already decided."""


class ColourChoice(enum.Enum):
    """CCT-8e: a colour the higher-ranked player must choose before the next game."""

    MATCH_1_GAME_1 = "colour of game 1 of match 1"
    BLITZ_1 = "colour of the first blitz game"
    ARMAGEDDON = "colour in the Armageddon"


@dataclass(frozen=True, slots=True)
class GameSlot:
    """The next game to play: its phase, match number for rapid games, number, colours and clock."""

    phase: Phase
    match_no: int | None
    game_no: int
    white: Player
    black: Player
    time_control: TimeControl

    def played(self, result: Result) -> PlayedGame:
        """This game with its result, ready to be recorded."""
        return PlayedGame(self.phase, self.white, self.black, result, self.match_no)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A recorded game: phase, players by colour, result, and the match 1 or 2 if rapid."""

    phase: Phase
    white: Player
    black: Player
    result: Result
    match_no: int | None = None


@dataclass(frozen=True, slots=True)
class MatchScore:
    """CCT-8d: one rapid match's score for the first and second player and its outcome."""

    match_no: int
    first: Fraction
    second: Fraction
    games: int
    outcome: MatchOutcome


@dataclass(frozen=True, slots=True)
class ContestPlan:
    """Who plays, how many rapid matches, and the first player's colours by CCT-8e.

    A knock-out round has 2 rapid matches and the Finals 1. Colours are `chess.WHITE` or
    `chess.BLACK`, or None when not chosen yet.
    """

    first: Player
    second: Player
    rapid_matches: int
    first_colour_game_1: chess.Color | None
    first_colour_blitz_1: chess.Color | None = None
    first_colour_armageddon: chess.Color | None = None

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise KnockoutError(f"a contest needs two different players, not {self.first!r} twice")
        if self.rapid_matches not in (1, 2):
            raise KnockoutError(f"a contest has 1 or 2 rapid matches, not {self.rapid_matches}")


@dataclass(frozen=True, slots=True)
class ContestStatus:
    """Where a contest stands: match scores, play-off score, and what comes next.

    That is the next game, a colour choice still to make, or the winner and the phase that decided
    it.
    """

    matches: tuple[MatchScore, ...]
    playoff: tuple[Fraction, Fraction] | None = None
    next_game: GameSlot | None = None
    choice_required: ColourChoice | None = None
    winner: Player | None = None
    loser: Player | None = None
    decided_by: Phase | None = None

    @property
    def decided(self) -> bool:
        """True once the contest has a winner."""
        return self.winner is not None


def score_text(first: Fraction, second: Fraction) -> str:
    """Two scores as an error message repeats them, such as `2.5–0.5`, in plain decimals.

    How people read scores with ½ is the renderers' business, not core's.
    """
    return f"{decimal_text(first)}–{decimal_text(second)}"


def match_outcome(first: Fraction, second: Fraction, games: int) -> MatchOutcome:
    """CCT-8d: won at 2½, drawn at 2-2 after 4 games, else still in progress."""
    if first >= WINNING_SCORE:
        return MatchOutcome.FIRST_WON
    if second >= WINNING_SCORE:
        return MatchOutcome.SECOND_WON
    if games >= MATCH_GAMES:
        return MatchOutcome.DRAWN
    return MatchOutcome.IN_PROGRESS


def series_certain(earlier: Sequence[MatchScore], first: Fraction, second: Fraction) -> bool | None:
    """CCT-8d: whether a player has already won the series during the match scored `first`–`second`.

    Returns True for the first player and False for the second, and the match stops. Returns None
    while it goes on. Only the second match of a series can stop this way: the winner of match 1 who
    reaches 2 points in match 2 has at least drawn it, and the opponent can no longer win it.
    """
    if len(earlier) != 1:
        return None
    if earlier[0].outcome is MatchOutcome.FIRST_WON and first >= SERIES_SAFE_SCORE:
        return True
    if earlier[0].outcome is MatchOutcome.SECOND_WON and second >= SERIES_SAFE_SCORE:
        return False
    return None


def _points(result: Result, first_is_white: bool) -> tuple[Fraction, Fraction]:
    """Game points 1/½/0 of the first and second player. A double forfeit is refused."""
    if result is Result.DOUBLE_FORFEIT:
        raise IllegalSequence(
            "a double forfeit has no winner, so a knock-out game cannot end that way; "
            "record the arbiter's decision instead (CCT-9)"
        )
    return _GAME_POINTS[result, first_is_white]


_GAME_POINTS: Mapping[tuple[Result, bool], tuple[Fraction, Fraction]] = {
    (result, first_is_white): (
        STANDARD.points(result.outcome(white=first_is_white)),
        1 - STANDARD.points(result.outcome(white=first_is_white)),
    )
    for result in Result
    if result is not Result.DOUBLE_FORFEIT
    for first_is_white in (True, False)
}
"""Game points 1/½/0 of the first and second player, by result and the first player's colour."""


class _Games:
    """The recorded games, consumed in order and checked against the expected slots."""

    def __init__(self, games: Sequence[PlayedGame], matches: list[MatchScore]) -> None:
        self._games = games
        self._index = 0
        self._matches = matches

    def take(self, slot: GameSlot) -> PlayedGame | None:
        """The next recorded game if it is `slot`, None when none is left.

        Raises IllegalSequence when the next game is another one.
        """
        if self._index >= len(self._games):
            return None
        game = self._games[self._index]
        number = self._index + 1
        if game.phase is not slot.phase or game.match_no != slot.match_no:
            raise IllegalSequence(f"game {number}: {self._mismatch(game, slot)}")
        if (game.white, game.black) != (slot.white, slot.black):
            raise IllegalSequence(
                f"game {number} ({_describe_slot(slot)}): CCT-8e gives White to {slot.white!r} "
                f"and Black to {slot.black!r}, not White {game.white!r} and Black {game.black!r}"
            )
        self._index += 1
        return game

    def pending(self) -> PlayedGame | None:
        """The first game not yet consumed, if any."""
        return self._games[self._index] if self._index < len(self._games) else None

    def finish(self, winner: Player) -> None:
        """CCT-8d: nothing may be recorded once the contest is decided."""
        game = self.pending()
        if game is None:
            return
        decided = self._decided_match(game)
        if decided is not None:
            raise IllegalSequence(f"game {self._index + 1}: {decided}")
        raise IllegalSequence(
            f"game {self._index + 1}: the contest is already decided ({winner!r} won); "
            "no further game may be recorded (CCT-8d)"
        )

    def refuse_without_choice(self, choice: ColourChoice, chooser: Player) -> None:
        """CCT-8e: a play-off game cannot be recorded before the higher-ranked player chose."""
        if self.pending() is not None:
            raise IllegalSequence(
                f"game {self._index + 1}: the {choice.value} has not been chosen by "
                f"{chooser!r} (CCT-8e), so this game cannot be placed"
            )

    def _decided_match(self, game: PlayedGame) -> str | None:
        if game.phase is not Phase.RAPID:
            return None
        for match in self._matches:
            if match.match_no == game.match_no and match.outcome is MatchOutcome.STOPPED:
                score = score_text(match.first, match.second)
                return (
                    f"match {match.match_no} stopped at {score} after {match.games} games "
                    "because the series was decided: its remaining games are not played (CCT-8d)"
                )
            if match.match_no == game.match_no and match.outcome is not MatchOutcome.IN_PROGRESS:
                score = score_text(match.first, match.second)
                return (
                    f"match {match.match_no} was already {match.outcome.value.split()[-1]} "
                    f"{score} after {match.games} games: its game {match.games + 1} is not "
                    "played (CCT-8d)"
                )
        return None

    def _mismatch(self, game: PlayedGame, slot: GameSlot) -> str:
        decided = self._decided_match(game)
        if decided is not None:
            return decided
        expected = f"the next game is {_describe_slot(slot)}"
        if game.phase is Phase.ARMAGEDDON and slot.phase is Phase.BLITZ:
            return (
                f"an Armageddon cannot come before both blitz games are played (CCT-8d); {expected}"
            )
        if game.phase is not Phase.RAPID and slot.phase is Phase.RAPID:
            return f"no play-off game before the rapid matches are over (CCT-8d); {expected}"
        if game.phase is Phase.RAPID and game.match_no not in (1, 2):
            return f"a rapid game must name its match (1 or 2), not {game.match_no!r}; {expected}"
        return f"a {_describe_game(game)} is not allowed here; {expected}"


def _describe_slot(slot: GameSlot) -> str:
    if slot.phase is Phase.RAPID:
        return f"rapid game {slot.game_no} of match {slot.match_no}"
    if slot.phase is Phase.BLITZ:
        return f"blitz game {slot.game_no} of the play-off"
    return "the Armageddon"


def _describe_game(game: PlayedGame) -> str:
    if game.phase is Phase.RAPID:
        return f"rapid game of match {game.match_no}"
    return f"{game.phase.value} game"


def contest_status(
    plan: ContestPlan,
    games: Sequence[PlayedGame],
    controls: TimeControls = DEFAULT_TIME_CONTROLS,
) -> ContestStatus:
    """CCT-8d and CCT-8e: replays `games` in order against the plan and returns the next game or the
    winner.

    Rapid colours alternate within a match and match 2 starts reversed. The play-off's first blitz
    colour and Armageddon colour are the first player's choices. Raises `IllegalSequence` for a game
    out of order, with the wrong colours, or after the decision.
    """
    first, second = plan.first, plan.second
    matches: list[MatchScore] = []
    record = _Games(games, matches)

    def slot(phase: Phase, match_no: int | None, game_no: int, first_white: bool) -> GameSlot:
        white, black = (first, second) if first_white else (second, first)
        return GameSlot(phase, match_no, game_no, white, black, controls.for_phase(phase))

    def decided(
        first_wins: bool, phase: Phase, playoff: tuple[Fraction, Fraction] | None = None
    ) -> ContestStatus:
        winner, loser = (first, second) if first_wins else (second, first)
        record.finish(winner)
        return ContestStatus(tuple(matches), playoff, winner=winner, loser=loser, decided_by=phase)

    if plan.first_colour_game_1 is None:
        # CCT-8e: the higher-ranked player chooses before game 1 of match 1.
        record.refuse_without_choice(ColourChoice.MATCH_1_GAME_1, first)
        return ContestStatus((), choice_required=ColourChoice.MATCH_1_GAME_1)
    for match_no in range(1, plan.rapid_matches + 1):
        opening_white = (plan.first_colour_game_1 == chess.WHITE) == (match_no % 2 == 1)
        score = (Fraction(0), Fraction(0))
        played = 0
        while match_outcome(*score, played) is MatchOutcome.IN_PROGRESS:
            certain = series_certain(matches, *score) if plan.rapid_matches == 2 else None
            if certain is not None:
                # CCT-8d: the series is decided, so this match stops here.
                matches.append(MatchScore(match_no, *score, played, MatchOutcome.STOPPED))
                return decided(certain, Phase.RAPID)
            first_white = opening_white == (played % 2 == 0)
            next_slot = slot(Phase.RAPID, match_no, played + 1, first_white)
            game = record.take(next_slot)
            if game is None:
                matches.append(MatchScore(match_no, *score, played, MatchOutcome.IN_PROGRESS))
                return ContestStatus(tuple(matches), next_game=next_slot)
            got = _points(game.result, first_white)
            score = (score[0] + got[0], score[1] + got[1])
            played += 1
        matches.append(MatchScore(match_no, *score, played, match_outcome(*score, played)))

    # CCT-8d: won both, or won one and drew the other (one match: won it) → winner.
    won = {m.outcome for m in matches}
    if (MatchOutcome.FIRST_WON in won) != (MatchOutcome.SECOND_WON in won):
        return decided(MatchOutcome.FIRST_WON in won, Phase.RAPID)

    # CCT-8d play-off: match scores do not carry over.
    blitz = (Fraction(0), Fraction(0))
    if plan.first_colour_blitz_1 is None:
        record.refuse_without_choice(ColourChoice.BLITZ_1, first)
        return ContestStatus(tuple(matches), blitz, choice_required=ColourChoice.BLITZ_1)
    for game_no in range(1, BLITZ_GAMES + 1):
        first_white = (plan.first_colour_blitz_1 == chess.WHITE) == (game_no % 2 == 1)
        next_slot = slot(Phase.BLITZ, None, game_no, first_white)
        game = record.take(next_slot)
        if game is None:
            return ContestStatus(tuple(matches), blitz, next_game=next_slot)
        got = _points(game.result, first_white)
        blitz = (blitz[0] + got[0], blitz[1] + got[1])
    if blitz[0] != blitz[1]:
        return decided(blitz[0] > blitz[1], Phase.BLITZ, blitz)

    if plan.first_colour_armageddon is None:
        record.refuse_without_choice(ColourChoice.ARMAGEDDON, first)
        return ContestStatus(tuple(matches), blitz, choice_required=ColourChoice.ARMAGEDDON)
    first_white = plan.first_colour_armageddon == chess.WHITE
    next_slot = slot(Phase.ARMAGEDDON, None, 1, first_white)
    game = record.take(next_slot)
    if game is None:
        return ContestStatus(tuple(matches), blitz, next_game=next_slot)
    got = _points(game.result, first_white)
    if got[0] != got[1]:
        return decided(got[0] > got[1], Phase.ARMAGEDDON, blitz)
    if not controls.armageddon.draw_goes_to_black:
        raise IllegalSequence("this Armageddon time control gives a draw to no one")
    return decided(not first_white, Phase.ARMAGEDDON, blitz)  # CCT-7: a draw goes to Black.


@dataclass(frozen=True, slots=True)
class SeriesChoices:
    """CCT-8e: the higher-ranked player's colour choices. None means not chosen yet."""

    match_1_game_1: chess.Color | None
    blitz_1: chess.Color | None = None
    armageddon: chess.Color | None = None


def series_plan(higher: Player, lower: Player, choices: SeriesChoices) -> ContestPlan:
    """CCT-8d and CCT-8e: a knock-out round of two rapid matches. The higher-ranked player
    chooses.
    """
    return ContestPlan(
        first=higher,
        second=lower,
        rapid_matches=2,
        first_colour_game_1=choices.match_1_game_1,
        first_colour_blitz_1=choices.blitz_1,
        first_colour_armageddon=choices.armageddon,
    )


def series_status(
    higher: Player,
    lower: Player,
    choices: SeriesChoices,
    games: Sequence[PlayedGame],
    controls: TimeControls = DEFAULT_TIME_CONTROLS,
) -> ContestStatus:
    """CCT-8d/8e: the next game of a knock-out round, or its winner."""
    return contest_status(series_plan(higher, lower, choices), games, controls)


class Tie(enum.Enum):
    """CCT-8c: the eight knock-out ties of a Regular or Major event."""

    QF1 = "QF1"
    QF2 = "QF2"
    QF3 = "QF3"
    QF4 = "QF4"
    SF1 = "SF1"
    SF2 = "SF2"
    FINAL = "Final"
    THIRD_PLACE = "3rd place"


class KoStage(enum.Enum):
    """CCT-6 and CCT-5: how far a player went in the knock-out. NONE means out after preliminaries.

    A semi-final loser is THIRD or FOURTH once the CCT-8c 3rd-place match is decided. Without one,
    or before it is played, the loser is SEMI_FINAL.
    """

    NONE = "preliminaries only"
    QUARTER_FINAL = "quarter-final loser"
    SEMI_FINAL = "semi-final loser"
    FOURTH = "4th"
    THIRD = "3rd"
    RUNNER_UP = "runner-up"
    WINNER = "winner"


STAGE_NAMES: Mapping[KoStage, str] = {
    KoStage.WINNER: "winner",
    KoStage.RUNNER_UP: "runner-up",
    KoStage.THIRD: "3rd",
    KoStage.FOURTH: "4th",
    KoStage.SEMI_FINAL: "semi-final",
    KoStage.QUARTER_FINAL: "quarter-final",
}
"""The knock-out stages by their names in tour files, in the JSON report and in stored points
tables."""


QUARTER_FINALS: Mapping[Tie, tuple[int, int]] = {
    Tie.QF1: (1, 8),
    Tie.QF2: (2, 7),
    Tie.QF3: (3, 6),
    Tie.QF4: (4, 5),
}
"""CCT-8c: the preliminary places meeting in each quarter-final."""

SEMI_FINALS: Mapping[Tie, tuple[Tie, Tie]] = {
    Tie.SF1: (Tie.QF1, Tie.QF4),
    Tie.SF2: (Tie.QF2, Tie.QF3),
}
"""CCT-8c: the quarter-finals whose winners meet in each semi-final."""


@dataclass(frozen=True, slots=True)
class KoPairing:
    """One knock-out tie: the higher-ranked player, with the better preliminary place, and the
    lower one.
    """

    tie: Tie
    higher: Player
    lower: Player


@dataclass(frozen=True, slots=True)
class Bracket:
    """CCT-8c: the knock-out bracket built from preliminary places 1-8. `places[0]` is 1st."""

    places: tuple[Player, ...]

    def __post_init__(self) -> None:
        if len(self.places) != 8 or len(set(self.places)) != 8:
            raise KnockoutError(
                f"the bracket needs 8 different players (places 1-8), got {len(self.places)}"
            )

    def place(self, player: Player) -> int:
        """The player's preliminary place, 1-8."""
        try:
            return self.places.index(player) + 1
        except ValueError:
            raise KnockoutError(f"{player!r} is not in the knock-out") from None

    def _ordered(self, tie: Tie, a: Player, b: Player) -> KoPairing:
        higher, lower = (a, b) if self.place(a) < self.place(b) else (b, a)
        return KoPairing(tie, higher, lower)

    def pairings(self, winners: Mapping[Tie, Player]) -> dict[Tie, KoPairing]:
        """CCT-8c: every tie whose players are known, given the winners decided so far.

        Raises KnockoutError for a winner who did not play that tie or a tie decided
        before its players were known.
        """
        known: dict[Tie, KoPairing] = {}
        for tie, (a, b) in QUARTER_FINALS.items():
            known[tie] = self._ordered(tie, self.places[a - 1], self.places[b - 1])

        def loser(tie: Tie) -> Player:
            pairing = known[tie]
            return pairing.lower if winners[tie] == pairing.higher else pairing.higher

        order = (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4, Tie.SF1, Tie.SF2, Tie.FINAL, Tie.THIRD_PLACE)
        for tie in order:
            if tie in SEMI_FINALS:
                feeders = SEMI_FINALS[tie]
                if all(f in winners for f in feeders):
                    known[tie] = self._ordered(tie, winners[feeders[0]], winners[feeders[1]])
            elif tie is Tie.FINAL and Tie.SF1 in winners and Tie.SF2 in winners:
                known[tie] = self._ordered(tie, winners[Tie.SF1], winners[Tie.SF2])
            elif tie is Tie.THIRD_PLACE and Tie.SF1 in winners and Tie.SF2 in winners:
                known[tie] = self._ordered(tie, loser(Tie.SF1), loser(Tie.SF2))
            if tie in winners:
                if tie not in known:
                    raise KnockoutError(f"{tie.value} has a winner before its players are known")
                pairing = known[tie]
                if winners[tie] not in (pairing.higher, pairing.lower):
                    raise KnockoutError(
                        f"{winners[tie]!r} did not play in {tie.value} "
                        f"({pairing.higher!r} v {pairing.lower!r})"
                    )
        return known

    def stages(self, winners: Mapping[Tie, Player]) -> dict[Player, KoStage]:
        """CCT-6: the stage each of the 8 reached from the decided ties.

        A player still in the running shows the round they are playing, since tour points need the
        final stages. By CCT-8c the 3rd-place match, when decided, makes its players THIRD and
        FOURTH.
        """
        known = self.pairings(winners)
        stage = dict.fromkeys(self.places, KoStage.QUARTER_FINAL)
        for tie in (Tie.SF1, Tie.SF2):
            if tie in known:
                for player in (known[tie].higher, known[tie].lower):
                    stage[player] = KoStage.SEMI_FINAL
        if Tie.FINAL in known:
            final = known[Tie.FINAL]
            stage[final.higher] = stage[final.lower] = KoStage.RUNNER_UP
            if Tie.FINAL in winners:
                stage[winners[Tie.FINAL]] = KoStage.WINNER
        if Tie.THIRD_PLACE in winners:
            third = known[Tie.THIRD_PLACE]
            stage[third.higher] = stage[third.lower] = KoStage.FOURTH
            stage[winners[Tie.THIRD_PLACE]] = KoStage.THIRD
        return stage

"""CCT-8c/8d/8e: knock-out bracket, match and series rules, colours, illegal sequences."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction as F

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.results import Result
from core.tour.knockout import (
    Bracket,
    ColourChoice,
    ContestStatus,
    IllegalSequence,
    KnockoutError,
    KoPairing,
    KoStage,
    MatchOutcome,
    PlayedGame,
    SeriesChoices,
    Tie,
    match_outcome,
    series_status,
)
from core.tour.published_scores import series_matches
from core.tour.timecontrols import ARMAGEDDON, BLITZ, RAPID, Phase

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
ALL_CHOSEN = SeriesChoices(chess.WHITE, blitz_1=chess.BLACK, armageddon=chess.BLACK)


def play(
    results: Sequence[Result], choices: SeriesChoices = ALL_CHOSEN
) -> tuple[ContestStatus, list[PlayedGame]]:
    """Feed results one by one into the slots the series asks for ('H' higher, 'L' lower)."""
    games: list[PlayedGame] = []
    for result in results:
        status = series_status("H", "L", choices, games)
        assert status.next_game is not None, f"no game expected after {games}"
        games.append(status.next_game.played(result))
    return series_status("H", "L", choices, games), games


def test_cct_8d_match_won_in_three_games_skips_the_fourth() -> None:
    # H is White in games 1 and 3: W, (L white) 0-1, W → H 3-0 after 3 games.
    status, _ = play([W, B, W])
    assert status.matches[0].outcome is MatchOutcome.FIRST_WON
    assert status.matches[0].games == 3
    assert (status.matches[0].first, status.matches[0].second) == (F(3), F(0))
    assert status.next_game is not None
    assert (status.next_game.match_no, status.next_game.game_no) == (2, 1)


def test_cct_8d_two_and_a_half_after_three_games_decides_the_match() -> None:
    status, _ = play([W, D, W])  # 2½-½
    assert status.matches[0].outcome is MatchOutcome.FIRST_WON
    assert status.next_game is not None and status.next_game.match_no == 2


def test_cct_8d_won_both_matches_wins_the_series() -> None:
    # Match 2 starts with L as White: three draws, then H wins game 4 as White → 2½-1½.
    status, games = play([W, B, W, D, D, D, W])
    assert status.matches[1].outcome is MatchOutcome.FIRST_WON
    assert status.winner == "H" and status.loser == "L"
    assert status.decided_by is Phase.RAPID
    assert len(games) == 7
    assert status.next_game is None


@pytest.mark.parametrize(
    ("match_2", "score", "outcome"),
    [
        ([B, W], (F(2), F(0)), MatchOutcome.STOPPED),  # 2–0 after two games
        ([B, B, B], (F(2), F(1)), MatchOutcome.STOPPED),  # 1–0, 1–1, then H wins game 3: 2–1
        ([D, W, W, D], (F(2), F(2)), MatchOutcome.DRAWN),  # 1½–1½, then a draw: 2–2
        ([B, D, B], (F(5, 2), F(1, 2)), MatchOutcome.FIRST_WON),  # 1½–½ then a win: 2½
    ],
)
def test_cct_8d_after_winning_match_1_two_points_in_match_2_decide_the_series(
    match_2: list[Result], score: tuple[F, F], outcome: MatchOutcome
) -> None:
    """CCT-8d: once the winner of match 1 has 2 points in match 2, the match stops."""
    status, games = play([W, B, W, *match_2])
    assert status.winner == "H" and status.decided_by is Phase.RAPID
    assert (status.matches[1].first, status.matches[1].second) == score
    assert status.matches[1].outcome is outcome
    assert status.matches[1].games == len(match_2)
    assert status.next_game is None and status.choice_required is None
    assert len(games) == 3 + len(match_2)


def test_cct_8d_the_lower_player_who_won_match_1_stops_match_2_at_two_points() -> None:
    # L wins match 1 3-0 (H white in games 1 and 3), then L is White in match 2's game 1.
    status, _ = play([B, W, B, W, B])
    assert status.matches[1].outcome is MatchOutcome.STOPPED
    assert (status.matches[1].first, status.matches[1].second) == (F(0), F(2))
    assert status.winner == "L" and status.loser == "H"


def test_cct_8d_one_and_a_half_all_after_three_games_is_not_decided() -> None:
    status, _ = play([W, B, W, D, D, D])
    assert status.matches[1].outcome is MatchOutcome.IN_PROGRESS
    assert status.winner is None
    assert status.next_game is not None
    assert (status.next_game.match_no, status.next_game.game_no) == (2, 4)


def test_cct_8d_match_1_never_stops_before_its_end() -> None:
    """Two points in match 1 decide nothing: a draw and a win in it lead to different series."""
    status, _ = play([W, B])
    assert status.matches[0].outcome is MatchOutcome.IN_PROGRESS
    assert status.next_game is not None and status.next_game.game_no == 3


def test_cct_8d_a_play_off_only_when_the_matches_are_level() -> None:
    # One match each: H wins match 1 3-0, L wins match 2 at 2½ before H reaches 2.
    won_each, _ = play([W, B, W, W, D, W])
    assert won_each.matches[1].outcome is MatchOutcome.SECOND_WON
    assert won_each.winner is None and won_each.next_game is not None
    assert won_each.next_game.phase is Phase.BLITZ
    drawn_then_won, _ = play([D, D, D, D, B, W, B])
    assert drawn_then_won.winner == "H" and drawn_then_won.next_game is None


def test_cct_8d_a_game_after_a_stopped_match_is_refused() -> None:
    _, games = play([W, B, W, B, W])
    extra = PlayedGame(Phase.RAPID, "L", "H", D, match_no=2)
    with pytest.raises(IllegalSequence, match=r"match 2 stopped at 2–0 after 2 games"):
        series_status("H", "L", ALL_CHOSEN, [*games, extra])


def test_cct_8d_win_plus_draw_wins_the_series() -> None:
    status, games = play([W, B, W, D, D, D, D])
    assert status.matches[1].outcome is MatchOutcome.DRAWN
    assert status.winner == "H" and status.decided_by is Phase.RAPID
    assert len(games) == 7


def test_cct_8d_draw_plus_win_for_the_lower_player_wins_the_series() -> None:
    # Match 1 drawn 2-2; match 2: L is White in game 1 and wins games 1, 2 (H white, 0-1), 3.
    status, _ = play([D, D, D, D, W, B, W])
    assert status.matches[1].outcome is MatchOutcome.SECOND_WON
    assert status.winner == "L" and status.loser == "H"


def test_cct_8d_two_draws_lead_to_a_playoff_where_scores_do_not_carry_over() -> None:
    status, _ = play([D] * 8)
    assert status.winner is None
    assert status.playoff == (F(0), F(0))
    assert status.next_game is not None
    assert status.next_game.phase is Phase.BLITZ and status.next_game.time_control == BLITZ


def test_cct_8d_one_match_each_leads_to_a_playoff() -> None:
    # H wins match 1 (3-0), L wins match 2 (3-0).
    status, _ = play([W, B, W, W, B, W])
    outcomes = [m.outcome for m in status.matches]
    assert outcomes == [MatchOutcome.FIRST_WON, MatchOutcome.SECOND_WON]
    assert status.next_game is not None and status.next_game.phase is Phase.BLITZ


def test_cct_8d_playoff_blitz_2_0_decides_without_armageddon() -> None:
    # Blitz game 1: H chose Black → L White; 0-1 is H's win. Game 2: H White, 1-0.
    status, games = play([D] * 8 + [B, W])
    assert status.winner == "H" and status.decided_by is Phase.BLITZ
    assert status.playoff == (F(2), F(0))
    assert len(games) == 10


def test_cct_8d_blitz_one_one_then_armageddon_draw_goes_to_black() -> None:
    # Blitz 1-1, Armageddon: H chose Black, draw → H (Black) wins.
    status, games = play([D] * 8 + [W, W, D])
    assert status.playoff == (F(1), F(1))
    assert games[-1].phase is Phase.ARMAGEDDON and games[-1].black == "H"
    assert status.winner == "H" and status.decided_by is Phase.ARMAGEDDON


def test_cct_8d_armageddon_draw_goes_to_black_even_when_black_is_lower_ranked() -> None:
    choices = SeriesChoices(chess.WHITE, blitz_1=chess.WHITE, armageddon=chess.WHITE)
    status, games = play([D] * 8 + [D, D, D], choices)
    assert games[-1].white == "H"
    assert status.winner == "L"


def test_cct_8d_armageddon_win_goes_to_the_winner() -> None:
    status, _ = play([D] * 8 + [D, D, W])  # H is Black in the Armageddon, White wins.
    assert status.winner == "L"


def test_cct_8d_armageddon_uses_its_own_time_control() -> None:
    status, _ = play([D] * 8 + [D, D])
    assert status.next_game is not None
    assert status.next_game.time_control == ARMAGEDDON
    assert ARMAGEDDON.draw_goes_to_black


def test_cct_8e_colours_of_every_game_in_a_full_series() -> None:
    """Higher chose White for game 1; alternation; match 2 reversed; play-off as chosen."""
    _, games = play([D] * 8 + [D, D, D])
    whites = [g.white for g in games]
    assert whites == [
        # match 1
        "H", "L", "H", "L",
        # match 2 starts reversed
        "L", "H", "L", "H",
        # blitz: H chose Black, then alternates
        "L", "H",
        # Armageddon: H chose Black
        "L",
    ]  # fmt: skip
    assert [g.phase for g in games] == [Phase.RAPID] * 8 + [Phase.BLITZ] * 2 + [Phase.ARMAGEDDON]
    assert [g.match_no for g in games] == [1] * 4 + [2] * 4 + [None] * 3


def test_cct_8e_higher_choosing_black_reverses_all_rapid_colours() -> None:
    choices = SeriesChoices(chess.BLACK, blitz_1=chess.WHITE, armageddon=chess.WHITE)
    _, games = play([D] * 8 + [D, D, D], choices)
    assert [g.white for g in games] == ["L", "H", "L", "H", "H", "L", "H", "L", "H", "L", "H"]


def test_cct_8e_match_2_reverses_even_after_a_three_game_match_1() -> None:
    _, games = play([W, B, W, D])
    assert games[2].white == "H"  # last game of match 1
    assert games[3].white == "L"  # match 2 game 1 reversed from match 1 game 1


def test_cct_8e_playoff_waits_for_the_blitz_colour_choice() -> None:
    status, _ = play([D] * 8, SeriesChoices(chess.WHITE))
    assert status.choice_required is ColourChoice.BLITZ_1
    assert status.next_game is None and status.winner is None


def test_cct_8e_armageddon_waits_for_its_colour_choice() -> None:
    status, _ = play([D] * 8 + [D, D], SeriesChoices(chess.WHITE, blitz_1=chess.WHITE))
    assert status.choice_required is ColourChoice.ARMAGEDDON
    assert status.playoff == (F(1), F(1))


def test_cct_8d_rapid_games_use_rapid_time_control() -> None:
    status = series_status("H", "L", ALL_CHOSEN, [])
    assert status.next_game is not None
    assert status.next_game.time_control == RAPID
    assert (status.next_game.white, status.next_game.black) == ("H", "L")


# --- illegal sequences -------------------------------------------------------------------


def test_cct_8d_fourth_game_after_a_decided_match_is_rejected() -> None:
    _, games = play([W, B, W])
    fourth = PlayedGame(Phase.RAPID, "L", "H", D, match_no=1)
    with pytest.raises(IllegalSequence, match=r"match 1 was already won 3–0 after 3 games"):
        series_status("H", "L", ALL_CHOSEN, [*games, fourth])


def test_cct_8d_armageddon_before_the_blitz_games_is_rejected() -> None:
    _, games = play([D] * 8)
    armageddon = PlayedGame(Phase.ARMAGEDDON, "L", "H", D)
    with pytest.raises(IllegalSequence, match="Armageddon cannot come before both blitz"):
        series_status("H", "L", ALL_CHOSEN, [*games, armageddon])


def test_cct_8d_armageddon_after_one_blitz_game_is_rejected() -> None:
    _, games = play([D] * 8 + [D])
    armageddon = PlayedGame(Phase.ARMAGEDDON, "L", "H", D)
    with pytest.raises(IllegalSequence, match="next game is blitz game 2"):
        series_status("H", "L", ALL_CHOSEN, [*games, armageddon])


def test_cct_8d_results_after_the_series_is_decided_are_rejected() -> None:
    _, games = play([W, B, W, B, W])
    extra = PlayedGame(Phase.BLITZ, "L", "H", D)
    with pytest.raises(IllegalSequence, match=r"already decided \('H' won\)"):
        series_status("H", "L", ALL_CHOSEN, [*games, extra])


def test_cct_8d_a_third_blitz_game_is_rejected() -> None:
    _, games = play([D] * 8 + [B, W])
    extra = PlayedGame(Phase.BLITZ, "L", "H", D)
    with pytest.raises(IllegalSequence, match="already decided"):
        series_status("H", "L", ALL_CHOSEN, [*games, extra])


def test_cct_8d_playoff_game_before_the_matches_end_is_rejected() -> None:
    _, games = play([D, D])
    blitz = PlayedGame(Phase.BLITZ, "L", "H", D)
    with pytest.raises(IllegalSequence, match="no play-off game before the rapid matches"):
        series_status("H", "L", ALL_CHOSEN, [*games, blitz])


def test_cct_8e_wrong_colours_are_rejected() -> None:
    wrong = PlayedGame(Phase.RAPID, "L", "H", W, match_no=1)
    with pytest.raises(IllegalSequence, match="CCT-8e gives White to 'H'"):
        series_status("H", "L", ALL_CHOSEN, [wrong])


def test_cct_8e_playoff_game_without_the_colour_choice_is_rejected() -> None:
    _, games = play([D] * 8)
    blitz = PlayedGame(Phase.BLITZ, "H", "L", D)
    with pytest.raises(IllegalSequence, match="first blitz game has not been chosen"):
        series_status("H", "L", SeriesChoices(chess.WHITE), [*games, blitz])


def test_cct_8d_double_forfeit_is_rejected_in_a_knockout() -> None:
    with pytest.raises(IllegalSequence, match="double forfeit"):
        play([Result.DOUBLE_FORFEIT])


def test_cct_8d_forfeit_wins_count_as_wins() -> None:
    status, _ = play([Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, W])
    assert status.matches[0].outcome is MatchOutcome.FIRST_WON


def test_cct_8d_match_outcome_thresholds() -> None:
    assert match_outcome(F(5, 2), F(1, 2), 3) is MatchOutcome.FIRST_WON
    assert match_outcome(F(2), F(1), 3) is MatchOutcome.IN_PROGRESS
    assert match_outcome(F(2), F(2), 4) is MatchOutcome.DRAWN
    assert match_outcome(F(3, 2), F(5, 2), 4) is MatchOutcome.SECOND_WON


# --- properties ----------------------------------------------------------------------------

results = st.sampled_from([W, D, B, Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN])


@given(st.lists(results, min_size=40, max_size=40))
def test_cct_8d_any_legal_sequence_ends_with_exactly_one_winner(stream: list[Result]) -> None:
    """Playing whatever results come, a series ends within 11 games with one winner."""
    games: list[PlayedGame] = []
    for result in stream:
        status = series_status("H", "L", ALL_CHOSEN, games)
        if status.decided:
            break
        assert status.next_game is not None
        games.append(status.next_game.played(result))
    status = series_status("H", "L", ALL_CHOSEN, games)
    assert status.decided
    assert {status.winner, status.loser} == {"H", "L"}
    assert len(games) <= 11
    for match in status.matches:
        shortest = 2 if match.outcome is MatchOutcome.STOPPED else 3
        assert shortest <= match.games <= 4
        assert match.first + match.second == match.games
    rapid = [g for g in games if g.phase is Phase.RAPID]
    assert all(sum(1 for g in rapid if g.match_no == n) <= 4 for n in (1, 2))


@given(st.lists(results, min_size=40, max_size=40), st.integers(min_value=0, max_value=3))
def test_cct_8d_any_game_after_the_decision_is_rejected(stream: list[Result], kind: int) -> None:
    games: list[PlayedGame] = []
    for result in stream:
        status = series_status("H", "L", ALL_CHOSEN, games)
        if status.next_game is None:
            break
        games.append(status.next_game.played(result))
    phase = [Phase.RAPID, Phase.RAPID, Phase.BLITZ, Phase.ARMAGEDDON][kind]
    extra = PlayedGame(phase, "H", "L", D, match_no=(kind + 1) if phase is Phase.RAPID else None)
    with pytest.raises(IllegalSequence):
        series_status("H", "L", ALL_CHOSEN, [*games, extra])


# --- bracket -------------------------------------------------------------------------------

PLACES = ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8")


def test_cct_8c_quarter_finals_pair_1_8_2_7_3_6_4_5() -> None:
    known = Bracket(PLACES).pairings({})
    assert known == {
        Tie.QF1: KoPairing(Tie.QF1, "p1", "p8"),
        Tie.QF2: KoPairing(Tie.QF2, "p2", "p7"),
        Tie.QF3: KoPairing(Tie.QF3, "p3", "p6"),
        Tie.QF4: KoPairing(Tie.QF4, "p4", "p5"),
    }


def test_cct_8c_semi_finals_final_and_third_place_wiring() -> None:
    bracket = Bracket(PLACES)
    winners = {Tie.QF1: "p8", Tie.QF2: "p2", Tie.QF3: "p6", Tie.QF4: "p5"}
    known = bracket.pairings(winners)
    # SF1 = QF1 v QF4 winners, higher-ranked is the better preliminary place.
    assert known[Tie.SF1] == KoPairing(Tie.SF1, "p5", "p8")
    assert known[Tie.SF2] == KoPairing(Tie.SF2, "p2", "p6")
    assert Tie.FINAL not in known
    winners |= {Tie.SF1: "p8", Tie.SF2: "p6"}
    known = bracket.pairings(winners)
    assert known[Tie.FINAL] == KoPairing(Tie.FINAL, "p6", "p8")
    assert known[Tie.THIRD_PLACE] == KoPairing(Tie.THIRD_PLACE, "p2", "p5")


def test_cct_8c_stages_after_the_final() -> None:
    winners = {
        Tie.QF1: "p1",
        Tie.QF2: "p2",
        Tie.QF3: "p3",
        Tie.QF4: "p4",
        Tie.SF1: "p4",
        Tie.SF2: "p2",
        Tie.FINAL: "p2",
        Tie.THIRD_PLACE: "p1",
    }
    stages = Bracket(PLACES).stages(winners)
    assert stages == {
        "p1": KoStage.THIRD,
        "p2": KoStage.WINNER,
        "p3": KoStage.FOURTH,
        "p4": KoStage.RUNNER_UP,
        "p5": KoStage.QUARTER_FINAL,
        "p6": KoStage.QUARTER_FINAL,
        "p7": KoStage.QUARTER_FINAL,
        "p8": KoStage.QUARTER_FINAL,
    }


def test_cct_8c_without_a_3rd_place_match_both_semi_final_losers_stay_semi_final() -> None:
    """CCT-6/CCT-8c: no 3rd-place match decided → p1 and p3 are both semi-final losers."""
    winners = {Tie.QF1: "p1", Tie.QF2: "p2", Tie.QF3: "p3", Tie.QF4: "p4"}
    winners |= {Tie.SF1: "p4", Tie.SF2: "p2", Tie.FINAL: "p4"}
    stages = Bracket(PLACES).stages(winners)
    assert (stages["p1"], stages["p3"]) == (KoStage.SEMI_FINAL, KoStage.SEMI_FINAL)
    assert (stages["p4"], stages["p2"]) == (KoStage.WINNER, KoStage.RUNNER_UP)


def test_cct_8c_winner_who_did_not_play_the_tie_is_rejected() -> None:
    with pytest.raises(KnockoutError, match="'p2' did not play in QF1"):
        Bracket(PLACES).pairings({Tie.QF1: "p2"})


def test_cct_8c_winner_of_an_unpaired_tie_is_rejected() -> None:
    with pytest.raises(KnockoutError, match="SF1 has a winner before its players are known"):
        Bracket(PLACES).pairings({Tie.SF1: "p1"})


def test_cct_8c_bracket_needs_eight_different_players() -> None:
    with pytest.raises(KnockoutError, match="8 different players"):
        Bracket(("a",) * 8)


@pytest.mark.parametrize("match_1", [[W, B, W], [B, W, B]], ids=["H won", "L won"])
def test_cct_8d_a_file_reads_match_2_as_the_games_ended_it(match_1: list[Result]) -> None:
    """CCT-8d: every way match 2 can end after a match-1 win, played game by game, and its
    final score read from a tour file give the same outcome (the two readings agree)."""
    endings = 0
    for results in itertools.product((W, D, B), repeat=4):
        status, games = play(match_1)
        for result in results:
            if status.next_game is None or status.next_game.match_no != 2:
                break
            games.append(status.next_game.played(result))
            status = series_status("H", "L", ALL_CHOSEN, games)
        day_2 = status.matches[1]
        if day_2.outcome is MatchOutcome.IN_PROGRESS:
            continue
        endings += 1
        day_1 = status.matches[0]
        read = series_matches([(day_1.first, day_1.second), (day_2.first, day_2.second)])
        assert read == [day_1.outcome, day_2.outcome], (results, day_2)
    assert endings == 81

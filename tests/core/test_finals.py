"""CCT-8f: Finals pairings, match scoring 3/0 and 2/1, bonus points and standings."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.results import Result
from core.tour.finals import (
    DrawCancelRefused,
    FinalsError,
    FinalsPlay,
    bonus_points,
    check_draw_cancellable,
    feeds_drawn_finals,
    finals_match_status,
    finals_rounds,
    finals_standings,
    match_points,
)
from core.tour.knockout import ColourChoice, ContestStatus, IllegalSequence, PlayedGame
from core.tour.ranking import EventType
from core.tour.timecontrols import Phase

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def play_match(
    white: str,
    black: str,
    results: list[Result],
    blitz_1_white: str | None = None,
    armageddon_white: str | None = None,
) -> ContestStatus:
    games: list[PlayedGame] = []
    for result in results:
        status = finals_match_status(white, black, games, blitz_1_white, armageddon_white)
        assert status.next_game is not None
        games.append(status.next_game.played(result))
    return finals_match_status(white, black, games, blitz_1_white, armageddon_white)


def test_cct_8f_bonus_half_point_per_full_ten_above_lowest() -> None:
    bonus = bonus_points({"low": 30, "a": 42, "b": 49, "c": 50, "d": 30, "e": 95})
    assert bonus == {"low": F(0), "a": F(1, 2), "b": F(1, 2), "c": F(1), "d": F(0), "e": F(3)}


def test_cct_8f_bonus_examples_12_and_19_give_half_20_gives_one() -> None:
    bonus = bonus_points({"x": 0, "y": 12, "z": 19, "w": 20})
    assert (bonus["y"], bonus["z"], bonus["w"]) == (F(1, 2), F(1, 2), F(1))


def test_cct_8f_rapid_win_scores_three_nil() -> None:
    status = play_match("A", "Z", [W, B, W])  # A wins 3-0 in the rapid games.
    assert status.winner == "A" and status.decided_by is Phase.RAPID
    assert match_points(status) == {"A": 3, "Z": 0}
    assert len(status.matches) == 1


def test_cct_8f_tiebreak_win_scores_two_one() -> None:
    status = play_match("A", "Z", [D, D, D, D, W, W], blitz_1_white="Z")
    # Blitz 1: Z White wins; blitz 2: A White wins → 1-1; Armageddon colour not chosen yet.
    assert status.choice_required is ColourChoice.ARMAGEDDON
    status = play_match("A", "Z", [D, D, D, D, W, W, D], "Z", armageddon_white="A")
    assert status.winner == "Z" and status.decided_by is Phase.ARMAGEDDON
    assert match_points(status) == {"Z": 2, "A": 1}


def test_cct_8f_blitz_win_scores_two_one() -> None:
    status = play_match("A", "Z", [D, D, D, D, B, W], blitz_1_white="A")
    assert status.winner == "Z" and status.decided_by is Phase.BLITZ
    assert match_points(status) == {"Z": 2, "A": 1}


def test_cct_8f_rapid_colours_alternate_from_the_berger_white() -> None:
    games: list[PlayedGame] = []
    for _ in range(4):
        status = finals_match_status("A", "Z", games)
        assert status.next_game is not None
        games.append(status.next_game.played(D))
    assert [g.white for g in games] == ["A", "Z", "A", "Z"]
    status = finals_match_status("A", "Z", games)
    assert status.choice_required is ColourChoice.BLITZ_1


def test_cct_8f_only_one_rapid_match_before_the_playoff() -> None:
    colours = [("A", "Z"), ("Z", "A"), ("A", "Z"), ("Z", "A")]
    games = [PlayedGame(Phase.RAPID, w, b, D, match_no=1) for w, b in colours]
    status = finals_match_status("A", "Z", games, blitz_1_white="A")
    assert status.next_game is not None and status.next_game.phase is Phase.BLITZ
    second_match = PlayedGame(Phase.RAPID, "Z", "A", D, match_no=2)
    with pytest.raises(IllegalSequence, match="next game is blitz game 1 of the play-off"):
        finals_match_status("A", "Z", [*games, second_match], blitz_1_white="A")


def test_cct_8f_rounds_follow_the_berger_table() -> None:
    players = [f"f{i}" for i in range(1, 11)]
    rounds = finals_rounds(players)
    assert len(rounds) == 9 and all(len(r) == 5 for r in rounds)
    # Berger round 1 for 10: 1-10, 2-9, 3-8, 4-7, 5-6.
    assert [(p.white, p.black) for p in rounds[0]] == [
        ("f1", "f10"),
        ("f2", "f9"),
        ("f3", "f8"),
        ("f4", "f7"),
        ("f5", "f6"),
    ]
    met = {frozenset((p.white, p.black)) for r in rounds for p in r}
    assert len(met) == 45


def test_cct_8f_rounds_need_ten_players() -> None:
    with pytest.raises(FinalsError, match="need 10 different players"):
        finals_rounds(["a", "b"])


def test_cct_8f_standings_add_bonus_and_flag_a_tie_for_first() -> None:
    bonus = bonus_points({"A": 100, "B": 120, "C": 90})  # A ½, B 1½, C 0
    matches = [
        play_match("A", "B", [W, B, W]),  # A 3, B 0
        play_match("C", "B", [D, D, D, D, W, W, D], "C", "C"),  # Armageddon: B Black → B 2, C 1
        play_match("A", "C", [D, D]),  # undecided: counts nothing yet
    ]
    standings = finals_standings(bonus, matches)
    assert [(r.rank, r.player, r.match_points, r.total) for r in standings.rows] == [
        (1, "A", 3, F(7, 2)),
        (1, "B", 2, F(7, 2)),
        (3, "C", 1, F(1)),
    ]
    assert standings.tied_for_first == ("A", "B")
    assert standings.leader is None  # the organiser decides the tie for first


def test_cct_8f_the_leader_is_the_one_player_first_on_match_points_plus_bonus() -> None:
    """CCT-8f: the winner has the most match points plus bonus, whatever the pairing order."""
    bonus = bonus_points({"A": 100, "B": 120, "C": 90})  # A ½, B 1½, C 0
    standings = finals_standings(bonus, [play_match("B", "A", [W, B, W])])  # B 3, A 0
    assert (standings.leader, standings.tied_for_first) == ("B", ())


def test_cct_8f_match_points_need_a_decided_match() -> None:
    with pytest.raises(FinalsError, match="decided"):
        match_points(play_match("A", "Z", [D]))


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(0, 400), min_size=1))
def test_cct_8f_bonus_is_half_per_full_ten_and_never_decreases(points: dict[str, int]) -> None:
    bonus = bonus_points(points)
    lowest = min(points.values())
    for player, pts in points.items():
        assert bonus[player] * 2 == (pts - lowest) // 10
        assert bonus[player].denominator in (1, 2)
    ordered = sorted(points, key=points.__getitem__)
    assert [bonus[p] for p in ordered] == sorted(bonus.values())


@given(st.lists(st.sampled_from([W, D, B]), min_size=7, max_size=7))
def test_cct_8f_every_decided_match_hands_out_three_points(stream: list[Result]) -> None:
    games: list[PlayedGame] = []
    for result in stream:
        status = finals_match_status("A", "Z", games, "Z", "A")
        if status.decided:
            break
        assert status.next_game is not None
        games.append(status.next_game.played(result))
    status = finals_match_status("A", "Z", games, "Z", "A")
    assert status.decided
    points = match_points(status)
    assert sum(points.values()) == 3
    assert sorted(points.values()) in ([0, 3], [1, 2])
    assert (sorted(points.values()) == [0, 3]) == (status.decided_by is Phase.RAPID)


def test_cct_8f_cct_6_an_earlier_events_results_feed_the_bonus_of_drawn_finals() -> None:
    """CCT-8f, CCT-6: once the Finals are drawn, an event before them feeds their bonus
    (its results no longer change); the Finals themselves, and Finals not drawn, do not."""
    assert feeds_drawn_finals(EventType.REGULAR, 1, 3, True)
    assert feeds_drawn_finals(EventType.MAJOR, 2, 3, True)
    assert not feeds_drawn_finals(EventType.REGULAR, 1, 3, False)
    assert not feeds_drawn_finals(EventType.FINALS, 3, 3, True)


def test_cct_8f_cct_16_the_finals_draw_is_cancelled_only_while_nothing_is_played() -> None:
    """CCT-8f read with CCT-16: drawn Finals with nothing played may have their draw
    cancelled; a reported game, a match decided without play or a recorded ruling keeps it,
    and the refusal names each."""
    check_draw_cancellable(FinalsPlay())
    for play, said in (
        (FinalsPlay(reported_games=1), "1 game(s) with a report or a result"),
        (FinalsPlay(decided_matches=2), "2 match(es) decided without play"),
        (FinalsPlay(rulings=1), "1 disconnection(s) or appeal(s) recorded"),
    ):
        with pytest.raises(DrawCancelRefused, match=r"never thrown away \(CCT-8f\)") as error:
            check_draw_cancellable(play)
        assert said in str(error.value)
    with pytest.raises(DrawCancelRefused) as error:
        check_draw_cancellable(FinalsPlay(reported_games=3, decided_matches=1))
    assert "3 game(s) with a report or a result and 1 match(es)" in str(error.value)

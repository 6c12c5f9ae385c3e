"""CCT-8b/8c: a rank still shared after every CCT-8b criterion among places 1-8 needs a
play-off before the knock-out; a tie below them, or one a drawing of lots decided, does not."""

from __future__ import annotations

from core.results import Result
from core.standings import standings
from core.tiebreaks import Game
from core.tour.preliminary import ties_for_places_going_on
from tests.support.tour_events import REGULAR_PLAYERS, TWINS, regular_preliminary


def test_cct_8c_the_twins_tied_for_place_8_need_a_play_off() -> None:
    rows = regular_preliminary().rows
    twins = tuple(REGULAR_PLAYERS[i] for i in TWINS)
    assert [row.rank for row in rows if row.player in twins] == [8, 8]
    assert ties_for_places_going_on(rows) == (twins,)
    assert ties_for_places_going_on(rows, places=7) == ()


def test_cct_8b_a_tie_below_the_places_that_go_on_or_decided_by_lot_stands() -> None:
    players = tuple("ABCD")
    games = [
        Game(white, black, Result.DRAW)
        for i, white in enumerate(players)
        for black in players[i + 1 :]
    ]
    rows = standings(players, games)
    assert [row.rank for row in rows] == [1, 1, 1, 1]
    assert ties_for_places_going_on(rows) == (players,)
    assert ties_for_places_going_on(rows, places=0) == ()
    drawn = standings(players, games, lots_seed="cct-8b")
    assert not any(row.tied for row in drawn) and all(row.by_lot for row in drawn)
    assert ties_for_places_going_on(drawn) == ()

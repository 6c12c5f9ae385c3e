"""Property-based tests (hypothesis) of CORE-3 / CCT-8b standings over random complete round
robins: order independence (CORE-5), conservation of points, tie-break bounds, DE."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from core.results import Outcome, Result
from core.standings import standings
from core.tiebreaks import CCT_8B, Criterion, DeReading, player_values
from tests.support.properties import examples
from tests.support.round_robins import WITH_FORFEITS, RoundRobin, round_robins

_CRITERIA = st.sampled_from([CCT_8B, (Criterion.PTS, Criterion.DE), tuple(Criterion)])


@settings(max_examples=examples(400), deadline=None)
@given(round_robins(WITH_FORFEITS), st.randoms(use_true_random=False), _CRITERIA)
def test_core_5_ranking_does_not_depend_on_the_order_games_were_entered(
    event: RoundRobin, shuffler, criteria
) -> None:
    games = list(event.games)
    shuffler.shuffle(games)
    for reading in DeReading:
        before = standings(event.players, event.games, criteria=criteria, reading=reading)
        after = standings(event.players, games, criteria=criteria, reading=reading)
        assert before == after


@settings(max_examples=examples(400), deadline=None)
@given(round_robins(tuple(r for r in Result if r is not Result.DOUBLE_FORFEIT)))
def test_core_2_total_points_equal_the_number_of_games(event: RoundRobin) -> None:
    rows = standings(event.players, event.games)
    assert sum(row.points for row in rows) == len(event.games)
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)


@settings(max_examples=examples(400), deadline=None)
@given(round_robins(WITH_FORFEITS))
def test_core_3_sb_and_ks_stay_within_their_bounds(event: RoundRobin) -> None:
    values = player_values(event.players, event.games)
    opponents: dict[int, list[int]] = defaultdict(list)
    for game in event.games:
        opponents[game.white].append(game.black)
        opponents[game.black].append(game.white)
    best = max(values.points.values())
    half = Fraction(len(opponents[1]), 2)
    for player in event.players:
        sb, ks, points = values.sb[player], values.ks[player], values.points[player]
        # SB: nothing below 0, nothing above beating every opponent, nor above points × best.
        assert 0 <= values.sb_c1[player] <= sb <= sum(values.points[o] for o in opponents[player])
        assert sb <= points * best
        # KS: points scored, only against opponents on at least half the maximum.
        strong = [o for o in opponents[player] if values.points[o] >= half]
        assert 0 <= ks <= min(points, len(strong))


@settings(max_examples=examples(600), deadline=None)
@given(round_robins(WITH_FORFEITS, max_players=8), _CRITERIA)
def test_core_3_player_who_beat_everyone_tied_with_them_ranks_first_among_them(
    event: RoundRobin, criteria
) -> None:
    beaten: dict[int, set[int]] = defaultdict(set)
    not_beaten: dict[int, set[int]] = defaultdict(set)
    for game in event.games:
        for player, other, white in (
            (game.white, game.black, True),
            (game.black, game.white, False),
        ):
            won = game.result.outcome(white=white) is Outcome.WIN
            (beaten if won else not_beaten)[player].add(other)
    for reading in DeReading:
        rows = standings(event.players, event.games, criteria=criteria, reading=reading)
        rank = {row.player: row.rank for row in rows}
        groups: dict[object, list[int]] = defaultdict(list)
        for row in rows:
            groups[row.points].append(row.player)
        for group in groups.values():
            for player in group:
                others = set(group) - {player}
                if others and others <= beaten[player] - not_beaten[player]:
                    assert all(rank[player] < rank[other] for other in others)

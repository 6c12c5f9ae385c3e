"""CCT-2, CCT-3, CCT-6: tour points, tour ranking with its tie criteria, qualification."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.tour.knockout import KoStage
from core.tour.qualification import (
    Reason,
    major_winners,
    qualify_for_event,
    qualify_for_finals,
    regular_winners_since_last_major,
)
from core.tour.ranking import (
    DEFAULT_POINTS_TABLES,
    EVENT_SIZES,
    MAJOR_POINTS,
    REGULAR_POINTS,
    EventFinish,
    EventType,
    PointsTable,
    TourError,
    TourEvent,
    TourRecord,
    rank_records,
    tie_at_cut,
    tour_ranking,
    tour_records,
)

QF, SF, RU, WIN = KoStage.QUARTER_FINAL, KoStage.SEMI_FINAL, KoStage.RUNNER_UP, KoStage.WINNER


def event(
    name: str, order: list[str], podium: tuple[str, ...] = (), kind: EventType = EventType.REGULAR
) -> TourEvent:
    """An event whose preliminary order is `order`; `podium` lists the winner, runner-up and
    semi-final losers; the rest of the top 8 lost in the quarter-finals."""
    stages = dict(zip(podium, (WIN, RU, SF, SF), strict=False))
    finishes = tuple(
        EventFinish(p, i + 1, stages.get(p, QF if i < 8 else KoStage.NONE))
        for i, p in enumerate(order)
    )
    return TourEvent(name, kind, finishes)


PLAYERS = [f"p{i}" for i in range(1, 17)]


def test_cct_2_event_sizes() -> None:
    assert EVENT_SIZES == {EventType.REGULAR: 16, EventType.MAJOR: 12, EventType.FINALS: 10}


def test_cct_6_default_tables_regular_and_major_doubled_with_and_without_3rd_place_match() -> None:
    """CCT-6 (as changed): Regular knock-out 40/25/15/10/0 (winner, runner-up, 3rd, 4th,
    quarter-final loser), preliminary 10/8/6/5/4/3/2/1; Major every value doubled; without a
    3rd-place match both semi-final losers get 10 (Major 20). No table is an assumption."""
    ko = (WIN, RU, KoStage.THIRD, KoStage.FOURTH, QF)
    assert REGULAR_POINTS.preliminary == (10, 8, 6, 5, 4, 3, 2, 1)
    assert [REGULAR_POINTS.stage_points(s) for s in ko] == [40, 25, 15, 10, 0]
    assert REGULAR_POINTS.stage_points(SF) == 10
    assert MAJOR_POINTS.preliminary == (20, 16, 12, 10, 8, 6, 4, 2)
    assert [MAJOR_POINTS.stage_points(s) for s in ko] == [80, 50, 30, 20, 0]
    assert MAJOR_POINTS.stage_points(SF) == 20
    assert "ASSUMPTION" not in MAJOR_POINTS.label and not hasattr(MAJOR_POINTS, "assumed")
    assert DEFAULT_POINTS_TABLES == {
        EventType.REGULAR: REGULAR_POINTS,
        EventType.MAJOR: MAJOR_POINTS,
    }
    # Preliminary place plus knock-out stage.
    assert REGULAR_POINTS.points(1, WIN) == 50
    assert REGULAR_POINTS.points(8, QF) == 1
    assert REGULAR_POINTS.points(3, KoStage.THIRD) == 21
    assert REGULAR_POINTS.points(4, KoStage.FOURTH) == 15
    assert REGULAR_POINTS.points(3, SF) == 16
    assert REGULAR_POINTS.points(5, RU) == 29
    assert REGULAR_POINTS.points(9, KoStage.NONE) == 0
    assert MAJOR_POINTS.points(2, KoStage.THIRD) == 46


def test_cct_6_table_without_3rd_and_4th_values_pays_both_semi_final_losers_alike() -> None:
    """CCT-6: the first 2020-21 event's own table (runner-up 20, semi-final losers 10)."""
    table = PointsTable("Skilling Open 2020", (10, 8, 6, 5, 4, 3, 2, 1), {WIN: 40, RU: 20, SF: 10})
    assert table.stage_points(KoStage.THIRD) == table.stage_points(KoStage.FOURTH) == 10


def test_cct_6_points_and_appearances_add_up_over_events() -> None:
    one = event("Regular 1", PLAYERS, ("p1", "p2", "p3", "p4"))
    two = event("Major 1", PLAYERS[:12], ("p2", "p1", "p5", "p6"), EventType.MAJOR)
    records = tour_records([one, two])
    assert records["p1"] == TourRecord("p1", 10 + 40 + 20 + 50, 1, 2, 2, 2, 2)
    assert records["p2"] == TourRecord("p2", 8 + 25 + 16 + 80, 1, 2, 2, 2, 2)
    assert records["p5"] == TourRecord("p5", 4 + 8 + 20, 0, 2, 0, 1, 2)
    assert records["p16"] == TourRecord("p16", 0, 0, 1, 0, 0, 0)


def test_cct_6_event_without_points_table_is_rejected() -> None:
    finals = TourEvent("Finals", EventType.FINALS, (EventFinish("a", 1),))
    with pytest.raises(TourError, match="no tour points table for finals"):
        tour_records([finals])


def test_cct_6_event_with_impossible_stages_is_rejected() -> None:
    with pytest.raises(TourError, match="cannot reach the knock-out"):
        event("Bad", PLAYERS, ("p9",))


def _ranked(*records: TourRecord) -> list[str]:
    return [str(r.player) for r in rank_records(records)]


def test_cct_6_tie_broken_by_tournament_wins() -> None:
    assert _ranked(TourRecord("a", 50, 0, 1), TourRecord("b", 50, 1, 3)) == ["b", "a"]


def test_cct_6_tie_broken_by_fewer_events_played() -> None:
    assert _ranked(TourRecord("a", 50, 1, 3), TourRecord("b", 50, 1, 2)) == ["b", "a"]


def test_cct_6_tie_broken_by_final_appearances() -> None:
    a = TourRecord("a", 50, 1, 2, finals=1, semi_finals=3, quarter_finals=3)
    b = TourRecord("b", 50, 1, 2, finals=2, semi_finals=2, quarter_finals=2)
    assert _ranked(a, b) == ["b", "a"]


def test_cct_6_tie_broken_by_semi_final_appearances() -> None:
    a = TourRecord("a", 50, 1, 2, finals=1, semi_finals=1, quarter_finals=3)
    b = TourRecord("b", 50, 1, 2, finals=1, semi_finals=2, quarter_finals=2)
    assert _ranked(a, b) == ["b", "a"]


def test_cct_6_tie_broken_by_quarter_final_appearances() -> None:
    a = TourRecord("a", 50, 1, 2, finals=1, semi_finals=1, quarter_finals=1)
    b = TourRecord("b", 50, 1, 2, finals=1, semi_finals=1, quarter_finals=2)
    assert _ranked(a, b) == ["b", "a"]


def test_cct_6_remaining_tie_shares_the_rank() -> None:
    ranking = rank_records(
        [TourRecord("c", 10, 0, 1), TourRecord("b", 30, 0, 1), TourRecord("a", 30, 0, 1)]
    )
    assert [(r.rank, r.player, r.tied) for r in ranking] == [
        (1, "a", True),
        (1, "b", True),
        (3, "c", False),
    ]
    assert tie_at_cut(ranking, 1) == ("a", "b")
    assert tie_at_cut(ranking, 2) == ()


def test_cct_6_ranking_from_events() -> None:
    one = event("Regular 1", PLAYERS, ("p1", "p2", "p3", "p4"))
    ranking = tour_ranking([one])
    assert [r.player for r in ranking[:4]] == ["p1", "p2", "p3", "p4"]
    # Places 9-16 score 0 and tie on every criterion.
    assert {r.rank for r in ranking[8:]} == {9}


# --- CCT-3 qualification ---------------------------------------------------------------------


def standings(points: list[int]) -> tuple:
    """A ranking of players p1.. with the given points, one event each."""
    return rank_records(TourRecord(f"p{i + 1}", pts, 0, 1) for i, pts in enumerate(points))


DESCENDING = [100 - 5 * i for i in range(14)]  # p1 100, p2 95, …, all distinct


def test_cct_3_regular_qualifies_the_top_8_and_leaves_8_places() -> None:
    result = qualify_for_event(EventType.REGULAR, standings(DESCENDING))
    assert [q.player for q in result.qualified] == [f"p{i}" for i in range(1, 9)]
    assert all(q.reasons[0].reason is Reason.TOUR_STANDINGS for q in result.qualified)
    assert result.qualified[0].reasons[0].detail == "tour rank 1"
    assert result.places_left == 8
    assert "Ambassadors" in result.organiser_places
    assert result.playoffs_required == ()


def test_cct_3_decliner_is_replaced_by_the_next_in_the_standings() -> None:
    result = qualify_for_event(EventType.REGULAR, standings(DESCENDING), declined={"p3"})
    players = [q.player for q in result.qualified]
    assert "p3" not in players and players[-1] == "p9"
    assert result.qualified[-1].reasons[0].reason is Reason.REPLACEMENT
    assert result.places_left == 8


def test_cct_3_major_adds_regular_winners_overlapping_the_top_8() -> None:
    winners = [("Regular 1", "p2"), ("Regular 2", "p11")]
    result = qualify_for_event(EventType.MAJOR, standings(DESCENDING), winners)
    by_player = {q.player: q for q in result.qualified}
    assert len(by_player) == 9
    assert [r.reason for r in by_player["p2"].reasons] == [
        Reason.REGULAR_WINNER,
        Reason.TOUR_STANDINGS,
    ]
    assert by_player["p11"].reasons[0].detail == "won Regular 2"
    assert result.places_left == 3 and result.organiser_places == "wildcards"


def test_cct_3_declining_winner_is_replaced_from_the_standings() -> None:
    winners = [("Regular 1", "p11")]
    result = qualify_for_event(EventType.MAJOR, standings(DESCENDING), winners, declined={"p11"})
    players = [q.player for q in result.qualified]
    assert "p11" not in players
    assert players[-1] == "p9"
    assert result.places_left == 12 - 9


def test_cct_3_declining_winner_inside_the_top_8_is_replaced_once() -> None:
    """CCT-3: p2 holds one place (as winner and as top 8); declining frees one place, so
    one player comes in, not two."""
    winners = [("Regular 1", "p2")]
    result = qualify_for_event(EventType.MAJOR, standings(DESCENDING), winners, declined={"p2"})
    assert [q.player for q in result.qualified] == ["p1", *(f"p{i}" for i in range(3, 10))]
    assert result.places_left == 12 - 8


def test_cct_3_declining_top_8_player_with_a_winner_just_below_is_replaced() -> None:
    """p9 won a Regular: qualified as winner, and also next in line for p2's place — so the
    place p2 frees goes to p10."""
    winners = [("Regular 1", "p9")]
    result = qualify_for_event(EventType.MAJOR, standings(DESCENDING), winners, declined={"p2"})
    players = {q.player for q in result.qualified}
    assert players == {"p1", *(f"p{i}" for i in range(3, 11))}
    assert result.places_left == 12 - 9


def test_cct_3_declining_double_winner_is_replaced_once() -> None:
    winners = [("Regular 1", "p11"), ("Regular 2", "p11")]
    result = qualify_for_event(EventType.MAJOR, standings(DESCENDING), winners, declined={"p11"})
    assert [q.player for q in result.qualified] == [f"p{i}" for i in range(1, 10)]
    assert result.places_left == 12 - 9


def test_cct_3_tie_across_the_cut_requires_a_playoff() -> None:
    points = [100, 90, 80, 70, 60, 50, 40, 30, 30, 10]
    result = qualify_for_event(EventType.REGULAR, standings(points))
    assert result.playoffs_required == (("p8", "p9"),)
    assert len(result.qualified) == 8


def test_cct_6_tie_at_the_cut_with_a_winner_still_requires_a_playoff() -> None:
    """CCT-6: p8 and p9 share 8th place and p9 won a Regular. Both are in as listed, but if
    p9 were ranked ahead, p9 would take the standings place and p8 would be out: the tie
    affects qualification, so it is flagged."""
    points = [100, 90, 80, 70, 60, 50, 40, 30, 30, 10]
    result = qualify_for_event(EventType.MAJOR, standings(points), [("Regular 1", "p9")])
    assert {q.player for q in result.qualified} == {f"p{i}" for i in range(1, 10)}
    assert result.playoffs_required == (("p8", "p9"),)


def test_cct_6_tie_filled_by_a_replacement_either_way_needs_no_playoff() -> None:
    """p8 and p9 share 8th place and p3 declined: both are in whatever their order."""
    points = [100, 90, 80, 70, 60, 50, 40, 30, 30, 10]
    result = qualify_for_event(EventType.REGULAR, standings(points), declined={"p3"})
    assert {"p8", "p9"} <= {q.player for q in result.qualified}
    assert result.playoffs_required == ()


def test_cct_6_tie_among_finals_merit_places_ignores_an_already_qualified_winner() -> None:
    """p7, p8, p9 share 7th place; p7 won a Major (in either way), so only p8 and p9 play
    off for the last standings place."""
    points = [100, 90, 80, 70, 60, 50, 30, 30, 30, 10, 5]
    result = qualify_for_finals(standings(points), [("Major 1", "p7")], ambassadors=())
    assert result.playoffs_required == (("p8", "p9"),)


def test_cct_3_finals_major_winners_then_standings_then_ambassadors() -> None:
    winners = [("Major 1", "p12"), ("Major 2", "p2"), ("Major 3", "p13")]
    ambassadors = {"p1", "p9", "p10", "p11"}
    result = qualify_for_finals(standings(DESCENDING), winners, ambassadors)
    reasons = {q.player: [r.reason for r in q.reasons] for q in result.qualified}
    assert list(reasons) == ["p12", "p2", "p13", "p1", "p3", "p4", "p5", "p6", "p9", "p10"]
    assert reasons["p12"] == [Reason.MAJOR_WINNER]
    assert reasons["p6"] == [Reason.TOUR_STANDINGS]
    # p1 is an Ambassador but already qualified; the next two Ambassadors get the places.
    assert reasons["p9"] == reasons["p10"] == [Reason.AMBASSADOR]
    assert result.places_left == 0


def test_cct_3_finals_double_major_winner_frees_a_standings_place() -> None:
    winners = [("Major 1", "p12"), ("Major 2", "p12"), ("Major 3", "p13")]
    result = qualify_for_finals(standings(DESCENDING), winners, ambassadors={"p14"})
    players = [q.player for q in result.qualified]
    assert players[:8] == ["p12", "p13", "p1", "p2", "p3", "p4", "p5", "p6"]
    assert [r.reason for r in result.qualified[0].reasons] == [Reason.MAJOR_WINNER] * 2
    assert players[8:] == ["p14"]
    assert result.places_left == 1


def test_cct_3_finals_declining_ambassador_replaced_by_the_next_ambassador() -> None:
    result = qualify_for_finals(
        standings(DESCENDING), [], ambassadors={"p9", "p10", "p12"}, declined={"p10"}
    )
    players = [q.player for q in result.qualified]
    assert players[8:] == ["p9", "p12"]


def test_cct_3_finals_at_most_three_major_winners() -> None:
    winners = [(f"Major {i}", f"p{i}") for i in range(1, 5)]
    with pytest.raises(TourError, match="at most 3 Major winners"):
        qualify_for_finals(standings(DESCENDING), winners, ambassadors=())


def test_cct_3_regular_events_take_no_winners() -> None:
    with pytest.raises(TourError, match="Regular events have no places"):
        qualify_for_event(EventType.REGULAR, standings(DESCENDING), [("R1", "p1")])


def test_cct_3_winners_are_read_from_the_events() -> None:
    r1 = event("Regular 1", PLAYERS, ("p1", "p2", "p3", "p4"))
    m1 = event("Major 1", PLAYERS[:12], ("p3", "p4", "p1", "p2"), EventType.MAJOR)
    r2 = event("Regular 2", PLAYERS, ("p5", "p6", "p7", "p8"))
    r3 = event("Regular 3", PLAYERS, ("p7", "p8", "p1", "p2"))
    events = [r1, m1, r2, r3]
    assert regular_winners_since_last_major(events) == [("Regular 2", "p5"), ("Regular 3", "p7")]
    assert major_winners(events) == [("Major 1", "p3")]
    assert regular_winners_since_last_major([r1]) == [("Regular 1", "p1")]


@given(
    st.lists(st.integers(min_value=0, max_value=6), min_size=12, max_size=20),
    st.sets(st.integers(min_value=1, max_value=20), max_size=6),
    st.sets(st.integers(min_value=1, max_value=20), max_size=6),
)
def test_cct_3_qualification_lists_are_consistent(
    points: list[int], declined_ids: set[int], ambassador_ids: set[int]
) -> None:
    """Coarse points make ties likely: nobody twice, no decliner, never over the size, and
    places left + qualified = size."""
    ranking = standings([10 * p for p in points])
    declined = {f"p{i}" for i in declined_ids}
    ambassadors = {f"p{i}" for i in ambassador_ids}
    winners = [("Major 1", "p1"), ("Major 2", "p2")]
    for result in (
        qualify_for_event(EventType.REGULAR, ranking, declined=declined),
        qualify_for_event(EventType.MAJOR, ranking, winners, declined=declined),
        qualify_for_finals(ranking, winners, ambassadors, declined=declined),
    ):
        players = [q.player for q in result.qualified]
        assert len(players) == len(set(players))
        assert not declined & set(players)
        assert len(players) + result.places_left == result.size
        for group in result.playoffs_required:
            assert len({ranking[[r.player for r in ranking].index(p)].rank for p in group}) == 1
            assert len(group) > 1 and not declined & set(group)


@given(st.permutations(range(4)))
def test_cct_6_ranking_does_not_depend_on_event_order(order: list[int]) -> None:
    events = [
        event("R1", PLAYERS, ("p1", "p2", "p3", "p4")),
        event("R2", PLAYERS[::-1], ("p16", "p15", "p14", "p13")),
        event("M1", PLAYERS[:12], ("p3", "p1", "p2", "p4"), EventType.MAJOR),
        event("R3", PLAYERS[4:] + PLAYERS[:4], ("p5", "p9", "p6", "p7")),
    ]
    shuffled = [events[i] for i in order]
    assert tour_ranking(shuffled) == tour_ranking(events)


@given(
    st.lists(st.integers(min_value=0, max_value=8), min_size=10, max_size=14),
    st.sets(st.integers(min_value=1, max_value=14), max_size=3),
    st.sets(st.integers(min_value=1, max_value=14), max_size=4),
)
def test_cct_6_playoff_flagged_exactly_when_the_tie_order_changes_who_qualifies(
    points: list[int], declined_ids: set[int], ambassador_ids: set[int]
) -> None:
    """CCT-6: brute force over every order of each tied group (up to 5 players): a group
    whose order changes the qualified players shares a flagged play-off group, and every
    flagged group has an order that changes them."""
    ranking = standings([10 * p for p in points])
    declined = {f"p{i}" for i in declined_ids}
    ambassadors = {f"p{i}" for i in ambassador_ids}
    winners = [("Regular 1", "p3"), ("Regular 2", "p9")]
    builds = (
        lambda order: qualify_for_event(EventType.MAJOR, order, winners, declined=declined),
        lambda order: qualify_for_finals(order, winners[:1], ambassadors, declined=declined),
    )
    for build in builds:
        result = build(ranking)
        base = {q.player for q in result.qualified}
        for rank in {r.rank for r in ranking}:
            slots = [i for i, r in enumerate(ranking) if r.rank == rank]
            if not 1 < len(slots) <= 5:
                continue
            changes = False
            for perm in itertools.permutations([ranking[i] for i in slots]):
                order = list(ranking)
                for i, entry in zip(slots, perm, strict=True):
                    order[i] = entry
                changes = changes or {q.player for q in build(order).qualified} != base
            group = {ranking[i].player for i in slots}
            flagged = any(set(g) & group for g in result.playoffs_required)
            assert changes == flagged, (rank, group, result.playoffs_required)

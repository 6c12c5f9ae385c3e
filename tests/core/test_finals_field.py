"""CCT-3 and its Interpretation: the Finals field as it forms — a decliner's place offered to
the next in the tour standings (an Ambassador place to the next Ambassador), places the
lists cannot fill left to the organiser's wildcards, and who may enter the Finals."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from core.tour.qualification import (
    FinalsField,
    FinalsFieldError,
    check_decline,
    check_entry,
    field_problem,
    finals_field,
)
from core.tour.ranking import TourRank, TourRecord, rank_records


def standings(count: int) -> list[TourRank]:
    """p1 … p<count>, p1 best, every total distinct."""
    return rank_records(TourRecord(f"p{i}", 200 - 5 * i, 0, 1) for i in range(1, count + 1))


RANKING = standings(16)
WINNERS = [("Major One", "p1")]
AMBASSADORS = ["p10", "p12", "p14"]


def field(declined: Sequence[str] = (), wildcards: Sequence[str] = ()) -> FinalsField:
    """The Finals field of RANKING: p1 won the Major; p10, p12, p14 are Ambassadors."""
    return finals_field(RANKING, WINNERS, AMBASSADORS, declined, wildcards)


def test_cct_3_the_finals_list_fills_ten_places_with_no_decline() -> None:
    full = field()
    assert [q.player for q in full.listed.qualified] == [f"p{i}" for i in range(1, 9)] + [
        "p10",
        "p12",
    ]
    assert full.open_places == 0 and full.declines == ()


def test_cct_3_a_declined_place_goes_to_the_next_in_the_standings() -> None:
    formed = field(["p4"])
    assert formed.declines[0].player == "p4" and formed.declines[0].replaced_by == ("p9",)
    assert not formed.offered("p4") and formed.offered("p9")
    assert formed.open_places == 0


def test_cct_3_a_declined_ambassador_place_goes_to_the_next_ambassador() -> None:
    formed = field(["p12"])
    assert formed.declines[0].replaced_by == ("p14",)


def test_cct_3_a_place_no_list_can_fill_is_open_for_a_wildcard() -> None:
    formed = field(["p12", "p14"])
    assert formed.declines[1].replaced_by == ()
    assert formed.open_places == 1
    check_entry(formed, "p16", wildcard=True)  # into the open place
    with_wildcard = field(["p12", "p14"], ["p16"])
    assert with_wildcard.wildcards == ("p16",) and with_wildcard.open_places == 0


def test_cct_3_a_player_neither_offered_a_place_nor_a_wildcard_is_refused() -> None:
    with pytest.raises(FinalsFieldError, match="10 of 10 places are taken by qualifiers"):
        check_entry(field(), "p11", wildcard=False)
    with pytest.raises(FinalsFieldError, match="no Finals place is open for a wildcard"):
        check_entry(field(), "p11", wildcard=True)
    with pytest.raises(FinalsFieldError, match="enter them as a wildcard"):
        check_entry(field(["p12", "p14"]), "p11", wildcard=False)
    full = field(["p12", "p14"], ["p16"])
    with pytest.raises(FinalsFieldError, match="by 9 qualifiers and 1 wildcard"):
        check_entry(full, "p11", wildcard=True)


def test_cct_3_a_decliner_enters_only_once_the_decline_is_withdrawn() -> None:
    with pytest.raises(FinalsFieldError, match="declined the Finals"):
        check_entry(field(["p4"]), "p4", wildcard=False)
    check_entry(field(), "p4", wildcard=False)


def test_cct_3_a_qualified_player_is_not_a_wildcard() -> None:
    with pytest.raises(FinalsFieldError, match="without a wildcard"):
        check_entry(field(), "p3", wildcard=True)


def test_cct_3_only_a_player_offered_a_place_declines_and_not_once_entered() -> None:
    with pytest.raises(FinalsFieldError, match="nothing to decline"):
        check_decline(field(), "p11")
    with pytest.raises(FinalsFieldError, match="declined the Finals already"):
        check_decline(field(["p4"]), "p4")
    with pytest.raises(FinalsFieldError, match="take them out"):
        check_decline(field(), "p4", entered=["p4"])


def test_cct_3_field_problem_names_an_entry_the_list_no_longer_gives() -> None:
    # p9 entered in p4's place; withdrawing p4's decline takes p9's place away.
    assert field_problem(field(["p4"]), ["p9"], []) is None
    assert "p9 is not qualified" in (field_problem(field(), ["p9"], []) or "")
    # a wildcard in a place that is no longer open
    problem = field_problem(field(["p12"], ["p16"]), ["p16"], ["p16"])
    assert problem is not None and "1 wildcard for 0 open places" in problem

"""The one shared-rank numbering (core.ranks) used by every standings table."""

from core.ranks import equal_runs, shared_ranks


def test_core_3_cl_17_tied_entries_share_a_rank_and_the_next_skips_past_them() -> None:
    groups = equal_runs(["a", "b", "c", "d", "e"], {"a": 3, "b": 2, "c": 2, "d": 1, "e": 1}.get)
    assert groups == [["a"], ["b", "c"], ["d", "e"]]
    assert [(rank, list(group)) for rank, group in shared_ranks(groups)] == [
        (1, ["a"]),
        (2, ["b", "c"]),
        (4, ["d", "e"]),
    ]


def test_shared_ranks_of_nothing_is_empty() -> None:
    assert list(shared_ranks(equal_runs([], str))) == []

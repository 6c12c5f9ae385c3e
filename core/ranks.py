"""Shared ranks by CORE-3, CL-17, CCT-6 and CCT-8f, numbered here once.

Entries still tied after every criterion share a rank, and the next rank skips past them, as in 1,
2, 2, 4.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import groupby
from typing import TypeVar

T = TypeVar("T")


def equal_runs(ordered: Iterable[T], key: Callable[[T], object]) -> list[list[T]]:
    """The entries of an already ordered sequence in runs of equal `key`, order kept."""
    return [list(run) for _, run in groupby(ordered, key)]


def shared_ranks(groups: Iterable[Sequence[T]]) -> Iterator[tuple[int, Sequence[T]]]:
    """CORE-3 and CL-17: each group of tied entries, best first, with the rank its members share.

    A group of k takes k places, so the ranks run 1, 2, 2, 4.
    """
    rank = 1
    for group in groups:
        yield rank, group
        rank += len(group)

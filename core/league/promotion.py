"""The promotion and relegation proposal for next season by CL-8.

It is built from the standings as at the divisions cut-off of CL-1. The directors adopt the make-up
by vote under CL-23.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.league.standings import ClubStanding

TIE_STANDS = "tie stands — the directors decide"
"""CL-17, CL-8: how a tie across a promotion or relegation line is shown."""
DISQUALIFIED_PLACE = "disqualified: its place is for the directors to decide"
"""CL-DQ, CL-8: how a disqualified club is shown beside the proposal."""


@dataclass(frozen=True, slots=True)
class Move:
    """A club changing division: from this season's division to next season's."""

    club: str
    from_division: str
    to_division: str


@dataclass(frozen=True, slots=True)
class Tie:
    """CL-17 and CL-8: clubs sharing a rank across a promotion or relegation line.

    CL-17 breaks the tie no further, so the tie stands and the directors decide who goes where.
    """

    division: str
    rank: int
    clubs: tuple[str, ...]
    """The tied clubs, in name order."""
    destinations: tuple[str, ...]
    """The divisions the shared places lead to, in the proposal's name order."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """CL-8: next season's divisions, best first, with the moves and what the directors decide.

    It lists the withdrawn clubs and the ties the directors must decide, placed in name order until
    they do. Clubs disqualified by CL-DQ are placed nowhere, since their places are for the
    directors to decide.
    """

    divisions: tuple[tuple[str, tuple[str, ...]], ...]
    moves: tuple[Move, ...]
    withdrawn: tuple[str, ...]
    ties: tuple[Tie, ...] = ()
    disqualified: tuple[str, ...] = ()
    """CL-DQ: in name order, neither staying nor relegated by position."""


def _ordered(table: Sequence[ClubStanding], gone: set[str], order: Sequence[str]) -> list[str]:
    """A division's clubs in standings order, withdrawn ones left out.

    Clubs sharing a rank follow the directors' `order` when it names them, else name order.
    """
    given = {club: index for index, club in enumerate(order)}
    staying = [s for s in table if s.club not in gone]
    return [
        s.club
        for s in sorted(
            staying,
            key=lambda s: (
                s.rank is None,
                s.rank or 0,
                given.get(s.club, len(given)),
                staying.index(s),
            ),
        )
    ]


def promotion_proposal(
    tables: Sequence[tuple[str, Sequence[ClubStanding]]],
    places: int = 3,
    withdrawn: Iterable[str] = (),
    order: Sequence[str] = (),
) -> Proposal:
    """CL-8: the top `places` of each lower division go up and the bottom `places` of each higher
    division go down, so every division keeps its size.

    `tables` are in the season's division order, best first. By CL-7 names and order are
    configuration.

    Interpretation: clubs are laid on one ladder, each division in standings order, with the top
    `places` of the division below placed above the bottom `places` of the one above. The ladder is
    cut at the division sizes. Withdrawn clubs leave the ladder, so a place freed in a division
    first spares a club from relegation, best first, and then lets one more club come up.
    Disqualified clubs are ranked last. The last division keeps what remains, and its vacancies are
    for new clubs.

    CL-17: clubs still tied share their rank, so a tie that the line would split is not broken by
    name. It is reported in `Proposal.ties` as "tie stands — the directors decide". `order` is the
    directors' decision and ranks the tied clubs it names in that order.
    """
    out = {s.club for _, table in tables for s in table if s.disqualified} - set(withdrawn)
    gone = set(withdrawn) | out
    ranked = [_ordered(table, gone, order) for _, table in tables]
    sizes = [len(table) for _, table in tables]
    ladder: list[str] = []
    carried: list[str] = []  # the division above's bottom `places`, placed after our top
    for index, clubs in enumerate(ranked):
        last = index == len(ranked) - 1
        keep = len(clubs) if last else max(0, len(clubs) - places)
        top = clubs[: min(places, keep)] if index else []
        ladder.extend(top)
        ladder.extend(carried)
        ladder.extend(clubs[len(top) : keep])
        carried = clubs[keep:]
    ladder.extend(carried)
    origin = {club: name for (name, _), clubs in zip(tables, ranked, strict=True) for club in clubs}
    divisions = []
    moves: list[Move] = []
    position = 0
    for index, (name, _) in enumerate(tables):
        last = index == len(tables) - 1
        chunk = ladder[position:] if last else ladder[position : position + sizes[index]]
        position += len(chunk)
        divisions.append((name, tuple(chunk)))
        moves.extend(Move(club, origin[club], name) for club in chunk if origin[club] != name)
    destination = {club: name for name, chunk in divisions for club in chunk}
    ties = []
    for name, table in tables:
        shared: dict[int, list[str]] = {}
        for s in table:
            if s.tied and s.rank is not None and s.club not in gone:
                shared.setdefault(s.rank, []).append(s.club)
        for rank, clubs in sorted(shared.items()):
            if set(clubs) <= set(order):
                continue  # the directors ordered them
            places_to = sorted({destination[c] for c in clubs})
            if len(places_to) > 1:
                ties.append(Tie(name, rank, tuple(sorted(clubs)), tuple(places_to)))
    return Proposal(
        tuple(divisions),
        tuple(moves),
        tuple(sorted(gone - out)),
        tuple(ties),
        tuple(sorted(out)),
    )

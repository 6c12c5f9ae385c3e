"""The promotion / relegation proposal for next season (CL-8), from the standings as at the
divisions cut-off (CL-1); the directors adopt the make-up by vote (CL-23)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.league.standings import ClubStanding


@dataclass(frozen=True, slots=True)
class Move:
    """A club changing division: from this season's division to next season's."""

    club: str
    from_division: str
    to_division: str


@dataclass(frozen=True, slots=True)
class Proposal:
    """CL-8: next season's divisions (best first), the moves, and the withdrawn clubs."""

    divisions: tuple[tuple[str, tuple[str, ...]], ...]
    moves: tuple[Move, ...]
    withdrawn: tuple[str, ...]


def promotion_proposal(
    tables: Sequence[tuple[str, Sequence[ClubStanding]]],
    places: int = 3,
    withdrawn: Iterable[str] = (),
) -> Proposal:
    """CL-8: the top `places` of each lower division go up, the bottom `places` of each
    higher division go down; every division keeps its size. `tables` are in the season's
    division order, best first (CL-7: names and order are configuration).

    Interpretation: clubs are laid on one ladder (each division in standings order, with the
    top `places` of the division below placed above the bottom `places` of the one above)
    and the ladder is cut at the division sizes. Withdrawn clubs leave the ladder, so a
    place freed in a division first spares a club from relegation (best first), then lets
    one more club come up. Disqualified clubs are ranked last. The last division keeps what
    remains (its vacancies are for new clubs).
    """
    gone = set(withdrawn)
    ranked = [[s.club for s in table if s.club not in gone] for _, table in tables]
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
    return Proposal(tuple(divisions), tuple(moves), tuple(sorted(gone)))

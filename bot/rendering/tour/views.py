"""What the tour's table outputs show, as small views built from core/tour values.

The outputs are embeds, PNGs and CSV. The views are a preliminary's CCT-8b standings and crosstable,
the CCT-8f Finals table and the CCT-6 tour standings, so each output formats and none computes.

API: the `tour` stream's cogs build a view, then hand it to any output.

- `preliminary_view(event, rows, games, *, reading, places_going_on, name_of)` ->
  `PreliminaryView`. `rows` come from `core.standings.standings` with the event's CCT-8b
  reading.
- `finals_view(event, standings, *, name_of)` -> `FinalsView` from `core.tour.finals`.
- `tour_standings_view(tour, ranking, *, after, qualification, name_of)` ->
  `TourStandingsView` from `core.tour.ranking`, with play-off marks from the CCT-3 list.

`name_of` turns a core player id into the name as typed, `str` by default.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

from bot.rendering.common.crosstable_grid import CellKind, CrosstableCell
from bot.rendering.common.text import shown_rank
from core.results import STANDARD, Scoring
from core.standings import PlayerStanding
from core.tiebreaks import DeReading, Game
from core.tour.finals import FinalsRow, FinalsStandings
from core.tour.preliminary import ties_for_places_going_on
from core.tour.qualification import QualificationList
from core.tour.ranking import KNOCKOUT_PLACES, TourRank

NameOf = Callable[[Hashable], str]
"""How a core player id is shown: the name as the organiser typed it."""

READINGS: dict[DeReading, str] = {
    DeReading.CCT: "DE once over the points group (CCT-8b)",
    DeReading.FIDE2024: "DE re-applied to each group still tied (FIDE 2024, C.07 6.2)",
}
"""CCT-8b: how each reading of direct encounter is described under the standings."""


@dataclass(frozen=True, slots=True)
class PreliminaryView:
    """A preliminary's CCT-8b standings and crosstable.

    `rows` are in rank order with `names` beside them. `cells[i][j]` is the result of row i's player
    against row j's. `playoff` holds the players still tied for a place that goes on, by
    `places_going_on` and CCT-8c.
    """

    event: str
    reading: DeReading
    rows: tuple[PlayerStanding, ...]
    names: tuple[str, ...]
    cells: tuple[tuple[CrosstableCell, ...], ...]
    places_going_on: int
    playoff: frozenset[Hashable]
    played: int
    """Games decided so far, out of `len(rows) * (len(rows) - 1) // 2` in a single round robin."""

    @property
    def games(self) -> int:
        """CCT-8a: the games of the single round robin."""
        return len(self.rows) * (len(self.rows) - 1) // 2

    def caption(self, what: str) -> str:
        """`Preliminary standings · 45 of 120 games · DE once over …`."""
        return f"{what} · {self.played} of {self.games} games · {READINGS[self.reading]}"

    def rank_text(self, index: int) -> str:
        """Row `index`'s rank: `3`, `7=` shared, `4*` a rank a drawing of lots decided."""
        row = self.rows[index]
        return shown_rank(row.rank, row.tied, by_lot=row.by_lot)


def _cell(game: Game | None, white: bool, scoring: Scoring = STANDARD) -> CrosstableCell:
    """A game seen from one side: its points under the event's CCT-8a scoring, 1/½/0 or 3/1/0.

    A forfeit shows as such, and a game with no result is pending.
    """
    if game is None:
        return CrosstableCell(CellKind.PENDING)
    mine = scoring.game_points(game.result, white=white)
    theirs = scoring.game_points(game.result, white=not white)
    kind = CellKind.FORFEIT if game.result.is_forfeit else CellKind.PLAYED
    return CrosstableCell(kind, mine, theirs)


def preliminary_view(
    event: str,
    rows: Sequence[PlayerStanding],
    games: Iterable[Game],
    *,
    reading: DeReading = DeReading.CCT,
    places_going_on: int = KNOCKOUT_PLACES,
    name_of: NameOf = str,
    scoring: Scoring = STANDARD,
) -> PreliminaryView:
    """The view of a preliminary from its standings rows and decided games.

    In a single round robin each pair meets once, and a later game of a pair replaces an earlier
    one.
    """
    players = [row.player for row in rows]
    by_pair: dict[frozenset[Hashable], Game] = {}
    for game in games:
        by_pair[frozenset((game.white, game.black))] = game
    cells = []
    for mine in players:
        line = []
        for theirs in players:
            if mine == theirs:
                line.append(CrosstableCell(CellKind.SELF))
                continue
            met = by_pair.get(frozenset((mine, theirs)))
            line.append(_cell(met, met is not None and met.white == mine, scoring))
        cells.append(tuple(line))
    playoff = frozenset(
        p for group in ties_for_places_going_on(rows, places_going_on) for p in group
    )
    return PreliminaryView(
        event,
        reading,
        tuple(rows),
        tuple(name_of(p) for p in players),
        tuple(cells),
        places_going_on,
        playoff,
        len(by_pair),
    )


@dataclass(frozen=True, slots=True)
class FinalsView:
    """The CCT-8f Finals table: rows in rank order with names beside them, and the players sharing
    first place.

    Those are flagged, and the organiser decides as announced.
    """

    event: str
    rows: tuple[FinalsRow, ...]
    names: tuple[str, ...]
    tied_for_first: frozenset[Hashable]

    def rank_text(self, index: int) -> str:
        """Row `index`'s rank: `1`, `2=` when shared."""
        rank = self.rows[index].rank
        shared = sum(1 for row in self.rows if row.rank == rank) > 1
        return shown_rank(rank, shared)


def finals_view(event: str, standings: FinalsStandings, *, name_of: NameOf = str) -> FinalsView:
    """The view of the Finals table computed by `core.tour.finals.finals_standings`."""
    return FinalsView(
        event,
        standings.rows,
        tuple(name_of(row.player) for row in standings.rows),
        frozenset(standings.tied_for_first),
    )


@dataclass(frozen=True, slots=True)
class TourStandingsView:
    """The CCT-6 tour standings: rows in rank order with names, after an event or every event for
    None.

    It also marks the players of a tie that decides a qualification place, as "play-off required
    (organiser may forgo)".
    """

    tour: str
    after: str | None
    rows: tuple[TourRank, ...]
    names: tuple[str, ...]
    playoff: frozenset[Hashable]

    def caption(self, what: str) -> str:
        """The title, such as `Tour standings after Opera Euro Rapid`, or `what` alone after
        every event.
        """
        return f"{what} after {self.after}" if self.after else what

    def rank_text(self, index: int) -> str:
        """Row `index`'s rank: `4`, `4=` shared after all five criteria."""
        row = self.rows[index]
        return shown_rank(row.rank, row.tied)


def tour_standings_view(
    tour: str,
    ranking: Sequence[TourRank],
    *,
    after: str | None = None,
    qualification: QualificationList | None = None,
    name_of: NameOf = str,
) -> TourStandingsView:
    """The view of the tour ranking of `core.tour.ranking.rank_records`.

    The play-off marks are the groups that the CCT-3 `qualification` found deciding a place.
    """
    groups = qualification.playoffs_required if qualification is not None else ()
    return TourStandingsView(
        tour,
        after,
        tuple(ranking),
        tuple(name_of(row.player) for row in ranking),
        frozenset(p for group in groups for p in group),
    )


def playoff_groups(
    ranks: Sequence[int],
    players: Sequence[Hashable],
    names: Sequence[str],
    marked: Collection[Hashable],
) -> list[tuple[int, list[str]]]:
    """The players marked for a play-off, grouped by the rank they share, best first."""
    groups: dict[int, list[str]] = {}
    for rank, player, name in zip(ranks, players, names, strict=True):
        if player in marked:
            groups.setdefault(rank, []).append(name)
    return sorted(groups.items())

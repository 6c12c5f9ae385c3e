"""The games of a guild's tour events and what is recorded about them.

It holds each game's result life cycle from core/tour/game_reports, the knock-out series and Finals
matches with colour choices and imported outcomes, and the arbiters' overrides by CCT-9.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

import chess

from core.results import Result
from core.tour.game_reports import GameReport, Party, ReportStatus
from core.tour.timecontrols import Phase
from storage.engine.codecs import from_text, to_text
from storage.engine.connection import Row
from storage.engine.scope import ReadScope, WriteScope

Stage = Literal["preliminary", "knockout", "finals"]
Source = Literal["player", "arbiter", "bot", "import", "incident"]
ColourSlot = Literal["colour_game_1", "colour_blitz_1", "colour_armageddon"]
COLOUR_SLOTS: tuple[ColourSlot, ...] = ("colour_game_1", "colour_blitz_1", "colour_armageddon")


_PHASE_ORDER = {Phase.RAPID: 0, Phase.BLITZ: 1, Phase.ARMAGEDDON: 2}
"""The phases in the order a contest plays them."""


@dataclass(frozen=True)
class TourGame:
    """A game as stored: where it belongs, its players by colour and its result's life cycle.

    Where it belongs is given by stage, contest, round or board, phase, match and number.
    """

    id: int
    event_id: int
    stage: Stage
    contest: str | None
    round: int | None
    board: int | None
    phase: Phase
    match_no: int | None
    game_no: int
    white_id: int
    black_id: int
    status: ReportStatus
    result: Result | None
    source: Source | None
    reported_by: int | None
    reported_side: Party | None
    reported_at: dt.datetime | None
    settled_by: int | None
    settled_at: dt.datetime | None
    source_ref: str | None
    early_draw: bool
    has_pgn: bool

    @property
    def report(self) -> GameReport:
        """The result's state for the life cycle."""
        return GameReport(self.status, self.result, self.reported_side)

    @property
    def order(self) -> tuple[int, int, int, int]:
        """Where the game comes in its contest: rapid match 1, match 2, blitz, Armageddon."""
        return (_PHASE_ORDER[self.phase], self.match_no or 0, self.game_no, self.id)


@dataclass(frozen=True)
class NewGame:
    """A game row to add: a preliminary pairing, or a knock-out / Finals game being reported."""

    stage: Stage
    white_id: int
    black_id: int
    contest: str | None = None
    round: int | None = None
    board: int | None = None
    phase: Phase = Phase.RAPID
    match_no: int | None = None
    game_no: int = 1
    result: Result | None = None
    """An imported game's result, stored decided with source `import`. None means an open game."""


@dataclass(frozen=True)
class ContestRow:
    """A knock-out series or Finals match: the first player's colour choices and an imported
    outcome.

    The choices follow CCT-8e. The outcome is the tour file's round, as JSON data.
    """

    key: str
    colour_game_1: chess.Color | None
    colour_blitz_1: chess.Color | None
    colour_armageddon: chess.Color | None
    chosen_by: int | None
    recorded: dict[str, Any] | None


@dataclass(frozen=True)
class OverrideRow:
    """CCT-9: an arbiter's correction of a game's result."""

    id: int
    event_id: int
    game_id: int
    old_result: Result | None
    new_result: Result
    ground: str
    explanation: str
    expelled: tuple[int, ...]
    arbiter_id: int | None
    decided_at: dt.datetime


_GAME = (
    "SELECT id, event_id, stage, contest, round, board, phase, match_no, game_no, white_id,"
    " black_id, status, result, source, reported_by, reported_side, reported_at, settled_by,"
    " settled_at, source_ref, early_draw, pgn IS NOT NULL FROM tour_games"
)


def _instant(text: str | None) -> dt.datetime | None:
    return None if text is None else from_text(text)


def _game(row: Row) -> TourGame:
    return TourGame(
        id=row[0],
        event_id=row[1],
        stage=cast(Stage, row[2]),
        contest=row[3],
        round=row[4],
        board=row[5],
        phase=Phase(row[6]),
        match_no=row[7],
        game_no=row[8],
        white_id=row[9],
        black_id=row[10],
        status=ReportStatus(row[11]),
        result=None if row[12] is None else Result(row[12]),
        source=cast("Source | None", row[13]),
        reported_by=row[14],
        reported_side=None if row[15] is None else Party(row[15]),
        reported_at=_instant(row[16]),
        settled_by=row[17],
        settled_at=_instant(row[18]),
        source_ref=row[19],
        early_draw=bool(row[20]),
        has_pgn=bool(row[21]),
    )


def colour_text(colour: chess.Color | None) -> str | None:
    """A colour as stored, 'white' or 'black'."""
    if colour is None:
        return None
    return "white" if colour == chess.WHITE else "black"


def _colour(text: str | None) -> chess.Color | None:
    return None if text is None else text == "white"


class TourGameReader:
    """The tour games, contests and overrides of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, game_id: int) -> TourGame | None:
        """The game with this id, or None. Another guild's id also gives None."""
        row = await self._scope.fetchone(
            f"{_GAME} WHERE guild_id = ? AND id = ?", (self._scope.guild_id, game_id)
        )
        return None if row is None else _game(row)

    async def of_event(self, event_id: int) -> list[TourGame]:
        """Every game of the event, in the order they were added."""
        rows = await self._scope.fetchall(
            f"{_GAME} WHERE guild_id = ? AND event_id = ? ORDER BY id",
            (self._scope.guild_id, event_id),
        )
        return [_game(row) for row in rows]

    async def by_source(self, source_ref: str) -> TourGame | None:
        """The game read from this chess.com / lichess game or PGN, if any."""
        row = await self._scope.fetchone(
            f"{_GAME} WHERE guild_id = ? AND source_ref = ?", (self._scope.guild_id, source_ref)
        )
        return None if row is None else _game(row)

    async def pgn(self, game_id: int) -> str | None:
        """The PGN the game's result was read from, if any."""
        row = await self._scope.fetchone(
            "SELECT pgn FROM tour_games WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, game_id),
        )
        return None if row is None else row[0]

    async def contests(self, event_id: int) -> list[ContestRow]:
        """The event's knock-out series and Finals matches that have a choice or a record."""
        rows = await self._scope.fetchall(
            "SELECT key, colour_game_1, colour_blitz_1, colour_armageddon, chosen_by, recorded"
            " FROM tour_contests WHERE guild_id = ? AND event_id = ? ORDER BY key",
            (self._scope.guild_id, event_id),
        )
        return [
            ContestRow(
                row[0],
                _colour(row[1]),
                _colour(row[2]),
                _colour(row[3]),
                row[4],
                None if row[5] is None else json.loads(row[5]),
            )
            for row in rows
        ]

    async def overrides(self, event_id: int) -> list[OverrideRow]:
        """CCT-9: the event's overrides, oldest first."""
        rows = await self._scope.fetchall(
            "SELECT id, event_id, game_id, old_result, new_result, ground, explanation,"
            " expelled, arbiter_id, decided_at FROM tour_overrides"
            " WHERE guild_id = ? AND event_id = ? ORDER BY id",
            (self._scope.guild_id, event_id),
        )
        return [
            OverrideRow(
                row[0],
                row[1],
                row[2],
                None if row[3] is None else Result(row[3]),
                Result(row[4]),
                row[5],
                row[6],
                tuple(int(p) for p in json.loads(row[7])),
                row[8],
                from_text(row[9]),
            )
            for row in rows
        ]


class TourGameRepository(TourGameReader):
    """The tour games of one guild inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def add_many(self, tour_id: int, event_id: int, games: Sequence[NewGame]) -> None:
        """Adds the open games of a draw's pairings."""
        scope = self._write
        await scope.executemany(
            "INSERT INTO tour_games (guild_id, tour_id, event_id, stage, contest, round, board,"
            " phase, match_no, game_no, white_id, black_id, status, result, source, settled_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                _new_row(scope.guild_id, tour_id, event_id, g) + _imported(g, scope.now)
                for g in games
            ],
        )
        scope.record("tour_games_added", {"event": event_id, "games": len(games)})

    async def add(self, tour_id: int, event_id: int, game: NewGame) -> TourGame:
        """Adds one open game, a knock-out or Finals game about to be reported."""
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO tour_games (guild_id, tour_id, event_id, stage, contest, round, board,"
            " phase, match_no, game_no, white_id, black_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _new_row(scope.guild_id, tour_id, event_id, game),
        )
        added = await self.get(new_id)
        assert added is not None
        return added

    async def apply(
        self,
        game: TourGame,
        report: GameReport,
        *,
        by: int | None,
        source: Source | None = None,
        pgn: str | None = None,
        source_ref: str | None = None,
        early_draw: bool | None = None,
    ) -> TourGame:
        """Stores the game's result as the life cycle left it, and returns the game as now stored.

        A new report notes who reported it and from what. A confirmation, dispute or decision notes
        who settled it. The game returned is not read back.
        """
        scope = self._write
        now = to_text(scope.now)
        at = from_text(now)
        if report.status is ReportStatus.REPORTED:
            stored = replace(
                game,
                status=report.status,
                result=report.result,
                source=source,
                reported_by=by,
                reported_side=report.reported_by,
                reported_at=at,
            )
        else:
            stored = replace(
                game,
                status=report.status,
                result=report.result,
                source=source or game.source,
                settled_by=by,
                settled_at=at,
                reported_by=game.reported_by
                if game.reported_by is not None or source is None
                else by,
                reported_at=game.reported_at
                if game.reported_at is not None or source is None
                else at,
            )
        stored = replace(
            stored,
            source_ref=source_ref or stored.source_ref,
            early_draw=stored.early_draw if early_draw is None else early_draw,
            has_pgn=stored.has_pgn or pgn is not None,
        )
        if report.status is ReportStatus.REPORTED:
            side = None if report.reported_by is None else report.reported_by.value
            await scope.execute(
                "UPDATE tour_games SET status = ?, result = ?, source = ?, reported_by = ?,"
                " reported_side = ?, reported_at = ?, pgn = coalesce(?, pgn),"
                " source_ref = coalesce(?, source_ref), early_draw = coalesce(?, early_draw)"
                " WHERE guild_id = ? AND id = ?",
                (
                    report.status.value,
                    None if report.result is None else report.result.value,
                    source,
                    by,
                    side,
                    now,
                    pgn,
                    source_ref,
                    None if early_draw is None else int(early_draw),
                    scope.guild_id,
                    game.id,
                ),
            )
        else:
            await scope.execute(
                "UPDATE tour_games SET status = ?, result = ?, source = coalesce(?, source),"
                " settled_by = ?, settled_at = ?, reported_by = coalesce(reported_by, ?),"
                " reported_at = coalesce(reported_at, ?), pgn = coalesce(?, pgn),"
                " source_ref = coalesce(?, source_ref), early_draw = coalesce(?, early_draw)"
                " WHERE guild_id = ? AND id = ?",
                (
                    report.status.value,
                    None if report.result is None else report.result.value,
                    source,
                    by,
                    now,
                    by if source is not None else None,
                    now if source is not None else None,
                    pgn,
                    source_ref,
                    None if early_draw is None else int(early_draw),
                    scope.guild_id,
                    game.id,
                ),
            )
        scope.record(
            "tour_results",
            {
                "game": game.id,
                "status": report.status.value,
                "result": None if report.result is None else report.result.value,
            },
        )
        return stored

    async def choose(
        self, event_id: int, key: str, slot: ColourSlot, colour: chess.Color, by: int | None
    ) -> None:
        """CCT-8e: the first player's colour choice for a contest's game 1, first blitz game
        or Armageddon."""
        if slot not in COLOUR_SLOTS:
            raise ValueError(f"no colour choice {slot!r}")
        scope = self._write
        await scope.execute(
            f"INSERT INTO tour_contests (guild_id, event_id, key, {slot}, chosen_by, chosen_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, key) DO UPDATE SET"
            f" {slot} = excluded.{slot}, chosen_by = excluded.chosen_by,"
            " chosen_at = excluded.chosen_at",
            (scope.guild_id, event_id, key, colour_text(colour), by, to_text(scope.now)),
        )
        scope.record("tour_choices", {"event": event_id, "contest": key, slot: colour_text(colour)})

    async def record_contests(
        self, event_id: int, records: Iterable[tuple[str, dict[str, Any]]]
    ) -> None:
        """Imported outcomes of knock-out rounds or Finals matches, as key and tour file data."""
        scope = self._write
        await scope.executemany(
            "INSERT INTO tour_contests (guild_id, event_id, key, recorded) VALUES (?, ?, ?, ?)",
            [
                (scope.guild_id, event_id, key, json.dumps(data, sort_keys=True))
                for key, data in records
            ],
        )

    async def award_contest(self, event_id: int, key: str, data: dict[str, Any]) -> None:
        """CCT-9: a knock-out series or Finals match awarded without play, stored as its recorded
        outcome.

        `data` is the tour file's round with `walkover` and `reason`. The colour choices made before
        stay.
        """
        scope = self._write
        await scope.execute(
            "INSERT INTO tour_contests (guild_id, event_id, key, recorded) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (event_id, key) DO UPDATE SET recorded = excluded.recorded",
            (scope.guild_id, event_id, key, json.dumps(data, sort_keys=True)),
        )
        scope.record("tour_awards", {"event": event_id, "contest": key, **data})

    async def remove_unplayed(self, event_id: int) -> int:
        """CCT-8f: removes an event's open games and undecided contests with the draw they belonged
        to.

        Open games have no report and no result. Undecided contests have no recorded outcome, only
        colour choices. Games reported or settled are never removed. Returns the games removed.
        """
        scope = self._write
        cursor = await scope.execute(
            "DELETE FROM tour_games WHERE guild_id = ? AND event_id = ? AND status = 'open'"
            " AND result IS NULL",
            (scope.guild_id, event_id),
        )
        await scope.execute(
            "DELETE FROM tour_contests WHERE guild_id = ? AND event_id = ? AND recorded IS NULL",
            (scope.guild_id, event_id),
        )
        scope.record("tour_games_removed", {"event": event_id, "games": cursor.rowcount})
        return cursor.rowcount

    async def add_override(
        self,
        game: TourGame,
        new_result: Result,
        ground: str,
        explanation: str,
        expelled: Sequence[int],
        arbiter_id: int | None,
    ) -> int:
        """CCT-9: record an arbiter's correction of the game's result."""
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO tour_overrides (guild_id, event_id, game_id, old_result, new_result,"
            " ground, explanation, expelled, arbiter_id, decided_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                game.event_id,
                game.id,
                None if game.result is None else game.result.value,
                new_result.value,
                ground,
                explanation,
                json.dumps(list(expelled)),
                arbiter_id,
                to_text(scope.now),
            ),
        )
        scope.record("tour_overrides", {"game": game.id, "ground": ground})
        return new_id


def _imported(game: NewGame, now: dt.datetime) -> tuple[Any, ...]:
    """The status, result, source and settled_at of a new game. It is decided when imported with
    one.
    """
    if game.result is None:
        return ("open", None, None, None)
    return ("decided", game.result.value, "import", to_text(now))


def _new_row(guild_id: int, tour_id: int, event_id: int, game: NewGame) -> tuple[Any, ...]:
    return (
        guild_id,
        tour_id,
        event_id,
        game.stage,
        game.contest,
        game.round,
        game.board,
        game.phase.value,
        game.match_no,
        game.game_no,
        game.white_id,
        game.black_id,
    )

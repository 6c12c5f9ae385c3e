"""Reads the tour file of docs/tour-file.md into the core's domain values.

The file's JSON is checked by the models of `bot.formats.tour_models`. This adapter turns it into
a `core.tour.report.Tour` and refuses every bad case with the JSON path of the problem.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import (
    ValidationError,
)

from bot.formats.json_path import json_path
from bot.formats.numbers import printable
from bot.formats.plain_words import plain, suggestion, unknown_first
from bot.formats.terminal import shown_text
from bot.formats.tour_models import (
    FINALS_SIZE,
    SCORE,
    TIES,
    EventModel,
    FinalsModel,
    KnockoutModel,
    PointsModel,
    PreliminaryModel,
    RulesModel,
    TourFile,
)
from core.points import half_points
from core.results import STANDARD, Result, Scoring
from core.standings import standings
from core.tiebreaks import CCT_8B, DeReading, Game
from core.tour.calendar import check_start
from core.tour.events import BracketError, KnockoutResult, PlayedEvent
from core.tour.finals import FinalsError
from core.tour.knockout import KnockoutError, KoStage
from core.tour.preliminary import SCORINGS
from core.tour.published_scores import (
    blitz_decides,
    finished_match,
    series_decided_by_matches,
    series_matches,
)
from core.tour.qualification import FinalsField, FinalsFieldError, check_decline, field_problem
from core.tour.ranking import (
    DEFAULT_POINTS_TABLES,
    KNOCKOUT_PLACES,
    EventType,
    PointsTable,
    TourError,
)
from core.tour.report import FinalsMatch, FinalsResults, Tour, event_finals_field
from core.trf import TrfError, decode_trf, parse_trf
from core.trf2026 import scored_standings, trf_scores

Reader = Callable[[Path], bytes]
"""Reads a file the tour file names, with a bound, in the CLI.

Raises OSError, or ValueError with a message naming the file.
"""


def _read_bytes(path: Path) -> bytes:
    return path.read_bytes()


class TourFileError(ValueError):
    """A tour file that cannot be used, with every problem as a (JSON path, message) pair."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{where}: {what}" for where, what in problems))
        self.problems = tuple(problems)


class _Problem(Exception):
    def __init__(self, where: str, what: str) -> None:
        super().__init__(what)
        self.where = where
        self.what = what


def _check_day(text: str | None, where: str, *, first: bool) -> None:
    """An event's date: a calendar date whose first day leaves room for the event's days."""
    if text is None:
        return
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise _Problem(where, f"{text} is not a date") from None
    if first:
        try:
            check_start(day)
        except ValueError as error:
            raise _Problem(where, str(error)) from None


def points_table(model: PointsModel, label: str) -> PointsTable:
    """CCT-6: a file's points table as a core `PointsTable`."""
    ko = model.knockout
    stages = {
        KoStage.WINNER: ko.winner,
        KoStage.RUNNER_UP: ko.runner_up,
        KoStage.SEMI_FINAL: ko.semi_final,
        KoStage.QUARTER_FINAL: ko.quarter_final,
    }
    if ko.third is not None:
        stages[KoStage.THIRD] = ko.third
    if ko.fourth is not None:
        stages[KoStage.FOURTH] = ko.fourth
    return PointsTable(label, tuple(model.preliminary), stages)


def rules_tables(rules: RulesModel) -> dict[EventType, PointsTable]:
    """The tour's default table per event type: the file's, else CCT-6's."""
    tables = dict(DEFAULT_POINTS_TABLES)
    for kind, model in (
        (EventType.REGULAR, rules.points.regular),
        (EventType.MAJOR, rules.points.major),
    ):
        if model is not None:
            tables[kind] = points_table(model, f"tour file {kind.value} table")
    return tables


def _score(text: str) -> tuple[Fraction, Fraction]:
    first, second = text.split("-")
    return half_points(first.strip()), half_points(second.strip())


def trf_order(
    path: Path,
    where: str,
    places_that_count: int,
    read: Reader,
    scoring: Scoring = STANDARD,
) -> list[str]:
    """CCT-8b: the preliminary order computed from a TRF file.

    The file is read and scored as `arbiter standings` reads it, with its encodings and records 162
    and 299. `scoring` applies by CCT-8a where the file gives none. A tie left after every criterion
    within the places that earn points or go on is refused. So is a name with control characters,
    since it would be printed.
    """
    try:
        text = decode_trf(read(path))
    except OSError as error:
        raise _Problem(where, f"cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise _Problem(where, str(error)) from None
    try:
        tournament = parse_trf(text)
        rows = scored_standings(tournament, trf_scores(tournament, scoring))
    except TrfError as error:
        raise _Problem(where, shown_text(f"{path}: {error}")) from None
    names: dict[Hashable, str] = {p.start_no: p.name for p in tournament.players}
    for p in tournament.players:
        try:
            printable(p.name)
        except ValueError as error:
            raise _Problem(where, f"{path}: line {p.line}: the name {error}") from None
    order = [names[row.player] for row in rows]
    for row in rows:
        if row.tied and row.rank <= places_that_count:
            tied = [names[r.player] for r in rows if r.rank == row.rank]
            raise _Problem(
                where,
                f"{', '.join(tied)} are still tied for place {row.rank} after every CCT-8b "
                "criterion; give the official order instead",
            )
    return order


def games_order(
    model: PreliminaryModel, where: str, places_that_count: int, scoring: Scoring = STANDARD
) -> list[str]:
    """CCT-8a and CCT-8b: the preliminary order computed from its games, as the bot computes it.

    It uses the players in pairing-number order, the event's game scoring, its DE reading and its
    drawing of lots. A tie left within the places that earn points or go on is refused.
    """
    players = list(model.players or ())
    seen: dict[str, int] = {}
    for i, player in enumerate(players):
        if player in seen:
            raise _Problem(f"{where}.players[{i}]", f"{player!r} is listed twice")
        seen[player] = i
    games = []
    for i, game in enumerate(model.games or ()):
        for side in ("white", "black"):
            if getattr(game, side) not in seen:
                raise _Problem(
                    f"{where}.games[{i}].{side}", f"{getattr(game, side)!r} is not in `players`"
                )
        if game.white == game.black:
            raise _Problem(f"{where}.games[{i}]", f"{game.white!r} cannot play themself")
        games.append(Game(game.white, game.black, Result(game.result), game.round))
    rows = standings(
        players,
        games,
        scoring=scoring,
        criteria=CCT_8B,
        reading=DeReading(model.tiebreaks),
        lots_seed=model.lots,
    )
    for row in rows:
        if row.tied and row.rank <= places_that_count:
            tied = [str(r.player) for r in rows if r.rank == row.rank]
            raise _Problem(
                f"{where}.games",
                f"{', '.join(tied)} are still tied for place {row.rank} after every CCT-8b "
                "criterion; give `lots` or the official order instead",
            )
    return [str(row.player) for row in rows]


def _series_winner(k: KnockoutModel, where: str) -> str | None:
    """CCT-8d: the winner the scores decide, or None when they do not. Each score is checked."""
    if k.walkover:
        if k.days is not None or k.playoff is not None:
            raise _Problem(f"{where}.walkover", "a walkover has no scores (awarded without play)")
        return None
    if k.reason is not None or k.note is not None:
        raise _Problem(f"{where}.reason", "a reason or note belongs to a walkover (CCT-9)")
    by_matches: bool | None = None
    if k.days is not None:
        if len(k.days) != 2:
            raise _Problem(f"{where}.days", f"a round is 2 matches (CCT-8d), not {len(k.days)}")
        scores = []
        for d, day in enumerate(k.days):
            try:
                scores.append(_score(day))
            except ValueError as error:
                raise _Problem(f"{where}.days[{d}]", str(error)) from None
        try:
            finished_match(*scores[0])
        except KnockoutError as error:
            raise _Problem(f"{where}.days[0]", str(error)) from None
        try:
            outcomes = series_matches(scores)
        except KnockoutError as error:
            raise _Problem(f"{where}.days[1]", str(error)) from None
        by_matches = series_decided_by_matches(outcomes)
        if by_matches is not None:
            if k.playoff is not None:
                won = k.a if by_matches else k.b
                raise _Problem(
                    f"{where}.playoff",
                    f"{won} won the series in the rapid matches ({', '.join(k.days)}), so no "
                    "play-off was played (CCT-8d)",
                )
            return k.a if by_matches else k.b
    if k.playoff is None:
        return None
    try:
        blitz = blitz_decides(*_score(k.playoff.blitz))
    except (KnockoutError, ValueError) as error:
        raise _Problem(f"{where}.playoff.blitz", str(error)) from None
    if blitz is not None:
        if k.playoff.armageddon is not None:
            raise _Problem(
                f"{where}.playoff.armageddon",
                f"the blitz games ended {k.playoff.blitz}, so no Armageddon was played (CCT-8d)",
            )
        return k.a if blitz else k.b
    if k.playoff.armageddon is None:
        return None
    return k.a if k.playoff.armageddon == "a" else k.b


def _knockout_result(k: KnockoutModel, where: str) -> KnockoutResult:
    decided = _series_winner(k, where)
    if k.winner is not None and k.winner not in (k.a, k.b):
        raise _Problem(f"{where}.winner", f"{k.winner!r} did not play {k.a!r} v {k.b!r}")
    if decided is not None and k.winner is not None and k.winner != decided:
        raise _Problem(
            f"{where}.winner",
            f"{k.winner!r} contradicts the scores, by which {decided!r} won (CCT-8d)",
        )
    winner = k.winner or decided
    if winner is None:
        raise _Problem(f"{where}.winner", "required: the scores given do not decide the round")
    return KnockoutResult(TIES[k.round], k.a, k.b, winner, k.walkover)


def _event(
    model: EventModel,
    where: str,
    base: Path,
    tables: Mapping[EventType, PointsTable],
    read: Reader,
    rules_scoring: str = "1/½/0",
) -> PlayedEvent:
    kind = EventType(model.type)
    table = points_table(model.points, f"{model.name} table") if model.points else None
    prelim = f"{where}.preliminary"
    counted = max(KNOCKOUT_PLACES, len((table or tables[kind]).preliminary))
    scoring = SCORINGS[model.scoring or rules_scoring]
    if model.preliminary.trf is not None:
        order = trf_order(base / model.preliminary.trf, f"{prelim}.trf", counted, read, scoring)
    elif model.preliminary.games is not None:
        order = games_order(model.preliminary, prelim, counted, scoring)
    else:
        order = list(model.preliminary.order or ())
        seen: dict[str, int] = {}
        for i, player in enumerate(order):
            if player in seen:
                raise _Problem(
                    f"{prelim}.order[{i}]", f"{player!r} is listed twice (also [{seen[player]}])"
                )
            seen[player] = i
    if len(order) < KNOCKOUT_PLACES:
        raise _Problem(
            prelim, f"{len(order)} players cannot fill the {KNOCKOUT_PLACES} knock-out places"
        )
    _check_day(model.start, f"{where}.start", first=True)
    _check_day(model.end, f"{where}.end", first=False)
    if model.start and model.end and model.start > model.end:
        raise _Problem(f"{where}.end", f"{model.end} is before the start {model.start}")
    index = {TIES[k.round]: i for i, k in enumerate(model.knockout)}
    results = [_knockout_result(k, f"{where}.knockout[{i}]") for i, k in enumerate(model.knockout)]
    try:
        return PlayedEvent(
            model.name, kind, tuple(order), tuple(results), model.third_place_match, table
        )
    except BracketError as error:
        if error.tie is None or error.tie not in index or error.field == "rounds":
            at = f"{where}.knockout"
            if error.tie in index and error.field == "rounds":
                at = f"{where}.knockout[{index[error.tie]}].round"
            raise _Problem(at, str(error)) from None
        suffix = ".winner" if error.field == "winner" else ""
        raise _Problem(f"{where}.knockout[{index[error.tie]}]{suffix}", str(error)) from None
    except (TourError, KnockoutError) as error:
        raise _Problem(where, str(error)) from None


def _finals(model: FinalsModel, events: Sequence[PlayedEvent]) -> FinalsResults:
    """CCT-8f: the Finals, where every finalist must be a player of the tour's events.

    Their tour points set everyone's bonus, so a name the events never saw would count 0 and move
    the baseline.
    """
    played = {p for event in events for p in event.order}
    seen: dict[str, int] = {}
    for i, player in enumerate(model.players):
        if player in seen:
            raise _Problem(f"finals.players[{i}]", f"{player!r} is listed twice")
        if player not in played:
            raise _Problem(
                f"finals.players[{i}]",
                f"{player!r} played no event of the tour, so has no tour points for the "
                "bonus (CCT-8f); is the name spelt as in the events?",
            )
        seen[player] = i
    pairs: dict[frozenset[str], int] = {}
    matches = []
    for i, m in enumerate(model.matches):
        where = f"finals.matches[{i}]"
        for side in ("a", "b"):
            name = getattr(m, side)
            if name not in seen:
                raise _Problem(f"{where}.{side}", f"{name!r} is not a finalist (finals.players)")
        if m.a == m.b:
            raise _Problem(where, f"{m.a!r} cannot play themself")
        if m.winner not in (m.a, m.b):
            raise _Problem(f"{where}.winner", f"{m.winner!r} did not play {m.a!r} v {m.b!r}")
        pair = frozenset((m.a, m.b))
        if pair in pairs:
            raise _Problem(
                where,
                f"{m.a!r} and {m.b!r} already met (finals.matches[{pairs[pair]}]); the Finals "
                "are a single round robin (CCT-8f)",
            )
        pairs[pair] = i
        if m.walkover and m.decided != "rapid":
            raise _Problem(
                f"{where}.decided", "an awarded match scores as a rapid win, 3/0 (CCT-8f, CCT-9)"
            )
        if not m.walkover and (m.reason is not None or m.note is not None):
            raise _Problem(f"{where}.reason", "a reason or note belongs to a walkover (CCT-9)")
        matches.append(FinalsMatch(m.a, m.b, m.winner, m.decided == "rapid"))
    try:
        return FinalsResults(tuple(model.players), tuple(matches))
    except FinalsError as error:
        raise _Problem("finals", str(error)) from None


def _problems(model: TourFile, base: Path, read: Reader) -> Iterator[tuple[str, str] | PlayedEvent]:
    tables = rules_tables(model.rules)
    names: dict[str, int] = {}
    for i, e in enumerate(model.events):
        if e.name in names:
            yield f"events[{i}].name", f"duplicate event {e.name!r} (also events[{names[e.name]}])"
            continue
        names[e.name] = i
        try:
            yield _event(e, f"events[{i}]", base, tables, read, model.rules.scoring)
        except _Problem as problem:
            yield problem.where, problem.what


def parse_tour(
    text: str, base: Path = Path("."), read: Reader = _read_bytes, finals_size: int | None = None
) -> tuple[Tour, dict[EventType, PointsTable]]:
    """The tour of a tour file's text and its default points tables per event type.

    TRF paths are relative to `base` and read with `read`. Raises TourFileError listing every
    problem with its JSON path. The CCT-3 Finals field is checked for Finals of `finals_size`
    places. By default that is as many as the file's finalists, else 10.
    """
    _, tour, tables = parse_tour_file(text, base, read, finals_size)
    return tour, tables


def parse_tour_file(
    text: str, base: Path = Path("."), read: Reader = _read_bytes, finals_size: int | None = None
) -> tuple[TourFile, Tour, dict[EventType, PointsTable]]:
    """`parse_tour`, also giving the validated file itself, which `/tour import` stores."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise TourFileError([("(file)", f"not JSON: {error.msg} at line {error.lineno}")]) from None
    except RecursionError:
        raise TourFileError(
            [("(file)", "not JSON this program reads: nested too deeply")]
        ) from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise TourFileError(
            [("(file)", "not JSON this program reads: a number of more than 4,300 digits")]
        ) from None
    try:
        model = TourFile.model_validate(data)
    except ValidationError as error:
        items = unknown_first(error.errors())
        found = [
            (json_path(e["loc"]) or "(file)", _pydantic_message(e) + suggestion(e, items))
            for e in items
        ]
        raise TourFileError(found) from None
    problems: list[tuple[str, str]] = []
    events: list[PlayedEvent] = []
    for item in _problems(model, base, read):
        if isinstance(item, PlayedEvent):
            events.append(item)
        else:
            problems.append(item)
    finals = None
    if model.finals is not None and model.finals.players:
        try:
            finals = _finals(model.finals, events)
        except _Problem as problem:
            problems.append((problem.where, problem.what))
    elif model.finals is not None and model.finals.matches:
        problems.append(("finals.matches", "matches need the finalists (finals.players)"))
    if len(set(model.ambassadors)) != len(model.ambassadors):
        problems.append(("ambassadors", "an Ambassador is listed twice"))
    if len(set(model.expelled)) != len(model.expelled):
        problems.append(("expelled", "a player is listed twice"))
    wildcards: tuple[str, ...] = ()
    size = finals_size or len(model.finals.players if model.finals else ()) or FINALS_SIZE
    drawn = 0 if model.finals is None else len(model.finals.players)
    if model.finals is not None and not problems and drawn in (0, size):
        try:
            wildcards = _finals_field(model, events, size)
        except _Problem as problem:
            problems.append((problem.where, problem.what))
    if problems:
        raise TourFileError(problems)
    declined = () if model.finals is None else tuple(d.player for d in model.finals.declined)
    tour = Tour(
        model.name,
        tuple(events),
        finals,
        tuple(model.ambassadors),
        tuple(model.expelled),
        declined,
        wildcards,
    )
    return model, tour, rules_tables(model.rules)


def _finals_field(model: TourFile, events: Sequence[PlayedEvent], size: int) -> tuple[str, ...]:
    """CCT-3: the Finals' declines and wildcards checked as the bot checks them, giving the
    wildcards.

    Each decliner must have been offered a place when they declined. Each finalist must be offered a
    place or be a wildcard into a place the lists cannot fill. When the file does not list the
    wildcards, they are every finalist not offered a place. Finals of another size than `size` are
    refused by the size check instead.
    """
    finals = model.finals
    assert finals is not None
    tables = rules_tables(model.rules)

    def field(declined: Sequence[str], wildcards: Sequence[str] = ()) -> FinalsField:
        try:
            return event_finals_field(
                events,
                size,
                ambassadors=model.ambassadors,
                tables=tables,
                expelled=model.expelled,
                declined=declined,
                wildcards=wildcards,
            )
        except TourError as error:
            raise _Problem("finals", str(error)) from None

    names: list[str] = []
    for i, decline in enumerate(finals.declined):
        try:
            check_decline(field(names), decline.player, finals.players, name=repr)
        except FinalsFieldError as error:
            raise _Problem(f"finals.declined[{i}].player", str(error)) from None
        names.append(decline.player)
    if finals.wildcards is None:
        before = field(names)
        wildcards = [p for p in finals.players if not before.offered(p)]
    else:
        wildcards = list(finals.wildcards)
        for i, player in enumerate(wildcards):
            if wildcards.index(player) != i:
                raise _Problem(f"finals.wildcards[{i}]", f"{player!r} is listed twice")
            if finals.players and player not in finals.players:
                raise _Problem(f"finals.wildcards[{i}]", f"{player!r} is not a finalist")
    problem = field_problem(field(names, wildcards), finals.players, wildcards, repr)
    if problem is not None:
        raise _Problem("finals.players" if finals.players else "finals.wildcards", problem)
    return tuple(wildcards)


def _pydantic_message(error: Any) -> str:
    if error["type"] == "string_pattern_mismatch" and error["ctx"]["pattern"] == SCORE:
        return f'{error["input"]!r} is not a score like "2.5-1.5"'
    return plain(error)


def load_tour(path: Path, read: Reader = _read_bytes) -> tuple[Tour, dict[EventType, PointsTable]]:
    """Reads the tour file at `path` and the TRF files it names with `read`, as `parse_tour` does.

    Unreadable files are a TourFileError.
    """
    try:
        text = read(path).decode("utf-8-sig")
    except OSError as error:
        problem = f"cannot read {path}: {error.strerror or error}"
        raise TourFileError([("(file)", problem)]) from None
    except UnicodeDecodeError:
        raise TourFileError([("(file)", f"{path} is not UTF-8 text")]) from None
    except ValueError as error:
        raise TourFileError([("(file)", str(error))]) from None
    return parse_tour(text, path.parent, read)


def tour_schema() -> dict[str, Any]:
    """The published JSON Schema of the tour file, printed by `arbiter schema tour`."""
    return TourFile.model_json_schema()

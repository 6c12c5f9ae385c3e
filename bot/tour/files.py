"""The tour file door of docs/tour-file.md: a tour's stored facts written out, and a file read back.

The file holds the tour's points tables, its Ambassadors, every finished Regular and Major event and
the Finals. An event has its preliminary games with pairing order, DE reading and drawing of lots,
and each knock-out round's day scores, play-off and winner. The Finals have their finalists and
decided matches. `arbiter tour` on the file thus computes exactly what the bot shows. A tour file is
read back as a new tour, with historic events stored by their known results.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from fractions import Fraction
from typing import Any

from bot.formats.tour_file import TourFileError, parse_tour_file, points_table
from bot.formats.tour_models import EventModel, FinalsModel, KnockoutModel
from bot.kernel.actor import Actor, Role
from bot.kernel.config import Config
from bot.kernel.errors import UserError, quote_mark
from bot.kernel.inputs import NAME_LIMIT, clean_text, named
from bot.tour.finals import field as finals_field
from bot.tour.game_names import ROUND_NAMES, TIE_OF, finals_key
from bot.tour.references import find_tour
from bot.tour.store import LoadedEvent, LoadedTour, load_event, load_tour
from core.points import decimal_text
from core.results import STANDARD, Result, Scoring
from core.tiebreaks import DeReading
from core.tour.event_facts import (
    FinalsMatchState,
    finals_matches,
    knockout_state,
    preliminary_order,
    round_robin,
)
from core.tour.knockout import ContestStatus
from core.tour.preliminary import SCORINGS, scoring_name
from core.tour.published_scores import blitz_decides, series_decided_by_matches, series_matches
from core.tour.ranking import KNOCKOUT_PLACES, EventType, PointsTable
from core.tour.rules import TourRules
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS, Phase
from storage.guild import GuildStore, TourUnit
from storage.tour.codecs import table_data
from storage.tour.events import FinalsDecline, NewEvent, TourEventRecord
from storage.tour.games import NewGame
from storage.tour.tours import TourRecord

EVENT_LENGTH = dt.timedelta(days=8)
"""CCT-2: an event's last day is 8 days after its first, 9 days in all."""


def _table(table: PointsTable) -> dict[str, Any]:
    data = table_data(table)
    data.pop("label")
    return data


def _pair(first: object, second: object) -> str:
    return f"{decimal_text(first)}-{decimal_text(second)}"  # type: ignore[arg-type]  # a score pair: Fractions


def _knockout_round(status: ContestStatus, key: str, higher: str, lower: str) -> dict[str, Any]:
    """A knock-out round as the tour file writes it, from its replayed games by CCT-8d."""
    entry: dict[str, Any] = {"round": key, "a": higher, "b": lower}
    entry["days"] = [_pair(m.first, m.second) for m in status.matches]
    if status.playoff is not None and status.decided_by is not Phase.RAPID:
        playoff: dict[str, Any] = {"blitz": _pair(*status.playoff)}
        if status.decided_by is Phase.ARMAGEDDON:
            playoff["armageddon"] = "a" if status.winner == higher else "b"
        entry["playoff"] = playoff
    entry["winner"] = str(status.winner)
    return entry


def _recorded_round(data: dict[str, Any], key: str, names: dict[int, str]) -> dict[str, Any]:
    """A knock-out round imported by its known result, written back as it was read."""
    entry: dict[str, Any] = {"round": key, "a": names[data["a"]], "b": names[data["b"]]}
    for field in ("days", "playoff"):
        if data.get(field) is not None:
            entry[field] = data[field]
    entry["winner"] = names[data["winner"]]
    if data.get("walkover"):
        entry["walkover"] = True
        entry.update(_award_fields(data))
    return entry


def _award_fields(data: dict[str, Any]) -> dict[str, Any]:
    """A CCT-9 walkover's reason and note as the file writes them, when known."""
    return {field: data[field] for field in ("reason", "note") if data.get(field) is not None}


def _event_document(event: LoadedEvent, tour_scoring: Scoring = STANDARD) -> dict[str, Any]:
    """One finished event as the tour file writes it.

    Its `scoring` is written when it or the tour's is not 1/½/0. By CCT-8a an event without one
    takes the tour's when read back.
    """
    record, facts = event.record, event.facts
    document: dict[str, Any] = {
        "name": record.name,
        "type": record.type.value,
        "start": record.start.isoformat(),
        "end": (record.start + EVENT_LENGTH).isoformat(),
        "third_place_match": record.third_place_match,
    }
    if record.points is not None:
        document["points"] = _table(record.points)
    if record.scoring != STANDARD or tour_scoring != STANDARD:
        document["scoring"] = scoring_name(record.scoring)
    if facts.recorded_order is not None:
        document["preliminary"] = {"order": [str(p) for p in facts.recorded_order]}
    else:
        preliminary: dict[str, Any] = {
            "players": [str(p) for p in facts.players],
            "games": [
                {"round": g.round, "white": g.white, "black": g.black, "result": g.result.value}
                for g in sorted(facts.prelim_games, key=lambda g: (g.round, str(g.white)))
            ],
            "tiebreaks": facts.reading.value,
        }
        if facts.lots_seed is not None:
            preliminary["lots"] = facts.lots_seed
        document["preliminary"] = preliminary
    rounds = []
    for tie, state in knockout_state(facts).ties.items():
        key = ROUND_NAMES[tie]
        recorded = event.contests.get(key)
        if state.status is None and recorded is not None and recorded.recorded is not None:
            rounds.append(_recorded_round(recorded.recorded, key, dict(event.names)))
        elif state.status is not None:
            rounds.append(
                _knockout_round(
                    state.status, key, str(state.pairing.higher), str(state.pairing.lower)
                )
            )
    document["knockout"] = rounds
    return document


def tour_document(loaded: LoadedTour) -> dict[str, Any]:
    """The tour file of the tour's stored facts.

    Only finished events are written, since an event still being played has no placings yet.
    """
    rules = loaded.rules
    written: dict[str, Any] = {
        "points": {kind.value: _table(table) for kind, table in rules.points.items()}
    }
    if rules.scoring != STANDARD:
        written["scoring"] = scoring_name(rules.scoring)
    document: dict[str, Any] = {
        "name": loaded.record.name,
        "rules": written,
        "ambassadors": list(loaded.ambassadors),
        "events": [
            _event_document(e, rules.scoring) for e in loaded.events if e.record.id in loaded.played
        ],
    }
    if loaded.expelled:
        document["expelled"] = list(loaded.expelled)
    finals = loaded.finals()
    tour = loaded.tour()
    if finals is not None and tour.finals is not None:
        document["finals"] = {
            "players": [str(p) for p in tour.finals.players],
            "matches": [_finals_entry(finals, m) for m in finals_matches(finals.facts) if m.winner],
        }
    if finals is not None and (tour.finals is not None or loaded.declines or tour.finals_wildcards):
        field = document.setdefault("finals", {})
        field["declined"] = [_decline(d) for d in loaded.declines]
        wildcards = list(tour.finals_wildcards)
        if "players" in field:  # drawn: in pairing order, as an import enters them
            wildcards.sort(key=field["players"].index)
        field["wildcards"] = wildcards
    return document


def _decline(decline: FinalsDecline) -> dict[str, str]:
    """CCT-3: a Finals decline as the tour file writes it, see docs/tour-file.md."""
    entry = {"player": decline.name}
    if decline.note is not None:
        entry["note"] = decline.note
    return entry


def _finals_entry(finals: LoadedEvent, match: FinalsMatchState) -> dict[str, Any]:
    """A decided Finals match as the file writes it.

    An awarded one has `walkover` and its CCT-9 reason.
    """
    pairing = match.pairing
    entry: dict[str, Any] = {
        "a": str(pairing.white),
        "b": str(pairing.black),
        "winner": str(match.winner),
        "decided": "rapid" if match.rapid else "tiebreak",
    }
    row = finals.contests.get(finals_key(pairing.round, pairing.board))
    if match.record is not None and match.record.walkover:
        entry["walkover"] = True
        if row is not None and row.recorded is not None:
            entry.update(_award_fields(row.recorded))
    return entry


def file_name(tour: str) -> str:
    """A safe attachment name for the tour's file."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", tour).strip("-.") or "tour"
    return f"{stem[:60]}.tour.json"


async def export_tour_file(store: GuildStore, tour: str) -> tuple[str, bytes]:
    """`/tour export` and `arbiter tour export`: the file name and the JSON bytes."""
    async with store.read() as view:
        record = await find_tour(view, tour)
        loaded = await load_tour(view, record)
    data = json.dumps(tour_document(loaded), indent=2, ensure_ascii=False) + "\n"
    return file_name(record.name), data.encode()


def _no_trf(path: object) -> bytes:
    raise ValueError("a tour file read in Discord cannot name a TRF file: give `order` or `games`")


async def import_tour_file(
    store: GuildStore, actor: Actor, config: Config, data: bytes, name: str | None = None
) -> TourRecord:
    """`/tour import`: a tour file stored as a new tour, in one unit of work.

    The tour is named `name`, by default the file's name. It stores the events with their known
    results, the Finals with their decided matches, and its Ambassadors. A bad file is refused
    naming its first problems.
    """
    actor.require(Role.HQ)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError("The tour file is not UTF-8 text.") from None
    try:
        model, parsed, tables = parse_tour_file(
            text, read=_no_trf, finals_size=config.rules.cct.finals_players
        )
    except TourFileError as error:
        # The problems quote the file's text (names as written): marked, shown as typed.
        first = "; ".join(quote_mark(f"{where}: {what}") for where, what in error.problems[:3])
        more = f" (and {len(error.problems) - 3} more)" if len(error.problems) > 3 else ""
        raise UserError(f"The tour file cannot be used: {first}{more}.") from None
    title = clean_text(name if name is not None else model.name, "tour name", NAME_LIMIT)
    base = config.rules.cct.tour_rules(config.timezones.appeals)
    rules = TourRules(
        base.sizes,
        base.qualifying_top,
        tables,
        base.appeal_deadline,
        base.appeal_zone,
        base.reconnect_seconds,
        base.confirm_hours,
        base.session_start,
        base.ambassador_pool,
        base.round_reminder_minutes,
        SCORINGS[model.rules.scoring],
    )
    finals = rules.sizes[EventType.FINALS]
    if model.finals is not None and model.finals.players and len(model.finals.players) != finals:
        raise UserError(
            f"The tour file cannot be used: its Finals have {len(model.finals.players)} "
            f"players, not the tour's {finals} (CCT-8f, `[rules.cct] finals_players`)."
        )
    async with store.tour_change(actor.user_id, "tour.import", f"tour:{title}") as uow:
        if await uow.tours.by_name(title) is not None:
            raise UserError(f"A tour named {named(title)} exists already.")
        tour = await uow.tours.create(title, rules, created_by=actor.user_id)
        ids: dict[str, int] = {}
        last = dt.date(2000, 1, 1)
        for event in model.events:
            last = await _import_event(uow, tour, event, tables, ids) or last
        for ambassador in model.ambassadors:
            player = await _player(uow, tour, ambassador, ids)
            await uow.tours.set_ambassador(player, True)
        for name in model.expelled:
            await uow.tours.expel(await _player(uow, tour, name, ids))
        if model.finals is not None:
            start = last + dt.timedelta(days=9)
            wildcards = {str(p) for p in parsed.finals_wildcards}
            held = await _import_finals(uow, tour, model.finals, wildcards, ids, start)
            await finals_field.check_field(uow, held, "imported")
        return tour


async def _player(uow: TourUnit, tour: TourRecord, name: str, ids: dict[str, int]) -> int:
    if name not in ids:
        clean_text(name, "tour file's player name", NAME_LIMIT)  # the name gate of /event
        ids[name] = (await uow.tours.add_player(tour.id, name)).id
    return ids[name]


async def _import_event(
    uow: TourUnit,
    tour: TourRecord,
    model: EventModel,
    tables: dict[EventType, PointsTable],
    ids: dict[str, int],
) -> dt.date:
    """One Regular or Major event with its known results."""
    kind = EventType(model.type)
    clean_text(model.name, "tour file's event name", NAME_LIMIT)  # the name gate of /event
    prelim = model.preliminary
    names = list(prelim.players or prelim.order or ())
    start = dt.date.fromisoformat(model.start) if model.start else dt.date(2000, 1, 1)
    table = points_table(model.points, f"{model.name} table") if model.points else tables[kind]
    record = await uow.tour_events.create(
        tour.id,
        NewEvent(
            model.name,
            kind,
            len(names),
            start,
            model.third_place_match,
            DeReading(prelim.tiebreaks),
            table,
            DEFAULT_TIME_CONTROLS,
            tour.rules.round_reminder_minutes,
            SCORINGS[model.scoring] if model.scoring else tour.rules.scoring,
        ),
    )
    for player in names:
        await uow.tour_events.add_player(record, await _player(uow, tour, player, ids))
    if prelim.games is not None:
        await uow.tour_events.record_draw(
            record.id, None, {ids[p]: n for n, p in enumerate(names, start=1)}, None
        )
        pairings = {frozenset((str(p.white), str(p.black))): p for p in round_robin(tuple(names))}
        await uow.tour_games.add_many(
            tour.id,
            record.id,
            [
                NewGame(
                    "preliminary",
                    ids[g.white],
                    ids[g.black],
                    None,
                    g.round,
                    pairings[frozenset((g.white, g.black))].board
                    if frozenset((g.white, g.black)) in pairings
                    else 1,
                    result=Result(g.result),
                )
                for g in prelim.games
            ],
        )
        loaded_order = await _order_of(uow, record.id)
        await uow.tour_events.start_knockout(
            record.id, [ids[p] for p in loaded_order[:KNOCKOUT_PLACES]], prelim.lots, None
        )
    else:
        order = names
        await uow.tour_events.record_results(
            record.id,
            {ids[p]: place for place, p in enumerate(order, start=1)},
            [ids[p] for p in order[:KNOCKOUT_PLACES]],
        )
    await uow.tour_games.record_contests(
        record.id,
        [
            (
                ROUND_NAMES[TIE_OF[k.round.casefold()]],
                {
                    "a": ids[k.a],
                    "b": ids[k.b],
                    "winner": ids[_winner(k)],
                    "walkover": k.walkover,
                    **({"reason": k.reason} if k.reason else {}),
                    **({"note": k.note} if k.note else {}),
                    "days": k.days,
                    "playoff": None
                    if k.playoff is None
                    else k.playoff.model_dump(exclude_none=True),
                },
            )
            for k in model.knockout
        ],
    )
    return start


def _winner(k: KnockoutModel) -> str:
    """A knock-out round's winner as the file decides it. The adapter validated it."""
    if k.winner is not None:
        return str(k.winner)
    if k.playoff is not None and k.playoff.armageddon is not None:
        return str(k.a if k.playoff.armageddon == "a" else k.b)
    if k.days:
        days = [(Fraction(d.split("-")[0]), Fraction(d.split("-")[1])) for d in k.days]
        outcome = series_decided_by_matches(series_matches(days))
        if outcome is not None:
            return str(k.a if outcome else k.b)
    assert k.playoff is not None
    blitz = blitz_decides(*(Fraction(x) for x in k.playoff.blitz.split("-")))
    return str(k.a if blitz else k.b)


async def _order_of(uow: TourUnit, event_id: int) -> list[str]:
    """CCT-8b: the preliminary order of an event just imported with its games."""
    record = await uow.tour_events.get(event_id)
    assert record is not None
    loaded = await load_event(uow.view(), record)
    return [str(p) for p in preliminary_order(loaded.facts)]


async def _import_finals(
    uow: TourUnit,
    tour: TourRecord,
    model: FinalsModel,
    wildcards: set[str],
    ids: dict[str, int],
    start: dt.date,
) -> TourEventRecord:
    """The Finals as imported.

    It stores their CCT-3 declines in order and their wildcards, the finalists in their order of
    pairing numbers, and the decided matches, each recorded on its CCT-8f Berger pairing. Finals not
    drawn yet keep only their declines and wildcards.
    """
    record = await uow.tour_events.create(
        tour.id,
        NewEvent(
            "Finals",
            EventType.FINALS,
            tour.rules.sizes[EventType.FINALS],
            start,
            False,
            DeReading.CCT,
            None,
            DEFAULT_TIME_CONTROLS,
            tour.rules.round_reminder_minutes,
        ),
    )
    for decline in model.declined:
        player_id = await _player(uow, tour, decline.player, ids)
        await uow.tour_events.add_decline(record, player_id, decline.note, None)
    entered = model.players or [p for p in model.wildcards or () if p in wildcards]
    for player in entered:
        player_id = await _player(uow, tour, player, ids)
        await uow.tour_events.add_player(record, player_id, wildcard=player in wildcards)
    if not model.players:
        return record
    await uow.tour_events.record_draw(
        record.id, None, {ids[p]: n for n, p in enumerate(model.players, start=1)}, None
    )
    by_pair = {
        frozenset((str(p.white), str(p.black))): p for p in round_robin(tuple(model.players))
    }
    await uow.tour_games.record_contests(
        record.id,
        [
            (
                finals_key(
                    by_pair[frozenset((m.a, m.b))].round, by_pair[frozenset((m.a, m.b))].board
                ),
                {
                    "a": ids[m.a],
                    "b": ids[m.b],
                    "winner": ids[m.winner],
                    "decided": m.decided,
                    **(
                        {"walkover": True, "reason": m.reason, "note": m.note} if m.walkover else {}
                    ),
                },
            )
            for m in model.matches
        ],
    )
    return record

"""The tour's database adapter: stored facts read back as core values.

An event's stored facts are read as the core's `EventFacts`, with players named and only settled
results. A tour's events are read as the core's `Tour`. These are the same values the tour-file
adapter produces, so the bot and `arbiter tour` compute the same standings, placings, points and
Finals table from them.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar, cast

from bot.tour.game_names import (
    ROUND_NAMES,
    TIE_OF,
    contest_game_name,
    finals_key_of,
    pairing_name,
)
from core.tour.event_facts import (
    AwardReason,
    ContestFacts,
    ContestRecord,
    EventFacts,
    Pairing,
    PrelimGame,
    finals_results,
    played_event,
    round_robin,
)
from core.tour.events import PlayedEvent
from core.tour.finals import bonus_points
from core.tour.knockout import PlayedGame, Tie
from core.tour.qualification import FinalsField
from core.tour.ranking import EventType, tour_records
from core.tour.ranking import TourRecord as RankRecord
from core.tour.report import FinalsResults, Tour, event_finals_field
from core.tour.rules import TourRules
from storage.engine.database import Database
from storage.guild import GuildStore, GuildView
from storage.tour.events import EventPlayer, FinalsDecline, TourEventRecord
from storage.tour.games import ContestRow, TourGame
from storage.tour.tours import TourPlayer, TourRecord

T = TypeVar("T")


@dataclass(frozen=True)
class LoadedEvent:
    """An event with everything stored about it, and its facts for core.

    `names` maps tour player ids to names, which are the facts' player identities, and `ids` maps
    back.
    """

    record: TourEventRecord
    players: tuple[EventPlayer, ...]
    games: tuple[TourGame, ...]
    contests: Mapping[str, ContestRow]
    names: Mapping[int, str]
    facts: EventFacts
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Values derived from the facts, computed once per loaded event by `derived`."""

    def derived(self, key: str, compute: Callable[[], T]) -> T:
        """Calls `compute()` once for this loaded event. The facts never change in it."""
        if key not in self.memo:
            self.memo[key] = compute()
        return cast(T, self.memo[key])

    def with_game(self, game: TourGame) -> LoadedEvent:
        """The event as it is with `game` stored as given (added or replaced): what a unit
        of work's change leaves, computed without reading it back."""
        games = [g for g in self.games if g.id != game.id] + [game]
        games.sort(key=lambda g: g.id)
        facts = event_facts_of(self.record, self.players, games, self.contests)
        return LoadedEvent(
            self.record, self.players, tuple(games), self.contests, self.names, facts
        )

    def with_contest(self, contest: ContestRow) -> LoadedEvent:
        """The event as it is with `contest` stored as given (an award, CCT-9)."""
        contests = {**self.contests, contest.key: contest}
        facts = event_facts_of(self.record, self.players, self.games, contests)
        return LoadedEvent(self.record, self.players, self.games, contests, self.names, facts)

    def user_of(self, name: str) -> int | None:
        """The member linked to the event's player `name`, if any."""
        return next((p.user_id for p in self.players if p.name == name), None)

    def player_of_user(self, user_id: int) -> str | None:
        """The event's player linked to member `user_id`, if any."""
        return next((p.name for p in self.players if p.user_id == user_id), None)

    @property
    def ids(self) -> dict[str, int]:
        """Player name → tour player id."""
        return {name: player for player, name in self.names.items()}

    @property
    def by_pairing(self) -> tuple[EventPlayer, ...]:
        """The players in pairing-number order, after the draw."""
        drawn = [p for p in self.players if p.pairing_no is not None]
        return tuple(sorted(drawn, key=lambda p: p.pairing_no or 0))

    @property
    def round_robin(self) -> tuple[Pairing, ...]:
        """CORE-1: the games of the event's round robin by the Berger table, made once per
        loaded event."""
        return self.derived("round robin", lambda: round_robin(self.facts.players))

    def game_name(self, game: TourGame) -> str:
        """The game's name in commands, such as `R3 A v B`, `QF1 day 1 game 3` or `R2 A v B game
        3`.
        """
        if game.stage == "preliminary":
            assert game.round is not None
            return pairing_name(game.round, self.names[game.white_id], self.names[game.black_id])
        return contest_game_name(
            self.contest_name(game.contest or ""),
            game.phase,
            game.match_no,
            game.game_no,
            days=game.stage == "knockout",
        )

    def contest_name(self, key: str) -> str:
        """A knock-out round's name, its key, or a Finals match's, such as `R3 A v B`."""
        if self.record.type is not EventType.FINALS:
            return key
        round_no, board = finals_key_of(key)
        pairing = next(p for p in self.round_robin if p.round == round_no and p.board == board)
        return pairing_name(round_no, str(pairing.white), str(pairing.black))


def _settled_games(games: Sequence[TourGame], names: Mapping[int, str]) -> list[PlayedGame]:
    ordered = sorted((g for g in games if g.status.settled), key=lambda g: g.order)
    return [
        PlayedGame(g.phase, names[g.white_id], names[g.black_id], g.result, g.match_no)  # type: ignore[arg-type]  # stored as the Literal text
        for g in ordered
    ]


def _record(data: Mapping[str, object] | None, names: Mapping[int, str]) -> ContestRecord | None:
    if data is None:
        return None
    winner = data["winner"]
    assert isinstance(winner, int)
    reason, note = data.get("reason"), data.get("note")
    return ContestRecord(
        names[winner],
        bool(data.get("walkover", False)),
        data.get("decided", "rapid") == "rapid",
        None if reason is None else AwardReason(reason),
        None if note is None else str(note),
    )


def _contest(
    row: ContestRow | None, games: Sequence[TourGame], names: Mapping[int, str]
) -> ContestFacts:
    if row is None:
        return ContestFacts(games=tuple(_settled_games(games, names)))
    return ContestFacts(
        row.colour_game_1,
        row.colour_blitz_1,
        row.colour_armageddon,
        tuple(_settled_games(games, names)),
        _record(row.recorded, names),
    )


def event_facts_of(
    record: TourEventRecord,
    players: Sequence[EventPlayer],
    games: Sequence[TourGame],
    contests: Mapping[str, ContestRow],
) -> EventFacts:
    """The event's facts for core, with players named. Names are unique in a tour."""
    names = {p.player_id: p.name for p in players}
    drawn = sorted(
        (p for p in players if p.pairing_no is not None), key=lambda p: p.pairing_no or 0
    )
    seeds = sorted((p for p in players if p.ko_seed is not None), key=lambda p: p.ko_seed or 0)
    prelim = [
        PrelimGame(g.round or 0, names[g.white_id], names[g.black_id], g.result)  # type: ignore[arg-type]  # stored as the Literal text
        for g in games
        if g.stage == "preliminary" and g.status.settled
    ]
    by_contest: dict[str, list[TourGame]] = {}
    for g in games:
        if g.contest is not None:
            by_contest.setdefault(g.contest, []).append(g)
    keys = set(by_contest) | set(contests)
    series: dict[Tie, ContestFacts] = {}
    finals: dict[tuple[int, int], ContestFacts] = {}
    for key in keys:
        facts = _contest(contests.get(key), by_contest.get(key, []), names)
        if record.type is EventType.FINALS:
            finals[finals_key_of(key)] = facts
        else:
            series[TIE_OF[key.casefold()]] = facts
    recorded_order = None
    if record.recorded:
        placed = sorted(
            (p for p in players if p.recorded_place is not None),
            key=lambda p: p.recorded_place or 0,
        )
        recorded_order = tuple(p.name for p in placed)
    return EventFacts(
        name=record.name,
        type=record.type,
        players=tuple(p.name for p in drawn),
        prelim_games=tuple(prelim),
        reading=record.reading,
        lots_seed=record.lots_seed,
        seeds=tuple(p.name for p in seeds),
        series=series,
        finals=finals,
        third_place_match=record.third_place_match,
        points_table=record.points,
        recorded_order=recorded_order,
        time_controls=record.time_controls,
        scoring=record.scoring,
    )


async def load_event(view: GuildView, record: TourEventRecord) -> LoadedEvent:
    """Everything stored about the event (three queries), with its facts."""
    players = tuple(await view.tour_events.players(record.id))
    games = tuple(await view.tour_games.of_event(record.id))
    contests = {c.key: c for c in await view.tour_games.contests(record.id)}
    facts = event_facts_of(record, players, games, contests)
    names = {p.player_id: p.name for p in players}
    return LoadedEvent(record, players, games, contests, names, facts)


EVENTS_KEPT = 256
"""Loaded events kept per database for reads: the events in play at a busy shard."""


class EventCache:
    """Loaded events by guild and event, each kept at the version it was read at.

    Every change to an event bumps its version, so a kept event whose record equals the one a
    read finds is what the database holds. Only read views fill it and use it, since they see
    committed data; a unit of work always loads.
    """

    def __init__(self, size: int = EVENTS_KEPT) -> None:
        self._entries: OrderedDict[tuple[int, int], LoadedEvent] = OrderedDict()
        self._size = size

    def get(self, guild_id: int, record: TourEventRecord) -> LoadedEvent | None:
        """The kept event at `record`'s version, or None."""
        found = self._entries.get((guild_id, record.id))
        if found is None or found.record != record:
            return None
        self._entries.move_to_end((guild_id, record.id))
        return found

    def put(self, guild_id: int, loaded: LoadedEvent) -> None:
        """Keeps `loaded`, forgetting the least recently used event beyond the size."""
        self._entries[(guild_id, loaded.record.id)] = loaded
        self._entries.move_to_end((guild_id, loaded.record.id))
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)


_caches: weakref.WeakKeyDictionary[Database, EventCache] = weakref.WeakKeyDictionary()


async def read_loaded(store: GuildStore, view: GuildView, record: TourEventRecord) -> LoadedEvent:
    """The event as `load_event` gives it, for a read view of `store`.

    A version read before comes from the database's `EventCache`, so a table, a bracket or an
    autocomplete asked again costs one query.
    """
    cache = _caches.setdefault(store.database, EventCache())
    found = cache.get(store.guild_id, record)
    if found is None:
        found = await load_event(view, record)
        cache.put(store.guild_id, found)
    return found


@dataclass(frozen=True)
class LoadedTour:
    """A tour with its players and every event loaded."""

    record: TourRecord
    players: tuple[TourPlayer, ...]
    events: tuple[LoadedEvent, ...]
    played: Mapping[int, PlayedEvent] = field(default_factory=dict)
    """The finished Regular and Major events, mapping event id to the event as the ranking counts
    it.
    """
    declines: tuple[FinalsDecline, ...] = ()
    """CCT-3: the players who declined the Finals, in the order they did."""

    @property
    def rules(self) -> TourRules:
        """CCT-16: the tour's frozen rules."""
        return self.record.rules

    @property
    def ambassadors(self) -> tuple[str, ...]:
        """CCT-3/CCT-5: the Tour Ambassadors' names."""
        return tuple(p.name for p in self.players if p.ambassador)

    @property
    def expelled(self) -> tuple[str, ...]:
        """CCT-9: players expelled, in breach, who get no prize by CCT-5."""
        return tuple(p.name for p in self.players if p.expelled)

    def finals(self) -> LoadedEvent | None:
        """The tour's Finals event, if it has one."""
        return next((e for e in self.events if e.record.type is EventType.FINALS), None)

    def played_before(self, event: LoadedEvent) -> list[PlayedEvent]:
        """CCT-6: the finished events before `event` in tour order."""
        return [
            self.played[e.record.id]
            for e in self.events
            if e.record.position < event.record.position and e.record.id in self.played
        ]

    def records_before(self, event: LoadedEvent) -> dict[str, RankRecord]:
        """CCT-6: every player's tour record over the finished events before `event`."""
        frozen = [
            p.tour_event().with_points_table(self.rules.points) for p in self.played_before(event)
        ]
        return {str(p): r for p, r in tour_records(frozen, self.rules.points).items()}

    def finals_bonus(self, finals: LoadedEvent) -> dict[str, Fraction]:
        """CCT-8f: each finalist's bonus from the tour points at the Finals' start, from the
        events before it.
        """
        records = self.records_before(finals)
        points: dict[Hashable, int] = {
            p: records[str(p)].points if str(p) in records else 0 for p in finals.facts.players
        }
        return {str(p): b for p, b in bonus_points(points).items()} if points else {}

    def tour(self) -> Tour:
        """The tour as core's report takes it: the finished events in order, and the Finals
        once drawn."""
        events = tuple(self.played[e.record.id] for e in self.events if e.record.id in self.played)
        finals = self.finals()
        results: FinalsResults | None = None
        if finals is not None and finals.facts.players:
            results = finals_results(finals.facts)
        return Tour(
            self.record.name,
            events,
            results,
            self.ambassadors,
            self.expelled,
            tuple(d.name for d in self.declines),
            self.wildcards(),
        )

    def wildcards(self) -> tuple[str, ...]:
        """CCT-3: the players entered in the Finals as wildcards, in entry order."""
        finals = self.finals()
        return () if finals is None else tuple(p.name for p in finals.players if p.wildcard)

    def finals_field(
        self, finals: LoadedEvent, declined: Sequence[str] | None = None
    ) -> FinalsField:
        """CCT-3: the Finals field from the events finished before `finals`, its declines and its
        wildcards.

        With `declined` it uses those declines in order, which is what a decline or its withdrawal
        would leave.
        """
        if declined is None:
            declined = tuple(d.name for d in self.declines)
        return event_finals_field(
            self.played_before(finals),
            finals.record.size,
            ambassadors=self.ambassadors,
            tables=self.rules.points,
            expelled=self.expelled,
            declined=declined,
            wildcards=self.wildcards(),
        )


async def load_tour(view: GuildView, record: TourRecord) -> LoadedTour:
    """The tour, its players and every event loaded.

    Finished events become `PlayedEvent`s, and the Finals' CCT-3 declines are read.
    """
    players = tuple(await view.tours.players(record.id))
    events = tuple([await load_event(view, e) for e in await view.tour_events.of_tour(record.id)])
    declines: tuple[FinalsDecline, ...] = ()
    for event in events:
        if event.record.type is EventType.FINALS:
            declines = tuple(await view.tour_events.declines(event.record.id))
    played = {}
    for event in events:
        if event.record.type is EventType.FINALS:
            continue
        finished = played_event(event.facts)
        if finished is not None:
            played[event.record.id] = finished
    return LoadedTour(record, players, events, played, declines)


def round_name(tie: Tie) -> str:
    """A knock-out round's name, QF1 to SF2, F or 3rd."""
    return ROUND_NAMES[tie]

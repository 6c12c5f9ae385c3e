"""The demo tour of a seed, for `arbiter demo --tour`.

It has fourteen players of known strength, two Regular events and a Major of 8, then a 10-player
Finals. Every result is decided here with the rules of core/: the draw's Berger pairings, CCT-8b
standings, CCT-8c to CCT-8e series, CCT-3 qualification and CCT-8f matches. The script thus knows
each game's name and colours before the bot plays it. The same seed gives the same tour, and the bot
then computes every standing itself.

Some moments are staged on purpose, one each. A Regular game is found on chess.com and one on
lichess.org by the bot's polling, confirmed by a click and by the 12-hour timer. Player reports are
confirmed by the opponent. A disputed report is settled by an arbiter. A disconnection is ruled lost
by CCT-10. An appeal is lodged in time and a late one refused by CCT-11. A Major quarter-final is
decided by Armageddon, where a draw means Black wins by CCT-7 and CCT-8d.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import chess

from bot.tour.game_names import ROUND_NAMES, contest_game_name, pairing_name
from core.results import Result
from core.tour.event_facts import (
    EventFacts,
    Pairing,
    PrelimGame,
    preliminary_standings,
    round_robin,
)
from core.tour.events import ROUND_ORDER, KnockoutResult, PlayedEvent
from core.tour.finals import finals_match_status
from core.tour.knockout import (
    Bracket,
    ColourChoice,
    ContestStatus,
    PlayedGame,
    SeriesChoices,
    Tie,
    series_status,
)
from core.tour.preliminary import ties_for_places_going_on
from core.tour.qualification import QualificationList
from core.tour.ranking import DEFAULT_POINTS_TABLES, EventType
from core.tour.report import event_qualification
from core.tour.timecontrols import Phase

NAMES = (
    "Alina Varga",
    "Bodhi Marsh",
    "Chiara Conti",
    "Dmitri Okafor",
    "Esme Lindqvist",
    "Farouk Haddad",
    "Greta Novak",
    "Hiro Tanaka",
    "Ines Duarte",
    "Jonas Weber",
    "Kavya Rao",
    "Luca Moreau",
    "Maya Cohen",
    "Nils Berg",
)
SIZE = 8
"""Players of each Regular and the Major, the demo's small events. 8 go on to the knock-out."""
FINALISTS = 10
"""CCT-2: the Finals' players."""
TOUR = "Demo Tour"
EVENTS = (
    ("Spring Regular", EventType.REGULAR, dt.date(2026, 3, 2)),
    ("Equinox Regular", EventType.REGULAR, dt.date(2026, 3, 16)),
    ("Easter Major", EventType.MAJOR, dt.date(2026, 3, 30)),
    ("Tour Finals", EventType.FINALS, dt.date(2026, 4, 13)),
)
"""The tour's events in order: name, type and first day. By CCT-2 each lasts 9 days."""


@dataclass(frozen=True)
class DemoPlayer:
    """A player: their name, their member's name in the guild, and their strength, 0 being best."""

    name: str
    member: str
    strength: int


@dataclass(frozen=True)
class Report:
    """A game's result as the script enters it: the game's name and `1-0`, `½-½` or `0-1`."""

    game: str
    result: str
    white: str
    black: str


@dataclass(frozen=True)
class Choice:
    """A CCT-8e colour choice: the contest, the colour and who chooses.

    The chooser is a player's name, or None for the organiser in a Finals play-off.
    """

    contest: str
    colour: str
    chooser: str | None


Item = Report | Choice


@dataclass
class EventPlan:
    """One event as the script plays it.

    It holds its entrants in entry order, the draw's seed and the pairing numbers it gives, the
    preliminary's results by round and board and the order they give. It also holds each knock-out
    round's or Finals match's choices and games in playing order, by day.
    """

    name: str
    type: EventType
    start: dt.date
    entrants: tuple[str, ...]
    seed: str
    numbers: tuple[str, ...] = ()
    pairings: tuple[Pairing, ...] = ()
    prelim: dict[tuple[int, int], Result] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    series: dict[Tie, list[Item]] = field(default_factory=dict)
    finals: dict[tuple[int, int], list[Item]] = field(default_factory=dict)
    armageddon: Tie | None = None
    played: PlayedEvent | None = None

    def prelim_reports(self, round_no: int) -> list[Report]:
        """The preliminary games of a round, as entered."""
        return [
            Report(
                pairing_name(p.round, str(p.white), str(p.black)),
                result_text(self.prelim[(p.round, p.board)]),
                str(p.white),
                str(p.black),
            )
            for p in self.pairings
            if p.round == round_no
        ]


@dataclass
class TourWorld:
    """The seed's tour: players, events planned, the Ambassadors and the staged moments."""

    seed: int
    players: tuple[DemoPlayer, ...]
    events: list[EventPlan]
    ambassadors: tuple[str, ...] = ()
    chesscom_pair: tuple[str, str] = ("", "")
    lichess_pair: tuple[str, str] = ("", "")

    def player(self, name: str) -> DemoPlayer:
        """The player of that name."""
        return next(p for p in self.players if p.name == name)


def result_text(result: Result) -> str:
    """A result as a player writes it in `/game report`."""
    return "½-½" if result is Result.DRAW else result.value


def _member(name: str) -> str:
    """A player's member in the guild: their first name, lowercase."""
    return name.split()[0].lower()


def _rng(seed: int, what: str) -> random.Random:
    """A random stream of the seed for one purpose. The same seed gives the same stream."""
    return random.Random(f"{seed}:{what}")


def _result(white: str, black: str, strength: dict[str, int], rng: random.Random) -> Result:
    """Mostly the stronger wins, sometimes it is a draw, and rarely an upset."""
    stronger_white = strength[white] < strength[black]
    roll = rng.random()
    if roll < 0.22:
        return Result.DRAW
    upset = roll > 0.9
    return Result.WHITE_WIN if stronger_white != upset else Result.BLACK_WIN


def _preliminary(plan: EventPlan, strength: dict[str, int], seed: int) -> None:
    """Results without a tie left after every CCT-8b criterion for a place that goes on.

    By CCT-8c the knock-out must start. If a tie is left, it tries again from the next sub-seed.
    """
    from core.berger import draw_lots

    plan.numbers = tuple(draw_lots(list(plan.entrants), plan.seed))
    plan.pairings = round_robin(plan.numbers)
    for attempt in range(100):
        rng = _rng(seed, f"{plan.name}:prelim:{attempt}")
        results = {
            (p.round, p.board): _result(str(p.white), str(p.black), strength, rng)
            for p in plan.pairings
        }
        facts = EventFacts(
            plan.name,
            plan.type,
            plan.numbers,
            tuple(
                PrelimGame(p.round, p.white, p.black, results[(p.round, p.board)])
                for p in plan.pairings
            ),
            points_table=DEFAULT_POINTS_TABLES.get(plan.type),
        )
        rows = preliminary_standings(facts)
        if not ties_for_places_going_on(rows, facts.places_that_count):
            plan.prelim = results
            plan.order = tuple(str(row.player) for row in rows)
            return
    raise RuntimeError(f"no tie-free preliminary for {plan.name} in 100 tries")


def _game(slot_white: str, winner: str | None) -> Result:
    """The result of a game that `winner` wins, given who has White. None means drawn."""
    if winner is None:
        return Result.DRAW
    return Result.WHITE_WIN if winner == slot_white else Result.BLACK_WIN


def _series(
    tie: Tie, higher: str, lower: str, winner: str, armageddon: bool
) -> tuple[list[Item], str]:
    """CCT-8d and CCT-8e: a knock-out round played out to the planned winner.

    The higher-ranked player takes White for game 1. Both matches are won 2½-½, with two wins and a
    draw. For the Armageddon round each player wins one match, the blitz ends 1-1, and the
    higher-ranked player, choosing Black, wins the drawn Armageddon by CCT-7.
    """
    name = ROUND_NAMES[tie]
    choices = SeriesChoices(None)
    games: list[PlayedGame] = []
    items: list[Item] = []
    match_winners = (higher, lower) if armageddon else (winner, winner)
    while True:
        status: ContestStatus = series_status(higher, lower, choices, games)
        if status.winner is not None:
            return items, str(status.winner)
        if status.choice_required is not None:
            choice = status.choice_required
            if choice is ColourChoice.MATCH_1_GAME_1:
                choices = replace(choices, match_1_game_1=chess.WHITE)
                colour = "white"
            elif choice is ColourChoice.BLITZ_1:
                choices = replace(choices, blitz_1=chess.WHITE)
                colour = "white"
            else:
                choices = replace(choices, armageddon=chess.BLACK)
                colour = "black"
            items.append(Choice(name, colour, higher))
            continue
        slot = status.next_game
        assert slot is not None
        if slot.phase is Phase.RAPID:
            assert slot.match_no is not None
            wins = match_winners[slot.match_no - 1]
            result = _game(str(slot.white), None if slot.game_no == 3 else wins)
        elif slot.phase is Phase.BLITZ:
            result = _game(str(slot.white), higher if slot.game_no == 1 else lower)
        else:
            result = Result.DRAW  # Armageddon: a draw, Black (the higher-ranked) wins
        games.append(slot.played(result))
        text = contest_game_name(name, slot.phase, slot.match_no, slot.game_no, days=True)
        items.append(Report(text, result_text(result), str(slot.white), str(slot.black)))


def _knockout(plan: EventPlan, strength: dict[str, int], seed: int) -> None:
    """CCT-8c: the bracket from the preliminary order, each round to its planned winner.

    The planned winner is the stronger player, now and then the other. The Major's Armageddon round
    is staged.
    """
    rng = _rng(seed, f"{plan.name}:knockout")
    bracket = Bracket(plan.order[:8])
    winners: dict[Tie, str] = {}
    results = []
    for tie in ROUND_ORDER:
        pairing = bracket.pairings(winners)[tie]
        higher, lower = str(pairing.higher), str(pairing.lower)
        stronger = min((higher, lower), key=strength.__getitem__)
        winner = stronger if rng.random() < 0.8 else (lower if stronger == higher else higher)
        staged = tie is plan.armageddon
        items, won = _series(tie, higher, lower, higher if staged else winner, staged)
        plan.series[tie] = items
        winners[tie] = won
        results.append(KnockoutResult(tie, higher, lower, won))
    plan.played = PlayedEvent(
        plan.name,
        plan.type,
        plan.order,
        tuple(results),
        True,
        DEFAULT_POINTS_TABLES[plan.type],
    )


def _finals(plan: EventPlan, strength: dict[str, int], seed: int) -> None:
    """CCT-8f: every Finals match played to its planned winner.

    Most are won 2½-½ in the rapid games. Two have four draws and two blitz wins, with the organiser
    giving the Berger White the first blitz game's White.
    """
    from core.berger import draw_lots

    rng = _rng(seed, "finals")
    plan.numbers = tuple(draw_lots(list(plan.entrants), plan.seed))
    plan.pairings = round_robin(plan.numbers)
    tiebreaks = set(rng.sample(range(len(plan.pairings)), 2))
    for index, pairing in enumerate(plan.pairings):
        white, black = str(pairing.white), str(pairing.black)
        stronger = min((white, black), key=strength.__getitem__)
        weaker = black if stronger == white else white
        winner = stronger if rng.random() < 0.7 else weaker
        label = pairing_name(pairing.round, white, black)
        games: list[PlayedGame] = []
        items: list[Item] = []
        blitz_white: str | None = None
        while True:
            status = finals_match_status(white, black, games, blitz_white)
            if status.winner is not None:
                break
            if status.choice_required is not None:
                assert status.choice_required is ColourChoice.BLITZ_1
                blitz_white = white
                items.append(Choice(label, "white", None))
                continue
            slot = status.next_game
            assert slot is not None
            if slot.phase is Phase.RAPID:
                decisive = slot.game_no < 3 and index not in tiebreaks
                result = _game(str(slot.white), winner if decisive else None)
            else:
                result = _game(str(slot.white), winner)
            games.append(slot.played(result))
            text = contest_game_name(label, slot.phase, slot.match_no, slot.game_no, days=False)
            items.append(Report(text, result_text(result), str(slot.white), str(slot.black)))
        plan.finals[(pairing.round, pairing.board)] = items


def _qualified(
    listed: QualificationList, size: int, pool: Sequence[str], strength: dict[str, int]
) -> list[str]:
    """CCT-3: the qualified players, then the organiser's wildcards for the places left.

    The wildcards are the strongest of the pool not yet in.
    """
    names = [str(q.player) for q in listed.qualified]
    rest = sorted((p for p in pool if p not in names), key=strength.__getitem__)
    return (names + rest)[:size]


def generate(seed: int) -> TourWorld:
    """The demo tour of `seed`, as the module docstring describes."""
    rng = _rng(seed, "players")
    order = list(NAMES)
    rng.shuffle(order)
    strength = {name: rank for rank, name in enumerate(order)}
    players = tuple(DemoPlayer(name, _member(name), strength[name]) for name in NAMES)
    world = TourWorld(seed, players, [])
    tables = dict(DEFAULT_POINTS_TABLES)
    played: list[PlayedEvent] = []
    for index, (name, kind, start) in enumerate(EVENTS):
        event_seed = f"demo-{seed}-{index + 1}"
        if kind is EventType.REGULAR:
            entrants = rng.sample(NAMES, SIZE)
        elif kind is EventType.MAJOR:
            listed = event_qualification(played, kind, SIZE, top=8, tables=tables)
            entrants = _qualified(listed, SIZE, NAMES, strength)
            rng.shuffle(entrants)
        else:
            everyone = sorted(
                {str(p) for event in played for p in event.order}, key=strength.__getitem__
            )
            plain = event_qualification(played, kind, FINALISTS, top=8, tables=tables)
            listed_names = {str(q.player) for q in plain.qualified}
            candidates = [p for p in everyone if p not in listed_names]
            world.ambassadors = tuple(sorted(candidates[-2:]))
            listed = event_qualification(
                played, kind, FINALISTS, ambassadors=world.ambassadors, top=8, tables=tables
            )
            entrants = _qualified(listed, FINALISTS, everyone, strength)
        plan = EventPlan(name, kind, start, tuple(entrants), event_seed)
        if kind is EventType.FINALS:
            _finals(plan, strength, seed)
        else:
            if kind is EventType.MAJOR:
                plan.armageddon = (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4)[seed % 4]
            _preliminary(plan, strength, seed)
            _knockout(plan, strength, seed)
            assert plan.played is not None
            played.append(plan.played)
        world.events.append(plan)
    first, second = world.events[0], world.events[1]
    world.chesscom_pair = _decisive_pair(first, 1)
    world.lichess_pair = _decisive_pair(second, 2)
    return world


def _decisive_pair(plan: EventPlan, round_no: int) -> tuple[str, str]:
    """A decisive game of the event's first day, as (White, Black), which is the one a site serves.

    It is of round `round_no` if it has one.
    """
    rounds = [round_no] + [r for r in (1, 2, 3) if r != round_no]
    for wanted in rounds:
        for p in plan.pairings:
            if p.round == wanted and plan.prelim[(p.round, p.board)] is not Result.DRAW:
                return str(p.white), str(p.black)
    raise RuntimeError(f"{plan.name}: no decisive game on day 1")

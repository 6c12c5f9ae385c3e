"""An event's facts and what core derives from them (core/tour/event_facts.py): the draw's
Berger pairings (CORE-1, CCT-8a), the preliminary standings and ties (CCT-8b), the knock-out
from its seeds (CCT-8c-e), the Finals (CCT-8f), the finished event (CCT-6), and the days
games are played on (core/tour/calendar.py)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import chess
import pytest

from core.berger import berger_table, draw_lots
from core.results import Result
from core.tour.calendar import finals_day, knockout_day, preliminary_day, session_start
from core.tour.event_facts import (
    ContestFacts,
    ContestRecord,
    EventFacts,
    PrelimGame,
    finals_finished,
    finals_matches,
    finals_table,
    knockout_state,
    played_event,
    preliminary_complete,
    preliminary_standings,
    round_robin,
)
from core.tour.knockout import KnockoutError, KoStage, PlayedGame, Tie
from core.tour.preliminary import ties_for_places_going_on as unresolved_ties
from core.tour.ranking import EventType
from core.tour.timecontrols import Phase

NAMES = [f"P{n:02d}" for n in range(1, 17)]


def _by_order(players: list[str]) -> list[PrelimGame]:
    rank = {p: i for i, p in enumerate(NAMES)}
    return [
        PrelimGame(
            p.round,
            str(p.white),
            str(p.black),
            Result.WHITE_WIN if rank[str(p.white)] < rank[str(p.black)] else Result.BLACK_WIN,
        )
        for p in round_robin(players)
    ]


def test_core_1_cct_8a_the_same_seed_gives_the_same_numbers_and_berger_pairings() -> None:
    first = draw_lots(NAMES, "tour-2026")
    again = draw_lots(NAMES, "tour-2026")
    assert first == again and draw_lots(NAMES, "other") != first
    table = berger_table(16)
    pairings = round_robin(first)
    assert len(pairings) == 120
    for p in pairings:
        board = table.rounds[p.round - 1][p.board - 1]
        assert (p.white, p.black) == (first[board.white - 1], first[board.black - 1])


def test_cct_8b_standings_come_from_settled_games_and_ties_at_the_cut_are_found() -> None:
    drawn = tuple(draw_lots(NAMES, "s"))
    facts = EventFacts("Open", EventType.REGULAR, drawn, tuple(_by_order(list(drawn))))
    assert preliminary_complete(facts)
    rows = preliminary_standings(facts)
    assert [str(r.player) for r in rows] == NAMES and not unresolved_ties(rows, 8)
    level = EventFacts(
        "Level",
        EventType.REGULAR,
        drawn,
        tuple(PrelimGame(p.round, p.white, p.black, Result.DRAW) for p in round_robin(drawn)),
    )
    assert unresolved_ties(preliminary_standings(level), 8) == (drawn,)
    drawn_by_lot = preliminary_standings(
        EventFacts("Level", EventType.REGULAR, drawn, level.prelim_games, lots_seed="x")
    )
    assert not unresolved_ties(drawn_by_lot, 8) and all(r.by_lot for r in drawn_by_lot)


def _game(phase: Phase, white: str, black: str, result: Result, match: int | None) -> PlayedGame:
    return PlayedGame(phase, white, black, result, match)


def test_cct_8c_8d_8e_the_knockout_replays_each_series_from_its_seeds() -> None:
    seeds = tuple(NAMES[:8])
    waiting = knockout_state(EventFacts("Open", EventType.REGULAR, seeds=seeds))
    qf1 = waiting.ties[Tie.QF1]
    assert (qf1.pairing.higher, qf1.pairing.lower) == ("P01", "P08")
    assert qf1.status is not None and qf1.status.choice_required is not None  # CCT-8e first
    assert Tie.SF1 not in waiting.ties
    # P01 chose Black in game 1 and wins match 1 2½–½ (no 4th game), then leads match 2
    # 2–0, which decides the series, so match 2 stops there.
    games = []
    for match, played in ((1, 3), (2, 2)):
        for number in range(played):
            p01_white = (number % 2 == 1) == (match == 1)
            white, black = ("P01", "P08") if p01_white else ("P08", "P01")
            result = Result.WHITE_WIN if white == "P01" else Result.BLACK_WIN
            if match == 1 and number == 2:
                result = Result.DRAW
            games.append(_game(Phase.RAPID, white, black, result, match))
    series = {Tie.QF1: ContestFacts(chess.BLACK, games=tuple(games))}
    state = knockout_state(EventFacts("Open", EventType.REGULAR, seeds=seeds, series=series))
    assert state.winners == {Tie.QF1: "P01"}
    assert state.ties[Tie.QF1].status is not None
    assert state.ties[Tie.QF1].status.decided_by is Phase.RAPID
    assert len(state.ties[Tie.QF1].status.matches[1:]) == 1
    assert state.ties[Tie.QF1].status.matches[1].games == 2


def test_cct_8c_games_of_a_round_whose_players_are_unknown_are_refused() -> None:
    series = {
        Tie.SF1: ContestFacts(
            chess.WHITE, games=(_game(Phase.RAPID, "P01", "P04", Result.DRAW, 1),)
        )
    }
    with pytest.raises(KnockoutError, match="before its players are known"):
        knockout_state(EventFacts("Open", EventType.REGULAR, seeds=tuple(NAMES[:8]), series=series))


def test_cct_6_a_finished_event_is_counted_with_its_placings() -> None:
    drawn = tuple(NAMES)
    winners = {
        Tie.QF1: "P01",
        Tie.QF2: "P02",
        Tie.QF3: "P03",
        Tie.QF4: "P04",
        Tie.SF1: "P01",
        Tie.SF2: "P02",
        Tie.FINAL: "P02",
        Tie.THIRD_PLACE: "P04",
    }
    series = {tie: ContestFacts(record=ContestRecord(w)) for tie, w in winners.items()}
    facts = EventFacts(
        "Open",
        EventType.REGULAR,
        drawn,
        tuple(_by_order(list(drawn))),
        seeds=drawn[:8],
        series=series,
    )
    event = played_event(facts)
    assert event is not None
    stages = event.stages()
    assert stages["P02"] is KoStage.WINNER and stages["P01"] is KoStage.RUNNER_UP
    assert stages["P04"] is KoStage.THIRD and stages["P03"] is KoStage.FOURTH
    unfinished = EventFacts("Open", EventType.REGULAR, drawn, seeds=drawn[:8])
    assert played_event(unfinished) is None


def test_cct_8f_finals_matches_follow_berger_and_the_table_adds_the_bonus() -> None:
    finalists = tuple(NAMES[:10])
    pairing = round_robin(finalists)[0]
    rapid_win = tuple(
        _game(Phase.RAPID, w, b, r, 1)
        for w, b, r in (
            (str(pairing.white), str(pairing.black), Result.WHITE_WIN),
            (str(pairing.black), str(pairing.white), Result.BLACK_WIN),
            (str(pairing.white), str(pairing.black), Result.DRAW),
        )
    )
    facts = EventFacts(
        "Finals",
        EventType.FINALS,
        finalists,
        finals={(pairing.round, pairing.board): ContestFacts(games=rapid_win)},
    )
    matches = finals_matches(facts)
    assert len(matches) == 45 and matches[0].winner == pairing.white and matches[0].rapid
    bonus = {p: Fraction(i, 2) for i, p in enumerate(finalists)}
    table = finals_table(facts, bonus)
    row = next(r for r in table.rows if r.player == pairing.white)
    assert row.match_points == 3 and row.total == bonus[str(pairing.white)] + 3


def test_cct_8f_the_finals_are_finished_once_every_match_is_decided() -> None:
    finalists = tuple(NAMES[:4])
    pairings = round_robin(finalists)

    def won(white: str, black: str) -> ContestFacts:
        results = (Result.WHITE_WIN, Result.BLACK_WIN, Result.DRAW)
        colours = ((white, black), (black, white), (white, black))
        played = zip(colours, results, strict=True)
        return ContestFacts(games=tuple(_game(Phase.RAPID, w, b, r, 1) for (w, b), r in played))

    decided = {(p.round, p.board): won(str(p.white), str(p.black)) for p in pairings}
    last = (pairings[-1].round, pairings[-1].board)
    almost = {key: contest for key, contest in decided.items() if key != last}
    assert not finals_finished(EventFacts("Finals", EventType.FINALS, ()))
    assert not finals_finished(EventFacts("Finals", EventType.FINALS, finalists, finals=almost))
    assert finals_finished(EventFacts("Finals", EventType.FINALS, finalists, finals=decided))


def test_cct_8a_8d_8f_the_day_each_game_is_played_on() -> None:
    assert [preliminary_day(r, 11) for r in range(1, 12)] == [1] * 4 + [2] * 4 + [3] * 3
    assert [preliminary_day(r, 15) for r in (1, 5, 6, 10, 11, 15)] == [1, 1, 2, 2, 3, 3]
    assert knockout_day(Tie.QF3, 1) == 4 and knockout_day(Tie.QF3, None) == 5
    assert knockout_day(Tie.FINAL, 2) == 9 and finals_day(9) == 9
    start = session_start(dt.date(2026, 5, 1), dt.time(17), "Europe/Paris")
    assert start.astimezone(dt.UTC) == dt.datetime(2026, 5, 1, 15, tzinfo=dt.UTC)

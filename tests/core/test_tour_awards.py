"""CCT-9 awards without play (core/tour/event_facts.py): a knock-out series, a Finals match or
a game given to a player by an arbiter, with a reason; shown as a walkover, never as games,
and placings, tour points and the Finals table follow from it."""

from __future__ import annotations

from fractions import Fraction

import chess
import pytest

from core.results import Result
from core.tour.event_facts import (
    AwardReason,
    AwardRefused,
    ContestFacts,
    ContestRecord,
    EventFacts,
    PrelimGame,
    award_finals_match,
    award_game,
    award_series,
    finals_matches,
    finals_table,
    knockout_state,
    played_event,
    preliminary_standings,
    round_robin,
)
from core.tour.game_reports import GameReport, ReportStatus
from core.tour.knockout import KoStage, PlayedGame, Tie
from core.tour.ranking import DEFAULT_POINTS_TABLES, EventType
from core.tour.timecontrols import Phase

NAMES = tuple(f"P{n:02d}" for n in range(1, 17))
SEEDS = NAMES[:8]


def _facts(series: dict[Tie, ContestFacts]) -> EventFacts:
    return EventFacts("Open", EventType.REGULAR, seeds=SEEDS, series=series)


def test_cct_9_an_undecided_series_is_awarded_and_the_bracket_follows() -> None:
    """CCT-9: a game played before the award stays recorded; the award decides the series."""
    played = PlayedGame(Phase.RAPID, "P01", "P08", Result.BLACK_WIN, 1)
    facts = _facts({Tie.QF1: ContestFacts(chess.WHITE, games=(played,))})
    state = knockout_state(facts).ties[Tie.QF1]
    record = award_series(state, "P01", AwardReason.NO_SHOW)
    assert record == ContestRecord("P01", walkover=True, reason=AwardReason.NO_SHOW)
    after = _facts({Tie.QF1: ContestFacts(chess.WHITE, games=(played,), record=record)})
    knockout = knockout_state(after)
    assert knockout.winners == {Tie.QF1: "P01"}
    assert after.series[Tie.QF1].games == (played,)  # kept, shown, not counted


def test_cct_9_a_decided_or_awarded_series_cannot_be_awarded_again() -> None:
    awarded = _facts({Tie.QF1: ContestFacts(record=ContestRecord("P08", walkover=True))})
    with pytest.raises(AwardRefused, match="decided already: 'P08' won it by walkover"):
        award_series(knockout_state(awarded).ties[Tie.QF1], "P01", AwardReason.ILLNESS)
    games = []
    for match, played in ((1, 3), (2, 2)):  # 3-0, then 2-0 stops match 2 (CCT-8d)
        for number in range(played):
            white_p01 = (number % 2 == 0) == (match == 1)
            white, black = ("P01", "P08") if white_p01 else ("P08", "P01")
            result = Result.WHITE_WIN if white == "P01" else Result.BLACK_WIN
            games.append(PlayedGame(Phase.RAPID, white, black, result, match))
    won = _facts({Tie.QF1: ContestFacts(chess.WHITE, games=tuple(games))})
    with pytest.raises(AwardRefused, match="won it over the board"):
        award_series(knockout_state(won).ties[Tie.QF1], "P08", AwardReason.WITHDRAWAL)
    open_ = knockout_state(_facts({})).ties[Tie.QF1]
    with pytest.raises(AwardRefused, match="does not play QF1"):
        award_series(open_, "P02", AwardReason.NO_SHOW)
    with pytest.raises(AwardRefused, match="needs a short note"):
        award_series(open_, "P01", AwardReason.OTHER, " ")


def test_cct_9_cct_6_an_awarded_3rd_place_match_gives_its_loser_4th_place() -> None:
    """CCT-9: the 2020-21 Aimchess 3rd-place match was awarded; its loser is 4th (CCT-6)."""
    winners = {
        Tie.QF1: "P01",
        Tie.QF2: "P02",
        Tie.QF3: "P03",
        Tie.QF4: "P04",
        Tie.SF1: "P01",
        Tie.SF2: "P02",
        Tie.FINAL: "P02",
    }
    series = {tie: ContestFacts(record=ContestRecord(w)) for tie, w in winners.items()}
    before = EventFacts(
        "Open", EventType.REGULAR, NAMES, seeds=SEEDS, series=series, recorded_order=NAMES
    )
    third = knockout_state(before).ties[Tie.THIRD_PLACE]
    series[Tie.THIRD_PLACE] = ContestFacts(
        record=award_series(third, "P03", AwardReason.WITHDRAWAL)
    )
    after = EventFacts(
        "Open", EventType.REGULAR, NAMES, seeds=SEEDS, series=series, recorded_order=NAMES
    )
    event = played_event(after)
    assert event is not None
    stages = event.stages()
    assert stages["P03"] is KoStage.THIRD and stages["P04"] is KoStage.FOURTH
    assert event.walkovers == (Tie.THIRD_PLACE,)
    table = DEFAULT_POINTS_TABLES[EventType.REGULAR]
    assert table.stage_points(stages["P04"]) == 10 and table.stage_points(stages["P03"]) == 15


def test_cct_9_cct_8f_an_awarded_finals_match_scores_as_a_rapid_win() -> None:
    """CCT-8f: an awarded match is 3/0 (core.tour.finals.AWARD_DECIDED_BY)."""
    finalists = NAMES[:10]
    pairing = round_robin(finalists)[0]
    facts = EventFacts("Finals", EventType.FINALS, finalists)
    state = finals_matches(facts)[0]
    record = award_finals_match(state, pairing.black, AwardReason.ILLNESS, "fever")
    assert record.rapid and record.walkover and record.note == "fever"
    key = (pairing.round, pairing.board)
    after = EventFacts(
        "Finals", EventType.FINALS, finalists, finals={key: ContestFacts(record=record)}
    )
    table = finals_table(after, dict.fromkeys((str(p) for p in finalists), Fraction(0)))
    points = {r.player: r.match_points for r in table.rows}
    assert points[pairing.black] == 3 and points[pairing.white] == 0
    with pytest.raises(AwardRefused, match="decided already"):
        award_finals_match(finals_matches(after)[0], pairing.white, AwardReason.NO_SHOW)


def test_cct_9_core_2_an_awarded_game_is_a_forfeit_win_counted_as_a_win() -> None:
    result = award_game(GameReport(), "P01", "P02", "P02", AwardReason.NO_SHOW)
    assert result is Result.BLACK_FORFEIT_WIN  # shown +/-, never an invented 0-1
    assert award_game(GameReport(), "P01", "P02", "P01", AwardReason.ILLNESS) is (
        Result.WHITE_FORFEIT_WIN
    )
    played = GameReport(ReportStatus.CONFIRMED, Result.DRAW)
    with pytest.raises(AwardRefused, match="has a result already"):
        award_game(played, "P01", "P02", "P01", AwardReason.NO_SHOW)
    with pytest.raises(AwardRefused, match="does not play that game"):
        award_game(GameReport(), "P01", "P02", "P03", AwardReason.NO_SHOW)
    players = ("P01", "P02", "P03")
    games = (
        PrelimGame(1, "P01", "P02", result),
        PrelimGame(2, "P02", "P03", Result.DRAW),
        PrelimGame(3, "P03", "P01", Result.DRAW),
    )
    rows = preliminary_standings(EventFacts("Open", EventType.REGULAR, players, games))
    p02 = next(r for r in rows if r.player == "P02")
    assert p02.points == Fraction(3, 2) and p02.wins == 1  # CORE-2

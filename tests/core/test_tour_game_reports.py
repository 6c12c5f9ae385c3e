"""The life cycle of a tour game's result (core/tour/game_reports.py): a player's report
waits for the opponent; Confirm settles it, Dispute sends it to the arbiters; an arbiter's
entry is final and a settled result changes only by an arbiter's correction (CCT-9)."""

from __future__ import annotations

import datetime as dt

import pytest

from core.results import Result
from core.tour.game_reports import (
    Action,
    GameReport,
    Party,
    ReportRefused,
    ReportStatus,
    confirm_deadline,
    transition,
)

OPEN = GameReport()
WHITE_REPORTED = GameReport(ReportStatus.REPORTED, Result.WHITE_WIN, Party.WHITE)


def test_a_players_report_waits_and_the_opponent_confirms_or_disputes() -> None:
    reported = transition(OPEN, Action.REPORT, Party.WHITE, Result.WHITE_WIN)
    assert reported == WHITE_REPORTED and not reported.status.settled
    confirmed = transition(reported, Action.CONFIRM, Party.BLACK)
    assert confirmed.status is ReportStatus.CONFIRMED and confirmed.status.settled
    disputed = transition(reported, Action.DISPUTE, Party.BLACK)
    assert disputed.status is ReportStatus.DISPUTED and not disputed.status.settled


@pytest.mark.parametrize("action", [Action.CONFIRM, Action.DISPUTE])
def test_a_player_cannot_answer_their_own_report(action: Action) -> None:
    with pytest.raises(ReportRefused, match="your opponent confirms or disputes"):
        transition(WHITE_REPORTED, action, Party.WHITE)


def test_cct_9_an_arbiters_entry_is_final_and_decides_a_dispute() -> None:
    entered = transition(OPEN, Action.REPORT, Party.ARBITER, Result.DRAW)
    assert entered == GameReport(ReportStatus.DECIDED, Result.DRAW)
    disputed = transition(WHITE_REPORTED, Action.DISPUTE, Party.BLACK)
    decided = transition(disputed, Action.REPORT, Party.ARBITER, Result.BLACK_WIN)
    assert decided.status is ReportStatus.DECIDED and decided.result is Result.BLACK_WIN
    with pytest.raises(ReportRefused, match="only an arbiter's correction"):
        transition(decided, Action.REPORT, Party.WHITE, Result.WHITE_WIN)


def test_cct_9_a_settled_result_changes_only_by_an_arbiters_correction() -> None:
    confirmed = transition(WHITE_REPORTED, Action.CONFIRM, Party.BLACK)
    for party in (Party.WHITE, Party.BLACK, Party.SYSTEM):
        with pytest.raises(ReportRefused):
            transition(confirmed, Action.CORRECT, party, Result.BLACK_WIN)
    corrected = transition(confirmed, Action.CORRECT, Party.ARBITER, Result.BLACK_WIN)
    assert corrected == GameReport(ReportStatus.DECIDED, Result.BLACK_WIN)
    with pytest.raises(ReportRefused, match="nothing to correct"):
        transition(corrected, Action.CORRECT, Party.ARBITER, Result.BLACK_WIN)


def test_the_same_game_cannot_be_reported_twice_or_by_both_players() -> None:
    with pytest.raises(ReportRefused, match="already"):
        transition(WHITE_REPORTED, Action.REPORT, Party.WHITE, Result.WHITE_WIN)
    with pytest.raises(ReportRefused, match="confirm or dispute their report"):
        transition(WHITE_REPORTED, Action.REPORT, Party.BLACK, Result.BLACK_WIN)


def test_a_forfeit_is_the_arbiters_and_nothing_is_confirmed_before_a_report() -> None:
    with pytest.raises(ReportRefused, match="forfeit"):
        transition(OPEN, Action.REPORT, Party.WHITE, Result.WHITE_FORFEIT_WIN)
    with pytest.raises(ReportRefused, match="no result has been reported"):
        transition(OPEN, Action.CONFIRM, Party.BLACK)


def test_the_bot_confirms_a_report_after_its_waiting_time() -> None:
    assert transition(WHITE_REPORTED, Action.CONFIRM, Party.SYSTEM).status.settled
    reported_at = dt.datetime(2026, 5, 1, 18, tzinfo=dt.UTC)
    assert confirm_deadline(reported_at, 12) == dt.datetime(2026, 5, 2, 6, tzinfo=dt.UTC)
    with pytest.raises(ValueError):
        confirm_deadline(reported_at.replace(tzinfo=None), 12)


def test_a_site_game_the_bot_reports_waits_for_either_player() -> None:
    """A game found on chess.com or lichess.org is the bot's report (SYSTEM): waiting, as a
    player's is, but for either player's Confirm or Dispute; nobody reports over it."""
    found = transition(OPEN, Action.REPORT, Party.SYSTEM, Result.WHITE_WIN)
    assert found == GameReport(ReportStatus.REPORTED, Result.WHITE_WIN, Party.SYSTEM)
    for player in (Party.WHITE, Party.BLACK):
        assert transition(found, Action.CONFIRM, player).status is ReportStatus.CONFIRMED
        assert transition(found, Action.DISPUTE, player).status is ReportStatus.DISPUTED
    with pytest.raises(ReportRefused, match="confirm or dispute its report"):
        transition(found, Action.REPORT, Party.BLACK, Result.BLACK_WIN)
    with pytest.raises(ReportRefused, match="only a game nobody reported"):
        transition(WHITE_REPORTED, Action.REPORT, Party.SYSTEM, Result.WHITE_WIN)
    assert transition(found, Action.REPORT, Party.ARBITER, Result.DRAW).status.settled

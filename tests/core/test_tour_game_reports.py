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
    Session,
    SessionNotStarted,
    confirm_deadline,
    transition,
)

OPEN = GameReport()
WHITE_REPORTED = GameReport(ReportStatus.REPORTED, Result.WHITE_WIN, Party.WHITE)


def test_a_players_report_waits_and_the_opponent_confirms_or_disputes() -> None:
    reported = transition(OPEN, Action.REPORT, Party.WHITE, Result.WHITE_WIN, session=None)
    assert reported == WHITE_REPORTED and not reported.status.settled
    confirmed = transition(reported, Action.CONFIRM, Party.BLACK, session=None)
    assert confirmed.status is ReportStatus.CONFIRMED and confirmed.status.settled
    disputed = transition(reported, Action.DISPUTE, Party.BLACK, session=None)
    assert disputed.status is ReportStatus.DISPUTED and not disputed.status.settled


@pytest.mark.parametrize("action", [Action.CONFIRM, Action.DISPUTE])
def test_a_player_cannot_answer_their_own_report(action: Action) -> None:
    with pytest.raises(ReportRefused, match="your opponent confirms or disputes"):
        transition(WHITE_REPORTED, action, Party.WHITE, session=None)


def test_cct_9_an_arbiters_entry_is_final_and_decides_a_dispute() -> None:
    entered = transition(OPEN, Action.REPORT, Party.ARBITER, Result.DRAW, session=None)
    assert entered == GameReport(ReportStatus.DECIDED, Result.DRAW)
    disputed = transition(WHITE_REPORTED, Action.DISPUTE, Party.BLACK, session=None)
    decided = transition(disputed, Action.REPORT, Party.ARBITER, Result.BLACK_WIN, session=None)
    assert decided.status is ReportStatus.DECIDED and decided.result is Result.BLACK_WIN
    with pytest.raises(ReportRefused, match="only an arbiter's correction"):
        transition(decided, Action.REPORT, Party.WHITE, Result.WHITE_WIN, session=None)


def test_cct_9_a_settled_result_changes_only_by_an_arbiters_correction() -> None:
    confirmed = transition(WHITE_REPORTED, Action.CONFIRM, Party.BLACK, session=None)
    for party in (Party.WHITE, Party.BLACK, Party.SYSTEM):
        with pytest.raises(ReportRefused):
            transition(confirmed, Action.CORRECT, party, Result.BLACK_WIN, session=None)
    corrected = transition(confirmed, Action.CORRECT, Party.ARBITER, Result.BLACK_WIN, session=None)
    assert corrected == GameReport(ReportStatus.DECIDED, Result.BLACK_WIN)
    with pytest.raises(ReportRefused, match="nothing to correct"):
        transition(corrected, Action.CORRECT, Party.ARBITER, Result.BLACK_WIN, session=None)


def test_the_same_game_cannot_be_reported_twice_or_by_both_players() -> None:
    with pytest.raises(ReportRefused, match="already"):
        transition(WHITE_REPORTED, Action.REPORT, Party.WHITE, Result.WHITE_WIN, session=None)
    with pytest.raises(ReportRefused, match="confirm or dispute their report"):
        transition(WHITE_REPORTED, Action.REPORT, Party.BLACK, Result.BLACK_WIN, session=None)


def test_a_forfeit_is_the_arbiters_and_nothing_is_confirmed_before_a_report() -> None:
    with pytest.raises(ReportRefused, match="forfeit"):
        transition(OPEN, Action.REPORT, Party.WHITE, Result.WHITE_FORFEIT_WIN, session=None)
    with pytest.raises(ReportRefused, match="no result has been reported"):
        transition(OPEN, Action.CONFIRM, Party.BLACK, session=None)


def test_the_bot_confirms_a_report_after_its_waiting_time() -> None:
    assert transition(WHITE_REPORTED, Action.CONFIRM, Party.SYSTEM, session=None).status.settled
    reported_at = dt.datetime(2026, 5, 1, 18, tzinfo=dt.UTC)
    assert confirm_deadline(reported_at, 12) == dt.datetime(2026, 5, 2, 6, tzinfo=dt.UTC)
    with pytest.raises(ValueError):
        confirm_deadline(reported_at.replace(tzinfo=None), 12)


def test_a_site_game_the_bot_reports_waits_for_either_player() -> None:
    """A game found on chess.com or lichess.org is the bot's report (SYSTEM): waiting, as a
    player's is, but for either player's Confirm or Dispute; nobody reports over it."""
    found = transition(OPEN, Action.REPORT, Party.SYSTEM, Result.WHITE_WIN, session=None)
    assert found == GameReport(ReportStatus.REPORTED, Result.WHITE_WIN, Party.SYSTEM)
    for player in (Party.WHITE, Party.BLACK):
        assert (
            transition(found, Action.CONFIRM, player, session=None).status is ReportStatus.CONFIRMED
        )
        assert (
            transition(found, Action.DISPUTE, player, session=None).status is ReportStatus.DISPUTED
        )
    with pytest.raises(ReportRefused, match="confirm or dispute its report"):
        transition(found, Action.REPORT, Party.BLACK, Result.BLACK_WIN, session=None)
    with pytest.raises(ReportRefused, match="only a game nobody reported"):
        transition(WHITE_REPORTED, Action.REPORT, Party.SYSTEM, Result.WHITE_WIN, session=None)
    assert transition(found, Action.REPORT, Party.ARBITER, Result.DRAW, session=None).status.settled


def test_cct_9_nothing_is_recorded_before_the_games_session_starts() -> None:
    """No result for a game before its session starts, from a player, the bot or an arbiter
    (an entry or a correction); at its start and after, the life cycle goes on as ever. A
    settled result (a walkover award, say) is corrected whenever."""
    starts = dt.datetime(2026, 5, 1, 15, tzinfo=dt.UTC)
    before = Session(starts - dt.timedelta(seconds=1), starts)
    at = Session(starts, starts)
    for party in Party:
        action = Action.CORRECT if party is Party.ARBITER else Action.REPORT
        with pytest.raises(SessionNotStarted) as refused:
            transition(OPEN, action, party, Result.WHITE_WIN, session=before)
        assert refused.value.starts == starts
    assert transition(OPEN, Action.REPORT, Party.WHITE, Result.DRAW, session=at).status is (
        ReportStatus.REPORTED
    )
    decided = GameReport(ReportStatus.DECIDED, Result.WHITE_FORFEIT_WIN)
    corrected = transition(decided, Action.CORRECT, Party.ARBITER, Result.DRAW, session=before)
    assert corrected.result is Result.DRAW
    with pytest.raises(ValueError, match="timezone-aware"):
        Session(dt.datetime(2026, 5, 1, 15), starts)

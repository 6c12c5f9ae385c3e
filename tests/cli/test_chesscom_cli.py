"""`arbiter chesscom …` through `bot.cli.main`, against the fake chess.com on 127.0.0.1."""

from __future__ import annotations

import json
import socket
from fractions import Fraction
from pathlib import Path

import pytest

from bot.chesscom.client import VERSION
from bot.cli import main
from bot.formats.season_file import MatchModel
from tests.support.chesscom_fake import FakeChessCom

CONTACT = "league-hq@example.org"


@pytest.fixture
def fake(fake: FakeChessCom, monkeypatch: pytest.MonkeyPatch) -> FakeChessCom:
    """The shared chess.com fake, named to the CLI by its environment variables."""
    monkeypatch.setenv("ARBITER_CHESSCOM_URL", fake.base_url)
    monkeypatch.setenv("ARBITER_CHESSCOM_CONTACT", CONTACT)
    return fake


def unused_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/pub"


def test_cl_14_match_json_is_a_season_file_match(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chesscom", "match", "12803", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    match = MatchModel.model_validate(out["match"])
    assert out["status"] == "finished"
    assert (match.id, match.home, match.away) == ("12803", "Team Romania", "Team USA - Southwest")
    assert sum(board.home_points for board in match.boards) == Fraction(123, 2)
    assert sum(board["away_points"] for board in out["match"]["boards"]) == 46.5
    assert out["match"]["start"] == "2009-07-14T01:02:16Z"
    assert len(out["closed_accounts"]) == 31 and "sorinel" in out["fair_play"]
    assert out["running_boards"] == [] and out["board_numbers"] == list(range(1, 55))
    assert {request.user_agent for request in fake.requests} == {f"Arbiter/{VERSION} ({CONTACT})"}


def test_cl_14_live_match_text(fake: FakeChessCom, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chesscom", "match", "5833", "--live"]) == 0
    out = capsys.readouterr().out
    assert "The Leopards (home) vs Not-So PRO Chess League (away)" in out
    assert "6 finished boards, 0 running: The Leopards 7 - 5 Not-So PRO Chess League" in out
    assert "closed accounts (CL-19): 3: checkmatemark04, edr0nt, justoneuser" in out
    assert fake.seen("match/live/5833")


def test_cl_14_running_match_text_leaves_running_boards_out(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chesscom", "match", "1000001"]) == 0
    out = capsys.readouterr().out
    assert "1 finished boards, 2 running: Club A 1.5 - 0.5 Club B" in out
    assert "    1. alice 1.5 - 0.5 dave\n" in out
    assert "fair play: 1: carol" in out


def test_cl_15_registration_match_shows_the_challenge(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chesscom", "match", "873060"]) == 0
    out = capsys.readouterr().out
    assert "chess.com match 873060: registration" in out
    assert "challenge issued by Big Game Hunters no later than " in out
    assert "not known to be accepted" in out


def test_cl_5_cl_6_club_shows_members_average_and_admins(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chesscom", "club", "chess-com-developer-community"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Chess.com Developer Community (chess-com-developer-community)",
        "members: 14905",
        "average daily rating: 928 (from the profile)",
        "admins: 5: bcurtis, erik, andreamorandini, martin_stahl, jdcannon",
    ]


def test_cl_6_club_average_from_members_json(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.serve("player/34r7y4/stats", {"chess_daily": {"last": {"rating": 1000}}})
    fake.serve("player/abat999/stats", {"chess_daily": {"last": {"rating": 1001}}})
    args = ["chesscom", "club", "chess-com-developer-community", "--from-members", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["avg_rating"] == 1000.5 and out["rating_source"] == "members"
    assert out["members"] == 14905


def test_cl_21_player_status_and_daily_timeout(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chesscom", "player", "erik"]) == 0
    assert capsys.readouterr().out.splitlines() == ["erik: staff", "daily timeout: 0 %"]
    assert main(["chesscom", "player", "FarzyPlaysChess"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "farzyplayschess: premium",
        "daily timeout: no daily games",
    ]


def test_cl_19_player_closed_account(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.serve("player/carol/stats", {"chess_daily": {"record": {"timeout_percent": 37.5}}})
    assert main(["chesscom", "player", "carol", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "player": "carol",
        "status": "closed:fair_play_violations",
        "closed": True,
        "daily_timeout_percent": 37.5,
    }


@pytest.mark.parametrize(
    "args",
    [
        ["chesscom", "player", "nonexistent_user_xyz_123"],
        ["chesscom", "match", "99999"],
        ["chesscom", "club", "no-such-club"],
    ],
)
def test_unknown_ids_fail_with_one_line(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert main(args) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"arbiter chesscom {args[1]}: not found:")


def test_network_error_fails_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARBITER_CHESSCOM_CONTACT", CONTACT)
    args = ["chesscom", "player", "erik", "--base-url", unused_url(), "--retries", "0"]
    assert main(args) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "after 1 attempt)" in lines[0]


def test_base_url_option_overrides_the_environment(
    fake: FakeChessCom, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARBITER_CHESSCOM_URL", unused_url())
    assert main(["chesscom", "player", "erik", "--base-url", fake.base_url]) == 0
    assert "erik: staff" in capsys.readouterr().out


def test_missing_contact_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("ARBITER_CHESSCOM_CONTACT", raising=False)
    assert main(["chesscom", "player", "erik", "--base-url", unused_url()]) == 2
    assert "ARBITER_CHESSCOM_CONTACT" in capsys.readouterr().err


def test_non_numeric_match_id_is_a_usage_error(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chesscom", "match", "abc"]) == 2
    assert "digits, or a chess.com match URL" in capsys.readouterr().err
    assert fake.requests == []


@pytest.mark.parametrize(
    "reference",
    [
        "https://www.chess.com/club/matches/12803",
        "https://www.chess.com/club/matches/12803/",
        "chess.com/club/matches/12803?view=games",
    ],
)
def test_cl_14_a_match_url_is_read_as_match_challenge_reads_it(
    fake: FakeChessCom, capsys: pytest.CaptureFixture[str], reference: str
) -> None:
    """Issue 20: `arbiter chesscom match` takes the match URL that `/match challenge` takes."""
    assert main(["chesscom", "match", reference, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["match"]["id"] == "12803"
    assert fake.seen("match/12803")


def test_config_file_chesscom_section_sets_url_and_contact(
    fake: FakeChessCom,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("ARBITER_CHESSCOM_URL")
    monkeypatch.delenv("ARBITER_CHESSCOM_CONTACT")
    config = tmp_path / "config.toml"
    config.write_text(
        f'[chesscom]\nbase_url = "{fake.base_url}"\ncontact = "ops@example.net"\nmax_retries = 0\n'
    )
    assert main(["chesscom", "player", "erik", "--config", str(config)]) == 0
    assert "erik: staff" in capsys.readouterr().out
    assert {r.user_agent for r in fake.requests} == {f"Arbiter/{VERSION} (ops@example.net)"}


def test_bad_chesscom_config_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[chesscom]\ntimeout_seconds = -1\n")
    assert main(["chesscom", "player", "erik", "--config", str(config)]) == 2
    assert "chesscom.timeout_seconds" in capsys.readouterr().err

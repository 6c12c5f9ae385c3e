"""Site games read from the payloads written from chess.com's and lichess's documentation
(tests/data/chesscom, tests/data/lichess), and the paired game found among them (CCT-7)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.chesscom.games import clock_of, game_id_of, result_of, site_games
from bot.chesscom.models import ArchiveGame, BoardGamePlayer, GameArchive
from bot.lichess import games as lichess_games
from bot.lichess.client import games_from_ndjson
from bot.lichess.models import LichessGame
from core.results import Result
from core.tour.early_draws import DrawKind
from core.tour.game_search import GameQuery, SearchStatus, Site, SiteClock, find_game
from core.tour.timecontrols import BLITZ, RAPID
from tests.support.paths import ROOT

DATA = ROOT / "tests" / "data"
ARCHIVE = DATA / "chesscom" / "player_games_albarook_2021_02_WRITTEN_FROM_DOCS.json"
EXPORT = DATA / "lichess" / "games_user_alba-rook_vs_Bruno_Knight_WRITTEN_FROM_DOCS.ndjson"
SESSION = datetime(2021, 2, 7, 17, tzinfo=UTC)


def archive() -> GameArchive:
    return GameArchive.model_validate_json(ARCHIVE.read_text())


def test_the_archive_payload_reads_into_site_games() -> None:
    games = site_games(archive().games)
    assert [game.game_id for game in games] == [
        f"{kind}/400000000{n}"
        for kind, n in [
            ("daily", 1),
            ("live", 2),
            ("live", 3),
            ("live", 4),
            ("live", 5),
            ("live", 6),
        ]
    ]
    daily, rapid, blitz, chess960, _, _ = games
    assert daily.clock is None and daily.result is Result.WHITE_WIN
    assert rapid.clock == SiteClock(900, 10) and rapid.result is Result.WHITE_WIN
    assert rapid.ended_at == datetime(2021, 2, 7, 17, 42, 5, tzinfo=UTC)
    assert blitz.clock == SiteClock(300, 3) and blitz.result is Result.DRAW
    assert not chess960.standard and rapid.standard
    assert rapid.pgn is not None and '[TimeControl "900+10"]' in rapid.pgn


def test_cct_7_the_rapid_game_of_the_session_is_found_in_the_archive() -> None:
    games = site_games(archive().games)
    query = GameQuery(
        Site.CHESSCOM, "albarook", "BRUNOKNIGHT", None, SESSION, SESSION + timedelta(hours=3), RAPID
    )
    found = find_game(query, games)
    assert found.status is SearchStatus.FOUND and found.game is not None
    assert found.game.url == "https://www.chess.com/game/live/4000000002"
    assert found.early_draw is not None and found.early_draw.kind is DrawKind.NOT_A_DRAW


def test_cct_7_an_agreed_draw_before_move_40_is_flagged_from_the_archive_pgn() -> None:
    games = site_games(archive().games)
    blitz = GameQuery(
        Site.CHESSCOM,
        "AlbaRook",
        "BrunoKnight",
        "BrunoKnight",
        SESSION,
        SESSION + timedelta(hours=3),
        BLITZ,
    )
    found = find_game(blitz, games)
    assert found.game is not None and found.game.game_id == "live/4000000003"
    assert found.early_draw is not None and found.early_draw.flagged
    week = timedelta(days=7)
    later = GameQuery(
        Site.CHESSCOM,
        "AlbaRook",
        "BrunoKnight",
        None,
        SESSION + 2 * week,
        SESSION + 2 * week + timedelta(hours=3),
        RAPID,
    )
    repetition = find_game(later, games)
    assert repetition.early_draw is not None and not repetition.early_draw.flagged
    assert repetition.early_draw.kind is DrawKind.THREEFOLD_REPETITION


@pytest.mark.parametrize(
    ("white", "black", "result"),
    [
        ("win", "resigned", Result.WHITE_WIN),
        ("timeout", "win", Result.BLACK_WIN),
        ("agreed", "agreed", Result.DRAW),
        ("timevsinsufficient", "timeout", None),  # the codes disagree: not a result
        ("abandoned", "abandoned", None),
        ("win", "win", None),
        (None, None, None),
    ],
)
def test_core_2_chess_com_result_codes_give_a_result_only_when_they_agree(
    white: str | None, black: str | None, result: Result | None
) -> None:
    game = ArchiveGame(white=BoardGamePlayer(result=white), black=BoardGamePlayer(result=black))
    assert result_of(game) is result


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("900+10", SiteClock(900, 10)),
        ("600", SiteClock(600, 0)),
        ("1/86400", None),
        ("", None),
        ("15+x", None),
        (None, None),
    ],
)
def test_chess_com_time_controls_read_as_clocks(text: str | None, clock: SiteClock | None) -> None:
    assert clock_of(text) == clock


def test_chess_com_game_ids_keep_live_and_daily_apart() -> None:
    assert game_id_of("https://www.chess.com/game/live/123") == "live/123"
    assert game_id_of("https://www.chess.com/game/daily/123") == "daily/123"
    assert game_id_of("https://www.chess.com/") is None


def test_a_game_without_its_url_or_end_is_left_out() -> None:
    bare = ArchiveGame(white=BoardGamePlayer(username="a"), black=BoardGamePlayer(username="b"))
    assert site_games([bare]) == []


def test_the_lichess_export_reads_into_site_games() -> None:
    games = lichess_games.site_games(games_from_ndjson(EXPORT.read_text()))
    by_id = {game.game_id: game for game in games}
    assert set(by_id) == {"kR4tQw2Z", "Hx2vN8cE", "pQ7sLm3X"}
    rapid = by_id["Hx2vN8cE"]
    assert rapid.url == "https://lichess.org/Hx2vN8cE" and rapid.white == "alba-rook"
    assert rapid.result is Result.WHITE_WIN and rapid.clock == SiteClock(900, 10)
    assert rapid.ended_at == datetime(2021, 2, 7, 17, 44, 18, tzinfo=UTC)
    assert by_id["kR4tQw2Z"].result is Result.DRAW
    assert by_id["pQ7sLm3X"].result is None  # aborted


def test_cct_7_the_rapid_game_of_the_session_is_found_in_the_lichess_export() -> None:
    games = lichess_games.site_games(games_from_ndjson(EXPORT.read_text()))
    query = GameQuery(
        Site.LICHESS,
        "Alba-Rook",
        "bruno_knight",
        "alba-rook",
        SESSION,
        SESSION + timedelta(hours=3),
        RAPID,
    )
    found = find_game(query, games)
    assert found.status is SearchStatus.FOUND and found.game is not None
    assert found.game.game_id == "Hx2vN8cE"
    assert [miss.name for _, miss in found.misses] == ["UNDECIDED", "TIME_CONTROL"]


def _lichess(**fields: object) -> LichessGame:
    base: dict[str, object] = {"id": "x", "createdAt": 1612718538000, "status": "mate"}
    return LichessGame.model_validate(base | fields)


@pytest.mark.parametrize(
    ("status", "winner", "result"),
    [
        ("mate", "white", Result.WHITE_WIN),
        ("resign", "black", Result.BLACK_WIN),
        ("outoftime", "white", Result.WHITE_WIN),
        ("outoftime", None, Result.DRAW),
        ("stalemate", None, Result.DRAW),
        ("draw", None, Result.DRAW),
        ("aborted", None, None),
        ("cheat", "white", None),
        ("started", None, None),
        ("mate", None, None),
    ],
)
def test_core_2_lichess_status_and_winner_give_the_result(
    status: str, winner: str | None, result: Result | None
) -> None:
    game = _lichess(status=status, **({"winner": winner} if winner else {}))
    assert lichess_games.result_of(game) is result


def test_lichess_games_against_the_computer_or_from_a_position_are_not_standard_pairings() -> None:
    computer = _lichess(
        players={"white": {"user": {"name": "a", "id": "a"}}, "black": {"aiLevel": 3}}
    )
    assert lichess_games.site_game(computer) is None
    players = {"white": {"user": {"name": "a", "id": "a"}}, "black": {"user": {"name": "b"}}}
    position = _lichess(
        players=players, variant="fromPosition", initialFen="8/8/8/8/8/8/8/K1k5 w - - 0 1"
    )
    found = lichess_games.site_game(position)
    assert found is not None and not found.standard
    chess960 = lichess_games.site_game(_lichess(players=players, variant="chess960"))
    assert chess960 is not None and not chess960.standard

"""chess.com monthly game archives through the existing client, against the stand-in on
127.0.0.1 serving the archive written from chess.com's documentation (tests/data/chesscom)
and archives built from added games: contact header, ETag/304, 429 and 5xx back-off, outage."""

from __future__ import annotations

import socket

import pytest

from bot.chesscom.client import VERSION, ChessComClient, ClientSettings, archive_path
from bot.chesscom.games import site_games
from bot.runtime.polite_http import ApiNotFound, ApiUnavailable
from tests.support.chesscom_fake import FakeChessCom
from tests.support.paths import ROOT

ARCHIVE = (
    ROOT / "tests" / "data" / "chesscom" / "player_games_albarook_2021_02_WRITTEN_FROM_DOCS.json"
)
PATH = "player/albarook/games/2021/02"
CONTACT = "tour-hq@example.org"


class Sleeps:
    """An injected sleep that records the delays asked for and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def client_for(fake: FakeChessCom, sleeps: Sleeps, retries: int = 3) -> ChessComClient:
    settings = ClientSettings(contact=CONTACT, base_url=fake.base_url, max_retries=retries)
    return ChessComClient(settings, sleep=sleeps)


async def test_a_monthly_archive_is_read_with_the_contact_and_its_etag(fake: FakeChessCom) -> None:
    fake.serve_bytes(PATH, ARCHIVE.read_bytes())
    async with client_for(fake, Sleeps()) as client:
        first = await client.player_games("AlbaRook", 2021, 2)
        again = await client.player_games("albarook", 2021, 2)
    assert len(first.games) == 6 and again == first
    seen = fake.seen(PATH)
    assert [request.status for request in seen] == [200, 304]
    assert {request.user_agent for request in seen} == {f"Arbiter/{VERSION} ({CONTACT})"}
    assert seen[1].if_none_match is not None
    assert first.games[1].pgn is not None and first.games[1].time_control == "900+10"


async def test_a_429_then_5xx_are_retried_with_back_off(fake: FakeChessCom) -> None:
    fake.serve_bytes(PATH, ARCHIVE.read_bytes())
    fake.fail(PATH, 429, headers={"Retry-After": "7"})
    fake.fail(PATH, 503)
    sleeps = Sleeps()
    async with client_for(fake, sleeps) as client:
        archive = await client.player_games("albarook", 2021, 2)
    assert len(archive.games) == 6
    assert [request.status for request in fake.seen(PATH)] == [429, 503, 200]
    assert sleeps.delays == [7.0, 2.0]


async def test_5xx_retries_exhausted_and_an_outage_are_errors_never_an_archive(
    fake: FakeChessCom,
) -> None:
    fake.serve_status(PATH, 503)
    sleeps = Sleeps()
    async with client_for(fake, sleeps, retries=2) as client:
        with pytest.raises(ApiUnavailable, match=r"HTTP 503 \(after 3 attempts\)"):
            await client.player_games("albarook", 2021, 2)
    assert sleeps.delays == [1.0, 2.0]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    down = ClientSettings(contact=CONTACT, base_url=f"http://127.0.0.1:{port}/pub", max_retries=0)
    async with ChessComClient(down, sleep=Sleeps()) as client:
        with pytest.raises(ApiUnavailable):
            await client.player_games("albarook", 2021, 2)


def _game(number: int, white: str, black: str, end_time: int) -> dict[str, object]:
    return {
        "url": f"https://www.chess.com/game/live/{number}",
        "end_time": end_time,
        "time_control": "900+10",
        "rules": "chess",
        "white": {"username": white, "result": "win"},
        "black": {"username": black, "result": "resigned"},
    }


async def test_the_stand_in_files_added_games_in_both_players_monthly_archives(
    fake: FakeChessCom,
) -> None:
    feb_end = 1614556799  # 2021-02-28T23:59:59Z
    fake.add_game(_game(2, "AlbaRook", "BrunoKnight", feb_end + 1))  # 1 March
    fake.add_game(_game(1, "BrunoKnight", "AlbaRook", feb_end))
    async with client_for(fake, Sleeps()) as client:
        alba_feb = await client.player_games("albarook", 2021, 2)
        bruno_mar = await client.player_games("BrunoKnight", 2021, 3)
        empty = await client.player_games("albarook", 2021, 4)
        with pytest.raises(ApiNotFound):
            await client.player_games("nobody", 2021, 2)
    assert [game.url for game in alba_feb.games] == ["https://www.chess.com/game/live/1"]
    assert [g.game_id for g in site_games(bruno_mar.games)] == ["live/2"]
    assert empty.games == []
    fake.serve_status("player/albarook/games/2021/02", 500)  # a status set wins
    async with client_for(fake, Sleeps(), retries=0) as client:
        with pytest.raises(ApiUnavailable):
            await client.player_games("albarook", 2021, 2)
    assert [game["end_time"] for game in fake.archives[("albarook", 2021, 3)]] == [feb_end + 1]


@pytest.mark.parametrize(("year", "month"), [(2021, 0), (2021, 13), (1999, 5)])
async def test_a_month_without_an_archive_is_refused_before_any_request(
    fake: FakeChessCom, year: int, month: int
) -> None:
    with pytest.raises(ValueError, match=r"not a month with a chess\.com game archive"):
        archive_path("albarook", year, month)
    async with client_for(fake, Sleeps()) as client:
        with pytest.raises(ValueError):
            await client.player_games("albarook", year, month)
    assert fake.requests == []

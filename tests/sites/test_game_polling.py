"""Polling open pairings for their games (issue 23, item 2): the fetch plan costs at most one
request per pairing per poll (counted), chess.com archives are shared between pairings, a
window over a month's end reads both months or waits whole; the poll against the chess.com and
lichess stand-ins on 127.0.0.1 finds each game once, and an outage never gives a result."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.chesscom.client import ChessComClient, ClientSettings
from bot.lichess.client import LichessClient, LichessClientSettings
from bot.offline.lichess_standin import LichessStandIn
from bot.sites.fetch_plan import (
    EARLY_START,
    ArchiveRequest,
    ExportRequest,
    Watch,
    months,
    plan_fetch,
)
from bot.sites.poll import poll
from core.tour.game_search import GameQuery, SearchStatus, Site
from core.tour.timecontrols import RAPID
from tests.support.chesscom_fake import FakeChessCom
from tests.support.paths import ROOT

DATA = ROOT / "tests" / "data"
ARCHIVE = DATA / "chesscom" / "player_games_albarook_2021_02_WRITTEN_FROM_DOCS.json"
EXPORT = DATA / "lichess" / "games_user_alba-rook_vs_Bruno_Knight_WRITTEN_FROM_DOCS.ndjson"
SESSION = datetime(2021, 2, 7, 17, tzinfo=UTC)
NOW = SESSION + timedelta(hours=4)


def watch(
    pairing: object,
    first: str,
    second: str,
    *,
    site: Site = Site.CHESSCOM,
    start: datetime = SESSION,
    hours: int = 3,
    last_read: datetime | None = None,
    white: str | None = None,
) -> Watch:
    query = GameQuery(site, first, second, white, start, start + timedelta(hours=hours), RAPID)
    return Watch(pairing, query, last_read)


def tour_pairings() -> list[Watch]:
    """500 open pairings: 40 round-robin events of 16 players on their current round (8
    pairings each, every player once), 3/5 of them on chess.com and 2/5 on lichess; and 45
    knock-out matches of 4 rapid games each open at once (same two players, one window)."""
    watches: list[Watch] = []
    for event in range(40):
        site = Site.CHESSCOM if event % 5 < 3 else Site.LICHESS
        for board in range(8):
            a, b = f"e{event}p{board}", f"e{event}p{15 - board}"
            watches.append(watch(("rr", event, board), a, b, site=site))
    for match in range(45):
        site = Site.CHESSCOM if match % 5 < 3 else Site.LICHESS
        for game in range(4):
            watches.append(watch(("ko", match, game), f"k{match}a", f"k{match}b", site=site))
    return watches


def test_polling_500_open_pairings_costs_at_most_one_request_per_pairing() -> None:
    watches = tour_pairings()
    assert len(watches) == 500
    plan = plan_fetch(watches, NOW)
    archives = [r for r in plan.requests if isinstance(r, ArchiveRequest)]
    exports = [r for r in plan.requests if isinstance(r, ExportRequest)]
    # chess.com: one archive per round-robin pairing (24 events x 8), one per knock-out match
    # (27 matches, its 4 games share it); lichess: one export per pair and window.
    assert len(archives) == 24 * 8 + 27
    assert len(exports) == 16 * 8 + 18
    assert len(plan.requests) == len(set(plan.requests)) == 365
    assert plan.per_pairing(500) <= 1
    assert plan.deferred == () and len(plan.reads) == 500


def test_a_player_in_several_pairings_has_their_archive_read_once() -> None:
    # alba plays two games at once (a simul-like day): her archive serves both pairings.
    watches = [watch(1, "alba", "bruno"), watch(2, "carla", "alba")]
    plan = plan_fetch(watches, NOW)
    assert plan.requests == (ArchiveRequest("alba", 2021, 2),)
    assert plan.reads == {0: plan.requests, 1: plan.requests}


def test_a_window_over_a_months_end_reads_both_months_or_waits_whole() -> None:
    night = datetime(2021, 2, 28, 22, tzinfo=UTC)
    crossing = watch(1, "alba", "bruno", start=night, hours=4)
    after = night + timedelta(hours=5)
    assert months(night, after) == [(2021, 2), (2021, 3)]
    both = plan_fetch([crossing], after, budget=2)
    assert both.requests == (ArchiveRequest("alba", 2021, 2), ArchiveRequest("alba", 2021, 3))
    # Within one request per pairing it waits: a search on February alone could miss a
    # second candidate in March and report the wrong game.
    alone = plan_fetch([crossing], after)
    assert alone.requests == () and alone.deferred == (0,) and alone.reads == {}
    before_midnight = plan_fetch([crossing], night + timedelta(hours=1))
    assert before_midnight.requests == (ArchiveRequest("alba", 2021, 2),)


def test_a_window_ending_at_midnight_on_the_first_reads_only_its_month() -> None:
    night = datetime(2021, 2, 28, 21, tzinfo=UTC)
    to_midnight = watch(1, "alba", "bruno", start=night, hours=3)  # ends 1 March 00:00
    plan = plan_fetch([to_midnight], night + timedelta(days=1))
    assert plan.requests == (ArchiveRequest("alba", 2021, 2),)


def test_deferred_pairings_are_read_first_on_the_next_poll() -> None:
    night = datetime(2021, 2, 28, 22, tzinfo=UTC)
    after = night + timedelta(hours=5)
    crossing = watch("x", "alba", "bruno", start=night, hours=4, last_read=None)
    others = [
        watch(n, f"p{n}", f"q{n}", start=night, hours=1, last_read=after - timedelta(hours=1))
        for n in range(3)
    ]
    plan = plan_fetch([*others, crossing], after)  # budget 4: the never-read one goes first
    assert plan.reads[3] == (ArchiveRequest("alba", 2021, 2), ArchiveRequest("alba", 2021, 3))
    assert plan.deferred == (2,) and len(plan.requests) == 4


def test_a_round_not_begun_costs_nothing_and_lichess_asks_from_a_little_before() -> None:
    later = watch(1, "alba", "bruno", start=NOW + timedelta(hours=1))
    lichess = watch(2, "Alba-Rook", "bruno_knight", site=Site.LICHESS)
    plan = plan_fetch([later, lichess], NOW)
    start = SESSION - EARLY_START
    end = SESSION + timedelta(hours=3)
    assert plan.requests == (ExportRequest("alba-rook", "bruno_knight", start, end),)
    assert 0 not in plan.reads and plan.deferred == ()


@pytest.fixture
async def lichess() -> AsyncIterator[LichessStandIn]:
    standin = LichessStandIn()
    standin.add_ndjson(EXPORT.read_bytes())
    await standin.start()
    yield standin
    await standin.stop()


def clients(fake: FakeChessCom, lichess: LichessStandIn) -> tuple[ChessComClient, LichessClient]:
    chesscom = ChessComClient(
        ClientSettings(contact="t@example.org", base_url=fake.base_url, max_retries=0)
    )
    return chesscom, LichessClient(
        LichessClientSettings(contact="t@example.org", base_url=lichess.base_url, max_retries=0)
    )


async def test_cct_7_one_poll_finds_each_game_on_its_site_once(
    fake: FakeChessCom, lichess: LichessStandIn
) -> None:
    fake.serve_bytes("player/albarook/games/2021/02", ARCHIVE.read_bytes())
    watches = [
        watch("cc", "AlbaRook", "BrunoKnight", white="AlbaRook"),
        watch("cc-again", "BrunoKnight", "AlbaRook"),  # the same game cannot be taken twice
        watch("li", "alba-rook", "Bruno_Knight", site=Site.LICHESS),
    ]
    chesscom, exporter = clients(fake, lichess)
    async with chesscom, exporter:
        found = await poll(watches, NOW, chesscom=chesscom, lichess=exporter)
    assert found.requests == 2 and found.failures == {} and found.deferred == ()
    first, again, li = found.searches[0], found.searches[1], found.searches[2]
    assert first.game is not None and first.game.url.endswith("/live/4000000002")
    assert again.status is SearchStatus.NONE
    assert li.game is not None and li.game.game_id == "Hx2vN8cE"
    assert li.early_draw is not None and not li.early_draw.flagged
    assert [r.path for r in fake.requests] == ["player/albarook/games/2021/02"]


async def test_an_outage_leaves_the_pairings_unsearched_never_with_a_result(
    fake: FakeChessCom, lichess: LichessStandIn
) -> None:
    fake.serve_status("player/albarook/games/2021/02", 503)
    lichess.serve_status("api/games/user/alba-rook", 500)
    watches = [
        watch("cc", "AlbaRook", "BrunoKnight"),
        watch("li", "alba-rook", "Bruno_Knight", site=Site.LICHESS),
        watch("other", "carla", "dora"),  # carla's archive: chess.com's 404, not found
    ]
    chesscom, exporter = clients(fake, lichess)
    async with chesscom, exporter:
        found = await poll(watches, NOW, chesscom=chesscom, lichess=exporter)
    assert found.searches == {}
    assert found.failures[0] == "HTTP 503 (after 1 attempt)"
    assert found.failures[1] == "HTTP 500 (after 1 attempt)"
    assert found.failures[2] == 'User "carla" not found.'
    no_clients = await poll(watches[:1], NOW, chesscom=None, lichess=None)
    assert no_clients.failures == {0: "chess.com is not read: no contact is configured"}

"""The tour's pages, downloads and feeds on the public site, over the tour demo's database and a
small world of hostile names.

Each page and feed answers 200 with its type, and what it shows is compared with the services
the commands use: the CCT-6 standings, the CCT-8b preliminary, the CCT-8c bracket with series
scores and a CCT-9 walkover, and the CCT-8f Finals table with bonus points. The calendars parse,
the JSON validates against docs/web-tour.schema.json, a hostile name is shown literally and
escaped once, and another guild's ids are the 404 page.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import icalendar
import jsonschema
import pytest
from aiohttp.test_utils import TestClient, TestServer
from markupsafe import escape

from bot.kernel.config import Config
from bot.offline.demo.tour_script import GUILD
from bot.offline.discord_messages import stable_id
from bot.rendering.common.text import halves_text
from bot.runtime.clock import VirtualClock
from bot.tour import event_reads, replies, views
from bot.tour.events import service as events
from bot.tour.finals.awards import award_contest_finals
from bot.tour.finals.reads import finals_card
from bot.tour.game_names import ROUND_NAMES
from bot.tour.game_targets import knockout_ties
from bot.tour.series.awards import award_contest_series
from bot.tour.store import load_event
from bot.tour.tours import reads as tour_reads
from bot.tour.tours import service as tours
from bot.web.site import make_app
from core.points import decimal_text
from core.tour.event_facts import finals_matches
from core.tour.knockout import Tie
from core.tour.ranking import EventType
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.demos import tour_played
from tests.support.paths import ROOT
from tests.support.tour_units import EVE
from tests.support.tour_world import (
    ARBITER,
    ORGANISER,
    by_order,
    player_names,
    preliminary_played,
    tour_with_event,
)

Client = TestClient[Any, Any]
DEMO = stable_id("guild", GUILD)
SMALL = 4242
"""The guild of the small world, beside the demo's in the same database."""
FINALS = 4343
"""The guild of a tour whose Finals are drawn and under way."""
SCRIPT = "<script>alert(1)</script>"
LINK = "[x](https://e.com)"
RTL = "Ali\u202elave"
"""A name with a right-to-left override, which the name gate refuses at every door: it stands
for a database an older version wrote, and is stored directly."""
HOSTILE = (SCRIPT, LINK, "@everyone", RTL)
PLAYERS = (SCRIPT, LINK, "@everyone", "Dana", "Eli", "Fay", "Gus", RTL)
"""The small world's players in their preliminary order: the first beats every later one."""
NOTE = "left <b>early</b> & gone"
SCHEMA = json.loads((ROOT / "docs" / "web-tour.schema.json").read_text())


async def _small_world(database: Database) -> None:
    """A tour of one 8-player Regular with hostile names, played through the services: its
    preliminary decided, its knock-out awarded series by series, QF1 by a walkover with a note.
    A second event waits for its players."""
    store = GuildStore(database, SMALL)
    await tours.create_tour(store, ORGANISER, Config(), "Small <Tour>")
    await events.create_event(
        store, ORGANISER, "Small <Tour>", "Open", EventType.REGULAR, "2026-04-21", players=8
    )
    for name in PLAYERS[:-1]:
        await events.add_player(store, ORGANISER, "Open", name, None)
    async with store.tour_change(None, "test.player", "event:Open") as uow:
        record = (await uow.tour_events.by_name("Open"))[0]
        player = await uow.tours.add_player(record.tour_id, RTL)
        await uow.tour_events.add_player(record, player.id)
    await events.draw_event(store, ORGANISER, "Open", seed="s1", confirm=True)
    await preliminary_played(store, "Open", by_order(PLAYERS))
    await events.start_knockout(store, ORGANISER, "Open", confirm=True)
    while True:
        async with store.read() as view:
            loaded = await load_event(view, (await view.tour_events.by_name("Open"))[0])
        open_ties = [(t, s) for t, s in knockout_ties(loaded).items() if s.winner is None]
        if not open_ties:
            break
        for tie, state in open_ties:
            reason, note = ("other", NOTE) if tie is Tie.QF1 else ("no-show", None)
            await award_contest_series(
                store,
                ARBITER,
                "Open",
                ROUND_NAMES[tie],
                str(state.pairing.higher),
                reason,
                note,
                confirm=True,
            )

    await events.create_event(
        store, ORGANISER, "Small <Tour>", "Later", EventType.REGULAR, "2026-05-21", players=8
    )


async def _finals_world(database: Database) -> None:
    """A tour whose only event is a 10-player Finals of wildcards, drawn, with one match
    awarded and the others still to play."""
    store = GuildStore(database, FINALS)
    await tour_with_event(
        store, event="Finals", kind=EventType.FINALS, players=player_names(10), seed="s1"
    )
    async with store.read() as view:
        loaded = await load_event(view, (await view.tour_events.by_name("Finals"))[0])
    first = finals_matches(loaded.facts)[0].pairing
    await award_contest_finals(
        store,
        ARBITER,
        "Finals",
        f"R1 {first.white} v {first.black}",
        str(first.white),
        "no-show",
        None,
        confirm=True,
    )


async def _build(path: Path) -> None:
    database = await Database.open(path, clock=VirtualClock(EVE))
    await database.migrate()
    await _small_world(database)
    await _finals_world(database)
    for guild, slug in ((DEMO, "demo"), (SMALL, "small"), (FINALS, "finals")):
        async with GuildStore(database, guild).change(None, "setup.web", "web") as uow:
            await uow.web_sites.publish(slug)
    await database.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tour demo's database, played once for the module, with the small world beside it."""
    path = tmp_path_factory.mktemp("web-tour") / "arbiter.db"
    shutil.copy(tour_played(tmp_path_factory).out / "arbiter.db", path)
    asyncio.run(_build(path))
    return path


@pytest.fixture
async def site_db(built: Path, tmp_path: Path) -> AsyncIterator[Database]:
    """A copy of the built database, for one test."""
    database = await Database.open(shutil.copy(built, tmp_path / "arbiter.db"))
    yield database
    await database.close()


@pytest.fixture
async def client(site_db: Database) -> AsyncIterator[Client]:
    async with TestClient(TestServer(make_app(site_db))) as client:
        yield client


async def _get(client: Client, path: str, kind: str) -> bytes:
    reply = await client.get(path)
    body = await reply.read()
    assert reply.status == 200, (path, body[:500])
    assert reply.headers["Content-Type"].startswith(kind), path
    return body


async def _text(client: Client, path: str) -> str:
    return (await _get(client, path, "text/html")).decode()


async def _ids(database: Database, guild: int) -> tuple[int, dict[str, int]]:
    """The guild's one tour and its events by name."""
    async with GuildStore(database, guild).read() as view:
        [tour] = await view.tours.all()
        found = await view.tour_events.of_tour(tour.id)
    return tour.id, {e.name: e.id for e in found}


def _cells(html: str, table: str) -> list[list[str]]:
    """The text of each body row's cells of the first table of class `table`."""
    start = html.index(f'<table class="{table}')
    body = html[html.index("<tbody>", start) : html.index("</tbody>", start)]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body)
    return [
        [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)] for r in rows
    ]


async def test_cct_6_the_tour_page_shows_the_standings_the_command_computes(
    client: Client, site_db: Database
) -> None:
    """CCT-6, CCT-3, CCT-5: the tour page's standings are `/tour standings`' rows, as after an
    event with `?after=`; every event is linked and every player's calendar too."""
    tour, found = await _ids(site_db, DEMO)
    store = GuildStore(site_db, DEMO)
    for query, after in (("", None), (f"?after={found['Equinox Regular']}", "Equinox Regular")):
        html = await _text(client, f"/g/demo/tours/{tour}{query}")
        view = views.tour_standings(await tour_reads.tour_standings(store, "Demo Tour", after))
        expected = [
            [view.rank_text(i), str(escape(name)), str(row.record.points), str(row.record.wins)]
            for i, (row, name) in enumerate(zip(view.rows, view.names, strict=True))
        ]
        assert [row[:4] for row in _cells(html, "standings tour-standings")] == expected
    for event in found.values():
        assert f'href="/g/demo/events/{event}"' in html
    loaded = await tour_reads.loaded_tour(store, tour)
    for player in loaded.players:
        assert f'href="/g/demo/tours/{tour}/players/{player.id}/calendar.ics"' in html
    assert "Qualification (CCT-3)" in html and "Ambassador pool" in html
    assert "Major winner" in html


async def test_the_tour_links_each_calendar_by_the_sites_address(site_db: Database) -> None:
    tour, _ = await _ids(site_db, DEMO)
    app = make_app(site_db, base_url="https://chess.example/")
    async with TestClient(TestServer(app)) as client:
        html = await _text(client, f"/g/demo/tours/{tour}")
    assert f'href="https://chess.example/g/demo/tours/{tour}/players/' in html


async def test_the_json_gives_full_addresses_when_the_site_has_a_base_url(
    site_db: Database,
) -> None:
    """As the league's JSON: every address is full from `base_url`, for a tool reading it."""
    tour, found = await _ids(site_db, DEMO)
    event = found["Spring Regular"]
    app = make_app(site_db, base_url="https://chess.example/")
    async with TestClient(TestServer(app)) as client:
        tour_doc = await (await client.get(f"/g/demo/tours/{tour}.json")).json()
        event_doc = await (await client.get(f"/g/demo/events/{event}.json")).json()
    base = "https://chess.example/g/demo/"
    assert tour_doc["tour"]["url"] == f"{base}tours/{tour}"
    assert [e["url"] for e in tour_doc["events"]] == [
        f"{base}events/{e['id']}" for e in tour_doc["events"]
    ]
    assert all(q["event"]["url"].startswith(base) for q in tour_doc["qualification"])
    assert event_doc["event"]["url"] == f"{base}events/{event}"
    assert event_doc["tour"]["url"] == f"{base}tours/{tour}"


async def test_cct_8b_the_event_page_shows_the_preliminary_and_its_crosstable(
    client: Client, site_db: Database
) -> None:
    """CCT-8b: the preliminary's rows with DE, WIN, SB and KS as `/event standings` computes
    them, and a crosstable row per player with one cell per opponent."""
    _, found = await _ids(site_db, DEMO)
    event = found["Spring Regular"]
    html = await _text(client, f"/g/demo/events/{event}")
    read, rows = await event_reads.event_standings(GuildStore(site_db, DEMO), event)
    view = views.preliminary(read.loaded, rows)
    expected = [
        [
            view.rank_text(i),
            str(escape(name)),
            halves_text(row.points),
            "" if row.de is None else halves_text(row.de),
            str(row.wins),
            halves_text(row.sb),
            halves_text(row.ks),
        ]
        for i, (row, name) in enumerate(zip(view.rows, view.names, strict=True))
    ]
    assert _cells(html, "standings preliminary") == expected
    crosstable = _cells(html, "crosstable")
    assert len(crosstable) == len(rows) and all(len(r) == len(rows) + 3 for r in crosstable)
    assert [r[-1] for r in crosstable] == [halves_text(row.points) for row in rows]
    for link in ("standings.png", "crosstable.png", "standings.csv", "bracket.png"):
        assert f'href="/g/demo/events/{event}/{link}"' in html


async def test_cct_8c_the_bracket_shows_each_series_score_and_its_games(
    client: Client, site_db: Database
) -> None:
    """CCT-8c to CCT-8e: each series' score cells as the bracket view gives them, its winner,
    and its recorded games; the Armageddon the demo plays shows as such."""
    _, found = await _ids(site_db, DEMO)
    store = GuildStore(site_db, DEMO)
    for name, event in found.items():
        if name == "Tour Finals":
            continue
        html = await _text(client, f"/g/demo/events/{event}")
        bracket = await event_reads.event_bracket(store, event)
        view = views.bracket(bracket.read.loaded, bracket.ties)
        boxes = html.split('<div class="series')[1:]
        assert len(boxes) == len(view.series)
        for box, series in zip(boxes, view.series, strict=True):
            assert f"<h4>{series.title}</h4>" in box
            rows = _cells(box, "series-score")
            assert [r[2:] for r in rows] == [
                list(series.score_cells(True)),
                list(series.score_cells(False)),
            ]
            assert str(escape(series.footer()[0])) in box
    assert "won the Armageddon" in "".join(
        [await _text(client, f"/g/demo/events/{e}") for n, e in found.items() if "Finals" not in n]
    )


async def test_cct_9_a_walkover_is_marked_with_its_reason_and_note(
    client: Client, site_db: Database
) -> None:
    """CCT-9: the small world's QF1 was awarded without play: the bracket marks the walkover,
    its reason and the arbiter's note (escaped once), and shows no games for it."""
    _, found = await _ids(site_db, SMALL)
    html = await _text(client, f"/g/small/events/{found['Open']}")
    qf1 = html.split('<div class="series')[1]
    assert 'walkover"' in qf1.split(">")[0]
    assert f"<strong>Walkover</strong> (other: {escape(NOTE)})" in qf1
    assert f"✓ {escape(SCRIPT)} by walkover (other)" in qf1
    assert '<ul class="games">' not in qf1
    assert html.count("<strong>Walkover</strong>") == 8
    document = json.loads(
        await _get(client, f"/g/small/events/{found['Open']}.json", "application/json")
    )
    first = document["knockout"]["series"][0]
    assert (first["walkover"], first["walkover_reason"], first["walkover_note"]) == (
        True,
        "other",
        NOTE,
    )


async def test_cct_8f_the_finals_table_shows_bonus_points(
    client: Client, site_db: Database
) -> None:
    """CCT-8f: the Finals table's match points, bonus and total as `/finals standings` gives
    them, in the page, the CSV and the JSON."""
    _, found = await _ids(site_db, DEMO)
    event = found["Tour Finals"]
    card = await finals_card(GuildStore(site_db, DEMO), event)
    view = views.finals(card.event, card.standings)
    assert any(row.bonus for row in view.rows)
    html = await _text(client, f"/g/demo/events/{event}")
    assert _cells(html, "standings finals") == [
        [
            view.rank_text(i),
            str(escape(n)),
            str(r.match_points),
            halves_text(r.bonus),
            halves_text(r.total),
        ]
        for i, (r, n) in enumerate(zip(view.rows, view.names, strict=True))
    ]
    document = json.loads(await _get(client, f"/g/demo/events/{event}.json", "application/json"))
    assert [(r["player"], r["bonus"], r["total"]) for r in document["finals"]["standings"]] == [
        (n, decimal_text(r.bonus), decimal_text(r.total))
        for r, n in zip(view.rows, view.names, strict=True)
    ]
    csv = (await _get(client, f"/g/demo/events/{event}/standings.csv", "text/csv")).decode()
    assert csv.splitlines()[0] == "rank,tied,tied_for_first,player,match_points,bonus,total"
    assert len(csv.splitlines()) == len(view.rows) + 1


def _event_row(html: str, event: int) -> list[str]:
    """The tour page's row of the event numbered `event`: #, name, type, players, start, status,
    winner."""
    start = html.index('<table class="events">')
    body = html[start : html.index("</table>", start)]
    [row] = [r for r in re.findall(r"<tr>(.*?)</tr>", body) if f'/events/{event}"' in r]
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]


async def _statuses(client: Client, slug: str, tour: int) -> dict[int, tuple[str, str | None]]:
    """Each event's status and winner as the tour's JSON gives them, checked to be what the
    event's own JSON gives."""
    document = json.loads(await _get(client, f"/g/{slug}/tours/{tour}.json", "application/json"))
    found = {}
    for line in document["events"]:
        own = json.loads(
            await _get(client, f"/g/{slug}/events/{line['id']}.json", "application/json")
        )
        shown = (own["event"]["status"], own["event"]["winner"], own["event"]["tied_for_first"])
        assert shown == (line["status"], line["winner"], line["tied_for_first"]), line["name"]
        found[line["id"]] = (line["status"], line["winner"])
    return found


async def test_cct_8f_finals_all_decided_show_finished_with_their_winner(
    client: Client, site_db: Database
) -> None:
    """CCT-8f: the demo's Finals, every match decided, are finished and won by the one player
    first on match points plus bonus, as `/finals standings` ranks them. The tour page, the
    event page, both JSON documents, `/tour show` and `/event show` all say so, and every event
    shows the same status on the tour page as on its own page."""
    tour, found = await _ids(site_db, DEMO)
    event = found["Tour Finals"]
    store = GuildStore(site_db, DEMO)
    card = await finals_card(store, event)
    assert all(m.winner is not None for m in card.matches) and not card.standings.tied_for_first
    winner = str(card.standings.rows[0].player)
    assert card.standings.leader == card.standings.rows[0].player
    html = await _text(client, f"/g/demo/tours/{tour}")
    assert _event_row(html, event)[5:] == ["finished", str(escape(winner))]
    page = await _text(client, f"/g/demo/events/{event}")
    assert f"· finished, won by <bdi>{escape(winner)}</bdi>" in page
    assert "preliminary" not in page.split("</p>")[0]
    statuses = await _statuses(client, "demo", tour)
    assert statuses[event] == ("finished", winner)
    assert {status for status, _ in statuses.values()} == {"finished"}
    for other in found.values():
        row = _event_row(html, other)
        status, won = statuses[other]
        assert row[5] == status and (row[6] or None) == (won and str(escape(won)))
    [line] = [
        e for e in (await tour_reads.tour_card(store, "Demo Tour")).events if e.type == "finals"
    ]
    assert (line.status, line.winner) == ("finished", winner)
    read = await event_reads.read_event(store, event)
    text = str(replies.event_card(read)[0]["description"])
    assert "Status: finished;" in text and f"Won by **{winner}**" in text


async def test_cct_8f_finals_with_a_match_to_decide_show_under_way(
    client: Client, site_db: Database
) -> None:
    """CCT-8f: drawn Finals with matches still to play are under way, with no winner, on the
    tour page, the event page, both JSON documents, `/tour show` and `/event show`."""
    tour, found = await _ids(site_db, FINALS)
    event = found["Finals"]
    store = GuildStore(site_db, FINALS)
    card = await finals_card(store, event)
    decided = [m for m in card.matches if m.winner is not None]
    assert len(decided) == 1 and len(card.matches) == 45
    html = await _text(client, f"/g/finals/tours/{tour}")
    assert _event_row(html, event)[5:] == ["under way", ""]
    page = await _text(client, f"/g/finals/events/{event}")
    assert "· under way" in page and "won by" not in page
    assert await _statuses(client, "finals", tour) == {event: ("under way", None)}
    [line] = (await tour_reads.tour_card(store, "Tour")).events
    assert (line.status, line.winner) == ("under way", None)
    text = str(replies.event_card(await event_reads.read_event(store, event))[0]["description"])
    assert "Status: under way;" in text and "Won by" not in text


async def test_every_download_and_feed_answers_with_its_type(
    client: Client, site_db: Database
) -> None:
    tour, found = await _ids(site_db, DEMO)
    regular, finals = found["Spring Regular"], found["Tour Finals"]
    downloads = {
        f"/g/demo/tours/{tour}/standings.csv": "text/csv",
        f"/g/demo/tours/{tour}/standings.png": "image/png",
        f"/g/demo/events/{regular}/standings.csv": "text/csv",
        f"/g/demo/events/{regular}/standings.png": "image/png",
        f"/g/demo/events/{regular}/crosstable.png": "image/png",
        f"/g/demo/events/{regular}/bracket.png": "image/png",
        f"/g/demo/events/{finals}/standings.png": "image/png",
    }
    for path, kind in downloads.items():
        body = await _get(client, path, kind)
        assert body.startswith(b"\x89PNG") if kind == "image/png" else b"," in body, path
    csv = (await _get(client, f"/g/demo/tours/{tour}/standings.csv", "text/csv")).decode()
    assert csv.startswith("rank,tied,playoff_required,player,points,")
    pages = [f"/g/demo/tours/{tour}"] + [f"/g/demo/events/{e}" for e in found.values()]
    for path in pages:
        assert not re.search(r"[0-9]{15,}", await _text(client, path)), path  # no Discord id
    for path in (f"/g/demo/events/{finals}/crosstable.png", f"/g/demo/events/{finals}/bracket.png"):
        assert (await client.get(path)).status == 404, path


async def test_the_tour_standings_downloads_as_after_an_event_are_named_apart(
    client: Client, site_db: Database
) -> None:
    """As the league's dated downloads: `?after=` is in the file's name."""
    tour, found = await _ids(site_db, DEMO)
    after = found["Spring Regular"]
    for suffix in (".csv", ".png"):
        plain = await client.get(f"/g/demo/tours/{tour}/standings{suffix}")
        dated = await client.get(f"/g/demo/tours/{tour}/standings{suffix}?after={after}")
        assert plain.headers["Content-Disposition"] == (
            f'inline; filename="tour-{tour}-standings{suffix}"'
        )
        assert dated.headers["Content-Disposition"] == (
            f'inline; filename="tour-{tour}-standings-after-{after}{suffix}"'
        )


async def test_the_calendars_parse_and_hold_the_players_games(
    client: Client, site_db: Database
) -> None:
    """The event's calendar is `/event calendar`'s; a player's holds each day they play, with
    their preliminary results and their series."""
    tour, found = await _ids(site_db, DEMO)
    store = GuildStore(site_db, DEMO)
    event = found["Spring Regular"]
    body = await _get(client, f"/g/demo/events/{event}/calendar.ics", "text/calendar")
    _, days = await event_reads.event_calendar(store, event)
    assert len(icalendar.Calendar.from_ical(body).walk("VEVENT")) == len(days)
    loaded = await tour_reads.loaded_tour(store, tour)
    for player in loaded.players:
        path = f"/g/demo/tours/{tour}/players/{player.id}/calendar.ics"
        entries = icalendar.Calendar.from_ical(await _get(client, path, "text/calendar")).walk(
            "VEVENT"
        )
        expected = 0
        for item in loaded.events:
            if player.id not in item.names:
                continue
            if item.record.type is EventType.FINALS:
                expected += item.record.size - 1
                continue
            series = [
                s
                for s in knockout_ties(item).values()
                if player.name in (s.pairing.higher, s.pairing.lower)
            ]
            expected += 3 + 2 * len(series)
        assert len(entries) == expected, player.name
        summaries = [str(e["summary"]) for e in entries]
        assert all(player.name in s for s in summaries)
        assert len({str(e["uid"]) for e in entries}) == len(entries)
    assert any(re.search(r": (1-0|0-1|½-½)", s) for s in summaries)


async def test_the_json_validates_against_its_schema(client: Client, site_db: Database) -> None:
    """Both documents of both guilds validate, the schema is draft 2020-12, and a score written
    as a float is refused by it."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    for guild, slug in ((DEMO, "demo"), (SMALL, "small"), (FINALS, "finals")):
        tour, found = await _ids(site_db, guild)
        paths = [f"/g/{slug}/tours/{tour}.json"] + [
            f"/g/{slug}/events/{e}.json" for e in found.values()
        ]
        for path in paths:
            body = await _get(client, path, "application/json")
            jsonschema.validate(json.loads(body), SCHEMA)
            assert not re.search(rb"[0-9]{15,}", body), path  # no Discord id
    document = json.loads(
        await _get(
            client, f"/g/demo/tours/{(await _ids(site_db, DEMO))[0]}.json", "application/json"
        )
    )
    points = document["standings"][0]["points"]
    document["standings"][0]["points"] = float(points)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, SCHEMA)
    document["standings"][0]["points"] = points
    report = await tour_reads.tour_standings(GuildStore(site_db, DEMO), "Demo Tour")
    assert [(s["player"], s["points"]) for s in document["standings"]] == [
        (str(r.player), str(r.record.points)) for r in report.ranking
    ]


async def test_a_hostile_name_is_shown_literally_and_escaped_once(
    client: Client, site_db: Database
) -> None:
    """HTML, a masked link, a mention and a right-to-left override in player names: each page
    shows them as typed, escaped once by the template engine, never as markup."""
    tour, found = await _ids(site_db, SMALL)
    pages = [f"/g/small/tours/{tour}", f"/g/small/events/{found['Open']}"]
    for path in pages:
        html = await _text(client, path)
        assert "<script>" not in html and "<b>" not in html, path
        assert 'href="https://e.com"' not in html
        for name in HOSTILE:
            assert f"<bdi>{escape(name)}</bdi>" in html, (path, name)
        assert "&amp;lt;" not in html and "&amp;amp;" not in html
        assert escape("Small <Tour>") in html
    document = json.loads(await _get(client, f"/g/small/tours/{tour}.json", "application/json"))
    assert {s["player"] for s in document["standings"]} >= set(HOSTILE)


async def test_cct_8f_a_hostile_finalist_is_shown_literally_on_the_finals_pages(
    client: Client, site_db: Database
) -> None:
    """A finalist named with HTML is shown as typed on the Finals page and the tour page.

    The name is stored directly, as an older database could hold it.
    """
    tour, _ = await _ids(site_db, DEMO)
    async with GuildStore(site_db, DEMO).read() as view:
        [finals] = await view.tour_events.of_tour(tour, EventType.FINALS)
        finalist = (await view.tour_events.players(finals.id))[0]
    async with site_db.writer() as connection:
        await connection.execute(
            "UPDATE tour_players SET name = ? WHERE id = ?", (SCRIPT, finalist.player_id)
        )
    for path in (f"/g/demo/events/{finals.id}", f"/g/demo/tours/{tour}"):
        html = await _text(client, path)
        assert "<script>" not in html, path
        assert f"<bdi>{escape(SCRIPT)}</bdi>" in html, path
        assert "&amp;lt;" not in html, path


async def test_finals_that_do_not_add_up_show_the_problem_not_a_404(
    client: Client, site_db: Database
) -> None:
    """CCT-8f: a stored Finals result naming a player outside its match, as an old database
    could hold, leaves the event page standing and says why the table is missing."""
    _, found = await _ids(site_db, FINALS)
    [event] = found.values()
    store = GuildStore(site_db, FINALS)
    facts = (await event_reads.read_event(store, event)).loaded.facts
    [awarded] = [m for m in finals_matches(facts) if m.record is not None]
    async with store.read() as view:
        entered = await view.tour_events.players(event)
    outsider = next(
        p.player_id for p in entered if p.name not in (awarded.pairing.white, awarded.pairing.black)
    )
    async with site_db.writer() as connection:
        cursor = await connection.execute(
            "UPDATE tour_contests SET recorded = json_set(recorded, '$.winner', ?)"
            " WHERE guild_id = ? AND recorded IS NOT NULL",
            (outsider, FINALS),
        )
        assert cursor.rowcount == 1
    reply = await client.get(f"/g/finals/events/{event}")
    html = await reply.text()
    assert reply.status == 200, html
    assert "The Finals table cannot be shown:" in html
    assert "did not play that Finals match" in html


async def test_another_guilds_or_a_bad_id_is_the_404_page(
    client: Client, site_db: Database
) -> None:
    demo_tour, demo_events = await _ids(site_db, DEMO)
    small_tour, small_events = await _ids(site_db, SMALL)
    async with GuildStore(site_db, DEMO).read() as view:
        demo_player = (await view.tours.players(demo_tour))[0].id
    event = next(iter(demo_events.values()))
    paths = [
        f"/g/small/tours/{demo_tour}",
        f"/g/small/tours/{demo_tour}.json",
        f"/g/small/events/{event}",
        f"/g/small/events/{event}.json",
        f"/g/small/events/{event}/standings.csv",
        f"/g/small/events/{event}/bracket.png",
        f"/g/small/events/{event}/calendar.ics",
        f"/g/small/tours/{small_tour}/players/{demo_player}/calendar.ics",
        f"/g/demo/tours/{small_tour}",
        f"/g/demo/events/{small_events['Open']}",
        f"/g/demo/tours/{demo_tour}?after={small_events['Open']}",
        "/g/demo/tours/x",
        "/g/demo/events/-1",
        "/g/demo/tours/999999/standings.csv",
        "/g/nobody/tours/1",
    ]
    for path in paths:
        reply = await client.get(path)
        assert reply.status == 404, path
        assert "There is no page at this address." in await reply.text()
    bad = await client.get(f"/g/demo/tours/{demo_tour}?after=spring")
    assert bad.status == 400


async def test_an_event_before_its_draw_shows_what_it_has(
    client: Client, site_db: Database
) -> None:
    """CCT-3: before its draw an event has no table, no bracket and no downloads, but its page,
    its JSON and its calendar answer, and the tour's qualification lists who qualified for it."""
    tour, found = await _ids(site_db, SMALL)
    event = found["Later"]
    html = await _text(client, f"/g/small/events/{event}")
    assert "No draw yet." in html and "standings.png" not in html
    document = json.loads(await _get(client, f"/g/small/events/{event}.json", "application/json"))
    assert (document["preliminary"], document["knockout"], document["finals"]) == (None,) * 3
    ics = await _get(client, f"/g/small/events/{event}/calendar.ics", "text/calendar")
    assert len(icalendar.Calendar.from_ical(ics).walk("VEVENT")) == 9
    for download in ("standings.csv", "standings.png", "crosstable.png", "bracket.png"):
        assert (await client.get(f"/g/small/events/{event}/{download}")).status == 404
    store = GuildStore(site_db, SMALL)
    _, listed, _ = await tour_reads.qualification(store, "Small <Tour>", "Later")
    page = json.loads(await _get(client, f"/g/small/tours/{tour}.json", "application/json"))
    [later] = [q for q in page["qualification"] if q["event"]["id"] == event]
    assert [q["player"] for q in later["qualified"]] == [str(q.player) for q in listed.qualified]
    assert later["qualified"] and later["places_left"] == listed.places_left

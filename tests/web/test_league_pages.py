"""The league's pages, downloads and feeds on the 4-club demo's league, compared with the services
the slash commands use.

One copy of the demo's database serves the module, since the pages only read it. Before the tests
it gets a hostile club name, a second season in the demo guild, and another guild with the same
season, so that ids of another guild or season can be asked for.
"""

from __future__ import annotations

import datetime as dt
import html
import io
import json
import re
import shutil
import threading
from collections.abc import AsyncIterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import icalendar
import jsonschema
import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.cli import main
from bot.formats.season_file import load_season as load_season_file
from bot.league.standings.views import SeasonViews, standings_views
from bot.league.store import StandingsCache, import_season
from bot.offline.demo.season_script import GUILD
from bot.offline.discord_messages import stable_id
from bot.rendering.common.text import halves_text
from bot.rendering.league.crosstable_image import crosstable_png
from bot.rendering.league.division_view import rank_text
from bot.rendering.league.standings_csv import standings_csv
from bot.rendering.league.standings_image import standings_png
from bot.web.league import files
from bot.web.site import make_app
from bot.web.templates import isolated
from core.league.season import Season
from core.points import decimal_text
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.demos import Played

pytestmark = pytest.mark.asyncio(loop_scope="module")

GUILD_ID = stable_id("guild", GUILD)
OTHER_GUILD_ID = GUILD_ID + 1
NOW = dt.datetime(2018, 1, 1, 12, tzinfo=dt.UTC)
"""The site's clock: after the demo season, on a day not over yet."""
HOSTILE = "<script>alert(1)</script> [x](https://e.com) @everyone \u202eevil"
RENAMED = "Liverpool Fans"
"""The demo's disqualified club, which takes the hostile name: it is in tables, the crosstable,
void matches and forfeit sentences."""
SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "web-league.schema.json").read_text())
Client = TestClient[web.Request, web.Application]


@dataclass(frozen=True)
class World:
    """The site's client and database, and the ids the tests ask for."""

    client: Client
    database: Database
    season: int
    second_season: int
    second_division: int
    other_season: int
    other_division: int
    other_match: int
    other_club: int
    hostile: int
    stranger: int
    """A club of the demo guild that plays only in the second season."""

    def store(self) -> GuildStore:
        return GuildStore(self.database, GUILD_ID)

    async def views(self, division: int | None = None, as_of: dt.date | None = None) -> SeasonViews:
        """What `/standings` gives for the demo season."""
        return await standings_views(
            self.store(), StandingsCache(), self.season, division, as_of=as_of
        )

    async def text(self, path: str, content_type: str = "text/html") -> str:
        """The page at `path`, which must answer 200 with `content_type`."""
        reply = await self.client.get(path)
        body = await reply.text()
        assert reply.status == 200, (path, body)
        assert reply.headers["Content-Type"].startswith(content_type), path
        return body

    async def bytes(self, path: str, content_type: str) -> bytes:
        reply = await self.client.get(path)
        assert reply.status == 200, path
        assert reply.headers["Content-Type"].startswith(content_type), path
        return await reply.read()


def _demo_out(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 4-club demo's output folder, played once per test process (as `demo_played` does)."""
    if (2, 4) not in played:
        out = tmp_path_factory.mktemp("demo-2-4") / "demo"
        printed, err = io.StringIO(), io.StringIO()
        with redirect_stdout(printed), redirect_stderr(err):
            code = main(["demo", "--seed", "2", "--clubs", "4", "--out", str(out)])
        assert code == 0, err.getvalue()
        played[2, 4] = (out, printed.getvalue())
    return played[2, 4][0]


@pytest.fixture(scope="module")
def site_file(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the 4-club demo's database for this module, beside its season file."""
    out = _demo_out(played, tmp_path_factory)
    folder = tmp_path_factory.mktemp("web-league")
    shutil.copy(out / "season.json", folder / "season.json")
    return Path(shutil.copy(out / "arbiter.db", folder / "arbiter.db"))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(site_file: Path) -> AsyncIterator[World]:
    """The demo guild published as `demo` with a hostile club name and a second season, and
    another guild published as `other` holding the same season."""
    database = await Database.open(site_file, clock=lambda: NOW)
    try:
        await database.migrate()
        season_file = load_season_file((site_file.parent / "season.json").read_bytes())
        ids = await _prepare(database, season_file)
        app = make_app(database, requests_per_minute=1_000_000)
        async with TestClient(TestServer(app)) as client:
            yield World(client, database, *ids)
    finally:
        await database.close()


async def _prepare(database: Database, season_file: Season) -> tuple[int, ...]:
    """Publishes both guilds, gives the demo's disqualified club the hostile name and imports
    the season file twice: as the demo guild's second season and as the other guild's.

    Returns the `World`'s ids in its order.
    """
    demo, other = GuildStore(database, GUILD_ID), GuildStore(database, OTHER_GUILD_ID)
    async with demo.league_change(None, "test.setup", "web") as uow:
        await uow.web_sites.publish("demo")
        club = await uow.clubs.by_name(RENAMED)
        assert club is not None
        await uow.clubs.reopen(club.id, HOSTILE, None)
        await uow.clubs.decide(club.id, "approved", None)
        [season] = await uow.seasons.all()
        second = await import_season(uow, season_file, name="Second season")
        second_division = (await uow.seasons.divisions(second.id))[0].id
        stranger = await uow.clubs.by_name(RENAMED)
        assert stranger is not None
    async with other.league_change(None, "test.setup", "web") as theirs:
        await theirs.web_sites.publish("other")
        their_season = await import_season(theirs, season_file)
        their_division = (await theirs.seasons.divisions(their_season.id))[0].id
        their_match = (await theirs.matches.of_season(their_season.id))[0].id
        their_club = (await theirs.clubs.all())[0].id
    return (
        season.id,
        second.id,
        second_division,
        their_season.id,
        their_division,
        their_match,
        their_club,
        club.id,
        stranger.id,
    )


def iso(name: str) -> str:
    """A name between Unicode's first-strong isolate and its end, as sentences show names."""
    return f"\u2068{name}\u2069"


def _season_url(world: World, *parts: object) -> str:
    return "/".join([f"/g/demo/seasons/{world.season}", *(str(p) for p in parts)])


def _cells(page: str, table: str) -> list[list[str]]:
    """The text of each body row's cells of the first table of class `table`, unescaped."""
    start = page.index(f'<table class="{table}">')
    body = page[page.index("<tbody>", start) : page.index("</tbody>", start)]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in rows
    ]


async def test_the_season_page_shows_each_division_table_and_links_it(world: World) -> None:
    """CL-17: every division's table as `/standings` gives it, each linking to its own page."""
    found = await world.views()
    page = await world.text(_season_url(world))
    assert f"<h1>{isolated(found.season)}: standings</h1>" in page
    assert page.count('<table class="standings">') == len(found.divisions) == 3
    for view in found.divisions:
        assert f"<bdi>{view.division}</bdi></a></h2>" in page
    first = _cells(page, "standings")[0]
    top = found.divisions[0].rows[0]
    assert first[:2] == [rank_text(top), f"★ {top.club}"]  # the CL-16 champion is starred
    assert first[6] == halves_text(top.match_points)
    for division in range(1, 4):
        assert f'href="{_season_url(world, "divisions", division)}"' in page
    assert f'href="{_season_url(world, "calendar.ics")}"' in page
    assert f'href="{_season_url(world, "clubs", world.hostile, "calendar.ics")}"' in page


async def test_a_division_page_shows_the_cl17_table_with_its_marks(world: World) -> None:
    """CL-17, CL-8, CL-DQ: shared ranks `2=`, the disqualified club marked DQ, zones in words and
    a legend, the state caption, and links to the table's image, CSV, crosstable and rounds."""
    [view] = (await world.views(3)).divisions
    page = await world.text(_season_url(world, "divisions", 3))
    rows = _cells(page, "standings")
    assert [row[0] for row in rows] == [rank_text(r) for r in view.rows]
    assert [row[1] for row in rows] == [r.club for r in view.rows]
    assert [row[6] for row in rows] == [halves_text(r.match_points) for r in view.rows]
    assert "2=" in [row[0] for row in rows] and rows[-1][0] == "DQ"
    assert [row[-1] for row in rows] == ["up" if r.club in view.up else "" for r in view.rows]
    assert "up / down: the clubs the CL-8 proposal moves" in page
    headings = re.findall(r"<th>(.*?)</th>", page.split('<table class="standings">')[1])
    legend = re.search(r"<li>(P played.*?)</li>", page)
    assert legend is not None
    named = [part.split(" ")[0] for part in legend.group(1).split(" · ")]
    assert named == [h for h in headings if h in named] == headings[2:10]
    assert "2= shared rank" in page and "DQ disqualified (CL-DQ)" in page
    assert f'<p class="caption">{view.caption("Standings")}</p>' in page
    assert view.caption("Standings").startswith("Final standings")
    for tail in ("standings.png", "standings.csv", "crosstable", "crosstable.png", "rounds"):
        assert f'href="{_season_url(world, "divisions", 3, tail)}"' in page
    [top] = (await world.views(1)).divisions
    premier = await world.text(_season_url(world, "divisions", 1))
    assert top.down and all(f"<bdi>{club}</bdi>" in premier for club in top.down)
    assert [row[-1] for row in _cells(premier, "standings")][-1] == "down"
    assert "★ champion (CL-16)" in premier
    assert f"Champion (CL-16): <bdi>{top.champion}</bdi>" in premier


async def test_as_of_changes_the_tables_their_files_and_feed(world: World) -> None:
    """CL-1: `?as_of=` shows the tables at the end of that day, on the pages, PNG, CSV and JSON."""
    day = dt.date(2017, 9, 13)
    [then] = (await world.views(1, day)).divisions
    [now] = (await world.views(1)).divisions
    assert [r.club for r in then.rows] != [r.club for r in now.rows]
    page = await world.text(_season_url(world, "divisions", 1) + "?as_of=2017-09-13")
    assert f"{isolated('Demo League 2')}: standings as of 2017-09-13" in page
    assert "after round 1 of 3 · as of 2017-09-13" in page
    assert [row[1] for row in _cells(page, "standings")] == [r.club for r in then.rows]
    assert f'href="{_season_url(world, "divisions", 1, "standings.png")}?as_of=2017-09-13"' in page
    season = await world.text(_season_url(world) + "?as_of=2017-09-13")
    assert season.count("after round 1 of 3") == 3
    csv = await world.text(
        _season_url(world, "divisions", 1, "standings.csv") + "?as_of=2017-09-13", "text/csv"
    )
    assert csv == standings_csv(then)
    assert csv != await world.text(_season_url(world, "divisions", 1, "standings.csv"), "text/csv")
    png = await world.bytes(
        _season_url(world, "divisions", 1, "standings.png") + "?as_of=2017-09-13", "image/png"
    )
    assert png == standings_png(then)
    feed = json.loads(
        await world.text(
            _season_url(world, "standings.json") + "?as_of=2017-09-13", "application/json"
        )
    )
    assert feed["season"]["as_of"] == "2017-09-13"
    assert [r["club"] for r in feed["divisions"][0]["standings"]] == [r.club for r in then.rows]


async def test_a_day_not_over_is_shown_as_at_now_in_the_commands_words(world: World) -> None:
    """CL-1: the site's today is not judged ahead of time; the heading says so as `/standings`
    does."""
    page = await world.text(_season_url(world) + "?as_of=2018-01-01")
    assert f"{isolated('Demo League 2')}: standings as at now (2018-01-01 is not over yet)" in page
    assert page.count("Final standings") == 3


async def test_a_bad_as_of_is_a_400(world: World) -> None:
    for tail in (
        "",
        "/divisions/1",
        "/divisions/1/standings.png",
        "/standings.json",
        "/divisions/1/crosstable",
    ):
        for bad in ("2017-13-01", "yesterday", "2017-9-1"):
            reply = await world.client.get(f"{_season_url(world)}{tail}?as_of={bad}")
            assert reply.status == 400, (tail, bad)
            assert "as_of must be a day written YYYY-MM-DD" in await reply.text()


async def test_the_crosstable_page_marks_forfeits_and_void_matches(world: World) -> None:
    """A cell per pair from the division view; F+ / F− forfeits, void (CL-DQ) cells in
    brackets, and a legend saying so."""
    [view] = (await world.views(3)).divisions
    page = await world.text(_season_url(world, "divisions", 3, "crosstable"))
    rows = _cells(page, "crosstable")
    assert [row[1] for row in rows] == [r.club for r in view.rows]
    size = len(view.rows)
    cells = [row[2 : 2 + size] for row in rows]
    assert cells[0][1] == "F+" and cells[1][0] == "F−"  # CL-21: Atletico Fans forfeited
    assert all(text.startswith("(") for text in cells[-1][:-1])  # the DQ club's row: all void
    assert '<td class="cell lost void">(F−)</td>' in page
    assert "F+ / F− forfeit won / lost (CL-FF)" in page
    assert "a dot: not played yet" not in page  # the legend explains the marks that appear
    dated = await world.text(_season_url(world, "divisions", 3, "crosstable") + "?as_of=2017-09-13")
    assert "a dot: not played yet" in dated
    assert "void, since a club of the match is disqualified (CL-DQ)" in page
    assert f'href="{_season_url(world, "divisions", 3, "crosstable.png")}"' in page


async def test_the_rounds_pages_explain_forfeits_and_void_matches(world: World) -> None:
    """Every match by round, linking to its page; a forfeit says who won and the rule the other
    broke, a void match which club was disqualified (CL-DQ)."""
    async with world.store().read() as view:
        matches = await view.matches.of_season(world.season)
    page = await world.text(_season_url(world, "rounds"))
    for m in matches:
        assert f'<a href="/g/demo/matches/{m.id}">{m.key}</a>' in page
    assert [int(n) for n in re.findall(r"<h2>Round (\d+)</h2>", page)] == [1, 2, 3]
    forfeit = f"{iso('Flamengo Fans')} won by forfeit: {iso('Atletico Fans')} lost it by the"
    assert f"{forfeit} directors&#39; decision on roster removals (CL-21)." in page
    assert "was disqualified (CL-DQ), so this match counts for no one." in page
    assert f"{iso('Leeds United Fans')} had more members than the limit (CL-5)" in page
    two = await world.text(_season_url(world, "divisions", 3, "rounds"))
    assert two.count("/g/demo/matches/") == sum(1 for m in matches if m.division_id == 3)
    assert "PD-1-1" not in two
    [(season, name)] = re.findall(r"<h1><bdi>(.*?)</bdi> · <bdi>(.*?)</bdi>: fixtures", two)
    assert f"<title>{isolated(season)}: rounds</title>" in page
    assert f"<title>{isolated(season)} · {isolated(name)}: rounds</title>" in two


async def test_a_match_page_shows_its_boards_state_and_why_it_counts(world: World) -> None:
    """`/match show`'s card: clubs, round, state, the score and what it counts as; an adjusted
    board (CL-18) says why; no Discord id appears."""
    async with world.store().read() as view:
        by_key = {m.key: m for m in await view.matches.of_season(world.season)}
        boards = await view.matches.boards(by_key["DO-2-1"].id)
    void = await world.text(f"/g/demo/matches/{by_key['DT-1-1'].id}")
    assert "<dt>State</dt><dd>void (CL-DQ)</dd>" in void
    assert "Void (CL-DQ):" in void and "so it counts for nobody" in void
    assert "<dt>Round</dt><dd>1</dd>" in void
    adjusted = await world.text(f"/g/demo/matches/{by_key['DO-2-1'].id}")
    assert "Adjusted: multi-team player (CL-18)" in adjusted
    assert "after adjusting players&#39; boards (CL-18)" in adjusted
    for board in boards:
        assert f"<bdi>{board.home_player}</bdi>" in adjusted
        assert f"<bdi>{board.away_player}</bdi>" in adjusted
    forfeit = await world.text(f"/g/demo/matches/{by_key['PD-3-1'].id}")
    counts = (
        f"Counts as a forfeit: {iso('Leeds United Fans')} over 400 members at the start (CL-5)."
    )
    assert counts in forfeit
    for page in (void, adjusted, forfeit):  # the label does not repeat the sentence's first word
        assert '<dt>In the standings</dt><dd class="counts">' in page
    for page in (void, adjusted, forfeit):
        assert str(GUILD_ID) not in page
        assert not re.search(r"\d{15,}", page)


async def test_the_division_files_are_the_commands_files(world: World) -> None:
    """`standings.png`, `standings.csv` and `crosstable.png` are the bytes `/standings` and
    `/crosstable` send, with a file name."""
    [view] = (await world.views(2)).divisions
    base = _season_url(world, "divisions", 2)
    assert await world.bytes(f"{base}/standings.png", "image/png") == standings_png(view)
    assert await world.bytes(f"{base}/crosstable.png", "image/png") == crosstable_png(view)
    assert await world.text(f"{base}/standings.csv", "text/csv") == standings_csv(view)
    reply = await world.client.get(f"{base}/standings.csv")
    assert reply.headers["Content-Disposition"] == (
        'inline; filename="standings-demo-league-2-division-one.csv"'
    )
    season_csv = await world.text(_season_url(world, "standings.csv"), "text/csv")
    assert season_csv.splitlines()[1].startswith("Premier Division,1,")


async def test_the_calendars_parse_and_hold_the_fixtures(world: World) -> None:
    """The season's and a club's .ics: every fixture with its date, results once known, void
    matches cancelled."""
    async with world.store().read() as view:
        matches = await view.matches.of_season(world.season)
    data = await world.bytes(_season_url(world, "calendar.ics"), "text/calendar")
    events = icalendar.Calendar.from_ical(data).walk("VEVENT")
    assert len(events) == len(matches) == 18
    starts = sorted(e.decoded("dtstart") for e in events)
    assert starts == sorted(m.start for m in matches)
    summaries = [str(e["summary"]) for e in events]
    assert "Flamengo Fans – Valencia Fans (10–6)" in summaries
    club = await world.bytes(
        _season_url(world, "clubs", world.hostile, "calendar.ics"), "text/calendar"
    )
    mine = icalendar.Calendar.from_ical(club).walk("VEVENT")
    assert len(mine) == 3
    assert all(HOSTILE in str(e["summary"]) for e in mine)
    assert all(str(e["status"]) == "CANCELLED" for e in mine)
    season_name = str(icalendar.Calendar.from_ical(data)["x-wr-calname"])
    named = str(icalendar.Calendar.from_ical(club)["x-wr-calname"])
    assert named == f"{season_name} · {HOSTILE}"


async def test_feed_links_are_absolute_with_a_base_url(world: World) -> None:
    """A calendar is subscribed to by URL: with `base_url` set, the pages give it whole."""
    app = make_app(world.database, base_url="https://chess.example/", requests_per_minute=10_000)
    async with TestClient(TestServer(app)) as client:
        page = await (await client.get(_season_url(world))).text()
        feed = json.loads(await (await client.get(_season_url(world, "standings.json"))).text())
    assert f'href="https://chess.example{_season_url(world, "calendar.ics")}"' in page
    assert feed["season"]["calendar"] == "https://chess.example" + _season_url(
        world, "calendar.ics"
    )
    jsonschema.Draft202012Validator(SCHEMA).validate(feed)
    relative = await world.text(_season_url(world))
    assert f'href="{_season_url(world, "calendar.ics")}"' in relative


async def test_the_json_validates_and_matches_the_standings(world: World) -> None:
    """The season's tables as documented JSON: points as exact decimal strings."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    found = await world.views()
    feed = json.loads(await world.text(_season_url(world, "standings.json"), "application/json"))
    jsonschema.Draft202012Validator(SCHEMA).validate(feed)
    assert [d["name"] for d in feed["divisions"]] == [v.division for v in found.divisions]
    for division, view in zip(feed["divisions"], found.divisions, strict=True):
        assert [r["club"] for r in division["standings"]] == [r.club for r in view.rows]
        assert [r["match_points"] for r in division["standings"]] == [
            decimal_text(r.match_points) for r in view.rows
        ]
        assert division["caption"] == view.caption("Standings")
        assert division["champion"] == view.champion
    assert "2.5" in {r["match_points"] for r in feed["divisions"][1]["standings"]}
    assert feed["divisions"][2]["standings"][-1]["rank_text"] == "DQ"
    bad = json.loads(json.dumps(feed))
    bad["divisions"][0]["standings"][0]["match_points"] = 2.0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(bad)


async def test_a_hostile_club_name_is_shown_literally_and_escaped_once(world: World) -> None:
    """HTML, a script, a masked link, a mention and an RTL override in a club's name are shown
    as typed on every league page it appears on, escaped once by the template engine."""
    async with world.store().read() as view:
        keys = {m.key: m.id for m in await view.matches.of_season(world.season)}
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt; [x](https://e.com) @everyone \u202eevil"
    pages = [
        _season_url(world),
        _season_url(world, "divisions", 3),
        _season_url(world, "divisions", 3, "crosstable"),
        _season_url(world, "rounds"),
        _season_url(world, "divisions", 3, "rounds"),
        f"/g/demo/matches/{keys['DT-1-1']}",
        f"/g/demo/matches/{keys['DT-3-2']}",
    ]
    for path in pages:
        page = await world.text(path)
        assert f"<bdi>{escaped}</bdi>" in page, path
        assert "<script>" not in page and "&amp;lt;" not in page, path
        assert "\\[x\\]" not in page and "\\@everyone" not in page, path
    # In a sentence the name is isolated, so its right-to-left override stops at its end.
    rounds = await world.text(_season_url(world, "rounds"))
    assert f"Void: {iso(escaped)} was disqualified (CL-DQ), so this match counts" in rounds
    void = await world.text(f"/g/demo/matches/{keys['DT-1-1']}")
    assert f"<title>{iso(escaped)} – {iso('Atletico Fans')}</title>" in void
    assert f"Void (CL-DQ): {iso(escaped)} disqualified (CL-20)" in void
    feed = json.loads(await world.text(_season_url(world, "standings.json"), "application/json"))
    assert feed["divisions"][2]["standings"][-1]["club"] == HOSTILE
    csv = await world.text(_season_url(world, "divisions", 3, "standings.csv"), "text/csv")
    assert HOSTILE in csv
    for image in ("standings.png", "crosstable.png"):
        png = await world.bytes(_season_url(world, "divisions", 3, image), "image/png")
        assert png.startswith(b"\x89PNG")
    reply = await world.client.get(_season_url(world, "clubs", world.hostile, "calendar.ics"))
    assert re.fullmatch(r'inline; filename="[a-z0-9-]+\.ics"', reply.headers["Content-Disposition"])


async def test_another_guilds_or_seasons_ids_are_the_404_page(world: World) -> None:
    """Only the guild's own records: another guild's season, division, match or club, a
    division or club not of the season, and malformed ids all answer the plain 404 page."""
    season = _season_url(world)
    paths = [
        f"/g/demo/seasons/{world.other_season}",
        f"/g/demo/seasons/{world.other_season}/calendar.ics",
        f"/g/demo/seasons/{world.other_season}/standings.json",
        f"/g/demo/matches/{world.other_match}",
        f"{season}/divisions/{world.other_division}",
        f"{season}/divisions/{world.second_division}",
        f"{season}/divisions/{world.second_division}/standings.png",
        f"{season}/divisions/{world.second_division}/rounds",
        f"{season}/clubs/{world.other_club}/calendar.ics",
        f"{season}/clubs/{world.stranger}/calendar.ics",
        f"/g/other/seasons/{world.season}",
        "/g/other/matches/1",
        f"{season}/divisions/x",
        f"{season}/divisions/-1/crosstable",
        "/g/demo/matches/99999999999999999999",
        "/g/demo/matches/%D9%A3",
        f"{season}/divisions/1/nothing.png",
    ]
    for path in paths:
        reply = await world.client.get(path)
        assert reply.status == 404, path
        assert "There is no page at this address." in await reply.text()
    # The same ids are found under their own guild or season.
    assert (await world.client.get(f"/g/other/seasons/{world.other_season}")).status == 200
    assert (await world.client.get(f"/g/other/matches/{world.other_match}")).status == 200
    second = f"/g/demo/seasons/{world.second_season}/divisions/{world.second_division}"
    assert (await world.client.get(second)).status == 200
    stranger = f"/g/demo/seasons/{world.second_season}/clubs/{world.stranger}/calendar.ics"
    assert (await world.client.get(stranger)).status == 200


async def test_an_unchanged_league_page_is_answered_304(world: World) -> None:
    path = _season_url(world, "divisions", 1, "standings.png")
    first = await world.client.get(path)
    again = await world.client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 304


async def test_png_downloads_are_drawn_off_the_loop() -> None:
    """The site draws images in a worker thread, with the commands' `drawn`."""
    threads: list[str] = []

    def draw() -> bytes:
        threads.append(threading.current_thread().name)
        return b"png"

    assert await files.drawn(draw) == b"png"
    assert threads and threads[0] != threading.current_thread().name

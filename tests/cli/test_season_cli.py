"""`arbiter season` and the league's database adapter: import → export gives the same facts,
standings from the database equal `arbiter league` on the file, guilds do not see each other,
the .ics parses with one UTC event per match, and racing writers leave a consistent state."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import datetime as dt
import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import icalendar
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.formats.season_file import RulesModel, dump_season
from bot.formats.season_file import load_season as load_file
from bot.league.store import StandingsCache, import_season, load_season
from bot.rendering.league.report_json import report_json
from core.league import league_report
from core.league.season import Season
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import BoardRecord
from tests.core.test_league_properties import seasons
from tests.support.cl_seasons import ROUND_ONE, iso, match, season

GUILD, OTHER = 111, 222
LONG = os.environ.get("ARBITER_LONG_PROPERTIES") == "1"

FIXTURE_SEASONS: dict[str, dict[str, Any]] = {
    "plain": season(
        [
            match("1", "A", "B", [("a1", "b1", 2), ("a2", "b2", 1.5)], round=1),
            match("2", "C", "D", [("c1", "d1", 1)], round=1),
            match("3", "A", "C", round=2, finished=False, challenge="issued"),
        ],
        closed_accounts=["Zed"],
    ),
    "decisions": season(
        [
            match("P-1", "A", "B", at_start={"A": {"members": 401, "avg_rating": 1544.5}}),
            match("P-2", "C", "D", challenge=None),
            match("P-3", "B", "C", round=2, at_start={"C": {"players": 1}}),
        ],
        director_forfeits=[
            {"match": "P-3", "club": "B", "rule": "CL-21", "decided": "2017-12-01T00:00:00Z"}
        ],
        director_disqualifications=[{"club": "D", "rule": "CL-18"}],
        withdrawn=["A"],
        rules={"games_per_board": 2, "challenge_deadline_hours": 48, "promotion_places": 1},
    ),
    "two divisions": season(
        [
            match(
                "P-1",
                "A",
                "B",
                division="P",
                start=dt.datetime(
                    2018, 1, 1, 17, 30, 15, 5000, tzinfo=dt.timezone(dt.timedelta(hours=2))
                ),
            ),
            match("O-1", "C", "D", division="O", finished=False),
        ],
        divisions={"P": ["A", "B"], "O": ["C", "D", "E"]},
        rules={"divisions_cutoff": "2018-03-01", "max_avg_rating": 1650.5},
    ),
    "season settings": season(
        [match("1", "A", "B", [("a1", "b1", 2)], round=1)],
        rules={
            "reminder_hours": [72, 24, 6],
            "promoted": 2,
            "relegated": 2,
            "vote_deadline_hours": 48,
            "vote_quorum": 4,
            "min_club_admins": 3,
            "timeout_ratio_limit_percent": 33.5,
            "clubs_per_division": 10,
            "start_time": "18:30",
            "start_zone": "Europe/London",
        },
    ),
}


def facts(season: Season) -> dict[str, Any]:
    """A season's facts with order normalised where order means nothing (matches, decisions,
        withdrawals; closed accounts are a set of names compared without case, as CL-19 reads
    them); instants compare as instants whatever their offset."""
    data = dataclasses.asdict(season)
    data["matches"] = sorted(data["matches"], key=lambda m: m["id"])
    data["closed_accounts"] = sorted({name.casefold() for name in data["closed_accounts"]})
    data["withdrawn"] = sorted(data["withdrawn"])
    for key in ("director_forfeits", "director_disqualifications"):
        data[key] = sorted(data[key], key=lambda d: json.dumps(d, default=str, sort_keys=True))
    return data


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[database]\npath = "{tmp_path / "db" / "arbiter.db"}"\n', encoding="utf-8")
    return path


def _arbiter(config: Path, *args: str) -> int:
    return main(["season", *args, "--config", str(config)])


def _file(tmp_path: Path, data: dict[str, Any], name: str = "season.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", sorted(FIXTURE_SEASONS))
def test_import_export_gives_the_same_facts_and_the_same_standings(
    name: str, tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = FIXTURE_SEASONS[name]
    original = _file(tmp_path, data)
    assert _arbiter(config, "import", original, "--guild", str(GUILD)) == 0
    exported = tmp_path / "exported.json"
    assert _arbiter(config, "export", data["name"], "--guild", str(GUILD), "-o", str(exported)) == 0
    assert facts(load_file(exported.read_text("utf-8"))) == facts(load_file(json.dumps(data)))
    assert json.loads(exported.read_text("utf-8"))["rules"].keys() == set(RulesModel.model_fields)
    capsys.readouterr()
    for extra in ([], ["--json"], ["--as-of", "2017-10-25"], ["--as-of", "2018-12-31", "--json"]):
        assert _arbiter(config, "standings", data["name"], "--guild", str(GUILD), *extra) == 0
        from_db = capsys.readouterr().out
        assert main(["league", original, *extra]) == 0
        assert from_db == capsys.readouterr().out


def test_a_guilds_season_is_invisible_to_every_command_of_another(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = FIXTURE_SEASONS["plain"]
    assert _arbiter(config, "import", _file(tmp_path, data), "--guild", str(GUILD)) == 0
    assert (
        _arbiter(
            config, "import", _file(tmp_path, season([], name="Other"), "b.json"), "--guild", "333"
        )
        == 0
    )
    capsys.readouterr()
    name = data["name"]
    for guild in (str(OTHER), "333"):
        commands = [
            ["export", name, "--guild", guild],
            ["standings", name, "--guild", guild],
            ["standings", name, "--guild", guild, "--json"],
            ["calendar", name, "--guild", guild],
        ]
        for command in commands:
            assert _arbiter(config, *command) == 2
            out, err = capsys.readouterr()
            assert out == "" and len(err.strip().splitlines()) == 1, err
        listing = _arbiter(config, "list", "--guild", guild)
        out, err = capsys.readouterr()
        assert name not in out
        assert listing == (2 if guild == str(OTHER) else 0)


def test_an_existing_season_is_refused_unless_replaced_and_nothing_is_written(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = FIXTURE_SEASONS["plain"]
    path = _file(tmp_path, data)
    assert _arbiter(config, "import", path, "--guild", str(GUILD)) == 0
    assert _arbiter(config, "import", path, "--guild", str(GUILD)) == 2
    assert "exists" in capsys.readouterr().err
    changed = copy.deepcopy(data)
    changed["matches"] = changed["matches"][:1]
    assert (
        _arbiter(
            config, "import", _file(tmp_path, changed, "c.json"), "--guild", str(GUILD), "--replace"
        )
        == 0
    )
    capsys.readouterr()
    assert _arbiter(config, "export", data["name"], "--guild", str(GUILD)) == 0
    assert [m["id"] for m in json.loads(capsys.readouterr().out)["matches"]] == ["1"]
    bad = _file(tmp_path, {"name": "x", "divisions": "nope"}, "bad.json")
    assert _arbiter(config, "import", bad, "--guild", str(GUILD)) == 2
    assert _arbiter(config, "list", "--guild", str(GUILD)) == 0
    assert capsys.readouterr().out.count("\n") == 1


def test_the_calendar_has_one_utc_event_per_match_with_its_deadline(
    tmp_path: Path, config: Path
) -> None:
    data = FIXTURE_SEASONS["decisions"]
    assert _arbiter(config, "import", _file(tmp_path, data), "--guild", str(GUILD)) == 0
    out = tmp_path / "season.ics"
    assert _arbiter(config, "calendar", data["name"], "--guild", str(GUILD), "-o", str(out)) == 0
    events = icalendar.Calendar.from_ical(out.read_bytes()).walk("VEVENT")
    assert len(events) == len(data["matches"])
    by_start = {}
    described = {}
    for event in events:
        start = event.decoded("dtstart")
        assert start.utcoffset() == dt.timedelta(0)
        by_start[iso(start)] = str(event["summary"])
        described[str(event["summary"])] = str(event["description"])
        # RFC 5545 (issue 20): an end after the start, a UID without spaces or the season name
        assert event.decoded("dtend") > start
        assert re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}@arbiter", event["uid"])
        if str(event["summary"]).startswith("C – D"):  # CL-DQ: D is out, its match void
            assert str(event["status"]) == "CANCELLED" and event.walk("VALARM") == []
            continue
        (alarm,) = event.walk("VALARM")
        assert start - alarm.decoded("trigger") == dt.timedelta(hours=48)  # CL-15 as set
    assert len({str(event["uid"]) for event in events}) == len(events)
    expected = {m["start"]: f"{m['home']} – {m['away']}" for m in data["matches"]}
    assert set(by_start) == set(expected)
    for start, summary in by_start.items():
        assert summary.startswith(expected[start]), summary
    # what happened, as sentences naming the rule (issue 32): a forfeit says who won and why
    # the other lost, a void match (CL-DQ: D is out) that it counts for no one and why
    assert "C – D (void)" in by_start.values()
    assert described["C – D (void)"].endswith(
        "\nVoid: D was disqualified (CL-DQ), so this match counts for no one."
    )
    assert described["A – B (B won by forfeit)"].endswith(
        "\nB won by forfeit: A had more members than the limit (CL-5)."
    )
    assert described["B – C (C won by forfeit)"].endswith(
        "\nC won by forfeit: B lost it by the directors' decision on roster removals (CL-21)."
    )
    assert not any("forfeit lost by" in text for text in described.values())
    assert (
        _arbiter(
            config, "calendar", data["name"], "--guild", str(GUILD), "--club", "c", "-o", str(out)
        )
        == 0
    )
    assert len(icalendar.Calendar.from_ical(out.read_bytes()).walk("VEVENT")) == 2
    assert _arbiter(config, "calendar", data["name"], "--guild", str(GUILD), "--club", "Z") == 2


def test_two_guilds_with_the_same_season_get_calendars_sharing_no_uid(
    tmp_path: Path, config: Path
) -> None:
    """Issue 35: a visitor subscribed to both guilds' calendars sees both, none overwritten."""
    data = FIXTURE_SEASONS["decisions"]
    uids = []
    for guild in (GUILD, OTHER):
        assert _arbiter(config, "import", _file(tmp_path, data), "--guild", str(guild)) == 0
        out = tmp_path / f"{guild}.ics"
        assert (
            _arbiter(config, "calendar", data["name"], "--guild", str(guild), "-o", str(out)) == 0
        )
        events = icalendar.Calendar.from_ical(out.read_bytes()).walk("VEVENT")
        uids.append({str(event["uid"]) for event in events})
    assert len(uids[0]) == len(uids[1]) == len(data["matches"])
    assert not uids[0] & uids[1]


def test_a_double_forfeit_in_the_calendar_says_both_lost_and_why(
    tmp_path: Path, config: Path
) -> None:
    """CL-15: no challenge by the deadline, so both clubs lost; the event says so, and why."""
    data = season([match("1", "A", "B", challenge=None)])
    assert _arbiter(config, "import", _file(tmp_path, data), "--guild", str(GUILD)) == 0
    out = tmp_path / "season.ics"
    assert _arbiter(config, "calendar", data["name"], "--guild", str(GUILD), "-o", str(out)) == 0
    (event,) = icalendar.Calendar.from_ical(out.read_bytes()).walk("VEVENT")
    assert str(event["summary"]) == "A – B (double forfeit)"
    assert str(event["description"]).endswith(
        "\nBoth clubs lost by forfeit: A did not start the match on time (CL-15) and B did not"
        " start the match on time (CL-15)."
    )


@st.composite
def richer_seasons(draw: st.DrawFn) -> dict[str, Any]:
    """The property seasons with decisions, withdrawals, ratings, odd offsets and rules."""
    data = draw(seasons())
    clubs = [c for d in data["divisions"] for c in d["clubs"]]
    data["rules"] = {
        "challenge_deadline_hours": draw(st.integers(0, 200)),
        "max_avg_rating": draw(st.sampled_from([1700, 1650.5])),
        "forfeits_to_disqualify": draw(st.integers(3, 5)),  # CL-DQ's floor: 3
    }
    offset = dt.timezone(dt.timedelta(minutes=draw(st.sampled_from([0, 90, -300]))))
    for m in data["matches"]:
        start = dt.datetime.fromisoformat(m["start"]) + dt.timedelta(
            microseconds=draw(st.integers(0, 999_999))
        )
        m["start"] = start.astimezone(offset).isoformat()
        for facts_ in m.get("at_start", {}).values():
            facts_["avg_rating"] = draw(st.floats(0, 3000, allow_nan=False))
    if data["matches"]:
        picked = draw(st.lists(st.sampled_from(data["matches"]), max_size=2, unique_by=id))
        data["director_forfeits"] = [
            {
                "match": m["id"],
                "club": draw(st.sampled_from([m["home"], m["away"]])),
                "rule": draw(st.sampled_from(["CL-21", "CL-23", "CL-5"])),
                **({"decided": iso(ROUND_ONE)} if draw(st.booleans()) else {}),
            }
            for m in picked
        ]
    data["director_disqualifications"] = [
        {"club": c, "rule": "CL-18"} for c in draw(st.lists(st.sampled_from(clubs), max_size=1))
    ]
    data["withdrawn"] = draw(st.lists(st.sampled_from(clubs), max_size=2, unique=True))
    return data


@settings(
    max_examples=400 if LONG else 30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=richer_seasons(), as_of=st.sampled_from([None, dt.date(2017, 10, 20)]))
def test_property_round_trip_and_standings_through_the_database(
    tmp_path: Path, data: dict[str, Any], as_of: dt.date | None
) -> None:
    """Any valid season: the database gives back its facts, and the same league report."""
    original = load_file(json.dumps(data))

    async def scenario() -> None:
        database = await Database.open(tmp_path / "prop.db")
        try:
            await database.migrate()
            store = GuildStore(database, GUILD)
            async with store.change(None, "season.import", "test", {"actor": "cli"}) as uow:
                record = await import_season(uow, original, replace=True)
            async with store.read() as view:
                loaded = await load_season(view, record)
            assert facts(load_file(json.dumps(dump_season(loaded)))) == facts(original)
            now = ROUND_ONE + dt.timedelta(days=30)
            expected = league_report(original, as_of=as_of, now=None if as_of else now)
            got = await StandingsCache().report(store, record, as_of=as_of, now=now)
            assert report_json(got) == report_json(expected)
            assert got == expected
        finally:
            await database.close()

    asyncio.run(scenario())


async def test_the_standings_cache_recomputes_only_after_a_change(database: Database) -> None:
    store = GuildStore(database, GUILD)
    async with store.change(None, "season.import", "test") as uow:
        record = await import_season(uow, load_file(json.dumps(FIXTURE_SEASONS["plain"])))
    cache = StandingsCache()
    as_of = dt.date(2018, 1, 1)
    first = await cache.report(store, record, as_of=as_of)
    assert await cache.report(store, record, as_of=as_of) is first
    assert cache.computed == 1
    async with store.read() as view:
        played = await view.matches.by_key(record.id, "1")
    assert played is not None
    async with store.change(1, "match.result", "match:1") as uow:
        await uow.matches.replace_boards(played.id, [BoardRecord(1, "a1", "b1", 0, 4)])
    second = await cache.report(store, record, as_of=as_of)
    assert cache.computed == 2 and second != first
    now = ROUND_ONE + dt.timedelta(days=3)  # between deadlines: a second call is a hit
    assert await cache.report(store, record, now=now) is await cache.report(
        store, record, now=now + dt.timedelta(seconds=1)
    )
    assert cache.computed == 3
    await cache.report(store, record, now=now + dt.timedelta(days=60))  # past a finish
    assert cache.computed == 4


async def test_racing_writers_on_one_match_leave_a_consistent_state(tmp_path: Path) -> None:
    """A result import and a reschedule on one match, from two connections to one file at
    once: both commit whole, in some order, and the season's version counts both."""
    path = tmp_path / "race.db"
    first, second = await Database.open(path), await Database.open(path)
    try:
        await first.migrate()
        store = GuildStore(first, GUILD)
        async with store.change(None, "season.import", "test") as uow:
            record = await import_season(uow, load_file(json.dumps(FIXTURE_SEASONS["plain"])))
        async with store.read() as view:
            target = await view.matches.by_key(record.id, "3")
        assert target is not None
        new_start = ROUND_ONE + dt.timedelta(days=40)
        boards = [BoardRecord(n, f"a{n}", f"c{n}", n % 5, 4 - n % 5) for n in range(1, 41)]

        async def report_result() -> None:
            async with GuildStore(first, GUILD).change(7, "match.report", "match:3") as uow:
                await uow.matches.replace_boards(target.id, boards)
                await asyncio.sleep(0)  # let the other task try to write meanwhile
                await uow.matches.finish(target.id, new_start + dt.timedelta(days=9))

        async def reschedule() -> None:
            async with GuildStore(second, GUILD).change(8, "match.reschedule", "match:3") as uow:
                await uow.matches.reschedule(target.id, new_start)

        before = record.version
        for _ in range(3):
            await asyncio.gather(report_result(), reschedule())
        async with GuildStore(second, GUILD).read() as view:
            match_ = await view.matches.get(target.id)
            assert match_ is not None and match_.start == new_start
            assert match_.finished_at == new_start + dt.timedelta(days=9)
            assert await view.matches.boards(target.id) == boards
            version = await view.seasons.version(record.id)
            assert version is not None and version >= before + 6
            actions = [e.action for e in await view.audit.recent()]
        assert actions.count("match.report") == actions.count("match.reschedule") == 3
    finally:
        await first.close()
        await second.close()


def test_a_locked_database_is_one_line_and_exit_1_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A runtime failure (another process holds the database's write lock) exits 1 with one
    line on stderr, as every CLI command does; nothing is imported."""
    database = tmp_path / "arbiter.db"
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{database}"\nbusy_timeout_ms = 0\n', encoding="utf-8")
    file = _file(tmp_path, FIXTURE_SEASONS["plain"])
    assert _arbiter(config, "import", file, "--guild", str(GUILD)) == 0
    capsys.readouterr()
    holder = sqlite3.connect(database, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        code = _arbiter(config, "import", file, "--guild", str(GUILD), "--name", "second")
    finally:
        holder.close()
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.count("\n") == 1 and "locked" in captured.err
    assert captured.out == ""
    assert _arbiter(config, "list", "--guild", str(GUILD)) == 0
    assert "second" not in capsys.readouterr().out


def test_the_listing_counts_in_english(
    tmp_path: Path, config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`season list` says '1 division' and '1 match', not '1 divisions' (found in a walkthrough)."""
    one = season([match("1", "A", "B", [("a1", "b1", 2)], round=1)], name="One")
    assert _arbiter(config, "import", _file(tmp_path, one, "one.json"), "--guild", str(GUILD)) == 0
    two = FIXTURE_SEASONS["two divisions"]
    assert _arbiter(config, "import", _file(tmp_path, two, "two.json"), "--guild", str(GUILD)) == 0
    capsys.readouterr()
    assert _arbiter(config, "list", "--guild", str(GUILD)) == 0
    lines = {
        line.split("\t")[0]: line.split("\t")[2:4] for line in capsys.readouterr().out.splitlines()
    }
    assert lines["One"] == ["1 division", "1 match"]
    assert lines[two["name"]] == ["2 divisions", "2 matches"]


def test_season_commands_take_db_and_show_a_decided_season_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20: `arbiter season` had no `--db` (reading `demo-out/arbiter.db` needed a
    hand-written config) and `season list` showed a season whose every match was decided as
    `scheduled`; `export -o` said nothing while `import` confirmed."""
    monkeypatch.chdir(tmp_path)  # no ./config.toml: every default, and the default database
    database = tmp_path / "elsewhere" / "league.db"
    every_pair = season(
        [
            match("1", "A", "B", round=1),
            match("2", "C", "D", round=1),
            match("3", "A", "C", round=2),
            match("4", "B", "D", round=2),
            match("5", "A", "D", round=3),
            match("6", "B", "C", round=3),
        ]
    )
    half = season([match("1", "A", "B")])
    half["name"] = "Half"
    db = ["--guild", str(GUILD), "--db", str(database)]
    assert main(["season", "import", _file(tmp_path, every_pair), *db]) == 0
    assert main(["season", "import", _file(tmp_path, half, "half.json"), *db]) == 0
    capsys.readouterr()
    assert main(["season", "list", *db]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[:2] for line in listed] == [
        [every_pair["name"], "finished"],
        ["Half", "running"],  # its phase from the facts: a deadline passed, a match to play
    ]
    assert not (tmp_path / "data").exists()  # the default database.path was not touched
    out = tmp_path / "out.json"
    assert main(["season", "export", every_pair["name"], *db, "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"exported {every_pair['name']!r} (6 matches) to {out}\n"
    assert main(["season", "list", "--guild", str(GUILD), "--db", str(tmp_path / "no.db")]) == 2
    assert "no database at" in capsys.readouterr().err

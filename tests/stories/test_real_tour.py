"""The real Champions Chess Tour 2020-21 (issue 31), from tests/fixtures/cct2021: the data
reproduce every published figure, `arbiter tour` on the season's tour file gives them, the
real preliminaries replayed through the bot give the published orders, and the whole
season played through the bot (tests/scripts/tour/story_real_cct_2021.jsonl) shows the
published placings, tour points, tour standings and Finals table — in its replies and in
`arbiter tour` on the file `/tour export` wrote."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.offline.discord_messages import stable_id
from bot.offline.script import Command, parse_script
from bot.offline.transcript import StepRecord
from core.berger import berger_table
from tests.stories.test_tour_stories import _replayed, _run, _tour_json
from tests.support.real_tour import (
    STORY,
    TOUR,
    Event,
    bot_features,
    expected_placings,
    expected_standings,
    expected_tour_points,
    finals_story,
    load_events,
    preliminary_order,
    replacements,
    series_of,
    stopped_early,
    story,
    tour_file,
)
from tests.support.tour_tables import column, number, table_rows

EVENTS = load_events()
PLACED = re.compile(r"^(\d+)\. (.+?) — (\d+) points?$", re.M)
"""A placing line of `/event show`: place, player, tour points."""
SEASON = [e for e in EVENTS if e["type"] != "finals"]
FINALS = EVENTS[-1]
PUBLISHED_TOTALS = FINALS["tour_points_before"]
"""The final tour standings of the ten finalists (chess24): Carlsen 339, So 261 …"""


def _snapshots() -> list[tuple[int, dict[str, int]]]:
    """(events played, published totals) for every event that printed standings."""
    shots = [
        (e["index"], e["published"]["tour_standings_after"])
        for e in SEASON
        if "tour_standings_after" in e["published"]
    ]
    return [*shots, (len(SEASON), PUBLISHED_TOTALS)]


def test_the_season_is_ten_events_in_the_real_order() -> None:
    assert [e["event"] for e in EVENTS] == [
        "Skilling Open",
        "Airthings Masters",
        "Opera Euro Rapid",
        "Magnus Carlsen Invitational",
        "New in Chess Classic",
        "FTX Crypto Cup",
        "Goldmoney Asian Rapid",
        "Chessable Masters",
        "Aimchess US Rapid",
        "Meltwater Champions Chess Tour Finals",
    ]
    assert all(e["sources"] if "sources" in e else e["preliminary"]["sources"] for e in SEASON)


def test_cct_8d_every_real_series_follows_the_match_rules_and_18_stopped_early() -> None:
    """CCT-8d: every day of the 71 real series ends exactly when its match (or series) was
    decided, play-offs come only after split or drawn matches, and 18 day-2 matches stopped
    as soon as the day-1 winner was certain of the series."""
    series = [series_of(k) for e in SEASON for k in e["knockout"]]
    assert len(series) == 71
    assert sum(stopped_early(s) for s in series) == 18
    assert [s.round for s in series if s.walkover] == ["3rd"]


def test_cct_6_the_data_reproduce_every_published_tour_total() -> None:
    """CCT-6: the events' tables (the Skilling Open's own: runner-up 20, no 3rd-place match)
    applied to the real results give every published total: the per-event figures, the
    standings after the Magnus Carlsen Invitational and the FTX Crypto Cup, the final
    standings of the ten finalists."""
    for event in SEASON:
        got = expected_tour_points(event)
        for player, points in event["published"]["tour_points"].items():
            assert got[player] == points, (event["event"], player)
    for played, published in _snapshots():
        totals = expected_standings(SEASON[:played])
        assert {p: totals[p] for p in published} == published, played


def test_cct_8f_the_finals_pairing_numbers_put_every_reported_pairing_in_its_round() -> None:
    """CCT-8f, CORE-1: under the Finals pairing numbers inferred from the round reports, the
    Berger table puts every pairing a report dated in that round, and meets every pair once."""
    numbers = FINALS["pairing_numbers"]
    rounds = [{frozenset((p.white, p.black)) for p in boards} for boards in berger_table(10).rounds]
    for known in FINALS["known_scores"]:
        pair = frozenset((numbers[known["a"]], numbers[known["b"]]))
        assert pair in rounds[known["round"] - 1], known
    assert len({frozenset((m["a"], m["b"])) for m in FINALS["matches"]}) == 45


def _arbiter_tour(tmp_path: Path, document: dict[str, Any], capsys: Any) -> dict[str, Any]:
    path = tmp_path / "season.tour.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    assert main(["tour", str(path), "--json"]) == 0, capsys.readouterr().err
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def _check_report(report: dict[str, Any], events: list[Event]) -> None:
    """CCT-8c, CCT-6, CCT-8f: a tour report's placings, tour points, standings and Finals
    table equal the published ones."""
    by_name = {e["name"]: e for e in report["events"]}
    for event in events:
        shown = by_name[event["event"]]
        places = [(p["place"], p["player"]) for p in shown["placings"]]
        for place in expected_placings(event)[:8]:
            assert place in places, (event["event"], place)
        assert {t["player"]: t["points"] for t in shown["tour_points"]} == expected_tour_points(
            event
        )
    standings = {s["player"]: s["points"] for s in report["standings"]}
    assert {p: standings[p] for p in PUBLISHED_TOTALS} == PUBLISHED_TOTALS
    table = FINALS["published"]["table"]
    assert [
        (
            s["rank"],
            s["player"],
            s["match_points"],
            Fraction(str(s["bonus"])),
            Fraction(str(s["total"])),
        )
        for s in report["finals"]["standings"]
    ] == [
        (
            row["rank"],
            row["player"],
            row["match_points"],
            Fraction(row["bonus"]),
            Fraction(FINALS["published"]["totals"][row["player"]]),
        )
        for row in table
    ]


def test_cct_6_cct_8f_cct_3_arbiter_tour_on_the_season_file_gives_the_published_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CCT-6, CCT-8c, CCT-8f, CCT-3: `arbiter tour` on the season as a tour file gives each
    event's published placings and tour points, the final tour standings (Carlsen 339 …),
    the Finals table (match points, bonus, total) and the eight qualified finalists.
    Series whose day 2 stopped early are given by their winner (a reader without the
    series-end rule would refuse their days)."""
    document = tour_file(EVENTS, early_stops=False, finals_field=bot_features().finals_field)
    report = _arbiter_tour(tmp_path, document, capsys)
    _check_report(report, SEASON)
    qualified = {q["player"] for q in report["qualification"]["finals"]}
    published = FINALS["qualification"]
    assert {p for p, _ in published["qualified"]} - set(published["declined"]) <= qualified
    if bot_features().finals_field:  # the declined place goes to the next in the standings
        assert set(published["declined"]).isdisjoint(qualified)
        assert set(replacements(FINALS)) <= qualified


def test_cct_6_arbiter_tour_gives_the_published_standings_after_each_event_that_printed_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CCT-6: `arbiter tour` on the season cut after the Magnus Carlsen Invitational, the FTX
    Crypto Cup and the Aimchess US Rapid gives the tour totals published then."""
    for played, published in _snapshots():
        report = _arbiter_tour(tmp_path, tour_file(SEASON[:played], early_stops=False), capsys)
        standings = {s["player"]: s["points"] for s in report["standings"]}
        assert {p: standings[p] for p in published} == published, played


def _events_standings(records: list[tuple[Any, StepRecord]]) -> dict[str, list[str]]:
    """Each `/event standings` reply: the preliminary order (full names)."""
    shown = {}
    for step, record in records:
        if isinstance(step, Command) and step.path == "event standings":
            text = record.replies[0]["embeds"][0]["description"]
            shown[str(step.options["event"])] = [name for _, name, _ in table_rows(text)]
    return shown


def test_cct_8b_the_real_preliminaries_replayed_give_the_published_order(tmp_path: Path) -> None:
    """CCT-8a, CCT-8b: the Airthings Masters (all 66 games under the organiser's Berger
    numbers) and the Opera Euro Rapid (the 120 crosstable results) reported through the bot
    rank exactly as published; direct encounter once over each points group, then wins,
    Sonneborn-Berger, Koya."""
    real = [e for e in SEASON if e["preliminary"]["complete"]]
    assert [e["event"] for e in real] == ["Airthings Masters", "Opera Euro Rapid"]
    script = tmp_path / "preliminaries.jsonl"
    script.write_text(story(real, bot_features(), knockouts=False), encoding="utf-8")
    records = _run(script, tmp_path / "preliminaries.db")
    assert all(r.error is None for _, r in records), [r.error for _, r in records if r.error]
    shown = _events_standings(records)
    assert shown == {e["event"]: preliminary_order(e) for e in real}


def test_cct_8c_cct_8d_cct_8e_the_skilling_open_knockout_played_through_the_bot(
    tmp_path: Path,
) -> None:
    """CCT-8c, CCT-8d, CCT-8e: the Skilling Open's knock-out, the one event no series of which
    stopped early (three play-offs, two Armageddons, no 3rd-place match), played game by game
    through the bot gives every series' real winner and the published placings: So, Carlsen,
    Nakamura and Nepomniachtchi shared 3rd, the quarter-final losers 5th."""
    skilling = SEASON[0]
    assert not any(stopped_early(series_of(k)) for k in skilling["knockout"])
    script = tmp_path / "skilling.jsonl"
    features = bot_features()
    script.write_text(story([skilling], features), encoding="utf-8")
    records = _run(script, tmp_path / "skilling.db")
    assert all(r.error is None for _, r in records), [r.error for _, r in records if r.error]
    show = next(r for c, r in records if isinstance(c, Command) and c.path == "event show")
    text = show.replies[0]["embeds"][0]["description"]
    assert "Status: finished;" in text, text
    placed = [(int(p), n, int(t)) for p, n, t in PLACED.findall(text.split("**Placings**")[1])]
    assert [(p, n) for p, n, _ in placed] == expected_placings(skilling)
    if features.points_option:  # the event's own table: runner-up 20, no 3rd-place match
        assert {n: t for _, n, t in placed} == expected_tour_points(skilling)


def _finals_table(record: StepRecord) -> list[tuple[int, str, int, Fraction, Fraction]]:
    text = record.replies[0]["embeds"][0]["description"]
    order = [column(text, name) for name in ("MP", "Bonus", "Total")]
    return [
        (
            int(rank.rstrip("=")),
            name,
            int(cells[order[0]]),
            number(cells[order[1]]),
            number(cells[order[2]]),
        )
        for rank, name, cells in table_rows(text)
    ]


PUBLISHED_FINALS = [
    (
        r["rank"],
        r["player"],
        r["match_points"],
        Fraction(r["bonus"]),
        Fraction(FINALS["published"]["totals"][r["player"]]),
    )
    for r in FINALS["published"]["table"]
]
"""CCT-8f: the published Finals table: rank, player, match points, bonus, total."""


def test_cct_8f_cct_3_the_real_finals_played_through_the_bot(tmp_path: Path) -> None:
    """CCT-3, CCT-8f: with the nine events imported from their tour file, the bot lists the
    eight qualified finalists; the ten who played, drawn and played match by match (each
    pair's real winner, in the rapid games or the tie-break), give the published table:
    Carlsen 15 + 16½ = 31½ … Mamedyarov 9 + ½ = 9½."""
    (tmp_path / "season.tour.json").write_text(
        json.dumps(tour_file(SEASON, early_stops=False), ensure_ascii=False), encoding="utf-8"
    )
    script = tmp_path / "finals.jsonl"
    script.write_text(finals_story("season.tour.json", features=bot_features()), encoding="utf-8")
    records = _run(script, tmp_path / "finals.db")
    assert all(r.error is None for _, r in records), [r.error for _, r in records if r.error]
    replies = [
        (c, r)
        for c, r in records
        if isinstance(c, Command) and c.path != "setup set" and r.replies[0]["ephemeral"]
    ]
    assert replies == [], [(c.path, r.replies[0]["content"]) for c, r in replies]
    qualification = next(
        r for c, r in records if isinstance(c, Command) and c.path == "tour qualification"
    )
    listed = qualification.replies[0]["embeds"][0]["description"]
    for player, _ in FINALS["qualification"]["qualified"]:
        assert f"**{player}**" in listed, player
    finals = [r for c, r in records if isinstance(c, Command) and c.path == "finals standings"]
    assert _finals_table(finals[-1]) == PUBLISHED_FINALS


def test_the_story_is_the_generated_one() -> None:
    """The committed story is what tests/support/real_tour.py makes of the data."""
    assert STORY.read_text(encoding="utf-8") == story()


def test_cct_6_cct_8b_cct_8d_cct_8f_cct_3_the_real_season_played_through_the_bot(
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CCT-8b, CCT-8d, CCT-6, CCT-3, CCT-8f: the whole season replayed (real games, real
    early stops, the Aimchess walkover, the Finals with one qualifier declining and three
    wildcards): every event's `/event show` gives the published placings and tour points,
    every `/tour standings` the totals after that event (the published ones where printed),
    `/finals standings` the published table; `arbiter tour` on the file `/tour export`
    wrote gives the same."""
    db, records = _replayed(STORY, tmp_path_factory.mktemp("real"))
    assert all(r.error is None for _, r in records), [r.error for _, r in records if r.error]
    shows = [(c, r) for c, r in records if isinstance(c, Command) and c.path == "event show"]
    assert [str(c.options["event"]) for c, _ in shows] == [e["event"] for e in SEASON]
    for (_, record), event in zip(shows, SEASON, strict=True):
        text = record.replies[0]["embeds"][0]["description"]
        assert "Status: finished;" in text, text
        placed = [(int(p), n, int(t)) for p, n, t in PLACED.findall(text.split("**Placings**")[1])]
        points = expected_tour_points(event)
        assert {n: t for _, n, t in placed} == {n: points[n] for _, n, _ in placed}
        for place in expected_placings(event)[:8]:
            assert place in [(p, n) for p, n, _ in placed], (event["event"], place)
    standings = [
        (c, r) for c, r in records if isinstance(c, Command) and c.path == "tour standings"
    ]
    assert len(standings) == len(EVENTS)
    published = dict(_snapshots())
    for played, (_, record) in enumerate(standings[: len(SEASON)], start=1):
        text = record.replies[0]["embeds"][0]["description"]
        pts = column(text, "Pts")
        shown = {name: int(cells[pts]) for _, name, cells in table_rows(text)}
        totals = expected_standings(SEASON[:played])
        assert shown == {p: totals[p] for p in shown}, played
        for player, value in published.get(played, {}).items():
            assert shown[player] == value, (played, player)
    finals = [r for c, r in records if isinstance(c, Command) and c.path == "finals standings"]
    assert _finals_table(finals[-1]) == PUBLISHED_FINALS
    guild = stable_id("guild", parse_script(STORY.read_text(), STORY.parent).header.guild)
    _check_report(_tour_json(tmp_path, db, guild, TOUR, capsys), SEASON)

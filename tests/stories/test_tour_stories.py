"""The tour's user stories (tests/scripts/tour/*.jsonl) replayed through the real bot, then
the door checked: `arbiter tour` on the file `arbiter tour export` writes from the replay's
database gives exactly what the bot showed — the tour standings (rank, points and the five
CCT-6 criteria, shared ranks), every finished event's placings and tour points (CCT-8c,
CCT-6), and the Finals table (bonus, match points, total; CCT-8f) — compared field by field
with the replies of the script's last `/tour standings`, `/event show` and `/finals
standings`."""

from __future__ import annotations

import asyncio
import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.offline.discord_messages import stable_id
from bot.offline.replay import replay, validate
from bot.offline.script import Command, Restart, Step, parse_script
from bot.offline.transcript import StepRecord
from tests.support.paths import ROOT
from tests.support.tour_tables import column, number, table_rows

SCRIPTS = sorted(
    path
    for path in (ROOT / "tests" / "scripts" / "tour").glob("*.jsonl")
    if path.name != "story_real_cct_2021.jsonl"  # a season long: tests/stories/test_real_tour.py
)


def test_the_tour_stories_are_found() -> None:
    names = {path.name for path in SCRIPTS}
    assert {
        "story_tour_regular_draw_to_placings.jsonl",
        "story_tour_major_blitz_and_armageddon.jsonl",
        "story_tour_finals_bonus.jsonl",
    } <= names


def _last(records: list[tuple[Step, StepRecord]], path: str) -> list[tuple[Command, StepRecord]]:
    return [(c, r) for c, r in records if isinstance(c, Command) and c.path == path]


REPLAYED: dict[Path, tuple[Path, list[tuple[Step, StepRecord]]]] = {}
"""Each story replayed once per test session: its database and its command and restart
steps."""


def _replayed(script: Path, folder: Path) -> tuple[Path, list[tuple[Step, StepRecord]]]:
    if script not in REPLAYED:
        db = folder / f"{script.stem}.db"
        REPLAYED[script] = (db, _run(script, db))
    return REPLAYED[script]


def _run(script: Path, db: Path) -> list[tuple[Step, StepRecord]]:
    parsed = parse_script(script.read_text(encoding="utf-8"), script.parent)
    steps = {step.number: step for step in parsed.steps}
    records: list[StepRecord] = []

    async def run() -> None:
        await validate(parsed, db)
        await replay(parsed, db, records.append)

    asyncio.run(run())
    return [(steps[r.step], r) for r in records if isinstance(steps[r.step], Command | Restart)]


def _tour_json(tmp_path: Path, db: Path, guild: int, tour: str, capsys: Any) -> dict[str, Any]:
    exported = tmp_path / "exported.tour.json"
    code = main(
        ["tour", "export", tour, "--guild", str(guild), "--db", str(db), "-o", str(exported)]
    )
    said = capsys.readouterr()
    assert code == 0, said.err
    assert said.out.startswith(f"exported '{tour}' (") and said.out.endswith(f"to {exported}\n")
    assert main(["tour", str(exported), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_arbiter_tour_on_the_exported_file_equals_what_the_bot_showed(
    script: Path,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, records = _replayed(script, tmp_path_factory.mktemp("story"))
    assert all(r.error is None for _, r in records), [r.error for _, r in records if r.error]
    standings_steps = _last(records, "tour standings")
    assert standings_steps, "the story shows the tour standings"
    command, shown = standings_steps[-1]
    guild = stable_id("guild", parse_script(script.read_text(), script.parent).header.guild)
    document = _tour_json(tmp_path, db, guild, str(command.options["tour"]), capsys)
    # The tour standings the bot showed, field by field (CCT-6).
    description = shown.replies[0]["embeds"][0]["description"]
    rows = table_rows(description)
    assert len(rows) == len(document["standings"])
    order = [column(description, name) for name in ("Pts", "W", "Ev", "F", "SF", "QF")]
    for (rank, name, cells), expected in zip(rows, document["standings"], strict=True):
        points, wins, events, finals, semis, quarters = (cells[i] for i in order)
        assert (
            int(rank.rstrip("=")),
            rank.endswith("="),
            name,
            int(points),
            int(wins),
            int(events),
            int(finals),
            int(semis),
            int(quarters),
        ) == (
            expected["rank"],
            expected["tied"],
            expected["player"],
            expected["points"],
            expected["wins"],
            expected["events"],
            expected["finals"],
            expected["semi_finals"],
            expected["quarter_finals"],
        )
    # Every finished event's placings and tour points the bot showed (CCT-8c, CCT-6).
    events = {e["name"]: e for e in document["events"]}
    for command, record in _last(records, "event show"):
        text = record.replies[0]["embeds"][0]["description"]
        if "**Placings**" not in text:
            continue
        assert "Status: finished;" in text, text  # not the stored "knockout"
        placed = re.findall(r"^(\d+)\. (.+?) — (\d+) points?$", text.split("**Placings**")[1], re.M)
        event = events[str(command.options["event"])]
        assert [(int(p), n, int(t)) for p, n, t in placed] == [
            (place["place"], place["player"], points["points"])
            for place, points in zip(event["placings"], event["tour_points"], strict=True)
        ]
    # The Finals table the bot showed (CCT-8f).
    for _, record in _last(records, "finals standings"):
        assert document["finals"] is not None, "the exported file holds the Finals"
        text = record.replies[0]["embeds"][0]["description"]
        order = [column(text, name) for name in ("MP", "Bonus", "Total")]
        for (rank, name, cells), expected in zip(
            table_rows(text), document["finals"]["standings"], strict=True
        ):
            match_points, bonus, total = (cells[i] for i in order)
            assert (
                int(rank.rstrip("=")),
                name,
                number(bonus),
                int(match_points),
                number(total),
            ) == (
                expected["rank"],
                expected["player"],
                Fraction(str(expected["bonus"])),
                expected["match_points"],
                Fraction(str(expected["total"])),
            )


def test_a_tour_file_imported_back_gives_the_same_tour(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """`/tour import` of what `/tour export` wrote (preliminary games, knock-out days and
    play-offs, Ambassadors) stores a tour whose report is the exported one's, but its name."""
    script = SCRIPTS[[p.name for p in SCRIPTS].index("story_tour_major_blitz_and_armageddon.jsonl")]
    db, _ = _replayed(script, tmp_path_factory.mktemp("story"))
    guild = stable_id("guild", parse_script(script.read_text(), script.parent).header.guild)
    first = _tour_json(tmp_path, db, guild, "Major Tour", capsys)

    async def copy() -> dict[str, Any]:
        from bot.kernel.actor import Actor, Role
        from bot.kernel.config import Config
        from bot.rendering.tour.report_json import tour_json
        from bot.tour.files import export_tour_file, import_tour_file
        from bot.tour.tours.reads import loaded_tour, report_of
        from storage.engine.database import Database
        from storage.guild import GuildStore

        database = await Database.open(db)
        try:
            store = GuildStore(database, guild)
            _, data = await export_tour_file(store, "Major Tour")
            organiser = Actor(1, frozenset({Role.HQ}))
            await import_tour_file(store, organiser, Config(), data, "Copy")
            return tour_json(report_of(await loaded_tour(store, "Copy")))
        finally:
            await database.close()

    again = asyncio.run(copy())
    assert again["name"] == "Copy"
    assert {**again, "name": first["name"]} == first


def test_cct_8c_cct_6_an_events_wrap_up_is_announced_once_across_a_restart(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The Regular's last game decided: its placings and tour points, the tour ranking and
    the Finals qualification are announced in that step, once — the restart after it posts
    nothing again (issue 23)."""
    script = SCRIPTS[[p.name for p in SCRIPTS].index("story_tour_regular_draw_to_placings.jsonl")]
    _, records = _replayed(script, tmp_path_factory.mktemp("story"))
    titles = [
        (step, record.title, embed["title"])
        for step, record in records
        for post in record.posts
        for embed in post["embeds"]
    ]
    wrap = [(t, e) for _, t, e in titles if "is over: placings" in (e or "")]
    assert wrap == [
        (
            "arbi: /game report event:Skilling Open game:3rd day 2 game 2 result:1-0",
            "Skilling Open is over: placings and tour points (CCT-8c, CCT-6)",
        )
    ]
    assert any("tour ranking (CCT-6)" in (e or "") for _, _, e in titles)
    assert any("Finals qualification" in (e or "") for _, _, e in titles)
    restarts = [record for step, record in records if isinstance(step, Restart)]
    assert len(restarts) == 2 and restarts[-1].posts == []

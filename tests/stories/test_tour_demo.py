"""`arbiter demo --tour`: one run of the seed's tour through the real bot, offline — what it
printed equals `arbiter tour` on the tour file it wrote; every output is written; each staged
moment happened (the sites' games found by polling, confirmed by a click and by the timer, a
dispute, a disconnection, a late appeal refused, an Armageddon); the same seed gives the same
script, and the machinery replays it to a byte-identical transcript (its first event's
preliminary; the whole tour with ARBITER_LONG_PROPERTIES=1)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import icalendar
import pytest

from bot.cli import main
from bot.offline.demo.tour_run import TourDemoResult, summary
from bot.offline.demo.tour_script import tour_script
from bot.offline.demo.tour_world import generate
from bot.offline.replay import replay, validate
from bot.offline.script import parse_script
from bot.offline.transcript import StepRecord
from core.tour.calendar import SESSION_LENGTH
from tests.support.demos import tour_played

LONG = os.environ.get("ARBITER_LONG_PROPERTIES") == "1"


def test_arbiter_demo_tour_plays_the_tour_through_the_bot(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """One run of the seed-1 tour (one test, so it runs once whichever worker runs it): the
    printed report equals `arbiter tour` on the written tour file (CCT-3, CCT-6, CCT-8c,
    CCT-8f), every output is written, each staged moment happened through the bot."""
    result = tour_played(tmp_path_factory)
    played = (result, summary(result))
    _printed_report_equals_arbiter_tour_on_the_written_tour_file(played, capsys)
    _every_output_is_written(played)
    _each_staged_moment_happened_through_the_bot(played)


def _printed_report_equals_arbiter_tour_on_the_written_tour_file(
    played: tuple[TourDemoResult, str], capsys: pytest.CaptureFixture[str]
) -> None:
    result, printed = played
    capsys.readouterr()
    assert main(["tour", str(result.out / "tour.json")]) == 0
    shown = capsys.readouterr().out
    assert printed.startswith(shown.rstrip("\n") + "\n\nSummary:")
    assert "Tour standings (CCT-6" in shown and "Finals (CCT-8f" in shown


def _every_output_is_written(played: tuple[TourDemoResult, str]) -> None:
    result, printed = played
    names = {p.name for p in result.out.iterdir()}
    assert {"tour.json", "tour.jsonl", "transcript.txt", "tour.ics", "arbiter.db"} <= names
    pngs = [n for n in names if n.endswith(".png")]
    assert len(pngs) == 8 and "finals.png" in pngs and "tour-standings.png" in pngs
    assert all((result.out / n).read_bytes().startswith(b"\x89PNG") for n in pngs)
    calendar = (result.out / "tour.ics").read_text()
    assert calendar.count("BEGIN:VEVENT") == 9 * 4
    sessions = icalendar.Calendar.from_ical(calendar).walk("VEVENT")
    assert all(s.decoded("dtend") == s.decoded("dtstart") + SESSION_LENGTH for s in sessions)
    assert printed.count("staged: ") == len(result.script.staged) == 8
    # the script turned the guild's site on with /setup web; the last line says how to browse it
    connection = sqlite3.connect(result.out / "arbiter.db")
    slugs = connection.execute("SELECT slug FROM web_sites").fetchall()
    connection.close()
    assert slugs == [("demo-tour",)]
    assert printed.splitlines()[-1] == (
        f"Browse it on the web: run `arbiter web --db {result.out / 'arbiter.db'}` and open"
        " http://127.0.0.1:8080/g/demo-tour/"
    )


def _each_staged_moment_happened_through_the_bot(played: tuple[TourDemoResult, str]) -> None:
    result, _ = played
    transcript = (result.out / "transcript.txt").read_text()
    assert transcript.count("Found on chess.com: **Spring Regular**") == 1
    assert transcript.count("Found on lichess.org: **Equinox Regular**") == 1
    assert transcript.count("Confirmed automatically in **Equinox Regular**") == 1
    assert "Disputed in **Spring Regular**" in transcript
    assert "the game is lost; not reconnected within 30 s" in transcript
    assert "too late (deadline" in transcript
    armageddon = transcript.split("game:QF2 armageddon result:½-½", 1)[1].split("\nstep ")[0]
    assert "QF2: " in armageddon and " wins the series" in armageddon  # a draw: Black wins
    counts = result.counts
    assert counts["games bot"] == 2 and counts["auto-confirmed"] == 1
    assert counts["wrap-ups"] == 4 and counts["disputes"] == 1 and counts["incidents"] == 1
    assert counts["reminders"] == 3 * (7 + 6) + 9  # every round and knock-out day, once
    assert counts["appeal closes"] == 4 * 9
    assert "error" not in "".join(
        line for line in transcript.splitlines() if line.startswith("step ")
    )


def test_the_same_seed_gives_the_same_script_and_another_seed_another() -> None:
    first, again = tour_script(generate(1)).text(), tour_script(generate(1)).text()
    assert first == again
    assert tour_script(generate(2)).text() != first


def _transcript(text: str, folder: Path, db: str) -> list[str]:
    script = parse_script(text, folder)
    records: list[StepRecord] = []

    async def run() -> None:
        await validate(script, folder / db)
        await replay(script, folder / db, records.append)

    asyncio.run(run())
    return [record.as_text() for record in records]


def test_the_same_script_replays_to_a_byte_identical_transcript(tmp_path: Path) -> None:
    """By default the first event's preliminary (polls, player reports, a dispute, the
    reminders and appeal closes) twice; ARBITER_LONG_PROPERTIES=1: the whole tour twice."""
    script = tour_script(generate(3))
    lines = script.text().splitlines()
    if not LONG:
        knockout = next(s for s, name in script.stages.items() if name.endswith("knock-out"))
        header = next(i for i, line in enumerate(lines) if not line.startswith("//"))
        lines = lines[: header + knockout]
    text = "\n".join(lines) + "\n"
    assert _transcript(text, tmp_path, "a.db") == _transcript(text, tmp_path, "b.db")


def test_cli_refuses_clubs_with_a_tour(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--tour", "--clubs", "4", "--out", str(tmp_path / "x")]) == 2
    assert "--clubs goes with a league season" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_each_demo_has_its_own_default_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`arbiter demo` then `arbiter demo --tour`, as the README gives them: the league's
    folder does not stand in the tour's way (each default is checked before anything runs)."""
    monkeypatch.chdir(tmp_path)
    for folder in ("demo-out", "demo-tour-out"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "summary.txt").write_text("an earlier run\n", encoding="utf-8")
    assert main(["demo"]) == 2
    assert "--out demo-out: exists and is not an empty folder" in capsys.readouterr().err
    assert main(["demo", "--tour"]) == 2
    assert "--out demo-tour-out: exists and is not an empty folder" in capsys.readouterr().err

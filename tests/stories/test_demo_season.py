"""`arbiter demo`'s generated season, before any replay: the same seed gives the same world
and script; the script parses; every chess.com payload it serves is read by the real
chess.com models and facts as the generator meant it (boards, scores, CL-5/6/19/20 facts)."""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.chesscom.facts import Placement, match_facts
from bot.chesscom.models import ClubProfile, PlayerProfile, PlayerStats, TeamMatch
from bot.cli import main
from bot.offline.demo.season_script import CHESSCOM_BASE, season_script
from bot.offline.demo.world import DIVISIONS, generate
from bot.offline.script import ChessCom, Command, parse_script
from tests.support.paths import ROOT


def _served(text: str) -> dict[str, list[Any]]:
    """Every payload the script serves, by API path, in order."""
    served: dict[str, list[Any]] = {}
    for line in text.splitlines():
        if line.startswith('{"chesscom"'):
            spec = json.loads(line)["chesscom"]
            served.setdefault(spec["path"].removeprefix("/pub/"), []).append(spec.get("json"))
    return served


def test_the_same_seed_gives_the_same_script_and_another_seed_another() -> None:
    first = season_script(generate(7)).text()
    assert season_script(generate(7)).text() == first
    assert season_script(generate(8)).text() != first


def test_the_world_has_three_divisions_of_13_clubs_with_about_25_players() -> None:
    world = generate(1)
    assert [len(world.division(i)) for i in range(3)] == [13, 13, 13]
    for club in world.clubs:
        minimum = DIVISIONS[club.division][1]
        assert 20 <= len(club.players) <= 28 and len(club.players) >= minimum + 6
        assert club.members_count <= 400 and club.average_rating <= 1700
    names = [p.username for c in world.clubs for p in c.players]
    assert len(names) == len(set(names))  # every chess.com account plays for one club
    events = world.events
    assert world.club(events.disqualified).division == 2
    assert world.club(events.removal[0]).division == 2
    assert len(world.directors) >= 3


def test_the_script_parses_with_a_header_of_staff_and_two_admins_per_club() -> None:
    world = generate(3)
    script = parse_script(season_script(world).text(), Path("."))
    members = {m.name: m.roles for m in script.header.members}
    assert members["hq"] == ("HQ",) and members["arbi"] == ("Arbiters",)
    assert sum(roles == ("Directors",) for roles in members.values()) >= 3
    for club in world.clubs:
        assert set(club.admins) <= set(members)
    registered = [
        s.options["chesscom_club"]
        for s in script.steps
        if isinstance(s, Command) and s.path == "club register"
    ]
    assert sorted(registered) == sorted(c.url_id for c in world.clubs)
    assert sum(isinstance(s, ChessCom) for s in script.steps) > 1000


def test_every_served_payload_reads_as_the_generator_meant() -> None:
    """The real models read every payload; each finished team match reads, through the real
    facts, as its boards: points add up to the score chess.com shows for each club."""
    world = generate(1)
    script = season_script(world)
    served = _served(script.text())
    finished = 0
    clubs = {c.url_id: c.name for c in world.clubs}
    for path, payloads in served.items():
        for payload in payloads:
            if path.startswith("club/") and path.endswith("/matches"):
                assert set(payload) == {"finished", "in_progress", "registered"}
            elif path.startswith("club/"):
                assert ClubProfile.model_validate(payload).members_count
            elif path.endswith("/stats"):
                assert PlayerStats.model_validate(payload).daily_rating
            elif path.startswith("player/"):
                assert PlayerProfile.model_validate(payload).username
            elif path.startswith("match/"):
                match = TeamMatch.model_validate(payload)
                if match.status != "finished":
                    continue
                finished += 1
                facts = match_facts(
                    match,
                    Placement(clubs=clubs),
                    observed_at=dt.datetime(2018, 1, 1, tzinfo=dt.UTC),
                )
                assert facts.match is not None and not facts.unpaired_boards
                home = sum(b.home_points for b in facts.match.boards)
                away = sum(b.away_points for b in facts.match.boards)
                assert home + away == 2 * len(facts.match.boards)
                assert (
                    Fraction(str(payload["teams"]["team1"]["score"])),
                    Fraction(str(payload["teams"]["team2"]["score"])),
                ) == (home, away)
    assert finished > 150  # most of the 234 matches are played


def test_the_events_are_in_the_payloads() -> None:
    """CL-5 and CL-6: a profile over 400 members and one over a 1700 average; CL-19 a closed
    account; CL-20 a match whose club lists fewer players than its division's minimum."""
    world = generate(1)
    served = _served(season_script(world).text())
    events = world.events
    over = world.club(events.over_members[0])
    assert any(p["members_count"] > 400 for p in served[f"club/{over.url_id}"])
    rated = world.club(events.over_rating[0])
    assert any(p["average_daily_rating"] > 1700 for p in served[f"club/{rated.url_id}"])
    assert any(p["status"] == "closed" for p in served[f"player/{events.closed[1]}"])
    short = world.club(events.too_few[0])
    minimum = DIVISIONS[short.division][1]
    fielded = [
        len(team["players"])
        for key, payloads in served.items()
        if key.startswith("match/")
        for payload in payloads
        if payload and payload["status"] == "in_progress"
        for team in payload["teams"].values()
        if team["name"] == short.name
    ]
    assert min(fielded) < minimum
    assert all(int(key.split("/")[1]) > CHESSCOM_BASE for key in served if key.startswith("match/"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "x"], "not a whole number"),
        (["--seed", "-1"], "not between"),
        (["--clubs", "40"], "invalid choice"),
    ],
)
def test_bad_options_are_refused(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["demo", *argv, "--out", str(tmp_path / "out")])
    assert exit_.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_folder_with_files_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["demo", "--out", str(tmp_path)]) == 2
    assert "not an empty folder" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_the_readme_has_two_set_up_commands_the_demo_then_the_suite_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[
        readme.index("## Set-up") : readme.index("\n## ", readme.index("## Set-up") + 1)
    ]
    commands = [line for line in section.splitlines() if line.startswith("python3 -m pip")]
    assert commands == [
        "python3 -m pip install -e . && arbiter demo",
        "python3 -m pip install -e '.[test]' && python3 -m pytest",
    ]
    for word in ("DISCORD_TOKEN", "arbiter sync", "arbiter run"):
        assert word in section
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci[-1] == commands[1]


def test_a_missing_command_is_done_without_and_named() -> None:
    """While the bot lacks /roster remove or /standings, the script does without them and
    says so: the CL-21 removal goes to the directors with /vote open."""
    world = generate(1)
    everything = season_script(world).text()
    assert '"command": "roster remove"' in everything and "waiting" not in everything
    lacking = season_script(world, commands=frozenset({"vote open", "club register"}))
    text = lacking.text()
    assert '"command": "roster remove"' not in text and '"command": "standings"' not in text
    assert '"command": "vote open"' in text
    assert [note.split(":")[0] for note in lacking.waiting] == ["/roster remove", "/standings"]
    assert text.splitlines()[1].startswith("// waiting for ")

"""Issue 36's replay story: a league season and a tour event acted on only from direct messages
and `/my …` views, to the end (tests/support/notified_story.py, notified_tour_story.py).

The scripts are generated, played through the real bot with `arbiter replay --json`, and their
steps read back: the final standings and the event's placings, who got which direct message, and
the member whose direct messages are closed, mentioned in the channel instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.support.notified_story import CLUBS, DIRECTORS, FINAL_ORDER, league_story
from tests.support.notified_tour_story import member, tour_story


def _play(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    script = tmp_path / "story.jsonl"
    script.write_text(text)
    code = main(["replay", str(script), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def _steps(text: str) -> list[dict[str, Any]]:
    """The script's steps, numbered from 1 as the replay numbers them."""
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("//")]
    return [json.loads(line) for line in lines[1:]]


def test_a_season_acted_on_only_from_my_views_ends_with_its_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Admins and directors run no command but `/my …`, apart from registering their clubs and
    Everton's roster removal, which is theirs to decide and opens the directors' motion."""
    story = league_story()
    steps = _steps(story.text())
    records = _play(story.text(), tmp_path, capsys)
    assert len(records) == len(steps)
    actors = {admin for club in CLUBS for admin in club.admins} | set(DIRECTORS)
    commands = {s["command"] for s in steps if "command" in s and s["as"] in actors}
    assert commands == {"club register", "roster remove", "my matches", "my votes"}
    clicked = {s["as"] for s in steps if "click" in s}
    assert clicked == {club.admins[0] for club in CLUBS} | set(DIRECTORS) | {"hq"}
    asked = next(i for i, s in enumerate(steps) if s.get("command") == "standings")
    standings = records[asked]["replies"][0]["embeds"][0]["description"]
    table = standings.split("```")[1].splitlines()[2:]
    codes = {"".join(word[0] for word in name.split()): name for name in FINAL_ORDER}
    assert [codes[row.split()[1]] for row in table] == list(FINAL_ORDER)
    assert "Final standings" in standings
    passed = [p for r in records for p in r["posts"] if "Motion 1 is passed." in str(p)]
    assert len(passed) == 1


def test_a_tour_event_confirmed_only_from_dms_and_my_games_ends_with_its_wrap_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    story = tour_story()
    records = _play(story.text(), tmp_path, capsys)
    games = len(story.plan.pairings)
    found = [p for r in records for p in r["posts"] if "Found on chess.com" in (p["content"] or "")]
    mentions = [p for p in found if "I could not send you a direct message" in p["content"]]
    assert len(found) - len(mentions) == games
    confirmed = [r for r in records if r["replies"] and ", confirmed." in str(r["replies"])]
    answers = [story.by_dm, story.by_view, story.by_mention]
    assert len(confirmed) == games == sum(sum(counts.values()) for counts in answers)
    assert all(counts for counts in answers)
    dms: dict[str, list[str]] = {}
    for record in records:
        for dm in record["dms"]:
            dms.setdefault(dm["to"], []).append(dm["content"])
    players = {member(name) for name in story.plan.entrants}
    rounds = max(p.round for p in story.plan.pairings)
    for player in players - {story.closed}:
        asked = [text for text in dms[player] if text.startswith("Found on chess.com")]
        assert len(asked) == rounds, player  # every game of the round robin, once
        told = [text for text in dms[player] if text.startswith("Your game in")]
        assert bool(told) == (player in story.opted_in), player
    assert story.closed not in dms
    assert len(mentions) == rounds and all(f"@{story.closed}," in p["content"] for p in mentions)
    assert story.plan.played is not None
    winner = next(k.winner for k in story.plan.played.knockout if k.tie.name == "FINAL")
    over = [
        embed
        for r in records
        for p in r["posts"]
        for embed in p["embeds"]
        if "is over" in (embed["title"] or "")
    ]
    assert len(over) == 1 and f"1. {winner}" in str(over[0])

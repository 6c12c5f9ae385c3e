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
from tests.support.notified_story import (
    CLOSED,
    CLUBS,
    DIRECTORS,
    FINAL_ORDER,
    OPTED_IN,
    league_story,
)
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


def _received(records: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Every direct message's text, by the member it went to."""
    received: dict[str, list[str]] = {}
    for record in records:
        for dm in record["dms"]:
            received.setdefault(dm["to"], []).append(dm["content"] or "")
    return received


def _mentions(records: list[dict[str, Any]], member: str) -> list[str]:
    """The channel posts that mention `member` instead of a direct message."""
    opening = f"@{member}, I could not send you a direct message: "
    return [
        p["content"].removeprefix(opening)
        for r in records
        for p in r["posts"]
        if (p["content"] or "").startswith(opening)
    ]


def test_a_season_acted_on_only_from_dms_and_my_views_ends_with_its_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Admins and directors act from their direct messages and `/my …`; the only commands they
    run are registering their clubs, choosing their direct messages, and Everton's roster removal,
    theirs to decide, which opens the directors' motion."""
    story = league_story()
    steps = _steps(story.text())
    records = _play(story.text(), tmp_path, capsys)
    assert len(records) == len(steps)
    actors = {admin for club in CLUBS for admin in club.admins} | set(DIRECTORS)
    commands = {s["command"] for s in steps if "command" in s and s["as"] in actors}
    assert commands == {"club register", "notify", "roster remove", "my matches", "my votes"}
    clicks = [s for s in steps if "click" in s and s["as"] != "hq"]
    assert {s["as"] for s in clicks} == story.by_dm | story.by_view | story.by_mention
    assert story.by_dm and story.by_view and story.by_mention == {CLOSED}
    assert sum("dm" in s["click"] for s in clicks) > len(clicks) // 2
    received = _received(records)
    for who, texts in story.dms.items():
        got = _mentions(records, who) if who == CLOSED else received[who]
        for text in texts:
            assert sum(text in body for body in got) == 1, (who, text)
    assert CLOSED not in received
    for admin, kinds in OPTED_IN.items():
        got = _mentions(records, admin) if admin == CLOSED else received[admin]
        if "match-result" in kinds:
            assert sum(body.startswith("Result of your club's match") for body in got) == 3
        if "forfeit" in kinds:
            assert [b.split("\n")[0] for b in got if "forfeits" in b] == [
                "Your club **Everton Fans** forfeits **Everton Fans** vs **Arsenal Fans**"
                " (match 6) under CL-21: the directors decided it (motion 1)."
            ]
    unasked = {member for member, texts in received.items() if any("started" in t for t in texts)}
    assert unasked == {"ann"}  # match-start is off unless chosen
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

"""CL-23, CL-14 through the real command tree: a `correct-result` motion opened by `/vote open`
with the corrected boards as a CSV attachment, passed by three directors' Yes clicks, replaces
the match's boards; the season exported and judged by `arbiter league` shows the new result and
the standings it brings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.formats.season_file import dump_season
from bot.league.store import load_season as load_stored
from bot.runtime.clock import VirtualClock
from storage.engine.errors import IntegrityError
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.motion_world import (
    CORRECTED,
    START,
    ballot,
    directors,
    league_json,
    league_ready,
    open_correction,
    running_bot,
    table,
)

"""Match 3 (A - C, recorded 2-0 for A on board 1) as it was really played: C won both games."""


def _exported_match(data: dict[str, Any], key: str) -> dict[str, Any]:
    return next(m for m in data["matches"] if m["id"] == key)


async def test_cl_23_correct_result_from_a_csv_attachment_changes_boards_and_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CL-23, CL-14: `/vote open kind=correct-result match=3 boards=<CSV>` shows the corrected
    boards on the motion; three directors' Yes clicks pass it; the match's stored boards are
    the CSV's; in `arbiter league` on the exported season C now wins match 3 (A loses the
    win's points, C gains them, B and D are unchanged); the correction is a director decision
    carrying the motion id."""
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        d1, d2, d3 = directors(harness, 3)
        before = table(await league_json(bot.database, tmp_path, capsys, "2026-03-02"))
        opened = await open_correction(harness, d1, ids["3"])
        assert opened.ephemeral and "is open" in (opened.content or ""), opened.content
        motion = int((opened.content or "").split()[1])
        post = ballot(harness, motion)
        assert "a1" in str(post.payload["embeds"]) and "c1" in str(post.payload["embeds"])
        for d in (d1, d2, d3):
            reply = await harness.click(f"motion:{motion}:yes", user=d, message_id=post.message_id)
        assert "passed" in (reply.content or "")

        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        async with store.read() as view:
            boards = await view.matches.boards(ids["3"])
            record = await view.seasons.by_name("Test season")
            assert record is not None
            exported = dump_season(await load_stored(view, record))
            decisions = await view.decisions.of_season(record.id)
        after = table(await league_json(bot.database, tmp_path, capsys, "2026-03-02"))
    assert [(b.board, b.home_player, b.away_player, b.home_half, b.away_half) for b in boards] == [
        (1, "a1", "c1", 0, 4)
    ]
    assert [(d.kind, d.motion_id, d.rule) for d in decisions] == [
        ("result-correction", motion, "CL-14")
    ]
    exported_boards = _exported_match(exported, "3")["boards"]
    assert len(exported_boards) == 1 and "c1" in str(exported_boards[0])
    # A match win is 1 match point (CL-14): it moves from A to C, who now ranks above A.
    assert (after["A"][1], after["C"][1]) == (before["A"][1] - 1, before["C"][1] + 1)
    assert (after["B"], after["D"][1]) == (before["B"], before["D"][1])
    assert before["A"][0] == 1 and after["C"][0] == 1 and after["A"][0] > after["C"][0]


async def test_a_non_utf8_boards_file_is_refused_as_match_result_refuses_it(
    tmp_path: Path,
) -> None:
    """`/vote open correct-result` reads its boards file as `/match result` does: a file that
    is not UTF-8 is refused with one private line naming the byte, and no motion opens
    (before, it was decoded with replacement characters and refused as a bad username)."""
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        d1, _, _ = directors(harness, 3)
        latin1 = CORRECTED.replace(b"c1", "c\xe91".encode("latin-1"))
        opened = await open_correction(harness, d1, ids["3"], latin1)
        assert opened.ephemeral and "not UTF-8" in (opened.content or ""), opened.content
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            assert await view.motions.recent() == []


async def test_cl_23_a_passed_motion_whose_action_fails_still_closes_once_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CL-23: when applying a passed motion fails with any error (here the decision's insert
    raises an IntegrityError after the boards were replaced), the action's writes are undone
    (a savepoint), the motion still closes — passed, not applied, with the reason — and the
    announcement says why; a later click is refused and nothing is applied."""
    from storage.league.decisions import DecisionRepository

    async def broken(*_: Any, **__: Any) -> None:
        raise IntegrityError("CHECK constraint failed: forced")

    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        d1, d2, d3 = directors(harness, 3)
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        async with store.read() as view:
            before = await view.matches.boards(ids["3"])
        opened = await open_correction(harness, d1, ids["3"])
        motion = int((opened.content or "").split()[1])
        post = ballot(harness, motion)
        monkeypatch.setattr(DecisionRepository, "record", broken)
        for d in (d1, d2, d3):
            reply = await harness.click(f"motion:{motion}:yes", user=d, message_id=post.message_id)
        assert "passed" in (reply.content or ""), reply.content
        again = await harness.click(f"motion:{motion}:no", user=d1, message_id=post.message_id)
        assert again.ephemeral, again.content
        async with store.read() as view:
            after = await view.matches.boards(ids["3"])
            closed = await view.motions.get(motion)
            record = await view.seasons.by_name("Test season")
            assert record is not None
            decisions = await view.decisions.of_season(record.id)
            pending = await view.jobs.pending("vote.close", f"motion:{motion}")
        announcements = [
            str(p.payload.get("content"))
            for p in harness.sent.values()
            if "Not applied" in str(p.payload.get("content"))
        ]
    assert after == before and decisions == []
    assert closed is not None and closed.status == "passed"
    assert closed.outcome.startswith("Not applied") and "IntegrityError" in closed.outcome
    assert closed.votes == {d1.id: True, d2.id: True, d3.id: True}
    assert pending is None
    assert len(announcements) == 1 and "IntegrityError" in announcements[0]

"""CL-DQ and CL-23 through the real command tree: a director forfeit motion on a match that is
void because a club of it is disqualified is refused when it opens, and a forfeit motion whose
match became void while the vote was open executes nothing and says why."""

from __future__ import annotations

from pathlib import Path

from bot.runtime.clock import VirtualClock
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Member
from tests.support.motion_world import (
    START,
    directors,
    league_ready,
    running_bot,
)


async def _passed(harness: DiscordHarness, voters: list[Member], **options: object) -> str:
    """Open a motion as the first director and pass it with every vote yes; the last reply."""
    opened = await harness.command("vote open", user=voters[0], **options)  # type: ignore[arg-type]
    assert opened.ephemeral and "is open" in (opened.content or ""), opened.content
    motion = int((opened.content or "").split()[1])
    last = None
    for voter in voters:
        last = await harness.command("vote cast", user=voter, motion=motion, choice="yes")
    assert last is not None
    return last.content or ""


DISQUALIFY_B = {
    "kind": "disqualify",
    "season": "Test season",
    "club": "B",
    "rule": "CL-23",
    "reason": "Discretion",
}
"""The options of a motion to disqualify club B (CL-DQ)."""


async def _forfeits(harness: DiscordHarness, bot_database: object) -> list[tuple[str, int | None]]:
    async with GuildStore(bot_database, DEFAULT_GUILD_ID).read() as view:  # type: ignore[arg-type]
        return [
            (d.kind, d.match_id)
            for s in await view.seasons.all()
            for d in await view.decisions.of_season(s.id)
            if d.kind == "forfeit"
        ]


async def test_cl_dq_a_forfeit_motion_on_a_void_match_is_refused_at_opening(
    tmp_path: Path,
) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        three = directors(harness, 3)
        done = await _passed(harness, three, **DISQUALIFY_B)
        assert "passed" in done
        # Match 1 (A – B) was played, but B is disqualified: it counts for nobody (CL-DQ).
        refused = await harness.command(
            "vote open", user=three[0], kind="forfeit", match=ids["1"], club="A", reason="x"
        )
        assert refused.ephemeral
        assert "void (CL-DQ)" in (refused.content or "") and "B is disqualified" in (
            refused.content or ""
        )
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            assert await view.motions.get(2) is None
        assert await _forfeits(harness, bot.database) == []


async def test_cl_dq_a_forfeit_motion_whose_match_became_void_executes_nothing(
    tmp_path: Path,
) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        three = directors(harness, 3)
        opened = await harness.command(
            "vote open", user=three[0], kind="forfeit", match=ids["1"], club="A", reason="x"
        )
        assert "is open" in (opened.content or "")
        forfeit = int((opened.content or "").split()[1])
        await _passed(harness, three, **DISQUALIFY_B)
        for voter in three:
            last = await harness.command("vote cast", user=voter, motion=forfeit, choice="yes")
        announced = " ".join(p.content or "" for p in last.posts)
        assert "passed" in (last.content or "")
        assert "Not applied: Match #1 (1) is void (CL-DQ): B is disqualified" in announced
        assert await _forfeits(harness, bot.database) == []

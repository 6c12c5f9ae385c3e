"""CL-23 at a motion's deadline: a `correct-result` motion with three Yes votes of four
directors stays open until its `vote.close` job closes it at the deadline. When applying it
fails part-way (SQLite refuses the decision row after the boards were replaced), the motion
still closes — passed, recorded 'Not applied: …', announced once — the action's writes are
undone (savepoint), the job ends done, and later votes are refused as closed."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.league.motions.lifecycle import CLOSE_JOB, CLOSING_JOB, CLOSING_LEAD
from bot.runtime.clock import VirtualClock
from storage.guild import GuildStore
from tests.support.backends import dump_at, rows_at, run_script_at
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.motion_world import (
    START,
    ballot,
    directors,
    league_ready,
    open_correction,
    running_bot,
)

"""Match 3 (A - C, recorded 2-0 for A on board 1) with C winning both games."""
FORCED = "forced: no decisions today"


def _refuse_decisions(location: Path | str) -> None:
    """Make the database refuse every new director decision (a real error of the database
    raised inside the action, after it replaced the boards and finished the match)."""
    run_script_at(
        location,
        sqlite="CREATE TRIGGER refuse_decisions BEFORE INSERT ON director_decisions"
        f" BEGIN SELECT RAISE(ABORT, '{FORCED}'); END;",
        postgresql="CREATE FUNCTION refuse_decisions_check() RETURNS trigger"
        " LANGUAGE plpgsql AS $body$ BEGIN"
        f" RAISE EXCEPTION USING MESSAGE = '{FORCED}', ERRCODE = '23000'; END $body$;"
        " CREATE TRIGGER refuse_decisions BEFORE INSERT ON director_decisions"
        " FOR EACH ROW EXECUTE FUNCTION refuse_decisions_check();",
    )


def _rows(location: Path | str, sql: str) -> list[tuple[object, ...]]:
    return rows_at(location, sql)


async def test_cl_23_a_passed_motion_whose_action_fails_at_its_deadline_still_closes_once(
    database_location: Path | str,
) -> None:
    """CL-23: three of four directors vote Yes, so the motion waits for its deadline; the
    deadline job closes it, the correction's insert fails after the boards were replaced:
    the boards, the match and the decisions are as before, the motion is passed with
    'Not applied: … IntegrityError …', one announcement says so, the job is done (not failed),
    and a vote afterwards — the abstainer's or a changed one — is refused as closed, writing
    nothing."""
    path = database_location
    clock = VirtualClock(START)
    async with running_bot(path, clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        d1, d2, d3, d4 = directors(harness, 4)
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        opened = await open_correction(harness, d1, ids["3"])
        motion_id = int((opened.content or "").split()[1])
        post = ballot(harness, motion_id)
        for d in (d1, d2, d3):
            reply = await harness.click(
                f"motion:{motion_id}:yes", user=d, message_id=post.message_id
            )
        assert "passed" not in (reply.content or ""), reply.content
        async with store.read() as view:
            motion = await view.motions.get(motion_id)
            boards_before = await view.matches.boards(ids["3"])
            match_before = await view.matches.get(ids["3"])
        assert motion is not None and motion.status == "open"
        _refuse_decisions(path)

        await clock.advance_to(motion.deadline - dt.timedelta(seconds=1))
        async with store.read() as view:
            still = await view.motions.get(motion_id)
        assert still is not None and still.status == "open"
        await clock.advance_to(motion.deadline)  # the vote.close job runs
        async with store.read() as view:
            closed = await view.motions.get(motion_id)
            boards_after = await view.matches.boards(ids["3"])
            match_after = await view.matches.get(ids["3"])
            jobs = await view.jobs.of_subject(f"motion:{motion_id}")
        assert bot.outbox is not None
        await clock.advance(dt.timedelta(0))  # the outbox's pass: the announcement is sent
        await bot.outbox.drained()
        before_votes = dump_at(path)
        late = await harness.click(f"motion:{motion_id}:yes", user=d4, message_id=post.message_id)
        changed = await harness.click(f"motion:{motion_id}:no", user=d1, message_id=post.message_id)
        await clock.advance(dt.timedelta(days=7))  # nothing left to run
        after_votes = dump_at(path)
        sent = [p for p in harness.sent.values() if "Not applied" in str(p.payload.get("content"))]
    # The correction (0-4 on board 1) was written, then undone with the failed action.
    assert [(b.board, b.home_half, b.away_half) for b in boards_before] == [(1, 4, 0)]
    assert boards_after == boards_before and match_after == match_before
    assert _rows(path, "SELECT COUNT(*) FROM director_decisions") == [(0,)]
    assert closed is not None and closed.status == "passed"
    assert closed.closed_at == motion.deadline
    assert closed.outcome == (f"Not applied: the action failed (IntegrityError: {FORCED})."), (
        closed.outcome
    )
    assert closed.votes == {d1.id: True, d2.id: True, d3.id: True}
    # The reminder to the elector who had not voted ran 12 h before; the closing at the deadline.
    assert [(j.kind, j.status, j.due_at) for j in jobs] == [
        (CLOSE_JOB, "done", motion.deadline),
        (CLOSING_JOB, "done", motion.deadline - CLOSING_LEAD),
    ]
    announced = [
        str(row[0])
        for row in _rows(path, "SELECT content FROM outbox ORDER BY id")
        if "Not applied" in str(row[0]) and f"Motion {motion_id} is" not in str(row[0])
    ]
    assert len(announced) == 1 and "IntegrityError" in announced[0] and "**passed**" in announced[0]
    assert len(sent) == 1
    audit = _rows(path, "SELECT action, details FROM audit WHERE action = 'job.done' ORDER BY id")
    assert any("not_applied" in str(details) and FORCED in str(details) for _, details in audit)
    refused = f"Motion {motion_id} is closed (passed): votes are no longer taken."
    for outcome in (late, changed):
        assert outcome.ephemeral and outcome.content == refused, outcome.content
    assert after_votes == before_votes

"""Issue 19's property: whoever types what, in any order, at any clock, the league's outcomes
follow the rules. Generated sequences of slash commands (challenges, acceptances, results,
reschedules, motions and their votes, reads) by any member of the cast, with the virtual
clock jumping between them (the bot's scheduler judging deadlines on the way), run through
the real command tree on the populated league; after every step:

- the standings of the stored facts equal `arbiter league` on the exported season file (and
  core's report on that file as at the bot's instant);
- no fact a judgement used (a challenge as at its deadline, the boards and finish of a
  result) changes afterwards, unless a passed motion or an arbiter's audited correction did;
- no void match affects anyone: no director forfeit is recorded on a match void when it was
  decided, and no breach is counted after its club was disqualified;

and at the end the export imports again through `/season import`'s service. A few examples
run by default; `ARBITER_LONG_PROPERTIES=1` runs many more."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.app.arbiter import ArbiterBot
from bot.cli import main
from bot.formats.season_file import dump_season
from bot.formats.season_file import load_season as load_file
from bot.kernel.actor import Actor, Role
from bot.league.matches.jobs import AT_START, POLL, cancel_jobs, schedule_jobs
from bot.league.seasons.files import import_season_file
from bot.league.store import StandingsCache, load_season
from bot.rendering.league.report_json import report_json
from core.league import league_report
from core.league.facts import challenge_deadline
from core.league.season import Season
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.cl_seasons import match, season
from tests.support.command_world import ADMINS, DIRECTORS, CommandWorld, league_bot, members
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Upload
from tests.support.motion_world import START, import_test_season

LONG = os.environ.get("ARBITER_LONG_PROPERTIES") == "1"
NAME = "Prop"
ROUNDS = [START + dt.timedelta(days=7 * r + 6) for r in range(3)]
"""Three rounds after the clock's start: their deadlines fall while the sequence runs."""
PAIRS = [[("A", "B"), ("C", "D")], [("A", "C"), ("B", "D")], [("A", "D"), ("B", "C")]]
PROP_SEASON = season(
    [
        match(
            f"Q-{r + 1}-{b + 1}",
            home,
            away,
            [],
            round=r + 1,
            division="Q",
            start=ROUNDS[r],
            finished=False,
            challenge=None,
        )
        for r, pairs in enumerate(PAIRS)
        for b, (home, away) in enumerate(pairs)
    ],
    {"Q": ["A", "B", "C", "D"]},
)
KEYS = [f"Q-{r + 1}-{b + 1}" for r in range(3) for b in range(2)]
CLUBS_OF = {
    f"Q-{r + 1}-{b + 1}": pair for r, pairs in enumerate(PAIRS) for b, pair in enumerate(pairs)
}
CAST = ("player", "club admin", "other club's admin", "HQ", "director", "arbiter")

step = st.one_of(
    st.tuples(st.just("wait"), st.sampled_from([1, 13, 47, 100, 170])),
    st.tuples(st.just("next start"), st.sampled_from([1, 30])),
    st.tuples(st.just("challenge"), st.sampled_from(KEYS), st.integers(0, 1)),
    st.tuples(st.just("accept"), st.sampled_from(KEYS), st.integers(0, 1)),
    st.tuples(
        st.just("result"),
        st.sampled_from(KEYS),
        st.sampled_from(["arbiter", "club admin"]),
        st.sampled_from(["2,0", "1,1", "0,2", "1.5,0.5"]),
    ),
    st.tuples(st.just("reschedule"), st.sampled_from(KEYS), st.sampled_from([-30, 50, 200, 400])),
    st.tuples(
        st.just("motion"),
        st.sampled_from(["forfeit", "disqualify", "reschedule"]),
        st.sampled_from(KEYS),
        st.integers(0, 1),
    ),
    st.tuples(st.just("anyone"), st.sampled_from(CAST), st.sampled_from(KEYS)),
)


@dataclass
class Judged:
    """What a judgement used, per match: the challenge as at its deadline (once passed), the
    boards and finish of its result (once recorded)."""

    challenge: dict[str, tuple[Any, ...]]
    result: dict[str, tuple[Any, ...]]


def _at_deadline(season_: Season, key: str) -> tuple[Any, ...]:
    """CL-15's input: the challenge's issuer, issue and acceptance known by the deadline."""
    m = next(x for x in season_.matches if x.id == key)
    deadline = challenge_deadline(m, season_.rules.challenge_deadline_hours)
    c = m.challenge
    if c is None or c.issued > deadline:
        return (deadline, None, None)
    return (deadline, c.issued_by, c.accepted if c.accepted and c.accepted <= deadline else None)


def _result(season_: Season, key: str) -> tuple[Any, ...]:
    m = next(x for x in season_.matches if x.id == key)
    return (m.finished, m.boards)


async def _facts(bot: ArbiterBot) -> Season:
    store = GuildStore(bot.database, DEFAULT_GUILD_ID)
    async with store.read() as view:
        record = await view.seasons.by_name(NAME)
        assert record is not None
        return await load_season(view, record)


async def _check(
    bot: ArbiterBot, tmp_path: Path, judged: Judged, corrected: bool, capsys: Any
) -> None:
    """The three invariants after a step (`corrected`: the step was a passed motion or an
    arbiter's correction, which may change judged facts)."""
    now = bot.database.clock()
    stored = await _facts(bot)
    exported = dump_season(stored)
    from_file = load_file(json.dumps(exported))
    store = GuildStore(bot.database, DEFAULT_GUILD_ID)
    async with store.read() as view:
        record = await view.seasons.by_name(NAME)
    assert record is not None
    cache = StandingsCache()
    bot_now = await cache.report(store, record, now=now)
    assert report_json(bot_now) == report_json(league_report(from_file, now=now))
    yesterday = (now - dt.timedelta(days=1)).date()
    bot_then = await cache.report(store, record, as_of=yesterday)
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    capsys.readouterr()
    assert main(["league", str(path), "--json", "--as-of", yesterday.isoformat()]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(report_json(bot_then)))
    # Judged facts do not change but by a motion or an arbiter.
    for key in KEYS:
        m = next(x for x in stored.matches if x.id == key)
        if challenge_deadline(m, stored.rules.challenge_deadline_hours) <= now:
            seen = _at_deadline(stored, key)
            if key in judged.challenge and not corrected:
                assert judged.challenge[key] == seen, (key, judged.challenge[key], seen)
            judged.challenge[key] = seen
        if m.finished is not None:
            seen = _result(stored, key)
            if key in judged.result and not corrected:
                assert judged.result[key] == seen, (key, judged.result[key], seen)
            judged.result[key] = seen
    # No void match affects anyone.
    out = {q.club: q.effective for q in bot_now.disqualified}
    starts = {m.id: (m.home, m.away) for m in stored.matches}
    for forfeit in stored.director_forfeits:
        decided = forfeit.decided
        assert decided is not None, "a motion's forfeit takes effect when decided"
        assert all(out.get(c, decided) >= decided for c in starts[forfeit.match]), forfeit
    for breach in bot_now.forfeits:
        assert all(out.get(c, breach.effective) >= breach.effective for c in starts[breach.match])


async def _issuer(bot: ArbiterBot, match_id: int) -> str | None:
    """The club that issued the match's challenge (None: not issued)."""
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        found = await view.matches.get(match_id)
        if found is None or found.challenge is None:
            return None
        club = await view.clubs.get(found.challenge.issued_by)
    return None if club is None else club.name


async def _started(bot: ArbiterBot, ids: dict[str, int]) -> list[str]:
    """The keys of the matches whose start has passed."""
    now = bot.database.clock()
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        found = [await view.matches.get(ids[key]) for key in KEYS]
    return [m.key for m in found if m is not None and m.start <= now]


async def _admin_of(harness: DiscordHarness, club: str) -> Any:
    return harness.member(user_id=ADMINS[club][0], name=f"admin-{club.lower()}")


async def _run(
    bot: ArbiterBot, harness: DiscordHarness, clock: Any, ids: dict[str, int], move: tuple[Any, ...]
) -> bool:
    """Run one step; True if it was a correction (a passed motion or an arbiter's result)."""
    kind = move[0]
    cast = members(harness)
    if kind == "wait":
        await clock.advance(dt.timedelta(hours=move[1]))
        return False
    if kind == "next start":  # past the next round's start, so results can be recorded
        now = bot.database.clock()
        coming = [r for r in ROUNDS if r > now]
        if coming:
            await clock.advance(coming[0] + dt.timedelta(hours=move[1]) - now)
        return False
    if kind in ("challenge", "accept"):
        key, side = move[1], move[2]
        if kind == "accept":  # the club that did not issue it, when one did (else any)
            issuer = await _issuer(bot, ids[key])
            if issuer is not None:
                side = 1 - CLUBS_OF[key].index(issuer)
        admin = await _admin_of(harness, CLUBS_OF[key][side])
        options: dict[str, Any] = {"match": str(ids[key])}
        if kind == "challenge":
            options["chesscom_match"] = str(9_000_000 + ids[key] * 2 + side)
        done = await harness.command(f"match {kind}", user=admin, **options)
        event(f"{kind}: {'refused' if done.reply.ephemeral else 'recorded'}")
        return False
    if kind == "result":
        key, by, points = move[1], move[2], move[3]
        started = await _started(bot, ids)
        coming = [r for r in ROUNDS if r > bot.database.clock()]
        if not started and coming and by == "arbiter":  # to a start, so the result can count
            await clock.advance(coming[0] + dt.timedelta(hours=2) - bot.database.clock())
            started = await _started(bot, ids)
        if started and key not in started:  # mostly a match that can take a result
            key = started[KEYS.index(key) % len(started)]
        home, away = CLUBS_OF[key]
        user = cast["arbiter"] if by == "arbiter" else await _admin_of(harness, home)
        body = (
            f"1,{home.lower()}1,{away.lower()}1,{points}\n2,{home.lower()}2,{away.lower()}2,1,1\n"
        )
        outcome = await harness.command(
            "match result", user=user, match=str(ids[key]), file=Upload("b.csv", body.encode())
        )
        event(f"result by {by}: {'refused' if outcome.reply.ephemeral else 'recorded'}")
        return by == "arbiter" and not outcome.reply.ephemeral
    if kind == "reschedule":
        key, hours = move[1], move[2]
        start = bot.database.clock() + dt.timedelta(hours=hours)
        moved = await harness.command(
            "match reschedule",
            user=cast["director"],
            match=str(ids[key]),
            start=f"{start:%Y-%m-%d %H:%M} UTC",
        )
        event(f"reschedule: {'refused' if moved.reply.ephemeral else 'moved'}")
        return False
    if kind == "motion":
        motion_kind, key, side = move[1], move[2], move[3]
        club = CLUBS_OF[key][side]
        options = {"kind": motion_kind, "reason": "generated"}
        if motion_kind == "forfeit":
            options.update(match=str(ids[key]), club=club)
        elif motion_kind == "disqualify":
            options.update(season=NAME, club=club, rule="CL-23")
        else:
            start = bot.database.clock() + dt.timedelta(hours=60)
            options.update(match=str(ids[key]), start=f"{start:%Y-%m-%d %H:%M} UTC")
        first = harness.member("Director", user_id=DIRECTORS[0])
        opened = await harness.command("vote open", user=first, **options)
        is_open = "is open" in (opened.reply.content or "")  # the reply is private either way
        event(f"{motion_kind} motion: {'opened' if is_open else 'refused'}")
        if not is_open:
            return False
        number = int((opened.reply.content or "").split()[1])
        for user in DIRECTORS:
            director = harness.member("Director", user_id=user)
            await harness.command("vote cast", user=director, motion=number, choice="yes")
        return True
    role, key = move[1], move[2]  # anyone: reads, and a mutation their role may not do
    user = cast[role]
    await harness.command("match show", user=user, match=str(ids[key]))
    await harness.command("standings", user=user, season=NAME)
    refused = await harness.command(
        "match reschedule", user=user, match=str(ids[key]), start="2026-12-01 11:00"
    )
    if role != "director":
        assert refused.reply.ephemeral
    return False


counter = itertools.count()


@settings(
    max_examples=60 if LONG else 3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(moves=st.lists(step, min_size=4, max_size=30 if LONG else 12))
def test_cl_15_cl_dq_any_command_sequence_keeps_the_outcomes_by_the_rules(
    world_file: tuple[Path, CommandWorld],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    moves: list[tuple[Any, ...]],
) -> None:
    """CL-13..15, CL-FF, CL-DQ, CL-23, CORE-5: see the module docstring."""
    folder = tmp_path / f"run{next(counter)}"
    folder.mkdir()
    path = folder / "league.db"
    shutil.copy(world_file[0], path)

    async def scenario() -> None:
        async with league_bot(path) as (bot, harness, clock):
            ids = await import_test_season(bot.database, {**PROP_SEASON, "name": NAME})
            store = GuildStore(bot.database, DEFAULT_GUILD_ID)
            async with store.change(None, "test.jobs", "season") as uow:
                record = await uow.seasons.by_name(NAME)
                assert record is not None
                for key in KEYS:  # reminders and deadlines; no chess.com in this league
                    await schedule_jobs(uow, ids[key], ROUNDS[int(key[2]) - 1], record.rules)
                    await cancel_jobs(uow, ids[key], (AT_START, POLL))
            judged = Judged({}, {})
            await _check(bot, folder, judged, False, capsys)
            for move in moves:
                corrected = await _run(bot, harness, clock, ids, move)
                await clock.advance(dt.timedelta(0))
                await _check(bot, folder, judged, corrected, capsys)
            async with store.read() as view:
                record = await view.seasons.by_name(NAME)
                assert record is not None
                data = json.dumps(dump_season(await load_season(view, record))).encode()
            hq = Actor(1, frozenset({Role.HQ}))
            copy = await import_season_file(store, hq, data, "Prop copy")
            assert copy.name == "Prop copy"

    asyncio.run(scenario())


def test_every_season_of_the_league_exports_to_a_file_both_doors_accept(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 19: `arbiter season export` of each season the tests' league holds (one played
    and running, one being set up with divisions still without clubs) is accepted by
    `arbiter league` and by `/season import`'s service."""
    path = tmp_path / "league.db"
    shutil.copy(world_file[0], path)
    config = tmp_path / "config.toml"
    config.write_text(f"[database]\npath = '{path}'\n", encoding="utf-8")
    guild = str(DEFAULT_GUILD_ID)
    exported = {}
    for name in ("Test season", "Spring"):
        capsys.readouterr()
        assert main(["season", "export", name, "--guild", guild, "--config", str(config)]) == 0
        exported[name] = capsys.readouterr().out
        file = tmp_path / "season.json"
        file.write_text(exported[name], encoding="utf-8")
        assert main(["league", str(file), "--json"]) == 0

    async def imported() -> list[str]:
        database = await Database.open(path)
        try:
            store = GuildStore(database, DEFAULT_GUILD_ID)
            hq = Actor(1, frozenset({Role.HQ}))
            return [
                (await import_season_file(store, hq, data.encode(), f"{name} again")).name
                for name, data in exported.items()
            ]
        finally:
            await database.close()

    assert asyncio.run(imported()) == ["Test season again", "Spring again"]


def _issue_19_seasons() -> dict[str, dict[str, Any]]:
    """The seasons issue 19's command tests import besides the world's (their files)."""
    from tests.league.commands.test_season_life_cycle import TWO_DIVISIONS
    from tests.league.commands.test_what_counts import ROUND_SEASON

    done = season(
        [match("1", "A", "B"), match("2", "C", "D", division="Q")],
        {"P": ["A", "B"], "Q": ["C", "D"]},
    )
    keyed = season(
        [match("DO-1-1", "A", "B", [("a1", "b1", 2)], division="Division One")],
        {"Division One": ["A", "B"]},
    )
    return {
        "Two": TWO_DIVISIONS,
        "Round": ROUND_SEASON,
        "Done": done,
        "Keyed": keyed,
        NAME: PROP_SEASON,
    }


@pytest.mark.parametrize("name", sorted(_issue_19_seasons()))
def test_cl_12_every_issue_19_season_exported_through_discord_is_accepted_by_both_doors(
    world_file: tuple[Path, CommandWorld],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    """CL-7, CL-12 (issue 19, done when): each season the life-cycle tests import, once the
    bot holds it, comes out of `/season export` as a file `arbiter league` accepts (with its
    standings equal to the bot's `/standings` source, core's report on the file) and
    `/season import` stores again under a new name."""
    path = tmp_path / "league.db"
    shutil.copy(world_file[0], path)

    async def scenario() -> bytes:
        async with league_bot(path) as (bot, harness, _clock):
            await import_test_season(bot.database, {**_issue_19_seasons()[name], "name": name})
            hq = members(harness)["HQ"]
            exported = await harness.command("season export", user=hq, season=name)
            ((file_name, data),) = exported.reply.uploads.items()
            again = await harness.command(
                "season import", user=hq, file=Upload(file_name, data), name=f"{name} again"
            )
            assert not again.reply.ephemeral and "imported" in (again.reply.content or ""), (
                again.reply.content
            )
            async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
                record = await view.seasons.by_name(f"{name} again")
                assert record is not None
                copy = await load_season(view, record)
            assert dump_season(copy) == {**json.loads(data), "name": f"{name} again"}
            return data

    data = asyncio.run(scenario())
    file = tmp_path / "season.json"
    file.write_bytes(data)
    capsys.readouterr()
    assert main(["league", str(file), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(report_json(league_report(load_file(data.decode())))))

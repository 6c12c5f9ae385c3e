"""The tour's direct messages, queued by `notify` in the unit of work of each change over a real
SQLite database: a session approaching (SESSION), a report awaiting a player's confirmation
(CONFIRM, by a player or found by the bot), a report confirmed, disputed or settled (GAME_OUTCOME)
and an appeal decided (APPEAL). A player who opted in gets exactly one direct message with the
right text and buttons. One who opted out, or left a kind off by default, gets none, and so does a
player with no linked member. The channel posts stay as they were."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.kernel.config import Config
from bot.kernel.notifications import Kind
from bot.rendering.tour.automation import dm_report_buttons
from bot.runtime.clock import VirtualClock
from bot.tour.appeals import service as appeals
from bot.tour.automation.context import TourAutomation
from bot.tour.automation.polling import Found, PollRead, poll_handler
from bot.tour.events import service as events
from bot.tour.game_targets import GameTarget, open_targets
from bot.tour.games import service as games
from bot.tour.incidents import service as incidents
from bot.tour.tours import service as tours
from core.results import Result
from core.tour.game_search import Site, SiteGame
from core.tour.ranking import EventType
from storage.guild import GuildStore
from storage.shared.outbox import OutboxMessage
from tests.support.tour_units import ANNOUNCEMENTS, GUILD, Written, at, event_of, written
from tests.support.tour_world import (
    ARBITER,
    ORGANISER,
    knockout_started,
    member,
    player_names,
    tour_with_event,
)
from tests.tour.test_automation import due_job, scheduler

pytestmark = pytest.mark.on_clock
NAMES = player_names(8)
UNLINKED = "P02"
"""The player of `event_with_unlinked` who has no linked member."""
LINK = f"https://discord.com/channels/{GUILD}/{ANNOUNCEMENTS}"
"""The jump link that ends a direct message whose public record is in the announcements."""


async def choose(store: GuildStore, user: int, kind: Kind, enabled: bool = True) -> None:
    """`user`'s choice of `kind` stored, as `/notify` stores it (test set-up)."""
    async with store.change(user, "test.notify", f"user:{user}") as uow:
        await uow.notifications.choose(user, kind.key, enabled)


def dms(unit: Written) -> list[tuple[int | None, int]]:
    """The direct messages a call queued: to whom, and the channel of their public record."""
    return [(p.dm_user_id, p.channel_id) for p in unit.dms()]


def the_dm(unit: Written) -> OutboxMessage:
    """The one direct message a call queued."""
    [message] = unit.dms()
    return message


async def event_with_unlinked(store: GuildStore) -> None:
    """A drawn 8-player event in which every player but `UNLINKED` is linked to a member."""
    await tours.create_tour(store, ORGANISER, Config(), "Tour")
    await events.create_event(
        store, ORGANISER, "Tour", "Open", EventType.REGULAR, "2026-04-21", players=8
    )
    for index, name in enumerate(NAMES):
        await events.add_player(
            store, ORGANISER, "Open", name, None if name == UNLINKED else 1000 + index
        )
    await events.draw_event(store, ORGANISER, "Open", seed="s1", confirm=True)


async def on_session(store: GuildStore, clock: VirtualClock) -> list[GameTarget]:
    """The event's open games, the clock on its first session."""
    await clock.advance_to(at("2026-04-21 15:30"))
    return open_targets(await event_of(store, "Open"))


async def players_of(store: GuildStore, target: GameTarget) -> tuple[int, int]:
    """The members of `target`'s White and Black, both linked."""
    loaded = await event_of(store, "Open")
    white, black = loaded.user_of(target.white), loaded.user_of(target.black)
    assert white is not None and black is not None
    return white, black


async def test_a_session_reminder_tells_each_opted_in_player_their_own_game(
    store: GuildStore, clock: VirtualClock
) -> None:
    """SESSION is off by default. Before the first session's three rounds, the one player who
    turned it on gets one direct message a round with their own game, linking to the
    announcements. The one who turned it off and the others get none, and the channel posts
    still ping all eight players."""
    await tour_with_event(store, players=NAMES)
    await choose(store, 1000, Kind.SESSION)
    await choose(store, 1001, Kind.SESSION, enabled=False)
    subject = f"event:{(await event_of(store, 'Open')).record.id}"
    job = await due_job(store, clock, "cct.round.r1", subject)
    _, unit = await written(store, scheduler(store, clock).run(job), units=3)
    assert len(unit.announced()) == 3
    channel_posts = [p for p in unit.posts if p.dm_user_id is None]
    assert all(sorted(p.ping_users) == list(range(1000, 1008)) for p in channel_posts)
    assert dms(unit) == [(1000, ANNOUNCEMENTS)] * 3
    for number, message in enumerate(unit.dms(), start=1):
        text = message.content or ""
        assert text.startswith(f"Your game in **Open**, round {number}, starts <t:")
        assert "<@1000>" in text and text.count(" (White) – ") == 1 and text.endswith(LINK)
        assert message.components is None and message.ping_users == ()


async def test_a_knockout_days_reminder_tells_the_opted_in_player_their_series(
    store: GuildStore, clock: VirtualClock
) -> None:
    """Before the knock-out's first day, P01, who turned SESSION on, gets one direct message
    with their quarter-final and what comes next, their colour choice by CCT-8e. Their
    opponent, who left it off, gets none."""
    await knockout_started(store, "Open", players=NAMES)
    await choose(store, 1000, Kind.SESSION)
    subject = f"event:{(await event_of(store, 'Open')).record.id}"
    async with store.read() as view:
        job = await view.jobs.pending("cct.round.qf-day1", subject)
        assert job is not None
        earlier = [j for j in await view.jobs.of_subject(subject) if j.due_at < job.due_at]
    last = max(earlier, key=lambda j: j.due_at)
    await clock.advance_to(last.due_at)
    await scheduler(store, clock).run(last)  # the preliminary's days' jobs, run before
    await clock.advance_to(job.due_at)
    _, unit = await written(store, scheduler(store, clock).run(job))
    assert len(unit.announced()) == 1 and dms(unit) == [(1000, ANNOUNCEMENTS)]
    text = the_dm(unit).content or ""
    assert text.startswith("Your game in **Open**, QF day 1, starts <t:")
    assert "\nQF1: <@1000> – <@1007> · <@1000> chooses the colour" in text and "QF2" not in text


async def test_a_players_report_asks_the_opponent_to_confirm_by_dm(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CONFIRM is on by default: White's report queues one direct message to Black with the
    result, the automatic confirmation's time and the Confirm and Dispute buttons naming the
    guild. An opponent who turned CONFIRM off gets none."""
    await tour_with_event(store, players=NAMES)
    first, second = (await on_session(store, clock))[:2]
    white, black = await players_of(store, first)
    changed, unit = await written(
        store,
        games.report_game(
            store, member(white), "Open", first.name, Result.WHITE_WIN, channel_id=ANNOUNCEMENTS
        ),
    )
    assert dms(unit) == [(black, ANNOUNCEMENTS)]
    message = the_dm(unit)
    assert (message.content or "").startswith(
        f"{first.white} reported your game in **Open**, {first.name}: 1-0. Confirm or dispute"
    )
    assert "confirmed automatically <t:" in (message.content or "")
    assert (message.content or "").endswith(LINK)
    assert list(message.components or ()) == dm_report_buttons(GUILD, changed.game.id)
    other_white, other_black = await players_of(store, second)
    await choose(store, other_black, Kind.CONFIRM, enabled=False)
    _, unit = await written(
        store, games.report_game(store, member(other_white), "Open", second.name, Result.DRAW)
    )
    assert dms(unit) == []


async def test_a_report_against_a_player_with_no_member_asks_nobody(
    store: GuildStore, clock: VirtualClock
) -> None:
    """A report whose opponent has no linked member queues no direct message."""
    await event_with_unlinked(store)
    target = next(t for t in await on_session(store, clock) if UNLINKED in (t.white, t.black))
    reporter = (await event_of(store, "Open")).user_of(
        target.black if target.white == UNLINKED else target.white
    )
    assert reporter is not None
    _, unit = await written(
        store, games.report_game(store, member(reporter), "Open", target.name, Result.DRAW)
    )
    assert unit.dms() == []


async def test_a_game_the_bot_found_asks_both_players_to_confirm(
    store: GuildStore, clock: VirtualClock
) -> None:
    """A game found on chess.com, recorded by the poll job as the bot's report, is posted to the
    announcements as before and sent by direct message to each player who wants CONFIRM, with
    the buttons naming the guild. Black turned CONFIRM off and gets none."""
    await tour_with_event(store, players=NAMES)
    target = (await on_session(store, clock))[0]
    white, black = await players_of(store, target)
    await choose(store, black, Kind.CONFIRM, enabled=False)
    record = (await event_of(store, "Open")).record
    subject = f"event:{record.id}"
    async with store.read() as view:
        job = await view.jobs.pending("cct.poll", subject)
    assert job is not None
    url = "https://www.chess.com/game/live/4242"
    game = SiteGame(
        Site.CHESSCOM, "4242", url, target.white, target.black, Result.BLACK_WIN,
        at("2026-04-21 16:10"), None,
    )  # fmt: skip
    read = PollRead((Found(target.name, game),), 0, {}, 1)
    record_found = poll_handler(TourAutomation(store.database, None, None))

    async def poll() -> None:
        async with store.tour_change(None, "test.poll", subject) as uow:
            await record_found(job, uow, read)

    _, unit = await written(store, poll())
    assert len(unit.announced()) == 1 and "Found on chess.com" in unit.announced()[0]
    assert dms(unit) == [(white, ANNOUNCEMENTS)]
    message = the_dm(unit)
    assert (message.content or "").startswith(
        f"Found on chess.com: your game in **Open**, {target.name} — 0-1 (<{url}>)."
    )
    loaded = await event_of(store, "Open")
    game_id = next(g.id for g in loaded.games if loaded.game_name(g) == target.name)
    assert list(message.components or ()) == dm_report_buttons(GUILD, game_id)


async def test_a_confirmation_or_a_dispute_tells_the_reporter_who_opted_in(
    store: GuildStore, clock: VirtualClock
) -> None:
    """GAME_OUTCOME is off by default. Black's Confirm tells White, who turned it on, and not
    Black, who acted. Black's Dispute of another report tells its White the same way. A
    reporter who left it off hears nothing."""
    await tour_with_event(store, players=NAMES)
    first, second, third = (await on_session(store, clock))[:3]
    for target in (first, second):
        for user in await players_of(store, target):
            await choose(store, user, Kind.GAME_OUTCOME)
    outcomes = []
    for target, confirm in ((first, True), (second, False), (third, True)):
        white, black = await players_of(store, target)
        reported = await games.report_game(store, member(white), "Open", target.name, Result.DRAW)
        _, unit = await written(
            store, games.answer_report(store, member(black), reported.game.id, confirm)
        )
        outcomes.append((dms(unit), [p.content for p in unit.dms()]))
    white = (await players_of(store, first))[0]
    assert outcomes[0] == (
        [(white, ANNOUNCEMENTS)],
        [
            f"Your game in **Open**, {first.name} ({first.white} – {first.black}): ½-½, "
            f"confirmed.\n{LINK}"
        ],
    )
    white = (await players_of(store, second))[0]
    assert outcomes[1][0] == [(white, ANNOUNCEMENTS)]
    assert f"½-½, disputed by {second.black}, an arbiter decides." in (outcomes[1][1][0] or "")
    assert outcomes[2] == ([], [])


async def test_an_arbiters_decision_tells_both_players_who_opted_in(
    store: GuildStore, clock: VirtualClock
) -> None:
    """An arbiter's entry, correction (CCT-9), award without play and a disconnection lost
    (CCT-10) each tell both players who turned GAME_OUTCOME on, with how it was settled. A
    report nobody answered, confirmed by the bot, tells them too. A player who turned it off
    hears nothing."""
    await tour_with_event(store, players=NAMES)
    targets = (await on_session(store, clock))[:5]
    for target in targets:
        for user in await players_of(store, target):
            await choose(store, user, Kind.GAME_OUTCOME)
    entered, corrected, awarded, lost, waited = targets
    calls: list[tuple[str, Callable[[], Awaitable[object]]]] = [
        (
            "decided by an arbiter (final, CCT-9)",
            lambda: games.report_game(store, ARBITER, "Open", entered.name, Result.WHITE_WIN),
        ),
        (
            "corrected by an arbiter (other decision of the Chief Arbiter; Wrong \\*flag\\*, "
            "CCT-9)",
            lambda: games.correct_game(
                store, ARBITER, "Open", corrected.name, Result.BLACK_WIN, "Wrong *flag*"
            ),
        ),
        (
            f"awarded to {awarded.white} without play, walkover (no-show, CCT-9)",
            lambda: games.award_tour_game(
                store, ARBITER, "Open", awarded.name, awarded.white, "no-show", confirm=True
            ),
        ),
        (
            f"decided by an arbiter on {lost.black}'s disconnection (CCT-10)",
            lambda: incidents.record_disconnection(
                store, ARBITER, "Open", lost.name, lost.black, 20, False, True
            ),
        ),
    ]
    for (how, call), target in zip(calls, targets, strict=False):
        _, unit = await written(store, call())
        expected = sorted((u, ANNOUNCEMENTS) for u in await players_of(store, target))
        assert sorted(dms(unit)) == expected
        assert all(how in (p.content or "") for p in unit.dms()), (how, unit.dms())
    white, black = await players_of(store, waited)
    await choose(store, black, Kind.GAME_OUTCOME, enabled=False)
    reported = await games.report_game(store, member(white), "Open", waited.name, Result.DRAW)
    job = await due_job(store, clock, "cct.confirm", f"game:{reported.game.id}")
    _, unit = await written(store, scheduler(store, clock).run(job))
    assert dms(unit) == [(white, ANNOUNCEMENTS)]
    assert "½-½, confirmed automatically, nobody answered in time." in (the_dm(unit).content or "")


async def test_an_arbiters_decision_tells_no_player_with_no_member(
    store: GuildStore, clock: VirtualClock
) -> None:
    """A correction of a game of a player with no linked member tells only the opponent."""
    await event_with_unlinked(store)
    target = next(t for t in await on_session(store, clock) if UNLINKED in (t.white, t.black))
    other = (await event_of(store, "Open")).user_of(
        target.black if target.white == UNLINKED else target.white
    )
    assert other is not None
    await choose(store, other, Kind.GAME_OUTCOME)
    _, unit = await written(
        store, games.correct_game(store, ARBITER, "Open", target.name, Result.DRAW, "Agreed")
    )
    assert dms(unit) == [(other, ANNOUNCEMENTS)]


async def test_cct_11_an_appeal_decided_tells_the_player_who_lodged_it(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-11: APPEAL is off by default. The decision on an appeal tells the player who lodged
    it and turned APPEAL on, with the decision and its reason, neutralised. The decision on
    another player's appeal, who left it off, tells nobody."""
    await tour_with_event(store, players=NAMES)
    first, second = (await on_session(store, clock))[:2]
    white = (await players_of(store, first))[0]
    other = (await players_of(store, second))[0]
    await choose(store, white, Kind.APPEAL)
    mine = await appeals.lodge_appeal(store, member(white), "Open", first.name, "Camera off")
    theirs = await appeals.lodge_appeal(store, member(other), "Open", second.name, "Noise")
    _, unit = await written(store, appeals.decide(store, ARBITER, mine.id, "upheld", "Seen <@1>"))
    assert dms(unit) == [(white, ANNOUNCEMENTS)]
    text = the_dm(unit).content or ""
    assert text.startswith(f"Your appeal {mine.id} in **Open** about {first.name} is upheld: ")
    assert "<@1>" not in text and text.endswith(f"(CCT-11).\n{LINK}")
    _, unit = await written(store, appeals.decide(store, ARBITER, theirs.id, "dismissed", "No"))
    assert unit.dms() == [] and len(unit.announced()) == 1

"""Games found where they are played: the event's one poll job looks them up on the sites.

The job is `cct.poll` with subject `event:<id>`. It looks up each open game of one session whose two
players have linked usernames on chess.com or lichess.org. The game is a preliminary game, or the
next game of a knock-out series or Finals match. It looks for the one finished game between them in
its session's window, at its time control and with its colours, by CCT-7 and
`core.tour.game_search`. It reads through the bot's one client of each site and one poll's fetch
plan from `bot.sites.poll`. That plan makes at most one request per pairing and reads a player's
archive once for every pairing it serves.

When: polling follows the games, not the hours. A session is polled only while it has a game still
to look for, as `plan.poll_days` gives them. Those are open games and contests' next games as core's
contest status gives them. A knock-out game after its series is decided, or a 4th game after a match
is won at 2½ by CCT-8d, is thus never polled. A session is polled only from its start until its
appeals close, when 23:59 in the appeals zone on the session's day is over by CCT-11. It is polled
at most `POLLS_PER_SESSION` times, which is 3: at its start, once between, and at the close, which
finds whatever ended in the session.

Each session with a game is one run of at most 3 jobs. A run starts again within a session only when
a game becomes open there, so an event's poll jobs are at most 3 per game however long it lasts. One
job per session, rather than one per game, reads a player's archive once for all their games of the
session. Every change to a game keeps the job on the earliest open session with a game, through
`plan.follow_polling` in the change's own unit of work. A game settled by any door is no longer
looked for, and the job is cancelled when nothing is left. The job is a stored row, so a poll due
while the bot was down runs at its start-up.

The sites are read in the job's fetch step, outside any transaction. What was found is recorded in
the job's unit of work as the bot's report, by `Party.SYSTEM` with source `bot`, the game's link and
PGN and its CCT-7 flag. It waits for either player's Confirm or Dispute. It is the same use case as
a player's report, so the same game never counts twice by its URL, and a pairing reported meanwhile
is left alone. An outage or a 5xx records nothing. When no request succeeded the job retries as the
same job with `RetryLater`. When some did, the next of the session's polls comes `retry_after`
later.

*Interpretation:* a pairing's window is its session's day, 24 h from the session's start. An
Armageddon is never looked for, since a site gives both players one base time. A game found on both
sites for one pairing, or more than one candidate, which is `AMBIGUOUS`, is left to the players.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.kernel.actor import Actor
from bot.kernel.errors import UserError
from bot.kernel.notifications import Kind
from bot.rendering.tour import automation as render
from bot.rendering.tour import direct
from bot.runtime.notify import notify
from bot.runtime.scheduler import RetryLater
from bot.sites.fetch_plan import Watch
from bot.sites.poll import poll
from bot.tour.automation.context import TourAutomation
from bot.tour.game_targets import GameTarget, open_targets
from bot.tour.games.pgn import game_url, read_game
from bot.tour.games.service import report_in
from bot.tour.planning.follow import event_finished
from bot.tour.planning.kinds import POLL, payload_int
from bot.tour.planning.plan import (
    first_poll,
    next_poll,
    session_of,
    watchable,
)
from bot.tour.schedule import day_start, target_day
from bot.tour.store import LoadedEvent, load_event
from core.tour.game_reports import Party, confirm_deadline
from core.tour.game_search import GameQuery, SearchStatus, Site, SiteGame
from core.tour.rules import TourRules
from storage.guild import TourUnit
from storage.shared.jobs import Job
from storage.tour.tours import TourPlayer

log = logging.getLogger(__name__)

WINDOW = dt.timedelta(days=1)
"""A pairing's game is looked for from its session's start for this long."""


@dataclass(frozen=True)
class Found:
    """A game found for an open pairing: the pairing's name and the site game."""

    pairing: str
    game: SiteGame


@dataclass(frozen=True)
class PollRead:
    """What one poll read in the fetch step.

    It holds the games found, how many pairings could not be read because of an outage, when each
    pairing searched was read, and the requests made.
    """

    found: tuple[Found, ...]
    failed: int
    reads: Mapping[str, str]
    requests: int


def _window(
    loaded: LoadedEvent, rules: TourRules, target: GameTarget
) -> tuple[dt.datetime, dt.datetime]:
    """The session window a target's game is looked for in.

    It opens at the session start that every door recording a result checks, see `target_session`.
    """
    start = day_start(loaded.record, rules, target_day(loaded, target))
    return start, start + WINDOW


def watches(
    loaded: LoadedEvent,
    rules: TourRules,
    players: Mapping[str, TourPlayer],
    last_read: Mapping[str, str],
    day: int,
    sites: frozenset[Site] = frozenset(Site),
) -> list[Watch]:
    """Each open game of the event's day `day`, watched on each of `sites` where both its players
    have a username.

    `sites` are those the bot can read. The pairing's name is its key, and `last_read` orders the
    deferred pairings.
    """
    found = []
    for target in open_targets(loaded):
        if not watchable(target) or target_day(loaded, target) != day:
            continue
        white, black = players.get(target.white), players.get(target.black)
        if white is None or black is None or target.time_control is None:
            continue
        start, end = _window(loaded, rules, target)
        read = last_read.get(target.name)
        when = dt.datetime.fromisoformat(read) if read else None
        for site, first, second in (
            (Site.CHESSCOM, white.chesscom, black.chesscom),
            (Site.LICHESS, white.lichess, black.lichess),
        ):
            if (
                site not in sites
                or not first
                or not second
                or first.casefold() == second.casefold()
            ):
                continue
            query = GameQuery(site, first, second, first, start, end, target.time_control)
            found.append(Watch(target.name, query, when))
    return found


def _counted(loaded: LoadedEvent) -> Callable[[SiteGame], bool]:
    """Whether a site game counted already in the event, by its URL as stored."""
    refs = {g.source_ref for g in loaded.games if g.source_ref}
    return lambda game: game_url(game.url) in refs


def poll_fetcher(context: TourAutomation) -> Callable[[Job], Awaitable[PollRead | None]]:
    """The read-only step of `cct.poll` jobs: the open games of the job's session looked up on the
    sites.

    Returns None when the polling has ended because the event is gone or over. Raises `RetryLater`
    when no request succeeded, and nothing is recorded.
    """

    async def fetch(job: Job) -> PollRead | None:
        store = context.store(job.guild_id)
        async with store.read() as view:
            record = await view.tour_events.get(payload_int(job.payload, "event"))
            tour = None if record is None else await view.tours.get(record.tour_id)
            if record is None or tour is None or record.drawn_at is None or record.recorded:
                return None
            loaded = await load_event(view, record)
            players = {p.name: p for p in await view.tours.players(record.tour_id)}
        if event_finished(loaded):
            return None
        now = context.now()
        session = session_of(job.payload, job.due_at)
        read_before: dict[str, str] = dict(job.payload.get("read") or {})
        readable = frozenset(
            site
            for site, client in ((Site.CHESSCOM, context.chesscom), (Site.LICHESS, context.lichess))
            if client is not None
        )
        if session is None:  # a job of an older version: the next poll says which session
            return PollRead((), 0, {}, 0)
        current = watches(loaded, tour.rules, players, read_before, session.day, readable)
        kept = {str(w.pairing) for w in current}
        read_before = {k: v for k, v in read_before.items() if k in kept}  # open ones only
        if not current:
            return PollRead((), 0, read_before, 0)
        result = await poll(
            current,
            now,
            chesscom=context.chesscom,
            lichess=context.lichess,
            taken_if=_counted(loaded),
        )
        if result.failures and not result.searches:
            reason = next(iter(result.failures.values()))
            log.warning("event %d: sites not read: %s", record.id, reason)
            raise RetryLater(now + context.retry_after, f"sites not read: {reason}")
        by_pairing: dict[str, list[SiteGame]] = {}
        for index, search in result.searches.items():
            if search.status is SearchStatus.FOUND and search.game is not None:
                by_pairing.setdefault(str(current[index].pairing), []).append(search.game)
        found = tuple(
            Found(pairing, games[0]) for pairing, games in by_pairing.items() if len(games) == 1
        )
        reads = read_before | {str(current[i].pairing): now.isoformat() for i in result.searches}
        return PollRead(found, len(result.failures), reads, result.requests)

    return fetch


async def _report(
    context: TourAutomation, uow: TourUnit, event_id: int, found: Found, rules: TourRules
) -> LoadedEvent | None:
    """Records one found game as the bot's report and posts it with the Confirm and Dispute buttons.

    Both players are pinged, and sent it by direct message where they chose it. Returns the event
    as the report leaves it. Returns None, keeping nothing of it, when the pairing was reported
    meanwhile, the game counted already or its PGN does not fit.
    """
    game = found.game
    try:
        async with uow.savepoint():
            parsed = read_game(game.pgn) if game.pgn else None
            changed, after = await report_in(
                uow,
                Actor.system(),
                event_id,
                found.pairing,
                None if parsed is not None else game.result,
                parsed=parsed,
                source="bot",
                source_ref=game_url(game.url) or game.url,
                party=Party.SYSTEM,
            )
    except UserError as refusal:
        log.info("event %d: %s not taken: %s", event_id, found.pairing, refusal.message)
        uow.details.setdefault("not_taken", []).append([found.pairing, refusal.message])
        return None
    stored = changed.game
    white_user, black_user = after.user_of(changed.white), after.user_of(changed.black)
    assert stored.reported_at is not None and stored.result is not None
    shown = render.FoundGame(
        changed.event,
        changed.name,
        game.site.value,
        game.url,
        stored.result,
        render.player(changed.white, white_user),
        render.player(changed.black, black_user),
        confirm_deadline(stored.reported_at, rules.confirm_hours),
        changed.early_draw,
    )
    text = render.found_game(shown)
    settings = await uow.settings.get()
    if settings.announcements_channel_id is not None:
        await uow.outbox.post(
            settings.announcements_channel_id,
            content=text,
            components=render.report_buttons(stored.id),
            ping_users=[u for u in (white_user, black_user) if u is not None],
        )
    await notify(
        uow,
        Kind.CONFIRM,
        [u for u in (white_user, black_user) if u is not None],
        channel_id=settings.announcements_channel_id or 0,
        content=direct.found_asked(shown),
        components=render.dm_report_buttons(uow.guild_id, stored.id),
    )
    uow.details.setdefault("reported", []).append([found.pairing, game.url])
    return after


def poll_handler(
    context: TourAutomation,
) -> Callable[[Job, TourUnit, PollRead | None], Awaitable[None]]:
    """The handler of `cct.poll` jobs, run in the job's unit of work.

    Each game found is reported as the bot, waiting for the players. Then the session's next poll or
    the next session's first is scheduled. When no game is left to look for, the polling ends.
    """

    async def record(job: Job, uow: TourUnit, read: PollRead | None) -> None:
        event_id = payload_int(job.payload, "event")
        record = await uow.tour_events.get(event_id)
        tour = None if record is None else await uow.tours.get(record.tour_id)
        if read is None or record is None or tour is None:
            uow.abandon()  # polling has ended
            return
        latest: LoadedEvent | None = None
        reported = 0
        for found in read.found:
            after = await _report(context, uow, event_id, found, tour.rules)
            if after is not None:
                latest, reported = after, reported + 1
        if latest is None:
            latest = await load_event(uow.view(), record)
        done = session_of(job.payload, job.due_at)
        now = uow.now
        if done is None:
            following = first_poll(latest, tour.rules, now)
        else:
            retry = context.retry_after if read.failed else None
            following = next_poll(
                latest, tour.rules, now, done, every=context.poll_every, retry_after=retry
            )
        uow.details["poll"] = {
            "day": None if done is None else done.day,
            "requests": read.requests,
            "found": reported,
            "failed": read.failed,
        }
        if following is None:
            await uow.jobs.cancel(POLL, job.subject)  # one a report's change may have planned
            return
        same = done is not None and following.day == done.day
        payload = following.payload(event_id, dict(read.reads) if same else None)
        await uow.jobs.schedule(POLL, job.subject, following.due_at, payload)

    return record

"""A round's pairings and colours, posted the event's `round_reminder_minutes` before its session
starts.

The post pings only the players still to play in the round, and the message's allowed mentions are
exactly them. Each linked player who chose it is also sent their own game by direct message. A
preliminary round lists its games White first. A Finals round lists its matches with the colours of
their next game. A knock-out stage day lists its series with their next game's colours and time
control, or the colour the higher-ranked player has yet to choose by CCT-8e. A stale job whose time
no longer fits the event, a session whose day is over, or a round with nothing left to play says
nothing.
"""

from __future__ import annotations

import datetime as dt

from bot.kernel.notifications import Kind
from bot.rendering.tour import automation as render
from bot.rendering.tour import direct
from bot.runtime.notify import notify
from bot.runtime.scheduler import JobHandler
from bot.tour.game_names import ROUND_NAMES
from bot.tour.game_targets import finals_states, knockout_ties
from bot.tour.planning.kinds import KNOCKOUT_STAGES, ROUND_FAMILY, payload_int, same_instant
from bot.tour.planning.plan import reminder_lead, round_start, stage_start
from bot.tour.store import LoadedEvent, load_event
from core.tour.event_facts import round_robin
from core.tour.knockout import ContestStatus
from core.tour.ranking import EventType
from storage.guild import TourUnit
from storage.shared.jobs import Job

SESSION = dt.timedelta(days=1)
"""After this long past its start a session is over: its reminder is no longer posted."""

Lines = list[tuple[str, tuple[str, str]]]
"""A session's pairing lines, each with its two players."""


def _next_game(loaded: LoadedEvent, status: ContestStatus | None, chooser: str) -> str:
    """What comes next in a contest: its next game's colours and clock, or a colour choice."""
    if status is None:
        return "recorded"
    if status.next_game is not None:
        slot = status.next_game
        white = render.player(str(slot.white), loaded.user_of(str(slot.white)))
        return f"next game: White {white}, {slot.time_control}"
    if status.choice_required is not None:
        who = render.player(chooser, loaded.user_of(chooser))
        return f"{who} chooses the {status.choice_required.value} (`/series choose`, CCT-8e)"
    return "decided"


def _preliminary(loaded: LoadedEvent, round_no: int) -> Lines:
    """A preliminary round's open games, White first, with their players."""
    lines: Lines = []
    names = loaded.names
    for game in sorted(loaded.games, key=lambda g: g.board or 0):
        if game.stage != "preliminary" or game.round != round_no or game.status.settled:
            continue
        white, black = names[game.white_id], names[game.black_id]
        line = render.pairing_line(
            f"{game.board}.",
            render.player(white, loaded.user_of(white)),
            render.player(black, loaded.user_of(black)),
            str(loaded.record.time_controls.rapid),
        )
        lines.append((line, (white, black)))
    return lines


def _finals(loaded: LoadedEvent, round_no: int) -> Lines:
    """A Finals round's undecided matches, Berger White first, and what each plays next."""
    lines: Lines = []
    for state in finals_states(loaded):
        pairing = state.pairing
        if pairing.round != round_no or state.winner is not None:
            continue
        white, black = str(pairing.white), str(pairing.black)
        line = render.pairing_line(
            f"{pairing.board}.",
            render.player(white, loaded.user_of(white)),
            render.player(black, loaded.user_of(black)),
            _next_game(loaded, state.status, white),
        )
        lines.append((line, (white, black)))
    return lines


def _stage(loaded: LoadedEvent, stage: str) -> Lines:
    """A knock-out stage's known, undecided series, higher-ranked first, and what comes next."""
    lines: Lines = []
    ties = knockout_ties(loaded)
    for tie in KNOCKOUT_STAGES[stage]:
        state = ties.get(tie)
        if state is None or state.winner is not None:
            continue
        higher, lower = str(state.pairing.higher), str(state.pairing.lower)
        line = (
            f"{ROUND_NAMES[tie]}: {render.player(higher, loaded.user_of(higher))} – "
            f"{render.player(lower, loaded.user_of(lower))} · "
            + _next_game(loaded, state.status, higher)
        )
        lines.append((line, (higher, lower)))
    return lines


def round_reminder_handler() -> JobHandler:
    """The handler of the `cct.round.` family, run in the job's unit of work.

    The post, the players' direct messages and the job's end commit together, so each reminder
    is posted once.
    """

    async def remind(job: Job, uow: TourUnit) -> None:
        view = uow.view()
        record = await view.tour_events.get(payload_int(job.payload, "event"))
        tour = None if record is None else await view.tours.get(record.tour_id)
        if record is None or tour is None or record.drawn_at is None:
            uow.abandon()  # gone: nothing to remind
            return
        loaded = await load_event(view, record)
        rest = job.kind.removeprefix(ROUND_FAMILY)
        if rest.startswith("r"):
            round_no = payload_int(job.payload, "round")
            rounds = max((p.round for p in round_robin(loaded.facts.players)), default=0)
            start = round_start(record, tour.rules, round_no, rounds)
            title = f"round {round_no}"
            if record.type is EventType.FINALS:
                lines = _finals(loaded, round_no)
            else:
                lines = _preliminary(loaded, round_no)
        else:
            stage, _, day = rest.partition("-day")
            start = stage_start(record, tour.rules, stage, int(day))
            title = f"{stage.upper()} day {day}" if stage != "f" else f"Final day {day}"
            lines = _stage(loaded, stage)
        if (
            not same_instant(job.due_at, start - reminder_lead(record))
            or uow.now >= start + SESSION
            or not lines
        ):
            uow.abandon()  # stale, over, or nothing left to play: silent
            return
        users = [u for _, pair in lines for p in pair if (u := loaded.user_of(p)) is not None]
        text = render.round_reminder(record.name, title, start, [line for line, _ in lines])
        settings = await uow.settings.get()
        channel = settings.announcements_channel_id
        if channel is None:
            uow.abandon()
            return
        await uow.outbox.post(channel, content=text, ping_users=users)
        told = []
        for line, pair in lines:
            mine = [u for p in pair if (u := loaded.user_of(p)) is not None]
            content = direct.session_soon(record.name, title, start, line)
            told += await notify(uow, Kind.SESSION, mine, channel_id=channel, content=content)
        uow.details["pinged"] = users
        if told:
            uow.details["told"] = told
        uow.details["round"] = f"{record.name} {title}"

    return remind

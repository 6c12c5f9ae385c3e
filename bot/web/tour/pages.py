"""The tour's HTML pages and downloads, laid out from the views `/tour`, `/event` and `/finals`
render.

A tour page shows its events, the CCT-6 standings, the CCT-3 qualification for each event and
the CCT-5 prizes. An event page shows the CCT-8b preliminary with its crosstable, the CCT-8c
bracket and the CCT-8f Finals table. The PNGs and CSVs are the commands' own, drawn off the loop.
"""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from bot.rendering.common.crosstable_grid import CellKind, CrosstableCell, cell_text
from bot.rendering.common.files import drawn
from bot.rendering.common.text import halves_text
from bot.rendering.tour.bracket import SCORE_COLUMNS, SeriesView
from bot.rendering.tour.cards import result_text
from bot.rendering.tour.crosstable_image import preliminary_crosstable_png
from bot.rendering.tour.prizes_embeds import WITHHELD, dollars
from bot.rendering.tour.report_json import detail, why
from bot.rendering.tour.standings_csv import finals_csv, preliminary_csv, tour_standings_csv
from bot.rendering.tour.standings_embeds import FINALS_LEGEND, PRELIMINARY_LEGEND, TOUR_LEGEND
from bot.rendering.tour.standings_image import finals_png, preliminary_png, tour_standings_png
from bot.rendering.tour.views import playoff_groups
from bot.tour import views
from bot.tour.game_names import ROUND_NAMES
from bot.tour.replies import STATUS_WORDS
from bot.web.pages import CSV, PNG, Guild, NotFound, Page, html, number
from bot.web.tour import reads
from bot.web.tour.reads import EventPage
from core.tour.event_facts import FinalsMatchState
from core.tour.knockout import QUARTER_FINALS, SEMI_FINALS, Tie
from core.tour.ranking import EventType
from storage.tour.games import TourGame

ROUNDS = (
    ("Quarter-finals", tuple(QUARTER_FINALS)),
    ("Semi-finals", tuple(SEMI_FINALS)),
    ("Final", (Tie.FINAL, Tie.THIRD_PLACE)),
)
"""CCT-8c: the bracket's columns, each a knock-out round's series."""


def calendar_url(guild: Guild, request: web.Request, *parts: object) -> str:
    """The address of a calendar feed: absolute from the site's `base_url` when set, so a
    calendar application can subscribe to it, else relative."""
    from bot.web.site import SITE

    return request.app[SITE].base_url + guild.url(*parts)


async def tour(guild: Guild, request: web.Request) -> Page:
    """A tour: its events, the CCT-6 standings, the CCT-3 qualification and the CCT-5 prizes."""
    found = await reads.tour_page(guild, request)
    loaded = found.loaded
    tour_id = loaded.record.id
    calendars = {
        player.id: calendar_url(guild, request, "tours", tour_id, "players", player.id)
        + "/calendar.ics"
        for player in loaded.players
    }
    finished = [e.record for e in loaded.events if e.record.id in loaded.played]
    standings_query = "" if found.after is None else f"?after={found.after.record.id}"
    return html(
        "tour/tour.html",
        guild=guild,
        page=found,
        tour=loaded.record,
        events=list(zip(loaded.events, found.card.events, strict=True)),
        view=found.standings,
        finished=finished,
        standings_query=standings_query,
        calendars=calendars,
        playoff_groups=playoff_groups(
            [r.rank for r in found.standings.rows],
            [r.player for r in found.standings.rows],
            found.standings.names,
            found.standings.playoff,
        ),
        legend=TOUR_LEGEND,
        why=why,
        detail=detail,
        dollars=dollars,
        withheld=WITHHELD.replace("**", ""),
    )


async def event(guild: Guild, request: web.Request) -> Page:
    """An event: its preliminary with the crosstable, its bracket, or its Finals table."""
    found = await reads.event_page(guild, request)
    view = found.preliminary
    groups = []
    if view is not None:
        ranks, players = [r.rank for r in view.rows], [r.player for r in view.rows]
        groups = playoff_groups(ranks, players, view.names, view.playoff)
    return html(
        "tour/event.html",
        guild=guild,
        page=found,
        record=found.record,
        calendar=calendar_url(guild, request, "events", found.record.id) + "/calendar.ics",
        playoff_groups=groups,
        tour_name=found.read.tour,
        rounds=_bracket_rounds(found),
        score_columns=SCORE_COLUMNS,
        games=_series_games(found),
        finals_rounds=_finals_rounds(found),
        cell=cell_text,
        cell_class=_cell_class,
        points=halves_text,
        preliminary_legend=PRELIMINARY_LEGEND,
        finals_legend=FINALS_LEGEND,
        finals_shared=found.finals is not None
        and any(found.finals.rank_text(i).endswith("=") for i in range(len(found.finals.rows))),
        walkover_note=_walkover_note(found),
    )


def _bracket_rounds(found: EventPage) -> list[tuple[str, list[SeriesView]]]:
    """The bracket's series by round, each round a column of the page."""
    if found.bracket is None:
        return []
    by_tie = {series.tie: series for series in found.bracket.series}
    return [
        (title, [by_tie[tie] for tie in ties if tie in by_tie])
        for title, ties in ROUNDS
        if any(tie in by_tie for tie in ties)
    ]


def _series_games(found: EventPage) -> dict[Tie, list[tuple[str, str, str, str, str]]]:
    """Each series' recorded games in order: the game, White, Black, result and its state."""
    loaded = found.read.loaded
    games: dict[Tie, list[tuple[str, str, str, str, str]]] = {}
    for tie in found.ties:
        key = ROUND_NAMES[tie]
        played = sorted((g for g in loaded.games if g.contest == key), key=lambda g: g.order)
        games[tie] = [_game_line(found, g) for g in played]
    return games


def _game_line(found: EventPage, game: TourGame) -> tuple[str, str, str, str, str]:
    loaded = found.read.loaded
    name = loaded.game_name(game)
    contest = game.contest or ""
    slot = name.removeprefix(f"{loaded.contest_name(contest)} ")
    return (
        slot,
        loaded.names[game.white_id],
        loaded.names[game.black_id],
        result_text(game.result),
        STATUS_WORDS[game.status.value],
    )


def _walkover_note(found: EventPage) -> dict[Tie, str]:
    """CCT-9: the arbiter's note on each series awarded without play, when one was written."""
    return {
        tie: state.record.note
        for tie, state in found.ties.items()
        if state.record is not None and state.record.walkover and state.record.note
    }


def _finals_rounds(found: EventPage) -> list[tuple[int, list[tuple[FinalsMatchState, str]]]]:
    """CCT-8f: the Finals matches by round, each with what is known of it."""
    if found.finals_card is None:
        return []
    rounds: dict[int, list[tuple[FinalsMatchState, str]]] = {}
    for match in found.finals_card.matches:
        rounds.setdefault(match.pairing.round, []).append((match, finals_state(match)))
    return sorted(rounds.items())


def finals_state(match: FinalsMatchState) -> str:
    """A Finals match's state in words: its winner and how, or what it waits for."""
    record = match.record
    if record is not None and record.walkover:
        reason = "" if record.reason is None else f" ({record.reason.value})"
        note = "" if record.note is None else f": {record.note}"
        return f"{record.winner} by walkover{reason}{note}"
    winner = match.winner
    if winner is not None:
        how = "in the rapid games" if match.rapid else "in the tie-break"
        return f"{winner} won {how}"
    status = match.status
    if status is not None and any(m.games for m in status.matches):
        return "in progress"
    return "to play"


def _cell_class(cell: CrosstableCell) -> str:
    """The crosstable cell's class: who won it, or that it is the diagonal or still to play."""
    if cell.kind is CellKind.SELF:
        return "self"
    if cell.kind is CellKind.PENDING:
        return "pending"
    if cell.mine > cell.theirs:
        return "won"
    return "lost" if cell.mine < cell.theirs else "drawn"


def _tour_standings_name(request: web.Request, suffix: str) -> str:
    """`tour-1-standings.csv`, or `tour-1-standings-after-3.csv` as after event 3, so that the
    downloads of two dates keep apart. Called once `?after=` is known to be good."""
    after = request.query.get("after")
    tail = f"-after-{int(after)}" if after else ""
    return f"tour-{number(request, 'tour')}-standings{tail}{suffix}"


async def tour_standings_csv_page(guild: Guild, request: web.Request) -> Page:
    """`/tour standings format:csv`."""
    view = await reads.tour_standings(guild, request)
    return _csv(tour_standings_csv(view), _tour_standings_name(request, ".csv"))


async def tour_standings_png_page(guild: Guild, request: web.Request) -> Page:
    """`/tour standings format:image`."""
    view = await reads.tour_standings(guild, request)
    name = _tour_standings_name(request, ".png")
    return await _png(lambda: tour_standings_png(view), name)


async def event_standings_csv(guild: Guild, request: web.Request) -> Page:
    """`/event standings format:csv`, or the Finals table as CSV."""
    found = await reads.event_page(guild, request)
    name = f"event-{found.record.id}-standings.csv"
    if found.preliminary is not None:
        return _csv(preliminary_csv(found.preliminary), name)
    if found.finals is not None:
        return _csv(finals_csv(found.finals), name)
    raise NotFound("no standings yet")


async def event_standings_png(guild: Guild, request: web.Request) -> Page:
    """`/event standings format:image`, or the Finals table as an image."""
    found = await reads.event_page(guild, request)
    name = f"event-{found.record.id}-standings.png"
    preliminary, finals = found.preliminary, found.finals
    if preliminary is not None:
        return await _png(lambda: preliminary_png(preliminary), name)
    if finals is not None:
        return await _png(lambda: finals_png(finals), name)
    raise NotFound("no standings yet")


async def event_crosstable_png(guild: Guild, request: web.Request) -> Page:
    """The preliminary's crosstable as `/event standings format:image` attaches it."""
    found = await reads.event_page(guild, request)
    preliminary = found.preliminary
    if preliminary is None:
        raise NotFound("no crosstable")
    name = f"event-{found.record.id}-crosstable.png"
    return await _png(lambda: preliminary_crosstable_png(preliminary), name)


async def event_bracket_png(guild: Guild, request: web.Request) -> Page:
    """The bracket image `/event bracket` attaches."""
    found = await reads.event_page(guild, request)
    if found.bracket is None or found.record.type is EventType.FINALS:
        raise NotFound("no bracket")
    loaded, ties = found.read.loaded, found.ties
    name = f"event-{found.record.id}-bracket.png"
    return await _png(lambda: views.bracket_image(loaded, ties), name)


def _csv(text: str, name: str) -> Page:
    return Page(text.encode(), CSV, name)


async def _png(draw: Callable[[], bytes], name: str) -> Page:
    """An image drawn in a worker thread, as the commands draw theirs."""
    return Page(await drawn(draw), PNG, name)

"""The tour commands' replies that are not tables, as Discord embed dicts built from the tour's read
models.

They are the tour card, the draw and knock-out previews, an event's card with its placings once
finished, pairings, bracket lines with each series' score and next game, the calendar, a game's and
a series' card, incidents and appeals. The tables and images belong to the tour renderers, and
bot/tour/views.py builds their views.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.rendering.tour.cards import (
    embeds,
    name,
    result_text,
    score,
    walkover_text,
    went_to,
    when,
)
from bot.rendering.tour.points import scoring_line, table_line
from bot.tour.game_names import ROUND_NAMES
from core.tour.event_facts import played_event
from core.tour.knockout import ContestStatus, MatchOutcome
from core.tour.ranking import EventType
from core.tour.report import event_report
from storage.tour.events import EventPlayer
from storage.tour.rulings import Appeal, Incident

if TYPE_CHECKING:  # the read models it renders (they render with it: no import at run time)
    from bot.tour.event_reads import Bracket, CalendarDay, EventRead, PairingLine
    from bot.tour.events.service import DrawPlan, KnockoutPlan, PointsPlan
    from bot.tour.finals.draw import CancelDrawPlan
    from bot.tour.finals.field import DeclinePlan
    from bot.tour.game_targets import GameTarget
    from bot.tour.games.reads import GameCard
    from bot.tour.games.service import GameChanged
    from bot.tour.series.awards import AwardPlan
    from bot.tour.series.reads import SeriesCard
    from bot.tour.tours.reads import TourCard

Embed = dict[str, Any]
STATUS_WORDS = {
    "open": "to play",
    "reported": "reported, waiting for the opponent",
    "confirmed": "confirmed",
    "disputed": "disputed, for the arbiters",
    "decided": "decided by an arbiter",
}


def tour_card(card: TourCard) -> list[Embed]:
    """`/tour show`: the events, players and Ambassadors, and the tour's tables and scoring by CCT-6
    and CCT-8a.

    An event shows its own tour points table or game scoring when it is not the tour's.
    """
    lines = [
        f"{i}. **{name(e.name)}** · {e.type} · {e.players}/{e.size} players · from {e.start}"
        f" · {e.status}"
        + (f" · won by {name(e.winner)}" if e.winner else "")
        + (f" · {tied_text(e.tied_for_first)}" if e.tied_for_first else "")
        + (f" · own tour points: {table_line(e.points)}" if e.points else "")
        + (f" · game scoring {scoring_line(e.scoring)}" if e.scoring else "")
        for i, e in enumerate(card.events, start=1)
    ]
    lines.append(
        f"Players: {card.players}; Ambassadors: "
        + (", ".join(name(a) for a in card.ambassadors) or "none")
    )
    if card.rules is not None:
        for kind in EventType:  # Regular, then Major (the Finals pay none)
            table = card.rules.points.get(kind)
            if table is not None:
                lines.append(f"{kind.value.capitalize()} tour points (CCT-6): {table_line(table)}")
        lines.append(f"Preliminary game scoring (CCT-8a): {scoring_line(card.rules.scoring)}")
    return embeds(name(card.name), lines, "No events yet.")


def points_preview(plan: PointsPlan) -> list[Embed]:
    """CCT-6/CCT-8a: an event's tour points table and game scoring, now and after the change."""
    record = plan.event
    lines = [
        "Tour points (CCT-6) now: "
        + (table_line(plan.before) if plan.before is not None else "none"),
        "Tour points after: " + (table_line(plan.after) if plan.after is not None else "none"),
        f"Game scoring (CCT-8a) now: {scoring_line(plan.scoring_before)}; after: "
        f"{scoring_line(plan.scoring_after)}",
        "This changes what the event pays; it can change until the draw is confirmed.",
    ]
    return embeds(f"{name(record.name)}: tour points", lines)


def draw_preview(plan: DrawPlan) -> list[Embed]:
    """CCT-8a: the draw's seed, pairing numbers and round 1."""
    how = f"Seed `{plan.seed}`" if plan.seed is not None else "Pairing numbers drawn elsewhere"
    lines = [f"{how} (CCT-8a); Berger pairings (CORE-1)."]
    lines += [f"{no}. {name(player)}" for no, player in enumerate(plan.numbers, start=1)]
    rounds = max(p.round for p in plan.pairings)
    lines.append(f"**Round 1** of {rounds} · {when(plan.starts[1])}")
    lines += [
        f"{p.board}. {name(p.white)} – {name(p.black)}" for p in plan.pairings if p.round == 1
    ]
    return embeds(f"{name(plan.event.name)}: draw", lines)


def knockout_preview(plan: KnockoutPlan) -> list[Embed]:
    """CCT-8c: the seeds and quarter-finals."""
    lines = [f"{i}. {name(s)}" for i, s in enumerate(plan.seeds, start=1)]
    lines += [f"{tie}: {name(a)} – {name(b)}" for tie, a, b in plan.quarter_finals]
    if plan.lots_seed:
        lines.append(f"Remaining ties drawn by lot, seed `{plan.lots_seed}` (CORE-3).")
    return embeds(f"{name(plan.event.name)}: knock-out (CCT-8c)", lines)


def award_preview(plan: AwardPlan) -> list[Embed]:
    """CCT-9: who gets what by an award without play, and what follows."""
    why = plan.reason.value if plan.note is None else f"{plan.reason.value}: {name(plan.note)}"
    lines = [
        f"**{name(plan.winner)}** wins {name(plan.contest)} against {name(plan.loser)} without "
        f"play — walkover ({why}), CCT-9."
    ]
    if plan.played:
        lines.append(f"The {plan.played} game(s) played so far stay recorded; the award decides.")
    lines += [f"Then: {line}" for line in plan.follows]
    return embeds(f"{name(plan.event)}: award {name(plan.contest)}", lines)


def award_stored(plan: AwardPlan) -> str:
    """The line that replaces an award's preview once confirmed."""
    then = "" if not plan.follows else " " + "; ".join(plan.follows) + "."
    return (
        f"{name(plan.contest)} awarded to **{name(plan.winner)}** without play (walkover, "
        f"{plan.reason.value}; CCT-9, audited).{then}"
    )


def pairings(read: EventRead, lines: Sequence[PairingLine], starts: dict[int, Any]) -> list[Embed]:
    """CCT-8a: pairings with results so far."""
    out: list[str] = []
    current = 0
    for line in lines:
        if line.round != current:
            current = line.round
            out.append(f"**Round {line.round}** · {when(starts[line.round])}")
        result = "" if line.game is None else f" {result_text(line.game.result)}"
        state = (
            ""
            if line.game is None or line.game.status.value in ("open", "confirmed", "decided")
            else f" ({line.game.status.value})"
        )
        out.append(f"{line.board}. {name(line.white)} – {name(line.black)}{result}{state}")
    return embeds(f"{name(read.loaded.record.name)}: pairings", out)


_MATCH_STATES = {
    MatchOutcome.IN_PROGRESS: " (playing)",
    MatchOutcome.STOPPED: " (stopped: the series was decided)",
}
"""CCT-8d: what a match score says besides its figures."""


def _match_scores(status: ContestStatus) -> str:
    parts = []
    for m in status.matches:
        state = _MATCH_STATES.get(m.outcome, "")
        parts.append(f"day {m.match_no} {score(m.first)}–{score(m.second)}{state}")
    if status.playoff is not None:
        parts.append(f"play-off {score(status.playoff[0])}–{score(status.playoff[1])}")
    return ", ".join(parts) or "not started"


def next_line(status: ContestStatus | None, upcoming: GameTarget | None, winner: str | None) -> str:
    """What comes next in a contest: the game with colours and time control, a choice due,
    or the winner."""
    if winner is not None:
        return f"won by **{name(winner)}**"
    if status is not None and status.winner is not None:
        return f"won by **{name(status.winner)}**"
    if status is not None and status.choice_required is not None:
        return f"waits for the {status.choice_required.value} (`/series choose`, CCT-8e)"
    if upcoming is not None:
        control = f", {upcoming.time_control}" if upcoming.time_control else ""
        waiting = "" if upcoming.row is None else f" ({STATUS_WORDS[upcoming.row.status.value]})"
        return (
            f"next: {name(upcoming.name)} — White {name(upcoming.white)}, Black "
            f"{name(upcoming.black)}{control}{waiting}"
        )
    return "…"


def bracket(found: Bracket) -> list[Embed]:
    """CCT-8c-e: each known round, its score and what comes next."""
    lines = []
    for tie, state in found.ties.items():
        key = ROUND_NAMES[tie]
        higher, lower = str(state.pairing.higher), str(state.pairing.lower)
        scores = "recorded" if state.status is None else _match_scores(state.status)
        if state.record is not None and state.record.walkover:
            scores = walkover_text(state.record)
        winner = None if state.record is None else str(state.record.winner)
        lines.append(
            f"**{key}** {name(higher)} – {name(lower)}: {scores}; "
            + next_line(state.status, found.next_games.get(key), winner)
        )
    return embeds(f"{name(found.read.loaded.record.name)}: knock-out", lines)


def event_card(read: EventRead) -> list[Embed]:
    """`/event show`."""
    record = read.loaded.record
    finished = played_event(read.loaded.facts) if record.type is not EventType.FINALS else None
    state = read.state
    lines = [
        f"Tour: {name(read.tour)}; {record.type.value}, {record.size} players, from "
        f"{record.start.isoformat()}",
        f"Status: {state.status}; players entered: {len(read.loaded.players)}",
        f"3rd-place match: {'yes' if record.third_place_match else 'no'}; tie-breaks: "
        f"{record.reading.value}",
    ]
    if state.winner is not None:
        lines.append(f"Won by **{name(state.winner)}**")
    if state.tied_for_first:
        lines.append(f"Tied for first: {tied_names(state.tied_for_first)}")
    if record.points is not None:
        lines.append(f"Tour points (CCT-6): {table_line(record.points)}")
        lines.append(f"Game scoring (CCT-8a): {scoring_line(record.scoring)}")
    if record.drawn_at is not None:
        lines.append(
            f"Draw: {'seed `' + record.draw_seed + '`' if record.draw_seed else 'numbers given'}"
            f" ({when(record.drawn_at)})"
        )
        lines += [f"{p.pairing_no}. {name(p.name)}{_wildcard(p)}" for p in read.loaded.by_pairing]
    else:
        lines += [f"- {name(p.name)}{_wildcard(p)}" for p in read.loaded.players]
    settled = sum(1 for g in read.loaded.games if g.status.settled)
    lines.append(f"Games settled: {settled}")
    if finished is not None:
        table = finished.points_table or read.rules.points_table(record.type)
        assert table is not None
        report = event_report(finished, table)
        lines.append("**Placings** (CCT-8c) and tour points (CCT-6):")
        lines += [
            f"{place}. {name(p.player)} — {p.points} point{'' if p.points == 1 else 's'}"
            for (place, _), p in zip(report.placings, report.points, strict=True)
        ]
    return embeds(name(record.name), lines)


def tied_text(players: Sequence[str]) -> str:
    """CCT-8f: the players sharing first place in finished Finals, flagged for the organiser."""
    return f"tied for first: {tied_names(players)}"


def tied_names(players: Sequence[str]) -> str:
    """CCT-8f: the players sharing first place, and who decides between them."""
    return f"{', '.join(name(p) for p in players)} (the organiser decides, CCT-8f)"


def _wildcard(player: EventPlayer) -> str:
    """CCT-3: the mark of a player entered in the Finals as a wildcard."""
    return " (wildcard, CCT-3)" if player.wildcard else ""


def declined_place(plan: DeclinePlan) -> str:
    """CCT-3: where a declined Finals place goes."""
    return went_to(plan.replaced_by)


def decline_preview(plan: DeclinePlan) -> list[Embed]:
    """CCT-3: a decline before it is stored: where the place goes, places open after it."""
    lines = [f"**{name(plan.player)}** declines {name(plan.event.name)}."]
    if plan.note is not None:
        lines.append(f"Note: {name(plan.note)}")
    lines.append(f"Then {declined_place(plan)} (CCT-3).")
    lines.append(f"Places open for wildcards after it: {plan.open_places}.")
    return embeds(f"{name(plan.event.name)}: decline", lines)


def cancel_draw_preview(plan: CancelDrawPlan) -> list[Embed]:
    """CCT-8f: what cancelling the Finals' draw undoes, and what stays."""
    lines = ["No Finals game has a report or a result: the draw can be cancelled (CCT-8f)."]
    lines.append("**Undone:** the pairing numbers")
    lines += [f"{no}. {name(player)}" for no, player in enumerate(plan.numbers, start=1)]
    lines.append(f"and the {plan.matches} matches over {plan.rounds} rounds.")
    jobs = (
        f"{plan.reminders} round reminder(s), {plan.polls} poll(s) of the sites and "
        f"{plan.appeal_closes} appeal close(s)"
    )
    if plan.other_jobs:
        jobs += f" and {plan.other_jobs} other job(s)"
    lines.append(f"**Cancelled:** {jobs} still scheduled.")
    lines.append(
        f"**Stay:** the {plan.entries} entries ({plan.wildcards} wildcard(s)) and "
        f"{plan.declines} decline(s) (CCT-3)."
    )
    lines.append(
        "Then an earlier event's result may be corrected, and `/event draw` draws the Finals "
        "again, checking their field once more (CCT-3)."
    )
    return embeds(f"{name(plan.event.name)}: cancel the draw", lines)


def cancel_draw_stored(plan: CancelDrawPlan) -> str:
    """The line that replaces the preview once the Finals' draw is cancelled."""
    return (
        f"Draw of **{name(plan.event.name)}** cancelled (CCT-8f, audited): "
        f"{plan.reminders + plan.polls + plan.appeal_closes + plan.other_jobs} scheduled "
        "job(s) cancelled; it is announced. Draw them again with `/event draw`."
    )


def calendar(read: EventRead, days: Sequence[CalendarDay]) -> list[Embed]:
    """The event's days with their session starts."""
    lines = [f"Day {d.day} · {when(d.start)} · {d.what}" for d in days]
    return embeds(f"{name(read.loaded.record.name)}: calendar", lines)


def game_line(target: GameTarget) -> str:
    """A game with its players and colours."""
    return f"{name(target.name)}: White {name(target.white)}, Black {name(target.black)}"


def game_card(card: GameCard) -> list[Embed]:
    """`/game show`."""
    t = card.target
    lines = [game_line(t)]
    if t.time_control is not None:
        lines.append(f"Time control: {t.time_control} (CCT-7)")
    row = t.row
    if row is None:
        lines.append("Not reported yet.")
    else:
        lines.append(f"Result: {result_text(row.result)} — {STATUS_WORDS[row.status.value]}")
        if row.source:
            lines.append(
                f"Source: {row.source}"
                + (" (PGN)" if row.has_pgn else "")
                + (
                    f", {row.source_ref}"
                    if row.source_ref and row.source_ref.startswith("http")
                    else ""
                )
            )
        if row.early_draw:
            lines.append("CCT-7 flag: drawn before both sides completed move 40.")
    for o in card.overrides:
        lines.append(
            f"Override ({when(o.decided_at)}): {result_text(o.old_result)} → "
            f"{result_text(o.new_result)}, {o.ground}: {name(o.explanation)} (CCT-9)"
        )
    return embeds(f"{name(card.read.loaded.record.name)}: {name(t.name)}", lines)


def series_card(card: SeriesCard) -> list[Embed]:
    """`/series show`: games, scores, what comes next."""
    lines = [f"{name(card.first)} – {name(card.second)}"]
    if card.status is not None:
        lines.append(_match_scores(card.status))
    if card.record is not None and card.record.walkover:
        lines.append(f"{walkover_text(card.record)}: awarded without play (CCT-9)")
        if card.games:
            lines.append("Games played before the award (kept; the award decides):")
    loaded = card.read.loaded
    for g in card.games:
        white, black = loaded.names[g.white_id], loaded.names[g.black_id]
        lines.append(
            f"{name(loaded.game_name(g))}: {name(white)} – {name(black)} "
            f"{result_text(g.result)} ({g.status.value})"
        )
    lines.append(next_line(card.status, card.next_game, card.recorded_winner))
    return embeds(f"{name(card.read.loaded.record.name)}: {name(card.name)}", lines)


def incidents(event: str, found: Sequence[Incident], players: dict[int, str]) -> list[Embed]:
    """CCT-10: the event's incidents and rulings."""
    lines = [
        f"{i.id}. {name(i.game)} — {name(players.get(i.player_id, '?'))}, "
        f"{i.clock_seconds} s on the clock: {i.outcome} ({i.reason}) · {when(i.recorded_at)}"
        for i in found
    ]
    return embeds(f"{name(event)}: incidents (CCT-10)", lines, "No incidents.")


def appeals(event: str, found: Sequence[Appeal], players: dict[int, str]) -> list[Embed]:
    """CCT-11: the event's appeals, deadlines and decisions."""
    lines = []
    for a in found:
        decided = "" if a.status == "open" else f" — {a.status}: {name(a.reason or '')}"
        lines.append(
            f"{a.id}. {name(a.game)} by {name(players.get(a.player_id, '?'))}, lodged "
            f"{when(a.lodged_at)} (deadline {when(a.deadline)}): {name(a.text[:200])}{decided}"
        )
    return embeds(f"{name(event)}: appeals (CCT-11)", lines, "No appeals.")


def reported(changed: GameChanged) -> str:
    """The line after a report, a correction or an answer to a report.

    It gives the result and where it stands, the CCT-7 flag of an early draw, and what the game
    decided.
    """
    game = changed.game
    line = (
        f"{name(changed.name)} ({name(changed.white)} – {name(changed.black)}): "
        f"{result_text(game.result)}, {STATUS_WORDS[game.status.value]}."
    )
    if changed.early_draw:
        line += " CCT-7: drawn before move 40 — flagged to the arbiters."
    if changed.decided:
        line += "\n" + "\n".join(changed.decided)
    return line

"""A tour report as text tables like the ones chess sites publish, for `arbiter tour`."""

from __future__ import annotations

from collections.abc import Sequence

from bot.rendering.common.text import points, shown_rank
from bot.rendering.tour.report_json import detail, why
from core.tour.knockout import KoStage
from core.tour.report import EventReport, TourReport

STAGE_TEXT: dict[KoStage, str] = {
    KoStage.WINNER: "Winner",
    KoStage.RUNNER_UP: "Runner-up",
    KoStage.THIRD: "3rd (3rd-place match)",
    KoStage.FOURTH: "4th (3rd-place match)",
    KoStage.SEMI_FINAL: "Semi-final",
    KoStage.QUARTER_FINAL: "Quarter-final",
    KoStage.NONE: "",
}


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: set[int]) -> list[str]:
    """Aligned columns: those in `left` left-aligned, numbers right-aligned."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [
        "  "
        + "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in [header, *rows]
    ]


def _event(report: EventReport) -> list[str]:
    event = report.event
    kind = event.type.value.capitalize()
    notes = [f"{event.size} players"]
    if not event.third_place_match:
        notes.append("no 3rd-place match")
    notes += [f"{t.value} by walkover" for t in event.walkovers]
    lines = [f"{event.name} ({kind}; {', '.join(notes)})"]
    places = {p: place for place, p in report.placings}
    taken = [place for place, _ in report.placings]
    rows = [
        (
            shown_rank(places[p.player], taken.count(places[p.player]) > 1),
            str(p.player),
            str(p.preliminary_place),
            STAGE_TEXT[p.stage],
            str(p.points),
        )
        for p in report.points
    ]
    lines += _table(("#", "Player", "Prelim", "Knock-out", "Tour pts"), rows, {1, 3})
    return lines


def tour_text(report: TourReport) -> str:
    """Every event's placings and tour points, the tour standings, the Finals qualification
    and the Finals table."""
    when = f" — after {report.after}" if report.after else ""
    lines = [f"{report.name}{when}"]
    for event in report.events:
        lines += ["", *_event(event)]

    playoff = {p for group in report.qualification.playoffs_required for p in group}
    lines += ["", "Tour standings (CCT-6: points, wins, fewer events, finals, semis, quarters)"]
    rows = [
        (
            shown_rank(r.rank, r.tied),
            str(r.player),
            str(r.record.points),
            str(r.record.wins),
            str(r.record.events),
            str(r.record.finals),
            str(r.record.semi_finals),
            str(r.record.quarter_finals),
            "play-off required" if r.player in playoff else "",
        )
        for r in report.ranking
    ]
    header = ("Rk", "Player", "Pts", "W", "Ev", "F", "SF", "QF", "")
    lines += _table(header, rows, {1, 8})
    for group in report.qualification.playoffs_required:
        names = ", ".join(str(p) for p in group)
        lines.append(f"  Play-off required (organiser may forgo): {names} (tie at a Finals cut)")

    qual = report.qualification
    lines += ["", f"Finals qualification (CCT-3, {qual.size} places)"]
    group_of = {p: group for group in qual.playoffs_required for p in group}
    for n, q in enumerate(qual.qualified, 1):
        others = [str(p) for p in group_of.get(q.player, ()) if p != q.player]
        playoff_note = f" — play-off with {', '.join(others)}" if others else ""
        lines.append(f"  {n:>2}. {q.player} — {why(q)} ({detail(q)}){playoff_note}")
    field = report.field
    if field is not None and (field.declines or field.wildcards):
        for d in field.declines:
            went = ", ".join(str(p) for p in d.replaced_by)
            place = f"place offered to {went}" if went else "no one next in line: place open"
            lines.append(f"  Declined: {d.player} — {place}")
        wildcards = ", ".join(str(p) for p in field.wildcards) or "none"
        lines.append(
            f"  Places left: {qual.places_left} — wildcards (organiser): {wildcards}; "
            f"still open: {field.open_places}"
        )
    elif qual.places_left:
        lines.append(
            f"  Places left: {qual.places_left} (the best-ranked Tour Ambassadors not already "
            "qualified, named by the organiser)"
        )

    if report.finals is not None:
        lines += ["", "Finals (CCT-8f: rapid win 3 / loss 0, tie-break win 2 / loss 1, + bonus)"]
        ranks = [row.rank for row in report.finals.rows]
        finals_rows = [
            (
                shown_rank(row.rank, ranks.count(row.rank) > 1),
                str(row.player),
                points(row.bonus),
                str(row.match_points),
                points(row.total),
            )
            for row in report.finals.rows
        ]
        lines += _table(("Rk", "Player", "Bonus", "MP", "Total"), finals_rows, {1})
        if report.finals.tied_for_first:
            names = ", ".join(str(p) for p in report.finals.tied_for_first)
            lines.append(f"  Tie for first: {names} — decided as the organiser announces")
    return "\n".join(lines)

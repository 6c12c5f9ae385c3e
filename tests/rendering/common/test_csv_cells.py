"""CSV formula injection (issue 35): every CSV renderer writes a name a spreadsheet would run as a
formula with a leading `'`, by the OWASP advice, and leaves ordinary names and numbers alone."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from fractions import Fraction

from bot.formats.season_file import load_season
from bot.rendering.common.csv_cells import csv_text
from bot.rendering.league.division_view import division_view
from bot.rendering.league.results_csv import results_csv
from bot.rendering.league.standings_csv import season_standings_csv, standings_csv
from bot.rendering.tour.standings_csv import finals_csv, preliminary_csv, tour_standings_csv
from bot.rendering.tour.views import finals_view, preliminary_view, tour_standings_view
from core.league import league_report
from tests.support.cl_seasons import match, season
from tests.support.tour_events import REGULAR_PLAYERS, regular_preliminary, tour_file_report

LINK = '=HYPERLINK("http://x","y")'
HOSTILE = (LINK, "+1 Plus", "-Minus", "@At")
NAMES = (*HOSTILE, "Ajax")


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_guard_quotes_only_a_formula_start() -> None:
    for name in (*HOSTILE, "\tTab", "\rReturn"):
        assert csv_text(name) == f"'{name}"
    for name in ("Ajax", "Team USA - Southwest", "a=b", "Échecs", "", "'quoted"):
        assert csv_text(name) == name


def _league() -> tuple[str, str, str]:
    """A division of the hostile clubs and Ajax, each pair playing once."""
    pairs = [(a, b) for i, a in enumerate(NAMES) for b in NAMES[i + 1 :]]
    matches = [
        match(f"m{n}", home, away, [(f"h{n}", f"a{n}", 1)], week=n, division=LINK)
        for n, (home, away) in enumerate(pairs, start=1)
    ]
    facts = load_season(season(matches, divisions={LINK: list(NAMES)}))
    report = league_report(facts)
    view = division_view(report, LINK)
    return standings_csv(view), season_standings_csv([view]), results_csv(facts, report)


def test_league_standings_and_results_neutralise_hostile_names() -> None:
    division, whole, results = _league()
    rows = _rows(division)[1:]
    assert {row[3] for row in rows} == {*(f"'{n}" for n in HOSTILE), "Ajax"}
    assert all(row[4] == str(len(NAMES) - 1) for row in rows)  # played: a number, as it was
    assert all(row[8] and not row[8].startswith("'") for row in rows)  # match points too
    seasonal = _rows(whole)[1:]
    assert {row[0] for row in seasonal} == {f"'{LINK}"}
    assert [row[1:] for row in seasonal] == rows
    matches = _rows(results)[1:]
    assert {row[1] for row in matches} == {f"'{LINK}"}
    assert {row[3] for row in matches} | {row[4] for row in matches} == {
        *(f"'{n}" for n in HOSTILE),
        "Ajax",
    }
    assert all(row[0].startswith("m") and row[7] in {"0", "1", "0.5"} for row in matches)
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in matches for cell in row)


def test_tour_tables_neutralise_hostile_names() -> None:
    players = HOSTILE + REGULAR_PLAYERS[len(HOSTILE) :]
    event = regular_preliminary(players=players)
    view = preliminary_view(event.name, event.rows, event.games)
    rows = _rows(preliminary_csv(view))[1:]
    assert {row[4] for row in rows} == {csv_text(p) for p in players}
    assert {f"'{n}" for n in HOSTILE} | set(REGULAR_PLAYERS[len(HOSTILE) :]) == {
        row[4] for row in rows
    }
    by_name = {row[4]: row for row in rows}
    for standing, name in zip(view.rows, view.names, strict=True):
        assert Fraction(by_name[csv_text(name)][5]) == standing.points  # numbers as they were

    report = tour_file_report()
    assert report.finals is not None
    finals = finals_view("F", report.finals)
    hostile = replace(finals, names=(LINK, *finals.names[1:]))
    assert _rows(finals_csv(hostile))[1] == ["1", "yes", "yes", f"'{LINK}", "4", "4.5", "8.5"]
    assert _rows(finals_csv(finals))[1] == ["1", "yes", "yes", "A", "4", "4.5", "8.5"]

    tied = tour_file_report("tour_tie_criteria")
    tour = tour_standings_view("T", tied.ranking, qualification=tied.qualification)
    plain = _rows(tour_standings_csv(tour))[1]
    named = _rows(tour_standings_csv(replace(tour, names=("-Minus", *tour.names[1:]))))[1]
    assert named == [*plain[:3], "'-Minus", *plain[4:]]

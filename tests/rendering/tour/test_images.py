"""The tour's PNGs (issue 22): the preliminary standings and crosstable of a 16-player
Regular (CCT-8b), the knock-out bracket of the 12-player Airthings Masters with series won
in the rapid matches, the blitz and an Armageddon (CCT-8c/8d/8e, CCT-7), the 10-player
Finals table (CCT-8f) and the tour standings (CCT-6). Each decodes at its expected size, is
byte-identical for the same input, and draws the rows and columns the views hold; names
are drawn as typed, with code boxes for letters the fonts lack."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageChops, ImageColor

from bot.rendering.common.crosstable_grid import WON, CellKind, cell_text
from bot.rendering.common.image_table import (
    BAND,
    HEADER_HEIGHT,
    MARGIN,
    NOTE_HEIGHT,
    PAPER,
    SUBTITLE_HEIGHT,
    TITLE_HEIGHT,
)
from bot.rendering.common.image_text import CODE_NOTE
from bot.rendering.common.standings_image import PLAYOFF, ROW_HEIGHT, WIDTH
from bot.rendering.tour.bracket import (
    SCORE_COLUMNS,
    bracket_view,
    control_text,
    played_event_bracket,
)
from bot.rendering.tour.bracket_image import (
    BOX_HEIGHT,
    LABEL_HEIGHT,
    ROW_GAP,
    bracket_image,
    bracket_layout,
    bracket_notes,
    bracket_png,
)
from bot.rendering.tour.bracket_image import (
    WIDTH as BRACKET_WIDTH,
)
from bot.rendering.tour.crosstable_image import (
    preliminary_crosstable_notes,
    preliminary_crosstable_png,
    preliminary_grid,
)
from bot.rendering.tour.standings_image import (
    finals_model,
    finals_png,
    preliminary_model,
    preliminary_png,
    tour_standings_model,
    tour_standings_png,
)
from bot.rendering.tour.views import (
    PreliminaryView,
    finals_view,
    tour_standings_view,
)
from core.tiebreaks import DeReading
from core.tour.knockout import KnockoutError, Tie
from tests.support.tour_events import (
    HOSTILE,
    REGULAR_PLAYERS,
    TWINS,
    airthings_preliminary,
    major_bracket,
    regular_preliminary,
    tour_file_report,
    view_of,
)


def decode(data: bytes, mode: str = "RGB") -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.mode == mode
    return image


def table_height(rows: int, notes: int, row_height: int = ROW_HEIGHT) -> int:
    """`image_table.table_png`'s layout: title block, header band, rows, notes, margins."""
    notes_part = NOTE_HEIGHT // 2 + NOTE_HEIGHT * notes if notes else 0
    top = MARGIN + TITLE_HEIGHT + SUBTITLE_HEIGHT + HEADER_HEIGHT
    return top + row_height * rows + notes_part + MARGIN


REGULAR = view_of(regular_preliminary())


def test_preliminary_png_of_a_16_player_regular_has_a_row_per_player_and_cct_8b_columns() -> None:
    columns, rows, notes = preliminary_model(REGULAR)
    assert [c.header for c in columns] == ["Rk", "Player", "Pts", "DE", "WIN", "SB", "KS"]
    assert len(rows) == 16 and all(len(row) == len(columns) for row in rows)
    assert [row[1].text for row in rows] == [str(r.player) for r in REGULAR.rows]
    assert rows[0][2].text == "12½" and "." not in "".join(row[2].text for row in rows)
    image = decode(preliminary_png(REGULAR))
    assert image.size == (WIDTH, table_height(16, len(notes)))


def test_cct_8c_a_tie_for_a_place_that_goes_on_is_marked_in_the_standings_image() -> None:
    twins = {REGULAR_PLAYERS[i] for i in TWINS}
    assert REGULAR.playoff == twins
    _, rows, notes = preliminary_model(REGULAR)
    marked = {row[1].text for row in rows if row[0].tint == PLAYOFF}
    assert marked == twins and {row[0].text for row in rows if row[0].tint} == {"8="}
    assert any("play-off required" in note and "1–8" in note for note in notes)
    untied = replace(REGULAR, playoff=frozenset())
    assert preliminary_png(untied) != preliminary_png(REGULAR)


def test_preliminary_images_are_byte_identical_for_the_same_input_and_differ_otherwise() -> None:
    again = view_of(regular_preliminary())
    assert preliminary_png(again) == preliminary_png(REGULAR)
    assert preliminary_crosstable_png(again) == preliminary_crosstable_png(REGULAR)
    fide = view_of(regular_preliminary(reading=DeReading.FIDE2024))
    assert fide.caption("x") != REGULAR.caption("x") and "FIDE 2024" in fide.caption("x")
    assert preliminary_png(fide) != preliminary_png(REGULAR)
    data = preliminary_png(REGULAR)
    assert b"tIME" not in data and b"tEXt" not in data


def test_crosstable_of_the_regular_mirrors_results_and_marks_the_forfeit_and_pending() -> None:
    grid = preliminary_grid(REGULAR)
    assert len(grid) == 16 and all(len(row.cells) == 16 for row in grid)
    for i in range(16):
        assert grid[i].cells[i].kind is CellKind.SELF
        for j in range(16):
            a, b = grid[i].cells[j], grid[j].cells[i]
            assert (a.kind, a.mine, a.theirs) == (b.kind, b.theirs, b.mine)
        played = [c.mine for c in grid[i].cells if c.kind is not CellKind.SELF]
        assert sum(played) == REGULAR.rows[i].points
    texts = {cell_text(c) for row in grid for c in row.cells}
    assert {"F+", "F−", "½", "1", "0"} <= texts and "·" not in texts
    notes = preliminary_crosstable_notes(REGULAR)
    image = decode(preliminary_crosstable_png(REGULAR))
    assert image.height == table_height(16, len(notes), 32)
    assert 800 <= image.width <= 900

    partial = view_of(regular_preliminary(rounds=10))
    assert partial.played == 80 and partial.games == 120
    assert sum(cell_text(c) == "·" for row in preliminary_grid(partial) for c in row.cells) == 80
    assert preliminary_crosstable_png(partial) != preliminary_crosstable_png(REGULAR)


def test_the_12_player_major_shows_the_official_airthings_order() -> None:
    """CCT-8b: the real preliminary's order reaches the image's rows unchanged."""
    major = view_of(airthings_preliminary())
    _, rows, _ = preliminary_model(major)
    assert [row[1].text for row in rows][:8] == [
        "Carlsen", "So", "Nakamura", "Nepo", "Radjabov", "Aronian", "MVL", "Dubov",
    ]  # fmt: skip
    assert [row[5].text for row in rows][:3] == ["35½", "34½", "33½"]  # issue 32
    assert decode(preliminary_png(major)).size == (WIDTH, table_height(12, len(_notes(major))))


def _notes(view: PreliminaryView) -> list[str]:
    return preliminary_model(view)[2]


def bracket_height(notes: int, subtitle: bool = True) -> int:
    top = MARGIN + TITLE_HEIGHT + (SUBTITLE_HEIGHT if subtitle else 0) + LABEL_HEIGHT
    return (
        top
        + 3 * (BOX_HEIGHT + ROW_GAP)
        + BOX_HEIGHT
        + NOTE_HEIGHT // 2
        + NOTE_HEIGHT * notes
        + MARGIN
    )


def test_cct_8c_8d_the_major_bracket_shows_every_series_scores_and_winners() -> None:
    bracket, statuses = major_bracket()
    view = bracket_view("Airthings Masters", bracket, statuses=statuses)
    assert [s.tie for s in view.series] == [
        Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4, Tie.SF1, Tie.SF2, Tie.FINAL, Tie.THIRD_PLACE,
    ]  # fmt: skip
    qf1, qf2, qf3, qf4 = (view.get(t) for t in (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4))
    assert (qf1.names, qf1.seeds) == (("Carlsen", "Dubov"), (1, 8))
    assert qf1.score_cells(True) == ("2½", "2", "", "", "1½")
    assert qf2.score_cells(False) == ("2½", "½", "½", "", "1")  # MVL lost the blitz play-off
    assert qf3.score_cells(True) == ("2", "2", "1", "W", "1")  # Nakamura: Armageddon drawn
    assert qf4.won(False) and qf4.footer()[0] == "✓ Radjabov won the series 2–0"
    assert qf2.footer()[0] == "✓ So won the blitz play-off 1½–½"
    assert qf3.footer()[0] == "✓ Nakamura won the Armageddon"
    assert len(SCORE_COLUMNS) == len(qf1.score_cells(True))
    final = view.get(Tie.FINAL)
    assert not final.known and final.names == ("Winner SF1", "Winner SF2")


def test_cct_8e_cct_7_a_series_in_progress_names_the_next_game_its_colours_and_clock() -> None:
    bracket, statuses = major_bracket()
    view = bracket_view("Airthings Masters", bracket, statuses=statuses)
    assert view.get(Tie.SF1).footer() == (
        "Next: day 2 game 2 · rapid 15 min + 10 s",
        "White Carlsen · Black Radjabov",  # match 2 reverses day 1's colours, then alternate
    )
    assert view.get(Tie.SF2).footer() == (
        "Next: blitz game 1 · blitz 5 min + 3 s",
        "So chooses the colour of the first blitz game (CCT-8e)",
    )
    bracket, statuses = major_bracket(finished=True)
    done = bracket_view("Airthings Masters", bracket, statuses=statuses)
    assert done.get(Tie.FINAL).footer() == (
        "Next: Armageddon · W 5 / B 4 min + 0 s",
        "White Nakamura · Black Carlsen · a draw goes to Black",
    )
    assert done.get(Tie.THIRD_PLACE).footer()[0] == "✓ So won the series 1½–½"
    fresh = bracket_view("Airthings Masters", bracket)
    assert fresh.get(Tie.QF1).footer() == (
        "Next: day 1 game 1 · rapid 15 min + 10 s",
        "Carlsen chooses White or Black (CCT-8e)",
    )
    assert any("Armageddon W 5 / B 4 min" in note for note in bracket_notes(done))
    controls = done.controls
    assert control_text(controls.rapid) == "rapid 15 min + 10 s"
    assert control_text(controls.armageddon) == (
        "armageddon W 5 / B 4 min + 0 s, a draw goes to Black"
    )


def test_bracket_png_decodes_at_its_layout_size_and_is_byte_identical() -> None:
    bracket, statuses = major_bracket()
    view = bracket_view("Airthings Masters", bracket, statuses=statuses)
    data = bracket_png(view)
    image = decode(data, "P")
    assert image.size == (BRACKET_WIDTH, bracket_height(len(bracket_notes(view))))
    drawn = bracket_image(view)
    colours = {rgb for _, rgb in image.convert("RGB").getcolors(256) or []}
    assert {ImageColor.getrgb(c) for c in (PAPER, BAND, WON)} <= colours  # fills kept exact
    error = ImageChops.difference(drawn, image.convert("RGB")).getextrema()
    assert max(high for _, high in error) <= 16  # text edges within a few levels
    again = bracket_view("Airthings Masters", *major_bracket()[:1], statuses=major_bracket()[1])
    assert bracket_png(again) == data
    bracket, finished = major_bracket(finished=True)
    assert bracket_png(bracket_view("Airthings Masters", bracket, statuses=finished)) != data
    boxes = bracket_layout(view)
    assert len(boxes) == 8 and len({(b.x, b.y) for b in boxes.values()}) == 8
    assert boxes[Tie.FINAL].y == (boxes[Tie.SF1].y + boxes[Tie.SF2].y) // 2


def test_an_event_without_a_third_place_match_has_no_such_box() -> None:
    event = tour_file_report().events[1].event  # Regular Two: third_place_match false
    view = played_event_bracket(event)
    assert Tie.THIRD_PLACE not in {s.tie for s in view.series}
    assert Tie.THIRD_PLACE not in bracket_layout(view)
    assert view.get(Tie.FINAL).footer()[0] == "✓ D won"
    first = played_event_bracket(tour_file_report().events[0].event)  # 3rd place: walkover
    assert first.get(Tie.THIRD_PLACE).footer()[0] == "✓ G by walkover"
    assert first.get(Tie.THIRD_PLACE).score_cells(True) == ("",) * 5
    assert decode(bracket_png(view), "P").width == BRACKET_WIDTH


def test_a_status_that_does_not_fit_the_bracket_is_refused() -> None:
    bracket, statuses = major_bracket()
    with pytest.raises(KnockoutError, match="Final has results before"):
        bracket_view("x", bracket, statuses={**statuses, Tie.FINAL: statuses[Tie.SF1]})
    with pytest.raises(KnockoutError, match="QF2 is"):
        bracket_view("x", bracket, statuses={Tie.QF2: statuses[Tie.SF1]})
    with pytest.raises(KnockoutError, match="the games say"):
        bracket_view("x", bracket, statuses=statuses, awarded={Tie.QF1: "Dubov"})


def test_finals_png_of_10_players_flags_the_tie_for_first() -> None:
    report = tour_file_report()
    assert report.finals is not None
    view = finals_view("Finals", report.finals)
    columns, rows, notes = finals_model(view)
    assert [c.header for c in columns] == ["Rk", "Player", "MP", "Bonus", "Total"]
    assert len(rows) == 10
    assert [(r[0].text, r[1].text, r[4].text) for r in rows[:2]] == [
        ("1=", "A", "8½"),
        ("1=", "D", "8½"),
    ]
    assert [r[0].tint for r in rows].count(PLAYOFF) == 2
    assert any("tie for first" in note for note in notes)
    data = finals_png(view)
    assert decode(data).size == (WIDTH, table_height(10, len(notes)))
    assert finals_png(finals_view("Finals", report.finals)) == data


def test_tour_standings_png_has_the_five_cct_6_criteria_and_play_off_marks() -> None:
    report = tour_file_report("tour_tie_criteria")
    view = tour_standings_view("Tie tour", report.ranking, qualification=report.qualification)
    columns, rows, notes = tour_standings_model(view)
    assert [c.header for c in columns] == ["Rk", "Player", "Pts", "W", "Ev", "F", "SF", "QF"]
    assert len(rows) == len(report.ranking)
    assert {r[1].text for r in rows if r[0].tint == PLAYOFF} == {"C", "G", "H"}
    data = tour_standings_png(view)
    assert decode(data).size == (WIDTH, table_height(len(rows), len(notes)))
    assert tour_standings_png(view) == data


def test_hostile_names_are_drawn_as_typed_and_right_to_left_letters_are_boxed() -> None:
    players = HOSTILE + REGULAR_PLAYERS[len(HOSTILE) :]
    view = view_of(regular_preliminary(players=players))
    _, rows, notes = preliminary_model(view)
    assert set(HOSTILE) <= {row[1].text for row in rows}  # no escaping in an image
    assert CODE_NOTE in notes and CODE_NOTE in preliminary_crosstable_notes(view)
    assert CODE_NOTE not in _notes(REGULAR)
    image = decode(preliminary_png(view))
    assert image.size == (WIDTH, table_height(16, len(notes)))
    bracket, statuses = major_bracket()
    names = dict(zip(bracket.places, HOSTILE * 2, strict=True))
    hostile = bracket_view("x", bracket, statuses=statuses, name_of=lambda p: names[p])
    assert hostile.get(Tie.QF1).names == (HOSTILE[0], HOSTILE[3])
    assert CODE_NOTE in bracket_notes(hostile)
    assert decode(bracket_png(hostile), "P").height == bracket_height(len(bracket_notes(hostile)))

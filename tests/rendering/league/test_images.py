"""The standings and crosstable PNGs (issue 10): a 13-club division from the real core on a
generated season; they decode, have the expected size, and the same facts give the same
bytes while different facts give different bytes. Club names in any script are drawn with
the shipped DejaVu glyphs, or as code boxes where the font has none, never as `?`."""

from __future__ import annotations

import datetime as dt
import fnmatch
import io
import tomllib
from dataclasses import replace
from pathlib import Path

from PIL import Image, ImageDraw

from bot.formats.season_file import load_season
from bot.rendering.common.crosstable_grid import WIDTH as CROSSTABLE_WIDTH
from bot.rendering.common.crosstable_grid import CellKind, cell_text
from bot.rendering.common.image_table import (
    HEADER_HEIGHT,
    MARGIN,
    NOTE_HEIGHT,
    SUBTITLE_HEIGHT,
    TITLE_HEIGHT,
)
from bot.rendering.common.image_text import (
    CODE_NOTE,
    FONTS,
    Pen,
    drawable,
    drawn,
    font,
    has_code_boxes,
    hex_code,
)
from bot.rendering.common.standings_image import ROW_HEIGHT, WIDTH
from bot.rendering.common.text import halves_text
from bot.rendering.league.crosstable_image import crosstable_notes, crosstable_png
from bot.rendering.league.division_view import (
    DivisionView,
    Fixture,
    SeasonContext,
    division_view,
    rank_text,
)
from bot.rendering.league.standings_image import COLUMNS, standings_notes, standings_png
from core.league import league_report
from tests.support.cl_seasons import match, season
from tests.support.rendering_season import CLUBS, generated_report

VIEW = division_view(generated_report(), "P")


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def expected_height(rows: int, notes: int, row_height: int) -> int:
    """The layout the module documents: title block, header band, rows, notes, margins."""
    return (
        MARGIN + TITLE_HEIGHT + SUBTITLE_HEIGHT + HEADER_HEIGHT + row_height * rows
        + NOTE_HEIGHT // 2 + NOTE_HEIGHT * notes + MARGIN
    )  # fmt: skip


def test_the_generated_division_has_13_clubs_one_disqualified_last() -> None:
    assert [row.club for row in VIEW.rows].count(CLUBS[-1]) == 1
    assert len(VIEW.rows) == 13
    assert VIEW.rows[-1].disqualified and rank_text(VIEW.rows[-1]) == "DQ"
    assert not any(row.disqualified for row in VIEW.rows[:-1])


def test_standings_png_decodes_at_phone_width_with_one_row_per_club() -> None:
    image = decode(standings_png(VIEW))
    assert image.format == "PNG" and image.mode == "RGB"
    notes = len(standings_notes(VIEW))
    assert notes == 2  # the legend, and the DQ mark (no shared rank here)
    assert image.size == (WIDTH, expected_height(13, notes, ROW_HEIGHT))
    assert 800 <= image.width <= 1000


def test_standings_png_is_byte_identical_across_renders_and_has_no_metadata() -> None:
    first, second = standings_png(VIEW), standings_png(division_view(generated_report(), "P"))
    assert first == second
    assert b"tIME" not in first and b"tEXt" not in first and b"iTXt" not in first


def test_different_facts_give_different_standings_bytes() -> None:
    other = division_view(generated_report(seed=8), "P")
    assert other.rows != VIEW.rows
    assert standings_png(other) != standings_png(VIEW)
    as_of = replace(VIEW, as_of=dt.date(2017, 11, 1))
    assert standings_png(as_of) != standings_png(VIEW)


def test_each_more_club_adds_one_row_height() -> None:
    twelve = division_view(generated_report(clubs=CLUBS[:12]), "P")
    assert decode(standings_png(VIEW)).height - decode(standings_png(twelve)).height == ROW_HEIGHT


def test_crosstable_png_decodes_with_a_column_per_club_and_is_deterministic() -> None:
    data = crosstable_png(VIEW)
    image = decode(data)
    assert len(crosstable_notes(VIEW)) == 4  # three lines on reading a cell, and the DQ mark
    assert image.height == expected_height(13, 4, 32)
    assert CROSSTABLE_WIDTH <= image.width <= 800  # was 1314 with both scores in each cell
    assert crosstable_png(division_view(generated_report(), "P")) == data
    assert crosstable_png(division_view(generated_report(seed=8), "P")) != data


def test_crosstable_cells_mirror_each_other_and_match_the_table() -> None:
    for i, row in enumerate(VIEW.rows):
        assert VIEW.cells[i][i].kind is CellKind.SELF
        for j in range(len(VIEW.rows)):
            a, b = VIEW.cells[i][j], VIEW.cells[j][i]
            assert (a.kind, a.mine, a.theirs, a.void) == (b.kind, b.theirs, b.mine, b.void)
        if row.disqualified:
            continue
        counted = [c for c in VIEW.cells[i] if c.kind in (CellKind.PLAYED, CellKind.FORFEIT)]
        counted = [c for c in counted if not c.void]
        assert len(counted) == row.played
        played = [c for c in counted if c.kind is CellKind.PLAYED]
        assert sum((c.mine for c in played), start=0 * row.game_points) == row.game_points


def test_crosstable_shows_a_forfeit_a_pending_match_and_the_void_matches() -> None:
    texts = {cell_text(c) for line in VIEW.cells for c in line}
    assert "F−" in texts and "·" in texts
    assert all(c.void for c in VIEW.cells[-1] if c.kind is not CellKind.SELF)
    played = [c for line in VIEW.cells for c in line if c.kind is CellKind.PLAYED]
    assert any("½" in cell_text(c) for c in played)
    assert all(cell_text(c) == halves_text(c.mine) for c in played)


def test_shared_ranks_are_marked_and_noted() -> None:
    """CL-17: four clubs that all draw share rank 1 — `1=` in the row, a note under it."""
    matches = [
        match(f"m{n}", home, away, [(f"{home}1", f"{away}1", 1)], week=n)
        for n, (home, away) in enumerate(
            [("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"), ("A", "D"), ("B", "C")], start=1
        )
    ]
    view = division_view(league_report(load_season(season(matches))), "P")
    assert [rank_text(row) for row in view.rows] == ["1="] * 4
    assert any("CL-17" in note for note in standings_notes(view))
    assert any("CL-17" in note for note in crosstable_notes(view))
    untied = replace(view, rows=(replace(view.rows[0], tied=False), *view.rows[1:]))
    assert standings_png(view) != standings_png(untied)
    assert decode(standings_png(view)).height == expected_height(4, 2, ROW_HEIGHT)


def test_club_names_are_drawn_in_full_up_to_a_limit_then_with_an_ellipsis() -> None:
    pen = Pen(17)
    room = 420  # the club column of the 900 px standings image is wider than this
    long_name = "Knights of the Round Table Chess Club 1"  # 39 characters
    assert pen.fit(long_name, room) == long_name
    cut = pen.fit("Caissa's Children of the Northern Lights Chess Federation" * 2, room)
    assert cut.endswith("…") and pen.width(cut) <= room


NAMES = {
    "Cyrillic": "Шахматный клуб Київ",
    "Greek": "Σκακιστικός Όμιλος Αθηνών",
    "Polish": "Łódzki Klub Szachowy Gdańsk",
    "Turkish": "Ağrı Satranç İhtisas Kulübü",
    "accented Latin": "Échecs Club de Montréal – Straße Ærø",
}


def pen_pixels(text: str, size: int = 17) -> bytes:
    """`text` drawn by the images' pen on a blank canvas."""
    image = Image.new("L", (640, 40))
    Pen(size).draw(ImageDraw.Draw(image), 4, 28, text, "#ffffff")
    return image.tobytes()


def font_pixels(text: str, size: int = 17) -> bytes:
    """`text` drawn straight with the shipped font, the reference for the pen."""
    image = Image.new("L", (640, 40))
    ImageDraw.Draw(image).text((4, 28), text, font=font(size), fill=255, anchor="ls")
    return image.tobytes()


def test_names_in_cyrillic_greek_polish_turkish_and_accents_are_drawn_in_their_letters() -> None:
    for script, name in NAMES.items():
        assert drawable(name) == name, script
        assert not has_code_boxes(name), script
        assert pen_pixels(name) == font_pixels(name), script
        assert pen_pixels(name) != pen_pixels("?" * len(name)), script


def test_half_points_and_dashes_are_the_fonts_own_glyphs() -> None:
    for text in ("13½–10½", "F−", "a — b", "·"):
        assert drawable(text) == text
        assert pen_pixels(text) == font_pixels(text)


def test_a_letter_the_font_lacks_is_a_box_with_its_code_not_a_question_mark() -> None:
    """CJK has no glyph in DejaVu: each character is a box holding its hex code, so two
    names stay apart, and the note under the table says what the boxes are."""
    peking, shanghai = "北京棋社", "上海棋院"
    assert not drawn("北") and drawn("Ш")
    assert drawable(peking) == peking and has_code_boxes(peking)
    assert (hex_code("北"), hex_code("\U0002000b")) == ("5317", "02000B")
    assert pen_pixels(peking) != pen_pixels("????")
    assert pen_pixels(peking) != pen_pixels(shanghai)
    assert pen_pixels(peking) != font_pixels(peking)  # not the font's own missing-glyph box
    pen = Pen(17)
    assert pen.width("北京") == pen.width("京北") == 2 * pen.width("北") > 0
    cut = pen.fit(peking * 10, 120)
    assert cut.endswith("…") and pen.width(cut) <= 120


def test_right_to_left_letters_are_boxed_since_the_basic_layout_cannot_order_them() -> None:
    assert not drawn("ש") and not drawn("ع")
    assert has_code_boxes("שחמט") and has_code_boxes("شطرنج")


def test_compatibility_forms_joiners_and_controls_become_what_the_font_draws() -> None:
    assert drawable("ＡＢＣ") == "ABC"  # full-width letters, which DejaVu lacks
    assert drawable("Rook\u200dLovers\tClub") == "RookLovers Club"
    assert drawable("e\u0301checs") == "échecs"  # composed, not a loose accent


def test_a_club_named_in_another_script_changes_the_image_and_only_cjk_adds_a_note() -> None:
    def renamed(name: str) -> DivisionView:
        return replace(VIEW, rows=(replace(VIEW.rows[0], club=name), *VIEW.rows[1:]))

    cyrillic = renamed(NAMES["Cyrillic"])
    assert standings_png(cyrillic) != standings_png(renamed("?" * len(NAMES["Cyrillic"])))
    assert standings_notes(cyrillic) == standings_notes(VIEW)
    assert CODE_NOTE not in crosstable_notes(cyrillic)
    cjk = renamed("北京棋社")
    assert standings_notes(cjk) == [*standings_notes(VIEW), CODE_NOTE]
    assert crosstable_notes(cjk) == [*crosstable_notes(VIEW), CODE_NOTE]
    image = decode(standings_png(cjk))
    assert image.size == (WIDTH, expected_height(13, 3, ROW_HEIGHT))
    assert crosstable_png(cjk) == crosstable_png(renamed("北京棋社"))


def test_the_fonts_ship_with_their_licence_in_the_wheel_and_stay_small() -> None:
    """The .ttf files and LICENSE are package data of `bot.rendering.common` (so a wheel has them)
    and weigh at most 1.5 MB together."""
    shipped = sorted(p.name for p in FONTS.iterdir())
    assert shipped == ["DejaVuSans.ttf", "DejaVuSansCondensed.ttf", "LICENSE"]
    assert "Bitstream" in (FONTS / "LICENSE").read_text(encoding="utf-8")
    assert sum(p.stat().st_size for p in FONTS.iterdir()) <= 1_500_000
    pyproject = tomllib.loads(
        (Path(__file__).parents[3] / "pyproject.toml").read_text(encoding="utf-8")
    )
    patterns = pyproject["tool"]["setuptools"]["package-data"]["bot.rendering.common"]
    for name in shipped:
        assert any(fnmatch.fnmatch(f"fonts/{name}", pattern) for pattern in patterns), name
    assert font(17).getname() == ("DejaVu Sans", "Book")
    assert font(17, condensed=True).getname() == ("DejaVu Sans", "Condensed")


def test_half_points_read_as_people_write_them() -> None:
    """½ everywhere a person reads a score, and the quarters of a team SB (`61¼`, `2¾`) with
    the vulgar fractions too (not `61.25` beside `13½`); a negative adjustment with a minus
    sign; a value no rule produces as its exact decimal."""
    from fractions import Fraction

    assert [halves_text(Fraction(n, 2)) for n in (0, 1, 3, 27)] == ["0", "½", "1½", "13½"]
    assert halves_text(Fraction(245, 4)) == "61¼"
    assert halves_text(Fraction(11, 4)) == "2¾" and halves_text(Fraction(1, 4)) == "¼"
    assert halves_text(Fraction(-3, 2)) == "−1½"
    assert halves_text(Fraction(1, 8)) == "0.125"
    assert halves_text(None) == ""


def test_views_are_plain_data_for_every_output() -> None:
    assert isinstance(VIEW, DivisionView)
    assert VIEW.title == "Test season · P"
    assert VIEW.caption("Standings") == "Standings"


def _two_divisions(played_rounds: int) -> tuple[object, SeasonContext]:
    """Divisions P (A-D) and One (E-H), 3 rounds each, `played_rounds` of them played."""
    pairs = {1: [("A", "B"), ("C", "D")], 2: [("A", "C"), ("B", "D")], 3: [("A", "D"), ("B", "C")]}
    matches = []
    for division, rename in (("P", {}), ("One", dict(zip("ABCD", "EFGH", strict=True)))):
        for number, games in pairs.items():
            for index, (home, away) in enumerate(games):
                home, away = rename.get(home, home), rename.get(away, away)
                matches.append(
                    match(
                        f"{division}{number}{index}",
                        home,
                        away,
                        [(f"{home}1", f"{away}1", 2 if home in "AE" else 1)],
                        round=number,
                        division=division,
                        finished=number <= played_rounds,
                    )
                )
    facts = load_season(season(matches, {"P": list("ABCD"), "One": list("EFGH")}))
    fixtures = tuple(Fixture(m.id, m.home, m.away, m.round) for m in facts.matches)
    return league_report(facts), SeasonContext(fixtures, 1, (), dt.date(2017, 12, 1))


def test_an_image_says_its_state_its_cl_8_zones_and_the_cl_16_champion() -> None:
    """Issue 20: the images had no "final" / "after round N" label or date, no promotion or
    relegation zones and no champion mark, and GP sat between MP and SB (CL-17: MP, SB, DE)."""
    report, context = _two_divisions(played_rounds=2)
    running = division_view(report, "P", context)  # type: ignore[arg-type]
    assert running.caption("Standings") == "Standings after round 2 of 3 · 2017-12-01"
    assert running.champion is None and running.down and not running.up
    report, context = _two_divisions(played_rounds=3)
    top = division_view(report, "P", context)  # type: ignore[arg-type]
    below = division_view(report, "One", context)  # type: ignore[arg-type]
    assert top.caption("Standings") == "Final standings · 2017-12-01"
    assert top.champion == "A" and below.champion is None
    assert top.down == {top.rows[-1].club} and below.up == {below.rows[0].club}
    notes = standings_notes(top)
    assert any("goes up" in n for n in notes) and any("champion (CL-16)" in n for n in notes)
    headers = [column.header for column in COLUMNS]
    assert headers.index("MP") < headers.index("SB") < headers.index("DE") < headers.index("GP")
    png = standings_png(top)
    assert png.startswith(b"\x89PNG") and png != standings_png(division_view(report, "P"))

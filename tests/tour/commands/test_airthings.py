"""CCT-8b on a real tour preliminary: the Airthings Masters 2020 (12 players, 66 games), its
pairing numbers as the organiser drew them given to `/event draw`, every game entered one by
one through `/game report`, gives the official order and the tie-break values (PTS, WIN, SB,
KS) of `tests/fixtures/tiebreaks` in `/event standings` — the embed's order and the CSV's
exact values."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

from tests.support.tour_desk import tour_desk
from tests.support.tour_tables import table_rows

RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½"}


async def test_cct_8b_the_airthings_preliminary_entered_game_by_game_gives_its_official_order(
    tmp_path: Path, fixtures_dir: Path
) -> None:
    folder = fixtures_dir / "tiebreaks"
    expected = json.loads((folder / "airthings_masters_2020_prelim.expected.json").read_text())
    values = expected["values_by_start_number"]
    numbers = [values[str(n)]["name"] for n in range(1, len(values) + 1)]
    with (folder / "airthings_masters_2020_prelim_games.csv").open() as handle:
        games = list(csv.DictReader(handle))
    async with tour_desk(tmp_path / "tour.db") as desk:
        await desk.run("tour create", desk.organiser, name="Champions Chess Tour 2020-21")
        await desk.create_event(
            "Champions Chess Tour 2020-21",
            "Airthings Masters",
            type="major",
            start="2020-12-26",
        )
        for name in numbers:
            await desk.run(
                "event player-add", desk.organiser, event="Airthings Masters", player=name
            )
        preview = await desk.run(
            "event draw", desk.organiser, event="Airthings Masters", order=", ".join(numbers)
        )
        await desk.click(preview.reply, "Confirm", desk.organiser)
        for game in games:
            outcome = await desk.run(
                "game report",
                desk.arbiter,
                event="Airthings Masters",
                game=f"R{game['round']} {game['white']} v {game['black']}",
                result=RESULTS[game["result"]],
            )
            assert "decided by an arbiter" in (outcome.reply.content or ""), outcome.reply.content
        shown = await desk.run("event standings", desk.player(0), event="Airthings Masters")
        table = shown.reply.embeds[0]["description"]
        as_csv = await desk.run(
            "event standings", desk.player(0), event="Airthings Masters", format="csv"
        )
        data = as_csv.reply.uploads["standings.csv"].decode()
    assert [player for _, player, _ in table_rows(table)] == expected["official_order"]
    by_name = {v["name"]: v for v in values.values()}
    for row in csv.DictReader(io.StringIO(data)):
        wanted = by_name[row["player"]]
        assert Fraction(row["points"]) == Fraction(str(wanted["PTS"])), row
        assert int(row["wins"]) == wanted["WIN"], row
        assert Fraction(row["sb"]) == Fraction(str(wanted["SB"])), row
        assert Fraction(row["ks"]) == Fraction(str(wanted["KS"])), row
    assert [r["player"] for r in csv.DictReader(io.StringIO(data))] == expected["official_order"]

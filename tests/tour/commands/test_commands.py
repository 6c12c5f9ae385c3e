"""The tour through the real command tree, one rule per test (its ID in the name): the draw
(CCT-8a, CORE-1), reports, confirmations, disputes and arbiter entries (CCT-9), PGNs and the
move-40 flag (CCT-7), the knock-out built and played (CCT-8c-e), the Finals with bonus
points (CCT-8f), the tour ranking, qualification and prizes (CCT-6, CCT-3, CCT-5),
disconnections (CCT-10), appeals (CCT-11), frozen rules (CCT-16), and autocomplete. One bot
serves the module; each test works on its own tour."""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from pathlib import Path

from bot.kernel.config import CctDefaults, Config, RuleDefaults
from bot.tour.tours import service as tours
from core.berger import draw_lots
from core.tour.event_facts import round_robin
from core.tour.ranking import EventType
from storage.tour.games import TourGame
from tests.support.discord_harness import Upload
from tests.support.paths import ROOT
from tests.support.tour_desk import IN_MODULE_LOOP, PLAYER_IDS, Desk, module_desk
from tests.support.tour_tables import column as bonus_column
from tests.support.tour_tables import number, table_rows
from tests.support.tour_world import (
    EARLY_DRAW_MOVES,
    ORGANISER,
    by_order,
    knockout_started,
    pgn_text,
    player_names,
    preliminary_played,
    tour_with_event,
)

NAMES = player_names(16)
EARLY_DRAW = pgn_text("P01", "P02", EARLY_DRAW_MOVES)


desk = module_desk("tour-tree")


async def _settle(desk: Desk) -> None:
    await desk.clock.advance(dt.timedelta(0))  # the outbox's pass: posts delivered


@IN_MODULE_LOOP
async def test_cct_8a_core_1_the_draw_previews_then_stores_its_seeded_berger_pairings(
    desk: Desk,
) -> None:
    await desk.run("tour create", desk.organiser, name="Draw tour")
    await desk.create_event(
        "Draw tour",
        "Drawn",
        type="regular",
        start="2026-05-01",
    )
    await desk.enter("Drawn", NAMES, 100)
    ticked = await desk.run("event draw", desk.organiser, event="Drawn", seed="a`b")
    assert ticked.reply.ephemeral and "backtick" in ticked.reply.text()  # it would end `seed`
    preview = await desk.run("event draw", desk.organiser, event="Drawn", seed="cct-2026")
    assert preview.reply.buttons == ["Confirm", "Cancel"]
    assert "Seed `cct-2026`" in preview.reply.text()
    async with desk.store.read() as view:
        record = (await view.tour_events.by_name("Drawn"))[0]
        assert record.drawn_at is None  # the preview stored nothing
    other = await desk.click(preview.reply, "Confirm", desk.player(3))
    assert other.reply.ephemeral  # only the organiser who asked confirms
    confirmed = await desk.click(preview.reply, "Confirm", desk.organiser)
    assert "120 games over 15 rounds" in (confirmed.reply.content or "")
    loaded = await desk.event("Drawn")
    assert loaded.record.draw_seed == "cct-2026"
    # Replayed from its stored seed over the players in entry order: the same numbers and
    # the same Berger pairings as stored.
    replayed = draw_lots([p.name for p in loaded.players], loaded.record.draw_seed)
    assert tuple(replayed) == loaded.facts.players
    stored = {
        (g.round, g.board, loaded.names[g.white_id], loaded.names[g.black_id]) for g in loaded.games
    }
    assert stored == {(p.round, p.board, p.white, p.black) for p in round_robin(replayed)}
    await _settle(desk)
    shown = await desk.run("event pairings", desk.player(0), event="Drawn", round=1)
    first = round_robin(replayed)[0]
    assert f"1. {first.white} – {first.black}" in shown.reply.text()
    refused = await desk.run("event player-add", desk.organiser, event="Drawn", player="Late")
    assert refused.reply.ephemeral and "draw" in (refused.reply.content or "")


@IN_MODULE_LOOP
async def test_cct_8a_a_draw_without_a_seed_shows_the_one_it_generated(desk: Desk) -> None:
    await tour_with_event(desk.store, tour="Seedless", event="Seedless open", seed=None)
    preview = await desk.run("event draw", desk.organiser, event="Seedless open")
    seed = preview.reply.text().split("Seed `")[1].split("`")[0]
    assert seed
    await desk.click(preview.reply, "Confirm", desk.organiser)
    async with desk.store.read() as view:
        record = (await view.tour_events.by_name("Seedless open"))[0]
    assert record.draw_seed == seed


@IN_MODULE_LOOP
async def test_cct_9_a_players_report_waits_for_the_opponent_and_an_arbiters_is_final(
    desk: Desk,
) -> None:
    await tour_with_event(desk.store, tour="Reports", event="Reported", first_user=PLAYER_IDS + 200)
    loaded = await desk.event("Reported")
    game = next(g for g in loaded.games if g.round == 1)
    name = loaded.game_name(game)
    white = desk.player(200 + NAMES.index(loaded.names[game.white_id]))
    black = desk.player(200 + NAMES.index(loaded.names[game.black_id]))
    stranger = desk.player(200 + next(i for i, n in enumerate(NAMES) if n not in name))
    refused = await desk.run("game report", stranger, event="Reported", game=name, result="1-0")
    assert refused.reply.ephemeral and "**player**" in (refused.reply.content or "")
    report = await desk.run("game report", white, event="Reported", game=name, result="1-0")
    assert report.reply.buttons == ["Confirm", "Dispute"] and f"<@{black.id}>" in (
        report.reply.content or ""
    )
    assert "waiting for the opponent" in (report.reply.content or "")
    own = await desk.click(report.reply, "Confirm", white)
    assert own.reply.ephemeral and "your opponent confirms" in (own.reply.content or "")
    third = await desk.click(report.reply, "Confirm", stranger)
    assert third.reply.ephemeral and "Only the opponent" in (third.reply.content or "")
    confirmed = await desk.click(report.reply, "Confirm", black)
    assert confirmed.reply.type == 7 and "confirmed" in (confirmed.reply.content or "")
    again = await desk.run("game report", black, event="Reported", game=name, result="0-1")
    assert again.reply.ephemeral and "only an arbiter's correction" in (again.reply.content or "")
    # An arbiter's entry needs no confirmation.
    other = loaded.game_name(next(g for g in loaded.games if g.round == 1 and g.id != game.id))
    entered = await desk.run(
        "game report", desk.arbiter, event="Reported", game=other, result="½-½"
    )
    assert not entered.reply.buttons and "decided by an arbiter" in (entered.reply.content or "")
    organiser = await desk.run(
        "game correct", desk.organiser, event="Reported", game=name, result="0-1", reason="x"
    )
    assert organiser.reply.ephemeral and "arbiter" in (organiser.reply.content or "")


@IN_MODULE_LOOP
async def test_cct_9_a_dispute_goes_to_the_arbiters_and_a_correction_is_audited(
    desk: Desk,
) -> None:
    await tour_with_event(
        desk.store, tour="Disputes", event="Disputed", first_user=PLAYER_IDS + 300
    )
    loaded = await desk.event("Disputed")
    game = next(g for g in loaded.games if g.round == 2)
    name = loaded.game_name(game)
    white = desk.player(300 + NAMES.index(loaded.names[game.white_id]))
    black = desk.player(300 + NAMES.index(loaded.names[game.black_id]))
    report = await desk.run("game report", black, event="Disputed", game=name, result="0-1")
    disputed = await desk.click(report.reply, "Dispute", white)
    assert "disputed" in (disputed.reply.content or "")
    await _settle(desk)
    notice = [p for p in desk.harness.posts if p.channel_id == desk.harness.channel("general")]
    assert notice and "Disputed in **Disputed**" in (notice[-1].content or "")
    decided = await desk.run(
        "game correct",
        desk.arbiter,
        event="Disputed",
        game=name,
        result="1-0",
        reason="The arbiter saw White win on time.",
        ground="other",
    )
    assert "decided by an arbiter" in (decided.reply.content or "")
    shown = await desk.run("game show", desk.player(301), event="Disputed", game=name)
    text = shown.reply.text()
    assert "0-1 → 1-0" in text and "The arbiter saw White win on time." in text and "CCT-9" in text
    async with desk.store.read() as view:
        audit = [e.action for e in await view.audit.recent(10)]
    assert "game.correct" in audit and "game.dispute" in audit


@IN_MODULE_LOOP
async def test_cct_7_a_pgn_fills_the_result_flags_an_early_draw_and_counts_once(desk: Desk) -> None:
    names = NAMES[:8]
    await tour_with_event(
        desk.store, tour="Pgns", event="Pgn event", players=names, first_user=PLAYER_IDS + 400
    )
    loaded = await desk.event("Pgn event")
    pairing = next(
        g
        for g in loaded.games
        if {loaded.names[g.white_id], loaded.names[g.black_id]} == {"P01", "P02"}
    )
    name = loaded.game_name(pairing)
    pgn = EARLY_DRAW
    if loaded.names[pairing.white_id] == "P02":
        pgn = pgn.replace('"P01"', '"X"').replace('"P02"', '"P01"').replace('"X"', '"P02"')
    reported = await desk.run(
        "game report", desk.arbiter, event="Pgn event", game=name, pgn=Upload("g.pgn", pgn.encode())
    )
    content = reported.reply.content or ""
    assert "½-½" in content and "CCT-7" in content
    await _settle(desk)
    flag = [
        p.content or ""
        for p in desk.harness.posts
        if p.channel_id == desk.harness.channel("general")
    ]
    assert any("CCT-7 flag" in text and "after 5 moves" in text for text in flag)
    other = loaded.game_name(next(g for g in loaded.games if g.id != pairing.id))
    twice = await desk.run(
        "game report",
        desk.arbiter,
        event="Pgn event",
        game=other,
        pgn=Upload("g.pgn", pgn.encode()),
    )
    assert twice.reply.ephemeral and "cannot count twice" in (twice.reply.content or "")
    against = next(
        g
        for g in loaded.games
        if {loaded.names[g.white_id], loaded.names[g.black_id]} == {"P03", "P04"}
    )
    white, black = loaded.names[against.white_id], loaded.names[against.black_id]
    swapped = EARLY_DRAW.replace('"P01"', f'"{black}"').replace('"P02"', f'"{white}"')
    refused = await desk.run(
        "game report",
        desk.arbiter,
        event="Pgn event",
        game=loaded.game_name(against),
        pgn=Upload("h.pgn", swapped.replace("5. O-O", "5. d3").encode()),
    )
    assert refused.reply.ephemeral and "other way round" in (refused.reply.content or "")


@IN_MODULE_LOOP
async def test_cct_8c_the_knockout_waits_for_the_preliminary_then_follows_the_final_order(
    desk: Desk,
) -> None:
    store = desk.store
    await tour_with_event(store, tour="Knock", event="Knock open", first_user=PLAYER_IDS + 500)
    refused = await desk.run("event start-knockout", desk.organiser, event="Knock open")
    assert refused.reply.ephemeral and "120 preliminary game(s)" in (refused.reply.content or "")
    await preliminary_played(store, "Knock open", by_order(NAMES))
    standings = await desk.run("event standings", desk.player(500), event="Knock open")
    table = standings.reply.text()
    assert table.index("P01") < table.index("P02") < table.index("P16")
    preview = await desk.run("event start-knockout", desk.organiser, event="Knock open")
    assert "QF1: P01 – P08" in preview.reply.text() and "QF4: P04 – P05" in preview.reply.text()
    await desk.click(preview.reply, "Confirm", desk.organiser)
    bracket = await desk.run("event bracket", desk.player(501), event="Knock open")
    text = bracket.reply.text()
    assert "**QF2** P02 – P07" in text and "colour of game 1 of match 1" in text
    loaded = await desk.event("Knock open")
    top = next(
        g
        for g in loaded.games
        if {loaded.names[g.white_id], loaded.names[g.black_id]} == {"P01", "P02"}
    )
    upset = "0-1" if loaded.names[top.white_id] == "P01" else "1-0"
    refused = await desk.run(
        "game correct",
        desk.arbiter,
        event="Knock open",
        game=loaded.game_name(top),
        result=upset,
        reason="A late finding.",
    )
    assert refused.reply.ephemeral and "places 1-8" in (refused.reply.content or "")


@IN_MODULE_LOOP
async def test_cct_8d_8e_cct_7_a_level_series_goes_to_blitz_then_armageddon(desk: Desk) -> None:
    store = desk.store
    twelve = NAMES[:12]
    await knockout_started(
        store,
        "Series major",
        tour="Series",
        kind=EventType.MAJOR,
        players=twelve,
        first_user=PLAYER_IDS + 600,
    )
    p01, p08 = desk.player(600), desk.player(607)
    wrong = await desk.run("series choose", p08, event="Series major", round="QF1", colour="white")
    assert wrong.reply.ephemeral and "higher-ranked player" in (wrong.reply.content or "")
    chose = await desk.run("series choose", p01, event="Series major", round="QF1", colour="white")
    assert "colour of game 1 of match 1" in (chose.reply.content or "")

    async def play(game: str, result: str) -> str:
        outcome = await desk.run(
            "game report", desk.arbiter, event="Series major", game=game, result=result
        )
        return outcome.reply.content or ""

    shown = await desk.run("series show", p08, event="Series major", round="QF1")
    assert (
        "next: QF1 day 1 game 1 — White P01, Black P08, rapid 15 min + 10 s" in shown.reply.text()
    )
    skipped = await play("QF1 day 1 game 2", "1-0")
    assert "not the next game" in skipped
    # Match 1: P01 wins, P08 wins, two draws (2-2, drawn); match 2 (colours reversed) the same.
    for day in (1, 2):
        await play(f"QF1 day {day} game 1", "1-0")
        await play(f"QF1 day {day} game 2", "1-0")
        await play(f"QF1 day {day} game 3", "½-½")
        await play(f"QF1 day {day} game 4", "½-½")
    waiting = await desk.run("series show", p01, event="Series major", round="QF1")
    assert (
        "day 1 2–2" in waiting.reply.text()
        and "colour of the first blitz game" in waiting.reply.text()
    )
    await desk.run("series choose", p01, event="Series major", round="QF1", colour="black")
    shown = await desk.run("series show", p01, event="Series major", round="QF1")
    assert "next: QF1 blitz 1 — White P08, Black P01, blitz 5 min + 3 s" in shown.reply.text()
    await play("QF1 blitz 1", "1-0")  # P08 wins
    await play("QF1 blitz 2", "1-0")  # P01 (White now) wins: 1-1
    await desk.run("series choose", p01, event="Series major", round="QF1", colour="black")
    shown = await desk.run("series show", p01, event="Series major", round="QF1")
    assert (
        "next: QF1 armageddon — White P08, Black P01, armageddon W 5 / B 4 min + 0 s"
        in shown.reply.text()
    )
    decided = await play("QF1 armageddon", "½-½")
    assert "QF1: P01 wins the series" in decided  # CCT-7: a draw goes to Black
    # QF2: a match decided after 3 games has no 4th game (CCT-8d).
    await desk.run(
        "series choose", desk.player(601), event="Series major", round="QF2", colour="white"
    )
    for game, result in (
        ("QF2 day 1 game 1", "1-0"),
        ("QF2 day 1 game 2", "0-1"),
        ("QF2 day 1 game 3", "1-0"),
    ):
        await play(game, result)
    fourth = await play("QF2 day 1 game 4", "½-½")
    assert "not the next game" in fourth and "day 2 game 1" in fourth


@IN_MODULE_LOOP
async def test_cct_8d_a_series_stops_once_its_winner_is_certain(desk: Desk) -> None:
    """CCT-8d: after winning match 1, two points in match 2 decide the series at once."""
    store = desk.store
    twelve = NAMES[:12]
    await knockout_started(
        store,
        "Stops major",
        tour="Stops",
        kind=EventType.MAJOR,
        players=twelve,
        first_user=PLAYER_IDS + 700,
    )
    p01 = desk.player(700)
    await desk.run("series choose", p01, event="Stops major", round="QF1", colour="white")

    async def play(game: str, result: str) -> str:
        outcome = await desk.run(
            "game report", desk.arbiter, event="Stops major", game=game, result=result
        )
        return outcome.reply.content or ""

    # Match 1: P01 wins 3-0. Match 2 (P01 Black first): a win, a loss, a win → 2-1.
    for game, result in (
        ("QF1 day 1 game 1", "1-0"),
        ("QF1 day 1 game 2", "0-1"),
        ("QF1 day 1 game 3", "1-0"),
        ("QF1 day 2 game 1", "0-1"),
        ("QF1 day 2 game 2", "0-1"),
    ):
        assert "wins the series" not in await play(game, result)
    decided = await play("QF1 day 2 game 3", "0-1")
    assert "QF1: P01 wins the series" in decided
    shown = await desk.run("series show", p01, event="Stops major", round="QF1")
    text = shown.reply.text()
    assert "day 2 2–1 (stopped: the series was decided)" in text
    assert "next:" not in text
    fourth = await play("QF1 day 2 game 4", "1-0")
    assert "QF1 is decided (P01 won)" in fourth and "is not played (CCT-8d)" in fourth
    bracket = await desk.run("event bracket", p01, event="Stops major")
    assert (
        "**QF1** P01 – P08: day 1 3–0, day 2 2–1 (stopped: the series was decided); won by **P01**"
        in bracket.reply.text()
    )
    loaded = await desk.event("Stops major")
    settled = [g for g in loaded.games if g.contest == "QF1" and g.status.settled]
    assert len(settled) == 6


@IN_MODULE_LOOP
async def test_cct_6_cct_3_cct_5_cct_8f_an_imported_tour_and_its_finals_with_bonus_points(
    desk: Desk, tmp_path: Path
) -> None:
    data = (ROOT / "tests" / "data" / "tour_three_events.json").read_text()
    document = json.loads(data)
    finals = document.pop("finals")
    imported = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("tour.json", json.dumps(document).encode()),
        name="History",
    )
    assert "imported" in (imported.reply.content or "")
    standings = await desk.run("tour standings", desk.player(0), tour="History")
    from bot.formats.tour_file import parse_tour
    from bot.rendering.tour.report_json import tour_json
    from core.tour.report import tour_report

    tour, tables = parse_tour(json.dumps(document))
    expected = tour_json(tour_report(tour, None, tables))
    for row in expected["standings"][:5]:
        assert f"{row['player']}" in standings.reply.text()
    qualification = await desk.run(
        "tour qualification", desk.player(0), tour="History", event="Major"
    )
    assert "qualification (CCT-3)" in qualification.reply.text()
    # The Finals: drawn, one match played; bonus from the events before them (CCT-8f).
    await desk.create_event(
        "History",
        "History finals",
        type="finals",
        start="2021-03-01",
    )
    qualified = {q["player"] for q in expected["qualification"]["finals"]}
    for player in finals["players"]:  # the others fill the places the list leaves (CCT-3)
        await desk.run(
            "event player-add",
            desk.organiser,
            event="History finals",
            player=player,
            wildcard=player not in qualified,
        )
    preview = await desk.run(
        "event draw", desk.organiser, event="History finals", order=", ".join(finals["players"])
    )
    await desk.click(preview.reply, "Confirm", desk.organiser)
    table = await desk.run("finals standings", desk.player(0), event="History finals")
    text = table.reply.embeds[0]["description"]
    points = {row["player"]: row["points"] for row in expected["standings"]}
    lowest = min(points[p] for p in finals["players"])
    top = max(finals["players"], key=lambda p: points[p])
    bonus = (points[top] - lowest) // 10 / 2
    shown = {player: cells for _, player, cells in table_rows(text)}
    column = bonus_column(text, "Bonus")
    assert number(shown[top][column]) == Fraction(str(bonus))
    await desk.run("tour ambassador-add", desk.organiser, tour="History", player="J")
    prizes = await desk.run("tour prizes", desk.player(0), tour="History")
    assert "Ambassador pool" in prizes.reply.text() and "$200,000" in prizes.reply.text()


@IN_MODULE_LOOP
async def test_cct_10_a_disconnection_is_ruled_applied_and_announced(desk: Desk) -> None:
    await tour_with_event(desk.store, tour="Drops", event="Dropped", first_user=PLAYER_IDS + 700)
    loaded = await desk.event("Dropped")
    first, second = loaded.games[0], loaded.games[1]

    async def disconnection(game: TourGame, player_id: int, seconds: int) -> str:
        """The arbiter's reply to a disconnection not reconnected within 30 s."""
        said = await desk.run(
            "incident disconnection",
            desk.arbiter,
            event="Dropped",
            game=loaded.game_name(game),
            player=loaded.names[player_id],
            clock_seconds=seconds,
            reconnected_within_30s=False,
            backup_connection=True,
        )
        return said.reply.content or ""

    paused = await disconnection(first, first.white_id, 200)
    assert "paused" in paused and "170 s left" in paused
    lost = await disconnection(second, second.black_id, 20)
    assert "lost" in lost and "Result: 1-0" in lost
    shown = await desk.run(
        "game show", desk.player(700), event="Dropped", game=loaded.game_name(second)
    )
    assert "decided by an arbiter" in shown.reply.text()
    listed = await desk.run("incident list", desk.player(700), event="Dropped")
    assert "paused" in listed.reply.text() and "lost" in listed.reply.text()


@IN_MODULE_LOOP
async def test_cct_11_an_appeal_is_refused_after_2359_paris_on_the_sessions_day(desk: Desk) -> None:
    await tour_with_event(
        desk.store,
        tour="Appeals",
        event="Appealed",
        first_user=PLAYER_IDS + 800,
        start="2026-05-01",
    )
    loaded = await desk.event("Appealed")
    day_one = loaded.game_name(next(g for g in loaded.games if g.round == 1))
    player = desk.player(800)
    lodged = await desk.run(
        "appeal lodge", player, event="Appealed", game=day_one, text="My opponent had help."
    )
    assert lodged.reply.ephemeral and "recorded" in (lodged.reply.content or "")
    appeal_id = int((lodged.reply.content or "").split()[1])
    outsider = await desk.run(
        "appeal lodge", desk.organiser, event="Appealed", game=day_one, text="x"
    )
    assert outsider.reply.ephemeral and "**player**" in (outsider.reply.content or "")
    # 23:59:30 Paris (21:59:30 UTC) is still in time; midnight is not.
    await desk.clock.advance_to(dt.datetime(2026, 5, 1, 21, 59, 30, tzinfo=dt.UTC))
    other = desk.player(801)  # one appeal per player per game: another player of the event
    still = await desk.run("appeal lodge", other, event="Appealed", game=day_one, text="Again.")
    assert "recorded" in (still.reply.content or "")
    await desk.clock.advance_to(dt.datetime(2026, 5, 1, 22, 0, 1, tzinfo=dt.UTC))
    late = await desk.run(
        "appeal lodge", desk.player(802), event="Appealed", game=day_one, text="Late."
    )
    assert late.reply.ephemeral and "too late" in (late.reply.content or "")
    decided = await desk.run(
        "appeal decide", desk.arbiter, appeal=appeal_id, decision="dismissed", reason="No evidence."
    )
    assert "dismissed" in (decided.reply.content or "")
    listed = await desk.run("appeal list", player, event="Appealed")
    assert "No evidence." in listed.reply.text()


@IN_MODULE_LOOP
async def test_cct_16_a_tour_keeps_the_rules_it_was_created_with(desk: Desk) -> None:
    store = desk.store
    small = Config(
        rules=RuleDefaults(
            cct=CctDefaults(regular_players=8, confirm_hours=3, round_reminder_minutes=30)
        )
    )
    await tours.create_tour(store, ORGANISER, small, "Frozen")
    await tours.create_tour(store, ORGANISER, Config(), "Later")
    await desk.create_event(
        "Frozen",
        "Frozen open",
        type="regular",
        start="2026-05-01",
    )
    await desk.create_event(
        "Later",
        "Later open",
        type="regular",
        start="2026-05-01",
    )
    await desk.create_event(
        "Later",
        "Later own",
        type="regular",
        start="2026-05-20",
        reminder_minutes=90,
    )
    async with store.read() as view:
        frozen = (await view.tour_events.by_name("Frozen open"))[0]
        later = (await view.tour_events.by_name("Later open"))[0]
        own = (await view.tour_events.by_name("Later own"))[0]
        rules = (await view.tours.by_name("Frozen")).rules  # type: ignore[union-attr]
    assert (frozen.size, later.size, rules.confirm_hours) == (8, 16, 3)
    # each event's round reminder: its tour's (frozen), or its own
    reminders = (frozen.round_reminder_minutes, later.round_reminder_minutes)
    assert (*reminders, own.round_reminder_minutes) == (30, 60, 90)


@IN_MODULE_LOOP
async def test_game_autocomplete_offers_the_callers_own_open_games_first(desk: Desk) -> None:
    await tour_with_event(desk.store, tour="Choices", event="Chosen", first_user=PLAYER_IDS + 900)
    mine = await desk.choices("game report", desk.player(904), "game", event="Chosen")
    assert len(mine) == 25 and all("P05" in name for name in mine[:15])
    typed = await desk.choices("game report", desk.player(904), "game", event="Chosen", game="R3 ")
    assert typed[0].startswith("R3 ") and "P05" in typed[0]
    events_offered = await desk.choices("event show", desk.player(904), "event", event="Cho")
    assert events_offered[0] == "Chosen"


@IN_MODULE_LOOP
@IN_MODULE_LOOP
async def test_an_events_pin_is_edited_after_every_change(desk: Desk) -> None:
    await tour_with_event(desk.store, tour="Pins", event="Pinned", first_user=PLAYER_IDS + 1200)
    channel = desk.harness.channel("general")
    pinned = await desk.run("event pin", desk.organiser, event="Pinned", channel=channel)
    assert pinned.reply.ephemeral and "is pinned" in (pinned.reply.content or "")
    await _settle(desk)
    posted = [p for p in desk.harness.posts if p.channel_id == channel and not p.edited]
    assert posted and "Preliminary standings" in posted[-1].embeds[0]["description"]
    loaded = await desk.event("Pinned")
    game = loaded.games[0]
    await desk.run(
        "game report", desk.arbiter, event="Pinned", game=loaded.game_name(game), result="1-0"
    )
    await _settle(desk)
    edits = [p for p in desk.harness.posts if p.message_id == posted[-1].message_id and p.edited]
    assert edits, "the pin was not edited"
    winner = loaded.names[game.white_id]
    assert table_rows(edits[-1].embeds[0]["description"])[0][:2] == ("1", winner)

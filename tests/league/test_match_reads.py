"""`/match list`, `/match show` and the reply after a result as services on a real SQLite
file: filters by club, round and the caller's clubs; a match's forfeits (CL-15) and how a
result counts with both clubs' standings; reads write nothing; another guild's season or
match is not found."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.formats.boards_csv import parse_boards_csv
from bot.kernel.actor import Actor
from bot.kernel.config import ClDefaults
from bot.league.matches import results
from bot.league.matches import service as matches
from bot.league.matches.card import match_card, result_card
from bot.league.matches.listing import season_matches
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.league.store import StandingsCache
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import MatchRecord
from tests.support.services_world import ADMIN_A, ADMIN_B, ARBITER, HQ, PLAYER_USER, dump, refused

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD, OTHER_GUILD = 10, 11
DEFAULTS = ClDefaults(clubs_per_division=4, divisions=["Premier"], min_players=[1])


async def _spring(store: GuildStore) -> list[MatchRecord]:
    """Clubs A (ADMIN_A), B (ADMIN_B) and C in Spring's Premier, scheduled; its matches."""
    async with store.change(None, "test.clubs", "clubs") as uow:
        for name, admins in (("A", ADMIN_A), ("B", ADMIN_B), ("C", ())):
            club = await uow.clubs.register(name, name.lower(), status="approved")
            for admin in admins:
                await uow.club_admins.add(club.id, admin)
    created = await seasons.create_season(store, HQ, DEFAULTS, "Spring", dt.date(2024, 3, 1))
    for name in ("A", "B", "C"):
        await seasons.add_club(store, HQ, "Spring", "Premier", name)
    await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    async with store.read() as view:
        return await view.matches.of_season(created.season.id)


async def test_match_list_filters_and_orders(database: Database) -> None:
    """Every match in start order; one club's, one round's, the caller's clubs' (none for a
    user who administers no club); nothing written; another guild's season not found."""
    store = GuildStore(database, GUILD)
    stored = await _spring(store)
    names = {m.id: (m.home_club_id, m.away_club_id) for m in stored}
    async with store.read() as view:
        club_a = await view.clubs.find("A")
    assert club_a is not None
    before = await dump(database)

    every = await season_matches(store, "Spring")
    assert every.season.name == "Spring"
    assert [m.id for m in every.matches] == [
        m.id for m in sorted(stored, key=lambda m: (m.start, m.key))
    ]
    assert len(every.matches) == 3  # CL-12: a single round robin of three clubs
    of_a = await season_matches(store, "Spring", club="a")
    assert {m.id for m in of_a.matches} == {i for i, pair in names.items() if club_a.id in pair}
    assert all("A" in (m.home, m.away) for m in of_a.matches) and len(of_a.matches) == 2
    first = await season_matches(store, "Spring", round=1)
    assert {m.id for m in first.matches} == {m.id for m in stored if m.round == 1}
    mine = await season_matches(store, "Spring", admin=ADMIN_A[1])
    assert [m.id for m in mine.matches] == [m.id for m in of_a.matches]
    assert (await season_matches(store, "Spring", admin=PLAYER_USER)).matches == ()
    both = await season_matches(store, "Spring", club="B", admin=ADMIN_A[0])
    assert [(m.home, m.away) for m in both.matches] in ([("A", "B")], [("B", "A")])
    assert await dump(database) == before

    other = GuildStore(database, OTHER_GUILD)
    await refused(database, season_matches(other, "Spring"), "no season")
    await refused(database, season_matches(store, "Spring", club="Nobody"), "no club")


async def test_match_card_lists_only_this_matchs_forfeits(
    database: Database, clock: VirtualClock
) -> None:
    """CL-15: once the challenge deadline passed with no challenge, both clubs of the match
    forfeit it; the card lists those of this match only. Another guild's match, or this
    match named with a season it is not in, is refused."""
    store = GuildStore(database, GUILD)
    stored = await _spring(store)
    first = min(stored, key=lambda m: (m.start, m.key))
    standings = StandingsCache()
    card = await match_card(store, standings, first.id)
    assert card.line.id == first.id and card.boards == () and card.forfeits == ()

    await clock.advance_to(max(m.start for m in stored) + dt.timedelta(days=1))
    card = await match_card(store, standings, first.id, "Spring")
    assert {(f.club, f.rule, f.match) for f in card.forfeits} == {
        (card.line.home, "CL-15", first.key),
        (card.line.away, "CL-15", first.key),
    }

    other = GuildStore(database, OTHER_GUILD)
    await refused(database, match_card(other, standings, first.id), "no match")
    await seasons.create_season(store, HQ, DEFAULTS, "Autumn", dt.date(2024, 9, 1))
    await refused(database, match_card(store, standings, first.id, "Autumn"))


async def test_result_card_counts_the_result_and_ranks_both_clubs(
    database: Database, clock: VirtualClock
) -> None:
    """After a result: the score as recorded and as counted, no adjusted board, and both
    clubs' standings in the division (the home club, who won, ranked above the away club)."""
    store = GuildStore(database, GUILD)
    stored = await _spring(store)
    async with store.read() as view:
        ids = {(await view.clubs.find(n)).id for n in ("A", "B")}  # type: ignore[union-attr]
    match = next(m for m in stored if {m.home_club_id, m.away_club_id} == ids)
    url = "https://www.chess.com/club/match/12803"
    await matches.record_challenge_issued(store, Actor(ADMIN_A[0]), match.id, url)
    await matches.record_challenge_accepted(store, Actor(ADMIN_B[0]), match.id)  # CL-15
    finished = match.start + dt.timedelta(hours=1)
    await clock.advance_to(finished)
    games = DEFAULTS.games_per_board
    event = await results.enter_manual_result(
        store, ARBITER, match.id, parse_boards_csv(f"1,a1,b1,{games},0"), finished
    )
    before = await dump(database)
    card = await result_card(store, StandingsCache(), event.match)
    assert await dump(database) == before
    halves = (2 * games, 0)  # one board won in full, in half-points
    assert card.score == halves and card.counted == halves and card.adjusted == ()
    assert [club for club, _ in card.ranks] == [card.line.home, card.line.away]
    (_, home), (_, away) = card.ranks
    assert home is not None and away is not None and home.won == 1 and away.lost >= 1
    assert home.rank is not None and away.rank is not None and home.rank < away.rank

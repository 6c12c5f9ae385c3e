"""The demo season as a replay script, as docs/replay.md describes.

It sets up the guild and its members, registers and approves clubs, and creates and schedules the
season. Then come every round's challenges, start facts and results on the clock, with the world's
rule-testing events.

Match ids are the database's. A fresh database numbers the fixtures 1, 2 and so on in the order
`arbiter`'s scheduler stores them, division by division in CL-12 Berger order. That is the order
`core.league.schedule.division_schedule` gives here.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.offline.demo.chesscom_payloads import (
    Board,
    ListedMatch,
    club_matches,
    club_profile,
    player_profile,
    player_stats,
    team_match,
)
from bot.offline.demo.world import DIVISIONS, Club, Player, World
from core.league.schedule import division_schedule
from core.league.season import Match

START = dt.datetime(2017, 8, 1, 9, tzinfo=dt.UTC)
GUILD = "CL League"
WEB_SLUG = "demo-league"
"""The league demo's guild on the public web site, as its HQ turns it on with `/setup web`."""
ROLES = ["HQ", "Directors", "Arbiters"]
CHANNELS = ["announcements", "directors", "results"]
NOTICE = dt.timedelta(hours=120)
"""CL-15: the challenge deadline before the start, the config default."""
CHESSCOM_BASE = 7_000_000
"""chess.com team match ids of the demo: this plus the season match id."""
LISTED = "listed"
"""Key of a club match list placeholder in the timeline, made in clock order."""
POLL_MINUTES = 24 * 60
"""The slowest polling the config allows: a season of polls stays quick to replay."""


@dataclass
class Planned:
    """A fixture with its database id, its clubs and its chess.com team match id."""

    number: int
    fixture: Match
    home: Club
    away: Club

    @property
    def chesscom(self) -> int:
        return CHESSCOM_BASE + self.number

    @property
    def deadline(self) -> dt.datetime:
        return self.fixture.start - NOTICE


@dataclass
class DemoScript:
    """The script's lines, and the step numbers where each stage begins, for progress."""

    lines: list[str]
    stages: dict[int, str]
    fixtures: list[Planned]
    steps: int = 0
    waiting: list[str] = field(default_factory=list)
    """League commands of docs/league-in-discord.md that the bot lacks, and how the script does
    without each.
    """

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def fixtures(world: World, clubs_per_division: int) -> list[Planned]:
    """Every fixture of the season, numbered as the database will number them."""
    calendar = [world.first_round + dt.timedelta(days=7 * k) for k in range(clubs_per_division)]
    planned: list[Planned] = []
    for index, (name, _, _) in enumerate(DIVISIONS):
        clubs = world.division(index)
        schedule = division_schedule(name, [c.name for c in clubs], calendar)
        for fixture in schedule.fixtures:
            planned.append(
                Planned(
                    len(planned) + 1, fixture, world.club(fixture.home), world.club(fixture.away)
                )
            )
    return planned


@dataclass(order=True)
class _Timed:
    at: dt.datetime
    order: int
    steps: list[dict[str, Any]] = field(compare=False)
    stage: str | None = field(default=None, compare=False)


def promotion_places(clubs_per_division: int) -> int:
    """CL-8's places for a demo of `clubs_per_division` clubs.

    The regulation gives 3 for 12 or 13 clubs. A smaller demo scales it down, 1 for 4–7 clubs and 2
    for 8–11, so a club in the middle of a 4-club table is not relegated.
    """
    return max(1, min(3, clubs_per_division // 4))


class _Writer:
    """Builds the timeline, then the lines."""

    def __init__(
        self, world: World, clubs_per_division: int, commands: frozenset[str] | None
    ) -> None:
        self.world = world
        self.places = promotion_places(clubs_per_division)
        self.commands = commands
        self.waiting: list[str] = []
        self.rng = random.Random(world.seed * 7919 + 1)
        self.planned = fixtures(world, clubs_per_division)
        self.rounds = max(p.fixture.round for p in self.planned)
        self.timeline: list[_Timed] = []
        self.counter = 0
        self.lists: dict[str, dict[int, ListedMatch]] = {c.url_id: {} for c in world.clubs}
        self.events = world.events
        self.short: dict[str, int] = {}
        self.unpaired: dict[int, dict[str, list[Player]]] = {}
        self.guest_club = self.guests()

    def has(self, command: str) -> bool:
        """Whether the bot has this slash command. None assumes every league command."""
        return self.commands is None or command in self.commands

    def at(
        self, instant: dt.datetime, steps: list[dict[str, Any]], stage: str | None = None
    ) -> None:
        self.counter += 1
        self.timeline.append(_Timed(instant, self.counter, steps, stage))

    # -- chess.com ---------------------------------------------------------------------------

    @staticmethod
    def serve(path: str, payload: Any) -> dict[str, Any]:
        return {"chesscom": {"path": f"/pub/{path}", "json": payload}}

    def listed(self, club: Club, item: ListedMatch) -> dict[str, Any]:
        """A placeholder for the club's match list with `item` in its state: the list is
        made when the lines are written, in clock order, from every change up to then."""
        return {LISTED: (club, item)}

    def resolve(self, step: dict[str, Any]) -> dict[str, Any]:
        if LISTED not in step:
            return step
        club, item = step[LISTED]
        self.lists[club.url_id][item.match_id] = item
        ordered = sorted(self.lists[club.url_id].values(), key=lambda m: m.match_id)
        return self.serve(f"club/{club.url_id}/matches", club_matches(ordered))

    # -- the season --------------------------------------------------------------------------

    def opening(self) -> None:
        w = self.world
        steps: list[dict[str, Any]] = [
            {
                "as": w.hq,
                "command": "setup set",
                "options": {
                    "hq_role": "&HQ",
                    "director_role": "&Directors",
                    "arbiter_role": "&Arbiters",
                    "announcements": "#announcements",
                    "directors_channel": "#directors",
                },
            },
            {"expect": {"error": None}},
        ]
        if self.has("setup web"):
            steps += [
                {"as": w.hq, "command": "setup web", "options": {"slug": WEB_SLUG}},
                {"expect": {"contains": f"/g/{WEB_SLUG}/"}},
            ]
        for number, club in enumerate(w.clubs):
            steps.append(self.serve(f"club/{club.url_id}", club_profile(club)))
            steps.append(self.serve(f"club/{club.url_id}/matches", club_matches([])))
            for offset, player in enumerate(club.players):
                steps.append(
                    self.serve(
                        f"player/{player.username}", player_profile(player, 100 * number + offset)
                    )
                )
                steps.append(self.serve(f"player/{player.username}/stats", player_stats(player)))
        self.at(START, steps, "set-up and chess.com accounts")
        registrations: list[dict[str, Any]] = []
        for club in w.clubs:
            registrations += [
                {
                    "as": club.admins[0],
                    "command": "club register",
                    "options": {"chesscom_club": club.url_id, "admin2": f"@{club.admins[1]}"},
                },
                {"expect": {"error": None}},
            ]
        self.at(START + dt.timedelta(days=1), registrations, f"{len(w.clubs)} clubs register")
        approvals: list[dict[str, Any]] = []
        for club in w.clubs:
            approvals += [
                {"as": w.hq, "command": "club approve", "options": {"club": club.name}},
                {"expect": {"error": None}},
            ]
        self.at(START + dt.timedelta(days=2), approvals, "HQ approves the clubs")
        season: list[dict[str, Any]] = [
            {
                "as": w.hq,
                "command": "season create",
                "options": {"name": w.season, "first_round": w.first_round.isoformat()},
            },
            {"expect": {"error": None}},
        ]
        for index, (division, _, _) in enumerate(DIVISIONS):
            for club in w.division(index):
                season += [
                    {
                        "as": w.hq,
                        "command": "season club-add",
                        "options": {"season": w.season, "division": division, "club": club.name},
                    },
                    {"expect": {"error": None}},
                ]
        season += [
            {"as": w.hq, "command": "season schedule", "options": {"season": w.season}},
            {"expect": {"contains": "Confirm"}},
            {"as": w.hq, "click": {"message": "last", "button": "Confirm"}},
            {"expect": {"error": None}},
        ]
        self.at(START + dt.timedelta(days=3), season, "the season is created and scheduled")

    def challenge(self, p: Planned) -> None:
        """CL-15: the home club issues and the other accepts, by command.

        The bot's polling of the clubs' match lists may see it first. The late and unaccepted events
        are a challenge issued after the deadline, and one issued with a chess.com match that never
        appears.
        """
        e = self.events
        rnd = p.fixture.round
        unaccepted = self.is_event(p, e.unaccepted)
        late = self.is_event(p, e.late_challenge)
        issuer, other = p.home, p.away
        if unaccepted and e.unaccepted[0] == p.home.name:
            issuer, other = p.away, p.home
        issue_at = p.deadline + (dt.timedelta(hours=6) if late else -dt.timedelta(hours=72))
        boards = self.boards(p, issuer)
        name = f"{GUILD} R{rnd}: {issuer.name} vs {other.name}"
        registration = team_match(
            p.chesscom,
            name,
            issuer,
            other,
            boards,
            "registration",
            p.fixture.start,
            self.unpaired.get(p.number, {}),
        )
        command = {
            "as": issuer.admins[0],
            "command": "match challenge",
            "options": {"match": str(p.number), "chesscom_match": str(p.chesscom)},
        }
        if unaccepted:
            self.at(issue_at, [command])
            return
        steps = [
            self.serve(f"match/{p.chesscom}", registration),
            self.listed(
                issuer, ListedMatch(p.chesscom, name, other, p.fixture.start, "registered")
            ),
            self.listed(
                other, ListedMatch(p.chesscom, name, issuer, p.fixture.start, "registered")
            ),
            command,
        ]
        self.at(issue_at, steps)
        accept = {
            "as": other.admins[0],
            "command": "match accept",
            "options": {"match": str(p.number)},
        }
        self.at(issue_at + dt.timedelta(hours=1 if late else 12), [accept])
        if not late:
            self.play(p, issuer, other, boards, name)

    def boards(self, p: Planned, issuer: Club) -> list[Board]:
        """The boards of the match, issuer's player first.

        There are the division's minimum and a few more, fewer for the CL-20 event, with the CL-18
        and CL-19 players where they play.
        """
        minimum = DIVISIONS[p.home.division][1]
        count = min(minimum + self.rng.randint(0, 5), len(p.home.players), len(p.away.players))
        other = p.away if issuer is p.home else p.home
        short = self.short_club(p)
        if short is not None:
            count = minimum - 2
        mine = self.lineup(issuer, count, p)
        theirs = self.lineup(other, count, p)
        if short is not None:
            full = other if short == issuer.name else issuer
            listed = mine if full is issuer else theirs
            self.unpaired[p.number] = {
                full.url_id: [x for x in full.players if x not in listed][:4]
            }
        result = []
        for a, b in zip(mine, theirs, strict=True):
            expected = 1 / (1 + 10 ** ((b.rating - a.rating) / 400))
            scores = tuple(self.game(expected) for _ in range(2))
            result.append(Board(a, b, (scores[0], scores[1])))
        return result

    def event_match(self, club: str, rnd: int) -> int:
        """The number of `club`'s match in round `rnd`, or in the next round it plays, else its
        last.

        With an odd number of clubs each club sits one round out.
        """
        played = [p for p in self.planned if club in (p.home.name, p.away.name)]
        later = [p for p in played if p.fixture.round >= rnd]
        return (later[0] if later else played[-1]).number

    def is_event(self, p: Planned, event: tuple[str, int]) -> bool:
        """Whether `p` is the match that an event's club and round fall on."""
        return p.number == self.event_match(*event)

    def guests(self) -> dict[int, str]:
        """CL-18: maps each round to the club the multi-team player plays for that round.

        It is a club of their division, not their own, whose match that round is not against their
        own.
        """
        home, _, rounds = self.events.multi_team
        chosen: dict[int, str] = {}
        for rnd in rounds:
            for p in self.planned:
                if p.fixture.round != rnd or home in (p.home.name, p.away.name):
                    continue
                if p.home.division != self.world.club(home).division:
                    continue
                if p.home.name not in chosen.values():
                    chosen[rnd] = p.home.name
                    break
        return chosen

    def short_club(self, p: Planned) -> str | None:
        """CL-20: the club fielding too few players in this match, if any.

        That is the event's club in its round, and by CL-DQ the disqualified club in its first three
        matches.
        """
        e = self.events
        clubs = (p.home.name, p.away.name)
        if self.is_event(p, e.too_few):
            return e.too_few[0]
        if e.disqualified in clubs and self.short.get(e.disqualified, 0) < 3:
            self.short[e.disqualified] = self.short.get(e.disqualified, 0) + 1
            return e.disqualified
        return None

    def lineup(self, club: Club, count: int, p: Planned) -> list[Player]:
        players = sorted(club.players[: count + 2], key=lambda _: self.rng.random())[:count]
        home, player, _ = self.events.multi_team
        if self.guest_club.get(p.fixture.round) == club.name or club.name == home:
            guest = next(x for x in self.world.club(home).players if x.username == player)
            if guest not in players:
                players[-1] = guest
        closed_club, closed_player, closed_round = self.events.closed
        if club.name == closed_club and p.fixture.round >= closed_round:
            account = next(x for x in club.players if x.username == closed_player)
            account.status = "closed"
            if account not in players:
                players[0] = account
        return sorted(players, key=lambda x: (-x.rating, x.username))

    def game(self, expected: float) -> float:
        draw = 0.18
        roll = self.rng.random()
        if roll < draw:
            return 0.5
        return 1.0 if (roll - draw) / (1 - draw) < expected else 0.0

    def play(self, p: Planned, issuer: Club, other: Club, boards: list[Board], name: str) -> None:
        e = self.events
        start = p.fixture.start
        steps = []
        for club in (p.home, p.away):
            members = average = None
            if self.is_event(p, e.over_members) and club.name == e.over_members[0]:
                members = 412
            if self.is_event(p, e.over_rating) and club.name == e.over_rating[0]:
                average = 1712
            steps.append(
                self.serve(
                    f"club/{club.url_id}", club_profile(club, members=members, average=average)
                )
            )
        running = team_match(
            p.chesscom,
            name,
            issuer,
            other,
            boards,
            "in_progress",
            start,
            self.unpaired.get(p.number, {}),
        )
        steps += [
            self.serve(f"match/{p.chesscom}", running),
            self.listed(issuer, ListedMatch(p.chesscom, name, other, start, "in_progress")),
            self.listed(other, ListedMatch(p.chesscom, name, issuer, start, "in_progress")),
        ]
        closed_club, closed_player, closed_round = e.closed
        if p.number == self.event_match(closed_club, closed_round):
            account = next(
                x for x in self.world.club(closed_club).players if x.username == closed_player
            )
            steps.append(
                self.serve(
                    f"player/{account.username}", player_profile(account, 0) | {"status": "closed"}
                )
            )
        self.at(start - dt.timedelta(hours=1), steps)
        end = start + dt.timedelta(days=5, hours=self.rng.randint(0, 20))
        finished = team_match(
            p.chesscom,
            name,
            issuer,
            other,
            boards,
            "finished",
            start,
            self.unpaired.get(p.number, {}),
            end,
        )
        mine = sum(sum(b.home_scores) for b in boards)
        result = "win" if mine > len(boards) else "lose" if mine < len(boards) else "draw"
        flipped = {"win": "lose", "lose": "win", "draw": "draw"}[result]
        steps = [
            self.serve(f"match/{p.chesscom}", finished),
            self.listed(issuer, ListedMatch(p.chesscom, name, other, start, "finished", result)),
            self.listed(other, ListedMatch(p.chesscom, name, issuer, start, "finished", flipped)),
        ]
        if p.fixture.round == 1:
            steps.append(
                {
                    "as": issuer.admins[0],
                    "command": "match report",
                    "options": {"match": str(p.number)},
                }
            )
            steps.append({"expect": {"error": None}})
        self.at(end, steps)

    def removal(self) -> None:
        """CL-21: a club removes a player for an `other` reason.

        The bot cannot verify the reason and opens a motion, which the directors pass, so the club
        forfeits its next match.
        """
        club_name, player, rnd = self.events.removal
        club = self.world.club(club_name)
        p = self.planned[self.event_match(club_name, rnd) - 1]
        when = p.fixture.start - dt.timedelta(days=2)  # the match is still to be played
        steps: list[dict[str, Any]] = [
            {
                "as": club.admins[0],
                "command": "roster remove",
                "options": {
                    "club": club.name,
                    "player": player,
                    "reason": "other",
                    "note": "inactive",
                },
            },
            {"expect": {"error": None}},
        ]
        if not self.has("roster remove"):
            self.waiting.append(
                "/roster remove: the CL-21 removal is put to the directors with /vote open"
            )
            steps = [
                {
                    "as": self.world.directors[0],
                    "command": "vote open",
                    "options": {
                        "kind": "forfeit",
                        "match": str(p.number),
                        "club": club.name,
                        "reason": f"CL-21: {club.name} removed {player} from its roster"
                        " for a reason the bot cannot verify",
                    },
                },
                {"expect": {"error": None}},
            ]
        for director in self.world.directors:
            steps.append({"as": director, "click": {"message": "last", "button": "Yes"}})
        self.at(when, steps, f"CL-21: {club.name} removes {player}; the directors vote")

    def closing(self) -> None:
        last = max(p.fixture.start for p in self.planned)
        w = self.world
        steps: list[dict[str, Any]] = [
            {"as": w.hq, "command": "season promotion", "options": {"season": w.season}},
        ]
        if self.has("standings"):
            steps.insert(0, {"as": w.hq, "command": "standings", "options": {"season": w.season}})
        else:
            self.waiting.append("/standings: the final standings are not asked for in Discord")
        self.at(last + dt.timedelta(days=14), steps, "the final standings")

    def build(self) -> DemoScript:
        self.opening()
        for p in self.planned:
            self.challenge(p)
        self.removal()
        for rnd in range(1, self.rounds + 1):
            first = min(p.deadline for p in self.planned if p.fixture.round == rnd)
            self.at(first - dt.timedelta(hours=96), [], f"round {rnd}/{self.rounds}")
        self.closing()
        return self.lines()

    def lines(self) -> DemoScript:
        w = self.world
        members = [{"name": w.hq, "roles": ["HQ"], "manage_guild": True}]
        members += [{"name": d, "roles": ["Directors"]} for d in w.directors]
        members.append({"name": w.arbiter, "roles": ["Arbiters"]})
        for club in w.clubs:
            members += [{"name": admin} for admin in club.admins]
        header = {
            "replay": 1,
            "start": START.isoformat().replace("+00:00", "Z"),
            "guild": {"name": GUILD, "roles": ROLES, "channels": CHANNELS},
            "members": members,
            "config": {
                "chesscom": {"poll_minutes": POLL_MINUTES},
                "rules": {"cl": {"promoted": self.places, "relegated": self.places}},
            },
        }
        lines = [
            f"// arbiter demo --seed {w.seed}: a whole CL season, generated; replay it with"
            " `arbiter replay` (the JSON payloads are inline).",
            json.dumps(header),
        ]
        stages: dict[int, str] = {}
        clock = START
        number = 0
        for timed in sorted(self.timeline):
            if timed.stage is not None:
                stages[number + 1] = timed.stage
                lines.append(f"// {timed.stage}")
            if timed.at > clock:
                clock = timed.at
                number += 1
                lines.append(json.dumps({"at": clock.isoformat().replace("+00:00", "Z")}))
            for step in timed.steps:
                number += 1
                lines.append(json.dumps(self.resolve(step)))
        for note in self.waiting:
            lines.insert(1, f"// waiting for {note}")
        return DemoScript(lines, stages, self.planned, number, self.waiting)


def season_script(
    world: World, clubs_per_division: int = 13, commands: frozenset[str] | None = None
) -> DemoScript:
    """The replay script of the whole season of `world`, for a bot with these slash `commands`.

    None means every league command. A missing command is played another way or left out, and named
    in the script's `waiting`.
    """
    return _Writer(world, clubs_per_division, commands).build()


def chunks(script: DemoScript) -> Iterator[str]:
    yield from script.lines

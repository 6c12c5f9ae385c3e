"""The demo's league, generated from a seed.

It has three divisions of clubs with chess.com-like accounts, and the rule-testing events the season
will play out. It is pure and deterministic: the same seed gives the same world, through
`random.Random(seed)` and nothing else random.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field

DIVISIONS = (("Premier Division", 15, 1560), ("Division One", 11, 1400), ("Division Two", 5, 1230))
"""Name, minimum players by CL-9..11 and the clubs' typical daily rating, in CL-7 order."""

FOOTBALL = (
    "Arsenal", "Chelsea", "Liverpool", "Everton", "Tottenham", "Leeds United", "Aston Villa",
    "Newcastle", "West Ham", "Celtic", "Rangers", "Ajax", "Feyenoord", "PSV", "Benfica",
    "Porto", "Sporting", "Juventus", "Inter", "Milan", "Roma", "Lazio", "Napoli", "Barcelona",
    "Real Madrid", "Atletico", "Sevilla", "Valencia", "Bayern", "Dortmund", "Schalke",
    "Hamburg", "PSG", "Marseille", "Lyon", "Galatasaray", "Fenerbahce", "Boca Juniors",
    "River Plate", "Flamengo", "Santos", "Anderlecht", "Club Brugge", "Olympiacos",
)  # fmt: skip
"""Football clubs whose supporters' chess.com clubs play the demo league, by CL-2..4."""

SYLLABLES = (
    "ka", "lo", "mir", "an", "tek", "zo", "ri", "vel", "dan", "no", "sha", "pe", "gru", "xi",
    "mo", "bel", "tor", "fi", "ul", "ra", "kin", "go", "sta", "ve", "li", "qu", "dor", "ne",
)  # fmt: skip
SUFFIXES = ("", "_chess", "64", "_knight", "_rook", "1990", "_gm", "77", "_fan", "2004")


def slug(name: str) -> str:
    """A chess.com club url-id for a display name: `Real Madrid Fans` → `real-madrid-fans`."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@dataclass
class Player:
    """A chess.com account playing for a club: its rating, timeout ratio in percent and account
    status.
    """

    username: str
    rating: int
    timeout_percent: float = 0.0
    status: str = "basic"


@dataclass
class Club:
    """A fan club: display name, url-id, chess.com club id, size, players and its two Discord
    admins.

    The admins are member names of the script.
    """

    name: str
    url_id: str
    chesscom_id: int
    division: int
    members_count: int
    players: list[Player]
    admins: tuple[str, str]

    @property
    def average_rating(self) -> int:
        """The profile's average daily rating: the mean of its players' ratings."""
        return round(sum(p.rating for p in self.players) / len(self.players))


@dataclass(frozen=True)
class Events:
    """Which clubs, rounds and players the rule-testing events fall on, chosen from the seed.

    Clubs go by name and rounds count from 1.
    """

    late_challenge: tuple[str, int]
    """CL-15: this club issues its challenge after the deadline in that round."""
    unaccepted: tuple[str, int]
    """CL-15: this club never accepts the challenge it receives in that round."""
    over_members: tuple[str, int]
    """CL-5: over the member limit at that round's start."""
    over_rating: tuple[str, int]
    """CL-6: over the average rating limit at that round's start."""
    too_few: tuple[str, int]
    """CL-20: fields fewer players than its division's minimum in that round."""
    multi_team: tuple[str, str, tuple[int, int]]
    """CL-18: the player's home club, the player and two rounds played for other clubs."""
    closed: tuple[str, str, int]
    """CL-19: the club, the player whose account is closed and the round it is seen closed."""
    removal: tuple[str, str, int]
    """CL-21: the club, the player removed for `other` reasons and the round the motion forfeits."""
    disqualified: str
    """CL-DQ: this Division Two club starts none of its first three matches, three CL-15
    breaches.
    """


@dataclass
class World:
    """The whole generated league."""

    seed: int
    season: str
    first_round: dt.date
    clubs: list[Club]
    events: Events
    directors: tuple[str, ...] = ("dora", "dmitri", "diane")
    hq: str = "hq"
    arbiter: str = "arbi"
    rng_state: int = field(default=0, repr=False)

    def division(self, index: int) -> list[Club]:
        """The clubs of division `index` in the order they were added. Index 0 is the Premier
        division.
        """
        return [club for club in self.clubs if club.division == index]

    def club(self, name: str) -> Club:
        """A club by display name."""
        return next(club for club in self.clubs if club.name == name)


def _username(rng: random.Random, taken: set[str]) -> str:
    while True:
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
        name = (name + rng.choice(SUFFIXES)).strip("_")
        if name not in taken and len(name) >= 3:
            taken.add(name)
            return name


def _players(rng: random.Random, mean: int, count: int, taken: set[str]) -> list[Player]:
    players = []
    for _ in range(count):
        rating = max(800, min(2300, round(rng.gauss(mean, 150))))
        timeouts = round(rng.choice((0, 0, 0, 0, 1, 2, 4, 8)) + rng.random(), 1)
        status = rng.choice(("basic", "basic", "premium"))
        players.append(Player(_username(rng, taken), rating, timeouts, status))
    players.sort(key=lambda p: (-p.rating, p.username))
    return players


def generate(seed: int, clubs_per_division: int = 13) -> World:
    """The league of `seed`: `clubs_per_division` clubs in each of the three divisions, and where
    the events fall.

    CL-12 allows 13 clubs. Each club has about 25 players.
    """
    rng = random.Random(seed)
    names = rng.sample(FOOTBALL, 3 * clubs_per_division)
    taken: set[str] = set()
    clubs: list[Club] = []
    for index, football in enumerate(names):
        division = index // clubs_per_division
        _, minimum, mean = DIVISIONS[division]
        name = f"{football} Fans"
        url_id = slug(name)
        count = rng.randint(max(minimum + 6, 20), 28)
        clubs.append(
            Club(
                name,
                url_id,
                100_000 + 37 * index + rng.randint(0, 30),
                division,
                rng.randint(40, 360),
                _players(rng, mean, count, taken),
                (f"{url_id}-a", f"{url_id}-b"),
            )
        )
    rounds = clubs_per_division if clubs_per_division % 2 else clubs_per_division - 1
    premier = [c.name for c in clubs if c.division == 0]
    one = [c.name for c in clubs if c.division == 1]
    two = [c.name for c in clubs if c.division == 2]
    late_rounds = list(range(min(4, rounds), rounds + 1))
    rng.shuffle(late_rounds)
    multi_home = rng.choice(one)
    multi_player = clubs[[c.name for c in clubs].index(multi_home)].players[-1].username
    closed_club = rng.choice(premier)
    removal_club = rng.choice([c for c in two[1:]])
    removal_player = next(c for c in clubs if c.name == removal_club).players[-1].username
    events = Events(
        late_challenge=(rng.choice(premier), late_rounds[0 % len(late_rounds)]),
        unaccepted=(rng.choice(one), late_rounds[1 % len(late_rounds)]),
        over_members=(rng.choice(premier), late_rounds[2 % len(late_rounds)]),
        over_rating=(rng.choice(one), late_rounds[3 % len(late_rounds)]),
        too_few=(rng.choice(one), late_rounds[4 % len(late_rounds)]),
        multi_team=(multi_home, multi_player, (2, 3)),
        closed=(
            closed_club,
            next(c for c in clubs if c.name == closed_club).players[0].username,
            late_rounds[5 % len(late_rounds)],
        ),
        removal=(removal_club, removal_player, late_rounds[6 % len(late_rounds)]),
        disqualified=two[0],
    )
    return World(seed, f"Demo League {seed}", dt.date(2017, 9, 5), clubs, events)

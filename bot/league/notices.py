"""Direct messages to the admins of the clubs a league change concerns, in that change's unit of
work.

The channel posts stay the public record. These add a direct message for each admin who chose
the kind with `/notify`, through `bot.runtime.notify.notify`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.kernel.notifications import Kind
from bot.league.matches.jobs import deadline_of
from bot.rendering.league import notices as render
from bot.rendering.league.match_buttons import dm_match_buttons
from bot.runtime.notify import notify
from storage.guild import LeagueUnit
from storage.league.matches import MatchRecord


class ClubAdmins:
    """The admins of clubs and the announcements channel, each read once in one unit of work."""

    def __init__(self, uow: LeagueUnit) -> None:
        self._uow = uow
        self._admins: dict[int | str, list[int]] = {}
        self._channel: int | None = None

    async def channel(self) -> int:
        """The announcements channel, where a direct message's jump link leads, or 0 if none."""
        if self._channel is None:
            self._channel = await public_channel(self._uow)
        return self._channel

    async def of(self, club: int | str) -> list[int]:
        """The user ids of the admins of `club`, named by its id or its name."""
        if club not in self._admins:
            self._admins[club] = await self._uow.club_admins.admins_of(club)
        return self._admins[club]

    async def of_all(self, clubs: Iterable[int | str]) -> list[int]:
        """The admins of every club of `clubs`, each once."""
        users: list[int] = []
        for club in clubs:
            users.extend(await self.of(club))
        return list(dict.fromkeys(users))


async def public_channel(uow: LeagueUnit) -> int:
    """The announcements channel, where a direct message's jump link leads, or 0 if none."""
    settings = await uow.settings.get()
    return settings.announcements_channel_id or 0


async def tell_admins(
    uow: LeagueUnit,
    admins: ClubAdmins,
    kind: Kind,
    clubs: Iterable[int | str],
    content: str,
    *,
    channel_id: int | None = None,
    components: Sequence[Mapping[str, Any]] | None = None,
) -> list[int]:
    """Sends `content` to the admins of `clubs` who want `kind`, and returns them.

    `channel_id` is the channel of the public record, else the announcements channel.
    """
    users = await admins.of_all(clubs)
    if not users:
        return []
    channel = await admins.channel() if channel_id is None else channel_id
    return await notify(
        uow, kind, users, channel_id=channel, content=content, components=components
    )


async def challenge_issued(
    uow: LeagueUnit, match: MatchRecord, issuer: int, admins: ClubAdmins | None = None
) -> list[int]:
    """CL-15: tells the admins of the club that must accept `match`'s challenge, with the button
    that accepts it."""
    season = await uow.seasons.get(match.season_id)
    home, away = await uow.clubs.pair(match.home_club_id, match.away_club_id)
    if season is None or home is None or away is None:
        return []
    other = away if issuer == home.id else home
    deadline = deadline_of(match.start, season.rules.challenge_deadline_hours, match.deadline_at)
    by = home.name if issuer == home.id else away.name
    text = render.challenge_issued(by, home.name, away.name, match.id, deadline)
    channel = other.reminder_channel_id or await public_channel(uow)
    return await tell_admins(
        uow,
        admins or ClubAdmins(uow),
        Kind.CHALLENGE,
        [other.id],
        text,
        channel_id=channel,
        components=dm_match_buttons(uow.guild_id, match.id, "accept"),
    )

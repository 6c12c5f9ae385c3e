"""Which guilds show their competitions on the public web site, and under which slug.

A guild is shown only after its HQ opts in with `/setup web`. The slug is the guild's part of
every address of the site, such as `/g/chess-club/`.
"""

from __future__ import annotations

from storage.engine.codecs import to_text
from storage.engine.database import Database
from storage.engine.scope import ReadScope, WriteScope


class WebSiteReader:
    """Reads whether exactly one guild is published, and its slug."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def slug(self) -> str | None:
        """This guild's slug, or None while its site is off."""
        row = await self._scope.fetchone(
            "SELECT slug FROM web_sites WHERE guild_id = ?", (self._scope.guild_id,)
        )
        return None if row is None else str(row["slug"])

    async def taken(self, slug: str) -> bool:
        """Whether another guild publishes under `slug`."""
        row = await self._scope.fetchone(
            "SELECT guild_id FROM web_sites WHERE slug = ? AND guild_id <> ?",
            (slug, self._scope.guild_id),
        )
        return row is not None


class WebSiteRepository(WebSiteReader):
    """Publishes or withdraws one guild's site inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def publish(self, slug: str) -> None:
        """Shows the guild under `slug`, replacing its slug if it had one."""
        scope = self._write
        await scope.execute(
            "INSERT INTO web_sites (guild_id, slug, published_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET slug = excluded.slug,"
            " published_at = excluded.published_at",
            (scope.guild_id, slug, to_text(scope.now)),
        )
        scope.record("web_site", {"slug": slug})

    async def withdraw(self) -> bool:
        """Hides the guild's site at once. False if it was not shown."""
        scope = self._write
        cursor = await scope.execute("DELETE FROM web_sites WHERE guild_id = ?", (scope.guild_id,))
        withdrawn = cursor.rowcount > 0
        scope.record("web_site", {"withdrawn": withdrawn})
        return withdrawn


async def published_site(database: Database, slug: str) -> tuple[int, int] | None:
    """The guild shown under `slug` and the id of its latest audit row, which grows with every
    change to the guild, or None. Every page reads it, in one query, not bound to a guild."""
    rows = await database.fetch(
        "SELECT guild_id, (SELECT MAX(id) FROM audit WHERE audit.guild_id = web_sites.guild_id)"
        " AS last FROM web_sites WHERE slug = ?",
        (slug,),
    )
    return None if not rows else (int(rows[0]["guild_id"]), int(rows[0]["last"] or 0))


async def published_guilds(database: Database) -> list[tuple[str, int]]:
    """Every published guild as (slug, guild id), by slug."""
    async with database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT slug, guild_id FROM web_sites ORDER BY slug", ()
        )
    return [(str(row["slug"]), int(row["guild_id"])) for row in rows]

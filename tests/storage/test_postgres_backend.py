"""What only PostgreSQL has, beside the tests every storage behaviour runs on both backends:
its connections' settings, its migrations (each in one transaction, under an advisory lock,
tracked in arbiter_schema_version) and the advisory lock that makes one bot own the database,
released by the server when the owning process's session ends. Each test has a database of
its own on the session's server (tests/support/postgres_server.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from storage.engine.errors import DatabaseError, IntegrityError
from storage.engine.migrations import discover
from storage.engine.postgresql import PostgresDatabase, shown_url
from storage.engine.postgresql_connection import PostgresConnection
from storage.shared.ownership import DatabaseOwned, own
from tests.support.postgres_server import empty_database, reap_stale_servers


async def _catalog(url: str) -> list[tuple[str, str]]:
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT table_name, column_name || ' ' || data_type FROM information_schema.columns"
            " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
        )
    finally:
        await connection.close()
    return [(row[0], row[1]) for row in rows]


async def test_migrations_on_a_new_database_apply_once_and_are_idempotent() -> None:
    url = empty_database("migrate")
    database = await PostgresDatabase.connect(url)
    try:
        latest = len(discover())
        assert await database.schema_version() == 0
        assert await database.migrate() == list(range(1, latest + 1))
        catalog = await _catalog(url)
        assert await database.migrate() == []
    finally:
        await database.close()
    again = await PostgresDatabase.connect(url)
    try:
        assert await again.migrate() == []
        assert await again.schema_version() == latest
        assert {"audit", "guild_settings", "club_admins", "tour_games"} <= set(await again.tables())
    finally:
        await again.close()
    assert await _catalog(url) == catalog
    assert ("guild_settings", "guild_id bigint") in catalog  # Discord ids need 64 bits


async def test_a_migration_failing_on_the_server_leaves_nothing_behind(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "0002_bad.sql").write_text(
        "CREATE TABLE b (x INTEGER);\nINSERT INTO a (x) SELECT x FROM missing;"
    )
    database = await PostgresDatabase.connect(empty_database("failing"))
    try:
        with pytest.raises(DatabaseError, match="missing"):
            await database.migrate(folder)
        assert await database.schema_version() == 1
        assert set(await database.tables()) == {"a"}
        async with database.transaction() as connection:  # the writer is usable again
            await connection.execute("INSERT INTO a (x) VALUES (?)", (1,))
    finally:
        await database.close()


async def test_the_reader_refuses_writes_and_constraint_errors_are_integrity_errors() -> None:
    database = await PostgresDatabase.connect(empty_database("reader"))
    try:
        await database.migrate()
        with pytest.raises(DatabaseError, match="read-only"):
            async with database.read() as connection:
                await connection.execute("DELETE FROM audit")
        with pytest.raises(IntegrityError):
            async with database.transaction() as connection:
                await connection.execute(
                    "INSERT INTO guild_settings (guild_id) VALUES (?), (?)", (5, 5)
                )
        async with database.read() as connection:
            assert isinstance(connection, PostgresConnection)
            rows = await connection.native("SHOW application_name")
            assert rows[0][0] == "arbiter"
    finally:
        await database.close()


async def test_one_bot_owns_a_postgresql_database_until_its_session_ends() -> None:
    url = empty_database("owner")
    first = await PostgresDatabase.connect(url)
    second = await PostgresDatabase.connect(url)
    try:
        owned = await own(first)
        with pytest.raises(DatabaseOwned, match="another Arbiter is running"):
            await own(second)
        with pytest.raises(DatabaseOwned):  # shard processes neither, beside a lone bot
            await own(second, shared=True)
        await owned.release()
        taken = await own(second)  # released: the next bot starts
        await taken.release()
        one, two = await own(first, shared=True), await own(second, shared=True)
        with pytest.raises(DatabaseOwned, match="as shards"):
            await own(first)
        await one.release()
        await two.release()
    finally:
        await first.close()
        await second.close()


def test_a_url_shown_in_messages_hides_its_password() -> None:
    assert shown_url("postgresql://bot:s3cret@db.example/arbiter") == (
        "postgresql://bot:***@db.example/arbiter"
    )
    assert shown_url("postgresql://bot@db/arbiter") == "postgresql://bot@db/arbiter"


def test_a_killed_sessions_server_folder_is_reaped_and_a_live_ones_kept(tmp_path: Path) -> None:
    """A test run killed before its exit cleanup (SIGKILL, a closed pipe) leaves its embedded
    server's folder: the next session removes it (its server stopped) once every process
    that used it is gone, and keeps a folder whose owner lives or that is still starting."""
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    for name, owners in [("killed", [int(dead.stdout)]), ("live", [os.getpid()])]:
        (tmp_path / f"arbiter-pg-{name}" / "data").mkdir(parents=True)
        (tmp_path / f"arbiter-pg-{name}" / "data" / ".handle_pids.json").write_text(
            json.dumps(owners)
        )
    (tmp_path / "arbiter-pg-starting" / "data").mkdir(parents=True)  # no owners written yet
    assert reap_stale_servers(tmp_path) == [tmp_path / "arbiter-pg-killed"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arbiter-pg-live", "arbiter-pg-starting"]

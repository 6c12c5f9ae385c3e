"""Storage: migrations, audit in the same transaction, guild isolation, online backup."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage.engine.backup import BackupError, backup_database
from storage.engine.database import Database
from storage.engine.migrations import discover
from storage.guild import GuildStore
from storage.shared.guild_settings import GuildSettings
from tests.support.backends import backup_to


def _schema(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"
        ).fetchall()


@pytest.mark.sqlite_only
async def test_open_creates_folder_and_sets_pragmas(tmp_path: Path) -> None:
    """SQLite only: SQLite's own set-up: the file's folder, WAL, foreign keys and busy timeout
    pragmas (PostgreSQL has none of these; test_postgres_backend checks its connections'
    settings)."""
    path = tmp_path / "deep" / "nested" / "arbiter.db"
    database = await Database.open(path, busy_timeout_ms=1234)
    try:
        async with database.read() as connection:
            pragmas = {}
            for name in ("journal_mode", "foreign_keys", "busy_timeout"):
                cursor = await connection.execute(f"PRAGMA {name}")
                pragmas[name] = (await cursor.fetchone())[0]
        assert pragmas == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 1234}
        assert path.is_file()
    finally:
        await database.close()


@pytest.mark.sqlite_only
async def test_migrations_are_idempotent(tmp_path: Path) -> None:
    """SQLite only: SQLite's file and sqlite_master compared across a reopen (test_postgres_backend
    migrates a new PostgreSQL database twice and compares its catalog)."""
    path = tmp_path / "arbiter.db"
    database = await Database.open(path)
    latest = len(discover())
    assert await database.migrate() == list(range(1, latest + 1))
    schema = _schema(path)
    assert await database.migrate() == []
    await database.close()
    database = await Database.open(path)
    assert await database.migrate() == []
    assert await database.schema_version() == latest
    await database.close()
    assert _schema(path) == schema
    assert {name for name, _ in schema} >= {"audit", "guild_settings", "club_admins"}


@pytest.mark.sqlite_only
async def test_failed_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    """SQLite only: SQLite's executescript of a migration with a syntax error (on PostgreSQL such
    text is refused by the translation before it runs; test_postgres_backend fails a migration
    on the server)."""
    from storage.engine.migrations import apply_migrations

    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nNOT SQL AT ALL;")
    database = await Database.open(tmp_path / "arbiter.db")
    async with database.writer() as connection:
        with pytest.raises(sqlite3.OperationalError):
            await apply_migrations(connection, folder)
    assert await database.schema_version() == 1
    names = [name for name, _ in _schema(tmp_path / "arbiter.db")]
    assert names == ["a"]
    await database.close()


@pytest.mark.sqlite_only
async def test_migration_refused_at_commit_leaves_nothing_behind(tmp_path: Path) -> None:
    """SQLite only: SQLite's deferred foreign key refused at COMMIT of a migration script
    (test_postgres_backend fails a migration on the server)."""
    # A deferred foreign key fails only at COMMIT: the migration must still roll back whole
    # (schema and user_version unchanged) and leave the shared connection usable.
    from storage.engine.migrations import apply_migrations

    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "0002_bad.sql").write_text(
        "CREATE TABLE p (id INTEGER PRIMARY KEY);\n"
        "CREATE TABLE c (p INTEGER REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED);\n"
        "INSERT INTO c VALUES (5);"
    )
    database = await Database.open(tmp_path / "arbiter.db")
    try:
        async with database.writer() as connection:
            with pytest.raises(sqlite3.IntegrityError):
                await apply_migrations(connection, folder)
            assert not connection.in_transaction
        assert await database.schema_version() == 1
        async with database.writer() as connection:
            await connection.execute("INSERT INTO a VALUES (1)")
    finally:
        await database.close()
    assert [name for name, _ in _schema(tmp_path / "arbiter.db")] == ["a"]


async def test_change_and_audit_share_one_transaction(database: Database) -> None:
    store = GuildStore(database, 1)
    with pytest.raises(RuntimeError):
        async with store.change(7, "test.fail", "guild_settings") as uow:
            await uow.settings.update(hq_role_id=5)
            raise RuntimeError("boom")
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id is None
        assert await view.audit.recent() == []

    async with store.change(7, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=11)
        uow.details["reason"] = "first set-up"
    async with store.read() as view:
        [entry] = await view.audit.recent()
    assert (entry.actor_id, entry.action, entry.subject) == (7, "setup.set", "guild_settings")
    assert entry.details == {
        "before": {"hq_role_id": None},
        "after": {"hq_role_id": 11},
        "reason": "first set-up",
    }


async def test_one_guilds_data_is_invisible_to_another(database: Database) -> None:
    first, second = GuildStore(database, 100), GuildStore(database, 200)
    async with first.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=10, announcements_channel_id=20)
    async with first.change(1, "club_admin.add", "club:real-madrid-fans") as uow:
        assert await uow.club_admins.add("Real-Madrid-Fans", 555)
        assert len(await uow.club_admins.club_ids_of(555)) == 1
    async with first.change(1, "job.create", "club:real-madrid-fans") as uow:
        job = await uow.jobs.schedule("reminder", "club:real-madrid-fans", database.clock())
        posted = await uow.outbox.post(20, content="hello")

    async with second.change(2, "try", "other guild") as uow:
        assert await uow.jobs.get(job.id) is None
        assert await uow.jobs.pending("reminder", "club:real-madrid-fans") is None
        assert not await uow.jobs.cancel("reminder", "club:real-madrid-fans")
        assert not await uow.club_admins.remove("real-madrid-fans", 555)
        assert await uow.club_admins.club_ids_of(555) == set()
        assert await uow.outbox.get(posted.id) is None
        assert not await uow.outbox.mark_sent(posted.id, 999)
        assert not await uow.jobs.claim(job.id)
        uow.abandon()
    async with second.read() as view:
        assert (await view.settings.get()).hq_role_id is None
        assert not await view.club_admins.is_admin("real-madrid-fans", 555)
        assert await view.club_admins.clubs_of(555) == []
        assert await view.outbox.pending() == []
        assert await view.audit.recent() == []

    async with first.read() as view:
        assert await view.club_admins.is_admin("real-madrid-fans", 555)
        assert (await view.jobs.get(job.id)).status == "pending"
        assert [m.id for m in await view.outbox.pending()] == [posted.id]
        assert len(await view.audit.recent()) == 3


async def test_club_admin_add_twice_changes_nothing(database: Database) -> None:
    store = GuildStore(database, 1)
    for _ in range(2):
        async with store.change(1, "club_admin.add", "club:club-a") as uow:
            if not await uow.club_admins.add("club-a", 9):
                uow.abandon()
    async with store.read() as view:
        assert await view.club_admins.admins_of("club-a") == [9]
        assert [entry.action for entry in await view.audit.recent()] == ["club_admin.add"]


async def _add_admin(store: GuildStore, club: str, user_id: int) -> None:
    async with store.change(1, "club_admin.add", f"club:{club}") as uow:
        await uow.club_admins.add(club, user_id)


async def _settings(store: GuildStore) -> GuildSettings:
    async with store.read() as view:
        return await view.settings.get()


async def _set(store: GuildStore, **changes: int) -> None:
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(**changes)


async def _audit_actions(store: GuildStore) -> list[str]:
    async with store.read() as view:
        return [entry.action for entry in await view.audit.recent()]


@pytest.mark.sqlite_only
async def test_backup_while_writing_is_consistent(database: Database, tmp_path: Path) -> None:
    """SQLite only: SQLite's backup API copying in steps, restarted by writes between them
    (PostgreSQL's backup reads one snapshot: test_backup_during_units). Writes commit through
    the bot's connection between backup steps; the copy stays whole."""
    store = GuildStore(database, 1)
    for user_id in range(1, 200):
        await _add_admin(store, f"club-{user_id}", user_id)
    loop = asyncio.get_running_loop()
    during = []

    def write_between_steps(status: int, remaining: int, total: int) -> None:
        if len(during) < 5 and remaining > 0:
            user_id = 1000 + len(during)
            asyncio.run_coroutine_threadsafe(_add_admin(store, "late-club", user_id), loop).result()
            during.append(user_id)

    target = tmp_path / "backup.db"
    await asyncio.to_thread(
        backup_database, database.path, target, pages=1, progress=write_between_steps
    )

    assert len(during) == 5, "no write happened while the backup was running"
    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        admins = copy.execute("SELECT count(*) FROM club_admins").fetchone()[0]
        audited = copy.execute(
            "SELECT count(*) FROM audit WHERE action = 'club_admin.add'"
        ).fetchone()[0]
        version = copy.execute("PRAGMA user_version").fetchone()[0]
    assert admins == audited == 199 + 5
    assert version == await database.schema_version()


async def test_one_step_backup_is_a_consistent_snapshot(database: Database, tmp_path: Path) -> None:
    store = GuildStore(database, 1)
    await _set(store, hq_role_id=5)
    copied = await backup_to(database, tmp_path / "copy.db")  # SQLite: pages; else rows
    assert copied > 0
    copy = await Database.open(tmp_path / "copy.db")
    assert (await _settings(GuildStore(copy, 1))).hq_role_id == 5
    await copy.close()


def test_backup_refuses_existing_target_and_missing_source(tmp_path: Path) -> None:
    existing = tmp_path / "exists.db"
    existing.write_bytes(b"keep me")
    with pytest.raises(BackupError, match="no database"):
        backup_database(tmp_path / "missing.db", tmp_path / "new.db")
    sqlite3.connect(tmp_path / "source.db").close()
    with pytest.raises(BackupError, match="already exists"):
        backup_database(tmp_path / "source.db", existing)
    assert existing.read_bytes() == b"keep me"
    assert not (tmp_path / "new.db").exists()


async def test_reads_inside_a_change_see_it_and_nested_changes_are_refused(
    database: Database,
) -> None:
    store = GuildStore(database, 3)
    async with store.change(1, "t", "s") as uow:
        await uow.settings.update(hq_role_id=9)
        assert (await uow.settings.get()).hq_role_id == 9
        assert (await _settings(store)).hq_role_id == 9  # a read in the same task sees it
        with pytest.raises(RuntimeError, match="unit of work inside a unit of work"):
            async with store.change(1, "nested", "s"):
                pass
    assert (await _settings(store)).hq_role_id == 9
    assert await _audit_actions(store) == ["t"]


async def test_abandoned_change_rolls_back_what_it_wrote_without_an_audit_row(
    database: Database,
) -> None:
    store = GuildStore(database, 3)
    async with store.change(1, "t", "s") as uow:
        await uow.settings.update(hq_role_id=9)
        uow.abandon()
    assert (await _settings(store)).hq_role_id is None
    assert await _audit_actions(store) == []


@pytest.mark.sqlite_only
async def test_change_cancelled_while_waiting_for_the_write_lock_leaves_no_open_transaction(
    tmp_path: Path,
) -> None:
    """SQLite only: SQLite's file lock held by another process while BEGIN IMMEDIATE waits on
    aiosqlite's thread (PostgreSQL has no database-wide write lock)."""
    # Another process holds the write lock, so BEGIN IMMEDIATE waits (busy timeout) in
    # aiosqlite's thread; a cancellation then must not leave the shared connection inside
    # the transaction that BEGIN opens once the lock is free.
    database = await Database.open(tmp_path / "arbiter.db", busy_timeout_ms=30_000)
    await database.migrate()
    blocker = sqlite3.connect(tmp_path / "arbiter.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    store = GuildStore(database, 1)
    try:
        task = asyncio.create_task(_set(store, hq_role_id=5))
        while not database._lock.locked():
            await asyncio.sleep(0)
        await asyncio.sleep(0)  # BEGIN is queued as soon as the lock is taken
        task.cancel()
        blocker.execute("COMMIT")
        with pytest.raises(asyncio.CancelledError):
            await task
        assert (await _settings(store)).hq_role_id is None
        async with database.writer() as connection:
            assert not connection.in_transaction
        await _set(store, director_role_id=7)
        assert (await _settings(store)).director_role_id == 7
    finally:
        blocker.close()
        await database.close()
    with sqlite3.connect(tmp_path / "arbiter.db") as connection:
        assert connection.execute("SELECT director_role_id FROM guild_settings").fetchall() == [
            (7,)
        ]


@pytest.mark.parametrize("name", ["league#1.db", "what?.db", "rate%41.db"])
def test_backup_copies_a_database_whose_path_has_uri_characters(tmp_path: Path, name: str) -> None:
    # The source is opened by URI; '#', '?' and '%' must not truncate or garble its path.
    source = tmp_path / name
    with sqlite3.connect(source) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.execute("INSERT INTO t VALUES (42)")
    connection.close()
    target = tmp_path / "copy.db"
    backup_database(source, target)
    with sqlite3.connect(target) as connection:
        assert connection.execute("SELECT x FROM t").fetchall() == [(42,)]
    connection.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "copy.db"])


async def test_change_refused_at_commit_rolls_back_with_its_audit_row(database: Database) -> None:
    # A deferred constraint fails only at COMMIT: nothing of the change (nor its audit row)
    # may stay, and the shared connection must not be left inside the transaction.
    async with database.writer() as connection:
        await connection.execute("CREATE TABLE p (id INTEGER PRIMARY KEY)")
        await connection.execute(
            "CREATE TABLE c (p INTEGER REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)"
        )
    store = GuildStore(database, 1)
    with pytest.raises(sqlite3.IntegrityError):
        async with store.change(1, "t", "s") as uow:
            await uow.settings.update(hq_role_id=2)
            async with database.read() as connection:  # a constraint only COMMIT checks
                await connection.execute("INSERT INTO c VALUES (5)")
    async with database.writer() as connection:
        assert not connection.in_transaction
    assert await _audit_actions(store) == []
    assert (await _settings(store)).hq_role_id is None
    await _set(store, hq_role_id=3)
    assert (await _settings(store)).hq_role_id == 3


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
def test_backup_refuses_the_live_databases_own_files(tmp_path: Path, suffix: str) -> None:
    # With the bot stopped the WAL file is gone, but writing the copy there would put a whole
    # database where SQLite looks for the live database's log at the next start.
    source = tmp_path / "arbiter.db"
    sqlite3.connect(source).close()
    with pytest.raises(BackupError, match="the database's own"):
        backup_database(source, tmp_path / f"arbiter.db{suffix}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arbiter.db"]


def test_backup_leaves_an_unrelated_partial_file_alone(tmp_path: Path) -> None:
    # The copy is first written under a temporary name; a user's file that happens to have
    # that name must be neither used nor deleted.
    source = tmp_path / "arbiter.db"
    with sqlite3.connect(source) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    mine = tmp_path / "copy.db.partial"
    mine.write_text("my notes")
    backup_database(source, tmp_path / "copy.db")
    assert mine.read_text() == "my notes"
    with sqlite3.connect(tmp_path / "copy.db") as connection:
        assert connection.execute("SELECT COUNT(*) FROM t").fetchone() == (0,)
    connection.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "arbiter.db",
        "copy.db",
        "copy.db.partial",
    ]

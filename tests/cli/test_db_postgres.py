"""`arbiter db migrate|backup|copy` on PostgreSQL (issue 25): the demo's league moved from its
SQLite file to a PostgreSQL database has every row (each table's count) and the same
standings there; a target that is not empty is refused and keeps its rows; a PostgreSQL
database backs up to a SQLite file that the bot opens with the same standings. PostgreSQL is
the session's server (tests/support/postgres_server.py), each test a database of its own."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from storage.engine.copy import row_counts
from storage.engine.locations import open_database
from tests.cli.test_cli_hostile import refused
from tests.support.demos import Played, demo_played
from tests.support.postgres_server import empty_database


def _config(folder: Path, name: str, database: str) -> Path:
    """A configuration file whose [database] is `database` (`path = …` or `url = …`)."""
    path = folder / f"{name}.toml"
    path.write_text(f"[database]\n{database}\n", encoding="utf-8")
    return path


def _arbiter(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


async def _counts(location: str | Path) -> dict[str, int]:
    database = await open_database(location)
    try:
        return await row_counts(database)
    finally:
        await database.close()


async def _guild_and_season(location: str | Path) -> tuple[int, str]:
    database = await open_database(location)
    try:
        async with database.read() as connection:
            rows = await connection.execute_fetchall("SELECT guild_id, name FROM seasons")
    finally:
        await database.close()
    [(guild, name)] = [tuple(row) for row in rows]
    return int(guild), str(name)


def _standings(capsys: pytest.CaptureFixture[str], config: Path, guild: int, name: str) -> str:
    code, out, err = _arbiter(
        capsys,
        "season",
        "standings",
        name,
        "--guild",
        str(guild),
        "--json",
        "--config",
        str(config),
    )
    assert code == 0, err
    return out


def test_the_demo_league_copied_to_postgresql_has_every_row_and_the_same_standings(
    played: Played,
    tmp_path_factory: pytest.TempPathFactory,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On a copy of the test process's shared demo of seed 2 (tests/support/demos.py)."""
    demo, _ = demo_played(played, tmp_path_factory, capsys, 2, 4)
    sqlite_file = tmp_path / "arbiter.db"
    shutil.copyfile(demo / "arbiter.db", sqlite_file)
    url = empty_database("copy")
    code, out, err = _arbiter(capsys, "db", "copy", "--from", f"sqlite:{sqlite_file}", "--to", url)
    assert code == 0, err
    assert "every table's count equal" in out
    counts = asyncio.run(_counts(sqlite_file))
    assert asyncio.run(_counts(url)) == counts
    assert counts["matches"] > 0 and counts["boards"] > 0 and counts["audit"] > 0
    guild, season = asyncio.run(_guild_and_season(sqlite_file))
    on_sqlite = _config(tmp_path, "sqlite", f'path = "{sqlite_file}"')
    on_postgres = _config(tmp_path, "postgres", f'url = "{url}"')
    standings = _standings(capsys, on_sqlite, guild, season)
    assert json.loads(standings)["divisions"]  # a real table, not an empty one
    assert _standings(capsys, on_postgres, guild, season) == standings

    # a second copy into the now filled database is refused and changes nothing
    code, out, err = _arbiter(capsys, "db", "copy", "--from", f"sqlite:{sqlite_file}", "--to", url)
    assert code == 2 and out == ""
    assert "is not empty" in err and "password" not in err
    assert asyncio.run(_counts(url)) == counts

    # migrate on PostgreSQL: nothing to do; its backup is a SQLite file with the same league
    code, out, err = _arbiter(capsys, "db", "migrate", "--config", str(on_postgres))
    assert code == 0 and "nothing to do" in out, err
    backup = tmp_path / "backup.db"
    code, out, err = _arbiter(capsys, "db", "backup", str(backup), "--config", str(on_postgres))
    assert code == 0, err
    assert f"({sum(counts.values())} rows)" in out
    assert asyncio.run(_counts(backup)) == counts
    on_backup = _config(tmp_path, "backup", f'path = "{backup}"')
    assert _standings(capsys, on_backup, guild, season) == standings
    code, _, err = _arbiter(capsys, "db", "backup", str(backup), "--config", str(on_postgres))
    assert code == 2 and "already exists" in err


@pytest.mark.parametrize(
    ("source", "target", "says"),
    [
        ("mysql://x", "sqlite:b.db", "give sqlite:PATH or a postgresql:// URL"),
        ("sqlite:", "sqlite:b.db", "give sqlite:PATH or a postgresql:// URL"),
        ("sqlite:a\x00.db", "sqlite:b.db", "not a database location"),
        ("sqlite:none.db", "sqlite:b.db", "--from: no database at none.db"),
        ("sqlite:same.db", "sqlite:same.db", "--from and --to are the same database"),
    ],
)
def test_copy_refuses_bad_locations_a_missing_source_and_itself(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    source: str,
    target: str,
    says: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "same.db").touch()
    assert says in refused(["db", "copy", "--from", source, "--to", target], capsys)
    assert not (tmp_path / "b.db").exists()


def test_db_migrate_uses_the_url_of_arbiter_database_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`arbiter db migrate` with ARBITER_DATABASE_URL set migrates that PostgreSQL database,
    not the configured SQLite file, and never prints the URL's password."""
    url = empty_database("from_env")
    config = _config(tmp_path, "sqlite", f'path = "{tmp_path / "unused.db"}"')
    monkeypatch.setenv("ARBITER_DATABASE_URL", url)
    code, out, err = _arbiter(capsys, "db", "migrate", "--config", str(config))
    assert code == 0 and "migrated to schema version" in out, err
    assert "postgresql://" in out and not (tmp_path / "unused.db").exists()
    password = url.split("://", 1)[1].split("@", 1)[0].partition(":")[2]
    assert not password or password not in out
    assert asyncio.run(_counts(url))  # the schema is there: every table counted
    code, out, err = _arbiter(capsys, "db", "migrate", "--config", str(config))
    assert code == 0 and "nothing to do" in out, err

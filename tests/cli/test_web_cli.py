"""`arbiter web`: what it refuses before serving anything, each with one line on stderr and
exit 2, and the read-only database it serves, which refuses every write."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest

from bot.cli import CliError, main
from bot.cli.web import served_at, start_site
from bot.kernel.config import WebConfig
from storage.engine.database import Database, SqliteDatabase
from storage.engine.errors import DatabaseError
from storage.engine.migrations import discover


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """`arbiter web ARGV`'s one stderr line, after checking it exited 2 and printed nothing."""
    try:
        code = main(["web", *argv])
    except SystemExit as exit:  # argparse's refusal of an option
        code = int(str(exit.code))
    assert code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    return err


def versioned(path: Path, version: int) -> Path:
    """A SQLite file whose schema version says `version`."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE t (x)")
    connection.execute(f"PRAGMA user_version = {version}")
    connection.commit()
    connection.close()
    return path


def test_a_missing_file_a_folder_and_a_file_that_is_no_database_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    assert refusal(capsys, "--db", str(missing)) == (
        f"arbiter web: cannot open {missing}: no such file\n"
    )
    assert not missing.exists()  # not created as an empty database
    assert "it is a folder" in refusal(capsys, "--db", str(tmp_path))
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100, encoding="utf-8")
    assert refusal(capsys, "--db", str(text)).endswith("file is not a database\n")
    hostile = tmp_path / "a\x1b[2Jb\n.db"
    said = refusal(capsys, "--db", str(hostile))
    assert "\x1b" not in said and "a\\x1b[2Jb\\n.db: no such file" in said
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    assert "not an Arbiter database" in refusal(capsys, "--db", str(empty))


def test_a_newer_or_an_older_schema_is_refused_and_nothing_is_migrated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    known = len(discover())
    newer = versioned(tmp_path / "newer.db", known + 1)
    said = refusal(capsys, "--db", str(newer))
    assert f"written by a newer Arbiter (schema version {known + 1}, this program knows" in said
    older = versioned(tmp_path / "older.db", 3)
    said = refusal(capsys, "--db", str(older))
    assert f"its schema version 3 is older than this program's ({known})" in said
    assert "arbiter db migrate" in said
    connection = sqlite3.connect(older)
    assert connection.execute("PRAGMA user_version").fetchone() == (3,)
    connection.close()


def test_bad_options_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = versioned(tmp_path / "a.db", 1)
    assert "--port" in refusal(capsys, "--db", str(database), "--port", "70000")
    assert "--port" in refusal(capsys, "--db", str(database), "--port", "http")
    said = refusal(capsys, "--db", str(database), "--base-url", "ftp://example.org")
    assert said == (
        "arbiter web: --base-url: must be a web address starting with http:// or https://\n"
    )
    said = refusal(capsys, "--db", str(database), "--host", "a b")
    assert said.startswith("arbiter web: --host: must be a host name or an IP address")


async def test_the_read_only_database_refuses_every_write(tmp_path: Path) -> None:
    """SQLite's read-only mode: the file the site serves cannot be changed through it."""
    path = tmp_path / "arbiter.db"
    writable = await Database.open(path)
    await writable.migrate()
    await writable.close()
    database = await SqliteDatabase.open_read_only(path)
    try:
        assert await database.schema_version() == len(discover())
        with pytest.raises(DatabaseError, match="readonly"):
            async with database.transaction() as connection:
                await connection.execute(
                    "INSERT INTO web_sites (guild_id, slug, published_at) VALUES (1, 'x', 'y')"
                )
    finally:
        await database.close()


async def test_a_read_block_on_the_read_only_database_is_one_snapshot(tmp_path: Path) -> None:
    """The site may serve a file another process writes: a read block sees one state of it."""
    path = tmp_path / "arbiter.db"
    writable = await Database.open(path)
    await writable.migrate()
    database = await SqliteDatabase.open_read_only(path)
    count = "SELECT COUNT(*) AS n FROM web_sites"
    try:
        async with database.read() as connection:
            assert (await connection.execute_fetchall(count, ()))[0]["n"] == 0
            async with writable.transaction() as writer:
                await writer.execute(
                    "INSERT INTO web_sites (guild_id, slug, published_at) VALUES (1, 'x', 'y')"
                )
            assert (await connection.execute_fetchall(count, ()))[0]["n"] == 0
        assert (await database.fetch(count))[0]["n"] == 1
    finally:
        await database.close()
        await writable.close()


async def test_a_port_in_use_is_one_line_and_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "arbiter.db"
    database = await Database.open(path)
    await database.migrate()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        with pytest.raises(CliError) as raised:
            await start_site(database, None, WebConfig(port=port))
        assert raised.value.code == 1
        assert raised.value.message.startswith(f"cannot serve the web site on 127.0.0.1:{port}: ")
        runner = await start_site(database, None, WebConfig(port=0))
        assert served_at(runner).startswith("http://127.0.0.1:")
        await runner.cleanup()
    finally:
        taken.close()
        await database.close()

"""`arbiter tour export TOUR --guild ID`: refusals are one line with a non-zero exit and
write nothing; the export itself is checked against the bot in tests/stories."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from storage.engine.database import Database
from storage.guild import GuildStore


def _config(tmp_path: Path) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{tmp_path / "arbiter.db"}"\n')
    return config


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tour", "export", "Tour"], "export needs --guild ID"),
        (
            ["tour", "export", "Tour", "--guild", "5", "--json"],
            "--after and --json go with a tour file",
        ),
        (["tour", "some.json", "Tour"], "TOUR goes with `arbiter tour export TOUR --guild ID`"),
        (["tour", "export", "Tour", "--guild", "5"], "no database at"),
    ],
)
def test_a_bad_tour_export_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    out = tmp_path / "out.json"
    code = main([*argv, "-o", str(out), "--config", str(_config(tmp_path))])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not out.exists()


def test_an_unknown_tour_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path)

    async def seed() -> None:
        database = await Database.open(tmp_path / "arbiter.db")
        await database.migrate()
        async with GuildStore(database, 5).change(None, "test.seed", "guild"):
            pass
        await database.close()

    asyncio.run(seed())
    code = main(["tour", "export", "Nope", "--guild", "5", "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 2 and "No tour 'Nope'" in err, err

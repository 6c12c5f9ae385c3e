"""`arbiter web --db PATH` for real: a child process serving the demo's database read-only,
reached over HTTP, stopped by SIGTERM with exit 0, the database file unchanged."""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.support.arbiter_process import LAUNCHER
from tests.support.demos import Played, demo_played
from tests.support.paths import ROOT

START_TIMEOUT = 30.0


@pytest.fixture
def demo_file(
    played: Played,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> tuple[Path, str]:
    """A copy of the 4-club demo's database, and the last line the demo printed."""
    out, printed = demo_played(played, tmp_path_factory, capsys, 2, 4)
    return Path(shutil.copy(out / "arbiter.db", tmp_path / "arbiter.db")), printed


async def test_arbiter_web_serves_the_demos_guild_read_only_and_stops_on_sigterm(
    demo_file: tuple[Path, str],
) -> None:
    path, printed = demo_file
    assert (
        printed.rstrip("\n")
        .splitlines()[-1]
        .endswith("arbiter.db` and open http://127.0.0.1:8080/g/demo-league/")
    )
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-c", LAUNCHER, "web", "--db", str(path), "--port", "0"),
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        first = await asyncio.wait_for(process.stdout.readline(), START_TIMEOUT)
        heading = first.decode()
        assert heading.startswith(f"arbiter web: serving {path} read-only at http://127.0.0.1:")
        address = heading.split(" at ")[1].split(" ")[0]
        page = (await process.stdout.readline()).decode().strip()
        assert page == f"{address}g/demo-league/"
        async with aiohttp.ClientSession() as session:
            async with session.get(page) as home:
                assert home.status == 200
                assert "Demo League 2" in await home.text()
            async with session.get(f"{address}g/no-such-club/") as missing:
                assert missing.status == 404
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 10) == 0
        assert await process.stderr.read() == b""
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before

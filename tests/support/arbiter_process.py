"""The real program as a child process for tests: `python3 -m bot run` (or `sync`) on a real
`config.toml` and database file, pointed at the Discord double and a chess.com stand-in by
configuration and environment only (`ARBITER_DISCORD_API`, `DISCORD_TOKEN`).

The child asks the kernel to kill it when the test process dies (`PR_SET_PDEATHSIG`), and
`ArbiterProcess` kills it at the end of its `async with` block whatever happened, so no
child outlives a failing or interrupted test. Its log (stderr, merged into stdout) is read
line by line as it comes, so a test waits for a line instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import aiohttp

from bot.app.arbiter import offline_bot
from bot.kernel.config import Config
from tests.discord_double import DiscordDouble
from tests.support.paths import ROOT

LAUNCHER = (
    "import ctypes, runpy, signal, sys\n"
    "try:\n"
    "    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG\n"
    "except (AttributeError, OSError):\n"
    "    pass\n"
    "runpy.run_module('bot', run_name='__main__', alter_sys=True)\n"
)
"""`python3 -m bot …`, after asking to die with the parent (Linux; elsewhere a no-op)."""
PROFILED = LAUNCHER.replace(
    "runpy.run_module('bot', run_name='__main__', alter_sys=True)\n",
    "import cProfile, os, time\n"
    "profile = cProfile.Profile(time.thread_time)\n"
    "try:\n"
    "    profile.runctx(\"runpy.run_module('bot', run_name='__main__', alter_sys=True)\","
    " globals(), locals())\n"
    "finally:\n"
    "    profile.dump_stats(os.environ['ARBITER_PROFILE'])\n",
)
"""The same under cProfile on the main thread's CPU time, its stats written at exit to
`$ARBITER_PROFILE` (benchmarks)."""
START_TIMEOUT = 30.0
CLEAN_ENV = (
    "DISCORD_TOKEN",
    "ARBITER_DISCORD_API",
    "ARBITER_CHESSCOM_URL",
    "ARBITER_CHESSCOM_CONTACT",
)


@functools.cache
def tree_payload() -> list[dict[str, Any]]:
    """What `arbiter sync` sends: every command of the tree as `to_dict` gives it (built
    once per test run, in a loop of its own: call it in a thread from async code)."""

    async def build() -> list[dict[str, Any]]:
        bot = await offline_bot(Config())
        async with bot:
            await bot.setup_hook()
            return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]

    return asyncio.run(build())


async def publish_tree(double: DiscordDouble, guild_id: int | None) -> None:
    """Publish the tree to a guild of the double (None: globally) as `arbiter sync` does
    (the same PUT, checked by the double), without starting a process for it."""
    payload = await asyncio.to_thread(tree_payload)
    url = f"{double.api_base}/applications/{double.application_id}"
    url += f"/guilds/{guild_id}/commands" if guild_id is not None else "/commands"
    headers = {"Authorization": f"Bot {double.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.put(url, json=payload, headers=headers) as response,
    ):
        assert response.status == 200, await response.text()


def write_config(
    folder: Path, chesscom_url: str, extra: str = "", *, database_url: str | None = None
) -> Path:
    """A `config.toml` in `folder`: the database beside it (or PostgreSQL at `database_url`),
    chess.com at `chesscom_url` without retries or polling (a day apart), lichess nowhere,
    small divisions allowed."""
    path = folder / "config.toml"
    database = f'url = "{database_url}"' if database_url else f'path = "{folder / "arbiter.db"}"'
    path.write_text(
        'log_level = "INFO"\n'
        "[database]\n"
        f"{database}\n"
        "[chesscom]\n"
        f'base_url = "{chesscom_url}"\n'
        'contact = "tests@example.org"\n'
        "max_retries = 0\n"
        "poll_minutes = 1440\n"
        "[lichess]\n"
        'base_url = "http://127.0.0.1:9"\n'  # nothing answers there: never the internet
        "[rules.cl]\n"
        "min_players = [1, 1, 1]\n" + extra,
        encoding="utf-8",
    )
    return path


class ArbiterProcess:
    """One child `arbiter` process and its log."""

    def __init__(
        self, config: Path, double: DiscordDouble, *args: str, profile: Path | None = None
    ) -> None:
        self.config = config
        self.double = double
        self.args = args or ("run",)
        self.profile = profile
        self.process: asyncio.subprocess.Process | None = None
        self.lines: list[str] = []
        self.started = 0.0
        self._reader: asyncio.Task[None] | None = None
        self._line = asyncio.Event()

    def env(self) -> dict[str, str]:
        """The environment: the test's, without its Discord and chess.com settings, plus the
        double's token and address."""
        env = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV}
        env["DISCORD_TOKEN"] = self.double.token
        env["ARBITER_DISCORD_API"] = self.double.api_base
        env["PYTHONUNBUFFERED"] = "1"
        if self.profile is not None:
            env["ARBITER_PROFILE"] = str(self.profile)
        return env

    async def start(self) -> ArbiterProcess:
        """Start `python3 -m bot ARGS --config CONFIG`."""
        self.started = time.monotonic()
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            LAUNCHER if self.profile is None else PROFILED,
            *self.args,
            "--config",
            str(self.config),
            cwd=ROOT,
            env=self.env(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        """Keep every line the child writes (stderr merged into stdout)."""
        assert self.process is not None and self.process.stdout is not None
        while raw := await self.process.stdout.readline():
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))
            event, self._line = self._line, asyncio.Event()
            event.set()

    @property
    def running(self) -> bool:
        """Whether the child has not exited."""
        return self.process is not None and self.process.returncode is None

    def log(self) -> str:
        """Everything it logged so far."""
        return "\n".join(self.lines)

    async def wait_line(self, text: str, timeout: float = START_TIMEOUT, *, after: int = 0) -> str:
        """The first log line from index `after` containing `text` (waits for it); fails if
        the child exits or `timeout` passes first."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.lines[after:]:
                if text in line:
                    return line
            left = deadline - time.monotonic()
            if left <= 0 or (self._reader is not None and self._reader.done()):
                raise AssertionError(f"the bot never logged {text!r}:\n{self.log()[-4000:]}")
            event = self._line
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, 0.5))

    async def wait(self, timeout: float = START_TIMEOUT) -> int:
        """Its exit code (waits for the exit)."""
        assert self.process is not None
        code = await asyncio.wait_for(self.process.wait(), timeout)
        if self._reader is not None:
            await self._reader
        return code

    async def terminate(self, timeout: float = 10.0) -> tuple[int, float]:
        """SIGTERM; the exit code and the seconds it took to exit."""
        assert self.process is not None
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        code = await self.wait(timeout)
        return code, time.monotonic() - began

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        if self.running:
            assert self.process is not None
            self.process.kill()
            await self.wait()

    async def __aenter__(self) -> ArbiterProcess:
        return await self.start()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.kill()
        if self._reader is not None and not self._reader.done():
            self._reader.cancel()

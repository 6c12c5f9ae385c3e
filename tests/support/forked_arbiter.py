"""`python -m bot …` as a new process that skips the interpreter's start and the imports: a
multiprocessing fork server imports the program once, and each command is a fresh fork of
it, run in its own folder with its own environment, its output in files. The docs' examples
are ~50 short commands, and starting Python and importing discord.py, pydantic and the bot
cost more than most of them do."""

from __future__ import annotations

import multiprocessing
import os
import runpy
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PRELOAD = ["bot.cli", "bot.app.arbiter", "bot.offline.replay"]
"""What the fork server imports before any command: the command line and the bot."""

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(PRELOAD)


@dataclass(frozen=True)
class Finished:
    """What a command left: its exit code, stdout and stderr (as `subprocess.run` gives)."""

    returncode: int
    stdout: str
    stderr: str


def _run(argv: list[str], cwd: str, env: dict[str, str], out: str, err: str) -> None:
    """In the forked child: `python -m bot *argv` in `cwd` under `env`, output into files."""
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    for descriptor, path in ((1, out), (2, err)):
        file = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(file, descriptor)
        os.close(file)
    sys.argv = ["-m", *argv]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


def run_arbiter(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> Finished:
    """`python -m bot *argv` in `cwd` with exactly `env`, forked from the fork server."""
    with tempfile.TemporaryDirectory(prefix="arbiter-fork-") as folder:
        out, err = os.path.join(folder, "out"), os.path.join(folder, "err")
        child = _context.Process(target=_run, args=(argv, str(cwd), env, out, err))
        child.start()
        child.join(timeout)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise TimeoutError(f"`arbiter {' '.join(argv)}` ran over {timeout} s")
        with open(out, encoding="utf-8") as stdout, open(err, encoding="utf-8") as stderr:
            return Finished(child.exitcode, stdout.read(), stderr.read())

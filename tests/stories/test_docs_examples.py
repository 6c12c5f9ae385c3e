"""Every runnable example in README.md and docs/*.md works as written (issue 8, item 11).

The convention: a ```console fenced block holds commands, one a line starting with `$ `, run
from the repository root; the lines after a command, up to the next one, are its output as
shown. A command must exit 0 unless its line ends with `# exit N`. Every output line shown
must appear, in order, in what the command printed (stdout then stderr, trailing blanks
ignored); a line `...` stands for lines left out. Examples that need Discord or chess.com go
in another block type (```text, ```sh) and are not run.

Each page runs top to bottom as one reader would follow it: its blocks in order, like one
shell session in one fresh copy of the repository's tracked files (so what an earlier block
stores or writes — `db migrate`, `season import`, `commands --readme README.md` — is there
for the next, and a page that works only after another page fails), with nothing beside it
(every file an example reads is in the repository), with `arbiter` meaning this checkout's
`python -m bot`, no DISCORD_TOKEN and chess.com pointed at a closed local port. Each command
is a new process, forked from one that imported the program (tests.support.forked_arbiter).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.forked_arbiter import run_arbiter
from tests.support.paths import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(`{3,})(\S*)\s*$")
EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")


@dataclass(frozen=True)
class Command:
    """One `$ ` line of a console block: its words, expected exit code and output shown."""

    where: str
    line: str
    argv: tuple[str, ...]
    exit_code: int
    shown: tuple[str, ...]


@dataclass(frozen=True)
class Block:
    """A console block: commands run in order, as in one shell session."""

    where: str
    commands: tuple[Command, ...]


def fenced_blocks(path: Path) -> list[tuple[int, str, list[str]]]:
    """(first line number, info string, lines) of every fenced code block of a Markdown file."""
    blocks: list[tuple[int, str, list[str]]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence, info, start = opening.group(1), opening.group(2), index + 1
        body: list[str] = []
        index += 1
        while index < len(lines) and lines[index].strip() != fence:
            body.append(lines[index])
            index += 1
        blocks.append((start, info, body))
        index += 1
    return blocks


def parse_command(where: str, line: str, shown: list[str]) -> Command:
    """A `$ arbiter …` line as argv (`arbiter` → this checkout's `python -m bot`)."""
    text = line[2:]
    code = 0
    if (ending := EXIT.search(text)) is not None:
        code, text = int(ending.group(1)), text[: ending.start()]
    words = shlex.split(text, comments=True)
    if words[:1] == ["arbiter"]:
        argv = [sys.executable, "-m", "bot", *words[1:]]
    elif words[:3] == ["python3", "-m", "bot"]:
        argv = [sys.executable, *words[1:]]
    else:
        raise AssertionError(f"{where}: only `arbiter …` commands are run, not {line!r}")
    return Command(where, line, tuple(argv), code, tuple(s.rstrip() for s in shown))


def console_blocks() -> list[Block]:
    """Every ```console block of the docs, parsed into commands."""
    found = []
    for path in DOCS:
        for start, info, body in fenced_blocks(path):
            if info != "console":
                continue
            where = f"{path.relative_to(ROOT)}:{start}"
            commands: list[Command] = []
            pending: tuple[int, str] | None = None
            shown: list[str] = []
            for offset, line in enumerate(body, start=start + 1):
                if line.startswith("$ "):
                    if pending is not None:
                        commands.append(parse_command(*pending, shown))
                    pending, shown = (f"{path.relative_to(ROOT)}:{offset}", line), []
                elif pending is None:
                    if line.strip():
                        raise AssertionError(f"{where}: output before the first `$ ` command")
                else:
                    shown.append(line)
            if pending is not None:
                commands.append(parse_command(*pending, shown))
            assert commands, f"{where}: a console block without a `$ ` command"
            found.append(Block(where, tuple(commands)))
    return found


BLOCKS = console_blocks()


def repository_copy(into: Path) -> Path:
    """Copy the tracked files of the repository to `into/repo`, with nothing beside it."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    copy = into / "repo"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    return copy


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/pub"


def environment() -> dict[str, str]:
    environ = {
        k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "ARBITER_CHESSCOM_URL")
    }
    environ.update(
        PYTHONPATH=str(ROOT),
        ARBITER_CHESSCOM_URL=closed_port_url(),
        COLUMNS="100",  # argparse help wraps to the terminal width
    )
    return environ


def mismatch(command: Command, output: str) -> str | None:
    """Why the output does not show what the docs show (in order; `...` skips lines)."""
    printed = [line.rstrip() for line in output.splitlines()]
    position = 0
    for expected in command.shown:
        if expected.strip() in ("...", "…") or not expected.strip():
            continue
        try:
            position = printed.index(expected, position) + 1
        except ValueError:
            return f"the docs show {expected!r}, which is not in (or out of order in) the output"
    return None


def run_block(block: Block, folder: Path) -> list[str]:
    """Run a block's commands in order in a fresh copy; return every failure, described."""
    return run_page([block], folder)


def run_page(blocks: list[Block], folder: Path) -> list[str]:
    """Run the blocks of a page in order, in one fresh copy; return every failure."""
    copy = repository_copy(folder)
    environ = environment()
    failures = []
    for command in (command for block in blocks for command in block.commands):
        assert command.argv[1:3] == ("-m", "bot"), command.argv
        result = run_arbiter(list(command.argv[3:]), copy, environ, timeout=120)
        output = result.stdout + result.stderr
        if result.returncode != command.exit_code:
            failures.append(
                f"{command.where}: `{command.line}` exited {result.returncode}, the docs say "
                f"{command.exit_code}:\n{output[-1500:]}"
            )
        elif "Traceback" in result.stderr:
            failures.append(f"{command.where}: `{command.line}` printed a traceback")
        elif (why := mismatch(command, output)) is not None:
            failures.append(f"{command.where}: `{command.line}`: {why}:\n{output[-1500:]}")
    return failures


def test_docs_have_runnable_examples() -> None:
    """The extraction finds the examples (a broken parser must not pass by running nothing)."""
    assert len(BLOCKS) >= 5
    assert sum(len(block.commands) for block in BLOCKS) >= 10
    documents = {block.where.split(":")[0] for block in BLOCKS}
    assert {"README.md", "docs/standings.md", "docs/league.md"} <= documents


def pages() -> list[list[Block]]:
    """The console blocks page by page (README.md first), each page's in reading order."""
    by_page: dict[str, list[Block]] = {}
    for block in BLOCKS:
        by_page.setdefault(block.where.split(":")[0], []).append(block)
    return list(by_page.values())


def test_every_doc_example_works_as_written(tmp_path: Path) -> None:
    """Every page's console blocks, top to bottom in one fresh copy of the repository per
    page (the pages in parallel)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = pool.map(
            lambda item: run_page(item[1], tmp_path / str(item[0])), enumerate(pages())
        )
        failures = [failure for page_failures in results for failure in page_failures]
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_shell_prompts_only_in_console_blocks(path: Path) -> None:
    """A `$ command` line in a block that is not ```console would look runnable but never be
    run: such examples must be console blocks, or written without the prompt."""
    for start, info, body in fenced_blocks(path):
        if info != "console":
            prompts = [line for line in body if line.startswith("$ ")]
            assert not prompts, f"{path.name}:{start}: `$ ` lines in a ```{info} block"


def test_the_checker_catches_a_wrong_exit_and_wrong_output(tmp_path: Path) -> None:
    """The runner is not blind: a wrong exit code and an output line not printed both fail."""
    wrong_exit = parse_command("x:1", "$ arbiter berger 2", [])
    wrong_output = parse_command("x:2", "$ arbiter berger 4", ["Rd 1: 1-4, 2-3", "Rd 9: 1-2"])
    right = parse_command("x:3", "$ arbiter berger 2  # exit 2", ["...", "Rd 1: 1-4, 2-3"])
    failures = run_block(Block("x", (wrong_exit, wrong_output)), tmp_path / "a")
    assert len(failures) == 2
    assert "exited 2, the docs say 0" in failures[0] and "'Rd 9: 1-2'" in failures[1]
    assert mismatch(right, "usage\nRd 1: 1-4, 2-3\n") is None

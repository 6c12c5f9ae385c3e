"""What both demos (the league's and the tour's) share while they run: the replay of their
script with the stage lines on stderr as it passes each stage's first step, and the file names
of their outputs."""

from __future__ import annotations

import asyncio
import datetime as dt
import shlex
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol, TextIO

from bot.kernel.config import WEB_HOST, WEB_PORT
from bot.offline.replay import replay
from bot.offline.script import At, parse_script
from bot.offline.transcript import StepRecord

TRANSCRIPT = "transcript.txt"
DATABASE = "arbiter.db"


def browse_line(out: Path, slug: str) -> str:
    """A demo's last line: the command that serves its database's web site, and its guild's page."""
    command = f"arbiter web --db {shlex.quote(str(out / DATABASE))}"
    return f"Browse it on the web: run `{command}` and open http://{WEB_HOST}:{WEB_PORT}/g/{slug}/"


class Staged(Protocol):
    """A demo script: its stages by first step, and how many steps it has."""

    @property
    def stages(self) -> Mapping[int, str]: ...

    @property
    def steps(self) -> int: ...

    def text(self) -> str:
        """The script as JSON lines."""
        ...


class Progress:
    """Stage lines on stderr as the replay passes each stage's first step."""

    def __init__(self, script: Staged, stream: TextIO) -> None:
        self.stages = script.stages
        self.total = script.steps
        self.stream = stream

    def __call__(self, record: StepRecord) -> None:
        stage = self.stages.get(record.step)
        if stage is not None:
            day = record.at.date().isoformat()
            print(f"  {day}  step {record.step}/{self.total}: {stage}", file=self.stream)


def slug(text: str) -> str:
    """A file name part: lowercase words joined by dashes."""
    return "-".join(text.lower().split())


def replay_demo(
    script: Staged,
    out: Path,
    name: str,
    headline: str,
    progress: TextIO | None,
    transcript: Callable[[StepRecord], None] | None,
    *,
    every_step: bool,
) -> dt.datetime:
    """Write `script` to `out / name` and replay it into the database in `out`, with the stage
    lines on `progress` and the transcript in its file, every step or those shown without
    `--verbose`. Returns the instant of the script's last step.

    The folder is made if it is missing. `headline` comes first on `progress`, which is stderr
    unless given.
    """
    progress = sys.stderr if progress is None else progress
    out.mkdir(parents=True, exist_ok=True)
    print(headline, file=progress)
    (out / name).write_text(script.text(), encoding="utf-8")
    parsed = parse_script(script.text(), out)
    db_path = out / DATABASE
    stages = Progress(script, progress)
    with (out / TRANSCRIPT).open("w", encoding="utf-8") as written:

        def emit(record: StepRecord) -> None:
            stages(record)
            if every_step or record.shown_in_text():
                written.write(record.as_text() + "\n")
            if transcript is not None:
                transcript(record)

        asyncio.run(replay(parsed, db_path, emit))
    return max(
        (step.instant for step in parsed.steps if isinstance(step, At)),
        default=parsed.header.start,
    )

"""What the league's and the tour's demos share while they run.

That is the stage lines on stderr as the replay passes each stage's first step, and the file names
of their outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TextIO

from bot.offline.transcript import StepRecord


class Staged(Protocol):
    """A demo script: its stages by first step, and how many steps it has."""

    @property
    def stages(self) -> Mapping[int, str]: ...

    @property
    def steps(self) -> int: ...


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

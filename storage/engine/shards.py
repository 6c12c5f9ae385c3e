"""The shards a process runs, as in `arbiter run --shards 0-3 --shard-count 8`.

Discord puts guild `g` on shard `(g >> 22) % shard_count`. The process owning that shard runs the
guild's jobs and sends its messages, so cross-guild reads take `Shards.where()`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DIGITS = re.compile(r"[0-9]{1,9}")
"""A shard id as written, in ASCII digits only."""

MAX_SHARDS = 4096
"""More shards than any bot Arbiter is meant for. Discord wants one per 2,500 guilds."""


@dataclass(frozen=True)
class Shards:
    """Shard ids `ids` of `count` shards in all, sorted, distinct and each below `count`."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ValueError(f"the shard count must be between 1 and {MAX_SHARDS}")
        if not self.ids:
            raise ValueError("a process runs at least one shard")
        if list(self.ids) != sorted(set(self.ids)):
            raise ValueError("shard ids are listed once each, in order")
        if self.ids[0] < 0 or self.ids[-1] >= self.count:
            raise ValueError(
                f"shard ids run from 0 to {self.count - 1} with --shard-count {self.count}"
            )

    @classmethod
    def parse(cls, text: str, count: int) -> Shards:
        """Reads comma-separated ranges and ids such as `0-3,6`. Raises ValueError if wrong."""
        ids: set[int] = set()
        for part in text.split(","):
            first, dash, last = part.strip().partition("-")
            if not _DIGITS.fullmatch(first) or (dash and not _DIGITS.fullmatch(last)):
                raise ValueError(f"--shards {text!r}: expected shard ids such as 0-3 or 0,2,5")
            low = int(first)
            high = int(last) if dash else low
            if high < low:
                raise ValueError(f"--shards {text!r}: the range {part.strip()} runs backwards")
            if high - low >= MAX_SHARDS or high >= MAX_SHARDS:
                raise ValueError(f"--shards {text!r}: at most {MAX_SHARDS} shards")
            ids.update(range(low, high + 1))
        return cls(tuple(sorted(ids)), count)

    def of(self, guild_id: int) -> int:
        """The shard Discord puts `guild_id` on."""
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        """Whether `guild_id`'s work is this process's."""
        return self.of(guild_id) in self.ids

    def where(self) -> tuple[str, tuple[int, ...]]:
        """The SQL condition, with its parameters, keeping rows of this process's guilds."""
        marks = ", ".join("?" * len(self.ids))
        return f"(guild_id >> 22) % ? IN ({marks})", (self.count, *self.ids)

    def __str__(self) -> str:
        """The shards for logs, such as `shard(s) 0-3 of 8`."""
        return f"shard(s) {_ranges(self.ids)} of {self.count}"


def shard_condition(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The `Shards.where()` condition after AND with its parameters, or nothing for a lone bot."""
    if shards is None:
        return "", ()
    sql, parameters = shards.where()
    return f" AND {sql}", parameters


def _ranges(ids: tuple[int, ...]) -> str:
    """The ids as text, such as `0-3,6`."""
    parts: list[str] = []
    start = previous = ids[0]
    for shard in (*ids[1:], None):
        if shard is not None and shard == previous + 1:
            previous = shard
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if shard is not None:
            start = previous = shard
    return ",".join(parts)

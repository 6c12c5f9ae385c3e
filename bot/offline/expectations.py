"""Checks a replay's expect steps against the record of the step before."""

from __future__ import annotations

from bot.offline.script import (
    UNSET,
    Expect,
)
from bot.offline.transcript import (
    StepRecord,
    reply_text,
)
from bot.rendering.common.text import cut


class ReplayFailure(Exception):
    """The replay stopped with exit 1: an expectation failed or a step could not run."""


SUMMARY_LIMIT = 300
"""Characters of what a step said that a failed expectation quotes."""


def _summary(texts: list[str]) -> str:
    joined = " / ".join(" ".join(text.split()) for text in texts if text) or "nothing"
    return cut(joined, SUMMARY_LIMIT)


def check_expectation(expect: Expect, record: StepRecord) -> None:
    """Raises ReplayFailure naming the expect step if `record`, the step before, does not match."""
    where = f"step {expect.number} (line {expect.line})"
    of = f"step {record.step}"
    replies = [reply_text(reply) for reply in record.replies]
    if expect.ephemeral is not UNSET:
        wanted = "ephemeral" if expect.ephemeral else "public"
        if not record.replies:
            raise ReplayFailure(f"{where}: expected an {wanted} reply to {of}, but it got none")
        if any(reply["ephemeral"] != expect.ephemeral for reply in record.replies):
            raise ReplayFailure(f"{where}: expected every reply to {of} {wanted}, but one is not")
    if expect.contains is not UNSET and not any(expect.contains in text for text in replies):
        raise ReplayFailure(
            f"{where}: expected a reply to {of} containing {expect.contains!r};"
            f" it said: {_summary(replies)}"
        )
    if expect.posts_contain is not UNSET:
        posts = [reply_text(post) for post in record.posts]
        if not any(expect.posts_contain in text for text in posts):
            raise ReplayFailure(
                f"{where}: expected a post in {of} containing {expect.posts_contain!r};"
                f" the posts said: {_summary(posts)}"
            )
    if expect.error is None and record.error is not None:
        raise ReplayFailure(f"{where}: expected no error in {of}, got: {record.error}")
    if isinstance(expect.error, str) and expect.error not in (record.error or ""):
        raise ReplayFailure(
            f"{where}: expected an error in {of} containing {expect.error!r},"
            f" got: {record.error or 'no error'}"
        )

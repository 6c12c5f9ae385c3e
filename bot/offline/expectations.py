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
    if expect.dms_contain is not UNSET:
        _check_dms(expect.dms_contain, record, where, of)
    if expect.error is None and record.error is not None:
        raise ReplayFailure(f"{where}: expected no error in {of}, got: {record.error}")
    if isinstance(expect.error, str) and expect.error not in (record.error or ""):
        raise ReplayFailure(
            f"{where}: expected an error in {of} containing {expect.error!r},"
            f" got: {record.error or 'no error'}"
        )


def _check_dms(wanted: str | dict[str, str], record: StepRecord, where: str, of: str) -> None:
    """Raises ReplayFailure unless a direct message of `record` contains the text.

    With an object of member name → text, a direct message to each member must contain theirs.
    """
    pairs = [(None, wanted)] if isinstance(wanted, str) else list(wanted.items())
    for member, text in pairs:
        sent = [dm for dm in record.dms if member is None or dm["to"] == member]
        texts = [reply_text(dm) for dm in sent]
        if not any(text in body for body in texts):
            to = "" if member is None else f" to {member}"
            raise ReplayFailure(
                f"{where}: expected a direct message{to} in {of} containing {text!r};"
                f" the direct messages{to} said: {_summary(texts)}"
            )

"""What the offline Discord records: replies, channel posts, uploads and their limits.

The ids and timestamp the stub gives its guilds, bots and messages live here too, so that tests
and replays build the same payloads.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

from bot.rendering.common import limits

EPHEMERAL = 64
APPLICATION_ID = 900_000_000_000_000_001
BOT_USER_ID = 900_000_000_000_000_002
FIRST_ID = 700_000_000_000_000_001
TIMESTAMP = "2026-01-01T00:00:00+00:00"
ATTACHMENT_LIMIT = 8 * 1024 * 1024


def stable_id(*parts: object) -> int:
    """A Discord id derived from names, such as guild, "role" and "HQ".

    The same names give the same id in every run, and different names practically never the same.
    """
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).digest()
    return 100_000_000_000_000_000 + int.from_bytes(digest[:8], "big") % 800_000_000_000_000_000


def _file_names(body: dict[str, Any]) -> list[str]:
    """The names of the files a message body carries. discord.py lists them in `attachments`."""
    return [str(item.get("filename")) for item in body.get("attachments") or []]


def _button_labels(components: list[dict[str, Any]]) -> list[str]:
    """The labels of the buttons in component rows, row by row."""
    labels = []
    for row in components:
        for item in row.get("components") or [row]:
            if item.get("type") == 2 and item.get("label") is not None:
                labels.append(str(item["label"]))
    return labels


def find_button(components: list[dict[str, Any]], label: str) -> dict[str, Any] | None:
    """The first button labelled `label` in component rows, if any."""
    for row in components:
        for item in row.get("components") or [row]:
            if item.get("type") == 2 and item.get("label") == label:
                found: dict[str, Any] = item
                return found
    return None


class MessageBody:
    """What a reply and a post show alike: the parts of their message body, `data`."""

    @property
    def data(self) -> dict[str, Any]:
        """The message body."""
        raise NotImplementedError

    @property
    def content(self) -> str | None:
        """The message text."""
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The embeds, as Discord receives them."""
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        """The component rows, as Discord receives them."""
        return self.data.get("components") or []

    @property
    def buttons(self) -> list[str]:
        """The labels of the message's buttons."""
        return _button_labels(self.components)

    @property
    def files(self) -> list[str]:
        """The names of the files attached to the message."""
        return _file_names(self.data)


@dataclass
class Reply(MessageBody):
    """One thing the bot sent back: an interaction response, a follow-up or an edit."""

    kind: str  # "response", "followup", "edit_original", "edit_message", "delete"
    payload: dict[str, Any]
    message_id: int | None = None
    channel_id: int | None = None
    uploads: dict[str, bytes] = field(default_factory=dict)
    """The attached files' bytes by file name, which is what a member would download."""

    @property
    def type(self) -> int | None:
        """The interaction response type: 4 message, 5 defer, 7 update, 8 autocomplete or 9
        modal.
        """
        return self.payload.get("type") if self.kind == "response" else None

    @property
    def data(self) -> dict[str, Any]:
        """The message data: `data` of a response, the body of a follow-up or edit."""
        if self.kind == "response":
            return self.payload.get("data") or {}
        return self.payload

    @property
    def ephemeral(self) -> bool:
        """Whether only the caller sees it, flag 64."""
        return bool((self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices, response type 8."""
        return self.data.get("choices") or []

    def text(self) -> str:
        """Content plus every embed's title, description and fields, for `in` assertions."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for item in embed.get("fields", []):
                parts += [item["name"], item["value"]]
            parts.append((embed.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)


@dataclass
class Post(MessageBody):
    """A message the bot posted to a channel through the REST API, such as an announcement.

    It is not an interaction reply. A direct message names its recipient in `to`.
    """

    channel_id: int
    payload: dict[str, Any]
    message_id: int
    edited: bool = False
    to: int | None = None
    """The user a direct message went to, None for a guild channel's message."""

    @property
    def data(self) -> dict[str, Any]:
        """The message body, which is the whole payload of a post."""
        return self.payload


@dataclass
class Outcome:
    """Everything the bot sent for one interaction, in order, and what went wrong.

    It holds the replies to the interaction, the messages posted to channels in `posts` and the
    direct messages in `dms`. It also holds the errors it logged, the tasks it left pending or
    failing in `stray`, and the REST calls nobody answered in `unanswered`.
    """

    replies: list[Reply] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    dms: list[Post] = field(default_factory=list)
    errors: list[logging.LogRecord] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)

    @property
    def reply(self) -> Reply:
        """The first reply, usually the only one. It fails if the bot sent nothing."""
        if not self.replies:
            raise LookupError("the bot sent no reply")
        return self.replies[0]

    def __getattr__(self, name: str) -> Any:
        # Convenience: `outcome.content` means `outcome.reply.content`.
        if name.startswith("_") or name in (
            "replies",
            "posts",
            "dms",
            "errors",
            "stray",
            "unanswered",
        ):
            raise AttributeError(name)
        return getattr(self.reply, name)


@dataclass(frozen=True)
class Upload:
    """A file a member attaches to a command option."""

    filename: str
    data: bytes


def message_limit_problems(body: dict[str, Any]) -> list[str]:
    """Every way a message body breaks Discord's limits. Discord answers 400 to each."""
    problems = []
    if len(body.get("content") or "") > limits.MESSAGE_CONTENT:
        problems.append(
            f"content has {len(body['content'])} characters (max {limits.MESSAGE_CONTENT})"
        )
    embeds = body.get("embeds") or []
    if len(embeds) > limits.EMBEDS_PER_MESSAGE:
        problems.append(f"{len(embeds)} embeds (max {limits.EMBEDS_PER_MESSAGE})")
    total = 0
    for number, embed in enumerate(embeds):
        fields = embed.get("fields") or []
        texts = {
            "title": (embed.get("title") or "", limits.EMBED_TITLE),
            "description": (embed.get("description") or "", limits.EMBED_DESCRIPTION),
            "footer": ((embed.get("footer") or {}).get("text") or "", limits.FOOTER_TEXT),
            "author": ((embed.get("author") or {}).get("name") or "", limits.AUTHOR_NAME),
        }
        for index, item in enumerate(fields):
            texts[f"field {index} name"] = (item.get("name") or "", limits.FIELD_NAME)
            texts[f"field {index} value"] = (item.get("value") or "", limits.FIELD_VALUE)
        for name, (text, limit) in texts.items():
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {number} {name} has {len(text)} characters (max {limit})")
        if len(fields) > limits.FIELDS_PER_EMBED:
            problems.append(
                f"embed {number} has {len(fields)} fields (max {limits.FIELDS_PER_EMBED})"
            )
    if total > limits.EMBED_TOTAL:
        problems.append(f"embeds total {total} characters (max {limits.EMBED_TOTAL})")
    if len(body.get("components") or []) > limits.COMPONENT_ROWS:
        rows = len(body["components"])
        problems.append(f"{rows} component rows (max {limits.COMPONENT_ROWS})")
    choices = body.get("choices") or []
    if len(choices) > limits.CHOICES:
        problems.append(f"{len(choices)} autocomplete choices (max {limits.CHOICES})")
    for choice in choices:
        if not 1 <= len(str(choice.get("name", ""))) <= limits.CHOICE_NAME:
            problems.append(f"choice name {choice.get('name')!r} not 1-{limits.CHOICE_NAME} chars")
    return problems

"""What a replay step produced, in the shapes of `docs/replay.md`.

It gives one JSON line per step, or a readable transcript. Only what Discord users see is kept, with
no ids and no timestamps, so the same script gives the same bytes. A message the bot edited, such as
a motion's tally, is marked as an edit rather than shown as a new post. The chess.com stand-in's
steps, which say what it serves, are left out of the readable transcript unless `--verbose` asks for
them, as no Discord user sees them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.offline.discord_messages import Post, Reply


def instant_text(instant: datetime) -> str:
    """An instant as the script writes it: UTC, `Z`."""
    return instant.astimezone(UTC).isoformat().replace("+00:00", "Z")


Shown = Callable[[str | None], str | None]
"""Text as a Discord client shows it, with mentions by name."""

_MENTION = re.compile(r"<(@&|@!?|#)(\d+)>")


def mentions_by_name(
    roles: dict[int, str], channels: dict[int, str], users: dict[int, str]
) -> Shown:
    """Shows `<@&id>` as `@role`, `<#id>` as `#channel` and `<@id>` as `@member`, as a Discord
    client does.

    Unknown ids stay as they are.
    """

    def name(match: re.Match[str]) -> str:
        kind, number = match.group(1), int(match.group(2))
        table = roles if kind == "@&" else channels if kind == "#" else users
        known = table.get(number)
        return match.group(0) if known is None else ("#" if kind == "#" else "@") + known

    def shown(text: str | None) -> str | None:
        return None if text is None else _MENTION.sub(name, text)

    return shown


def _as_is(text: str | None) -> str | None:
    return text


def _embed(embed: dict[str, Any], shown: Shown) -> dict[str, Any]:
    return {
        "title": shown(embed.get("title")),
        "description": shown(embed.get("description")),
        "fields": [
            [shown(item.get("name")), shown(item.get("value"))]
            for item in embed.get("fields") or []
        ],
    }


def reply_view(reply: Reply, shown: Shown = _as_is) -> dict[str, Any] | None:
    """A reply as the transcript shows it, or None for what shows nothing, such as a defer or a
    delete.
    """
    if reply.kind == "delete" or reply.type in (5, 6):
        return None
    view: dict[str, Any] = {
        "ephemeral": reply.ephemeral or reply.type == 8,
        "content": shown(reply.content),
        "embeds": [_embed(embed, shown) for embed in reply.embeds],
        "files": reply.files,
        "buttons": reply.buttons,
    }
    if reply.type == 8:
        view["choices"] = [choice.get("name") for choice in reply.choices]
    if reply.type == 9:
        view["ephemeral"] = True
        view["form"] = reply.data.get("title")
        view["fields"] = form_labels(reply.data.get("components") or [])
    return view


def form_inputs(components: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The text inputs of a form (a modal) with their labels, in order.

    An input sits in an action row with its own label, or in a label component.
    """
    found = []
    for row in components:
        if row.get("type") == 18 and isinstance(row.get("component"), dict):
            found.append((str(row.get("label")), row["component"]))
        for item in row.get("components") or []:
            if item.get("type") == 4:
                found.append((str(item.get("label")), item))
    return found


def form_labels(components: list[dict[str, Any]]) -> list[str]:
    """The labels of a form's text inputs."""
    return [label for label, _ in form_inputs(components)]


def post_view(post: Post, channels: dict[int, str], shown: Shown = _as_is) -> dict[str, Any]:
    """A channel message as the transcript shows it, with the channel by name.

    `edited` marks an earlier message edited into its new state, rather than a new message.
    """
    return {
        "channel": channels.get(post.channel_id, str(post.channel_id)),
        "edited": post.edited,
        "content": shown(post.content),
        "embeds": [_embed(embed, shown) for embed in post.embeds],
        "files": post.files,
    }


def dm_view(post: Post, to: str, shown: Shown = _as_is) -> dict[str, Any]:
    """A direct message as the transcript shows it: to whom, by name, and what it says.

    Unlike a channel post it lists its buttons, which its reader acts on.
    """
    return {
        "to": to,
        "edited": post.edited,
        "content": shown(post.content),
        "embeds": [_embed(embed, shown) for embed in post.embeds],
        "files": post.files,
        "buttons": post.buttons,
    }


@dataclass
class StepRecord:
    """One step's output: the clock after it, replies, posts and the errors it caused."""

    step: int
    line: int
    title: str
    at: datetime
    replies: list[dict[str, Any]] = field(default_factory=list)
    posts: list[dict[str, Any]] = field(default_factory=list)
    dms: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    backstage: bool = False
    """A step no Discord user sees, such as what the chess.com stand-in serves.

    It is left out of the readable transcript unless verbose.
    """

    def as_json(self) -> str:
        """The step's JSON line, in the shape of docs/replay.md."""
        record = {
            "step": self.step,
            "at": instant_text(self.at),
            "replies": self.replies,
            "posts": self.posts,
            "dms": self.dms,
            "error": self.error,
        }
        return json.dumps(record, ensure_ascii=False)

    def shown_in_text(self, verbose: bool = False) -> bool:
        """Whether the readable transcript shows this step. Backstage steps show only if verbose."""
        return verbose or not self.backstage

    def as_text(self) -> str:
        """The step for a reader: a heading line, then what the bot said, indented."""
        lines = [f"step {self.step} · {instant_text(self.at)} · {self.title}"]
        for reply in self.replies:
            seen = "ephemeral" if reply["ephemeral"] else "public"
            lines += _message(f"reply ({seen})", reply)
            if "choices" in reply:
                lines.append("    choices: " + (", ".join(reply["choices"]) or "(none)"))
            if "form" in reply:
                lines.append(f"    form: {reply['form']}")
                lines.append("    fields: " + " ".join(f"[{label}]" for label in reply["fields"]))
        for post in self.posts:
            label = "edit of a message in" if post.get("edited") else "post"
            lines += _message(f"{label} #{post['channel']}", post)
        for dm in self.dms:
            label = "edit of a direct message to" if dm.get("edited") else "direct message to"
            lines += _message(f"{label} @{dm['to']}", dm)
        if self.error:
            lines.append(f"  error: {self.error}")
        return "\n".join(escaped(line) for line in lines)


def escaped(line: str) -> str:
    """One transcript line with its control and line-separator characters shown as escapes
    (`\\x00`, `\\n`), so the readable file stays one line per line and plain text."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp")
        else ch
        for ch in line
    )


def _indented(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.split("\n")] or [prefix]


def _message(label: str, message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    first, _, rest = (content or "").partition("\n")
    lines = [f"  {label}:" + (f" {first}" if content else "")]
    if "\n" in (content or ""):
        lines += _indented(rest, "    ")
    for embed in message["embeds"]:
        lines.append(f"    [{embed['title'] or ''}]")
        if embed["description"]:
            lines += _indented(embed["description"], "      ")
        for name, value in embed["fields"]:
            lines.append(f"      {name}:")
            lines += _indented(str(value), "        ")
    if message.get("files"):
        lines.append("    files: " + ", ".join(message["files"]))
    if message.get("buttons"):
        lines.append("    buttons: " + " ".join(f"[{label}]" for label in message["buttons"]))
    return lines


def reply_text(view: dict[str, Any]) -> str:
    """Everything a message says, for `contains`: content, embeds, buttons and choices."""
    parts = [view.get("content") or ""]
    for embed in view["embeds"]:
        parts += [embed["title"] or "", embed["description"] or ""]
        for name, value in embed["fields"]:
            parts += [str(name), str(value)]
    parts += view.get("buttons") or []
    parts += view.get("choices") or []
    parts += [view["form"], *view["fields"]] if view.get("form") else []
    parts += view.get("files") or []
    return "\n".join(part for part in parts if part)

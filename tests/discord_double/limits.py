"""Discord's documented limits on what a bot sends, and its error answers.

A body over a limit gets Discord's 400 `{"code": 50035, "message": "Invalid Form Body",
"errors": {...}}`, the errors nested by the path of the offending field (`embeds` → `0` →
`description` → `_errors: [{"code", "message"}]`). Limits (developer documentation, Message,
Embed Limits, Message Components, Application Commands):

- message: content ≤ 2000 characters; ≤ 10 embeds; ≤ 5 component rows of ≤ 5 buttons;
  ≤ 10 files; not empty (content, an embed, a file or a component);
- embed: title ≤ 256, description ≤ 4096, ≤ 25 fields, field name ≤ 256, value ≤ 1024,
  footer ≤ 2048, author name ≤ 256, all of a message's embeds together ≤ 6000;
- button: label ≤ 80, custom_id ≤ 100, a custom_id unique in the message;
- autocomplete: ≤ 25 choices, names 1–100, string values ≤ 100;
- commands: ≤ 100 chat-input commands; a name 1–32 lowercase characters (letters, digits,
  `-`, `_`); a description 1–100; ≤ 25 options, choices and subcommands; required options
  before optional ones; ≤ 4000 characters of names, descriptions and choices per command.
"""

from __future__ import annotations

import re
from typing import Any

Problem = tuple[tuple[str, ...], str, str]
"""Where (the field's path), Discord's error code, its message."""

NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_FILES = 10
UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's default upload limit per file (10 MiB)."""


def too_long(path: tuple[str, ...], text: str, limit: int) -> list[Problem]:
    """A string field longer than Discord allows."""
    if len(text) > limit:
        return [(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def out_of_range(path: tuple[str, ...], text: str, low: int, high: int) -> list[Problem]:
    """A string field outside `low`..`high` characters."""
    if not low <= len(text) <= high:
        return [(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")]
    return []


def too_many(path: tuple[str, ...], items: list[Any], limit: int) -> list[Problem]:
    """A list longer than Discord allows."""
    if len(items) > limit:
        return [(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def embed_problems(embeds: list[dict[str, Any]]) -> list[Problem]:
    """Every limit the embeds of one message break."""
    problems = too_many(("embeds",), embeds, 10)
    total = 0
    for number, embed in enumerate(embeds):
        at = ("embeds", str(number))
        texts = [
            (("title",), embed.get("title") or "", 256),
            (("description",), embed.get("description") or "", 4096),
            (("footer", "text"), (embed.get("footer") or {}).get("text") or "", 2048),
            (("author", "name"), (embed.get("author") or {}).get("name") or "", 256),
        ]
        fields = embed.get("fields") or []
        problems += too_many((*at, "fields"), fields, 25)
        for index, item in enumerate(fields):
            texts.append((("fields", str(index), "name"), item.get("name") or "", 256))
            texts.append((("fields", str(index), "value"), item.get("value") or "", 1024))
        for path, text, limit in texts:
            total += len(text)
            problems += too_long((*at, *path), text, limit)
    if total > 6000:
        problems.append(
            (("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
        )
    return problems


def component_problems(rows: list[dict[str, Any]]) -> list[Problem]:
    """Every limit the component rows of one message break."""
    problems = too_many(("components",), rows, 5)
    seen: set[str] = set()
    for number, row in enumerate(rows):
        items = row.get("components") or []
        problems += too_many(("components", str(number), "components"), items, 5)
        for index, item in enumerate(items):
            at = ("components", str(number), "components", str(index))
            problems += too_long((*at, "label"), item.get("label") or "", 80)
            custom_id = item.get("custom_id")
            if custom_id is not None:
                problems += too_long((*at, "custom_id"), custom_id, 100)
                if custom_id in seen:
                    problems.append(
                        (
                            (*at, "custom_id"),
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        )
                    )
                seen.add(custom_id)
    return problems


def message_problems(body: dict[str, Any], files: int = 0) -> list[Problem]:
    """Every limit a message body (create or edit) breaks."""
    problems = too_long(("content",), body.get("content") or "", 2000)
    problems += embed_problems(body.get("embeds") or [])
    problems += component_problems(body.get("components") or [])
    if files > MAX_FILES:
        problems.append(
            (("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
        )
    return problems


def is_empty(body: dict[str, Any], files: int) -> bool:
    """A new message with nothing to show (Discord: 50006 Cannot send an empty message)."""
    return not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("sticker_ids")
        or body.get("poll")
    )


def choice_problems(choices: list[dict[str, Any]]) -> list[Problem]:
    """Every limit an autocomplete answer breaks."""
    problems = too_many(("data", "choices"), choices, 25)
    for index, choice in enumerate(choices):
        at = ("data", "choices", str(index))
        problems += out_of_range((*at, "name"), str(choice.get("name") or ""), 1, 100)
        value = choice.get("value")
        if isinstance(value, str):
            problems += too_long((*at, "value"), value, 100)
    return problems


def _option_problems(
    at: tuple[str, ...], options: list[dict[str, Any]]
) -> tuple[list[Problem], int]:
    """The problems of one level of options and the characters it counts."""
    problems = too_many(at, options, 25)
    size = 0
    optional_seen = False
    for index, option in enumerate(options):
        where = (*at, str(index))
        name = str(option.get("name") or "")
        description = str(option.get("description") or "")
        size += len(name) + len(description)
        if not NAME.match(name) or name != name.lower():
            problems.append(
                ((*where, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            )
        problems += out_of_range((*where, "description"), description, 1, 100)
        choices = option.get("choices") or []
        problems += too_many((*where, "choices"), choices, 25)
        for number, choice in enumerate(choices):
            size += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
            problems += out_of_range(
                (*where, "choices", str(number), "name"), str(choice.get("name") or ""), 1, 100
            )
        if option.get("type") in (1, 2):
            nested, more = _option_problems((*where, "options"), option.get("options") or [])
            problems += nested
            size += more
        elif option.get("required"):
            if optional_seen:
                problems.append(
                    (
                        (*where, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            optional_seen = True
    return problems, size


def command_problems(commands: list[dict[str, Any]]) -> list[Problem]:
    """Every limit a bulk overwrite of application commands breaks."""
    chat = [c for c in commands if c.get("type", 1) == 1]
    problems = too_many((), chat, 100)
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        at = (str(index),)
        name = str(command.get("name") or "")
        kind = int(command.get("type", 1))
        if kind == 1 and (not NAME.match(name) or name != name.lower()):
            problems.append(
                ((*at, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            )
        if (kind, name) in names:
            problems.append(
                (
                    (*at, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique",
                )
            )
        names.add((kind, name))
        description = str(command.get("description") or "")
        if kind == 1:
            problems += out_of_range((*at, "description"), description, 1, 100)
        nested, size = _option_problems((*at, "options"), command.get("options") or [])
        problems += nested
        if len(name) + len(description) + size > 4000:
            problems.append(
                (at, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)")
            )
    return problems


def form_error(problems: list[Problem]) -> dict[str, Any]:
    """Discord's 400 body for these problems: errors nested by path."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for part in path:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def json_error(code: int, message: str) -> dict[str, Any]:
    """Discord's error body for a JSON error code (Unknown Channel, Missing Permissions, …)."""
    return {"code": code, "message": message}

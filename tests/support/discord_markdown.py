"""A reader of Discord's message markdown for the tests, written from Discord's documented
syntax ("Markdown Text 101", the message-formatting reference) and the simple-markdown rules
its client is built on: what a Discord client would show as formatting, a link, a mention, a
timestamp, a command or an emoji — so a test can say that a user's text shows as typed.

    parse("**a** <t:0:R> [x](https://e.example)")
    → [Node("strong", children=(Node("text", "a"),)), Node("text", " "),
       Node("timestamp", "0"), Node("text", " "), Node("link", "https://e.example", …)]

It reads at least as much as Discord does (a doubtful construct counts), so text it finds
plain is plain in Discord. `shown` is the text a reader sees; `skeleton` what is not text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

KINDS_OF_LINKS = ("link", "url")
MENTIONS = ("user", "role", "channel", "everyone", "here", "command", "guild")


@dataclass(frozen=True)
class Node:
    """One thing the client shows: `text` with its `value`, or a construct (its `value` the
    id, url or code; `children` the formatted text inside)."""

    kind: str
    value: str = ""
    children: tuple[Node, ...] = ()


_Rule = tuple[str, re.Pattern[str], Callable[[re.Match[str]], Node]]


def _wrap(kind: str) -> Callable[[re.Match[str]], Node]:
    return lambda found: Node(kind, children=tuple(_inline(found.group(1), False)))


def _value(kind: str, group: int = 1) -> Callable[[re.Match[str]], Node]:
    return lambda found: Node(kind, found.group(group))


_BLOCK: list[_Rule] = [
    ("heading", re.compile(r"(#{1,3}) +([^\n]+?) *(?:\n|$)"), lambda f: _block("heading", f, 2)),
    ("subtext", re.compile(r"-# +([^\n]+?) *(?:\n|$)"), lambda f: _block("subtext", f, 1)),
    ("quote", re.compile(r">>> ([\s\S]*)"), lambda f: _block("quote", f, 1)),
    ("quote", re.compile(r"> ([^\n]*)(?:\n|$)"), lambda f: _block("quote", f, 1)),
    ("list", re.compile(r" *(?:[*+-]|\d+\.) +([^\n]*)(?:\n|$)"), lambda f: _block("list", f, 1)),
]
"""Rules that apply only at the start of a line."""

_INLINE: list[_Rule] = [
    ("escape", re.compile(r"\\([^0-9A-Za-z\s])"), lambda f: Node("text", f.group(1))),
    ("codeblock", re.compile(r"```(?:[a-z0-9_+\-.#]*\n)?([\s\S]*?)```"), _value("codeblock")),
    ("code", re.compile(r"(`+)([\s\S]*?[^`])\1(?!`)"), _value("code", 2)),
    ("user", re.compile(r"<@!?(\d+)>"), _value("user")),
    ("role", re.compile(r"<@&(\d+)>"), _value("role")),
    ("channel", re.compile(r"<#(\d+)>"), _value("channel")),
    ("command", re.compile(r"</([^\s:<>/][^:<>]*):(\d+)>"), _value("command")),
    ("timestamp", re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>"), _value("timestamp")),
    ("emoji", re.compile(r"<a?:(\w+):(\d+)>"), _value("emoji", 2)),
    ("guild", re.compile(r"<id:(\w+)>"), _value("guild")),
    ("url", re.compile(r"<([^: >]+:/[^ >]+)>"), _value("url")),
    ("everyone", re.compile(r"@everyone"), lambda f: Node("everyone")),
    ("here", re.compile(r"@here"), lambda f: Node("here")),
    (
        "link",
        re.compile(
            r"\[((?:\[[^\]]*\]|[^\[\]]|\](?=[^\[]*\]))*)\]"
            r"\(\s*<?((?:\([^)]*\)|[^\s\\])*?)>?(?:\s+['\"][\s\S]*?['\"])?\s*\)"
        ),
        lambda f: Node("link", f.group(2), tuple(_inline(f.group(1), False))),
    ),
    ("url", re.compile(r"(https?://[^\s<]+[^<.,:;\"')\]\s])"), _value("url")),
    ("strong", re.compile(r"\*\*((?:\\[\s\S]|[^\\])+?)\*\*(?!\*)"), _wrap("strong")),
    ("underline", re.compile(r"__((?:\\[\s\S]|[^\\])+?)__(?!_)"), _wrap("underline")),
    (
        "em",
        re.compile(r"\*(?=\S)((?:\*\*|\\[\s\S]|\s+(?:\\[\s\S]|[^\s*\\]|\*\*)|[^\s*\\])+?)\*(?!\*)"),
        _wrap("em"),
    ),
    ("em", re.compile(r"\b_((?:__|\\[\s\S]|[^\\_])+?)_\b"), _wrap("em")),
    ("strike", re.compile(r"~~([\s\S]+?)~~"), _wrap("strike")),
    ("spoiler", re.compile(r"\|\|([\s\S]+?)\|\|"), _wrap("spoiler")),
]
"""Rules tried in this order wherever the text is."""

_TEXT = re.compile(r"[\s\S]+?(?=[^0-9A-Za-z\s\u00c0-\uffff]|\n|\w+:\S|$)")


def _block(kind: str, found: re.Match[str], group: int) -> Node:
    return Node(kind, children=tuple(_inline(found.group(group), False)))


def _inline(text: str, line_start: bool = True) -> list[Node]:
    nodes: list[Node] = []
    position = 0
    while position < len(text):
        at_line_start = (position == 0 and line_start) or text[position - 1 : position] == "\n"
        rules = (_BLOCK if at_line_start else []) + _INLINE
        for _, pattern, build in rules:
            found = pattern.match(text, position)
            if found and found.end() > position:
                nodes.append(build(found))
                position = found.end()
                break
        else:
            found = _TEXT.match(text, position)
            end = found.end() if found else position + 1
            nodes.append(Node("text", text[position:end]))
            position = end
    return _merged(nodes)


def _merged(nodes: list[Node]) -> list[Node]:
    out: list[Node] = []
    for node in nodes:
        if node.kind == "text" and out and out[-1].kind == "text":
            out[-1] = Node("text", out[-1].value + node.value)
        else:
            out.append(node)
    return out


def parse(markdown: str) -> list[Node]:
    """What a Discord client shows for `markdown` (message content, an embed's description,
    field or title), as nodes."""
    return _inline(markdown)


LITERAL = ("text", "code", "codeblock", "url")
"""Nodes whose value the client shows as it is: text, inline code, a code block, a bare URL."""


def shown(nodes: list[Node] | tuple[Node, ...]) -> str:
    """The text a reader sees in `nodes`: formatting dropped, code and bare URLs as written,
    the text inside other constructs."""
    return "".join(node.value if node.kind in LITERAL else shown(node.children) for node in nodes)


def constructs(nodes: list[Node] | tuple[Node, ...]) -> list[Node]:
    """Every node that is not plain text, nested ones included."""
    found: list[Node] = []
    for node in nodes:
        if node.kind != "text":
            found.append(node)
            found += constructs(node.children)
    return found


def skeleton(nodes: list[Node] | tuple[Node, ...]) -> tuple[object, ...]:
    """The shape of `nodes` without their text: kinds, nesting, and the ids, timestamps
    and link hosts (not paths) of constructs — two renderings with the same skeleton show
    the same formatting, links and mentions around different texts."""
    shape: list[object] = []
    for node in nodes:
        if node.kind == "text":
            if not shape or shape[-1] != "T":
                shape.append("T")
            continue
        value = node.value
        if node.kind in KINDS_OF_LINKS:
            value = re.sub(r"^(\w+://[^/]*).*$", r"\1", value)
        elif node.kind in ("code", "codeblock"):
            value = ""
        shape.append((node.kind, value, skeleton(node.children)))
    return tuple(shape)

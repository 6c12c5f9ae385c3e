"""SQL text as tokens (words, strings, placeholders, operators, comments, blanks), so the
PostgreSQL translations (`storage/dialect.py`, `storage/schema_translation.py`) never touch
what is inside a string literal or a comment. Joining the tokens gives the text back."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """What a token is."""

    BLANK = "blank"
    COMMENT = "comment"
    STRING = "string"  # '…', quotes doubled inside
    IDENTIFIER = "identifier"  # "…", a quoted name
    NUMBER = "number"
    WORD = "word"  # a keyword or a plain name
    PARAMETER = "parameter"  # ?
    OPERATOR = "operator"  # punctuation and operators: ( ) , ; . = <> || …


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind, its text as written and where it starts in the statement."""

    kind: Kind
    text: str
    at: int

    @property
    def upper(self) -> str:
        """The text in capitals (keywords and names compare case-insensitively)."""
        return self.text.upper()

    def is_word(self, *words: str) -> bool:
        """Whether this is one of `words` (a keyword, case-insensitive)."""
        return self.kind is Kind.WORD and self.upper in words

    def is_op(self, *texts: str) -> bool:
        """Whether this is one of the operators or punctuation marks `texts`."""
        return self.kind is Kind.OPERATOR and self.text in texts


class SqlSyntaxError(ValueError):
    """Text the tokenizer cannot read (an unclosed string, a placeholder style not ours)."""


_PATTERN = re.compile(
    r"""
    (?P<blank>\s+)
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<string>'(?:[^']|'')*')
  | (?P<identifier>"(?:[^"]|"")*")
  | (?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<parameter>\?(?!\d))
  | (?P<operator>\|\||<=|>=|<>|!=|==|::|[-+*/%<>=(),;.&|~])
    """,
    re.VERBOSE | re.DOTALL,
)


def tokenize(sql: str) -> list[Token]:
    """The tokens of `sql`, blanks and comments included; raises `SqlSyntaxError` on text
    none of Arbiter's SQL uses (`?1`, `:name`, `$1`, backquotes, an unclosed quote)."""
    tokens = []
    position = 0
    while position < len(sql):
        match = _PATTERN.match(sql, position)
        if match is None:
            line = sql.count("\n", 0, position) + 1
            raise SqlSyntaxError(
                f"cannot read SQL at line {line}: {sql[position : position + 30]!r}"
            )
        kind = match.lastgroup
        assert kind is not None
        tokens.append(Token(Kind(kind), match.group(), position))
        position = match.end()
    return tokens


def join(tokens: Sequence[Token]) -> str:
    """The text of `tokens` as written."""
    return "".join(token.text for token in tokens)


def significant(tokens: Sequence[Token]) -> list[Token]:
    """`tokens` without blanks and comments."""
    return [t for t in tokens if t.kind not in (Kind.BLANK, Kind.COMMENT)]


def statements(tokens: Sequence[Token]) -> Iterator[list[Token]]:
    """The statements of a script: tokens up to and including each top-level `;` (a
    trigger's body, BEGIN … END, is inside its statement). Blank and comment-only tails are
    not statements."""
    current: list[Token] = []
    first: Token | None = None  # the statement's first significant token
    in_body = False
    for token in tokens:
        current.append(token)
        if token.kind in (Kind.BLANK, Kind.COMMENT):
            continue
        if first is None:
            first = token
        if token.is_word("BEGIN") and first.is_word("CREATE"):
            in_body = True
        elif token.is_word("END") and in_body:
            in_body = False
        elif token.is_op(";") and not in_body:
            yield current
            current, first = [], None
    if first is not None:
        yield current


def line_of(sql: str, token: Token) -> int:
    """The line (from 1) of `sql` on which `token` starts."""
    return sql.count("\n", 0, token.at) + 1

"""Tokens of the card search language, and the error every stage raises.

The lexer keeps each token's character offset so a later stage (parser,
compiler) can point a caret at the exact spot a user got wrong.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pnpforge.errors import PnpError

# field, operator (longest first, so `>=` is not `>` then `=`), value.
_TERM = re.compile(r"([^:<>=!]*)(>=|<=|!=|:|=|<|>)(.*)", re.DOTALL)

# Full-width punctuation a Chinese input method types: read as its ASCII twin
# where it is syntax.  One character for one, so offsets in the translated
# text index the original, from which values are taken unchanged (card text
# is full of `：`).
_FULLWIDTH = str.maketrans(
    {"：": ":", "（": "(", "）": ")", "“": '"', "”": '"', "＝": "=", "＜": "<", "＞": ">", "！": "!"}
)
_STOP = set('()"')  # characters that end a bare word


class QueryError(PnpError):
    """A malformed search; the message quotes the query with a caret under the fault."""

    def __init__(self, message: str, query: str = "", position: int | None = None) -> None:
        self.reason = message
        self.query = query
        self.position = position
        if position is None or not query:
            super().__init__(message)
            return
        # One character for one (so the caret stays put), and printable.
        shown = query.encode("utf-8", "replace").decode().replace("\n", " ").replace("\t", " ")
        super().__init__(
            f"{message} (at position {position + 1})\n  {shown}\n  {' ' * _columns(shown[:position])}^"
        )


def _columns(text: str) -> int:
    """Terminal width of text: CJK characters take two columns, so the caret lines up."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@dataclass(frozen=True)
class Token:
    """kind: '(' ')' 'or' 'and' '-' or 'term'.

    A term is `field op value` (field None for a bare word or quoted phrase);
    `value_pos` is where its value starts, for errors about the value.
    """

    kind: str
    pos: int
    field: str | None = None
    op: str = ":"
    value: str = ""
    value_pos: int = 0


def tokenize(query: str) -> list[Token]:
    """Split a query into tokens; raise QueryError on an unclosed quote or empty part."""
    bad = next((i for i, ch in enumerate(query) if "\ud800" <= ch <= "\udfff"), None)
    if bad is not None:  # undecodable bytes from the command line; SQLite can't take them
        raise QueryError("the query contains an undecodable character", query, bad)
    text = query.translate(_FULLWIDTH)
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            tokens.append(Token(ch, i))
            i += 1
        elif ch == "-":
            if i + 1 >= n or text[i + 1].isspace() or text[i + 1] == ")":
                raise QueryError("'-' must be followed by a term to exclude", query, i)
            tokens.append(Token("-", i))
            i += 1
        elif ch == '"':
            start = i
            value, i = _quoted(text, i, query)
            tokens.append(Token("term", start, value=value, value_pos=start + 1))
        else:
            token, i = _word(text, i, query)
            tokens.append(token)
    return tokens


def _quoted(text: str, start: int, query: str) -> tuple[str, int]:
    """The phrase inside the quotes at `start`, and the offset just past the closing quote."""
    end = text.find('"', start + 1)
    if end < 0:
        raise QueryError("unclosed quote", query, start)
    if end == start + 1:
        raise QueryError("empty quotes", query, start)
    return query[start + 1 : end], end + 1


def _word(text: str, start: int, query: str) -> tuple[Token, int]:
    """A bare word, `or`/`and`, or a `field op value` term (value may be quoted)."""
    i = start
    while i < len(text) and not text[i].isspace() and text[i] not in _STOP:
        i += 1
    word = text[start:i]
    if word.lower() in ("or", "and"):
        return Token(word.lower(), start), i
    m = _TERM.fullmatch(word)
    if m is None:
        return Token("term", start, value=query[start:i], value_pos=start), i
    field, op, value = m.groups()
    if not field:
        raise QueryError(f"missing field name before '{op}'", query, start)
    value_pos = start + len(field) + len(op)
    if not value and i < len(text) and text[i] == '"':
        value, i = _quoted(text, i, query)
        return Token("term", start, field, op, value, value_pos + 1), i
    if not value:
        raise QueryError(f"missing value after '{field}{op}'", query, value_pos)
    return Token("term", start, field, op, query[value_pos:i], value_pos), i

"""Recursive-descent parser: tokens -> a small AST.

Grammar (as Scryfall: AND binds tighter than OR, so `a or b c` is
`a or (b and c)`; adjacent terms are ANDed, `and` may be written out):

    query   := [or_expr]
    or_expr := and_expr ("or" and_expr)*
    and_expr:= unary (["and"] unary)*
    unary   := "-"* primary
    primary := "(" or_expr ")" | term

Nesting and term counts are capped so a hostile query cannot blow Python's
recursion limit or SQLite's expression depth; both raise QueryError instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpforge.query.lexer import QueryError, Token, tokenize

MAX_DEPTH = 32
MAX_TERMS = 100


@dataclass(frozen=True)
class Term:
    """`field op value`; field None means a bare word or quoted phrase (name or text)."""

    field: str | None
    op: str
    value: str
    pos: int
    value_pos: int


@dataclass(frozen=True)
class Not:
    child: Node
    pos: int


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]


Node = Term | Not | And | Or


@dataclass(frozen=True)
class Query:
    """A parsed query; keeps its text so compile errors can point into it."""

    text: str
    root: Node | None  # None: the empty query, which matches every card


def parse(text: str) -> Query:
    """Parse a search query; raise QueryError (with a caret) if it is malformed."""
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        self.depth = 0
        self.terms = 0

    def error(self, message: str, pos: int | None = None) -> QueryError:
        if pos is None:
            tok = self.peek()
            pos = tok.pos if tok else len(self.text)
        return QueryError(message, self.text, pos)

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def parse(self) -> Query:
        if not self.tokens:
            return Query(self.text, None)
        root = self.or_expr()
        if self.peek() is not None:  # only a stray ')' can stop or_expr early
            raise self.error("unmatched ')'")
        return Query(self.text, root)

    def or_expr(self) -> Node:
        parts = [self.and_expr()]
        while (tok := self.peek()) is not None and tok.kind == "or":
            self.take()
            nxt = self.peek()
            if nxt is None or nxt.kind in (")", "or", "and"):
                raise self.error("'or' needs a term after it")
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def and_expr(self) -> Node:
        parts: list[Node] = []
        while (tok := self.peek()) is not None and tok.kind not in (")", "or"):
            if tok.kind == "and":
                if not parts:
                    raise self.error("'and' needs a term before it")
                self.take()
                nxt = self.peek()
                if nxt is None or nxt.kind in (")", "or", "and"):
                    raise self.error("'and' needs a term after it")
            parts.append(self.unary())
        if not parts:
            tok = self.peek()
            if tok is None:
                raise self.error("expected a search term")
            if tok.kind == ")":
                raise self.error("empty parentheses" if self.depth else "unmatched ')'")
            raise self.error(f"'{tok.kind}' needs a term before it")
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def unary(self) -> Node:
        negations, first = 0, None
        while (tok := self.peek()) is not None and tok.kind == "-":
            first = first if first is not None else tok.pos
            negations += 1
            self.take()
        node = self.primary()
        return Not(node, first) if negations % 2 and first is not None else node

    def primary(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise self.error("expected a search term")
        if tok.kind == "(":
            self.take()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.error(f"parentheses nested deeper than {MAX_DEPTH}", tok.pos)
            inner = self.or_expr()
            closing = self.peek()
            if closing is None or closing.kind != ")":
                raise self.error("unclosed '('", tok.pos)
            self.take()
            self.depth -= 1
            return inner
        if tok.kind != "term":
            raise self.error(f"expected a search term, found '{tok.kind}'")
        self.take()
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise self.error(f"too many terms (at most {MAX_TERMS})", tok.pos)
        return Term(tok.field, tok.op, tok.value, tok.pos, tok.value_pos)

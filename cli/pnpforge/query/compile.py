"""AST -> a parameterized SQL boolean over `cards c`.

Every value the user typed travels as a `?` parameter, field names included
(as JSON paths), so the SQL text depends only on the query's shape and the
field definitions, never on its literals.  Each term compiles to a two-valued
expression (coalesce(..., 0)): a card whose type lacks a field does not match
`field:x`, and therefore does match `-field:x`.

Meaning of `field OP value` by field type:
  integer       numeric; every operator
  text          `:` substring, `=` whole value; case-insensitive (ASCII folding)
  list          `:`/`=` the list holds the value
  enum, ref     `:`/`=` exact (ASCII case-insensitive); enums check `allowed`
  boolean       true/false, yes/no, 1/0, 是/否
A bare word or phrase matches names, rules text and notes: through the FTS5
trigram index (`cards_fts`) from three characters on, as a substring below.
`!=` means "has the field and it differs" (use `-field:x` to include cards
without it).  Card attributes (name, id, type, copies ...) come before game
fields of the same name; a game field is found by name, then by its label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pnpforge.model import PROVENANCES, FieldDef
from pnpforge.query.lexer import QueryError
from pnpforge.query.parser import And, Node, Not, Or, Query, Term, parse
from pnpforge.store.schema_search import FTS_COLUMNS, FTS_TABLE, TRIGRAM

Sql = tuple[str, list[Any]]


def indexable(value: str) -> bool:
    """Whether the trigram index can find `value`: three characters or more, and no NUL
    (an FTS5 query cannot carry one; such a word is matched as a substring instead)."""
    return len(value) >= TRIGRAM and "\x00" not in value


def fts_phrase(value: str) -> str:
    """`value` as one FTS5 phrase: a trigram index matches it as a substring, quotes and all."""
    return '"' + value.replace("\x00", "").replace('"', '""') + '"'


def ranked_words(query: Query) -> list[str]:
    """The bare words and phrases a card should match (none under a negation), long enough to rank."""
    words: list[str] = []

    def walk(node: Node) -> None:
        if isinstance(node, Term):
            if node.field is None and indexable(node.value):
                words.append(node.value)
        elif isinstance(node, And | Or):
            for child in node.children:
                walk(child)

    if query.root is not None:
        walk(query.root)
    return words


_SQL_OPS = {":": "=", "=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_INT = re.compile(r"[+-]?\d+")
_BOOLS = {"true": 1, "yes": 1, "1": 1, "是": 1, "y": 1, "false": 0, "no": 0, "0": 0, "否": 0, "n": 0}
# Card columns that are free text, searchable like a text field.
_TEXT_COLUMNS = {
    "name": ("c.name", "c.name_en"),
    "name_en": ("c.name_en",),
    "text": ("c.text",),
    "flavor": ("c.flavor",),
    "notes": ("c.notes",),
    "source": ("c.source",),
}
_HAS_COLUMNS = ("name_en", "text", "flavor", "art", "notes", "source")
_MATCH_ONLY = (":", "=")


def compile_query(
    query: Query | str,
    field_defs: Mapping[str, Sequence[FieldDef]],
    *,
    type_aliases: Mapping[str, str] | None = None,
) -> Sql:
    """Compile a query (text or parse() result) to (where_sql, params) over alias `c`.

    field_defs maps a field name to its definitions across the searched card
    types.  type_aliases (lower-cased slug/name/name_en -> slug), when given,
    lets `type:` take a card type's display name and rejects unknown types.
    """
    q = parse(query) if isinstance(query, str) else query
    if q.root is None:
        return "1", []
    sql, params = _Compiler(q.text, field_defs, type_aliases).node(q.root)
    return f"({sql})", params


class _Compiler:
    def __init__(
        self, text: str, field_defs: Mapping[str, Sequence[FieldDef]], type_aliases: Mapping[str, str] | None
    ) -> None:
        self.text = text
        self.defs = field_defs
        self.type_aliases = type_aliases
        self.attributes: dict[str, Callable[[Term], Sql]] = {
            **{k: self.text_column for k in _TEXT_COLUMNS},
            "id": lambda t: self.exact("c.id", t, t.value),
            "game": lambda t: self.exact("c.game", t, t.value),
            "type": self.card_type,
            "copies": self.copies,
            "provenance": self.provenance,
            "is": self.is_flag,
            "has": self.has,
        }

    # ---- tree ------------------------------------------------------------------

    def node(self, n: Node) -> Sql:
        if isinstance(n, Term):
            return self.term(n)
        if isinstance(n, Not):
            sql, params = self.node(n.child)
            return f"NOT ({sql})", params
        parts = [self.node(child) for child in n.children]
        joiner = " AND " if isinstance(n, And) else " OR "
        return joiner.join(f"({s})" for s, _ in parts), [p for _, ps in parts for p in ps]

    def error(self, message: str, pos: int) -> QueryError:
        return QueryError(message, self.text, pos)

    def term(self, t: Term) -> Sql:
        if t.field is None:  # bare word or phrase: name, English name, rules text or notes
            return self.words(t.value)
        handler = self.attributes.get(t.field.lower())
        if handler is not None:
            return handler(t)
        return self.field(t, self.resolve(t.field, t.pos))

    # ---- card attributes ---------------------------------------------------------

    def text_column(self, t: Term) -> Sql:
        columns = _TEXT_COLUMNS[t.field.lower()]  # type: ignore[union-attr]
        self.check_op(t, (":", "=", "!="), "text")
        if t.op == ":":
            return self.substring(columns, t.value)
        joiner = " OR " if t.op == "=" else " AND "
        op = _SQL_OPS[t.op]
        return joiner.join(f"lower({c}) {op} lower(?)" for c in columns), [t.value] * len(columns)

    def words(self, value: str) -> Sql:
        """A bare word or phrase: through the trigram full-text index when it is long enough."""
        # Too short for a trigram: a substring scan of the same columns.  The choice is made in
        # SQL, so the statement's text depends on the query's shape only, never on a value.
        scan, scan_params = self.substring(tuple(f"c.{c}" for c in FTS_COLUMNS), value)
        indexed = f"c.pk IN (SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ?)"
        sql = f"CASE WHEN ? THEN {scan} ELSE {indexed} END"
        return sql, [int(not indexable(value)), *scan_params, fts_phrase(value)]

    def substring(self, columns: Sequence[str], value: str) -> Sql:
        return (" OR ".join(f"instr(lower({c}), lower(?)) > 0" for c in columns), [value] * len(columns))

    def exact(self, column: str, t: Term, value: Any) -> Sql:
        self.check_op(t, (":", "=", "!="), "a name-like value")
        return f"coalesce({column} {_SQL_OPS[t.op]} ? COLLATE NOCASE, 0)", [value]

    def card_type(self, t: Term) -> Sql:
        slug = t.value.lower()
        if self.type_aliases is not None:
            if slug not in self.type_aliases:
                known = ", ".join(sorted(set(self.type_aliases.values())))
                raise self.error(f"unknown card type '{t.value}' (types: {known})", t.value_pos)
            slug = self.type_aliases[slug]
        return self.exact("c.type", t, slug)

    def copies(self, t: Term) -> Sql:
        return f"c.copies {_SQL_OPS[t.op]} ?", [self.integer(t)]

    def provenance(self, t: Term) -> Sql:
        if t.value.lower() not in PROVENANCES:
            raise self.error(f"provenance is one of {', '.join(PROVENANCES)}", t.value_pos)
        return self.exact("c.provenance", t, t.value.lower())

    def is_flag(self, t: Term) -> Sql:
        self.check_op(t, _MATCH_ONLY, "is:")
        if t.value.lower() == "provisional":
            return ("c.provenance = ? OR json_array_length(c.provisional_fields) > 0", ["provisional"])
        defs = self.resolve(t.value, t.value_pos, must_be="boolean")
        return self.field(Term(t.field, ":", "true", t.pos, t.value_pos), defs)

    def has(self, t: Term) -> Sql:
        self.check_op(t, _MATCH_ONLY, "has:")
        if t.value.lower() in _HAS_COLUMNS:
            return f"coalesce(c.{t.value.lower()}, '') <> ''", []
        names = sorted({d.name for d in self.resolve(t.value, t.value_pos)})
        return (
            " OR ".join("json_extract(c.fields, ?) IS NOT NULL" for _ in names),
            [_path(n) for n in names],
        )

    # ---- game fields -------------------------------------------------------------

    def resolve(self, key: str, pos: int, must_be: str | None = None) -> list[FieldDef]:
        """Definitions a field key names: exact name first, then label (case-folded)."""
        defs = list(self.defs.get(key, ())) or list(self.defs.get(key.lower(), ()))
        if not defs:
            folded = key.casefold()
            defs = [d for ds in self.defs.values() for d in ds if d.label.casefold() == folded]
        if must_be:
            defs = [d for d in defs if d.type == must_be]
        if not defs:
            raise self.error(self.unknown_field(key, must_be), pos)
        return defs

    def unknown_field(self, key: str, must_be: str | None) -> str:
        fields = sorted(
            (name, ds[0].label)
            for name, ds in self.defs.items()
            if ds and (must_be is None or any(d.type == must_be for d in ds))
        )
        listed = ", ".join(f"{n} ({label})" if label else n for n, label in fields) or "none"
        if must_be == "boolean":
            return f"is: takes 'provisional' or a yes/no field, not '{key}' (yes/no fields: {listed})"
        builtin = ", ".join(sorted(self.attributes))
        return (
            f"unknown field '{key}' (allowed: {builtin}; this game's fields: {listed}; "
            f"to search for the words themselves, put them in quotes)"
        )

    def field(self, t: Term, defs: list[FieldDef]) -> Sql:
        """OR over each (name, type) the key resolved to; each side two-valued.

        A side whose type can't take the value (`cost:x` where one card type's
        cost is a number) is dropped; only if every side refuses is it an error.
        """
        groups: dict[tuple[str, str], list[FieldDef]] = {}
        for d in defs:
            groups.setdefault((d.name, d.type), []).append(d)
        parts, errors = [], []
        for (name, kind), ds in groups.items():
            try:
                parts.append(self.typed_field(t, name, kind, ds))
            except QueryError as err:
                errors.append(err)
        if not parts:
            raise errors[0]
        sql = " OR ".join(f"coalesce({s}, 0)" for s, _ in parts)
        return sql, [p for _, ps in parts for p in ps]

    def typed_field(self, t: Term, name: str, kind: str, defs: list[FieldDef]) -> Sql:
        path, value = _path(name), "json_extract(c.fields, ?)"
        op = _SQL_OPS[t.op]
        if kind == "integer":
            return f"{value} {op} ?", [path, self.integer(t)]
        self.check_op(t, (":", "=", "!="), f"{name} ({kind})")
        if kind == "text":
            if t.op == ":":
                return f"instr(lower({value}), lower(?)) > 0", [path, t.value]
            return f"lower({value}) {op} lower(?)", [path, t.value]
        if kind == "list":
            holds = "EXISTS (SELECT 1 FROM json_each(c.fields, ?) WHERE value = ? COLLATE NOCASE)"
            if t.op == "!=":
                return f"json_type(c.fields, ?) = 'array' AND NOT {holds}", [path, path, t.value]
            return holds, [path, t.value]
        if kind == "boolean":
            return f"{value} {op} ?", [path, self.boolean(t)]
        if kind == "enum":
            self.check_allowed(t, name, defs)
        return f"{value} {op} ? COLLATE NOCASE", [path, t.value]

    # ---- values ------------------------------------------------------------------

    def check_op(self, t: Term, allowed: Sequence[str], what: str) -> None:
        if t.op not in allowed:
            raise self.error(
                f"'{t.op}' does not apply to {what} (use {' '.join(allowed)})", t.pos + len(t.field or "")
            )

    def integer(self, t: Term) -> int:
        if not _INT.fullmatch(t.value) or abs(number := int(t.value)) >= 2**63:
            raise self.error(f"{t.field} takes a whole number, not '{t.value}'", t.value_pos)
        return number

    def boolean(self, t: Term) -> int:
        flag = _BOOLS.get(t.value.lower())
        if flag is None:
            raise self.error(f"{t.field} takes true/false (or yes/no, 1/0), not '{t.value}'", t.value_pos)
        return flag

    def check_allowed(self, t: Term, name: str, defs: list[FieldDef]) -> None:
        allowed = [a for d in defs for a in (d.allowed or [])]
        if allowed and t.value.lower() not in {str(a).lower() for a in allowed}:
            shown = ", ".join(dict.fromkeys(str(a) for a in allowed))
            raise self.error(f"{name} is one of: {shown}", t.value_pos)


def _path(name: str) -> str:
    """JSON path of a field; names are validated [a-z0-9_], so quoting is safe."""
    return '$."' + name.replace('"', '\\"') + '"'

"""SQL of the declared checks: text rules and worked examples (migration "declared checks").

Rows come back as frozen dataclasses with their JSON decoded; a row whose JSON
another tool broke comes back with `None` in its place, so the checker reports
it by id instead of crashing.  Parameters are checked one layer up
(`validate.text_rules`, `rules.examples`), as constraints are.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.store.constraints import without_game
from pnpforge.store.db import connection
from pnpforge.store.schema_declared_checks import EXAMPLE_RUNNERS, TEXT_RULE_KINDS

__all__ = [
    "EXAMPLE_RUNNERS",
    "TEXT_RULE_KINDS",
    "TEXT_RULE_PARAMS",
    "check_text_rule_params",
    "Example",
    "TextRule",
    "delete_example",
    "delete_text_rule",
    "insert_example",
    "insert_text_rule",
    "list_examples",
    "list_text_rules",
]


@dataclass(frozen=True)
class TextRule:
    """What a card type's printed text restates, bound to the field that holds it."""

    game: str
    id: str
    card_type: str
    kind: str  # one of TEXT_RULE_KINDS
    label: str
    params: dict[str, Any] | None = field(default_factory=dict)
    provisional: bool = False
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The bundle's row: every field but the game, which the bundle names once."""
        return without_game(self)


@dataclass(frozen=True)
class Example:
    """A rulebook worked example: its set-up, the result the rulebook prints, and where."""

    game: str
    id: str
    label: str
    runner: str  # "engine" (the game's engine computes it) or "formula" (declared arithmetic)
    setup: dict[str, Any] | None = field(default_factory=dict)
    expected: dict[str, Any] | None = field(default_factory=dict)
    options: dict[str, Any] | None = field(default_factory=dict)  # engine options of the example's reading
    conflict: str = ""  # a known disagreement with the engine's default reading, as recorded
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The bundle's row: every field but the game, which the bundle names once."""
        return without_game(self)


# kind -> (required parameters, optional parameters)
TEXT_RULE_PARAMS: dict[str, tuple[set[str], set[str]]] = {
    "number": ({"pattern", "field"}, {"query", "absent"}),
    "list": ({"pattern", "field"}, {"query", "map", "separators", "ordered", "item"}),
    "phrase": ({"phrase", "when"}, {"query"}),
    "name": ({"pattern", "field"}, {"query"}),
    "template": ({"template"}, {"map", "join"}),
}


def check_text_rule_params(kind: str, params: Any) -> None:
    """Raise PnpError with what is allowed when a text rule's parameters do not fit its kind."""
    if kind not in TEXT_RULE_PARAMS:
        raise PnpError(f"unknown text rule kind '{kind}' (allowed: {', '.join(TEXT_RULE_PARAMS)})")
    if not isinstance(params, dict):
        raise PnpError(f"{kind} parameters must be a JSON object")
    required, optional = TEXT_RULE_PARAMS[kind]
    unknown, missing = sorted(set(params) - required - optional), sorted(required - set(params))
    if unknown or missing:
        what = f"unknown {', '.join(unknown)}" if unknown else f"missing {', '.join(missing)}"
        raise PnpError(f"{kind} parameters: {what} (allowed: {', '.join(sorted(required | optional))})")
    if "pattern" in params:
        try:
            compiled = re.compile(params["pattern"])
        except (re.error, TypeError) as exc:
            raise PnpError(f"{kind} parameter 'pattern' is not a regular expression: {exc}") from None
        if compiled.groups != 1:
            raise PnpError(
                f"{kind} parameter 'pattern' must have exactly one group, it has {compiled.groups}"
            )
    if "item" in params:
        try:
            groups = re.compile(params["item"]).groups
        except (re.error, TypeError) as exc:
            raise PnpError(f"{kind} parameter 'item' is not a regular expression: {exc}") from None
        if groups not in (1, 2):
            raise PnpError(f"{kind} parameter 'item' needs one group (the value) or two (count, value)")
    if "map" in params and not isinstance(params["map"], dict):
        raise PnpError(f"{kind} parameter 'map' must be an object (printed word → stored value)")


def _object(text: Any) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def list_text_rules(db: sqlite_utils.Database, game: str) -> list[TextRule]:
    """The game's text rules in their declared order."""
    rows = (
        connection(db)
        .execute(
            "SELECT id, card_type, kind, label, params, provisional, source FROM text_rules "
            "WHERE game = ? ORDER BY position, id",
            [game],
        )
        .fetchall()
    )
    return [TextRule(game, r[0], r[1], r[2], r[3], _object(r[4]), bool(r[5]), r[6]) for r in rows]


def list_examples(db: sqlite_utils.Database, game: str) -> list[Example]:
    """The game's worked examples in their declared order."""
    rows = (
        connection(db)
        .execute(
            "SELECT id, label, runner, setup, expected, options, conflict, source FROM examples "
            "WHERE game = ? ORDER BY position, id",
            [game],
        )
        .fetchall()
    )
    return [
        Example(game, r[0], r[1], r[2], _object(r[3]), _object(r[4]), _object(r[5]), r[6], r[7]) for r in rows
    ]


def _next_position(conn: sqlite3.Connection, table: str, game: str, item_id: str, replace: bool) -> int:
    row = conn.execute(f"SELECT position FROM {table} WHERE game = ? AND id = ?", [game, item_id]).fetchone()
    if row and not replace:
        what = "text rule" if table == "text_rules" else "example"
        raise PnpError(f"game '{game}' already has a {what} '{item_id}' (remove it first, or replace it)")
    if row:
        return int(row[0])
    return int(
        conn.execute(f"SELECT coalesce(max(position), 0) + 1 FROM {table} WHERE game = ?", [game]).fetchone()[
            0
        ]
    )


def insert_text_rule(conn: sqlite3.Connection, rule: TextRule, replace: bool = False) -> None:
    """Add (or with `replace`, overwrite) one text rule; the caller owns the transaction."""
    position = _next_position(conn, "text_rules", rule.game, rule.id, replace)
    try:
        conn.execute(
            "INSERT OR REPLACE INTO text_rules (game, id, card_type, kind, params, label, provisional, "
            "source, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                rule.game,
                rule.id,
                rule.card_type,
                rule.kind,
                _dump(rule.params),
                rule.label,
                int(rule.provisional),
                rule.source,
                position,
            ],
        )
    except sqlite3.IntegrityError as exc:
        raise PnpError(f"text rule '{rule.id}' of {rule.game}: the database refused it ({exc})") from None


def insert_example(conn: sqlite3.Connection, ex: Example, replace: bool = False) -> None:
    """Add (or with `replace`, overwrite) one worked example; the caller owns the transaction."""
    position = _next_position(conn, "examples", ex.game, ex.id, replace)
    try:
        conn.execute(
            "INSERT OR REPLACE INTO examples (game, id, label, runner, setup, expected, options, "
            "conflict, source, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                ex.game,
                ex.id,
                ex.label,
                ex.runner,
                _dump(ex.setup),
                _dump(ex.expected),
                _dump(ex.options or {}),
                ex.conflict,
                ex.source,
                position,
            ],
        )
    except sqlite3.IntegrityError as exc:
        raise PnpError(f"example '{ex.id}' of {ex.game}: the database refused it ({exc})") from None


def delete_text_rule(conn: sqlite3.Connection, game: str, rule_id: str) -> None:
    if conn.execute("DELETE FROM text_rules WHERE game = ? AND id = ?", [game, rule_id]).rowcount == 0:
        raise PnpError(f"game '{game}' has no text rule '{rule_id}'")


def delete_example(conn: sqlite3.Connection, game: str, example_id: str) -> None:
    if conn.execute("DELETE FROM examples WHERE game = ? AND id = ?", [game, example_id]).rowcount == 0:
        raise PnpError(f"game '{game}' has no example '{example_id}'")

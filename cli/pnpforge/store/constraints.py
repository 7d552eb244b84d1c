"""SQL of the deck constraints and consistency tables: read, add, remove.

Rows are returned as `Constraint` objects with their parameters decoded; a
row whose parameters are not valid JSON (written with raw SQL around the
CHECK) comes back with `params=None` so the checker can report it instead
of crashing.  The consistency kinds (monotone tables, distinct list items,
distinct abilities) live in their own table (migration "declared checks");
every function here reads and writes both, chosen by kind, so commands and
bundles see one list of constraints.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, fields
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.store.db import connection


def without_game(row: Any) -> dict[str, Any]:
    """A deck-data dataclass as its bundle row: its fields in order, less `game`."""
    return {f.name: getattr(row, f.name) for f in fields(row) if f.name != "game"}


@dataclass
class Constraint:
    """One deck rule of a game: a kind, its parameters, and where the rulebook states it."""

    game: str
    id: str
    kind: str
    label: str
    params: dict[str, Any] | None = field(default_factory=dict)
    provisional: bool = False
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The bundle's row: every field but the game, which the bundle names once."""
        return without_game(self)


# kind -> (required parameters, optional parameters)
PARAMS: dict[str, tuple[set[str], set[str]]] = {
    "unique": ({"fields"}, {"query"}),
    "each_value": ({"field"}, {"query", "values", "range", "times", "group_by", "groups"}),
    "values": (
        {"field"},
        {"query", "equals", "in", "min", "max", "of", "optional", "equals_field", "min_field", "max_field"},
    ),
    "distinct": ({"field"}, {"query", "values"}),
    "group_count": (set(), {"query", "expected", "min", "max", "group_by", "groups"}),
    "refs": ({"field"}, {"query", "target_query", "same"}),
    # consistency kinds (table `consistency`): designed values that must keep their shape
    "monotone": (set(), {"query", "fields", "field", "direction", "strict"}),
    "distinct_items": ({"field"}, {"query"}),
    "distinct_abilities": ({"fields"}, {"query", "base"}),
}
KINDS = tuple(PARAMS)
CONSISTENCY_KINDS = ("monotone", "distinct_items", "distinct_abilities")
DIRECTIONS = ("up", "down")


def table_of(kind: str) -> str:
    """The table that holds constraints of `kind`."""
    return "consistency" if kind in CONSISTENCY_KINDS else "constraints"


def check_params(kind: str, params: Any) -> None:
    """Raise PnpError with what is allowed when a constraint's parameters do not fit its kind."""
    if kind not in PARAMS:
        raise PnpError(f"unknown constraint kind '{kind}' (allowed: {', '.join(KINDS)})")
    if not isinstance(params, dict):
        raise PnpError(f"{kind} parameters must be a JSON object, got {type(params).__name__}")
    required, optional = PARAMS[kind]
    allowed = sorted(required | optional)
    unknown = sorted(set(params) - required - optional)
    missing = sorted(required - set(params))
    if unknown or missing:
        what = f"unknown {', '.join(unknown)}" if unknown else f"missing {', '.join(missing)}"
        raise PnpError(
            f"{kind} parameters: {what} (allowed: {', '.join(allowed)}; "
            f"required: {', '.join(sorted(required)) or 'none'})"
        )
    _check_shapes(kind, params)


def _check_shapes(kind: str, params: dict[str, Any]) -> None:
    lists = {"fields", "values", "groups", "in", "same", "range", "base"}
    for key in lists & set(params):
        if not isinstance(params[key], list) or not params[key]:
            raise PnpError(f"{kind} parameter '{key}' must be a non-empty JSON list")
    for key in {"times", "expected", "min", "max"} & set(params):
        if not isinstance(params[key], int) or isinstance(params[key], bool):
            raise PnpError(f"{kind} parameter '{key}' must be a whole number")
    if "range" in params and (
        len(params["range"]) != 2 or not all(isinstance(v, int) for v in params["range"])
    ):
        raise PnpError(f"{kind} parameter 'range' must be [lowest, highest] whole numbers")
    if kind == "each_value" and ("values" in params) == ("range" in params):
        raise PnpError("each_value needs exactly one of 'values' or 'range'")
    if kind == "values" and not {
        "equals",
        "in",
        "min",
        "max",
        "equals_field",
        "min_field",
        "max_field",
    } & set(params):
        raise PnpError(
            "values needs at least one of equals, in, min, max, equals_field, min_field, max_field"
        )
    if kind == "group_count" and not {"expected", "min", "max"} & set(params):
        raise PnpError("group_count needs at least one of expected, min, max")
    if params.get("of", "value") not in ("value", "length"):
        raise PnpError('values parameter \'of\' must be "value" or "length"')
    if kind == "monotone":
        if ("fields" in params) == ("field" in params):
            raise PnpError(
                "monotone needs exactly one of 'fields' (a table across fields) or 'field' (a list)"
            )
        if params.get("direction", "up") not in DIRECTIONS:
            raise PnpError(f"monotone parameter 'direction' must be one of {', '.join(DIRECTIONS)}")
    if kind == "distinct_abilities" and "base" in params:
        base = params["base"]
        if not isinstance(base, list) or not all(isinstance(b, dict) and b for b in base):
            raise PnpError("distinct_abilities parameter 'base' must be a list of non-empty objects")


def _decode(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def list_constraints(db: sqlite_utils.Database, game: str) -> list[Constraint]:
    """The game's constraints in their declared order, deck constraints before consistency ones."""
    out: list[Constraint] = []
    for table in ("constraints", "consistency"):
        rows = (
            connection(db)
            .execute(
                f"SELECT id, kind, label, params, provisional, source FROM {table} "
                "WHERE game = ? ORDER BY position, id",
                [game],
            )
            .fetchall()
        )
        out += [Constraint(game, r[0], r[1], r[2], _decode(r[3]), bool(r[4]), r[5]) for r in rows]
    return out


def _position(conn: sqlite3.Connection, table: str, game: str, constraint_id: str) -> tuple[bool, int]:
    """(whether `constraint_id` is in `table`, the position it has or the next free one)."""
    row = conn.execute(
        f"SELECT position FROM {table} WHERE game = ? AND id = ?", [game, constraint_id]
    ).fetchone()
    if row:
        return True, row[0]
    nxt = conn.execute(
        f"SELECT coalesce(max(position), 0) + 1 FROM {table} WHERE game = ?", [game]
    ).fetchone()
    return False, nxt[0]


def insert_constraint(conn: sqlite3.Connection, c: Constraint, replace: bool = False) -> None:
    """Add (or with `replace`, overwrite) one constraint; the caller owns the transaction."""
    table = table_of(c.kind)
    other = "constraints" if table == "consistency" else "consistency"
    exists, position = _position(conn, table, c.game, c.id)
    in_other, _ = _position(conn, other, c.game, c.id)
    if (exists or in_other) and not replace:
        raise PnpError(f"game '{c.game}' already has a constraint '{c.id}' (remove it first, or replace it)")
    if in_other:  # replaced by a constraint of a kind the other table holds
        conn.execute(f"DELETE FROM {other} WHERE game = ? AND id = ?", [c.game, c.id])
    try:
        conn.execute(
            f"INSERT OR REPLACE INTO {table} (game, id, kind, params, label, provisional, "
            "source, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                c.game,
                c.id,
                c.kind,
                json.dumps(c.params, ensure_ascii=False, sort_keys=True),
                c.label,
                int(c.provisional),
                c.source,
                position,
            ],
        )
    except sqlite3.IntegrityError as exc:
        raise PnpError(f"constraint '{c.id}' of {c.game}: the database refused it ({exc})") from None


def delete_constraint(db: sqlite_utils.Database, game: str, constraint_id: str) -> None:
    """Remove one constraint (inside the caller's transaction); naming one the game lacks is an error."""
    conn = db.conn
    removed = sum(
        conn.execute(f"DELETE FROM {table} WHERE game = ? AND id = ?", [game, constraint_id]).rowcount
        for table in ("constraints", "consistency")
    )
    if removed == 0:
        known = [c.id for c in list_constraints(db, game)]
        raise PnpError(
            f"game '{game}' has no constraint '{constraint_id}' (constraints: {', '.join(known) or 'none'})"
        )

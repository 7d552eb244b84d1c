"""A deterministic text dump of cards.db, one line per row, for diffs and review.

Tables are walked in a fixed order and rows by primary key; JSON columns are
re-serialised with sorted keys; history is left out (it only grows).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import sqlite_utils

_TABLES = [
    ("games", "slug"),
    ("card_types", "game, position, slug"),
    ("field_defs", "game, card_type, position, name"),
    ("cards", "game, position, id"),
    ("composition", "game, position, id"),
    ("components", "game, position, slug"),
    ("glossary", "game, position, term"),
    ("rule_sections", "game, position"),
    ("piles", "game, position, id"),
    ("structure_edition", "game, key"),
]
_SKIP = {"pk", "created_at", "updated_at"}


def _norm(value):
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def dump(db: sqlite_utils.Database) -> Iterator[str]:
    yield f"-- pnpforge dump, schema version {db.conn.execute('PRAGMA user_version').fetchone()[0]}"
    for table, order in _TABLES:
        cur = db.conn.execute(f"SELECT * FROM {table} ORDER BY {order}")
        cols = [d[0] for d in cur.description]
        yield f"-- {table}"
        for row in cur:
            rec = {c: _norm(v) for c, v in zip(cols, row, strict=False) if c not in _SKIP}
            yield json.dumps(rec, ensure_ascii=False, sort_keys=True)

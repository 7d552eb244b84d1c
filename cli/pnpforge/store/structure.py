"""SQL of a game's structure: piles, composition rows, and the structure edition and its history.

The structure edition (schema_structure) freezes every rulebook value that is
not on a card — player counts, play time, sizes, components, composition
rows, constraints, piles — read through the `structure_values` view, so a
change made by any path (a bundle, a command, raw SQL) is found by comparing
the view with the frozen values.  A correction (a fixed transcription error)
moves the frozen value and is kept, with its reason, in `structure_history`.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import CompositionRule, Pile
from pnpforge.store.db import connection


def _load(text: str | None) -> Any:
    """A stored JSON value with its keys in sorted order, however it was written (SQL or Python),
    so an exported bundle is the same bytes after a round trip."""
    if text is None:
        return None
    try:
        return json.loads(json.dumps(json.loads(text), sort_keys=True))
    except (TypeError, ValueError):
        return text


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# ---- piles ----------------------------------------------------------------------


def piles(db: sqlite_utils.Database | sqlite3.Connection, game: str) -> list[Pile]:
    """The game's piles in declared order; a card-type list raw SQL broke reads as empty."""
    rows = (
        connection(db)
        .execute(
            "SELECT id, label, kind, card_types, provisional, source FROM piles "
            "WHERE game = ? ORDER BY position, id",
            [game],
        )
        .fetchall()
    )
    out = []
    for r in rows:
        types = _load(r[3])
        out.append(
            Pile(
                game,
                r[0],
                r[1],
                [str(t) for t in types] if isinstance(types, list) else [],
                r[2],
                bool(r[4]),
                r[5],
            )
        )
    return out


def insert_pile(conn: sqlite3.Connection, pile: Pile, position: int | None = None) -> None:
    """Add or overwrite one pile; the caller owns the transaction and has checked the card types."""
    if position is None:
        found = conn.execute(
            "SELECT position FROM piles WHERE game = ? AND id = ?", [pile.game, pile.id]
        ).fetchone()
        position = (
            found[0]
            if found
            else conn.execute(
                "SELECT coalesce(max(position), -1) + 1 FROM piles WHERE game = ?", [pile.game]
            ).fetchone()[0]
        )
    try:
        conn.execute(
            "INSERT OR REPLACE INTO piles (game, id, label, kind, card_types, provisional, source, position) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                pile.game,
                pile.id,
                pile.label,
                pile.kind,
                _dump(pile.card_types),
                int(pile.provisional),
                pile.source,
                position,
            ],
        )
    except sqlite3.IntegrityError as exc:
        raise PnpError(f"pile '{pile.id}' of {pile.game}: the database refused it ({exc})") from None


# ---- composition rows ---------------------------------------------------------------


def write_rule(conn: sqlite3.Connection, rule: CompositionRule) -> None:
    """Insert or overwrite one composition row, keeping its position when it exists."""
    found = conn.execute(
        "SELECT position FROM composition WHERE game = ? AND id = ?", [rule.game, rule.id]
    ).fetchone()
    position = (
        found[0]
        if found
        else conn.execute(
            "SELECT coalesce(max(position), -1) + 1 FROM composition WHERE game = ?", [rule.game]
        ).fetchone()[0]
    )
    try:
        conn.execute(
            "INSERT OR REPLACE INTO composition (game, id, label, card_type, query, expected, parent, "
            "provisional, source, position, follows_deck) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                rule.game,
                rule.id,
                rule.label,
                rule.card_type,
                rule.query,
                rule.expected,
                rule.parent,
                int(rule.provisional),
                rule.source,
                position,
                int(rule.follows_deck),
            ],
        )
    except sqlite3.IntegrityError as exc:
        raise PnpError(
            f"composition row '{rule.id}' of {rule.game}: the database refused it ({exc})"
        ) from None


def delete_rule(conn: sqlite3.Connection, game: str, rule_id: str) -> None:
    conn.execute("DELETE FROM composition WHERE game = ? AND id = ?", [game, rule_id])


def set_expected(conn: sqlite3.Connection, game: str, rule_id: str, expected: int) -> None:
    conn.execute("UPDATE composition SET expected = ? WHERE game = ? AND id = ?", [expected, game, rule_id])


# ---- the structure edition -------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """One structural value now: its JSON value and whether it is designed (provisional)."""

    value: Any
    provisional: bool


@dataclass(frozen=True)
class Frozen:
    """One structural value as the rulebook edition froze it."""

    value: Any
    frozen_at: str


def current(db: sqlite_utils.Database | sqlite3.Connection, game: str) -> dict[str, Value]:
    """Every structural value of `game` as stored now, by key."""
    rows = (
        connection(db)
        .execute("SELECT key, value, provisional FROM structure_values WHERE game = ?", [game])
        .fetchall()
    )
    return {r[0]: Value(_load(r[1]), bool(r[2])) for r in rows}


def frozen(db: sqlite_utils.Database | sqlite3.Connection, game: str) -> dict[str, Frozen]:
    """The game's structure edition, by key."""
    rows = (
        connection(db)
        .execute("SELECT key, value, frozen_at FROM structure_edition WHERE game = ? ORDER BY key", [game])
        .fetchall()
    )
    return {r[0]: Frozen(_load(r[1]), r[2]) for r in rows}


def freeze(conn: sqlite3.Connection, game: str, prefix: str = "") -> int:
    """Freeze the game's rulebook values (those starting with `prefix`) that have no edition yet."""
    cur = conn.execute(
        "INSERT OR IGNORE INTO structure_edition (game, key, value) "
        "SELECT game, key, value FROM structure_values "
        "WHERE game = ? AND provisional = 0 AND substr(key, 1, length(?)) = ?",
        [game, prefix, prefix],
    )
    return cur.rowcount


def restore(conn: sqlite3.Connection, game: str, kept: dict[str, Frozen]) -> None:
    """Put back an edition read before the game was replaced, freeze times and all."""
    for key, f in kept.items():
        conn.execute(
            "INSERT OR REPLACE INTO structure_edition (game, key, value, frozen_at) VALUES (?, ?, ?, ?)",
            [game, key, _dump(f.value), f.frozen_at],
        )


def insert_entries(conn: sqlite3.Connection, game: str, items: list[dict[str, Any]]) -> None:
    """Load edition entries from a bundle (`{key, value, frozen_at}` each)."""
    for item in items:
        conn.execute(
            "INSERT OR REPLACE INTO structure_edition (game, key, value, frozen_at) "
            "VALUES (?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%SZ','now')))",
            [game, item["key"], _dump(item["value"]), item.get("frozen_at")],
        )


def record(
    conn: sqlite3.Connection, game: str, key: str, before: Any, after: Any, correction: str | None = None
) -> None:
    """One edit of a structural value in the history (None: the value did not exist)."""
    conn.execute(
        "INSERT INTO structure_history (game, key, before, after, correction) VALUES (?, ?, ?, ?, ?)",
        [
            game,
            key,
            None if before is None else _dump(before),
            None if after is None else _dump(after),
            correction,
        ],
    )


def record_changes(
    conn: sqlite3.Connection, game: str, old: dict[str, Value], correction: str | None = None
) -> list[str]:
    """Record each structural value that differs from `old` (read before a write); with a
    correction, those values become the rulebook edition's.  Returns the changed keys."""
    new = current(conn, game)
    changed = []
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        if (before.value if before else None) != (after.value if after else None):
            record(
                conn, game, key, before.value if before else None, after.value if after else None, correction
            )
            changed.append(key)
    if correction:
        correct(conn, game, changed)
    return changed


def correct(conn: sqlite3.Connection, game: str, keys: list[str]) -> list[str]:
    """Move the edition of `keys` to the values stored now (the caller records the reason).

    A correction says the rulebook was transcribed wrongly, so the stored value
    is the rulebook's; a key whose value no longer exists leaves the edition,
    a designed (provisional) value never enters it.  Returns the keys that moved.
    """
    now, was = current(conn, game), frozen(conn, game)
    moved = []
    for key in keys:
        old = was[key].value if key in was else None
        new = now.get(key)
        if new is not None and new.provisional:
            continue
        if old == (new.value if new else None):
            continue
        if new is None:
            conn.execute("DELETE FROM structure_edition WHERE game = ? AND key = ?", [game, key])
        else:
            conn.execute(
                "INSERT OR REPLACE INTO structure_edition (game, key, value) VALUES (?, ?, ?)",
                [game, key, _dump(new.value)],
            )
        moved.append(key)
    return moved


def history(
    db: sqlite_utils.Database | sqlite3.Connection, game: str, prefix: str = ""
) -> list[dict[str, Any]]:
    """Edits of the game's structural values (oldest first), those whose key starts with `prefix`."""
    rows = (
        connection(db)
        .execute(
            "SELECT seq, at, key, before, after, correction FROM structure_history "
            "WHERE game = ? AND substr(key, 1, length(?)) = ? ORDER BY seq",
            [game, prefix, prefix],
        )
        .fetchall()
    )
    return [
        {
            "seq": r[0],
            "at": r[1],
            "key": r[2],
            "before": _load(r[3]),
            "after": _load(r[4]),
            "correction": r[5],
        }
        for r in rows
    ]


def last_change(db: sqlite_utils.Database | sqlite3.Connection, game: str) -> dict[str, str]:
    """Key -> time of its newest recorded edit."""
    rows = (
        connection(db)
        .execute("SELECT key, max(at) FROM structure_history WHERE game = ? GROUP BY key", [game])
        .fetchall()
    )
    return {r[0]: r[1] for r in rows}

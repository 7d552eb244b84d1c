"""SQL of the rulebook edition: the frozen baseline and correction notes in history.

The edition keeps, per card, a snapshot of what the card said when its values
were transcribed (see schema_v3).  Only a correction — an edit that fixes a
transcription error — moves the baseline, and only for the values that edit
changed, so an earlier design change stays visible.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.model import split_entry
from pnpforge.store.db import connection
from pnpforge.store.schema_v3 import SNAPSHOT_JSON

# Card attributes an edition compares, beside every field.
ATTRIBUTES = ("type", "name", "copies", "text")


@dataclass
class EditionEntry:
    """One card's frozen values and the history position the freeze happened at."""

    card: str
    snapshot: dict[str, Any]
    frozen_at: str
    frozen_seq: int


def _decode(text: str) -> dict[str, Any]:
    """A stored snapshot with its keys in sorted order, however it was written (SQL or Python)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}
    if not isinstance(value, dict):
        return {}
    sorted_value: dict[str, Any] = json.loads(json.dumps(value, sort_keys=True))
    return sorted_value


def entries(db: sqlite_utils.Database, game: str) -> list[EditionEntry]:
    """The game's edition, one entry per card it froze."""
    rows = (
        connection(db)
        .execute(
            "SELECT card, snapshot, frozen_at, frozen_seq FROM edition WHERE game = ? ORDER BY card", [game]
        )
        .fetchall()
    )
    return [EditionEntry(r[0], _decode(r[1]), r[2], r[3]) for r in rows]


def freeze(conn: sqlite3.Connection, game: str) -> int:
    """Freeze the rulebook and reference cards of `game` that have no edition entry yet."""
    cur = conn.execute(
        "INSERT OR IGNORE INTO edition (game, card, snapshot, frozen_seq) "
        f"SELECT c.game, c.id, {SNAPSHOT_JSON.format(r='c')}, "
        "(SELECT coalesce(max(seq), 0) FROM history) "
        "FROM cards c WHERE c.game = ? AND c.provenance IN ('rulebook', 'reference')",
        [game],
    )
    return cur.rowcount


def insert_entries(conn: sqlite3.Connection, game: str, items: list[dict[str, Any]]) -> None:
    """Load edition entries from a bundle (`{card, snapshot, frozen_at}` each)."""
    seq = conn.execute("SELECT coalesce(max(seq), 0) FROM history").fetchone()[0]
    for item in items:
        conn.execute(
            "INSERT OR REPLACE INTO edition (game, card, snapshot, frozen_at, frozen_seq) "
            "VALUES (?, ?, ?, coalesce(?, strftime('%Y-%m-%dT%H:%M:%SZ','now')), ?)",
            [
                game,
                item["card"],
                json.dumps(item["snapshot"], ensure_ascii=False, sort_keys=True),
                item.get("frozen_at"),
                seq,
            ],
        )


def restore(conn: sqlite3.Connection, game: str, kept: list[EditionEntry]) -> None:
    """Put back edition entries read before a game was replaced, freeze times and all."""
    for e in kept:
        conn.execute(
            "INSERT OR REPLACE INTO edition (game, card, snapshot, frozen_at, frozen_seq) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                game,
                e.card,
                json.dumps(e.snapshot, ensure_ascii=False, sort_keys=True),
                e.frozen_at,
                e.frozen_seq,
            ],
        )


def history_after(
    db: sqlite_utils.Database, game: str, seq: int
) -> list[tuple[int, str, str, dict[str, Any] | None, dict[str, Any] | None, str | None]]:
    """History rows of `game` after `seq`: (seq, at, card, before, after, correction)."""
    rows = (
        connection(db)
        .execute(
            "SELECT seq, at, card, before, after, correction FROM history "
            "WHERE game = ? AND seq > ? ORDER BY seq",
            [game, seq],
        )
        .fetchall()
    )
    return [
        (r[0], r[1], r[2], _decode(r[3]) if r[3] else None, _decode(r[4]) if r[4] else None, r[5])
        for r in rows
    ]


def value_of(snapshot: dict[str, Any], key: str) -> Any:
    """A snapshot's value of an attribute (`copies`), a field (`fields.number`) or one cell
    of a list field (`fields.track[3]`, None when the list is shorter)."""
    if key.startswith("fields."):
        name, cell = split_entry(key[len("fields.") :])
        value = (snapshot.get("fields") or {}).get(name)
        if cell is None:
            return value
        return value[cell] if isinstance(value, list) and cell < len(value) else None
    return snapshot.get(key)


def note_correction(conn: sqlite3.Connection, game: str, card_id: str, reason: str) -> None:
    """Tag the newest history entry of the card as a transcription correction, with its reason.

    The corrected values become the edition's: they are what the rulebook
    says, so comparing with the edition must no longer report them.  Call it
    right after the write, inside the same transaction.
    """
    row = conn.execute(
        "SELECT seq, before, after FROM history WHERE game = ? AND card = ? ORDER BY seq DESC LIMIT 1",
        [game, card_id],
    ).fetchone()
    if row is None:
        return
    seq, before, after = row[0], _decode(row[1]) if row[1] else {}, _decode(row[2]) if row[2] else None
    conn.execute("UPDATE history SET correction = ? WHERE seq = ?", [reason, seq])
    if after is None:
        conn.execute("DELETE FROM edition WHERE game = ? AND card = ?", [game, card_id])
        return
    _move_baseline(conn, game, card_id, before, after, seq)


def _move_baseline(
    conn: sqlite3.Connection, game: str, card_id: str, before: dict[str, Any], after: dict[str, Any], seq: int
) -> None:
    """Copy the values one edit changed into the card's edition snapshot."""
    found = conn.execute(
        "SELECT snapshot FROM edition WHERE game = ? AND card = ?", [game, card_id]
    ).fetchone()
    if found is None:
        if after.get("provenance") in ("rulebook", "reference"):
            conn.execute(
                f"INSERT INTO edition (game, card, snapshot, frozen_seq) "
                f"SELECT c.game, c.id, {SNAPSHOT_JSON.format(r='c')}, ? FROM cards c "
                f"WHERE c.game = ? AND c.id = ?",
                [seq, game, card_id],
            )
        return
    snapshot = _decode(found[0])
    for key in ATTRIBUTES + ("provenance", "provisional_fields"):
        if before.get(key) != after.get(key):
            snapshot[key] = after.get(key)
    fields = dict(snapshot.get("fields") or {})
    old_fields, new_fields = before.get("fields") or {}, after.get("fields") or {}
    for name in set(old_fields) | set(new_fields):
        if old_fields.get(name) != new_fields.get(name):
            if name in new_fields:
                fields[name] = new_fields[name]
            else:
                fields.pop(name, None)
    snapshot["fields"] = fields
    conn.execute(
        "UPDATE edition SET snapshot = ? WHERE game = ? AND card = ?",
        [json.dumps(snapshot, ensure_ascii=False, sort_keys=True), game, card_id],
    )


def corrections(db: sqlite_utils.Database, game: str, card_id: str | None = None) -> dict[int, str]:
    """History seq -> correction reason, for `pnp cards history` to show beside each entry."""
    sql = "SELECT seq, correction FROM history WHERE game = ? AND correction IS NOT NULL"
    params: list[Any] = [game]
    if card_id:
        sql += " AND card = ?"
        params.append(card_id)
    return {r[0]: r[1] for r in connection(db).execute(sql, params)}

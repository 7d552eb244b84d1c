"""SQL of translations (see schema_translations): read a language's rows, write a batch.

Callers above the store see `Translation` values only.  A batch write is one
statement per row inside the caller's transaction, so an import is all or nothing.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.store.db import connection

KINDS = (
    "game",
    "type",
    "field",
    "value",
    "card",
    "glossary",
    "section",
    "composition",
    "component",
    "template",
)
PROVENANCES = ("translation", "reviewed")


@dataclass(frozen=True)
class Translation:
    """One printed text of a game in one language, and the fingerprint of the original it translates."""

    kind: str
    key: str
    field: str
    text: str
    source_hash: str
    provenance: str = "translation"
    updated_at: str = ""

    @property
    def ident(self) -> tuple[str, str, str]:
        return (self.kind, self.key, self.field)


def has_table(db: sqlite_utils.Database) -> bool:
    row = (
        connection(db)
        .execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'translations'")
        .fetchone()
    )
    return row is not None


def languages(db: sqlite_utils.Database, game: str) -> list[str]:
    """The languages a game has any translation in."""
    if not has_table(db):
        return []
    rows = connection(db).execute(
        "SELECT DISTINCT lang FROM translations WHERE game = ? ORDER BY lang", [game]
    )
    return [r[0] for r in rows]


def of_language(db: sqlite_utils.Database, game: str, lang: str) -> dict[tuple[str, str, str], Translation]:
    """Every translation of the game into `lang`, by (kind, key, field)."""
    if not has_table(db):
        return {}
    rows = connection(db).execute(
        "SELECT kind, key, field, text, source_hash, provenance, updated_at FROM translations "
        "WHERE game = ? AND lang = ? ORDER BY kind, key, field",
        [game, lang],
    )
    out = {}
    for r in rows:
        t = Translation(r[0], r[1], r[2], r[3], r[4], r[5], r[6])
        out[t.ident] = t
    return out


def words(db: sqlite_utils.Database, game: str, lang: str) -> dict[str, str]:
    """The printed word of each translated value (kind `value`) in `lang`: {value: word}."""
    return {t.key: t.text for t in of_language(db, game, lang).values() if t.kind == "value"}


def latest(db: sqlite_utils.Database, game: str, lang: str) -> str:
    """When a translation of the game into `lang` last changed ('' when none)."""
    if not has_table(db):
        return ""
    row = (
        connection(db)
        .execute("SELECT max(updated_at) FROM translations WHERE game = ? AND lang = ?", [game, lang])
        .fetchone()
    )
    return row[0] or ""


def upsert(conn: sqlite3.Connection, game: str, lang: str, rows: list[Translation]) -> None:
    """Insert or replace `rows`; the caller owns the transaction."""
    conn.executemany(
        "INSERT INTO translations (game, lang, kind, key, field, text, provenance, source_hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (game, lang, kind, key, field) DO UPDATE SET text = excluded.text, "
        "provenance = excluded.provenance, source_hash = excluded.source_hash, "
        "updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now')",
        [(game, lang, t.kind, t.key, t.field, t.text, t.provenance, t.source_hash) for t in rows],
    )


def delete(conn: sqlite3.Connection, game: str, lang: str, idents: list[tuple[str, str, str]]) -> None:
    """Remove translations by (kind, key, field); the caller owns the transaction."""
    conn.executemany(
        "DELETE FROM translations WHERE game = ? AND lang = ? AND kind = ? AND key = ? AND field = ?",
        [(game, lang, *i) for i in idents],
    )


def all_rows(db: sqlite_utils.Database, game: str) -> list[dict[str, Any]]:
    """Every translation of a game, every language: what a bundle carries."""
    if not has_table(db):
        return []
    rows = connection(db).execute(
        "SELECT lang, kind, key, field, text, provenance, source_hash FROM translations "
        "WHERE game = ? ORDER BY lang, kind, key, field",
        [game],
    )
    cols = ("lang", "kind", "key", "field", "text", "provenance", "source_hash")
    return [dict(zip(cols, r, strict=True)) for r in rows]


def stamp_cards(conn: sqlite3.Connection, game: str, at: str) -> None:
    """Give every card of a game the time `at` (an edition copy keeps its original's date)."""
    conn.execute("UPDATE cards SET created_at = ?, updated_at = ? WHERE game = ?", [at, at, game])

"""Schema migration 8: full-text search of cards, and the release tables on every database.

`cards_fts` is an FTS5 index of each card's name, English name, rules text
and notes, kept in step with `cards` by triggers; sqlite-utils creates it,
fills it and writes the triggers (`Table.enable_fts`).  The tokenizer is
trigram: the shipped games are Chinese, written without spaces, and a
trigram index finds any substring of three characters or more in any script
(shorter words are matched as substrings by the query compiler instead).

The release tables of migration 4 are created here too when a database lacks
them (a version-4 file written before releases existed): releases migrate
like every other table, through the numbered migrations only.

sqlite-utils runs its scripts in transactions of its own, so this step is
idempotent (`IF NOT EXISTS`, `replace=True`): an upgrade interrupted half-way
finishes on the next open.
"""

from __future__ import annotations

import sqlite_utils

from pnpforge.store import schema_v4

FTS_TABLE = "cards_fts"
FTS_COLUMNS = ("name", "name_en", "text", "notes")
# bm25 weights in FTS_COLUMNS order: a word in a card's name ranks above one in its text or notes.
FTS_WEIGHTS = (10.0, 5.0, 1.0, 0.5)
TRIGRAM = 3  # the shortest word the trigram index can find


def migrate(db: sqlite_utils.Database) -> None:
    """Add the release tables where missing, then the cards' full-text index and its triggers."""
    db.executescript(schema_v4.SQL)
    db.table("cards").enable_fts(
        list(FTS_COLUMNS), fts_version="FTS5", tokenize="trigram", create_triggers=True, replace=True
    )

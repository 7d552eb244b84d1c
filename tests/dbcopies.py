"""Private copies of the committed cards.db, for tests that write to it."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import sqlite_utils

from pnpforge.store.constraints import Constraint, insert_constraint
from pnpforge.store.db import transaction

SHIPPED_DB = Path(__file__).resolve().parent.parent / "cards.db"


def shipped_copy(tmp_path: Path) -> Path:
    """A private copy of cards.db at `tmp_path/cards.db`, on which migration 3 runs when opened.

    A development copy may carry a schema version recorded before migration 3
    had any SQL; such a copy is set back to version 2 so the migration runs.
    """
    path = tmp_path / "cards.db"
    shutil.copy(SHIPPED_DB, path)
    conn = sqlite3.connect(path)
    try:
        has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'constraints'").fetchone()
        if not has_table and conn.execute("PRAGMA user_version").fetchone()[0] > 2:
            conn.execute("PRAGMA user_version = 2")
        conn.commit()
    finally:
        conn.close()
    return path


def only_constraint(db: sqlite_utils.Database, constraint: Constraint) -> None:
    """Replace the game's constraints with `constraint`, so a test sees its own rule's breaches alone."""
    with transaction(db) as conn:
        for table in ("constraints", "consistency"):
            conn.execute(f"DELETE FROM {table} WHERE game = ?", [constraint.game])
        insert_constraint(conn, constraint)

"""Where a card database lives on disk: art paths and a project's templates are relative to it."""

from __future__ import annotations

from pathlib import Path

import sqlite_utils


def db_folder(db: sqlite_utils.Database) -> Path | None:
    """Folder of the database's main file; None for an in-memory database."""
    for _, name, file in db.conn.execute("PRAGMA database_list").fetchall():
        if name == "main" and file:
            return Path(file).resolve().parent
    return None

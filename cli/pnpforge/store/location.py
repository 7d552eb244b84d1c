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


# A temporary database made from a project (a language edition) names that project's
# folder in this file beside it, so what it prints still lands in the project's output/.
ORIGIN_FILE = "pnp-origin.txt"


def project_folder(folder: Path | None) -> Path | None:
    """The project a database folder belongs to: itself, or the one its ORIGIN_FILE names."""
    if folder is None:
        return None
    try:
        return Path((folder / ORIGIN_FILE).read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return folder


def project_output(folder: Path | None) -> Path:
    """The default output/ of the project in `folder`: beside its database, like its templates/.

    Shown as the short relative `output` when the project folder is the working
    directory (the usual case), so messages and manifests read as before.
    """
    if folder is None:
        return Path("output")
    try:
        here = Path.cwd().resolve()
    except OSError:  # a working directory that was removed
        here = None
    return Path("output") if folder == here else folder / "output"


def output_root(db: sqlite_utils.Database) -> Path:
    """Where every output command writes by default: output/ in the database's folder.

    A designer's project is the folder holding cards.db, templates/ and art; a kit
    written from another working directory still lands there, never beside the shell.
    """
    return project_output(project_folder(db_folder(db)))

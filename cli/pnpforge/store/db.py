"""Opening cards.db: foreign keys on, a busy timeout, migrations applied.

Every connection in the project comes from `open_db`, so no code path can
forget `PRAGMA foreign_keys=ON` (SQLite leaves it off by default).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.store.schema import MIGRATIONS, SCHEMA_VERSION

DEFAULT_DB = "cards.db"


def resolve_path(path: str | os.PathLike | None) -> Path:
    """--db, else $PNP_DB, else ./cards.db."""
    return Path(path or os.environ.get("PNP_DB") or DEFAULT_DB)


def _busy_timeout() -> float:
    """Seconds to wait for another writer ($PNP_BUSY_TIMEOUT, default 5)."""
    try:
        return float(os.environ.get("PNP_BUSY_TIMEOUT", "5"))
    except ValueError:
        return 5.0


def _connect(path: Path, readonly: bool) -> sqlite3.Connection:
    if readonly:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=_busy_timeout(),
                               isolation_level=None)
    else:
        conn = sqlite3.connect(str(path), timeout=_busy_timeout(), isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def open_db(path: str | os.PathLike | None = None, *, create: bool = False,
            readonly: bool = False) -> sqlite_utils.Database:
    """Open (or with create=True, make) a card database and bring its schema up to date."""
    p = resolve_path(path)
    if not create and not p.exists():
        raise PnpError(f"no card database at {p}: pass --db PATH, set PNP_DB, "
                       f"or create one with 'pnp db init'")
    if create and p.exists():
        raise PnpError(f"{p} already exists; refusing to overwrite it")
    try:
        conn = _connect(p, readonly)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise PnpError(f"{p} is not a readable SQLite database ({exc})") from None
    if version > SCHEMA_VERSION:
        raise PnpError(f"{p} has schema version {version}, newer than this pnpforge "
                       f"understands ({SCHEMA_VERSION}); upgrade pnpforge")
    if version < SCHEMA_VERSION:
        if readonly:
            conn.close()
            conn = _connect(p, False)
        _migrate(conn, version, p)
    return sqlite_utils.Database(conn)


def _migrate(conn: sqlite3.Connection, version: int, path: Path) -> None:
    """Apply migrations version+1 … latest, each in its own transaction."""
    for number in range(version + 1, SCHEMA_VERSION + 1):
        script = MIGRATIONS[number - 1]
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise PnpError(f"cannot upgrade {path} to schema version {number}: {exc}") from None


class transaction:
    """`with transaction(db):` — BEGIN IMMEDIATE … COMMIT, ROLLBACK on any error.

    Turns SQLite's locked/read-only errors into PnpError so commands print a
    message instead of a traceback.
    """

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.conn = db.conn

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise PnpError(_write_error(exc)) from None
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return False
            except sqlite3.Error as err:
                self.conn.execute("ROLLBACK")
                raise PnpError(_write_error(err)) from None
        self.conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.IntegrityError):
            raise PnpError(f"the database refused the change: {exc}") from None
        if isinstance(exc, sqlite3.OperationalError):
            raise PnpError(_write_error(exc)) from None
        return False


def _write_error(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return "the card database is read-only; nothing was changed"
    if "locked" in text or "busy" in text:
        return "the card database is locked by another program; nothing was changed (try again)"
    return f"database error: {text}; nothing was changed"

"""Opening cards.db: exactly the named file, foreign keys on, a busy timeout, migrations.

Every connection in the project comes from `open_db`, so no code path can
forget `PRAGMA foreign_keys=ON` (SQLite leaves it off by default).

Reads never change a file: a read-only open uses a `mode=ro` URI with the
path percent-escaped (a `#` or `?` in a folder name would otherwise open a
different file), refuses empty and foreign SQLite files instead of giving
them pnpforge's schema, and reads an older pnpforge schema through an
in-memory copy migrated there.  Only `create=True` (`pnp db init`) makes a
file and only a writable open of a pnpforge database migrates it in place.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import urllib.parse
from pathlib import Path
from types import TracebackType

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.store.schema import MIGRATIONS, SCHEMA_VERSION

DEFAULT_DB = "cards.db"
PNPFORGE_TABLES = frozenset({"games", "card_types", "field_defs", "cards", "history"})


def resolve_path(path: str | os.PathLike[str] | None) -> Path:
    """--db, else $PNP_DB, else ./cards.db."""
    return Path(path or os.environ.get("PNP_DB") or DEFAULT_DB)


def _busy_timeout() -> float:
    """Seconds to wait for another writer ($PNP_BUSY_TIMEOUT, default 5)."""
    try:
        return float(os.environ.get("PNP_BUSY_TIMEOUT", "5"))
    except ValueError:
        return 5.0


def file_uri(path: Path, mode: str) -> str:
    """A SQLite URI naming exactly `path`: `%`, `#` and `?` are escaped, never read as URI syntax."""
    return f"file:{urllib.parse.quote(str(path.absolute()), safe='/')}?mode={mode}"


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    conn = sqlite3.connect(file_uri(path, mode), uri=True, timeout=_busy_timeout(), isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


_SITUATIONS = (
    "locked",
    "busy",
    "malformed",
    "not a database",
    "disk is full",
    "readonly",
    "read-only",
    "unable to open",
    "disk I/O error",
)


def is_situation(exc: sqlite3.Error) -> bool:
    """True for errors caused by the file or its surroundings (a lock, damage, a full disk), not a bug."""
    code = getattr(exc, "sqlite_errorname", "") or ""
    return any(s in str(exc) for s in _SITUATIONS) or code.startswith(
        (
            "SQLITE_BUSY",
            "SQLITE_LOCKED",
            "SQLITE_CORRUPT",
            "SQLITE_NOTADB",
            "SQLITE_FULL",
            "SQLITE_READONLY",
            "SQLITE_CANTOPEN",
            "SQLITE_IOERR",
        )
    )


def describe_error(path: Path | str, exc: sqlite3.Error) -> str:
    """One line for a SQLite error on `path` that says what happened and what to do."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorname", "") or ""
    if code == "SQLITE_READONLY_ROLLBACK" or "READONLY_ROLLBACK" in code:
        return (
            f"{path} has an interrupted write to roll back ({path}-journal, left by a crash): "
            f"run 'pnp --db {path} db upgrade' to finish the roll-back, then try again"
        )
    if "locked" in text or "busy" in text or code.startswith("SQLITE_BUSY"):
        return f"{path} is locked by another program; nothing was changed (try again)"
    if "malformed" in text or code.startswith("SQLITE_CORRUPT"):
        return (
            f"{path} is damaged ({text}); restore the committed copy with "
            f"'git restore {path}' (or 'git checkout -- {path}'), or salvage what is left with "
            f"'sqlite3 {path} .recover | sqlite3 recovered.db'"
        )
    if "not a database" in text or code == "SQLITE_NOTADB":
        return f"{path} is not a SQLite database ({text}); pass --db with a pnpforge card database"
    if "disk is full" in text or code == "SQLITE_FULL":
        return f"the disk holding {path} is full; nothing was changed"
    if "readonly" in text or "read-only" in text:
        return f"{path} is read-only; nothing was changed"
    if "unable to open" in text or code == "SQLITE_CANTOPEN":
        return f"cannot open {path} (check the folder exists and is readable)"
    return f"database error on {path}: {text}; nothing was changed"


def _check_file(p: Path, create: bool) -> None:
    """Refuse what SQLite must not open: a missing file, a folder, a FIFO or device, an empty file."""
    try:
        st = p.stat()
    except FileNotFoundError:
        if create:
            return
        raise PnpError(
            f"no card database at {p}: pass --db PATH, set PNP_DB, or create one with 'pnp db init'"
        ) from None
    except OSError as exc:
        raise PnpError(f"cannot open {p}: {exc.strerror}") from None
    if create:
        raise PnpError(f"{p} already exists; refusing to overwrite it")
    if not stat.S_ISREG(st.st_mode):
        raise PnpError(f"{p} is not a regular file (a folder or device); pass --db with a card database")
    if st.st_size == 0:
        raise PnpError(
            f"{p} is empty, not a pnpforge card database; "
            f"left as it is (create a database with 'pnp --db NEW.db db init')"
        )


def _identify(conn: sqlite3.Connection, p: Path) -> int:
    """The schema version of a pnpforge database; PnpError for anything else."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version < 0:
        raise PnpError(f"{p} has schema version {version}: damaged or not a pnpforge database; left as it is")
    if version > SCHEMA_VERSION:
        raise PnpError(
            f"{p} has schema version {version}, newer than this pnpforge "
            f"understands ({SCHEMA_VERSION}); upgrade pnpforge"
        )
    if version == 0 or not PNPFORGE_TABLES <= tables:
        what = "an empty SQLite database" if not tables else "another application's SQLite database"
        raise PnpError(
            f"{p} is {what}, not a pnpforge card database; left as it is "
            f"(create one with 'pnp --db NEW.db db init')"
        )
    return int(version)


def open_db(
    path: str | os.PathLike[str] | None = None,
    *,
    create: bool = False,
    readonly: bool = False,
    scratch: bool = False,
) -> sqlite_utils.Database:
    """Open a card database; `create` makes a new one, `readonly` never writes the file.

    `scratch` opens a private in-memory copy: writes there run every check of a
    real write (the schema's included) and vanish, which is what a dry run needs.
    """
    p = resolve_path(path)
    _check_file(p, create)
    try:
        if create:
            conn = _connect(p, "rwc")
            _migrate(conn, 0, p)
            return sqlite_utils.Database(conn)
        conn = _connect(p, "ro" if readonly or scratch else "rw")
        version = _identify(conn, p)
        if scratch or (readonly and version < SCHEMA_VERSION):
            conn = _in_memory_copy(conn)
        if version < SCHEMA_VERSION:
            _migrate(conn, version, p)
    except sqlite3.Error as exc:
        raise PnpError(describe_error(p, exc)) from None
    return sqlite_utils.Database(conn)


def _in_memory_copy(conn: sqlite3.Connection) -> sqlite3.Connection:
    """The database copied into memory; the file connection is closed."""
    mem = sqlite3.connect(":memory:", isolation_level=None)
    conn.backup(mem)
    conn.close()
    mem.execute("PRAGMA foreign_keys=ON")
    return mem


def upgrade(path: str | os.PathLike[str] | None = None) -> tuple[int, int]:
    """Migrate a pnpforge database in place (and roll back a crashed write); (old, new) version."""
    p = resolve_path(path)
    _check_file(p, False)
    try:
        conn = _connect(p, "rw")
        version = _identify(conn, p)
        _migrate(conn, version, p)
        conn.close()
    except sqlite3.Error as exc:
        raise PnpError(describe_error(p, exc)) from None
    return version, SCHEMA_VERSION


def _migrate(conn: sqlite3.Connection, version: int, path: Path) -> None:
    """Apply migrations version+1 … latest, each in its own transaction (or idempotent step)."""
    for number in range(version + 1, SCHEMA_VERSION + 1):
        step = MIGRATIONS[number - 1]
        try:
            if isinstance(step, str):
                conn.executescript(f"BEGIN IMMEDIATE;\n{step}\nPRAGMA user_version={number};\nCOMMIT;")
            else:  # sqlite-utils commits as it goes: the step is idempotent, the version set last
                step(sqlite_utils.Database(conn))
                conn.execute(f"PRAGMA user_version={number}")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise PnpError(
                f"cannot upgrade {path} to schema version {number}: {describe_error(path, exc)}"
            ) from None


def connection(db: sqlite_utils.Database | sqlite3.Connection) -> sqlite3.Connection:
    """The SQLite connection under a database handle; readers take either, writers pass the
    connection their transaction holds."""
    return db if isinstance(db, sqlite3.Connection) else db.conn


class transaction:
    """`with transaction(db):` — BEGIN IMMEDIATE … COMMIT, ROLLBACK on any error.

    The write lock is taken first, so whatever the caller reads inside the
    block is what it writes against.  SQLite's locked/read-only/full errors
    become PnpError so commands print a message instead of a traceback.
    `rollback_only` ends the block with ROLLBACK even on success (dry runs).
    """

    def __init__(self, db: sqlite_utils.Database, rollback_only: bool = False) -> None:
        self.conn = db.conn
        self.rollback_only = rollback_only

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise PnpError(_write_error(exc)) from None
        return self.conn

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is None and not self.rollback_only:
            try:
                self.conn.execute("COMMIT")
                return
            except sqlite3.Error as err:
                self._rollback()
                raise PnpError(_write_error(err)) from None
        self._rollback()
        if isinstance(exc, sqlite3.IntegrityError):
            raise PnpError(f"the database refused the change: {exc}; nothing was changed") from None
        if isinstance(exc, sqlite3.Error) and is_situation(exc):
            raise PnpError(_write_error(exc)) from None

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def _write_error(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return "the card database is read-only; nothing was changed"
    if "locked" in text or "busy" in text:
        return "the card database is locked by another program; nothing was changed (try again)"
    if "disk is full" in text:
        return "the disk is full; nothing was changed"
    return f"database error: {text}; nothing was changed"

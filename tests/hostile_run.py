"""Running one hostile case (tests/hostile_cases.py): set up, run `pnp` in-process, judge.

Shared by tests/test_hostile.py and bench/hostile.py.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from hostile_cases import BUNDLE_MUTATIONS, CSV_BYTES, CSV_FILES, Case, json_text
from pnpforge.app import app

FIXTURE = Path(__file__).parent / "fixtures" / "mini.json"


@dataclass
class Outcome:
    case: Case
    exit_code: int
    traceback: bool
    unchanged: bool | None  # None: the file did not exist before and after
    ok: bool
    stderr: str


def make_template(folder: Path) -> Path:
    """The fixture database, at the current schema."""
    from pnpforge.edit import import_game
    from pnpforge.store.db import open_db

    path = folder / "template.db"
    import_game(open_db(path, create=True), FIXTURE)
    return path


def _pnpforge_copy(template: Path, target: Path, version: int | None = None) -> None:
    shutil.copy(template, target)
    if version is not None:
        conn = sqlite3.connect(target)
        conn.execute(f"PRAGMA user_version={version}")
        conn.close()


def _raw_break(db: Path, what: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%guard%'"
    ).fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("PRAGMA ignore_check_constraints=ON")
    sql = {
        "copies_text": "UPDATE cards SET copies = 'abc' WHERE id = 'H-01'",
        "copies_huge": "UPDATE cards SET copies = 1000000000 WHERE id = 'H-01'",
        "id_traversal": "UPDATE cards SET id = '../../../x' WHERE id = 'H-02'",
        "fields_array": "UPDATE cards SET fields = '[1,2]' WHERE id = 'H-01'",
        "name_nul": "UPDATE cards SET name = 'a' || char(0) || 'b' WHERE id = 'H-01'",
        "fields_deep": "UPDATE cards SET fields = json_set(fields, '$.power', json('{\"a\":[[1]]}')) "
        "WHERE id = 'H-01'",
    }[what]
    conn.execute(sql)
    conn.close()


def _hot_journal(db: Path) -> None:
    code = (
        "import sqlite3, os, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA cache_size=1')\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        'for i in range(300): c.execute("UPDATE cards SET notes = hex(randomblob(3000))")\n'
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(db)], check=True)
    assert db.with_name(db.name + "-journal").exists()


def _bundle(db: Path, target: Path, mutation: str | None = None) -> None:
    from pnpforge.store import bundle
    from pnpforge.store.db import open_db

    data = bundle.export(open_db(db, readonly=True), "mini")
    if mutation:
        path, _, value = mutation.partition("=")
        *parents, last = path.split(".")
        node: Any = data  # dicts and lists of the bundle, walked by the mutation's path
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = ast.literal_eval(value)
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _export(db: Path, target: Path) -> None:
    from pnpforge.api import Project
    from pnpforge.edit import set_card
    from pnpforge.store.db import open_db

    handle = open_db(db)
    set_card(handle, "mini", "H-01", {"text": "=1+2", "notes": "-1 -3 -6 -10 X"})
    target.write_text(Project(handle, Path("cards.db")).export_cards("mini", "csv"), encoding="utf-8")


@contextlib.contextmanager
def prepared(case: Case, db: Path, tmp: Path) -> Iterator[None]:
    """Make what `case.setup` names; hold a lock for the case when it asks for one."""
    kind, _, arg = case.setup.partition(":")
    lock = None
    if kind == "csv":
        data = CSV_FILES[arg][0].encode("utf-8") if arg in CSV_FILES else CSV_BYTES[arg][0]
        (tmp / "in.csv").write_bytes(data)
    elif kind == "json":
        (tmp / "in.json").write_text(json_text(arg), encoding="utf-8", errors="surrogatepass")
    elif kind == "folder":
        (tmp / "dir.csv").mkdir()
    elif kind in ("fifo", "fifodb", "fifo_out"):
        os.mkfifo(tmp / {"fifo": "fifo.csv", "fifodb": "fifo.db", "fifo_out": "fifo.out"}[kind])
    elif kind == "txt":
        (tmp / "in.txt").write_text("id\nH-01\n")
    elif kind == "export":
        _export(db, tmp / "export.csv")
    elif kind == "empty":
        (tmp / "empty.db").write_bytes(b"")
    elif kind in ("foreign", "blank"):
        conn = sqlite3.connect(tmp / f"{kind}.db")
        conn.execute("CREATE TABLE notes (x)")
        if kind == "blank":
            conn.execute("DROP TABLE notes")
        conn.commit()
        conn.close()
    elif kind == "textfile":
        (tmp / "text.db").write_text("hello, not a database\n" * 100)
    elif kind == "newer":
        _pnpforge_copy(db, tmp / "newer.db", 99)
    elif kind == "negative":
        _pnpforge_copy(db, tmp / "negative.db", -3)
    elif kind == "damage":
        with open(db, "r+b") as f:
            f.seek(4096)
            f.write(b"\xa5" * 4096 * 3)
    elif kind == "hotjournal":
        _hot_journal(db)
    elif kind == "uridb":
        shutil.copy(db, tmp / "a#b?c%d.db")
    elif kind == "lock":
        lock = sqlite3.connect(db, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
    elif kind == "file":
        (tmp / "file.txt").write_text("x")
    elif kind == "bundle":
        _bundle(db, tmp / "bundle.json")
    elif kind == "badbundle":
        _bundle(db, tmp / "bad.json", BUNDLE_MUTATIONS[arg])
    elif kind == "raw":
        _raw_break(db, arg)
    try:
        yield
    finally:
        if lock is not None:
            lock.execute("ROLLBACK")
            lock.close()


def _fingerprint(path: Path) -> bytes | None:
    files = [path, path.with_name(path.name + "-journal")]
    parts = [p.read_bytes() if p.is_file() else b"<none>" for p in files]
    return b"\0|".join(parts) if path.is_file() else None


def run_case(case: Case, template: Path, tmp: Path) -> Outcome:
    """Run one case in `tmp` (empty) against a fresh copy of `template`."""
    db = tmp / "cards.db"
    shutil.copy(template, db)
    args = [a.replace("{db}", str(db)).replace("{tmp}", str(tmp)) for a in case.args]
    if args[:1] != ["--db"]:
        args = ["--db", str(db), *args]
    target = Path(args[1])
    with prepared(case, db, tmp):
        before = _fingerprint(target)
        runner = CliRunner()
        result = runner.invoke(
            app, args, input="n\n", catch_exceptions=True, env={"PNP_BUSY_TIMEOUT": "0.2", "PNP_ART_DIRS": ""}
        )
        after = _fingerprint(target)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    traceback = crashed or "Traceback" in (result.stdout + result.stderr)
    unchanged = None if before is None and after is None else before == after
    refused = result.exit_code != 0
    ok = not traceback
    if case.expect == "ok":
        ok = ok and result.exit_code == 0
    elif case.expect == "refused":
        ok = ok and refused
    if case.kind == "read" or refused:
        ok = ok and unchanged is not False
    return Outcome(
        case, result.exit_code, traceback, unchanged, ok, (result.stderr or repr(result.exception))[:300]
    )

"""Two processes against one database: validation and write hold the write lock together.

A slow import runs in one process; while it holds the write lock, other
processes add a card whose name the import also uses, remove a card the import
names, and set a field of a card the import rewrites without that column.
Whatever the order the lock gives them, the database ends valid and no edit
is lost.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from pathlib import Path

from pnpforge.store import repo
from pnpforge.store.db import open_db
from pnpforge.validate import ERROR, validate_game

ROWS = 4000


def _pnp(db: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PNP_BUSY_TIMEOUT": "60"}
    return subprocess.Popen(
        [sys.executable, "-m", "pnpforge", "--db", str(db), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _slow_import_file(path: Path) -> None:
    """ROWS new heroes naming S-01, one called 'Clash', and H-01 as it is (no 'text' column)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "type", "name", "copies", "power", "element", "weakness"])
        w.writerow(["H-01", "hero", "火龍騎士", 2, 8, "火", "S-01"])
        w.writerow(["C-0000", "hero", "Clash", 1, 1, "火", "S-01"])
        for i in range(1, ROWS):
            w.writerow([f"C-{i:04d}", "hero", f"英雄{i:04d}", 1, i % 20, "水", "S-01"])


def _wait_for_write_lock(db: Path, proc: subprocess.Popen, timeout: float = 60) -> None:
    """Until the importer has begun writing (its rollback journal exists)."""
    journal = db.with_name(db.name + "-journal")
    end = time.monotonic() + timeout
    while not journal.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the import never took the write lock"
        time.sleep(0.005)


def test_concurrent_edits_beside_a_slow_import(mini_db, tmp_path):
    open_db(mini_db).conn.close()  # migrate first, so every process starts from the same schema
    source = tmp_path / "big.csv"
    _slow_import_file(source)
    importer = _pnp(mini_db, "import", "mini", str(source))
    _wait_for_write_lock(mini_db, importer)
    add = _pnp(mini_db, "cards", "add", "mini", "hero", "X-1", "name=Clash", "power=1", "element=火")
    remove = _pnp(mini_db, "cards", "rm", "mini", "S-01", "--yes")
    edit = _pnp(mini_db, "cards", "set", "mini", "H-01", "text=edited beside the import")
    results = {
        name: (p.wait(120), *p.communicate())
        for name, p in (("import", importer), ("add", add), ("rm", remove), ("set", edit))
    }
    assert results["import"][0] == 0, results["import"]
    assert "Traceback" not in "".join(r[2] for r in results.values())

    db = open_db(mini_db, readonly=True)
    errors = [str(p) for p in validate_game(db, "mini") if p.severity == ERROR and p.scope == "card"]
    assert errors == []
    assert len(repo.list_cards(db, "mini")) >= ROWS + 3
    assert results["add"][0] != 0 and "already used" in results["add"][2]  # after the import: a duplicate
    assert results["rm"][0] != 0 and "named by" in results["rm"][2]  # S-01 is referenced
    assert repo.find_card(db, "mini", "S-01") is not None
    assert results["set"][0] == 0, results["set"]
    assert repo.get_card(db, "mini", "H-01").text == "edited beside the import"  # not reverted


def test_an_edit_that_loses_the_race_is_told_to_try_again(mini_db, tmp_path):
    open_db(mini_db).conn.close()
    source = tmp_path / "big.csv"
    _slow_import_file(source)
    importer = _pnp(mini_db, "import", "mini", str(source))
    _wait_for_write_lock(mini_db, importer)
    env = {**os.environ, "PNP_BUSY_TIMEOUT": "0"}
    quick = subprocess.run(
        [sys.executable, "-m", "pnpforge", "--db", str(mini_db), "cards", "set", "mini", "H-01", "copies=3"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert importer.wait(120) == 0
    if quick.returncode != 0:  # the import still held the lock
        assert "locked by another program" in quick.stderr and "try again" in quick.stderr
        assert "Traceback" not in quick.stderr
        assert repo.get_card(open_db(mini_db, readonly=True), "mini", "H-01").copies == 2

"""Import and validation scaling: 1k / 8k / 50k rows beside a bare csv + sqlite3 floor.

Run:  python bench/bench_import.py [--runs N] [--sizes 1000,8000,50000]

For each size a CSV of N cards of the test fixture's 'hero' type (every card
names another as its weakness, so references and duplicate names are checked)
is imported into a fresh copy of the fixture database.  Reported, as medians:
  * `import --dry-run` and the real import (in-process, the same code the CLI runs);
  * `pnp validate`'s work (validate_game) on the imported game;
  * the floor: the same CSV read with `csv` and inserted with `sqlite3` in one
    transaction, no checks at all;
  * peak memory of the real import (tracemalloc, Python objects).
Target: 8k rows within about 10× the time of 1k rows (linear), 50k feasible.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "mini.json"
HEADER = ["id", "type", "name", "copies", "provenance", "power", "element", "traits", "weakness"]


def write_csv(path: Path, rows: int) -> None:
    """N hero cards; card i names card i-1 (card 0 names the fixture's spell S-01)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for i in range(rows):
            w.writerow(
                [
                    f"B-{i:06d}",
                    "hero",
                    f"英雄{i:06d}",
                    1,
                    "provisional",
                    i % 20,
                    "火水風"[i % 3],
                    "大戶|矚目",
                    "S-01",
                ]
            )


def fresh_db(folder: Path) -> Path:
    from pnpforge.api import Project

    path = folder / "base.db"
    if not path.exists():
        Project.open(path, create=True).import_game(FIXTURE)
    copy = folder / "run.db"
    shutil.copy(path, copy)
    return copy


def floor(csv_path: Path, folder: Path) -> None:
    """What any importer must do at least: parse the CSV and insert every row."""
    db = folder / "floor.db"
    db.unlink(missing_ok=True)
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TABLE cards (id TEXT PRIMARY KEY, type TEXT, name TEXT, copies INTEGER, "
        "provenance TEXT, fields TEXT)"
    )
    with open(csv_path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        with conn:
            for r in reader:
                fields = {
                    "power": int(r["power"]),
                    "element": r["element"],
                    "traits": r["traits"].split("|"),
                    "weakness": r["weakness"],
                }
                conn.execute(
                    "INSERT INTO cards VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        r["id"],
                        r["type"],
                        r["name"],
                        int(r["copies"]),
                        r["provenance"],
                        json.dumps(fields, ensure_ascii=False),
                    ),
                )
    conn.close()


def timed(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(rows: int, runs: int, folder: Path) -> dict[str, float]:
    from pnpforge.api import Project

    csv_path = folder / f"cards-{rows}.csv"
    write_csv(csv_path, rows)

    def dry() -> None:
        Project.open(fresh_db(folder), scratch=True).import_cards("mini", csv_path, dry_run=True)

    def real() -> None:
        Project.open(fresh_db(folder)).import_cards("mini", csv_path)

    out = {
        "floor": timed(lambda: floor(csv_path, folder), runs),
        "dry_run": timed(dry, runs),
        "import": timed(real, runs),
    }
    imported = Project.open(folder / "run.db", readonly=True)
    out["validate"] = timed(lambda: imported.validate("mini"), runs)
    tracemalloc.start()
    real()
    out["peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1000,8000,50000")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "cli"))
    sizes = [int(s) for s in args.sizes.split(",")]
    results = {}
    with tempfile.TemporaryDirectory(prefix="pnp-bench-import-") as tmp:
        for n in sizes:
            results[n] = measure(n, args.runs if n <= 10_000 else 1, Path(tmp))
    print(
        f"{'rows':>7}  {'floor s':>8}  {'dry-run s':>9}  {'import s':>8}  {'×floor':>6}  "
        f"{'validate s':>10}  {'peak MB':>7}"
    )
    for n, r in results.items():
        print(
            f"{n:>7}  {r['floor']:>8.3f}  {r['dry_run']:>9.3f}  {r['import']:>8.3f}  "
            f"{r['import'] / r['floor']:>6.1f}  {r['validate']:>10.3f}  {r['peak_mb']:>7.1f}"
        )
    if len(sizes) > 1:
        a, b = sizes[0], sizes[1]
        print(
            f"import {b} / {a} rows: {results[b]['import'] / results[a]['import']:.1f}× "
            f"for {b / a:.0f}× the rows (linear: about {b / a:.0f}×)"
        )


if __name__ == "__main__":
    main()

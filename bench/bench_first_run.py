"""First-run benchmark: `pnp print GAME` with an empty font cache beside the same command warm.

Run:  python bench/bench_first_run.py [--runs 3] [--game enforcer] [--db cards.db] [--old PATH]

Each run is a whole `pnp` process (interpreter start included) on a copy of the
database.  Cold runs get a fresh, empty PNP_CACHE_DIR; warm runs reuse the cache
the cold runs filled.  Reported: medians of wall and CPU time, the cold/warm
ratio (target <= 3) and whether cold and warm PDFs are byte-identical (they must
be: the output may not depend on what the cache held).  With --old PATH (the
`cli` folder of an older checkout) the same is measured for that code, once,
as the before figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the child) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(cli: str | None, db: Path, game: str, runs: int, work: Path) -> dict:
    """Cold and warm runs of `pnp print game` for the code in `cli` (None: this checkout)."""
    work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ}
    if cli:
        env["PYTHONPATH"] = cli
    cold, warm, same = [], [], True
    for n in range(runs):
        cache = work / f"cache-{n}"
        shutil.rmtree(cache, ignore_errors=True)
        env["PNP_CACHE_DIR"] = str(cache)
        cmd = [sys.executable, "-m", "pnpforge", "--db", str(db), "print", game, "-o"]
        cold.append(_run([*cmd, str(work / "cold.pdf")], env))
        warm.append(_run([*cmd, str(work / "warm.pdf")], env))
        same = same and (work / "cold.pdf").read_bytes() == (work / "warm.pdf").read_bytes()
    med = {
        k: statistics.median(v[i] for v in runs_)
        for k, runs_, i in (
            ("cold_wall", cold, 0),
            ("cold_cpu", cold, 1),
            ("warm_wall", warm, 0),
            ("warm_cpu", warm, 1),
        )
    }
    return {
        **med,
        "ratio_wall": med["cold_wall"] / med["warm_wall"],
        "ratio_cpu": med["cold_cpu"] / med["warm_cpu"],
        "cold_equals_warm": same,
        "all_cold_wall": [round(c[0], 2) for c in cold],
        "all_warm_wall": [round(w[0], 2) for w in warm],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--game", default="enforcer")
    ap.add_argument("--db", default=str(ROOT / "cards.db"))
    ap.add_argument("--old", help="cli folder of older code to measure once as the before figure")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-first-run-") as tmp:
        work = Path(tmp)
        db = work / "cards.db"
        shutil.copy(args.db, db)  # never write to the real database
        rows = {"now": measure(None, db, args.game, args.runs, work)}
        if args.old:
            rows["old"] = measure(args.old, db, args.game, 1, work / "old")
    print(
        f"pnp print {args.game}: first run (empty font cache) vs warm, whole processes, "
        f"medians of {args.runs} (old: 1 run)"
    )
    for name, r in rows.items():
        print(
            f"  {name}: cold {r['cold_wall']:.2f} s wall / {r['cold_cpu']:.2f} s CPU; "
            f"warm {r['warm_wall']:.2f} s / {r['warm_cpu']:.2f} s; "
            f"ratio {r['ratio_wall']:.1f}x wall, {r['ratio_cpu']:.1f}x CPU (target <= 3); "
            f"cold PDF == warm PDF: {r['cold_equals_warm']}; runs {r['all_cold_wall']} / {r['all_warm_wall']}"
        )


if __name__ == "__main__":
    main()

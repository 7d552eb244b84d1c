"""Kit benchmark: `pnp build --all` on the shipped cards.db, time and peak memory.

Run:  python bench/bench_build.py [--runs N] [--jobs J] [--db PATH]

Reports medians over N runs (default 3) of
  * `pnp build --all` into an empty folder (a full build), and again with nothing
    changed (every kit is current and kept: the warm rebuild a designer mostly runs);
  * the full build's wall time and CPU time, and its peak memory: the resident memory of
    the whole process tree (workers included) sampled every 20 ms, and the
    largest single process (ru_maxrss of the children);
  * baselines measured in the same run: `pnp --help` (interpreter and CLI
    start-up, the floor of any command) and one in-process serial build with
    the time of each step per game, to show where the time goes.
Target: under 15 s for the five games.  Numbers depend on the machine and on
what else runs on it; compare figures from one run, not across machines.
"""

from __future__ import annotations

import argparse
import json
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
PNP = [sys.executable, "-m", "pnpforge"]
TARGET_S = 15.0  # a full build of the five kits
WARM_TARGET_S = 3.0  # `pnp build --all` warm: a rebuild with nothing changed


def _children(pid: int) -> list[int]:
    """pid and all its descendants, from /proc (Linux)."""
    parents: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(d))
        except (OSError, IndexError, ValueError):
            continue
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(parents.get(p, []))
    return out


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_build(db: Path, out: Path, jobs: int, clean: bool = True) -> tuple[float, int, int, float]:
    """One `pnp build --all`: (seconds, peak tree RSS kB, peak single-process RSS kB, CPU s).

    clean: start from an empty output folder (a full build); otherwise the kits of the
    previous run are there and, nothing having changed, are kept as they are.
    """
    if clean:
        shutil.rmtree(out, ignore_errors=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before, cpu0 = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    cmd = PNP + ["--db", str(db), "build", "--all", "-o", str(out), "--no-progress", "--jobs", str(jobs)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while proc.poll() is None:
        if os.path.isdir("/proc"):
            peak = max(peak, sum(_rss_kb(p) for p in _children(proc.pid)))
        time.sleep(0.02)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"pnp build failed ({proc.returncode}):\n{err}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, peak, max(usage.ru_maxrss, before), usage.ru_utime + usage.ru_stime - cpu0


def median_time(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def step_breakdown(db: Path, out: Path) -> dict[str, dict[str, float]]:
    """Seconds per step per game in one in-process serial build."""
    sys.path.insert(0, str(ROOT / "cli"))
    from pnpforge.api import BuildOptions, Project

    project = Project.open(db, readonly=True)
    games = [g.slug for g in project.games()]
    steps: dict[str, dict[str, float]] = {g: {} for g in games}
    last = [time.perf_counter()]

    def progress(game: str, step: str) -> None:
        now = time.perf_counter()
        steps[game][step] = now - last[0]
        last[0] = now

    shutil.rmtree(out, ignore_errors=True)
    project.build(games, out, BuildOptions(), jobs=1, progress=progress)
    return steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="pnp build --jobs (0: one per core)")
    ap.add_argument("--db", type=Path, default=ROOT / "cards.db")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if args.runs < 3:
        raise SystemExit("--runs must be at least 3 (medians)")
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="pnp-bench-build-") as tmp:
        db = Path(tmp) / "cards.db"
        shutil.copy(args.db, db)  # the benchmark never touches the real database
        out = Path(tmp) / "output"
        # warm-up: converts and caches the fonts once, as any user's first run does
        run_build(db, out, args.jobs)
        runs = [run_build(db, out, args.jobs) for _ in range(args.runs)]
        kept = [run_build(db, out, args.jobs, clean=False) for _ in range(args.runs)]
        startup = median_time(PNP + ["--help"], args.runs)
        steps = step_breakdown(db, out)
    load_after = os.getloadavg()
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[3] for r in runs)
    tree = statistics.median(r[1] for r in runs)
    single = max(r[2] for r in runs)
    figures = {
        "runs": args.runs,
        "jobs": args.jobs or os.cpu_count(),
        "cpus": os.cpu_count(),
        "build_all_s": round(wall, 2),
        "build_all_runs_s": [round(r[0], 2) for r in runs],
        "build_all_cpu_s": round(cpu, 2),
        "unchanged_rebuild_s": round(statistics.median(r[0] for r in kept), 2),
        "unchanged_rebuild_cpu_s": round(statistics.median(r[3] for r in kept), 2),
        "peak_rss_tree_mb": round(tree / 1024, 1),
        "peak_rss_single_mb": round(single / 1024, 1),
        "load_average_before_after": [round(load_before[0], 2), round(load_after[0], 2)],
        "baseline_pnp_help_s": round(startup, 3),
        "serial_steps_s": {g: {k: round(v, 2) for k, v in s.items()} for g, s in steps.items()},
        "serial_total_s": round(sum(sum(s.values()) for s in steps.values()), 2),
        "target_s": TARGET_S,
        "warm_target_s": WARM_TARGET_S,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"pnp build --all ({figures['jobs']} jobs, {figures['cpus']} CPUs), median of {args.runs}: "
        f"{wall:.2f} s  (runs: {', '.join(f'{r[0]:.2f}' for r in runs)}; target < {TARGET_S:g} s)"
    )
    print(
        f"CPU time (all processes), median: {cpu:.2f} s; 1-minute load average before/after: "
        f"{load_before[0]:.2f}/{load_after[0]:.2f} (other work on the machine slows the build)"
    )
    print(
        f"peak memory: {tree / 1024:.0f} MB for the process tree, "
        f"{single / 1024:.0f} MB for the largest process"
    )
    print(
        f"rebuild with nothing changed (kits kept), median: {figures['unchanged_rebuild_s']:.2f} s, "
        f"CPU {figures['unchanged_rebuild_cpu_s']:.2f} s (target < {WARM_TARGET_S:g} s)"
    )
    print(f"baseline: pnp --help {startup:.3f} s")
    print(f"serial in-process build, seconds per step (total {figures['serial_total_s']:.2f} s):")
    names = list(next(iter(steps.values())).keys()) if steps else []
    print(f"  {'game':<14}" + "".join(f"{n:>10}" for n in names))
    for g, s in steps.items():
        print(f"  {g:<14}" + "".join(f"{s.get(n, 0):>10.2f}" for n in names))


if __name__ == "__main__":
    main()

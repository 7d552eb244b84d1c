#!/usr/bin/env python3
"""Run the hostile-input and reliability table against a `pnp` build.

    python run.py --pnp /path/to/pnp --db /path/to/cards.db [--only ID,...] [--json out.json]
                  [--jobs N] [--keep]

Every case runs in its own temp folder on copies (the given cards.db is never opened for
writing), with its own timeout; servers listen on loopback only and are stopped after the case.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness as H  # noqa: E402
import cases as C  # noqa: E402

SKY_CSV = """id,name,type,copies,cost,faction,traits,text
S1,Alpha,ship,2,3,guild,fast|armed,Hello
S2,Beta,ship,1,5,navy,armed,World
S3,Delta,ship,2,1,pirate,fast,Steal 1 coin.
S4,Epsilon,ship,1,2,guild,slow,Trade.
S5,Zeta,ship,1,4,navy,armed|slow,Guard.
E1,Gamma,event,1,,,,Storm
E2,Omega,event,2,,,,Calm
"""


class Cfg:
    pass


def setup(cfg) -> None:
    """Shared, read-only fixtures: the 'sky' game, a warm cache and reference PDFs."""
    base = cfg.base
    ctx = H.Ctx(cfg, "_setup", base)
    sky = base / "sky"
    sky.mkdir()
    (sky / "ships.csv").write_text(SKY_CSV, encoding="utf-8")
    env = {"PNP_CACHE_DIR": str(base / "warm_cache")}
    steps = [
        (["db", "init"], sky),
        (["game", "new", "sky", "--title", "Sky", "--from", "ships.csv", "--language", "en"], sky),
    ]
    for args, cwd in steps:
        r = ctx.pnp(*args, db=sky / "sky.db", cwd=cwd, env=env, timeout=120)
        if r.rc != 0:
            sys.exit(f"setup failed: pnp {' '.join(args)}: {r.err or r.out}")
    for i in (1, 2):
        r = ctx.pnp("print", "sky", "-o", base / f"ref_sky{i}.pdf", db=sky / "sky.db", cwd=sky, env=env, timeout=180)
        if r.rc != 0:
            sys.exit(f"setup failed: print sky: {r.err}")
    shutil.copytree(sky, base / "sky_clean")
    if (sky / "output").exists():
        shutil.rmtree(sky / "output")
    shipdir = base / "shipped"
    shipdir.mkdir()
    shutil.copy2(cfg.db, shipdir / "cards.db")
    r = ctx.pnp("print", "hackers", "-o", base / "ref_hackers.pdf", db=shipdir / "cards.db", cwd=shipdir, env=env, timeout=300)
    if r.rc != 0:
        sys.exit(f"setup failed: print hackers: {r.err}")
    r = ctx.pnp("export", "sky", "-o", base / "sky_export.csv", db=sky / "sky.db", env=env)
    if r.rc != 0:
        sys.exit(f"setup failed: export sky: {r.err}")
    cfg.ref_sky = (base / "ref_sky1.pdf").read_bytes()
    cfg.ref_sky_stable = cfg.ref_sky == (base / "ref_sky2.pdf").read_bytes()
    cfg.ref_hackers = (base / "ref_hackers.pdf").read_bytes()
    cfg.sky_csv = (base / "sky_export.csv").read_text(encoding="utf-8")
    ctx.cleanup()


def run_case(cfg, case, root):
    ctx = H.Ctx(cfg, case.id, root)
    t0 = time.monotonic()
    status, reason = H.FAIL, "case returned without a verdict"
    result = {}
    holder = {}

    def body():
        try:
            case.fn(ctx)
            holder["v"] = (H.FAIL, "case returned without a verdict (runner bug)")
        except H.Verdict as v:
            holder["v"] = (v.status, v.reason)
        except Exception as e:  # a bug in the case itself, reported as such
            holder["v"] = (H.QUESTION, f"runner error: {type(e).__name__}: {e} | "
                           + traceback.format_exc().strip().splitlines()[-2][:200])

    th = threading.Thread(target=body, daemon=True)
    th.start()
    th.join(case.timeout + 30)
    if th.is_alive():
        holder["v"] = (H.FAIL, f"case exceeded its budget of {case.timeout + 30} s (hang)")
    ctx.cleanup()
    th.join(5)
    status, reason = holder["v"]
    result = {"id": case.id, "category": case.category, "status": status, "reason": reason,
              "secs": round(time.monotonic() - t0, 2), "what": case.doc}
    if not cfg.keep:
        _rm(ctx.dir)
    return result


def _rm(path):
    def onerr(func, p, exc):
        try:
            os.chmod(os.path.dirname(p), 0o755)
            os.chmod(p, 0o755)
            func(p)
        except OSError:
            pass
    shutil.rmtree(path, onerror=onerr)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pnp", required=True, help="path to the pnp executable")
    ap.add_argument("--db", required=True, help="the shipped cards.db (only copied, never written)")
    ap.add_argument("--only", default="", help="comma-separated case ids (prefix* allowed)")
    ap.add_argument("--json", default="", help="write the results here")
    ap.add_argument("--jobs", type=int, default=3, help="cases run at once (default 3)")
    ap.add_argument("--keep", action="store_true", help="keep the temp folders")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--extended", action="store_true",
                    help="also run the near-duplicate cases kept out of the default table")
    a = ap.parse_args(argv)

    cases = C.all_cases() if (a.extended or a.only) else C.core_cases()
    if a.list:
        for c in cases:
            print(f"{c.id:34} {c.category:10} {c.doc}")
        print(f"{len(cases)} cases")
        return 0
    if a.only:
        want = [w.strip() for w in a.only.split(",") if w.strip()]
        cases = [c for c in cases if any(c.id == w or (w.endswith("*") and c.id.startswith(w[:-1])) for w in want)]
    cfg = Cfg()
    cfg.pnp = str(Path(a.pnp).resolve())
    cfg.db = str(Path(a.db).resolve())
    cfg.keep = a.keep
    cfg.base = Path(tempfile.mkdtemp(prefix="pnp-hostile-"))
    db_before = H.sha(cfg.db)
    t0 = time.monotonic()
    print(f"# pnp: {cfg.pnp}\n# db:  {cfg.db}\n# work: {cfg.base}", flush=True)
    setup(cfg)
    print(f"# setup {time.monotonic() - t0:.1f} s; reference PDF stable: {cfg.ref_sky_stable}", flush=True)
    root = cfg.base / "cases"
    root.mkdir()
    results = []
    lock = threading.Lock()
    # slow cases first so the pool drains evenly
    cases.sort(key=lambda c: -c.timeout if c.heavy else 0)
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(run_case, cfg, c, root): c for c in cases}
        for f in as_completed(futs):
            r = f.result()
            with lock:
                results.append(r)
                print(f"{r['id']:34} {r['category']:10} {r['status']:8} {r['reason']}", flush=True)
    order = {c.id: i for i, c in enumerate(C.all_cases())}
    run_ids = {c.id for c in cases}
    results.sort(key=lambda r: order.get(r["id"], 0))
    if H.sha(cfg.db) != db_before:
        results.append({"id": "meta_shipped_db_untouched", "category": "meta", "status": H.FAIL,
                        "reason": "the given cards.db changed during the run", "secs": 0, "what": ""})
    tot = {s: sum(1 for r in results if r["status"] == s) for s in (H.HOLD, H.FAIL, H.QUESTION)}
    wall = time.monotonic() - t0
    print(f"\nTOTAL {len(results)} cases: {tot[H.HOLD]} HOLD, {tot[H.FAIL]} FAIL, {tot[H.QUESTION]} QUESTION "
          f"({wall:.0f} s)")
    cats = {}
    for r in results:
        c = cats.setdefault(r["category"], {H.HOLD: 0, H.FAIL: 0, H.QUESTION: 0})
        c[r["status"]] += 1
    for k, v in sorted(cats.items()):
        print(f"  {k:10} {sum(v.values()):4}  hold {v[H.HOLD]:3}  fail {v[H.FAIL]:3}  question {v[H.QUESTION]:3}")
    if a.json:
        Path(a.json).write_text(json.dumps({
            "pnp": cfg.pnp, "db": cfg.db, "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "seconds": round(wall, 1), "totals": {"cases": len(results), **{k.lower(): v for k, v in tot.items()}},
            "by_category": cats, "results": results}, ensure_ascii=False, indent=1), encoding="utf-8")
    if not a.keep:
        _rm(cfg.base)
    return 1 if tot[H.FAIL] else 0


if __name__ == "__main__":
    sys.exit(main())

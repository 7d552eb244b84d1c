#!/usr/bin/env python3
"""Run the mutation cases of cases.py against a pnp build and a card database.

    python run.py --pnp /path/to/pnp --db /path/to/cards.db [--jobs 2] [--only ID,PREFIX,GAME…]
                  [--json out.json] [--timeout 180] [--keep DIR]

Per case: copy the database, apply the steps (pnp edits, raw SQL, or a game bundle
export → edit → import --replace), then run `pnp --db COPY validate` and
`pnp --db COPY check GAME --strict` (default settings). `check GAME --strict --games 0`
(the static part alone) runs first and tells whether the static part caught a mistake, else
the full check's sample games did. To keep a full run short, a mistake already caught stops
there: refused edit → no checks; validate fails → no check; static part fails → no full
check (the default check runs the same static checks before its games). Legal changes always
get validate, the static check and the full check; --thorough does the same for mistakes.

Scoring (the project's convention):
  mistake CAUGHT  when an edit step is refused (nothing written), or validate exits non-zero,
                  or check --strict exits non-zero;
  legal   PASSES  when every edit is accepted and check --strict exits 0.
Parts: editor (a refused edit; raw SQL refused by the schema counts here, noted 'db-guard'),
validate, check-static, check-games. The first part that caught a mistake is its 'part'.

Only the Python standard library is used; the runner reads nothing of pnpforge's code.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import copy
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cases import CASES  # noqa: E402

THOROUGH = False
GAMES = ["enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"]


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], cwd: Path, timeout: float) -> dict:
    t0 = time.monotonic()
    env = dict(os.environ)
    env.setdefault("PYTHONIOENCODING", "utf-8")
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "200"
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=env, stdin=subprocess.DEVNULL)
        return {"rc": p.returncode, "out": p.stdout, "err": p.stderr,
                "secs": round(time.monotonic() - t0, 2), "timeout": False}
    except subprocess.TimeoutExpired as e:
        return {"rc": None, "out": (e.stdout or b"").decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or ""),
                "err": "timeout", "secs": round(time.monotonic() - t0, 2), "timeout": True}


def fail_lines(text: str, limit: int = 6) -> list[str]:
    """The lines of a pnp output that say what failed."""
    keys = ("FAIL", "ERROR", "Error", "error:", "refused", "never used", "never won",
            "failed", "unused", "not allowed", "above", "below")
    out = []
    for line in text.splitlines():
        s = line.strip()
        if s and (any(k in s for k in keys) or s.lower().startswith("error ")) \
                and not s.startswith("replay a game") and not s.startswith("severity"):
            out.append(s[:300])
        if len(out) >= limit:
            break
    return out


def select(obj, key):
    if isinstance(key, dict):
        for item in obj:
            if all(item.get(k) == v for k, v in key.items()):
                return item
        raise KeyError(f"no item matching {key}")
    return obj[key]


def patch_bundle(data: dict, edits: list) -> None:
    for path, value in edits:
        target = data
        for key in path[:-1]:
            target = select(target, key)
        last = path[-1]
        if isinstance(last, dict):
            raise KeyError("a bundle path must end with a key")
        target[last] = copy.deepcopy(value)


class Infra(Exception):
    """A problem of the runner or of a case, not a verdict of pnp."""


def apply_step(step, game: str, pnp: str, db: Path, work: Path, timeout: float, log: list) -> dict:
    """Apply one step; return {'refused': bool, 'by': part, 'msg': str}."""
    before = sha(db)
    if isinstance(step, list):
        r = run([pnp, "--db", str(db), *step], work, timeout)
        log.append({"step": step, "rc": r["rc"], "out": (r["out"] + r["err"])[-3000:]})
        if r["timeout"]:
            raise Infra(f"edit timed out: {step}")
        if r["rc"] != 0:
            changed = sha(db) != before
            return {"refused": True, "by": "editor", "changed": changed,
                    "msg": " | ".join(fail_lines(r["out"] + "\n" + r["err"], 4))
                    or (r["err"] or r["out"]).strip()[:300]}
        return {"refused": False}
    if "sql" in step:
        con = sqlite3.connect(str(db))
        try:
            con.execute("PRAGMA foreign_keys = ON")
            con.execute(step["sql"])
            con.commit()
            log.append({"step": step, "rc": 0})
            return {"refused": False}
        except sqlite3.DatabaseError as e:
            con.rollback()
            log.append({"step": step, "rc": 1, "out": str(e)})
            return {"refused": True, "by": "editor", "detail": "db-guard",
                    "changed": sha(db) != before, "msg": f"sqlite: {e}"}
        finally:
            con.close()
    if "bundle" in step:
        bfile = work / f"{game}-bundle.json"
        r = run([pnp, "--db", str(db), "game", "export", game, "-o", str(bfile)], work, timeout)
        if r["rc"] != 0 or not bfile.exists():
            raise Infra(f"game export failed: {(r['out'] + r['err']).strip()[:300]}")
        data = json.loads(bfile.read_text(encoding="utf-8"))
        try:
            patch_bundle(data, step["bundle"])
        except (KeyError, IndexError, TypeError) as e:
            raise Infra(f"bundle patch does not apply: {e}") from e
        bfile.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        r = run([pnp, "--db", str(db), "game", "import", str(bfile), "--replace"], work, timeout)
        log.append({"step": step, "rc": r["rc"], "out": (r["out"] + r["err"])[-3000:]})
        if r["timeout"]:
            raise Infra("game import timed out")
        if r["rc"] != 0:
            return {"refused": True, "by": "editor", "detail": "game import",
                    "changed": sha(db) != before,
                    "msg": " | ".join(fail_lines(r["out"] + "\n" + r["err"], 4))
                    or (r["err"] or r["out"]).strip()[:300]}
        return {"refused": False}
    raise Infra(f"unknown step {step!r}")


def run_case(case: dict, pnp: str, src_db: Path, root: Path, timeout: float, keep: bool) -> dict:
    t0 = time.monotonic()
    work = root / case["id"]
    work.mkdir(parents=True, exist_ok=True)
    db = work / "cards.db"
    shutil.copyfile(src_db, db)
    game = case["game"]
    res = {"id": case["id"], "game": game, "kind": case["kind"], "what": case["what"],
           "source": case["source"], "parts": [], "messages": [], "log": []}
    try:
        refused = None
        for step in case["steps"]:
            out = apply_step(step, game, pnp, db, work, timeout, res["log"])
            if out["refused"]:
                refused = out
                break
        if refused:
            res["parts"].append("editor")
            res["messages"].append(("editor" + (f" ({refused['detail']})" if refused.get("detail") else "")
                                    + ": " + refused["msg"]))
            if refused.get("changed"):
                res["messages"].append("WARNING: the refused edit changed the database file")
        else:
            thorough = THOROUGH or case["kind"] == "legal"
            v = run([pnp, "--db", str(db), "validate"], work, timeout)
            res["validate_rc"] = v["rc"]
            if v["rc"] != 0:
                res["parts"].append("validate")
                res["messages"].append("validate: " + (" | ".join(fail_lines(v["out"] + "\n" + v["err"], 3))
                                                       or "exit %s" % v["rc"]))
            if thorough or not res["parts"]:
                # the static part alone first (fast); for a mistake it decides the verdict when it fails,
                # since the default check runs the same static checks before its sample games
                s0 = run([pnp, "--db", str(db), "check", game, "--strict", "--games", "0"], work, timeout)
                res["static_rc"] = s0["rc"]
                if s0["rc"] not in (0, None):
                    res["parts"].append("check-static")
                    res["messages"].append("check (static): " + (" | ".join(
                        fail_lines(s0["out"] + "\n" + s0["err"], 4)) or "exit %s" % s0["rc"]))
                if thorough or not res["parts"]:
                    c = run([pnp, "--db", str(db), "check", game, "--strict"], work, timeout)
                    res["check_rc"] = c["rc"]
                    res["check_secs"] = c["secs"]
                    if c["timeout"]:
                        res["messages"].append(f"check --strict timed out after {timeout:.0f} s")
                    elif c["rc"] != 0 and "check-static" not in res["parts"]:
                        res["parts"].append("check-games")
                        res["messages"].append("check (games): " + (" | ".join(
                            fail_lines(c["out"] + "\n" + c["err"], 5)) or "exit %s" % c["rc"]))
        caught = bool(res["parts"])
        if case["kind"] == "mistake":
            res["verdict"] = "CAUGHT" if caught else "MISSED"
        else:
            # a legal change passes when accepted and check --strict exits 0
            ok = ("editor" not in res["parts"]) and res.get("check_rc") == 0 and not res.get("check_timeout")
            res["verdict"] = "PASS" if ok else "FAILED"
        res["part"] = res["parts"][0] if res["parts"] else None
    except Infra as e:
        res["verdict"] = "ERROR"
        res["part"] = None
        res["messages"].append(f"runner: {e}")
    res["secs"] = round(time.monotonic() - t0, 1)
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return res


def baseline(pnp: str, src_db: Path, root: Path, timeout: float, games: list[str]) -> dict:
    work = root / "_baseline"
    work.mkdir(parents=True, exist_ok=True)
    db = work / "cards.db"
    shutil.copyfile(src_db, db)
    out = {}
    v = run([pnp, "--db", str(db), "validate"], work, timeout)
    out["validate"] = {"rc": v["rc"], "secs": v["secs"]}
    for g in games:
        r = run([pnp, "--db", str(db), "check", g, "--strict"], work, timeout)
        out[g] = {"rc": r["rc"], "secs": r["secs"], "fail": fail_lines(r["out"] + "\n" + r["err"], 5)}
    return out


def wanted(case: dict, only: list[str]) -> bool:
    if not only:
        return True
    return any(case["id"] == o or case["id"].startswith(o) or case["game"] == o or case["kind"] == o
               for o in only)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pnp", required=True, help="the pnp executable")
    ap.add_argument("--db", required=True, help="card database (never modified: copied per case)")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    ap.add_argument("--only", default="", help="comma-separated case ids, id prefixes, games or kinds")
    ap.add_argument("--json", default="", help="write the full results here")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per pnp command (default 180)")
    ap.add_argument("--keep", default="", help="keep each case's work folder under this folder")
    ap.add_argument("--thorough", action="store_true",
                    help="run validate and the full check on every mistake, even one already caught")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated baseline run")
    args = ap.parse_args()

    pnp = args.pnp
    global THOROUGH
    THOROUGH = args.thorough
    src_db = Path(args.db).resolve()
    if not src_db.is_file():
        print(f"no database at {src_db}", file=sys.stderr)
        return 2
    src_hash = sha(src_db)
    only = [o.strip() for o in args.only.split(",") if o.strip()]
    cases = [c for c in CASES if wanted(c, only)]
    root = Path(args.keep).resolve() if args.keep else Path(tempfile.mkdtemp(prefix="pnp-mutations-"))
    root.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()

    report = {"pnp": pnp, "db": str(src_db), "db_sha256": src_hash, "cases": []}
    games = sorted({c["game"] for c in cases}, key=GAMES.index)
    if not args.no_baseline:
        print("baseline (unmutated copy):", flush=True)
        b = baseline(pnp, src_db, root, args.timeout, games)
        report["baseline"] = b
        print(f"  validate: exit {b['validate']['rc']}")
        for g in games:
            st = "ok" if b[g]["rc"] == 0 else "FAILS"
            print(f"  check {g} --strict: exit {b[g]['rc']} ({st}, {b[g]['secs']} s)"
                  + ("" if b[g]["rc"] == 0 else "  " + " | ".join(b[g]["fail"][:3])), flush=True)

    results = []
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_case, c, pnp, src_db, root, args.timeout, bool(args.keep)): c for c in cases}
        for f in cf.as_completed(futs):
            r = f.result()
            results.append(r)
            msg = r["messages"][0] if r["messages"] else ""
            print(f"{r['id']:<10} {r['kind']:<7} {r['verdict']:<6} {(r['part'] or '-'):<12} "
                  f"{r['secs']:>5.1f}s  {r['what'][:70]}" + (f"  [{msg[:160]}]" if msg else ""), flush=True)
    order = {c["id"]: i for i, c in enumerate(CASES)}
    results.sort(key=lambda r: order[r["id"]])
    report["cases"] = results

    if sha(src_db) != src_hash:
        print("WARNING: the source database changed during the run!", file=sys.stderr)

    mistakes = [r for r in results if r["kind"] == "mistake"]
    legal = [r for r in results if r["kind"] == "legal"]
    caught = [r for r in mistakes if r["verdict"] == "CAUGHT"]
    failed = [r for r in legal if r["verdict"] == "FAILED"]
    errors = [r for r in results if r["verdict"] == "ERROR"]
    by_part = {p: sum(1 for r in caught if r["part"] == p)
               for p in ("editor", "validate", "check-static", "check-games")}
    by_game = {}
    for g in GAMES:
        ms = [r for r in mistakes if r["game"] == g]
        ls = [r for r in legal if r["game"] == g]
        if ms or ls:
            by_game[g] = {"mistakes": len(ms), "caught": sum(r["verdict"] == "CAUGHT" for r in ms),
                          "legal": len(ls), "legal_failed": sum(r["verdict"] == "FAILED" for r in ls)}
    pct = 100.0 * len(caught) / len(mistakes) if mistakes else 0.0
    summary = {"mistakes": len(mistakes), "caught": len(caught), "caught_pct": round(pct, 1),
               "legal": len(legal), "legal_failed": len(failed), "errors": len(errors),
               "by_part": by_part, "by_game": by_game,
               "missed": [r["id"] for r in mistakes if r["verdict"] == "MISSED"],
               "legal_failed_ids": [r["id"] for r in failed],
               "wall_secs": round(time.monotonic() - t0, 1)}
    report["summary"] = summary

    print()
    print(f"mistakes caught: {len(caught)}/{len(mistakes)} ({pct:.1f} %)")
    print(f"legal changes failed: {len(failed)}/{len(legal)}")
    print("caught by part (first part that caught it): " + ", ".join(f"{k} {v}" for k, v in by_part.items()))
    for g, d in by_game.items():
        print(f"  {g:<14} mistakes {d['caught']}/{d['mistakes']}  legal failed {d['legal_failed']}/{d['legal']}")
    if summary["missed"]:
        print("missed: " + ", ".join(summary["missed"]))
    if failed:
        print("legal failed: " + ", ".join(r["id"] for r in failed))
    if errors:
        print("runner errors: " + ", ".join(r["id"] for r in errors))
    print(f"wall time {summary['wall_secs']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"wrote {args.json}")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

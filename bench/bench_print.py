"""Print benchmark: `pnp print` speed and memory, beside a bare reportlab baseline.

Run:  python bench/bench_print.py [--runs 3] [--sizes 1000,3000,10000] [--db cards.db]

Every measurement runs in a fresh subprocess (so peak RSS is that job's alone);
each figure is the median of --runs runs.  Reported:

  * games: the full deck of every game in the database, printed one after the other
    (default options: A4, 3 mm bleed, duplex backs) — target < 5 s for the five;
  * synthetic N: a generated game of N one-copy cards (built with
    pnpforge.store.bundle.write), printed whole — target < 60 s for 10,000, with
    peak memory that does not grow with N;
  * baseline: a bare reportlab script that draws, on the same number of pages,
    the same number of filled shapes and text runs as our PDF holds (counted
    from its content streams), with the same embedded CJK font, in the same run.
    overhead = pnp print time / baseline time — target ≤ 2 (see the README table).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"]


# ---- child jobs (run in a subprocess) -----------------------------------------------------


def _peak_kb() -> int:
    """This process's peak RSS in KB.

    VmHWM, not ru_maxrss: Linux carries ru_maxrss across fork+exec, so a child
    would report its parent's size (which here holds the synthetic bundles).
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child_print(db_path: str, games: list[str], out_dir: str) -> dict:
    from pnpforge.errors import PnpError
    from pnpforge.render import PrintOptions, print_cards
    from pnpforge.render.fonts import ensure_fonts
    from pnpforge.store import repo
    from pnpforge.store.db import open_db

    db = open_db(db_path, readonly=True)
    for g in games:  # register the fonts before the clock starts, as the baseline does
        ensure_fonts(repo.get_game(db, g).language)
    # import the drawing and card-selection modules before the clock too, as the baseline imports reportlab's
    # canvas first (this machine runs Python with PYTHONDONTWRITEBYTECODE: every import
    # compiles its module again, which a user's installed copy does not)
    import jinja2.sandbox  # noqa: F401

    import pnpforge.outfile  # noqa: F401
    import pnpforge.query.select  # noqa: F401
    import pnpforge.render.code_cache  # noqa: F401
    import pnpforge.render.face  # noqa: F401
    import pnpforge.render.pdf  # noqa: F401

    rss0 = _peak_kb()
    t, cpu = time.perf_counter(), time.process_time()
    pages = cards = 0
    paths = []
    failed: dict[str, str] = {}
    done: list[str] = []
    for g in games:
        try:
            m = print_cards(db, g, PrintOptions(output=str(Path(out_dir) / f"{g}.pdf")))
        except PnpError as e:  # report it, keep measuring the others
            failed[g] = str(e)
            continue
        pages, cards = pages + m.pages, cards + m.cards
        paths.append(m.path)
        done.append(g)
    return {
        "seconds": time.perf_counter() - t,
        "cpu_seconds": time.process_time() - cpu,
        "peak_kb": _peak_kb(),
        "peak_before_kb": rss0,
        "pages": pages,
        "cards": cards,
        "paths": paths,
        "done": done,
        "failed": failed,
    }


def child_baseline(specs: list[dict], language: str, out_dir: str) -> dict:
    """Draw spec['pages'] pages holding spec['shapes'] rectangles and spec['texts'] strings."""
    from reportlab.pdfgen.canvas import Canvas

    from pnpforge.render.fonts import ensure_fonts

    fonts = ensure_fonts(language)
    t, cpu = time.perf_counter(), time.process_time()
    line = "執行官查封土地每回合抽一張牌聲明異議"
    for n, spec in enumerate(specs):
        c = Canvas(
            str(Path(out_dir) / f"baseline-{n}.pdf"),
            invariant=1,
            pageCompression=1,
            initialFontName=fonts.regular,
        )
        pages, shapes, texts = spec["pages"], spec["shapes"], spec["texts"]
        for p in range(pages):
            s_here = shapes // pages + (1 if p < shapes % pages else 0)
            t_here = texts // pages + (1 if p < texts % pages else 0)
            for i in range(s_here):
                c.setFillColorRGB((i % 7) / 7, 0.5, 0.5)
                c.rect(20 + (i % 30) * 18, 20 + (i // 30 % 40) * 19, 16, 17, stroke=0, fill=1)
            for i in range(t_here):
                c.setFont(fonts.bold if i % 3 == 0 else fonts.regular, 7)
                c.drawString(20 + (i % 3) * 180, 20 + (i // 3 % 100) * 8, line[: 6 + i % 12] + str(i))
            c.showPage()
        c.save()
    return {
        "seconds": time.perf_counter() - t,
        "cpu_seconds": time.process_time() - cpu,
        "peak_kb": _peak_kb(),
    }


def child_tracemalloc(db_path: str, games: list[str], out_dir: str) -> dict:
    """Python-heap peak of one print (tracemalloc slows things down: not timed)."""
    import tracemalloc

    from pnpforge.render import PrintOptions, print_cards
    from pnpforge.render.fonts import ensure_fonts
    from pnpforge.store import repo
    from pnpforge.store.db import open_db

    db = open_db(db_path, readonly=True)
    for g in games:  # the fonts are loaded once per process: not the deck's
        ensure_fonts(repo.get_game(db, g).language)
    tracemalloc.start()
    for g in games:
        print_cards(db, g, PrintOptions(output=str(Path(out_dir) / f"{g}.pdf")))
    _, peak = tracemalloc.get_traced_memory()
    return {"tracemalloc_peak_kb": peak // 1024}


# ---- parent ------------------------------------------------------------------------------------


def run_child(job: str, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", job, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def synthetic_db(path: Path, n: int) -> None:
    """A zh-Hant game of n one-copy cards of one poker-size type, via bundle.write."""
    from pnpforge.store import bundle
    from pnpforge.store.db import open_db, transaction

    factions = ["紅", "藍", "綠", "黑"]
    data = {
        "format": "pnpforge-game/1",
        "game": {
            "slug": "synth",
            "title": "合成牌組",
            "title_en": "Synthetic",
            "language": "zh-Hant",
            "players_min": 2,
            "players_max": 4,
        },
        "card_types": [
            {
                "slug": "unit",
                "name": "單位",
                "name_en": "Unit",
                "width_mm": 63,
                "height_mm": 88,
                "back": {"title": "合成", "colour": "#334455"},
                "fields": [
                    {"name": "cost", "type": "integer", "label": "費用", "min": 0, "max": 9},
                    {"name": "faction", "type": "enum", "label": "陣營", "allowed": factions},
                ],
            }
        ],
        "cards": [
            {
                "id": f"U{i:05d}",
                "type": "unit",
                "name": f"合成單位{i}號",
                "name_en": f"Unit {i}",
                "copies": 1,
                "fields": {"cost": i % 10, "faction": factions[i % 4]},
                "text": f"進場時抽{i % 3 + 1}張牌；本回合執行力+{i % 5}。",
                "provenance": "provisional",
            }
            for i in range(n)
        ],
    }
    db = open_db(path, create=True)
    with transaction(db):
        bundle.write(db, bundle.parse(data), replace=False)


_OPS = re.compile(rb"(?<![A-Za-z])(re|f\*?|B\*?|b\*?|S|s|Tj|TJ)(?![A-Za-z*])")
_STRINGS = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>", re.S)
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s+Do(?![A-Za-z])")


def count_ops(pdf_path: str, as_printed: bool = True) -> dict:
    """Pages, painted paths (fill/stroke operators) and text runs (Tj/TJ).

    As printed (the default), a Form XObject's operators count once for every time a page
    (or a form) places it, so the baseline draws every card the print shows, whether our
    PDF draws it once or per copy; as stored, they count once, as the file holds them."""
    import pypdf

    reader = pypdf.PdfReader(pdf_path)
    counted: dict[int, tuple[int, int]] = {}  # form object number -> (shapes, texts) per use

    def ops_of(data: bytes, resources: Any) -> tuple[int, int]:
        data = _STRINGS.sub(b" ", data)  # operators only, not text that looks like one
        shapes = texts = 0
        for m in _OPS.finditer(data):
            op = m.group(1)
            if op in (b"Tj", b"TJ"):
                texts += 1
            elif op != b"re":  # re only builds the path; the fill/stroke paints it
                shapes += 1
        xobjects = (resources.get_object().get("/XObject") or {}) if resources is not None else {}
        for name in _DO.findall(data):
            ref = xobjects.get("/" + name.decode("latin-1"))
            if ref is None:
                continue
            xo = ref.get_object()
            if xo.get("/Subtype") != "/Form":
                continue
            key = ref.idnum if hasattr(ref, "idnum") else id(xo)
            if key not in counted:
                counted[key] = ops_of(xo.get_data(), xo.get("/Resources") or resources)
            elif not as_printed:
                continue
            shapes, texts = shapes + counted[key][0], texts + counted[key][1]
        return shapes, texts

    shapes = texts = 0
    for page in reader.pages:
        contents = page.get("/Contents")
        if contents is None:
            continue
        c = contents.get_object()
        data = b"\n".join(st.get_object().get_data() for st in (c if isinstance(c, list) else [c]))
        s_, t_ = ops_of(data, page.get("/Resources"))
        shapes, texts = shapes + s_, texts + t_
    return {"pages": len(reader.pages), "shapes": shapes, "texts": texts}


_LAST: dict[str, list[dict]] = {}  # the runs of the last median_of per job (for CPU times)


def cpus_of(job: str) -> list[float]:
    """CPU seconds of the runs median_of last made of `job` (on a shared machine wall time
    includes waiting for a core; CPU time does not)."""
    return [r["cpu_seconds"] for r in _LAST.get(job, [])]


def median_of(job: str, runs: int, *args: str) -> tuple[dict, list[float]]:
    results = [run_child(job, *args) for _ in range(runs)]
    _LAST[job] = results
    times = [r["seconds"] for r in results]
    best = sorted(results, key=lambda r: r["seconds"])[len(results) // 2]
    return best, times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="1000,3000,10000")
    ap.add_argument("--db", default=str(ROOT / "cards.db"))
    ap.add_argument("--skip-games", action="store_true")
    ap.add_argument("--child", nargs="+")
    args = ap.parse_args()
    if args.child:
        job, *rest = args.child
        if job == "print":
            res = child_print(rest[0], rest[2:], rest[1])
        elif job == "baseline":
            res = child_baseline(json.loads(rest[0]), rest[1], rest[2])
        else:
            res = child_tracemalloc(rest[0], rest[2:], rest[1])
        print(json.dumps(res))
        return

    report: dict = {"runs": args.runs}
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        tmpd = Path(tmp)
        # warm the font cache so no run pays for converting fonts
        run_child("baseline", json.dumps([{"pages": 1, "shapes": 1, "texts": 1}]), "zh-Hant", tmp)
        run_child("baseline", json.dumps([{"pages": 1, "shapes": 1, "texts": 1}]), "zh-Hans", tmp)
        if not args.skip_games:
            from pnpforge.store import repo
            from pnpforge.store.db import open_db

            present = {g.slug for g in repo.list_games(open_db(args.db, readonly=True))}
            games = [g for g in GAMES if g in present]
            res, times = median_of("print", args.runs, args.db, tmp, *games)
            specs = [count_ops(p) for p in res["paths"]]
            stored = [count_ops(p, as_printed=False) for p in res["paths"]]
            langs = {g.slug: g.language for g in repo.list_games(open_db(args.db, readonly=True))}
            printed = res["done"]  # the games whose PDFs `specs` counted, in that order

            def baseline_runs(counts: list[dict]) -> tuple[list[float], list[float]]:
                times_, cpus_ = [], []
                for _ in range(args.runs):
                    t = c = 0.0
                    for lang in dict.fromkeys(langs[g] for g in printed):
                        sub = [s for g, s in zip(printed, counts, strict=True) if langs[g] == lang]
                        one = run_child("baseline", json.dumps(sub), lang, tmp)
                        t, c = t + one["seconds"], c + one["cpu_seconds"]
                    times_.append(t)
                    cpus_.append(c)
                return times_, cpus_

            base_times, base_cpus = baseline_runs(specs)
            stored_times, stored_cpus = baseline_runs(stored)
            base = statistics.median(base_times)
            cpu_med = statistics.median(cpus_of("print"))
            games = res["done"]
            report["games"] = {
                "games": games,
                "failed": res["failed"],
                "seconds": statistics.median(times),
                "all_runs": times,
                "pages": res["pages"],
                "cards": res["cards"],
                "peak_rss_mb": res["peak_kb"] / 1024,
                "baseline_seconds": base,
                "overhead": statistics.median(times) / base,
                "cpu_seconds": cpu_med,
                "baseline_cpu_seconds": statistics.median(base_cpus),
                "cpu_overhead": cpu_med / statistics.median(base_cpus),
                "ops": {"shapes": sum(s["shapes"] for s in specs), "texts": sum(s["texts"] for s in specs)},
                # the baseline drawing each form's operators once, as our PDF stores them
                "stored_ops": {
                    "shapes": sum(s["shapes"] for s in stored),
                    "texts": sum(s["texts"] for s in stored),
                },
                "stored_baseline_seconds": statistics.median(stored_times),
                "stored_baseline_cpu_seconds": statistics.median(stored_cpus),
                "stored_cpu_overhead": cpu_med / statistics.median(stored_cpus),
            }
            print(json.dumps({"games": report["games"]}, ensure_ascii=False), flush=True)
        report["synthetic"] = []
        for n in [int(s) for s in args.sizes.split(",") if s]:
            db_path = tmpd / f"synth-{n}.db"
            synthetic_db(db_path, n)
            res, times = median_of("print", args.runs, str(db_path), tmp, "synth")
            spec = count_ops(res["paths"][0])
            base_res, base_times = median_of("baseline", args.runs, json.dumps([spec]), "zh-Hant", tmp)
            cpu_med, base_cpu = statistics.median(cpus_of("print")), statistics.median(cpus_of("baseline"))
            tm = run_child("tracemalloc", str(db_path), tmp, "synth")
            row = {
                "cards": n,
                "pages": res["pages"],
                "seconds": statistics.median(times),
                "all_runs": times,
                "peak_rss_mb": res["peak_kb"] / 1024,
                "rss_before_print_mb": res["peak_before_kb"] / 1024,
                "tracemalloc_peak_mb": tm["tracemalloc_peak_kb"] / 1024,
                "pdf_mb": Path(res["paths"][0]).stat().st_size / 2**20,
                "baseline_seconds": statistics.median(base_times),
                "baseline_peak_rss_mb": base_res["peak_kb"] / 1024,
                "overhead": statistics.median(times) / statistics.median(base_times),
                "ops": spec,
                "cpu_seconds": cpu_med,
                "baseline_cpu_seconds": base_cpu,
                "cpu_overhead": cpu_med / base_cpu,
            }
            report["synthetic"].append(row)
            print(json.dumps({"synthetic": row}), flush=True)
    print()
    print(summary(report))


def summary(r: dict) -> str:
    lines = [f"pnp print benchmark (medians of {r['runs']} runs, each in a fresh process)"]
    if "games" in r:
        g = r["games"]
        for name, err in g.get("failed", {}).items():
            lines.append(f"  {name}: FAILED, not counted: {err}")
        lines.append(
            f"  {len(g['games'])} games, {g['cards']} cards, {g['pages']} pages: {g['seconds']:.2f} s "
            f"(target < 5 s); baseline {g['baseline_seconds']:.2f} s; overhead {g['overhead']:.2f}× "
            f"(target ≤ 2); peak RSS {g['peak_rss_mb']:.0f} MB; CPU {g['cpu_seconds']:.2f} s vs "
            f"{g['baseline_cpu_seconds']:.2f} s = {g['cpu_overhead']:.2f}× (baseline drawing every printed "
            f"copy); vs a baseline drawing the operators as stored (forms once) "
            f"{g['stored_baseline_cpu_seconds']:.2f} s = {g['stored_cpu_overhead']:.2f}×"
        )
    for s in r["synthetic"]:
        lines.append(
            f"  synthetic {s['cards']:>6} cards, {s['pages']:>5} pages: {s['seconds']:6.2f} s; "
            f"baseline {s['baseline_seconds']:.2f} s; overhead {s['overhead']:.2f}×; "
            f"peak RSS {s['peak_rss_mb']:.0f} MB (before printing: {s['rss_before_print_mb']:.0f} MB); "
            f"Python heap peak {s['tracemalloc_peak_mb']:.1f} MB; PDF {s['pdf_mb']:.1f} MB; "
            f"CPU {s['cpu_seconds']:.2f} s vs {s['baseline_cpu_seconds']:.2f} s = {s['cpu_overhead']:.2f}×"
        )
    lines.extend(heap_growth(r["synthetic"]))
    return "\n".join(lines)


def heap_growth(rows: list[dict]) -> list[str]:
    """Heap peak growth per card between consecutive sizes (flat in deck size leaves the manifest)."""
    out = []
    for a, b in zip(rows, rows[1:], strict=False):
        grown = b["tracemalloc_peak_mb"] - a["tracemalloc_peak_mb"]
        per_card = grown * 1024 / (b["cards"] - a["cards"])
        sizes = f"{a['cards']} → {b['cards']} cards"
        out.append(f"  Python heap peak {sizes}: +{grown:.1f} MB, {per_card:.2f} KB a card")
    return out


if __name__ == "__main__":
    main()

"""Query-path benchmark: CLI start-up and search speed, as medians with a baseline.

Run:  python bench/bench_query.py [--runs N]

Reports medians of
  * `pnp --help` and `pnp cards search` on the shipped cards.db (subprocess), beside
    `python -c pass` measured in the same run (interpreter start-up, the floor);
  * an in-process search over a synthetic game of 10,000 cards, beside a bare
    SQLite scan of the same rows (the floor for any query).
Targets: the two commands well under 0.3 s; the 10,000-card search under 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PNP = [sys.executable, "-m", "pnpforge"]


def median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def run_cmd(args: list[str]) -> None:
    subprocess.run(
        args, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "PNP_DB": str(ROOT / "cards.db")}
    )


def synthetic_db(path: Path, n: int = 10_000) -> None:
    """A game of n cards over two types, built through the public bundle import."""
    from pnpforge.edit import import_game
    from pnpforge.store.db import open_db

    traits = ["大戶", "矚目", "弱勢", "假弱勢", "聲明異議"]
    cats = ["稅", "健", "罰", "費"]
    cards = [
        {
            "id": f"C{i:05d}",
            "type": "unit" if i % 3 else "spell",
            "name": f"卡片{i}號",
            "name_en": f"Card {i}",
            "copies": 1 + i % 3,
            "fields": (
                {
                    "difficulty": i % 20,
                    "category": cats[i % 4],
                    "traits": [traits[i % 5], traits[(i * 7) % 5]] if i % 2 else [],
                }
                if i % 3
                else {"power": i % 9}
            ),
            "text": f"效果{i % 97}：抽{i % 4}張牌。",
            "provenance": "provisional",
        }
        for i in range(n)
    ]
    for c in cards:
        if "traits" in c["fields"]:
            c["fields"]["traits"] = sorted(set(c["fields"]["traits"]))
    bundle = {
        "format": "pnpforge-game/1",
        "game": {
            "slug": "synth",
            "title": "合成",
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
                "fields": [
                    {"name": "difficulty", "type": "integer", "label": "難度"},
                    {"name": "category", "type": "enum", "allowed": cats},
                    {"name": "traits", "type": "list", "allowed": traits},
                ],
            },
            {
                "slug": "spell",
                "name": "法術",
                "name_en": "Spell",
                "width_mm": 63,
                "height_mm": 88,
                "fields": [{"name": "power", "type": "integer"}],
            },
        ],
        "cards": cards,
    }
    src = path.with_suffix(".json")
    src.write_text(json.dumps(bundle, ensure_ascii=False), encoding="utf-8")
    import_game(open_db(path, create=True), src)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    rows = []
    base = median_time(lambda: run_cmd([sys.executable, "-c", "pass"]), args.runs)
    rows.append(("python -c pass (baseline)", base, 1.0))
    for label, cmd in (
        ("pnp --help", PNP + ["--help"]),
        ("pnp cards search enforcer 'difficulty>=8'", PNP + ["cards", "search", "enforcer", "difficulty>=8"]),
    ):
        t = median_time(lambda cmd=cmd: run_cmd(cmd), args.runs)
        rows.append((label, t, t / base))

    from pnpforge.api import Project

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "synth.db"
        synthetic_db(path)
        project = Project.open(path)
        conn = sqlite3.connect(path)
        scan = median_time(
            lambda: conn.execute("SELECT id, name, fields, text FROM cards WHERE game = 'synth'").fetchall(),
            args.runs,
        )
        rows.append(("bare SQLite scan of 10,000 rows (baseline)", scan, 1.0))
        for q in ("type:unit difficulty>=8 -traits:大戶", "卡片99", "category:稅 or power>5"):
            n = len(project.search(q, "synth"))
            t = median_time(lambda q=q: project.search(q, "synth"), args.runs)
            rows.append((f"search 10,000 cards: {q!r} ({n} hits)", t, t / scan))
    print(f"{'what':<62} {'median':>10} {'ratio':>7}")
    for label, t, ratio in rows:
        print(f"{label:<62} {t * 1000:>8.1f}ms {ratio:>6.2f}x")


if __name__ == "__main__":
    main()

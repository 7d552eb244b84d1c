"""`pnp balance`: variants on in-memory copies, the same report whatever the workers, intervals,
--until-ci, and the three outputs (table, JSON, HTML page)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dbcopies import SHIPPED_DB
from pnpforge.balance.executors import ExecutorChoice
from pnpforge.balance.experiment import BalanceOptions, run_balance
from pnpforge.balance.variants import (
    BASELINE,
    Variant,
    apply_variant,
    in_memory,
    parse_vary,
    snapshot,
    variant_grid,
)
from pnpforge.errors import PnpError
from pnpforge.store import repo
from pnpforge.store.db import open_db


def _digest(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def _opts(**kw: Any) -> BalanceOptions:
    base: dict[str, Any] = {"games": 12, "seed": 5, "players": 2, "executor": ExecutorChoice("local", 1)}
    base.update(kw)
    return BalanceOptions(**base)


def test_variants_edit_an_in_memory_copy_and_never_the_file(shipped_db: Path):
    before = _digest(shipped_db)
    data = snapshot(open_db(shipped_db, readonly=True))
    cards = {c.id for c in repo.list_cards(open_db(shipped_db, readonly=True), "hackers")}
    varies = [parse_vary("A-01.copies=1,3", cards, {"attack", "defence", "server"})]
    grid = variant_grid(varies, "edition")
    assert [v.name for v in grid] == ["baseline", "A-01.copies=1", "A-01.copies=3", "release edition"]
    copy = in_memory(data)
    apply_variant(copy, "hackers", varies, grid[2])
    assert repo.get_card(copy, "hackers", "A-01").copies == 3
    assert repo.get_card(open_db(shipped_db, readonly=True), "hackers", "A-01").copies != 3
    run_balance(shipped_db, "hackers", _opts(games=4, vary=["A-01.copies=1,3"], compare="edition"))
    assert _digest(shipped_db) == before


def test_a_whole_type_scales_and_rounds(shipped_db: Path):
    db = open_db(shipped_db, readonly=True)
    cards = {c.id for c in repo.list_cards(db, "enforcer")}
    types = {t.slug for t in repo.card_types(db, "enforcer")}
    vary = parse_vary("obligor.score=*2", cards, types)
    assert vary.whole_type
    copy = in_memory(snapshot(db))
    apply_variant(copy, "enforcer", [vary], Variant("x", (("obligor.score", "*2"),)))
    for card in repo.list_cards(db, "enforcer", "obligor"):
        assert repo.get_card(copy, "enforcer", card.id).fields["score"] == card.fields["score"] * 2


@pytest.mark.parametrize(
    ("vary", "message"),
    [
        ("A-01.copies", "expected ID.FIELD=V1,V2"),
        ("NOPE.copies=1", "'NOPE' is neither a card id nor a card type"),
        ("A-01.copies=1,1", "repeated"),
        ("A-01.strength=abc", "A-01"),
        ("attack.copies=*x", "is not a number"),
    ],
)
def test_bad_variants_are_one_clear_line(shipped_db: Path, vary: str, message: str):
    with pytest.raises(PnpError, match=message):
        run_balance(shipped_db, "hackers", _opts(games=2, vary=[vary]))


def test_same_seed_same_report_whatever_the_workers(shipped_db: Path):
    opts = {"games": 10, "vary": ["A-01.copies=1"], "compare": "edition"}
    one = run_balance(shipped_db, "hackers", _opts(**opts))["report"]
    two = run_balance(shipped_db, "hackers", _opts(executor=ExecutorChoice("local", 2), **opts))["report"]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    other_seed = run_balance(shipped_db, "hackers", _opts(seed=99, **opts))["report"]
    assert json.dumps(other_seed, sort_keys=True) != json.dumps(one, sort_keys=True)


def test_report_figures_carry_intervals_and_comparisons(shipped_db: Path):
    report = run_balance(shipped_db, "hackers", _opts(games=16, vary=["A-01.copies=0"]))["report"]
    base, variant = report["variants"]
    assert base["games"] == variant["games"] == 16
    for row in base["rates"]["seat"].values():
        assert 0 <= row["low"] <= row["estimate"] <= row["high"] <= 1
    assert sum(float(v) for v in base["fair_share"].values()) == pytest.approx(1.0)
    diff = variant["versus_baseline"]["seat"]["0"]
    assert diff["low"] <= diff["estimate"] <= diff["high"]
    assert diff["flagged"] == (diff["low"] > 0 or diff["high"] < 0)
    assert report["correction"]["method"] == "Bonferroni"
    assert report["correction"]["variant_level"] > 0.95
    assert "A-01" not in variant["cards"] or variant["cards"]["A-01"]["uses"] == 0  # no copy left to use


def test_cooperative_games_report_the_team_and_each_mission(shipped_db: Path):
    report = run_balance(shipped_db, "infiltraitors", _opts(games=6, players=3))["report"]
    rates = report["variants"][0]["rates"]
    assert report["cooperative"] and set(rates["team"]) == {"team"}
    assert set(rates["mission"]) == {"T1", "T2", "T3", "M01", "M02", "M03"}


def test_until_ci_adds_rounds_within_the_budget(shipped_db: Path):
    report = run_balance(shipped_db, "hackers", _opts(games=8, until_ci=0.05, budget=32))["report"]
    assert [r["games"] for r in report["rounds"]] == [8, 16, 32]
    assert report["games_per_variant"] == 32 and not report["reached"]
    widths = [r["widest_headline"] for r in report["rounds"]]
    assert widths[-1] < widths[0]


def test_the_command_prints_a_table_json_and_a_self_contained_page(run, tmp_path: Path):
    page = tmp_path / "report.html"
    args = ["--db", SHIPPED_DB, "balance", "hackers", "-n", "6", "-p", "2", "-j", "1"]
    result = run(*args, "--vary", "A-01.copies=1,2", "-o", page)
    assert result.exit_code == 0, result.output
    assert "win seat 0" in result.stdout and "A-01.copies=2" in result.stdout
    html = page.read_text(encoding="utf-8")
    assert html.count("<svg") == 1 + 1 + 3  # win rate, seat advantage, one card chart per variant
    assert "<script" not in html and "src=" not in html and "<link" not in html  # nothing fetched
    assert "http" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', ""
    )
    as_json = run(*args, "--json")
    assert json.loads(as_json.stdout)["variants"][0]["name"] == "baseline"
    bad = run(*args, "--vary", "A-01.copies=x")
    assert bad.exit_code != 0 and "Traceback" not in bad.output and len(bad.stderr.strip().splitlines()) == 1


def test_baseline_is_first_and_unedited():
    assert BASELINE.is_baseline and variant_grid([], None) == [BASELINE]


@pytest.mark.skipif(
    shutil.which("chromium") is None, reason="needs a headless Chromium (apt install chromium)"
)
def test_the_page_opens_in_a_headless_browser_without_console_messages(tmp_path: Path):
    from pnpforge.balance.html import page

    report = run_balance(SHIPPED_DB, "accusation", _opts(games=6, vary=["follower.volume=*1.5"]))["report"]
    path = tmp_path / "report.html"
    path.write_text(page(report), encoding="utf-8")
    profile = tmp_path / "profile"
    result = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=1", "--dump-dom", path.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("<svg") == 4 and "Balance of accusation" in result.stdout
    assert "CONSOLE" not in result.stderr  # Chromium logs every console message (errors included)


def test_tasks_are_sized_to_the_workers():
    from pnpforge.balance.plan import batch_size

    assert batch_size(2000, 1, 2) == 250  # a greedy sweep: 8 tasks of 250 games, not 80 of 25
    assert batch_size(60, 1, 2) == 8  # a few slow search games: every worker stays busy
    assert batch_size(10, 3, 2) == 2  # variants share the tasks
    assert batch_size(10**6, 1, 1) == 500  # a task's results stay small
    assert batch_size(0, 1, 4) == 1

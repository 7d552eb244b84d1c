"""`pnp games`, `pnp cards …`, `pnp validate`, `pnp db …` through the CLI runner."""

from __future__ import annotations

import json
import os
import stat

import pytest

from pnpforge.store import repo
from pnpforge.store.db import open_db


def test_games_json(run, mini_db):
    r = run("--db", mini_db, "games", "--json")
    assert r.exit_code == 0
    (g,) = json.loads(r.stdout)
    assert (g["slug"], g["title"], g["title_en"], g["language"]) == ("mini", "小測試", "Mini Test", "zh-Hant")
    assert (g["players_min"], g["players_max"], g["cards"]) == (2, 4, 6)
    assert {t["slug"]: t["cards"] for t in g["card_types"]} == {"hero": 3, "spell": 3}


def test_cards_and_copies_are_named_apart(run, mini_db):
    """`games` and `validate` say cards (distinct) and copies, as `cards list` does: the mini game
    has 3 cards and 6 copies, and no output calls the 6 'cards'."""
    listed = run("--db", mini_db, "cards", "list", "mini").stdout
    assert "3 cards, 6 copies" in listed
    games = run("--db", mini_db, "games").stdout
    assert "3 cards, 6 copies" in games and "copies  role" in games
    r = run("--db", mini_db, "validate")
    header, _, row = r.stdout.splitlines()[:3]
    assert header.split()[:3] == ["game", "cards", "copies"] and row.split()[:3] == ["mini", "3", "6"]
    assert json.loads(run("--db", mini_db, "games", "--json").stdout)[0]["distinct_cards"] == 3


def test_list_json_and_csv(run, mini_db):
    r = run("--db", mini_db, "cards", "list", "mini", "--type", "hero", "--json")
    cards = json.loads(r.stdout)
    assert [c["id"] for c in cards] == ["H-01", "H-02"]
    c = cards[1]
    assert {"id", "type", "name", "name_en", "copies", "fields", "text", "provenance"} <= set(c)
    assert c["provisional_fields"] == ["copies"]
    r = run("--db", mini_db, "cards", "list", "mini", "--csv")
    assert r.stdout.splitlines()[0].startswith("id,type,name")
    assert len(r.stdout.splitlines()) == 4


def test_show_marks_provisional_values(run, mini_db):
    r = run("--db", mini_db, "cards", "show", "mini", "H-02")
    assert r.exit_code == 0
    assert "copies: 1  (provisional)" in r.stdout
    assert "power (力量): 3" in r.stdout and "power (力量): 3  (provisional)" not in r.stdout


def test_search_with_and_without_game(run, mini_db):
    r = run("--db", mini_db, "cards", "search", "mini", "type:hero -traits:大戶", "--json")
    assert [c["id"] for c in json.loads(r.stdout)] == ["H-02"]
    r = run("--db", mini_db, "cards", "search", "巫女", "--json")
    assert [(c["game"], c["id"]) for c in json.loads(r.stdout)] == [("mini", "H-02")]


def test_search_error_points_at_position(run, mini_db):
    r = run("--db", mini_db, "cards", "search", "mini", "power>=")
    assert r.exit_code != 0
    assert "^" in r.stderr
    assert "Traceback" not in r.stderr


def test_add_set_rm_and_history(run, mini_db):
    r = run("--db", mini_db, "cards", "add", "mini", "spell", "S-02", "name=火球", "cost=3", "copies=2")
    assert r.exit_code == 0, r.stderr
    assert "deck check" in r.stderr  # spells now 5 against 3 declared: shown, not blocking
    r = run("--db", mini_db, "cards", "set", "mini", "S-02", "cost=4", "text=造成3點傷害。")
    assert r.exit_code == 0, r.stderr
    db = open_db(mini_db)
    card = repo.get_card(db, "mini", "S-02")
    assert (card.fields, card.copies, card.text) == ({"cost": 4}, 2, "造成3點傷害。")
    r = run("--db", mini_db, "cards", "rm", "mini", "S-02", input="n\n")
    assert r.exit_code == 1 and repo.find_card(db, "mini", "S-02") is not None
    r = run("--db", mini_db, "cards", "rm", "mini", "S-02", "--yes")
    assert r.exit_code == 0 and repo.find_card(db, "mini", "S-02") is None
    r = run("--db", mini_db, "cards", "history", "mini", "S-02", "--json")
    assert [h["op"] for h in json.loads(r.stdout)] == ["insert", "update", "delete"]
    r = run("--db", mini_db, "cards", "history", "mini", "S-02")
    assert "fields.cost: 3 → 4" in r.stdout


@pytest.mark.parametrize(
    "args,fragment",
    [
        (("cards", "list", "nogame"), "unknown game 'nogame'"),
        (("cards", "show", "mini", "X-99"), "no card 'X-99'"),
        (("cards", "set", "mini", "H-01", "power=lots"), "expected an integer"),
        (("cards", "set", "mini", "H-01", "power=99"), "above the maximum"),
        (("cards", "add", "mini", "nosuch", "Q-1", "name=x"), "no card type 'nosuch'"),
        (("cards", "add", "mini", "spell", "H-01", "name=x"), "already has a card 'H-01'"),
        (("cards", "list", "mini", "--type", "villain"), "allowed: hero, spell"),
    ],
)
def test_bad_input_message_exit_and_nothing_changed(run, mini_db, args, fragment):
    before = mini_db.read_bytes()
    r = run("--db", mini_db, *args)
    assert r.exit_code != 0
    assert fragment in r.stderr
    assert "Traceback" not in r.stderr
    assert mini_db.read_bytes() == before


def test_validate_exit_codes_and_json(run, mini_db):
    r = run("--db", mini_db, "validate", "--json")
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["errors"] == [] and len(out["warnings"]) == 2
    assert set(out["warnings"][0]) == {"game", "card", "field", "message", "scope"}
    run("--db", mini_db, "cards", "set", "mini", "S-01", "copies=4")  # 法術卡×3 is a designed target
    r = run("--db", mini_db, "validate", "--json")
    assert r.exit_code == 0
    assert any(
        "法術卡×3: designed target 3, the deck has" in w["message"] for w in json.loads(r.stdout)["warnings"]
    )
    run("--db", mini_db, "cards", "set", "mini", "H-01", "copies=4")  # 英雄卡×3 is the rulebook's
    r = run("--db", mini_db, "validate")
    assert r.exit_code == 1
    assert "英雄卡×3: the rulebook declares 3, the deck has" in r.stdout


def test_missing_db_and_env_var(run, tmp_path, mini_db, monkeypatch):
    r = run("--db", tmp_path / "none.db", "games")
    assert r.exit_code == 2 and "pnp db init" in r.stderr
    monkeypatch.setenv("PNP_DB", str(mini_db))
    r = run("games", "--json")
    assert json.loads(r.stdout)[0]["slug"] == "mini"


def test_db_init_and_dump(run, tmp_path, mini_db):
    path = tmp_path / "fresh.db"
    assert run("--db", path, "db", "init").exit_code == 0
    assert run("--db", path, "db", "init").exit_code != 0  # never overwrite
    r1 = run("--db", mini_db, "db", "dump")
    r2 = run("--db", mini_db, "db", "dump")
    assert r1.stdout == r2.stdout and "火龍騎士" in r1.stdout


def test_read_only_database(run, mini_db):
    os.chmod(mini_db, stat.S_IRUSR)
    try:
        if os.access(mini_db, os.W_OK):
            pytest.skip("running as a user who can write read-only files (root)")
        r = run("--db", mini_db, "cards", "set", "mini", "H-01", "power=9")
        assert r.exit_code != 0 and "read-only" in r.stderr
    finally:
        os.chmod(mini_db, stat.S_IRUSR | stat.S_IWUSR)


def test_locked_database_changes_nothing(run, mini_db, monkeypatch):
    import sqlite3

    monkeypatch.setenv("PNP_BUSY_TIMEOUT", "0.1")
    blocker = sqlite3.connect(mini_db, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        r = run("--db", mini_db, "cards", "set", "mini", "H-01", "power=9")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert r.exit_code != 0 and "locked" in r.stderr
    assert repo.get_card(open_db(mini_db), "mini", "H-01").fields["power"] == 8


def test_game_bundle_round_trip(run, tmp_path, mini_db):
    out = tmp_path / "mini.json"
    assert run("--db", mini_db, "game", "export", "mini", "-o", out).exit_code == 0
    r = run("--db", mini_db, "game", "import", out)
    assert r.exit_code != 0 and "--replace" in r.stderr
    assert run("--db", mini_db, "game", "import", out, "--replace").exit_code == 0
    again = tmp_path / "again.json"
    run("--db", mini_db, "game", "export", "mini", "-o", again)
    assert again.read_bytes() == out.read_bytes()


def test_write_through_a_read_only_connection_is_a_message(mini_db):
    """Works as root too (where file modes don't stop writes): SQLite's own read-only mode."""
    from pnpforge import edit
    from pnpforge.errors import PnpError

    db = open_db(mini_db, readonly=True)
    with pytest.raises(PnpError, match="read-only; nothing was changed"):
        edit.set_card(db, "mini", "H-01", {"power": "9"})
    assert repo.get_card(open_db(mini_db), "mini", "H-01").fields["power"] == 8


def test_search_may_start_with_a_negation(run, mini_db):
    for args in (("mini", "-traits:大戶"), ("-traits:大戶",), ("mini", "-traits:大戶", "type:hero")):
        r = run("--db", mini_db, "cards", "search", *args, "--json")
        assert r.exit_code == 0, r.stderr
        assert "H-01" not in {c["id"] for c in json.loads(r.stdout)}
        assert "H-02" in {c["id"] for c in json.loads(r.stdout)}


def test_correction_keeps_provenance_and_is_recorded(run, mini_db):
    r = run("--db", mini_db, "cards", "set", "mini", "H-01", "power=9", "--correction", "OCR read 8 for 9")
    assert r.exit_code == 0, r.stderr
    db = open_db(mini_db, readonly=True)
    card = repo.get_card(db, "mini", "H-01")
    assert card.fields["power"] == 9 and "power" not in card.provisional_fields
    last = db.conn.execute("SELECT correction FROM history WHERE card = 'H-01' ORDER BY seq DESC").fetchone()
    assert last[0] == "OCR read 8 for 9"
    run("--db", mini_db, "cards", "set", "mini", "H-01", "power=10")
    assert "power" in repo.get_card(open_db(mini_db, readonly=True), "mini", "H-01").provisional_fields


def test_reads_never_change_the_database_file(run, mini_db, tmp_path):
    before = mini_db.read_bytes()
    for args in (
        ("games",),
        ("cards", "list", "mini"),
        ("cards", "show", "mini", "H-01"),
        ("validate",),
        ("cards", "search", "火"),
        ("cards", "history", "mini"),
        ("export", "mini"),
        ("db", "dump"),
        ("import", "mini", tmp_path / "x.csv", "--dry-run"),
    ):
        (tmp_path / "x.csv").write_text("id,copies\nH-01,3\n", encoding="utf-8")
        assert run("--db", mini_db, *args).exit_code == 0, args
    assert mini_db.read_bytes() == before


def test_cli_conventions_json_errors_help_and_a_closed_pipe(run, shipped_db):
    """--json errors are JSON on stdout; -h is help; an unknown game in search is the usual line."""
    import json as _json

    r = run("--db", shipped_db, "cards", "show", "enforcer", "NOPE", "--json")
    assert r.exit_code == 2 and _json.loads(r.stdout) == {"error": "game 'enforcer' has no card 'NOPE'"}
    r = run("--db", shipped_db, "cards", "search", "nosuch", "type:x")
    assert r.exit_code == 2 and r.stderr.startswith("Error: unknown game 'nosuch'")
    assert "╭" not in r.stderr
    assert run("cards", "show", "-h").exit_code == 0


def test_a_closed_stdout_ends_silently(shipped_db):
    """`pnp db dump | head -1` (more than a pipe holds): no "Broken pipe" once the reader has gone."""
    import subprocess
    import sys

    proc = subprocess.run(
        f"{sys.executable} -m pnpforge --db {shipped_db} db dump | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout.count("\n") == 1
    assert "Broken pipe" not in proc.stderr and "Error" not in proc.stderr

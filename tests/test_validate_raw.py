"""Rows raw SQL broke: `pnp validate` names each by id and field; the printer never meets one."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hostile_run import _raw_break  # noqa: E402
from pnpforge.errors import PnpError  # noqa: E402
from pnpforge.store import repo  # noqa: E402
from pnpforge.store.db import open_db  # noqa: E402


@pytest.mark.parametrize(
    "what, card, field, unreadable",
    [
        ("copies_text", "H-01", "copies", True),
        ("copies_huge", "H-01", "copies", True),
        ("id_traversal", "../../../x", "id", True),
        ("fields_array", "H-01", "fields", True),
        ("name_nul", "H-01", "name", False),
        ("fields_deep", "H-01", "power", False),
    ],
)
def test_validate_reports_a_broken_row_by_id(run, mini_db, what, card, field, unreadable):
    open_db(mini_db).conn.close()
    _raw_break(mini_db, what)
    r = run("--db", mini_db, "validate", "--json")
    assert r.exit_code == 1
    errors = json.loads(r.stdout)["errors"]
    assert any(e["card"] == card and e["field"] == field for e in errors), errors
    if unreadable:  # print, check and images refuse to read it, naming the card
        with pytest.raises(PnpError, match="pnp validate"):
            repo.list_cards(open_db(mini_db, readonly=True), "mini")


def test_a_broken_row_can_be_fixed_with_cards_set(run, mini_db):
    open_db(mini_db).conn.close()
    _raw_break(mini_db, "copies_text")
    r = run("--db", mini_db, "cards", "set", "mini", "H-01", "copies=2")
    assert r.exit_code == 0, r.stderr
    assert repo.get_card(open_db(mini_db, readonly=True), "mini", "H-01").copies == 2


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE cards SET copies = 'abc' WHERE id = 'H-01'",
        "UPDATE cards SET copies = 1000 WHERE id = 'H-01'",
        "UPDATE cards SET name = name || ' ' WHERE id = 'H-01'",
        "UPDATE cards SET name = char(8203) || name WHERE id = 'H-01'",
        "UPDATE cards SET fields = '{\"power\": {\"a\": 1}}' WHERE id = 'H-01'",
        "UPDATE cards SET provisional_fields = '[1]' WHERE id = 'H-01'",
        "UPDATE cards SET text = x'00' WHERE id = 'H-01'",
        "UPDATE cards SET id = 'a..b' WHERE id = 'H-02'",
        "UPDATE field_defs SET max = 'ten' WHERE name = 'power'",
    ],
)
def test_schema_guards_stop_raw_sql(mini_db, sql):
    db = open_db(mini_db)
    with pytest.raises(sqlite3.IntegrityError):
        db.conn.execute(sql)


def _break_a_value(db: Path) -> None:
    """'abc' in the integer field 'power' of H-01: a row shape pnpforge reads, a value it never writes."""
    conn = sqlite3.connect(db, isolation_level=None)
    for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%guard%'"
    ).fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE cards SET fields = json_set(fields, '$.power', 'abc') WHERE id = 'H-01'")
    conn.close()


@pytest.mark.parametrize(
    "command",
    [
        ["print", "mini"],
        ["images", "mini", "--dpi", "30"],
        ["proof", "mini"],
        ["rules", "mini"],
        ["tts", "mini"],
        ["shop", "mini", "--profile", "mpc"],
        ["cut", "mini", "--machine", "cricut"],
        ["build", "mini"],
    ],
)
def test_every_output_refuses_an_invalid_stored_value(run, mini_db, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    open_db(mini_db).conn.close()
    _break_a_value(mini_db)
    r = run("--db", mini_db, *command)
    assert r.exit_code == 2, r.stdout + r.stderr
    assert "card mini/H-01, field 'power': expected an integer, got 'abc'" in r.stderr
    assert len(r.stderr.strip().splitlines()[-1]) > 0 and "Traceback" not in r.stderr
    assert not (tmp_path / "output").exists() or not any(
        p.is_file() for p in (tmp_path / "output").rglob("*")
    ), sorted((tmp_path / "output").rglob("*"))


def test_a_refused_print_keeps_the_old_pdf(run, mini_db, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("--db", mini_db, "print", "mini").exit_code == 0
    pdf = next((tmp_path / "output" / "mini").glob("*.pdf"))
    before = pdf.read_bytes()
    _break_a_value(mini_db)
    assert run("--db", mini_db, "print", "mini").exit_code == 2
    assert pdf.read_bytes() == before
    # the validators still read the row and report it (they select without the check)
    r = run("--db", mini_db, "validate", "mini", "--json")
    assert any(e["card"] == "H-01" and e["field"] == "power" for e in json.loads(r.stdout)["errors"])

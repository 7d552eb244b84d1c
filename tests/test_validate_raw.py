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

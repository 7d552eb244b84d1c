"""static_findings: invalid cards, composition, constraints and edition, by card, never a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dbcopies import only_constraint, shipped_copy
from pnpforge.errors import PnpError
from pnpforge.rules.static import KINDS, static_findings
from pnpforge.store.constraints import Constraint, list_constraints
from pnpforge.store.db import open_db

GAMES = ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")


def raw(path, *statements: str) -> None:
    """Change the database around the editor, as another SQLite tool would."""
    open_db(path)  # migrated first
    conn = sqlite3.connect(path)
    for sql in statements:
        conn.execute(sql)
    conn.commit()
    conn.close()


def test_the_shipped_decks_have_no_findings(tmp_path):
    db = open_db(shipped_copy(tmp_path))
    for game in GAMES:
        assert static_findings(db, game) == [], game


def test_shipped_constraints_hold_once_entered():
    db = open_db(Path(__file__).resolve().parent.parent / "cards.db", readonly=True)
    counts = {g: len(list_constraints(db, g)) for g in GAMES}  # every shipped game has its constraints
    assert all(n >= 10 for n in counts.values()), counts
    assert [f for g in GAMES for f in static_findings(db, g) if f.kind == "constraint"] == []


def test_values_written_with_raw_sql_are_invalid_findings_naming_card_and_field(tmp_path):
    path = shipped_copy(tmp_path)
    raw(
        path,
        "UPDATE cards SET fields = json_set(fields, '$.score', 99) WHERE game='enforcer' AND id='OB-14'",
        "UPDATE cards SET fields = json_set(fields, '$.difficulty', 'x') "
        "WHERE game='enforcer' AND id='OB-15'",
        "UPDATE cards SET fields = json_set(fields, '$.weakness', 'EX-nope') WHERE game='enforcer' "
        "AND id='OB-16'",
    )
    findings = static_findings(open_db(path), "enforcer")
    invalid = [(f.severity, f.cards, f.source) for f in findings if f.kind == "invalid"]
    assert ("error", ("OB-14",), "score") in invalid
    assert ("error", ("OB-15",), "difficulty") in invalid
    assert ("error", ("OB-16",), "weakness") in invalid
    assert any(f.message.startswith("OB-14/score: 99 is above the maximum") for f in findings)


def test_a_row_in_a_shape_never_written_is_reported_not_crashed_on(tmp_path):
    path = shipped_copy(tmp_path)
    guards = [
        r[0]
        for r in sqlite3.connect(path).execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'cards_guard%'"
        )
    ]
    # another tool can drop the schema's guards first; the checker must still not crash
    raw(
        path,
        *(f"DROP TRIGGER {name}" for name in guards),
        "UPDATE cards SET copies = 'abc' WHERE game = 'infiltraitors' AND id = 'R07'",
    )
    findings = static_findings(open_db(path), "infiltraitors")
    kinds = [(f.kind, f.cards) for f in findings]
    assert ("invalid", ("R07",)) in kinds
    assert any("not checked" in f.message and f.cards == ("R07",) for f in findings)
    assert any(f.kind == "edition" and f.message.startswith("R07/copies") for f in findings)


def test_findings_come_in_order_and_name_constraint_breakers(tmp_path):
    path = shipped_copy(tmp_path)
    db = open_db(path)
    only_constraint(
        db,
        Constraint(
            "infiltraitors",
            "numbers",
            "each_value",
            "每種花色號碼 2–15 各 1 張",
            {"field": "number", "range": [2, 15], "group_by": "suit", "query": "type:card"},
            False,
            "遊戲配件",
        ),
    )
    raw(
        path,
        "UPDATE cards SET fields = json_set(fields, '$.number', 8) WHERE game='infiltraitors' AND id='R07'",
    )
    findings = static_findings(open_db(path), "infiltraitors")
    assert [f.kind for f in findings] == sorted((f.kind for f in findings), key=KINDS.index)
    constraint = [f for f in findings if f.kind == "constraint"]
    assert [(f.message, f.cards, f.severity) for f in constraint] == [
        ("每種花色號碼 2–15 各 1 張: suit=紅: number 7 appears 0 times, expected 1", (), "error"),
        (
            "每種花色號碼 2–15 各 1 張: suit=紅: number 8 appears 2 times, expected 1 [R07, R08]",
            ("R07", "R08"),
            "error",
        ),
    ]
    assert constraint[0].source == "numbers (遊戲配件)"
    assert not any(f.kind == "composition" for f in findings)  # the counts are still right


def test_composition_findings_keep_their_shape(tmp_path):
    path = shipped_copy(tmp_path)
    raw(path, "UPDATE cards SET copies = 2 WHERE game = 'dirty-money' AND id = 'V2'")
    findings = [f for f in static_findings(open_db(path), "dirty-money") if f.kind == "composition"]
    assert [(f.message, f.severity, f.source) for f in findings] == [
        ("恶棍卡×5: the rulebook declares 5, the deck has 6", "error", "villain"),
        ("贪污鼠×1: the rulebook declares 1, the deck has 2", "error", "villain-v2"),
    ]
    assert findings[0].to_dict()["cards"] == ["V1", "V2", "V3", "V4", "V5"]


def test_a_constraint_broken_with_raw_sql_is_a_finding(tmp_path):
    path = shipped_copy(tmp_path)
    raw(
        path,
        "INSERT INTO constraints (game, id, kind, params, label) VALUES "
        "('hackers', 'odd', 'values', '{\"field\": \"level\"}', 'broken')",
        "INSERT INTO constraints (game, id, kind, params, label) VALUES "
        "('hackers', 'bad-query', 'values', "
        '\'{"field": "level", "query": "type:(", "min": 1}\', \'bad\')',
    )
    messages = [f.message for f in static_findings(open_db(path), "hackers")]
    assert any(m.startswith("broken: the constraint itself is invalid: values needs") for m in messages)
    assert any(m.startswith("bad: the constraint itself is invalid: missing value after") for m in messages)


def test_unknown_game_is_a_user_error(tmp_path):
    with pytest.raises(PnpError, match="unknown game 'nope'"):
        static_findings(open_db(shipped_copy(tmp_path)), "nope")


def test_composition_rules_come_in_tree_order():
    """Each rule is followed by its own sub-counts: the hackers defence designs sit under the
    defence row, never under the server row that was stored before them."""
    from conftest import SHIPPED_DB
    from pnpforge.validate import composition

    rows = composition(open_db(SHIPPED_DB, readonly=True), "hackers")
    seen: set[str] = set()
    current_root = None
    for r in rows:
        if r.parent is None:
            current_root = r.rule
        else:
            assert r.parent in seen and r.parent == current_root, (r.rule, r.parent, current_root)
        seen.add(r.rule)
    assert [r.rule for r in rows][:2] == ["defence", "defence-D-01"]

"""Declared checks on the real data: text rules, executable rulebook examples, consistency kinds.

For each mechanism: a mistake is caught (naming the card or the example) and a
legal change is not.  Every case edits a private copy of the shipped cards.db
the way a designer would (`edit.set_card`) or around the editor (raw SQL).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pnpforge.edit import set_card
from pnpforge.errors import PnpError
from pnpforge.rules.examples import run_examples, run_formula
from pnpforge.rules.games import load_rules
from pnpforge.rules.static import static_findings
from pnpforge.store import bundle, repo
from pnpforge.store.constraints import Constraint, check_params, insert_constraint, list_constraints
from pnpforge.store.db import open_db, transaction
from pnpforge.store.declared import (
    Example,
    check_text_rule_params,
    insert_example,
    list_examples,
    list_text_rules,
)
from pnpforge.validate import validate_game
from pnpforge.validate.text_rules import parse_number

GAMES = ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")


def findings(path: Path, game: str, kind: str | None = None) -> list:
    return [f for f in static_findings(open_db(path), game) if kind is None or f.kind == kind]


def raw(path: Path, statement: str, *params: object) -> None:
    open_db(path)  # migrated first
    conn = sqlite3.connect(path)
    conn.execute(statement, params)
    conn.commit()
    conn.close()


# ---- what the shipped data declares -------------------------------------------------------------


def test_every_game_declares_text_rules_and_the_shipped_decks_keep_them(shipped_db):
    db = open_db(shipped_db)
    for game in GAMES:
        assert list_text_rules(db, game), game
        assert all(r.source for r in list_text_rules(db, game)), game
        assert findings(shipped_db, game) == [], game


def test_examples_and_consistency_constraints_carry_their_rulebook_lines(shipped_db):
    db = open_db(shipped_db)
    examples = {g: list_examples(db, g) for g in GAMES}
    assert {e.id for e in examples["enforcer"]} == {"ex-8-vs-5", "ex-15-vs-14", "ex-7-vs-9"}
    assert all(" l." in e.source for g in GAMES for e in examples[g])
    consistency = [
        c for g in GAMES for c in list_constraints(db, g) if c.kind in ("monotone", "distinct_items")
    ]
    assert len(consistency) >= 8 and all(" l." in c.source for c in consistency)


# ---- text rules ------------------------------------------------------------------------------------


def test_hackers_s14_text_contradicting_its_holes_is_caught(shipped_db):
    """The real finding: S-14 printed 漏洞 藍、紅 while its holes are B, G (fixed here by regeneration)."""
    raw(
        shipped_db,
        "UPDATE cards SET text = '第1級；漏洞：藍、紅；費用2；乾淨時獎勵2勝利點數' "
        "WHERE game = 'hackers' AND id = 'S-14'",
    )
    messages = [f.message for f in findings(shipped_db, "hackers", "text")]
    assert any("S-14: the text says 藍、紅 where holes is [B, G]" in m for m in messages)
    problems = [p for p in validate_game(open_db(shipped_db), "hackers") if p.card == "S-14"]
    assert problems and problems[0].severity == "error" and problems[0].scope == "deck"


def test_a_changed_field_with_its_old_text_is_caught_and_the_full_edit_is_not(shipped_db):
    db = open_db(shipped_db)
    set_card(db, "hackers", "A-05", {"attack_3": 8})
    assert [f.cards for f in findings(shipped_db, "hackers", "text")] == [("A-05",)]
    set_card(
        db, "hackers", "A-05", {"text": "[綠] 支付1：攻擊力3；支付2：攻擊力5；支付3：攻擊力8；支付4：攻擊力9"}
    )
    assert findings(shipped_db, "hackers") == []


@pytest.mark.parametrize(
    ("game", "card", "values", "rule"),
    [
        ("enforcer", "OB-04", {"traits": ""}, "obligor-spotlight"),
        ("enforcer", "OB-02", {"weakness": "EX-seize-luxury"}, "obligor-weakness"),
        ("enforcer", "OF-fee", {"text": "對費用類義務人執行時額外獲得2點執行力。"}, "officer-desk-bonus"),
        ("dirty-money", "EUR-1", {"dirty": 1}, "currency-dirty"),
        ("accusation", "cro03", {"requirements": "夜幕,夜幕,夜幕,知識"}, "ritual-requirements"),
    ],
)
def test_each_kind_of_text_rule_names_the_card_and_the_rule(shipped_db, game, card, values, rule):
    set_card(open_db(shipped_db), game, card, values)
    found = findings(shipped_db, game, "text")
    assert [(f.cards, f.source.split(" ")[0]) for f in found] == [((card,), rule)]


def test_a_generated_text_follows_its_fields_and_raw_sql_drift_is_caught(shipped_db):
    db = open_db(shipped_db)
    card, _ = set_card(db, "hackers", "S-05", {"bonus": 2, "holes": "Y,G"})
    assert card.text == "第1級；漏洞：黃、綠；費用1；乾淨時獎勵2勝利點數"
    assert findings(shipped_db, "hackers") == []
    raw(
        shipped_db,
        "UPDATE cards SET text = '第1級；漏洞：紅、黃；費用1；乾淨時獎勵1勝利點數' WHERE id = 'S-03'",
    )
    assert {f.source.split(" ")[0] for f in findings(shipped_db, "hackers", "text")} == {
        "server-text",
        "server-holes",
    }


def test_numbers_read_in_digits_and_chinese():
    assert [parse_number(t) for t in ("3", "一", "兩", "十", "十二", "二十", "x")] == [
        3,
        1,
        2,
        10,
        12,
        20,
        None,
    ]


def test_a_malformed_text_rule_is_refused_or_reported_never_a_crash(shipped_db):
    with pytest.raises(PnpError, match="exactly one group"):
        check_text_rule_params("number", {"pattern": "(a)(b)", "field": "x"})
    with pytest.raises(PnpError, match="unknown wrong"):
        check_text_rule_params("phrase", {"phrase": "x", "when": "y", "wrong": 1})
    raw(
        shipped_db,
        'UPDATE text_rules SET params = \'{"pattern": "(", "field": "x"}\' WHERE id = \'server-holes\'',
    )
    found = findings(shipped_db, "hackers", "text")
    assert len(found) == 1 and "the text rule itself is invalid" in found[0].message


# ---- executable examples -----------------------------------------------------------------------


def test_the_enforcer_examples_hold_under_the_examples_reading_and_the_conflict_is_shown(shipped_db):
    results = {r.example.id: r for r in run_examples(open_db(shipped_db), "enforcer", [])}
    assert all(r.ok for r in results.values())
    assert results["ex-15-vs-14"].actual == {"power": 15, "difficulty": 14, "success": True}
    assert results["ex-15-vs-14"].default == {"power": 17, "difficulty": 14, "success": True}
    assert results["ex-7-vs-9"].default == {"power": 11, "difficulty": 7, "success": True}
    assert results["ex-8-vs-5"].default is None  # no 拍賣: one reading
    assert all(results[e].example.conflict for e in ("ex-15-vs-14", "ex-7-vs-9"))


def test_the_auction_option_is_declared_and_checked(shipped_db):
    db = open_db(shipped_db)
    setup = {
        "obligor": "OB-24",
        "played": ["EX-clarify", "EX-seize-land", "SP-auction"],
        "objections": ["OBJ-flaw"],
    }
    assert load_rules(db, "enforcer", {"auction_power": "doubling_only"}).run_example(setup)["power"] == 9
    assert load_rules(db, "enforcer", {}).run_example(setup) == {
        "power": 11,
        "difficulty": 9,
        "success": True,
    }
    with pytest.raises(PnpError, match="auction_power"):
        load_rules(db, "enforcer", {"auction_power": "half"})


def test_a_value_change_that_breaks_an_example_is_an_error_naming_it(shipped_db):
    raw(shipped_db, "UPDATE cards SET fields = json_set(fields, '$.power', 5) WHERE id = 'EX-seize-land'")
    broken = [f for f in findings(shipped_db, "enforcer", "example")]
    assert {f.source.split(" ")[0] for f in broken} == {"ex-8-vs-5", "ex-15-vs-14", "ex-7-vs-9"}
    assert all(f.severity == "error" for f in broken)
    assert any("power 15" in f.message and "power 17" in f.message for f in broken)


def test_a_designed_value_an_example_rests_on_is_guarded_and_others_are_free(shipped_db):
    db = open_db(shipped_db)
    set_card(db, "dirty-money", "JP-RES-1", {"cost": 5})
    assert findings(shipped_db, "dirty-money") == []
    set_card(db, "dirty-money", "JP-RES-1", {"points": 2})
    (found,) = findings(shipped_db, "dirty-money", "example")
    assert "total 5" in found.message and "total 6" in found.message and "JP-RES-1" in found.cards


def test_an_unrecorded_conflict_with_the_engine_default_is_a_strict_finding(shipped_db):
    raw(shipped_db, "UPDATE examples SET conflict = '' WHERE game = 'enforcer' AND id = 'ex-7-vs-9'")
    (found,) = findings(shipped_db, "enforcer", "example")
    assert found.severity == "strict" and "auction_power=doubling_only" in found.message


def test_formulas_are_whitelisted_and_name_what_is_wrong(shipped_db):
    cards = {c.id: c for c in repo.list_cards(open_db(shipped_db), "hackers")}
    values, used = run_formula({"values": {"b": "a + 1", "a": "len({S-14.holes}) * 2"}}, cards)
    assert values == {"a": 4, "b": 5} and used == ("S-14",)
    for formula, message in (
        ("__import__('os')", "not allowed"),
        ("{S-99.holes}", "S-99"),
        ("{S-14.nope}", "no value 'nope'"),
        ("max()", "x:"),
        ("1 // 0", "x:"),
    ):
        with pytest.raises(PnpError, match=message):
            run_formula({"values": {"x": formula}}, cards)
    db = open_db(shipped_db)
    with transaction(db) as conn:
        insert_example(
            conn, Example("hackers", "bad", "a broken example", "formula", {"values": {"x": "1 +"}}, {"x": 1})
        )
    (found,) = findings(shipped_db, "hackers", "example")
    assert found.severity == "error" and "cannot run" in found.message
    raw(
        shipped_db,
        'UPDATE examples SET setup = \'{"obligor": "OB-02", "cancelled": [[1]]}\' WHERE id = \'ex-8-vs-5\'',
    )
    (found,) = findings(shipped_db, "enforcer", "example")
    assert found.severity == "error" and "does not fit" in found.message


# ---- consistency kinds ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "card", "values", "constraint"),
    [
        (
            "hackers",
            "A-03",
            {"attack_3": 4, "text": "[黃] 支付1：攻擊力3；支付2：攻擊力5；支付3：攻擊力4；支付4：攻擊力9"},
            "attack-table-up",
        ),
        (
            "enforcer",
            "OF-negotiate",
            {"condition": "弱勢", "text": "對弱勢義務人執行成功時抽2張牌。"},
            "officer-abilities",
        ),
        (
            "enforcer",
            "OF-gold",
            {"effect_value": 6, "text": "回合結束時手牌上限為6張（而非6張）。"},
            "officer-abilities",
        ),
        ("hackers", "D-07Y", {"effect_colours": "Y,Y"}, "defence-marked-colours-differ"),
        ("infiltraitors", "M01", {"suits": "紅,黑,黃,黃"}, "mission-suits-differ"),
        ("enforcer", "PEN", {"rookie_track": "0 -1 -3 -1 -10 X"}, "penalty-rookie-track-down"),
    ],
)
def test_a_consistency_breach_is_caught(shipped_db, game, card, values, constraint):
    set_card(open_db(shipped_db), game, card, values)
    found = findings(shipped_db, game, "consistency")
    assert found and {f.source.split(" ")[0] for f in found} == {constraint}
    assert all(card in f.cards for f in found)


def test_legal_design_changes_keep_consistency(shipped_db):
    db = open_db(shipped_db)
    set_card(
        db,
        "hackers",
        "A-03",
        {"attack_4": 10, "text": "[黃] 支付1：攻擊力3；支付2：攻擊力5；支付3：攻擊力7；支付4：攻擊力10"},
    )
    set_card(
        db,
        "enforcer",
        "OF-negotiate",
        {"effect_value": 3, "text": "對具有聲明異議特性的義務人執行成功時抽3張牌。"},
    )
    set_card(
        db,
        "accusation",
        "cro03",
        {"requirements": "夜幕,夜幕,夜幕,知識", "text": "執行條件：3個夜幕、1個知識。"},
    )
    for game in ("hackers", "enforcer", "accusation"):
        assert findings(shipped_db, game) == [], game


def test_consistency_parameters_are_checked():
    with pytest.raises(PnpError, match="exactly one of 'fields'"):
        check_params("monotone", {"query": "type:attack"})
    with pytest.raises(PnpError, match="direction"):
        check_params("monotone", {"field": "x", "direction": "sideways"})
    with pytest.raises(PnpError, match="base"):
        check_params("distinct_abilities", {"fields": ["a"], "base": [1]})


def test_consistency_constraints_live_in_their_own_table_and_read_as_one_list(mini_db):
    db = open_db(mini_db)
    with transaction(db) as conn:
        insert_constraint(conn, Constraint("mini", "c1", "monotone", "up", {"fields": ["a", "b"]}))
        insert_constraint(conn, Constraint("mini", "c2", "values", "v", {"field": "a", "min": 0}))
        with pytest.raises(PnpError, match="already has"):
            insert_constraint(conn, Constraint("mini", "c1", "values", "v", {"field": "a", "min": 0}))
    assert [c.id for c in list_constraints(db, "mini")] == ["c2", "c1"]
    assert db.conn.execute("SELECT count(*) FROM consistency WHERE game = 'mini'").fetchone()[0] == 1


# ---- bundles and notes ------------------------------------------------------------------------------


def test_declared_checks_travel_in_game_bundles(shipped_db, tmp_path):
    data = bundle.export(open_db(shipped_db), "enforcer")
    assert len(data["text_rules"]) == len(list_text_rules(open_db(shipped_db), "enforcer"))
    assert {e["id"] for e in data["examples"]} >= {"ex-15-vs-14"}
    path = tmp_path / "fresh.db"
    db = open_db(path, create=True)
    with transaction(db) as conn:
        bundle.write(conn, bundle.parse(json.loads(bundle.dumps(data))), replace=False)
    assert bundle.export(db, "enforcer")["text_rules"] == data["text_rules"]
    assert bundle.export(db, "enforcer")["examples"] == data["examples"]
    assert {c["id"] for c in bundle.export(db, "enforcer")["constraints"]} >= {"officer-abilities"}
    assert findings(path, "enforcer") == []
    data["text_rules"][0]["params"] = {"pattern": "("}
    with pytest.raises(PnpError, match=r"text_rules\[0\]"):
        bundle.parse(data)


def test_the_auction_conflict_is_recorded_on_its_four_cards(shipped_db):
    cards = {c.id: c for c in repo.list_cards(open_db(shipped_db), "enforcer")}
    for cid in ("EX-auction", "SP-auction", "OB-18", "OB-24"):
        assert "auction_power" in cards[cid].notes, cid
    assert "17" in cards["OB-18"].notes and "11" in cards["OB-24"].notes


def test_sample_games_play_under_the_examples_reading_of_auction(shipped_db):
    from pnpforge.rules.runner import play_game

    options = {"auction_power": "doubling_only"}
    rules = load_rules(open_db(shipped_db), "enforcer", options)
    assert rules.cards.play["EX-auction"].power == 0 and rules.cards.play["SP-auction"].power == 0
    assert rules.cards.play["EX-seize-land"].power == 4
    for seed in (1, 2):
        result = play_game(rules, 3, seed, ["greedy", "random", "greedy"], options=options)
        assert result.completed, result.failure


def test_the_designer_lists_and_removes_examples_and_text_rules(shipped_db, run):
    listed = run("--db", shipped_db, "examples", "list", "enforcer", "--json")
    assert {e["id"] for e in json.loads(listed.stdout)} == {"ex-8-vs-5", "ex-15-vs-14", "ex-7-vs-9"}
    set_card(open_db(shipped_db), "enforcer", "OB-02", {"difficulty": 6})
    assert "FAIL" in run("--db", shipped_db, "examples", "list", "enforcer").stdout
    assert run("--db", shipped_db, "examples", "rm", "enforcer", "ex-8-vs-5").exit_code == 0
    assert findings(shipped_db, "enforcer", "example") == []
    rules = json.loads(run("--db", shipped_db, "text-rules", "list", "hackers", "--json").stdout)
    assert all(r["source"] and r["breaches"] == [] for r in rules)
    assert run("--db", shipped_db, "text-rules", "rm", "hackers", "server-holes").exit_code == 0
    missing = run("--db", shipped_db, "text-rules", "rm", "hackers", "server-holes")
    assert missing.exit_code != 0 and "no text rule 'server-holes'" in missing.stderr


def test_a_text_rule_that_rests_on_our_reading_warns_and_fails_only_strict(shipped_db):
    set_card(open_db(shipped_db), "enforcer", "OF-gold", {"text": "回合結束時手牌上限為9張（而非6張）。"})
    (found,) = findings(shipped_db, "enforcer", "text")
    assert found.source.startswith("officer-hand-limit") and found.severity == "strict"
    (problem,) = [
        p for p in validate_game(open_db(shipped_db), "enforcer") if p.field == "officer-hand-limit"
    ]
    assert problem.severity == "warning"

"""Rulebook values that are not on a card: piles, the structure edition, designed composition targets."""

from __future__ import annotations

import json
import sqlite3

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.static import static_findings
from pnpforge.store import bundle, repo, structure
from pnpforge.store.db import open_db

GAMES = ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")


def findings(path, game: str, kind: str | None = None) -> list:
    return [f for f in static_findings(open_db(path, readonly=True), game) if kind is None or f.kind == kind]


def raw(path, sql: str, *params) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, params)
    conn.commit()
    conn.close()


# ---- piles -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_its_piles_with_a_rulebook_line(shipped_db, game):
    piles = structure.piles(open_db(shipped_db, readonly=True), game)
    assert piles and all(p.source.startswith("00") and ".txt:" in p.source for p in piles)
    assert not findings(shipped_db, game, "pile")


def test_types_shuffled_together_must_share_size_and_back(shipped_db):
    raw(shipped_db, "UPDATE card_types SET width_mm = 60 WHERE game = 'hackers' AND slug = 'attack'")
    raw(
        shipped_db,
        'UPDATE card_types SET back = \'{"colour": "#ff0000"}\' '
        "WHERE game = 'dirty-money' AND slug = 'action'",
    )
    [size] = findings(shipped_db, "hackers", "pile")
    assert size.severity == "error" and "attack is 60×88 mm but defence is 63×88 mm" in size.message
    assert "draw-pile" in size.source and "002_183d6240ceadc125.txt:53" in size.source
    [back] = findings(shipped_db, "dirty-money", "pile")
    assert "action has back" in back.message and "currency-deck" in back.message


def test_piles_round_trip_through_a_bundle_and_refuse_unknown_types(shipped_db, tmp_path, run):
    db = open_db(shipped_db)
    data = bundle.export(db, "dirty-money")
    assert [p["id"] for p in data["piles"]] == ["placement-decks", "currency-deck"]
    assert any(e["key"] == "pile.currency-deck" for e in data["structure_edition"])
    path = tmp_path / "dm.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    assert run("--db", shipped_db, "game", "import", path, "--replace").exit_code == 0
    assert bundle.export(open_db(shipped_db), "dirty-money")["piles"] == data["piles"]
    data["piles"][1]["card_types"] = ["currency", "coins"]
    path.write_text(json.dumps(data, ensure_ascii=False))
    r = run("--db", shipped_db, "game", "import", path, "--replace")
    assert r.exit_code == 2 and "piles 'currency-deck': unknown card type(s) coins" in r.stderr
    assert [p.card_types for p in structure.piles(open_db(shipped_db), "dirty-money")][1] == [
        "currency",
        "action",
    ]


# ---- the structure edition --------------------------------------------------------------


def test_structural_rulebook_values_are_frozen_and_designed_ones_are_not(shipped_db):
    frozen = structure.frozen(open_db(shipped_db, readonly=True), "enforcer")
    assert frozen["game.players"].value == [3, 6]
    assert "game.play_time" not in frozen  # "30–45 分鐘 (provisional)": ours, not the rulebook's
    assert "type.obligor.size" not in frozen  # a size pnpforge chose
    assert frozen["component.round-card"].value == {"count": 1, "name": "回合卡"}
    assert frozen["composition.obligors-tax"].value["expected"] == 6
    assert "composition.execution-general" not in frozen  # a designed target
    assert frozen["pile.execution-deck"].value == ["execution"]
    assert structure.frozen(open_db(shipped_db, readonly=True), "dirty-money")[
        "type.currency.size"
    ].value == [44.0, 67.0]


@pytest.mark.parametrize(
    "sql,key",
    [
        ("UPDATE games SET players_max = 5 WHERE slug = 'enforcer'", "game.players"),
        (
            "UPDATE components SET count = 5 WHERE game = 'enforcer' AND slug = 'help-card'",
            "component.help-card",
        ),
        ("DELETE FROM components WHERE game = 'enforcer' AND slug = 'round-card'", "component.round-card"),
        (
            "UPDATE composition SET expected = 5 WHERE game = 'enforcer' AND id = 'obligors-tax'",
            "composition.obligors-tax",
        ),
        ("DELETE FROM piles WHERE game = 'enforcer' AND id = 'objection-deck'", "pile.objection-deck"),
    ],
)
def test_a_changed_structural_value_shows_and_fails_strict(shipped_db, run, sql, key):
    raw(shipped_db, sql)
    [finding] = [f for f in findings(shipped_db, "enforcer", "edition") if f.source == key]
    assert finding.severity == "strict" and finding.message.startswith(f"{key}: rulebook edition ")
    assert "(changed outside recorded history)" in finding.message
    assert run("--db", shipped_db, "check", "enforcer", "--games", "0").exit_code in (0, 1)
    assert run("--db", shipped_db, "check", "enforcer", "--games", "0", "--strict").exit_code == 1


def test_a_size_pnpforge_chose_is_not_a_rulebook_value(shipped_db):
    raw(shipped_db, "UPDATE card_types SET width_mm = 64 WHERE game = 'enforcer' AND slug = 'officer'")
    assert not findings(shipped_db, "enforcer", "edition")


def test_game_import_records_the_change_and_a_correction_moves_the_edition(shipped_db, tmp_path, run):
    data = bundle.export(open_db(shipped_db), "hackers")
    del data["structure_edition"]  # the replaced game's edition is kept
    data["game"]["players_max"] = 5
    path = tmp_path / "h.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    assert run("--db", shipped_db, "game", "import", path, "--replace").exit_code == 0
    [finding] = findings(shipped_db, "hackers", "edition")
    assert finding.message.startswith("game.players: rulebook edition [2, 4] → now [2, 5] (changed 20")
    data["game"]["players_max"] = 4
    path.write_text(json.dumps(data, ensure_ascii=False))
    run("--db", shipped_db, "game", "import", path, "--replace")
    assert not findings(shipped_db, "hackers", "edition")
    data["game"]["players_max"] = 6
    path.write_text(json.dumps(data, ensure_ascii=False))
    r = run("--db", shipped_db, "game", "import", path, "--replace", "--correction", "box says 2-6")
    assert r.exit_code == 0
    assert not findings(shipped_db, "hackers", "edition")
    assert structure.frozen(open_db(shipped_db), "hackers")["game.players"].value == [2, 6]
    last = structure.history(open_db(shipped_db), "hackers", "game.")[-1]
    assert (last["before"], last["after"], last["correction"]) == ([2, 4], [2, 6], "box says 2-6")


# ---- composition rows: rulebook counts and designed targets -------------------------------


def test_a_designed_sub_count_is_a_warning_that_says_designed_target(shipped_db, run):
    # a designed value changed together with the text that restates it (a text rule binds them)
    text = "text=[紅] 支付1：攻擊力4；支付2：攻擊力5；支付3：攻擊力7；支付4：攻擊力9"
    assert run("--db", shipped_db, "cards", "set", "hackers", "A-01", "attack_1=4", text).exit_code == 0
    r = run("--db", shipped_db, "check", "hackers", "--games", "0")
    assert r.exit_code == 0
    assert "warning composition: 單色攻擊卡×8: designed target 8, the deck has 7" in r.stdout
    assert "the rulebook declares" not in r.stdout
    assert run("--db", shipped_db, "check", "hackers", "--games", "0", "--strict").exit_code == 1


def test_a_rulebook_count_is_an_error(shipped_db, run):
    run("--db", shipped_db, "cards", "set", "enforcer", "OB-01", "copies=2")
    r = run("--db", shipped_db, "check", "enforcer", "--games", "0")
    assert r.exit_code == 1 and "義務人卡×28: the rulebook declares 28, the deck has 29" in r.stdout


def test_composition_set_add_rm_are_validated_and_kept_in_history(shipped_db, run):
    ok = run("--db", shipped_db, "composition", "set", "hackers", "attack-normal", "expected=7")
    assert ok.exit_code == 0 and "單色攻擊卡×7 = 7 (designed)" in ok.stdout
    for args, message in [
        (("set", "hackers", "nope", "expected=1"), "no composition row 'nope'"),
        (("set", "hackers", "attack", "expected=-1"), "outside 0..100000"),
        (("set", "hackers", "attack", "expected=many"), "expected must be a whole number"),
        (("set", "hackers", "attack", "colour=R"), "composition rows have no 'colour'"),
        (("set", "hackers", "attack", "card_type=bogus"), "bogus"),
        (("set", "hackers", "attack", "query=cost>>"), ""),
        (("set", "hackers", "attack", "parent=attack-normal"), "makes a loop"),
        (("rm", "hackers", "attack"), "is the parent of"),
        (("add", "hackers", "attack", "--expected", "1", "--label", "x"), "already has"),
    ]:
        r = run("--db", shipped_db, "composition", *args)
        assert r.exit_code == 2 and message in r.stderr and "Traceback" not in r.stderr, args
    added = run(
        "--db",
        shipped_db,
        "composition",
        "add",
        "hackers",
        "attack-red",
        "--expected",
        "2",
        "--label",
        "紅色攻擊卡×2",
        "--type",
        "attack",
        "--query",
        "colours:R",
        "--parent",
        "attack",
    )
    assert added.exit_code == 0
    assert run("--db", shipped_db, "composition", "rm", "hackers", "attack-red").exit_code == 0
    keys = [h["key"] for h in structure.history(open_db(shipped_db), "hackers")]
    assert keys == ["composition.attack-normal", "composition.attack-red", "composition.attack-red"]


def test_a_rulebook_row_set_without_correction_becomes_designed_and_shows_against_the_edition(
    shipped_db, run
):
    run("--db", shipped_db, "composition", "set", "enforcer", "obligors-tax", "expected=7")
    rule = {r.id: r for r in repo.composition(open_db(shipped_db), "enforcer")}["obligors-tax"]
    assert rule.provisional and rule.label == "義務人卡—稅×7"
    messages = [f.message for f in findings(shipped_db, "enforcer")]
    assert any(m.startswith("composition.obligors-tax: rulebook edition") for m in messages)
    run(
        "--db",
        shipped_db,
        "composition",
        "set",
        "enforcer",
        "obligors-tax",
        "expected=6",
        "designed=no",
        "--correction",
        "back to the card list",
    )
    assert not findings(shipped_db, "enforcer", "edition")


def test_the_designers_own_targets_follow_cards_add_and_rm(tmp_path, run):
    db = tmp_path / "own.db"
    sheet = tmp_path / "ships.csv"
    sheet.write_text("name,type,copies,cost\nA,ship,2,1\nB,ship,3,2\nC,event,1,3\n", encoding="utf-8")
    run("--db", db, "db", "init")
    made = run("--db", db, "game", "new", "sky", "--title", "Sky", "--from", sheet)
    assert made.exit_code == 0 and "designed target ship×5 (follows cards add/rm)" in made.stdout
    assert (
        run("--db", db, "cards", "add", "sky", "ship", "S-9", "name=Zed", "cost=2", "copies=2").exit_code == 0
    )
    assert run("--db", db, "validate").exit_code == 0
    assert run("--db", db, "check", "sky", "--strict").exit_code == 0
    rows = {r.id: (r.label, r.expected) for r in repo.composition(open_db(db), "sky")}
    assert rows["ship"] == ("ship×7", 7)
    run("--db", db, "cards", "rm", "sky", "S-9", "--yes")
    assert {r.id: r.expected for r in repo.composition(open_db(db), "sky")}["ship"] == 5
    assert not structure.frozen(open_db(db), "sky")  # a game without a rulebook has no rulebook values


def test_a_row_that_follows_the_deck_must_be_designed(shipped_db):
    from pnpforge import edit

    with pytest.raises(PnpError, match="only a designed target can follow the deck"):
        edit.set_composition_row(open_db(shipped_db), "enforcer", "officers", {"follows_deck": "yes"})


def test_a_constraint_removed_shows_and_a_correction_moves_the_edition(shipped_db, run):
    run("--db", shipped_db, "constraints", "rm", "infiltraitors", "card-suit-number-unique")
    keys = [f.source for f in findings(shipped_db, "infiltraitors", "edition")]
    assert keys == ["constraint.card-suit-number-unique"]
    assert structure.history(open_db(shipped_db), "infiltraitors")[-1]["after"] is None
    data = bundle.export(open_db(shipped_db), "infiltraitors")
    assert not any(c["id"] == "card-suit-number-unique" for c in data["constraints"])
    run(
        "--db",
        shipped_db,
        "constraints",
        "rm",
        "infiltraitors",
        "special-suits",
        "--correction",
        "not in the rulebook",
    )
    assert [f.source for f in findings(shipped_db, "infiltraitors", "edition")] == keys

"""The rulebook edition: frozen on upgrade, honesty follows every write path, differences are found."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

from dbcopies import shipped_copy
from pnpforge import edit, importer
from pnpforge.model import Card
from pnpforge.rules.static import static_findings
from pnpforge.store import bundle, repo
from pnpforge.store.db import open_db
from pnpforge.store.edition import corrections, entries
from pnpforge.validate.edition import apply_edition_rules, edition_differences


def obligor(**changes) -> Card:
    base = Card(
        game="enforcer",
        type="obligor",
        id="OB-12",
        name="惡質航運業者",
        copies=1,
        fields={"difficulty": 8, "score": 7, "epithet": "惡質"},
        text="矚目",
        provenance="rulebook",
        provisional_fields=["epithet"],
    )
    for key, value in changes.items():
        if key in base.fields:
            base.fields[key] = value
        else:
            setattr(base, key, value)
    return base


def edition_lines(db, game: str) -> list[str]:
    return [f.message for f in static_findings(db, game) if f.kind == "edition"]


def test_changed_rulebook_field_becomes_provisional():
    new = apply_edition_rules(obligor(), obligor(difficulty=9))
    assert new.provisional_fields == ["difficulty", "epithet"] and new.provenance == "rulebook"


def test_card_level_values_and_type_changes():
    assert apply_edition_rules(obligor(), obligor(copies=2, name="惡質船東")).provisional_fields == [
        "copies",
        "epithet",
        "name",
    ]
    moved = apply_edition_rules(obligor(), obligor(type="execution"))
    assert moved.provenance == "provisional"


def test_provisional_values_and_corrections_are_left_alone():
    assert apply_edition_rules(obligor(), obligor(epithet="壞")).provisional_fields == ["epithet"]
    fixed = apply_edition_rules(obligor(), obligor(difficulty=18), correction="OCR read 18 as 8")
    assert fixed.provisional_fields == ["epithet"]
    assert apply_edition_rules(None, obligor(difficulty=3)) == obligor(difficulty=3)


def test_upgrade_freezes_the_rulebook_and_reference_values(tmp_path):
    db = open_db(shipped_copy(tmp_path))
    frozen = {e.card: e.snapshot for e in entries(db, "enforcer")}
    assert frozen["OB-12"]["fields"]["difficulty"] == 8
    assert "EX-instalment" not in frozen  # a provisional card has no edition
    assert len(entries(db, "accusation")) == 49  # reference cards count too
    assert all(
        not edition_lines(db, g)
        for g in ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")
    )


def test_cards_set_marks_reports_and_dates_the_difference(tmp_path):
    db = open_db(shipped_copy(tmp_path))
    card, _ = edit.set_card(db, "enforcer", "OB-12", {"difficulty": "9"})
    assert "difficulty" in card.provisional_fields
    (line,) = edition_lines(db, "enforcer")
    assert line.startswith("OB-12/difficulty: rulebook edition 8 → now 9 (changed 20")
    (finding,) = [f for f in static_findings(db, "enforcer") if f.kind == "edition"]
    assert finding.severity == "strict" and finding.cards == ("OB-12",)


def test_a_correction_keeps_provenance_moves_the_edition_and_is_in_history(tmp_path):
    db = open_db(shipped_copy(tmp_path))
    card, _ = edit.set_card(
        db, "enforcer", "OB-12", {"difficulty": "18"}, correction="layout example reads 18"
    )
    assert "difficulty" not in card.provisional_fields and card.provenance == "rulebook"
    assert edition_lines(db, "enforcer") == []
    assert list(corrections(db, "enforcer", "OB-12").values()) == ["layout example reads 18"]
    edit.set_card(db, "enforcer", "OB-12", {"score": "8"})  # a later design change is still found
    assert [d.key for d in edition_differences(db, "enforcer")] == ["fields.score"]


def test_provisional_values_are_design_space(tmp_path):
    db = open_db(shipped_copy(tmp_path))
    edit.set_card(db, "enforcer", "OB-23", {"difficulty": "7", "epithet": "黑"})  # both provisional
    edit.set_card(db, "enforcer", "EX-instalment", {"power": "3"})  # a provisional card
    assert edition_lines(db, "enforcer") == []


def test_import_marks_changed_values_and_honours_correction(tmp_path):
    db = open_db(shipped_copy(tmp_path))
    rows = list(csv.DictReader(io.StringIO(edit.export_cards(db, "infiltraitors", "csv"))))
    for row in rows:
        if row["id"] == "M05":
            row["bullets"] = "8"
        if row["id"] == "M06":
            row["bullets"] = "10"
    path = tmp_path / "inf.csv"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    importer.import_cards(db, "infiltraitors", path)
    assert "bullets" in repo.get_card(db, "infiltraitors", "M05").provisional_fields
    assert [d.card for d in edition_differences(db, "infiltraitors")] == ["M05", "M06"]
    for row in rows:
        if row["id"] == "M07":
            row["bullets"] = "8"
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    importer.import_cards(db, "infiltraitors", path, correction="mission sheet re-read")
    assert "bullets" not in repo.get_card(db, "infiltraitors", "M07").provisional_fields
    assert [d.card for d in edition_differences(db, "infiltraitors")] == ["M05", "M06"]


def test_raw_sql_changes_and_deletions_are_found(tmp_path):
    path = shipped_copy(tmp_path)
    open_db(path)  # migrate
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE cards SET fields = json_set(fields, '$.number', 9) WHERE game = 'infiltraitors' "
        "AND id = 'K08'"
    )
    conn.execute("DELETE FROM cards WHERE game = 'dirty-money' AND id = 'V3'")
    conn.commit()
    conn.close()
    db = open_db(path)
    assert edition_lines(db, "infiltraitors")[0].startswith("K08/number: rulebook edition 8 → now 9 (changed")
    assert edition_lines(db, "dirty-money")[0].startswith("V3/copies: rulebook edition 1 → now 0 (changed")


def test_the_edition_travels_with_a_game_bundle(tmp_path):
    db = open_db(shipped_copy(tmp_path))
    edit.set_card(db, "hackers", "D-02R", {"phase": "III"})
    data = bundle.export(db, "hackers")
    assert any(e["card"] == "D-02R" and e["snapshot"]["fields"]["phase"] == "IV" for e in data["edition"])
    target = tmp_path / "hackers.json"
    target.write_text(bundle.dumps(data), encoding="utf-8")
    other = open_db(tmp_path / "other.db", create=True)
    edit.import_game(other, target)
    assert [(d.card, d.edition, d.current) for d in edition_differences(other, "hackers")] == [
        ("D-02R", "IV", "III")
    ]
    data.pop("edition")  # a bundle without an edition does not wipe the replaced game's
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    edit.import_game(other, target, replace=True)
    assert [d.card for d in edition_differences(other, "hackers")] == ["D-02R"]


def test_history_shows_the_reason_of_a_correction(tmp_path):
    from typer.testing import CliRunner

    from pnpforge.app import app

    path = shipped_copy(tmp_path)
    run = CliRunner().invoke
    fixed = run(
        app,
        [
            "--db",
            str(path),
            "cards",
            "set",
            "enforcer",
            "OB-12",
            "difficulty=18",
            "--correction",
            "layout example reads 18",
        ],
    )
    assert fixed.exit_code == 0, fixed.output
    shown = run(app, ["--db", str(path), "cards", "history", "enforcer", "OB-12"])
    assert "(correction: layout example reads 18)" in shown.output
    as_json = run(app, ["--db", str(path), "cards", "history", "enforcer", "OB-12", "--json"])
    assert '"correction": "layout example reads 18"' in as_json.output

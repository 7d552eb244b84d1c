"""XLSX import and export: exact round trips on every shipped game, text never turned into formulas."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from pnpforge.store import repo
from pnpforge.store.db import open_db

GAMES = ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")


@pytest.mark.parametrize("game", GAMES)
def test_round_trip_is_exact(shipped_db: Path, run, tmp_path: Path, game: str) -> None:
    book = tmp_path / f"{game}.xlsx"
    res = run("--db", shipped_db, "export", game, "-o", book)
    assert res.exit_code == 0, res.output
    types = repo.card_types(open_db(shipped_db, readonly=True), game)
    assert openpyxl.load_workbook(book).sheetnames == [t.slug for t in types]  # one sheet per card type
    before = run("--db", shipped_db, "export", game, "--format", "json").stdout
    res = run("--db", shipped_db, "import", game, book)
    assert res.exit_code == 0, res.output
    assert "updated 0," in res.output and "added 0," in res.output
    assert run("--db", shipped_db, "export", game, "--format", "json").stdout == before


def test_numbers_are_numbers_and_formula_text_stays_text(shipped_db: Path, run, tmp_path: Path) -> None:
    assert run("--db", shipped_db, "cards", "set", "enforcer", "OB-02", "text==SUM(A1:A9)").exit_code == 0
    book = tmp_path / "e.xlsx"
    run("--db", shipped_db, "export", "enforcer", "--format", "xlsx", "-o", book)
    sheet = openpyxl.load_workbook(book)["obligor"]
    header = [c.value for c in sheet[1]]
    row = next(r for r in sheet.iter_rows(min_row=2) if r[0].value == "OB-02")
    assert row[header.index("text")].value == "=SUM(A1:A9)" and row[header.index("text")].data_type == "s"
    assert row[header.index("difficulty")].value == 5 and row[header.index("copies")].value == 1
    res = run("--db", shipped_db, "import", "enforcer", book)
    assert "updated 0," in res.output
    assert repo.get_card(open_db(shipped_db, readonly=True), "enforcer", "OB-02").text == "=SUM(A1:A9)"


def test_a_bad_cell_refuses_the_whole_workbook(shipped_db: Path, run, tmp_path: Path) -> None:
    book_path = tmp_path / "e.xlsx"
    run("--db", shipped_db, "export", "enforcer", "-o", book_path)
    book = openpyxl.load_workbook(book_path)
    sheet = book["obligor"]
    header = [c.value for c in sheet[1]]
    first_id = str(sheet.cell(row=2, column=1).value)
    old_score = int(str(sheet.cell(row=2, column=header.index("score") + 1).value))
    sheet.cell(row=2, column=header.index("score") + 1, value=old_score + 1)  # a good change …
    sheet.cell(row=3, column=header.index("difficulty") + 1, value="many")  # … and a bad one
    book.save(book_path)
    res = run("--db", shipped_db, "import", "enforcer", book_path)
    assert res.exit_code == 1
    assert "sheet 'obligor', row 3" in res.stderr and "difficulty" in res.stderr
    assert (
        repo.get_card(open_db(shipped_db, readonly=True), "enforcer", first_id).fields["score"] == old_score
    )


def test_type_comes_from_the_sheet_name_without_a_type_column(mini_db: Path, run, tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.worksheets[0]
    sheet.title = "spell"
    sheet.append(["id", "name", "copies", "cost"])
    sheet.append(["S-02", "火球術", 2, 4])
    book.save(tmp_path / "new.xlsx")
    res = run("--db", mini_db, "import", "mini", tmp_path / "new.xlsx", "--dry-run")
    assert res.exit_code == 0 and "+ S-02" in res.output and "dry run" in res.output
    assert run("--db", mini_db, "import", "mini", tmp_path / "new.xlsx").exit_code == 0
    card = repo.get_card(open_db(mini_db, readonly=True), "mini", "S-02")
    assert (card.type, card.copies, card.fields) == ("spell", 2, {"cost": 4})


def test_not_a_workbook_and_xlsx_to_stdout_are_one_line_errors(mini_db: Path, run, tmp_path: Path) -> None:
    fake = tmp_path / "fake.xlsx"
    fake.write_text("id,name\n", encoding="utf-8")
    res = run("--db", mini_db, "import", "mini", fake)
    assert res.exit_code == 2 and "not a readable XLSX workbook" in res.stderr
    res = run("--db", mini_db, "export", "mini", "--format", "xlsx")
    assert res.exit_code == 2 and "-o FILE.xlsx" in res.stderr


def test_enum_columns_carry_drop_downs(shipped_db: Path, run, tmp_path: Path) -> None:
    """An enum field's allowed values (and provenance's) are an in-cell list in the workbook."""
    out = tmp_path / "e.xlsx"
    assert run("--db", shipped_db, "export", "enforcer", "-o", out).exit_code == 0
    sheet = openpyxl.load_workbook(out)["execution"]
    header = [c.value for c in sheet[1]]
    lists = {}
    for dv in sheet.data_validations.dataValidation:
        assert dv.type == "list"
        column = str(dv.sqref).split(":")[0].rstrip("0123456789")
        lists[header[openpyxl.utils.column_index_from_string(column) - 1]] = dv.formula1.strip('"').split(",")
    assert lists["family"] == ["一般", "查封", "限制", "扶助", "策略"]
    assert lists["provenance"] == ["rulebook", "reference", "provisional"]


def test_an_exported_workbook_starts_a_new_game_without_honesty_columns_as_fields(
    shipped_db: Path, run, tmp_path: Path
) -> None:
    out = tmp_path / "e.xlsx"
    run("--db", shipped_db, "export", "hackers", "-o", out)
    r = run("--db", shipped_db, "game", "new", "copy", "--title", "Copy", "--from", out)
    assert r.exit_code == 0, r.stderr
    fields = {f.name for t in repo.card_types(open_db(shipped_db), "copy") for f in t.fields}
    assert not fields & {"provenance", "provisional_fields", "source"}


def test_a_row_added_with_a_blank_provenance_is_the_designers(mini_db: Path, run, tmp_path: Path) -> None:
    """A newcomer adds a row at the bottom of the exported sheet and leaves `provenance` empty:
    the card comes in as the designer's (`provisional`, as `cards add` makes it), and a blank
    cell on an existing card leaves that card's provenance alone."""
    book_path = tmp_path / "m.xlsx"
    assert run("--db", mini_db, "export", "mini", "-o", book_path).exit_code == 0
    book = openpyxl.load_workbook(book_path)
    sheet = book["spell"]
    header = [c.value for c in sheet[1]]
    existing = str(sheet.cell(row=2, column=1).value)
    sheet.cell(row=2, column=header.index("provenance") + 1, value=None)
    row = {"id": "S-09", "type": "spell", "name": "冰牆", "copies": 1, "cost": 3}
    sheet.append([row.get(str(name), None) for name in header])
    book.save(book_path)
    before = repo.get_card(open_db(mini_db, readonly=True), "mini", existing).provenance
    res = run("--db", mini_db, "import", "mini", book_path)
    assert res.exit_code == 0, res.stderr
    db = open_db(mini_db, readonly=True)
    assert repo.get_card(db, "mini", "S-09").provenance == "provisional"
    assert repo.get_card(db, "mini", existing).provenance == before

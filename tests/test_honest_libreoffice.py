"""Sheets LibreOffice itself made import as pnp's own export does.

The files in tests/fixtures/libreoffice/ were made by bench/real_tools.sh (LibreOffice 7.4,
headless): `pnp export GAME` (GAME-pnp.csv) opened in LibreOffice and saved as a
`;`-separated CSV and as XLSX; the hackers sheet also with one edited cell (server S-10's
cost 2 -> 3) before saving.  CI needs no LibreOffice: the files are read as they are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpforge import edit
from pnpforge.formats.cards import read_cards
from pnpforge.store.db import open_db

HERE = Path(__file__).parent / "fixtures" / "libreoffice"


def _values(path: Path) -> dict[str, dict[str, str]]:
    """Each card's non-empty cells by id (an XLSX sheet has only its type's columns)."""
    return {
        r.values["id"]: {k: v for k, v in r.values.items() if v not in ("", None)} for r in read_cards(path)
    }


@pytest.mark.parametrize("game", ["enforcer", "hackers"])
def test_libreoffice_sheets_hold_what_pnp_wrote(game):
    ours = _values(HERE / f"{game}-pnp.csv")
    assert _values(HERE / f"{game}-semicolon.csv") == ours
    assert _values(HERE / f"{game}.xlsx") == ours
    assert (HERE / f"{game}-semicolon.csv").read_text(encoding="utf-8").startswith('"id";"type";')


@pytest.mark.parametrize("game", ["enforcer", "hackers"])
def test_unedited_libreoffice_sheets_import_as_no_change(shipped_db, game):
    db = open_db(shipped_db)
    edit.import_cards(db, game, HERE / f"{game}-pnp.csv")  # the database as the sheet was exported
    for made in (f"{game}-semicolon.csv", f"{game}.xlsx"):
        result = edit.import_cards(open_db(shipped_db, scratch=True), game, HERE / made, dry_run=True)
        changed = [(c.id, c.changes) for c in result.changes if c.op != "same"]
        assert changed == [], made
        assert len(result.changes) == len(_values(HERE / f"{game}-pnp.csv"))


def test_one_cell_edited_in_libreoffice_is_one_change(shipped_db):
    db = open_db(shipped_db)
    edit.import_cards(db, "hackers", HERE / "hackers-pnp.csv")
    for made in ("hackers-edited-semicolon.csv", "hackers-edited.xlsx"):
        result = edit.import_cards(open_db(shipped_db, scratch=True), "hackers", HERE / made, dry_run=True)
        changed = [c for c in result.changes if c.op != "same"]
        assert [c.id for c in changed] == ["S-10"], made
        assert changed[0].changes["fields.cost"] == (2, 3)
        # the server's printed text is made from its fields, so it follows the cost
        assert set(changed[0].changes) == {"fields.cost", "text"} and "費用3" in changed[0].changes["text"][1]
    edit.import_cards(db, "hackers", HERE / "hackers-edited.xlsx")
    assert edit.repo.get_card(db, "hackers", "S-10").fields["cost"] == 3


def test_the_csv_formula_guard_survives_a_spreadsheet(shipped_db):
    """pnp's CSV guards '-1|-3|…' as "'-1|-3|…"; LibreOffice keeps the apostrophe in the XLSX
    it saves, and import takes it off again, so the enforcer track comes back unchanged."""
    rows = {r.values["id"]: r.values for r in read_cards(HERE / "enforcer.xlsx")}
    assert rows["PEN"]["track"] == "-1|-3|-6|-10|X"
    assert "'-1|-3|-6|-10|X" in (HERE / "enforcer-semicolon.csv").read_text(encoding="utf-8")


def test_xlsx_export_keeps_a_text_that_looks_guarded(tmp_path):
    """Import takes one apostrophe off "'-…" and "''…"; export adds one to such a text first."""
    from pnpforge.formats.card_xlsx import read_records, write_workbook
    from pnpforge.model import Card, CardType

    ctype = CardType("g", "t", "t", "t", 63, 88)
    texts = ["'-1 odd", "''quoted", "'plain", "-1|-3", "=1+1"]
    cards = [Card("g", "t", f"C{i}", "n", text=t) for i, t in enumerate(texts)]
    path = tmp_path / "g.xlsx"
    path.write_bytes(write_workbook(cards, [ctype]))
    assert [r.values["text"] for r in read_records(path)] == texts

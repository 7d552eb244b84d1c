"""Translations as data: staleness after an edit, and the sheet round trip through a ';' CSV."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from pnpforge.errors import PnpError
from pnpforge.lang import sheet
from pnpforge.lang.status import game_status, problems
from pnpforge.store import translations
from pnpforge.store.db import open_db, transaction

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture()
def db(tmp_path: Path):
    path = tmp_path / "cards.db"
    shutil.copyfile(REPO / "cards.db", path)
    from pnpforge.store.db import upgrade

    upgrade(path)
    return open_db(path)


def _translate(db, game: str, kind: str, key: str, field: str, text: str) -> None:
    unit = next(s.unit for s in game_status(db, game, "en") if s.unit.ident == (kind, key, field))
    with transaction(db) as conn:
        translations.upsert(
            conn, game, "en", [translations.Translation(kind, key, field, text, unit.fingerprint)]
        )


def test_edited_original_makes_its_translation_stale(db) -> None:
    _translate(db, "enforcer", "card", "EX-notice", "text", "Draw a card.")
    assert not [p for p in problems(db, "enforcer", "en") if p.card == "EX-notice" and p.field == "text"]
    with transaction(db) as conn:
        conn.execute("UPDATE cards SET text = '抽兩張牌。' WHERE game = 'enforcer' AND id = 'EX-notice'")
    found = [
        p for p in problems(db, "enforcer", "en", strict=True) if p.card == "EX-notice" and p.field == "text"
    ]
    assert len(found) == 1 and "stale" in found[0].message and found[0].severity == "error"


def test_xlsx_round_trip_through_a_semicolon_csv(db, tmp_path: Path) -> None:
    _translate(db, "enforcer", "card", "EX-notice", "text", "Draw a card.")
    xlsx = tmp_path / "enforcer-en.xlsx"
    sheet.export_file(db, "enforcer", "en", xlsx)
    rows = sheet.read_rows(xlsx)
    semi = tmp_path / "enforcer-en.csv"  # what LibreOffice saves with ';' as separator
    with open(semi, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter=";")
        w.writerow(sheet.COLUMNS)
        for _, r in rows:
            if r["kind"] == "card" and r["key"] == "EX-probe" and r["field"] == "text":
                r["translation"] = "Expose a Fake vulnerable obligor and turn it over."
            w.writerow([r.get(c, "") for c in sheet.COLUMNS])
    res = sheet.import_file(db, "enforcer", "en", semi)
    assert [(t.key, t.field) for t in res.written] == [("EX-probe", "text")]  # only the changed row
    assert res.unchanged == len(rows) - 1 - res.blank
    again = tmp_path / "again.xlsx"
    sheet.export_file(db, "enforcer", "en", again)
    back = {(r["kind"], r["key"], r["field"]): r for _, r in sheet.read_rows(again)}
    assert back[("card", "EX-probe", "text")]["status"] == "ok"
    assert back[("card", "EX-notice", "text")]["translation"] == "Draw a card."


def test_a_bad_row_refuses_the_whole_sheet(db, tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        "kind,key,field,translation,fingerprint\n"
        "card,EX-notice,text,Draw a card.,0000000000000000\n"
        "card,NOPE,text,x,0000000000000000\n",
        encoding="utf-8",
    )
    before = translations.of_language(db, "enforcer", "en")
    with pytest.raises(PnpError) as err:
        sheet.import_file(db, "enforcer", "en", path)
    assert "line 2" in str(err.value) and "NOPE" in str(err.value)
    assert translations.of_language(db, "enforcer", "en") == before


def test_edition_prints_translations_and_keeps_values(db, tmp_path: Path) -> None:
    from pnpforge.lang.edition import write_edition
    from pnpforge.store import repo

    folder = tmp_path / "edition"
    folder.mkdir()
    ed = write_edition(db, ["enforcer"], "en", folder)
    out = ed.open()
    card = repo.get_card(out, "enforcer-en", "OB-12")
    assert (card.name, card.name_en) == ("Rogue Shipping Line", "惡質航運業者")
    assert card.fields["category"] == ["健"]  # values stay single
    assert repo.get_game(out, "enforcer-en").language == "en"
    assert translations.words(out, "enforcer-en", "en")["健"] == "Health insurance"
    layout = (folder / "templates" / "enforcer-en" / "obligor.toml").read_text(encoding="utf-8")
    assert "Diff. **{{ f.difficulty }}**" in layout
    assert ed.missing == {"enforcer": 0}


def test_a_translation_that_drops_a_glossary_word_is_a_warning(db) -> None:
    before = [p for p in problems(db, "enforcer", "en") if p.card == "OB-04"]
    assert before == []
    _translate(db, "enforcer", "card", "OB-04", "text", "Must be executed first")
    found = [p for p in problems(db, "enforcer", "en") if p.card == "OB-04"]
    assert len(found) == 1 and "矚目" in found[0].message and found[0].severity == "warning"


GAMES = ("enforcer", "dirty-money", "hackers", "infiltraitors", "accusation")


@pytest.mark.parametrize("game", GAMES)
def test_english_summary_is_complete_and_english(game: str, run) -> None:
    """The shipped translations cover every printed text, none stale, and the English
    summary prints no Chinese at all (an untranslated text would show in the original)."""
    status = run("--db", REPO / "cards.db", "translate", "status", game, "--lang", "en", "--json")
    groups = json.loads(status.stdout)[game]
    assert all(g["ok"] == g["units"] and g["stale"] == 0 for g in groups.values()), groups
    res = run("--db", REPO / "cards.db", "rules", game, "--lang", "en", "--format", "md", "-o", "-")
    assert res.exit_code == 0, res.stderr
    han = [ch for ch in res.stdout if "\u4e00" <= ch <= "\u9fff"]
    assert han == [], "".join(han[:20])
    assert res.stdout.startswith("# ")


def test_an_untranslated_text_the_font_cannot_draw_is_named_in_the_warning(db, tmp_path: Path) -> None:
    """'print in the original' is only true where the language's font has the glyphs: say which not."""
    from pnpforge.lang.edition import write_edition

    with transaction(db) as conn:
        conn.execute(
            "DELETE FROM translations WHERE game = 'enforcer' AND kind = 'card' AND key = 'OB-12' "
            "AND field = 'name'"
        )
    folder = tmp_path / "edition"
    folder.mkdir()
    ed = write_edition(db, ["enforcer"], "en", folder)
    assert ed.missing == {"enforcer": 1} and ed.undrawable == {"enforcer": ["card OB-12 name"]}
    [warning] = ed.warnings()
    assert "1 of them use characters the en font cannot draw (card OB-12 name)" in warning
    assert (folder / "pnp-origin.txt").read_text(encoding="utf-8") == str(tmp_path)  # outputs: the project's

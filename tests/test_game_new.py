"""`pnp game new`: inference from a sheet, the game it makes, and that every command works on it at once."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from pnpforge.design import infer
from pnpforge.design.newgame import guess_language, parse_field_spec, parse_size
from pnpforge.errors import PnpError
from pnpforge.store import releases, repo
from pnpforge.store.db import open_db

SHEET = """name,type,copies,attack,element,tags,rare,text,Cost (gold)
Fire Knight,hero,2,5,fire,melee|armour,yes,Deal 2 damage.,3
Water Mage,hero,1,3,water,ranged,no,Heal 1.,2
Earth Giant,hero,1,7,earth,melee,no,,5
Wind Scout,hero,3,2,fire,ranged|fast,no,Draw a card.,1
Stone Wall,hero,2,,earth,,no,Block.,
Goblin,monster,4,1,fire,melee,no,,1
Troll,monster,2,6,earth,melee|armour,yes,Regenerate.,4
Slime,monster,5,-1,water,,no,,0
"""


def _rows(text: str) -> tuple[list[str], list[infer.Row]]:
    lines = text.strip().splitlines()
    header = lines[0].split(",")
    return header, [
        infer.Row(dict(zip(header, line.split(","), strict=True)), f"line {n}")
        for n, line in enumerate(lines[1:], 2)
    ]


def test_inference_of_integers_enums_lists_booleans_blanks_and_copies() -> None:
    header, rows = _rows(SHEET)
    result = infer.infer(header, rows, "sheet.csv")
    assert [t.slug for t in result.types] == ["hero", "monster"]
    hero = result.types[0]
    fields = {f.name: f for f in hero.fields}
    assert fields["attack"].type == "integer"  # a blank cell keeps the type
    assert fields["element"].type == "enum" and fields["element"].allowed == ["fire", "water", "earth"]
    assert fields["tags"].type == "list" and fields["tags"].allowed == ["melee", "armour", "ranged", "fast"]
    assert fields["rare"].type == "boolean"
    assert fields["cost_gold"].type == "integer" and fields["cost_gold"].label == "Cost (gold)"
    assert "text" not in fields and "copies" not in fields  # card attributes, not fields
    assert (hero.copies, result.types[1].copies) == (9, 11)
    assert any("blank on 1 card(s)" in note for note in hero.notes)
    values = infer.card_values(hero, hero.rows[4])
    assert values == {"element": "earth", "tags": [], "rare": False}


def test_unique_values_stay_text_and_few_repeated_values_become_an_enum() -> None:
    assert infer.infer_field("x", "x", ["a", "b", "c", "d"])[0].type == "text"
    assert infer.infer_field("x", "x", ["a", "b", "a", "b", "a"])[0].type == "enum"
    assert infer.infer_field("x", "x", [str(i) for i in range(40)])[0].type == "integer"


def test_sheet_errors_name_the_line_and_column() -> None:
    with pytest.raises(PnpError, match="no 'name' column"):
        infer.infer(["title_en", "cost"], [], "s.csv")
    header, rows = _rows("name,copies\nA,many\n")
    result = infer.infer(header, rows, "s.csv")
    with pytest.raises(PnpError, match="line 2: column 'copies'"):
        result.types[0].copies  # noqa: B018 - the property raises


def test_flags_sizes_and_languages() -> None:
    assert parse_size("70x120") == (70.0, 120.0) and parse_size(None) is None
    with pytest.raises(PnpError, match="--size"):
        parse_size("big")
    fd = parse_field_spec("element:enum=fire|water")
    assert (fd.name, fd.type, fd.allowed) == ("element", "enum", ["fire", "water"])
    with pytest.raises(PnpError, match="needs its values"):
        parse_field_spec("tags:list")
    assert guess_language(["Fire Knight"]) == "en"
    assert guess_language(["火龍騎士", "劍"]) == "zh-Hant"
    assert guess_language(["火龙骑士"]) == "zh-Hans"


@pytest.fixture
def new_game(tmp_path: Path, run) -> Path:
    db = tmp_path / "cards.db"
    assert run("--db", db, "db", "init").exit_code == 0
    sheet = tmp_path / "heroes.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    res = run("--db", db, "game", "new", "heroes", "--title", "Heroes", "--from", sheet, "--size", "63x88")
    assert res.exit_code == 0, res.output
    assert "attack (attack): integer (-1 to 7 in the sheet; any whole number allowed)" in res.output
    assert "element (element): enum, closed: fire | water | earth" in res.output
    assert "released as v0.1" in res.output
    return db


def test_new_game_is_complete_and_prints_at_once(new_game: Path, run, tmp_path: Path) -> None:
    db = open_db(new_game, readonly=True)
    game = repo.get_game(db, "heroes")
    assert (game.title, game.language, game.version) == ("Heroes", "en", "0.1")
    cards = repo.list_cards(db, "heroes")
    assert len(cards) == 8 and sum(c.copies for c in cards) == 20
    assert [(r.label, r.expected) for r in repo.composition(db, "heroes")] == [
        ("hero×9", 9),
        ("monster×11", 11),
    ]
    assert [r.tag for r in releases.list_releases(db, "heroes")] == ["v0.1"]
    layout = tomllib.loads((tmp_path / "templates" / "heroes" / "hero.toml").read_text(encoding="utf-8"))
    assert any(r["kind"] == "image" for r in layout["regions"])  # the art slot
    res = run("--db", new_game, "print", "heroes", "--json", "-o", tmp_path / "h.pdf")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["cards"] == 20
    assert "generic layout" not in res.output
    res = run("--db", new_game, "check", "heroes")
    assert res.exit_code == 0, res.output
    res = run("--db", new_game, "helpers", "heroes", "-o", tmp_path / "aid.pdf")
    assert res.exit_code == 0, res.output
    res = run("--db", new_game, "rules", "heroes", "--format", "md", "-o", tmp_path / "rules.md")
    assert res.exit_code == 0, res.output
    assert "hero ×9" in (tmp_path / "rules.md").read_text(encoding="utf-8")


def test_art_named_in_the_sheet_is_printed_in_the_slot(tmp_path: Path, run) -> None:
    from PIL import Image

    Image.new("RGB", (40, 30), "#ff0000").save(tmp_path / "knight.png")
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    sheet = tmp_path / "s.csv"
    sheet.write_text("id,name,art\nK1,Knight,knight.png\nK2,Squire,\n", encoding="utf-8")
    assert run("--db", db, "game", "new", "art", "--title", "Art", "--from", sheet).exit_code == 0
    res = run("--db", db, "print", "art", "-o", tmp_path / "a.pdf")
    assert res.exit_code == 0 and "missing" not in res.output, res.output
    assert repo.get_card(open_db(db, readonly=True), "art", "K1").art == "knight.png"


def test_existing_game_layouts_and_flags_only(new_game: Path, run, tmp_path: Path) -> None:
    sheet = tmp_path / "heroes.csv"
    res = run("--db", new_game, "game", "new", "heroes", "--title", "Heroes", "--from", sheet)
    assert res.exit_code != 0 and "already in the database" in res.stderr
    res = run("--db", new_game, "game", "new", "heroes", "--title", "Heroes", "--from", sheet, "--replace")
    assert res.exit_code == 0 and "kept" in res.output  # the designer's layouts are never overwritten
    res = run(
        "--db",
        new_game,
        "game",
        "new",
        "blank",
        "--title",
        "空白",
        "--type",
        "英雄",
        "--type",
        "spell",
        "--field",
        "power:integer",
        "--field",
        "element:enum=火|水",
    )
    assert res.exit_code == 0, res.output
    types = repo.card_types(open_db(new_game, readonly=True), "blank")
    assert [t.slug for t in types] == ["type-1", "spell"] and types[0].name == "英雄"
    assert [f.type for f in types[1].fields] == ["integer", "enum"]
    assert repo.get_game(open_db(new_game, readonly=True), "blank").language == "zh-Hans"


def test_bad_sheet_is_one_line_and_writes_nothing(tmp_path: Path, run) -> None:
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    sheet = tmp_path / "bad.csv"
    sheet.write_text("name,copies\nA,1\n,2\n", encoding="utf-8")
    res = run("--db", db, "game", "new", "bad", "--title", "Bad", "--from", sheet)
    assert res.exit_code != 0 and "line 3: the name is blank" in res.stderr
    assert "Traceback" not in res.output
    assert repo.list_games(open_db(db, readonly=True)) == []


def test_new_game_from_xlsx_types_from_sheet_names(tmp_path: Path, run) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    heroes = book.worksheets[0]
    heroes.title = "Hero"
    heroes.append(["name", "power", "copies"])
    heroes.append(["Knight", 5, 2])
    heroes.append(["Mage", 3.0, 1])
    spells = book.create_sheet("Spell")
    spells.append(["name", "cost"])
    spells.append(["Freeze", 2])
    book.save(tmp_path / "game.xlsx")
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    res = run("--db", db, "game", "new", "x", "--title", "X", "--from", tmp_path / "game.xlsx")
    assert res.exit_code == 0, res.output
    opened = open_db(db, readonly=True)
    assert [t.slug for t in repo.card_types(opened, "x")] == ["hero", "spell"]
    assert repo.get_card(opened, "x", "hero-002").fields == {"power": 3}


def test_on_a_terminal_it_asks_for_what_the_flags_leave_out(tmp_path: Path, run, monkeypatch) -> None:
    from pnpforge.commands import new

    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    monkeypatch.setattr(new, "is_tty", lambda: True)
    res = run(
        "--db",
        db,
        "game",
        "new",
        "asked",
        input="Asked Game\nhero, spell\npower:integer, element:enum=fire|water\n",
    )
    assert res.exit_code == 0, res.output
    assert "Title" in res.output and "Card types" in res.output
    read = open_db(db, readonly=True)
    assert repo.get_game(read, "asked").title == "Asked Game"
    types = repo.card_types(read, "asked")
    assert [t.slug for t in types] == ["hero", "spell"]
    assert [(f.name, f.type) for f in types[0].fields] == [("power", "integer"), ("element", "enum")]


def test_without_a_terminal_the_title_is_required(tmp_path: Path, run, monkeypatch) -> None:
    from pnpforge.commands import new

    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    monkeypatch.setattr(new, "is_tty", lambda: False)
    res = run("--db", db, "game", "new", "quiet")
    assert res.exit_code != 0 and "--title is required" in res.output + res.stderr


def test_new_games_summary_says_each_thing_once(new_game: Path, run, tmp_path: Path) -> None:
    """One Components heading, no empty Time, no 'hero · hero', and a footnote that the values
    are the designer's (there is no rulebook)."""
    r = run("--db", new_game, "rules", "heroes", "--format", "md", "-o", "-")
    assert r.exit_code == 0, r.stderr
    md = r.stdout
    assert md.count("## Components") == 1
    assert "**Time**" not in md
    assert not any(f"{w} · {w}" in md for w in ("hero", "monster"))
    assert "designed by pnpforge" not in md and "rulebook" not in md
    other = tmp_path / "other.db"
    run("--db", other, "db", "init")
    sheet = tmp_path / "s.csv"
    sheet.write_text("name;type;copies\nA;ship;2\nB;ship;1\n", encoding="utf-8")
    assert run("--db", other, "game", "new", "sky", "--title", "Sky", "--from", sheet).exit_code == 0
    md = run("--db", other, "rules", "sky", "--format", "md", "-o", "-").stdout
    assert "| ship | 3† |" in md  # the ";" sheet was read by column; † a designed count (no rulebook)
    assert "designer's value" in md and "standard sizes chosen by pnpforge" in md


@pytest.mark.parametrize(
    "slug, says",
    [
        ("calibration", "a word pnp reads itself ('pnp print calibration')"),
        ("market-en", "ends in '-en', the name of a language edition"),
        ("market-zh-hant", "ends in '-zh-hant'"),
    ],
)
def test_a_slug_the_cli_or_an_edition_takes_is_refused(tmp_path: Path, run, slug: str, says: str) -> None:
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    sheet = tmp_path / "s.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    res = run("--db", db, "game", "new", slug, "--title", "T", "--from", sheet)
    assert res.exit_code == 2 and says in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert repo.list_games(open_db(db, readonly=True)) == []
    assert not (tmp_path / "templates").exists()
    assert run("--db", db, "game", "new", "market", "--title", "T", "--from", sheet).exit_code == 0
    bundle = tmp_path / "g.json"
    assert run("--db", db, "game", "export", "market", "-o", bundle).exit_code == 0
    bundle.write_text(bundle.read_text(encoding="utf-8").replace('"market"', f'"{slug}"'), encoding="utf-8")
    res = run("--db", db, "game", "import", bundle)
    assert res.exit_code == 2 and says in res.stderr
    assert [g.slug for g in repo.list_games(open_db(db, readonly=True))] == ["market"]


def test_the_summary_overview_follows_the_deck_like_its_components_table(tmp_path: Path, run) -> None:
    """game new writes no counts into a rule: the Overview line and the table read the same cards."""
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    sheet = tmp_path / "s.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    assert run("--db", db, "game", "new", "market", "--title", "T", "--from", sheet).exit_code == 0
    added = run("--db", db, "cards", "add", "market", "hero", "sky", "name=Sky", "copies=4", "attack=1")
    assert added.exit_code == 0, added.stderr
    md = run("--db", db, "rules", "market", "--format", "md", "-o", "-").stdout
    overview = md.split("## Overview", 1)[1].split("##", 1)[0].strip()
    assert overview == "24 cards: hero ×13†, monster ×11†."  # 9 heroes in the sheet, then 4 Sky
    assert "| hero | 13† |" in md and "| monster | 11† |" in md


def test_replace_refuses_to_drop_edits_made_since_and_never_releases_again(tmp_path: Path, run) -> None:
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    sheet = tmp_path / "s.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    new = ("--db", db, "game", "new", "market", "--title", "T", "--from", sheet)
    assert run(*new).exit_code == 0
    again = run(*new, "--replace")  # nothing edited since: the rerun is harmless
    assert (
        again.exit_code == 0 and "released as" not in again.stdout and "releases kept (v0.1" in again.stdout
    )
    assert run("--db", db, "cards", "add", "market", "hero", "sky", "name=Sky", "attack=1").exit_code == 0
    assert run("--db", db, "cards", "set", "market", "hero-002", "attack=9").exit_code == 0
    assert run("--db", db, "release", "market", "v0.2").exit_code == 0
    refused = run(*new, "--replace")
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "removes sky (Sky)" in refused.stderr and "reverts hero-002 fields.attack: 9 → 3" in refused.stderr
    cards = {c.id: c for c in repo.list_cards(open_db(db, readonly=True), "market")}
    assert "sky" in cards and cards["hero-002"].fields["attack"] == 9  # nothing changed
    forced = run(*new, "--replace", "--discard-edits")
    assert forced.exit_code == 0 and "discarded: removes sky (Sky)" in forced.stdout
    assert "releases kept (v0.1, v0.2; none made)" in forced.stdout
    assert [r.tag for r in releases.list_releases(open_db(db, readonly=True), "market")] == ["v0.1", "v0.2"]


def test_the_field_report_says_what_the_validator_enforces(new_game: Path, run) -> None:
    """'any whole number allowed' accepts a value past the sheet's range; 'closed' refuses a new value."""
    assert run("--db", new_game, "cards", "set", "heroes", "hero-001", "attack=99").exit_code == 0
    closed = run("--db", new_game, "cards", "set", "heroes", "hero-001", "tags=melee|flying")
    assert closed.exit_code == 1 and "'flying' not allowed" in closed.stderr
    wrong = run("--db", new_game, "cards", "set", "heroes", "hero-001", "element=air")
    assert wrong.exit_code == 1 and "'air' is not allowed" in wrong.stderr


def test_a_column_with_repeats_but_too_many_values_is_reported_as_free_text() -> None:
    fd, why = infer.infer_field("colour", "colour", ["red", "red", "blue", "green", "gold"])
    assert fd.type == "text" and why == "text, free (4 different values in 5 cells: too many for an enum)"
    fd, why = infer.infer_field("tags", "tags", ["a|b", "c"])
    assert fd.type == "list" and fd.allowed == ["a", "b", "c"]
    assert why == "list split on '|', closed to these 3 values: a | b | c"


def test_without_a_sheet_types_or_terminal_it_refuses(tmp_path: Path, run, monkeypatch) -> None:
    """No --from, no --type, no --field and nobody to ask: one line saying what to pass, no game."""
    from pnpforge.commands import new

    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    monkeypatch.setattr(new, "is_tty", lambda: False)
    res = run("--db", db, "game", "new", "duel", "--title", "Duel")
    assert res.exit_code == 2
    assert "pass --from FILE.csv|FILE.xlsx, or --type NAME" in res.stderr
    assert "Traceback" not in res.output + res.stderr
    assert repo.list_games(open_db(db, readonly=True)) == []
    assert not (tmp_path / "templates" / "duel").exists()


def test_a_field_type_word_it_does_not_know_lists_the_words(tmp_path: Path, run) -> None:
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    res = run("--db", db, "game", "new", "duel", "--title", "Duel", "--type", "hero", "--field", "power:int")
    assert res.exit_code != 0
    assert "unknown TYPE 'int'" in res.stderr and "integer, text, enum, boolean, list" in res.stderr
    assert repo.list_games(open_db(db, readonly=True)) == []


def test_a_game_from_flags_has_composition_and_a_replace_drops_unused_starters(tmp_path: Path, run) -> None:
    """Types made from flags get a designed target that follows the deck, as a sheet's do; a
    replace that renames a type removes the old type's untouched starter layout and leaves an
    edited one in place, saying so."""
    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    flags = ["--type", "card", "--type", "token", "--field", "power:integer"]
    assert run("--db", db, "game", "new", "duel", "--title", "Duel", *flags).exit_code == 0
    rows = {r.card_type: r for r in repo.composition(open_db(db, readonly=True), "duel")}
    assert set(rows) == {"card", "token"} and rows["card"].expected == 0 and rows["card"].follows_deck
    assert run("--db", db, "cards", "add", "duel", "card", "c1", "name=Knight", "copies=2").exit_code == 0
    assert repo.composition(open_db(db, readonly=True), "duel")[0].expected == 2
    folder = tmp_path / "templates" / "duel"
    edited = folder / "token.toml"
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# mine\n", encoding="utf-8")
    flags = ["--type", "Hero Card", "--field", "power:integer", "--replace", "--discard-edits"]
    res = run("--db", db, "game", "new", "duel", "--title", "Duel", *flags)
    assert res.exit_code == 0, res.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["base.toml", "hero-card.toml", "token.toml"]
    assert "card.toml (its card type is gone" in res.output
    assert "token.toml (edited; no card type uses it now" in res.output


def test_the_report_gives_each_art_slot_and_art_drawn_at_that_size_is_not_cropped(
    tmp_path: Path, run
) -> None:
    """`game new` says each starter art slot's size in mm and px; art drawn at those pixels fills
    the slot whole, and portrait art in the landscape slot is a preflight warning naming the card."""
    import re

    from PIL import Image

    db = tmp_path / "cards.db"
    run("--db", db, "db", "init")
    sheet = tmp_path / "l.csv"
    sheet.write_text("id,name,type,copies,cost\nl1,A,lantern,2,3\nl2,B,lantern,1,4\n", encoding="utf-8")
    res = run("--db", db, "game", "new", "lanterns", "--title", "Lanterns", "--from", sheet)
    found = re.search(
        r"art slot of lantern: ([\d.]+)×([\d.]+) mm, filled by cropping; draw at (\d+)×(\d+) px", res.output
    )
    assert found, res.output
    w_mm, h_mm, w_px, h_px = float(found[1]), float(found[2]), int(found[3]), int(found[4])
    layout = tomllib.loads((tmp_path / "templates" / "lanterns" / "lantern.toml").read_text(encoding="utf-8"))
    art = next(r for r in layout["regions"] if r["name"] == "art")
    assert (art["h"], art["fit"], w_mm) == (h_mm, "cover", 63 - 6)
    Image.new("RGB", (w_px, h_px), (200, 180, 120)).save(tmp_path / "drawn.png")
    Image.new("RGB", (750, 1050), (200, 180, 120)).save(tmp_path / "tall.png")
    assert run("--db", db, "cards", "set", "lanterns", "l1", "art=drawn.png").exit_code == 0
    assert run("--db", db, "cards", "set", "lanterns", "l2", "art=tall.png").exit_code == 0
    res = run("--db", db, "preflight", "lanterns")
    out = res.stdout + res.stderr
    assert "lanterns/l2: art" in out and f"draw it at {w_px}×{h_px} px" in out
    assert "lanterns/l1" not in out

"""The Tabletop Simulator saved object `pnp tts` writes beside its sheets."""

from __future__ import annotations

import json
from pathlib import Path

from pnpforge.render import tts
from pnpforge.store import repo
from pnpforge.store.db import open_db


def test_saved_object_loads_with_every_deck_and_count(mini_db, tmp_path):
    out = tmp_path / "tts"
    result = tts(open_db(mini_db, readonly=True), "mini", output=str(out))
    assert str(out / "mini.json") in result.files
    data = json.loads((out / "mini.json").read_text(encoding="utf-8"))
    decks = {o["GMNotes"]: o for o in data["ObjectStates"]}
    cards = repo.list_cards(open_db(mini_db, readonly=True), "mini")
    for slug, deck in decks.items():
        expected = [c for c in cards if c.type == slug for _ in range(c.copies)]
        assert deck["Name"] == "DeckCustom" and len(deck["DeckIDs"]) == len(expected)
        assert [o["GMNotes"] for o in deck["ContainedObjects"]] == [c.id for c in expected]
        assert [o["CardID"] for o in deck["ContainedObjects"]] == deck["DeckIDs"]
        sheet = next(d for d in result.decks if d["type"] == slug)
        custom = deck["CustomDeck"]["1"]
        assert (custom["NumWidth"], custom["NumHeight"]) == (sheet["width"], sheet["height"])
        assert Path(custom["FaceURL"].removeprefix("file://")).is_file()
        assert Path(custom["BackURL"].removeprefix("file://")).name == sheet["back"]
    hero = decks["hero"]["ContainedObjects"][0]
    assert hero["Nickname"] == next(c.name for c in cards if c.id == "H-01")
    assert "攻擊時抽一張牌。" in hero["Description"]
    assert "Saved Objects" in (out / "README.txt").read_text(encoding="utf-8")


def test_base_url_replaces_local_paths(mini_db, tmp_path, run):
    res = run(
        "--db", mini_db, "tts-object", "mini", "-o", tmp_path, "--base-url", "https://example.org/decks/"
    )
    assert res.exit_code == 0, res.stderr
    data = json.loads((tmp_path / "mini.json").read_text(encoding="utf-8"))
    urls = [d["FaceURL"] for o in data["ObjectStates"] for d in o["CustomDeck"].values()]
    assert urls and all(u.startswith("https://example.org/decks/mini-") for u in urls)


def test_a_lone_card_is_a_card_not_a_deck(mini_db, tmp_path):
    import sqlite3

    con = sqlite3.connect(mini_db)
    con.execute("UPDATE cards SET copies = 0 WHERE game = 'mini' AND id = 'H-02'")
    con.execute("UPDATE cards SET copies = 1 WHERE game = 'mini' AND id = 'H-01'")
    con.commit()
    con.close()
    tts(open_db(mini_db, readonly=True), "mini", output=str(tmp_path), card_type="hero")
    data = json.loads((tmp_path / "mini.json").read_text(encoding="utf-8"))
    (only,) = data["ObjectStates"]
    assert only["Name"] == "Card" and only["CardID"] == 100 and only["GMNotes"] == "H-01"

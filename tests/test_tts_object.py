"""The Tabletop Simulator saved object `pnp tts` writes beside its sheets, and its linked copy."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pnpforge.shop.tts import tts
from pnpforge.store import repo
from pnpforge.store.db import open_db


def _urls(data: dict) -> list[str]:
    return [
        d[key]
        for o in data["ObjectStates"]
        for holder in [o, *o.get("ContainedObjects", [])]
        for d in holder.get("CustomDeck", {}).values()
        for key in ("FaceURL", "BackURL")
    ]


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
        (key,) = deck["CustomDeck"]  # one sheet per mini deck
        custom = deck["CustomDeck"][key]
        assert {o["CardID"] // 100 for o in deck["ContainedObjects"]} == {int(key)}
        assert (custom["NumWidth"], custom["NumHeight"]) == (sheet["width"], sheet["height"])
        assert (custom["FaceURL"], custom["BackURL"]) == (sheet["file"], sheet["back"])
        assert (out / custom["FaceURL"]).is_file() and (out / custom["BackURL"]).is_file()
    keys = [k for o in data["ObjectStates"] for k in o["CustomDeck"]]
    assert len(keys) == len(set(keys)) == len(decks)  # TTS caches a CustomDeck by key: one per sheet
    hero = decks["hero"]["ContainedObjects"][0]
    assert hero["Nickname"] == next(c.name for c in cards if c.id == "H-01")
    assert "攻擊時抽一張牌。" in hero["Description"]
    readme = (out / "README.txt").read_text(encoding="utf-8")
    assert "Saved Objects" in readme and "pnp tts-object mini" in readme


def test_saved_object_is_the_same_bytes_in_any_folder(mini_db, tmp_path):
    db = open_db(mini_db, readonly=True)
    tts(db, "mini", output=str(tmp_path / "a"))
    tts(db, "mini", output=str(tmp_path / "elsewhere" / "b"))
    first = (tmp_path / "a" / "mini.json").read_bytes()
    assert first == (tmp_path / "elsewhere" / "b" / "mini.json").read_bytes()
    assert b"file:" not in first and str(tmp_path).encode() not in first


def test_linking_points_every_image_at_this_computer(mini_db, tmp_path, run):
    folder = tmp_path / "tts"
    res = run("--db", mini_db, "tts-object", "mini", "--from", folder)  # no sheets yet: drawn first
    assert res.exit_code == 0, res.stderr
    portable = json.loads((folder / "mini.json").read_text(encoding="utf-8"))
    linked = json.loads((folder / "linked" / "mini.json").read_text(encoding="utf-8"))
    urls = _urls(linked)
    assert len(urls) == len(_urls(portable)) > 0
    for name, url in zip(_urls(portable), urls, strict=True):
        assert url.startswith("file:///") and Path(unquote(urlsplit(url).path)) == (folder / name).resolve()
        assert Path(unquote(urlsplit(url).path)).is_file()
    assert linked["ObjectStates"][0]["DeckIDs"] == portable["ObjectStates"][0]["DeckIDs"]


def test_base_url_replaces_local_paths(mini_db, tmp_path, run):
    target = tmp_path / "online.json"
    res = run(
        "--db", mini_db, "tts-object", "mini", "--from", tmp_path, "-o", target,
        "--base-url", "https://example.org/decks",
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    urls = _urls(json.loads(target.read_text(encoding="utf-8")))
    assert urls and all(u.startswith("https://example.org/decks/mini-") for u in urls)


def test_bad_base_url_and_missing_image_are_one_line(mini_db, tmp_path, run):
    res = run("--db", mini_db, "tts-object", "mini", "--from", tmp_path, "--base-url", "decks/")
    assert res.exit_code != 0 and "allowed: http://, https://, file://" in res.stderr
    assert not (tmp_path / "mini.json").exists()  # refused before drawing
    assert run("--db", mini_db, "tts-object", "mini", "--from", tmp_path).exit_code == 0
    sheet = sorted(tmp_path.glob("mini-*-1.png"))[0]
    sheet.unlink()
    res = run("--db", mini_db, "tts-object", "mini", "--from", tmp_path)
    assert res.exit_code != 0 and sheet.name in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


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

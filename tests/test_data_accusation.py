"""Accusation (控訴) data in the shipped cards.db: totals, reference values, honest provenance."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pnpforge.store import repo
from pnpforge.validate import composition, validate_game

ROOT = Path(__file__).resolve().parent.parent
# The base box as gathered from a public card catalogue (stats and keywords, no effect texts).
REFERENCE_TSV = ROOT / "tests" / "fixtures" / "reference" / "accusation-base-box.tsv"
SLUG = "accusation"

# Values of the reference file, spelled out for the cards whose values matter most: id -> row.
REFERENCE_ROWS = {
    "cro01": dict(
        name="第十三夜", cult="鴉教團", type="教主", symbols="夜幕|知識", mentions="詠頌|你的每個回合限一次"
    ),
    "cro02": dict(name="黑色葬禮", cult="鴉教團", type="儀式", calamity="3", symbols="凋零"),
    "cro07": dict(
        name="信使", cult="鴉教團", type="信徒", volume="3", calamity="3", symbols="夜幕", mentions="詠頌"
    ),
    "cro13": dict(
        name="灰眼童",
        cult="鴉教團",
        type="信徒",
        volume="5",
        calamity="0",
        symbols="夜幕|凋零",
        mentions="控訴時",
    ),
    "cro19": dict(
        name="羽墓園",
        cult="鴉教團",
        type="地點",
        calamity="4",
        guard="6",
        location_type="墓園",
        symbols="凋零",
    ),
    "cro23": dict(
        name="失聲詛咒", cult="鴉教團", type="魔法", calamity="3", stardust="4", mentions="詠頌|星塵效果"
    ),
    "fox08": dict(name="稻草人", cult="白狐神社", type="信徒", volume="2", symbols="自然", mentions="駐守3"),
    "fox18": dict(
        name="稻原",
        cult="白狐神社",
        type="地點",
        calamity="0",
        guard="2",
        location_type="荒野",
        symbols="自然|自然|夜幕",
    ),
    "fox22": dict(name="魂燈", cult="白狐神社", type="魔法", calamity="4", stardust="3", mentions="星塵效果"),
}
TYPE_SLUG = {"信徒": "follower", "地點": "location", "儀式": "ritual", "魔法": "magic", "教主": "leader"}
# Fields whose values come from the reference file; every other field value is designed.
REFERENCE_FIELDS = {
    "cult",
    "symbols",
    "mentions",
    "volume",
    "calamity",
    "guard",
    "stardust",
    "location_type",
    "garrison",
}


def expected_fields(row: dict) -> dict:
    """What the database should hold for one reference row."""
    out: dict = {"cult": row["cult"]}
    for key in ("volume", "calamity", "guard", "stardust"):
        if row.get(key, "") != "":
            out[key] = int(row[key])
    if row.get("location_type"):
        out["location_type"] = row["location_type"]
    if row.get("symbols"):
        out["symbols"] = row["symbols"].split("|")
    mentions = []
    for m in filter(None, row.get("mentions", "").split("|")):
        if m.startswith("駐守"):
            out["garrison"] = int(m[2:])
            m = "駐守"
        mentions.append(m)
    if mentions:
        out["mentions"] = mentions
    return out


def check_row(card, row: dict) -> None:
    assert card.name == row["name"]
    assert card.type == TYPE_SLUG[row["type"]]
    got = {k: v for k, v in card.fields.items() if k in REFERENCE_FIELDS and v != []}
    assert got == expected_fields(row), card.id


def test_totals_and_composition(db, cards):
    dealt = [c for c in cards.values() if c.copies]
    assert sum(c.copies for c in dealt) == 48
    for cult in ("鴉教團", "白狐神社"):
        deck = [c for c in dealt if c.fields.get("cult") == cult]
        kinds = {t: sum(c.copies for c in deck if c.type == t) for t in TYPE_SLUG.values()}
        assert sum(kinds.values()) == 24 and kinds["leader"] == 1 and kinds["ritual"] == 3
    results = composition(db, SLUG)
    assert results and all(r.ok for r in results), [(r.label, r.expected, r.actual) for r in results]
    aids = {c.name: c.count for c in repo.components(db, SLUG) if c.kind == "aid"}
    assert aids == {"玩家幫助卡": 2, "名詞解釋卡": 2}


def test_game_validates_without_errors(db):
    assert [str(p) for p in validate_game(db, SLUG) if p.severity == "error"] == []


@pytest.mark.parametrize("card_id", sorted(REFERENCE_ROWS))
def test_cards_match_the_reference_values(cards, card_id):
    check_row(cards[card_id], REFERENCE_ROWS[card_id])


def test_every_card_matches_the_reference_file(cards):
    with REFERENCE_TSV.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert len(rows) == 48
    for row in rows:
        check_row(cards[row["id"]], row)


def test_no_provisional_value_behind_reference_or_rulebook_provenance(cards):
    for c in cards.values():
        assert c.provenance in ("reference", "rulebook"), c.id
        assert c.source.strip() and c.name_en.strip(), c.id
        designed = set(c.fields) - REFERENCE_FIELDS
        if c.id == "cro07":  # the rulebook quotes 信使's effect (例i): text and effect are facts
            assert c.provisional_fields == [] and "例i" in c.source
            assert c.text == "詠頌：抽1張牌，雙方玩家棄置1張牌。"
            continue
        if c.provenance == "reference":
            assert "reference/accusation-base-box.tsv" in c.source
            assert "text" in c.provisional_fields, c.id
        assert designed <= set(c.provisional_fields), (c.id, designed - set(c.provisional_fields))
    assert "effect" in cards["cro05"].provisional_fields
    assert "requirements" in cards["fox02"].provisional_fields


def test_frenzied_interrogation_is_named_but_not_dealt(cards):
    c = cards["ext01"]
    assert c.copies == 0 and c.provenance == "rulebook" and c.text == "雙方玩家破壞自己場上1個信徒。"
    assert "cult" not in c.fields and "calamity" not in c.fields


def test_card_sizes_are_marked_provisional(db):
    types = repo.card_types(db, SLUG)
    assert {t.slug for t in types} == set(TYPE_SLUG.values())
    assert all(t.size_provisional and t.role == "deck" for t in types)

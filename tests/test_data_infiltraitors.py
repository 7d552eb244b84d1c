"""Infiltraitors (滲透因子) in the shipped cards.db: the rulebook's totals and values.

Rulebook: seeds/003_8ab308f12ac0ccf3.txt (遊戲配件, 進行遊戲, 機密檔案).
"""

from __future__ import annotations

from collections import Counter

import pytest

from pnpforge.store import repo
from pnpforge.validate import ERROR, composition, validate_game

SLUG = "infiltraitors"
NAMED_SUITS = {"紅", "黑", "黃"}  # the only suits the rulebook text names


def test_game_row(db):
    g = repo.get_game(db, SLUG)
    assert (g.title, g.title_en, g.language, g.players_min, g.players_max) == (
        "滲透因子",
        "Infiltraitors",
        "zh-Hant",
        2,
        5,
    )


def test_no_validation_errors_and_composition_adds_up(db):
    assert [str(p) for p in validate_game(db, SLUG) if p.severity == ERROR] == []
    rules = composition(db, SLUG)
    assert rules and all(r.ok for r in rules)
    assert {r.rule: r.expected for r in rules}["cards"] == 70


def test_rulebook_totals(cards):
    by_type = Counter()
    for c in cards.values():
        by_type[c.type] += c.copies
    assert by_type == {"card": 70, "special": 5, "mission": 23}
    numbered = [c for c in cards.values() if c.type == "card"]
    per_suit = Counter(c.fields["suit"] for c in numbered)
    assert len(per_suit) == 5 and set(per_suit.values()) == {14}
    for suit in per_suit:
        assert sorted(c.fields["number"] for c in numbered if c.fields["suit"] == suit) == list(range(2, 16))
    specials = [c for c in cards.values() if c.type == "special"]
    assert sorted(c.fields["suit"] for c in specials) == sorted(per_suit)
    kinds = Counter(c.fields["kind"] for c in cards.values() if c.type == "mission")
    assert kinds == {"任務": 20, "訓練任務": 3}


def test_components(db):
    counts = {c.slug: c.count for c in repo.components(db, SLUG)}
    assert counts == {
        "number-tiles": 9,
        "pointer-tiles": 4,
        "bullet-tiles": 12,
        "card-stands": 5,
        "hint-boards": 5,
        "marker": 1,
        "pistol": 1,
        "gun-stand": 1,
    }


@pytest.mark.parametrize(
    "card_id,suit,number,relates",
    [
        ("R06", "紅", 6, ["2", "3", "12"]),  # the rulebook's example: 3 and 12 relate to 6, 4 not
        ("K02", "黑", 2, ["4", "6", "8", "10", "12", "14"]),
        ("Y13", "黃", 13, []),
        ("R15", "紅", 15, ["3", "5"]),
    ],
)
def test_numbered_cards(cards, card_id, suit, number, relates):
    c = cards[card_id]
    assert (c.fields["suit"], c.fields["number"], c.fields["relates"]) == (suit, number, relates)
    assert c.provenance == "rulebook" and c.source


def test_every_printed_relation_list_is_the_factor_rule(cards):
    for c in cards.values():
        if c.type != "card":
            continue
        n = c.fields["number"]
        want = [m for m in range(2, 16) if m != n and (m % n == 0 or n % m == 0)]
        assert [int(x) for x in c.fields["relates"]] == want, c.id


def test_special_cards_hint_by_suit_only(cards):
    for suit_code in "RKYBG":
        c = cards[f"SP-{suit_code}"]
        assert c.fields["effect"] == "suit_only_hint" and "number" not in c.fields


@pytest.mark.parametrize(
    "card_id,suspects,bullets,suit_count,effect",
    [
        ("M01", 7, 10, 4, None),
        ("M02", 8, 11, 4, "facedown_discard"),
        ("M07", 6, 7, 4, "balanced_hints"),
        ("M09", 9, 12, 5, "small_hand"),
        ("M12", 6, 6, 5, "sole_eliminator"),
        ("M16", 9, 10, 5, "covered_suit"),
        ("M18", 9, 9, 5, "final_suspect_pooled"),
        ("M20", 11, 12, 5, None),
    ],
)
def test_missions(cards, card_id, suspects, bullets, suit_count, effect):
    f = cards[card_id].fields
    assert (f["suspects"], f["bullets"], f["suit_count"], f.get("effect")) == (
        suspects,
        bullets,
        suit_count,
        effect,
    )
    assert len(f["suits"]) == suit_count and (f["number_min"], f["number_max"]) == (2, 15)


def test_mission_details(cards):
    assert (cards["M09"].fields["hand_size"], cards["M09"].fields["hand_limit"]) == (3, 3)
    assert (cards["M01"].fields["hand_size"], cards["M01"].fields["hand_limit"]) == (5, 7)
    assert cards["M03"].fields["number_tiles"] == 8 and cards["M14"].fields["number_tiles"] == 9
    assert cards["M14"].fields["effect"] == "ordered_tiles_facedown"


def test_training_missions(cards):
    t1 = cards["T1"].fields
    assert (t1["suspects"], t1["bullets"], t1["suits"], t1["number_max"]) == (2, 5, ["紅", "黑", "黃"], 13)
    for tid, nsuits in (("T2", 3), ("T3", 4)):
        f = cards[tid].fields
        assert f["suspects_per_agent"] and f["bullets_per_agent"] and f["bullets"] == 3
        assert f["suit_count"] == nsuits and "suspects" not in f
    assert cards["T3"].fields["effect"] == "time_limit"


def test_no_provisional_value_behind_provenance_rulebook(db, cards):
    """Values the rulebook does not give are listed as provisional on rulebook cards."""
    for c in cards.values():
        assert c.provenance == "rulebook" and c.source, c.id
        if "suit" in c.fields and c.fields["suit"] not in NAMED_SUITS:
            # 藍/綠: the rulebook shows those two suits only as icons
            assert {"suit", "name"} <= set(c.provisional_fields), c.id
        if c.type == "mission" and c.fields["suit_count"] < 5 and c.id != "T1":
            # "4 種花色" without saying which: the choice is ours ("全部" needs none)
            assert "suits" in c.provisional_fields, c.id
    assert "suits" not in cards["T1"].provisional_fields  # T1 names its three suits
    # 全部: all five, but the names 藍 and 綠 (icons in the rulebook) are ours: provisional too
    assert "suits" in cards["M05"].provisional_fields
    assert {"suspects", "bullets"} <= set(cards["T1"].provisional_fields)  # a 3-player example
    assert "effect" in cards["M11"].provisional_fields  # 「不可交換信息」 read as no talking
    for mid in ("M08", "M11"):
        assert "指認板塊" in cards[mid].notes  # 4 pointer tiles for up to 5 agents: recorded
    assert {"effect", "text"} <= set(cards["M19"].provisional_fields)  # OCR placed it under M20
    assert "M19" in cards["M20"].notes or "任務十九" in cards["M20"].notes
    for t in repo.card_types(db, SLUG):
        assert t.size_provisional, t.slug  # no size in the rulebook

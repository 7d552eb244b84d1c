"""Top Enforcement Officer (王牌執行官) data in the committed cards.db, checked against the rulebook.

Totals come from the rulebook's component list (遊戲配件) and the objection-card distribution;
a handful of cards are compared value by value with the card lists; and every value the
rulebook does not give must be marked provisional.
"""

from __future__ import annotations

import pytest

from pnpforge.model import fits_card, split_entry
from pnpforge.rules.games.enforcer import make_rules
from pnpforge.rules.kit import load_game
from pnpforge.store import repo
from pnpforge.validate import composition, validate_game

SLUG = "enforcer"


def by_name(cards, card_type: str, name: str):
    found = [c for c in cards.values() if c.type == card_type and c.name == name]
    assert len(found) == 1, f"{card_type} '{name}': {len(found)} cards"
    return found[0]


def copies(cards, card_type: str) -> int:
    return sum(c.copies for c in cards.values() if c.type == card_type)


# ---- the game and its totals -------------------------------------------------------------


def test_game_row(db):
    g = repo.get_game(db, SLUG)
    assert (g.title, g.title_en, g.language) == ("王牌執行官", "Top Enforcement Officer", "zh-Hant")
    assert (g.players_min, g.players_max) == (3, 6)


@pytest.mark.parametrize(
    "card_type,total",
    [("officer", 12), ("execution", 55), ("obligor", 28), ("objection", 9), ("specialty", 3), ("penalty", 6)],
)
def test_rulebook_component_totals(cards, card_type, total):
    assert copies(cards, card_type) == total


def test_objection_distribution(cards):
    dist = {c.name: c.copies for c in cards.values() if c.type == "objection"}
    assert dist == {"異議駁回": 3, "查封錯誤": 2, "限制錯誤": 1, "程序瑕疵": 2, "程序違法": 1}


def test_non_card_components(db):
    counts = {c.name: (c.count, c.kind) for c in repo.components(db, SLUG)}
    assert counts["減分標記卡"][0] == 6
    assert counts["回合卡"] == (1, "aid") and counts["幫助卡"] == (6, "aid")


def test_every_composition_rule_adds_up_and_validation_is_clean(db):
    results = composition(db, SLUG)
    assert results and all(r.ok for r in results), [r.to_dict() for r in results if not r.ok]
    assert [str(p) for p in validate_game(db, SLUG) if p.severity == "error"] == []


def test_officer_families_as_the_rulebook_describes(cards):
    fam = {}
    for c in cards.values():
        if c.type == "officer":
            fam.setdefault(c.fields["family"], set()).add(c.name)
    assert fam["專股"] == {"財稅專股執行官", "健保專股執行官", "罰鍰專股執行官", "費用專股執行官"}
    assert fam["大師"] == {"拍賣大師執行官", "拘提大師執行官", "管收大師執行官"}
    assert {"關懷達人", "談判達人"} <= fam["達人"]


# ---- card by card against the rulebook ---------------------------------------------------


@pytest.mark.parametrize(
    "name,cats,score,difficulty,traits,objections,weakness",
    [
        ("劣質魚羹大盤商", ["稅"], 4, 3, ["聲明異議"], 1, None),
        ("小氣大地主", ["稅"], 4, 5, [], 0, "查封土地"),
        ("詐騙超跑男神", ["稅"], 6, 8, ["矚目"], 0, "查封精品"),
        ("吸金財團董事長", ["稅"], 15, 15, ["大戶", "聲明異議"], 1, None),
        ("獨居老人", ["健"], 2, 4, ["弱勢", "聲明異議"], 1, None),
        ("血汗餐飲業者", ["健"], 2, 6, ["假弱勢"], 0, None),
        ("酒駕者", ["罰"], 3, 4, ["矚目"], 0, "查封車輛"),
        ("機場黃牛", ["罰"], 7, 4, ["聲明異議"], 2, None),
        ("失業青年", ["罰"], 2, 6, ["弱勢"], 0, "轉介輔導"),
        ("黑道酒店大亨", ["罰"], 15, 12, ["大戶", "聲明異議"], 1, None),
        ("ETC欠費者", ["費"], 2, 3, [], 0, None),
        ("洗錢跨國企業", ["費"], 8, 7, ["矚目", "聲明異議"], 1, None),
        ("無照網咖業者", ["稅", "罰"], 3, 4, [], 0, "扣押營收"),
        ("落魄小開", ["稅", "健"], 2, 6, ["假弱勢"], 0, "扣押營收"),
        ("黑心油商", ["罰", "費"], 15, 10, ["大戶"], 0, "扣押營收"),
    ],
)
def test_obligors_match_the_card_lists(cards, name, cats, score, difficulty, traits, objections, weakness):
    c = by_name(cards, "obligor", name)
    f = c.fields
    assert (f["category"], f["score"], f["difficulty"]) == (cats, score, difficulty)
    assert sorted(f.get("traits", [])) == sorted(traits)
    assert f.get("objections", 0) == objections
    if weakness:
        assert cards[f["weakness"]].name == weakness and cards[f["weakness"]].type == "execution"
    else:
        assert "weakness" not in f
    assert c.provenance == "rulebook" and c.source.startswith("卡片介紹—義務人卡")


def test_obligor_special_rules(cards):
    assert by_name(cards, "obligor", "受刑人").fields["effect"] == "immune_restriction"
    assert by_name(cards, "obligor", "黑道酒店大亨").fields["effect"] == "redraw_on_dismissed"


def test_ocr_conflicts_take_the_card_list_and_say_so(cards):
    ship = by_name(cards, "obligor", "惡質航運業者")
    assert ship.fields["difficulty"] == 8 and "18" in ship.notes
    kid = by_name(cards, "obligor", "落魄小開")
    assert "查封精品" in kid.notes  # the layout example's weakness


@pytest.mark.parametrize(
    "name,family,power,effect",
    [
        ("傳繳通知", "一般", 1, "draw"),
        ("查調財產", "一般", 1, "expose"),
        ("釋明法令", "一般", 1, "cancel_objection"),
        ("協助變賣", "一般", 2, "slogan"),
        ("扣押營收", "一般", 2, "not_vs_weak"),
        ("扣押存款", "一般", 3, "extra_objection"),
        ("霹靂執行", "一般", 4, "discard_cost"),
        ("拍賣", "一般", 2, "double_seizure"),
        ("查封土地", "查封", 4, "none"),
        ("拘提", "限制", 4, "requires_card"),
        ("管收", "限制", 6, "discard_restriction_cost"),
        ("獎檢公告", "策略", 2, "bonus_project"),
    ],
)
def test_execution_cards_match_the_rulebook(cards, name, family, power, effect):
    c = by_name(cards, "execution", name)
    assert (c.fields["family"], c.fields.get("power"), c.fields["effect"]) == (family, power, effect)


def test_arrest_requires_the_notice_and_strategy_cards_have_no_power(cards):
    arrest = by_name(cards, "execution", "拘提")
    assert cards[arrest.fields["requires"]].name == "傳繳通知"
    for name in ("協同辦案", "指定專案", "延緩執行", "發布新聞"):
        c = by_name(cards, "execution", name)
        assert c.fields["family"] == "策略" and "power" not in c.fields


def test_specialty_cards_copy_their_execution_cards(cards):
    for sp in (c for c in cards.values() if c.type == "specialty"):
        base = cards[sp.fields["base"]]
        assert base.name == sp.name
        assert (sp.fields["family"], sp.fields["power"], sp.fields["effect"]) == (
            base.fields["family"],
            base.fields["power"],
            base.fields["effect"],
        )
        master = [o for o in cards.values() if o.type == "officer" and o.fields.get("specialty") == sp.id]
        assert len(master) == 1 and master[0].name.startswith(sp.fields["master"])


def test_officers_and_objections_match_the_rulebook(cards):
    tax = by_name(cards, "officer", "財稅專股執行官")
    assert (tax.fields["effect"], tax.fields["category"], tax.fields["effect_value"]) == (
        "specialist",
        "稅",
        1,
    )
    care = by_name(cards, "officer", "關懷達人")
    assert (care.fields["condition"], care.fields["effect_value"]) == ("弱勢", 2)
    assert by_name(cards, "officer", "高手執行官").fields["effect"] == "veto_objection"
    flaw = by_name(cards, "objection", "程序瑕疵")
    assert (flaw.fields["effect"], flaw.fields["effect_value"]) == ("difficulty_up", 2)
    assert not flaw.is_provisional


# ---- honesty: designed values are provisional --------------------------------------------


def test_no_provisional_value_behind_rulebook_provenance(cards):
    for c in cards.values():
        if c.provenance == "rulebook":
            assert c.source.strip(), c.id
        if c.type == "execution" and c.provenance == "rulebook":
            assert "copies" in c.provisional_fields, f"{c.id}: copies are designed"
    designed_cards = ("分期繳納", "關懷訪視")
    for name in designed_cards:
        assert by_name(cards, "execution", name).provenance == "provisional"
    # Named by the rulebook as obligors' weaknesses: name and 查封 family are its, the rest ours.
    for name in ("查封車輛", "查封精品"):
        c = by_name(cards, "execution", name)
        assert c.provenance == "rulebook" and {"power", "effect", "copies"} <= set(c.provisional_fields)
        assert not c.is_value_provisional("family") and not c.is_value_provisional("name")
    # Our readings, marked (issue 24, item 3).
    assert cards["OF-ace"].is_value_provisional("family")
    assert {"weakness", "text"} <= set(cards["OB-16"].provisional_fields)
    assert cards["EX-exit-ban"].is_value_provisional("name")
    for name in ("談判達人", "金牌執行官", "菜鳥執行官"):
        assert "ability" in by_name(cards, "officer", name).provisional_fields
    for name in ("異議駁回", "查封錯誤", "限制錯誤", "程序違法"):
        assert "effect" in by_name(cards, "objection", name).provisional_fields
    for name in ("無德補教業者", "貨運業慣老闆", "毒蟲", "不良回收業者"):  # garbled 費 cards
        assert "difficulty" in by_name(cards, "obligor", name).provisional_fields
    # the track keeps provenance per cell: the rulebook's -1 -3 … X, pnpforge's -6 -10
    pen = cards["PEN"]
    assert pen.fields["track"] == ["-1", "-3", "-6", "-10", "X"]
    assert {"track[3]", "track[4]", "rookie_track"} == set(pen.provisional_fields)
    assert not any(pen.is_cell_provisional("track", i) for i in (0, 1, 4))
    assert by_name(cards, "execution", "限制出境").is_value_provisional("effect")


def test_provisional_fields_name_real_values(db, cards):
    types = {t.slug: t for t in repo.card_types(db, SLUG)}
    attributes = {"copies", "text", "flavor", "art", "name"}
    for c in cards.values():
        known = {f.name for f in types[c.type].fields} | attributes
        assert {split_entry(e)[0] for e in c.provisional_fields} <= known, c.id
        assert all(fits_card(c, e) for e in c.provisional_fields), c.id


def test_sizes_are_marked_provisional(db):
    for t in repo.card_types(db, SLUG):
        assert t.size_provisional and (t.width_mm, t.height_mm) == (63, 88)


def test_every_effect_is_known_to_the_engine(db):
    assert make_rules(load_game(db, "enforcer"), {}).unknown_effects() == []

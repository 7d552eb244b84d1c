"""Dirty Money (洗钱) data in the committed cards.db, checked against the rulebook.

Rulebook: seeds/001_17c75473d138b940.txt (Rule V 1.8).  Totals and sizes are the
rulebook's component list; a handful of cards are compared value by value with the
sections that state them; every designed value must be marked provisional.
"""

from __future__ import annotations

from pnpforge.store import repo
from pnpforge.validate import validate_game
from pnpforge.validate.deck import composition

SLUG = "dirty-money"


def _copies(cards, card_type):
    return sum(c.copies for c in cards.values() if c.type == card_type)


def test_game_row(db):
    g = repo.get_game(db, SLUG)
    assert (g.title, g.language, g.players_min, g.players_max) == ("洗钱", "zh-Hans", 2, 5)
    assert g.title_en.startswith("Dirty Money")


def test_component_totals_match_the_rulebook(cards):
    """组件: 60 处置卡, 6 地点卡, 120 货币卡, 30 动作卡, 5 恶棍卡."""
    assert {t: _copies(cards, t) for t in ("placement", "location", "currency", "action", "villain")} == {
        "placement": 60,
        "location": 6,
        "currency": 120,
        "action": 30,
        "villain": 5,
    }


def test_card_sizes_are_the_rulebooks_facts(db):
    sizes = {t.slug: (t.width_mm, t.height_mm, t.size_provisional) for t in repo.card_types(db, SLUG)}
    assert sizes == {
        "placement": (70, 70, False),
        "location": (70, 70, False),
        "currency": (44, 67, False),
        "action": (44, 67, False),
        "villain": (63, 88, False),
    }


def test_validates_and_every_composition_rule_adds_up(db):
    assert [str(p) for p in validate_game(db, SLUG) if p.severity == "error"] == []
    results = composition(db, SLUG)
    assert results and all(r.ok for r in results), [r.to_dict() for r in results if not r.ok]
    totals = {r.rule: (r.expected, r.provisional) for r in results}
    for rule, n in (("placement", 60), ("location", 6), ("currency", 120), ("action", 30), ("villain", 5)):
        assert totals[rule] == (n, False)
    # The split of the totals is designed, so it must say so.
    for rule in ("placement-eu", "currency-eur", "currency-dirty", "action-inspect"):
        assert totals[rule][1] is True


def test_locations_by_player_count(cards):
    """游戏设定 1: Europe, USA, Japan, Banana Republic always; Black Market 4+; Auction 5."""
    locs = {c.name: c.fields for c in cards.values() if c.type == "location"}
    assert {n: f["min_players"] for n, f in locs.items()} == {
        "欧洲": 2,
        "美国": 2,
        "日本": 2,
        "香蕉共和国": 2,
        "黑市": 4,
        "拍卖行": 5,
    }
    assert locs["欧洲"] == {
        "effect": "region_market",
        "min_players": 2,
        "region": "欧洲",
        "currency": "EUR",
        "display": 2,
        "buy_limit": 2,
    }
    assert (locs["日本"]["currency"], locs["美国"]["currency"]) == ("JPY", "USD")
    assert (locs["拍卖行"]["display"], locs["拍卖行"]["buy_limit"]) == (3, 1)
    assert (locs["黑市"]["display"], locs["黑市"]["buy_limit"]) == (0, 1)
    assert locs["香蕉共和国"]["effect"] == "banana_republic"
    assert all(
        c.provenance == "rulebook" and not c.provisional_fields
        for c in cards.values()
        if c.type == "location"
    )


def test_villains_value_by_value(cards):
    """恶棍卡效果: the five abilities and their numbers; only the Launderer's number is printed."""
    v = {c.name: c for c in cards.values() if c.type == "villain"}
    assert {n: (c.fields["effect"], c.fields["effect_value"]) for n, c in v.items()} == {
        "洗钱者": ("launderer", 1),
        "贪污鼠": ("embezzler", 2),
        "黑道狐": ("crypto_fox", 5),
        "华尔街之熊": ("wall_street_bear", 3),
        "高利贷白鲨": ("loan_shark", 2),
    }
    assert v["洗钱者"].fields["order"] == 1 and "order" not in v["洗钱者"].provisional_fields
    for name in ("贪污鼠", "黑道狐", "华尔街之熊", "高利贷白鲨"):
        assert "order" in v[name].provisional_fields
    assert "Al Capone" in v["洗钱者"].flavor


def test_placement_kinds_value_by_value(cards):
    """处置卡效果: ten kinds, their numbers, and the art table 2/5/9/14/20."""
    by_kind: dict[str, set] = {}
    for c in cards.values():
        if c.type == "placement":
            by_kind.setdefault(c.fields["effect"], set()).add(c.fields.get("effect_value"))
    assert by_kind == {
        "art": {None},
        "art_gallery": {1},
        "accounting_firm": {2},
        "casino": {1},
        "crypto_exchange": {1},
        "charity": {2},
        "digital_bank": {1},
        "law_firm": {2},
        "remittance": {3},
        "restaurant_chain": {1},
    }
    arts = [c for c in cards.values() if c.type == "placement" and c.fields["effect"] == "art"]
    assert {c.fields["set_scores"] for c in arts} == {"2,5,9,14,20"}
    regions = {c.fields["region"] for c in cards.values() if c.type == "placement"}
    assert regions == {"欧洲", "日本", "美国"}


def test_restaurant_example_fits_the_designed_points(cards):
    """The rulebook's example (1 日本餐厅连锁店 + 3 other 日本 cards) totals 5: 4 + 1 printed."""
    jp_restaurants = [
        c
        for c in cards.values()
        if c.type == "placement" and c.fields["effect"] == "restaurant_chain" and c.fields["region"] == "日本"
    ]
    assert jp_restaurants
    assert all(c.fields["points"] + 4 * c.fields["effect_value"] == 5 for c in jp_restaurants)


def test_currency_and_actions(cards):
    """Crypto is worth 3 and counts as any currency; the named action cards and their numbers."""
    crypto = [c for c in cards.values() if c.type == "currency" and c.fields["currency"] == "CRYPTO"]
    assert crypto and {c.fields["value"] for c in crypto} == {3}
    assert all(c.provenance == "rulebook" and "copies" in c.provisional_fields for c in crypto)
    currencies = {c.fields["currency"] for c in cards.values() if c.type == "currency"}
    assert currencies == {"EUR", "JPY", "USD", "CRYPTO"}
    assert any(c.fields["dirty"] for c in cards.values() if c.type == "currency")
    acts = {c.name: c for c in cards.values() if c.type == "action"}
    assert acts["检查：左右玩家"].fields == {"kind": "检查", "effect": "inspect_neighbours", "amount": 1}
    assert acts["审计：最脏钱"].fields["effect"] == "audit_most_dirty"
    assert acts["交易"].fields["effect"] == "trade" and acts["贿赂"].fields["effect"] == "bribe"
    assert {c.fields["kind"] for c in acts.values()} == {"检查", "审核", "交易", "贿赂"}


def test_no_provisional_value_behind_rulebook_provenance(cards):
    """The rulebook lists no placement cost/region/points and no currency values."""
    for c in cards.values():
        if c.type == "placement":
            assert c.provenance == "rulebook" and c.source.startswith("处置卡效果"), c.id
            assert {"cost", "region", "points", "copies", "name"} <= set(c.provisional_fields), c.id
        elif c.type == "currency" and c.fields["currency"] != "CRYPTO":
            # the currency is the rulebook's (货币卡: 欧元，日元或美元); value, dirty and copies are ours
            assert c.provenance == "rulebook" and not c.is_value_provisional("currency"), c.id
            assert {"value", "dirty", "copies"} <= set(c.provisional_fields), c.id
        elif c.type == "action":
            assert c.provenance == "provisional" or "copies" in c.provisional_fields, c.id
        if c.provenance == "rulebook":
            assert c.source.strip(), c.id


def test_components_glossary_and_rules(db):
    comps = {c.slug: (c.kind, c.count) for c in repo.components(db, SLUG)}
    assert comps["first-player-marker"] == ("marker", 1)
    terms = {g.term for g in repo.glossary(db, SLUG)}
    assert {"黑钱", "黑名单", "检查", "审核", "交易", "贿赂", "加密货币"} <= terms
    kinds = {r.kind for r in repo.rule_sections(db, SLUG)}
    assert {"overview", "setup", "turn", "actions", "end", "scoring", "variants", "faq"} <= kinds

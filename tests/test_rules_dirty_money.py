"""Dirty Money (洗钱) rules engine: the rulebook's worked examples, FAQ and random play.

Positions are built from a real set-up (copy of cards.db, first chance outcome each time)
and then arranged with `state.place` / `state.clear`, which keep every card in one zone.
Values a test depends on are pinned in the test's private database copy, so the designed
(provisional) card values can change without breaking what the rulebook says.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.dirty_money import DirtyMoneyState, art_set_score, make_rules
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db, transaction

SLUG = "dirty-money"


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def pin(db, card_id: str, **fields) -> None:
    """Set field values on a card of the private database copy."""
    card = repo.get_card(db, SLUG, card_id)
    card.fields.update(fields)
    with transaction(db) as conn:
        repo.update_card(conn, card)


def start(rules, players: int, villains: tuple[str, ...] | None = None) -> DirtyMoneyState:
    """Set-up with the first chance outcome everywhere (villains as asked) up to turn one."""
    s = rules.new_initial_state(players, random.Random(0))
    while s.phase() != "turn" or s.current_player() == CHANCE:
        f = s.stack[-1]
        s.apply(villains[f.seat] if f.kind == "deal_villain" and villains else s.legal_actions()[0])
    return s


def fill(s: DirtyMoneyState, zone: str, *card_ids: str) -> None:
    s.clear(zone)
    for cid in card_ids:
        s.place(cid, zone)


def ids(s: DirtyMoneyState, zone: str) -> list[str]:
    return sorted(c.card for c in s.cards(zone))


def seat_of(s: DirtyMoneyState, villain: str) -> int:
    return s.villain_of.index(villain)


def finish_turn(s: DirtyMoneyState, go: str | None = None) -> None:
    """Play the current turn declining every option, up to the next player's first decision."""
    turn = next((f for f in reversed(s.stack) if f.kind == "turn"), None)
    if go:
        s.apply(("go", go))
    while not s.is_terminal():
        if not any(f is turn for f in s.stack) and s.phase() == "turn" and s.current_player() != CHANCE:
            return
        legal = s.legal_actions()
        choice = next((a for a in (("done",), ("skip",)) if a in legal), legal[0])
        s.apply(choice)


def ensure_in(s: DirtyMoneyState, zone: str, card_id: str) -> None:
    """Make sure a copy of card_id lies in zone (e.g. so a chance draw can pick it)."""
    if card_id not in ids(s, zone):
        s.place(card_id, zone)


def until_turn_of(s: DirtyMoneyState, seat: int) -> None:
    while s.current_player() != seat:
        finish_turn(s)


# ---- set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players, extra", [(2, set()), (3, set()), (4, {"黑市"}), (5, {"黑市", "拍卖行"})])
def test_setup_by_player_count(db, players, extra):
    rules = make_rules(db, {})
    s = start(rules, players)
    assert {loc.name for loc in s.in_play} == {"欧洲", "美国", "日本", "香蕉共和国"} | extra
    first = s.current_player()
    assert first == s.marker
    orders = [rules.villains[v].order for v in s.villain_of]
    assert orders[first] == min(orders)  # lowest villain number starts
    last = (first - 1) % players
    hands = [len(s.cards(f"hand:{q}")) for q in range(players)]
    assert hands[last] == 4 and all(h == 3 for q, h in enumerate(hands) if q != last)
    assert not any(
        rules.money[c.card].is_action for q in range(players) for c in s.cards(f"hand:{q}")
    )  # no action card dealt
    assert all(len(s.cards(f"spot:{loc.id}")) == 2 for loc in s.in_play)
    assert all(len(s.cards(f"display:{r}")) == 2 for r in ("欧洲", "日本", "美国"))
    if players == 5:
        assert sorted(rules.placements[c.card].region for c in s.cards("auction")) == sorted(
            ["欧洲", "日本", "美国"]
        )
        assert len(s.cards("bear")) == 3  # all five villains are dealt
    else:
        assert not s.cards("auction")


def test_selection_mode_shows_three_cards_per_region(db):
    s = start(make_rules(db, {"selection": True}), 5)
    assert all(len(s.cards(f"display:{r}")) == 3 for r in ("欧洲", "日本", "美国"))
    assert len(s.cards("auction")) == 3  # the auction house is unchanged


# ---- buying (游戏玩法—执行地点动作) -------------------------------------------------------------


def _paying_position(db):
    pin(db, "US-ART-4", cost=7)
    pin(db, "US-ART-5", cost=8)
    pin(db, "USD-5D", value=5)
    s = start(make_rules(db, {}), 2, ("V3", "V4"))
    p = s.current_player()
    fill(s, f"hand:{p}", "USD-5D", "USD-5D", "USD-5D")
    fill(s, "display:美国", "US-ART-4", "US-ART-5")
    fill(s, "spot:LOC-US", "JPY-1")
    s.apply(("go", "LOC-US"))
    return s, p


def test_paying_example_three_fives_buy_a_seven_and_an_eight_together(db):
    s, p = _paying_position(db)
    assert s.phase() == "buy"
    s.apply(("pick", "US-ART-4"))
    s.apply(("pick", "US-ART-5"))
    for _ in range(3):
        assert ("settle",) not in s.legal_actions()
        s.apply(("pay", "USD-5D", 0))
    assert ("pay", "JPY-1", 0) not in s.legal_actions()  # yen cannot pay in the USA
    s.apply(("settle",))
    assert ids(s, f"tableau:{p}") == ["US-ART-4", "US-ART-5"]
    assert ids(s, f"hand:{p}") == ["JPY-1"]
    assert ids(s, "discard") == ["USD-5D"] * 3


def test_paying_separately_would_not_buy_both(db):
    """Paying $7 with two $5 notes leaves $5: no change, and too little for the $8 card."""
    s, p = _paying_position(db)
    s.apply(("pick", "US-ART-4"))
    s.apply(("pay", "USD-5D", 0))
    s.apply(("pay", "USD-5D", 0))
    s.apply(("settle",))
    assert ids(s, f"hand:{p}") == ["JPY-1", "USD-5D"]  # the $3 overpaid is gone
    assert s.legal_actions() == [("done",)]


def test_crypto_exchange_bought_first_discounts_the_second_card(db):
    pin(db, "EU-CRY-1", cost=5)
    pin(db, "EU-ART-1", cost=5)
    pin(db, "EUR-5", value=5)
    pin(db, "EUR-4", value=4)
    rules = make_rules(db, {})
    states = []
    for first in ("EU-CRY-1", "EU-ART-1"):
        s = start(rules, 2, ("V3", "V4"))
        p = s.current_player()
        fill(s, f"hand:{p}", "EUR-5", "EUR-4")  # $9
        fill(s, "display:欧洲", "EU-CRY-1", "EU-ART-1")
        fill(s, "spot:LOC-EU", "JPY-1")
        s.apply(("go", "LOC-EU"))
        s.apply(("pick", first))
        states.append((s, p))
    (s, p), (t, _q) = states
    ex, art = rules.placements["EU-CRY-1"], rules.placements["EU-ART-1"]
    assert s.due(p, [ex, art]) == 9 and s.due(p, [art, ex]) == 10
    assert ("pick", "EU-ART-1") in s.legal_actions()  # exchange first: $9 is enough
    assert ("pick", "EU-CRY-1") not in t.legal_actions()  # art first: $10 is too much
    s.apply(("pick", "EU-ART-1"))
    s.apply(("pay", "EUR-5", 0))
    s.apply(("pay", "EUR-4", 0))
    s.apply(("settle",))
    assert ids(s, f"tableau:{p}") == ["EU-ART-1", "EU-CRY-1"]
    later = rules.placements["EU-ART-2"]
    assert s.due(p, [later]) == later.cost - 1  # every later purchase too
    jp = rules.placements["JP-ART-1"]
    assert s.due(p, [jp]) == jp.cost  # but only in its own region


# ---- placement-card effects and scoring -----------------------------------------------------


def test_art_set_table(db):
    rules = make_rules(db, {})
    assert rules.art_table == (2, 5, 9, 14, 20)
    assert [art_set_score(k, rules.art_table) for k in range(8)] == [0, 2, 5, 9, 14, 20, 22, 25]
    assert art_set_score(10, rules.art_table) == 40
    s = start(rules, 2)
    fill(s, "tableau:0", "EU-ART-1", "JP-ART-1", "US-ART-1")  # art from different places
    assert s.score_breakdown(0)["art"] == 9


def test_restaurant_chain_example_scores_five(db):
    """1 日本餐厅连锁店 + 3 other 日本 cards: 4 from the effect, with its printed point 5."""
    rules = make_rules(db, {})
    s = start(rules, 2)
    fill(s, "tableau:0", "JP-RES-1", "JP-LAW-1", "JP-CAS-1", "JP-ACC-1", "EU-ART-1")
    b = s.score_breakdown(0)
    assert b["restaurant_chain"] == 4
    assert b["restaurant_chain"] + rules.placements["JP-RES-1"].points == 5


def test_accounting_firm_takes_a_discard_after_an_audit(db):
    """The rulebook's example: after an audit a discard goes under the firm, 2 points each."""
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    o = 1 - p
    fill(s, f"tableau:{p}", "EU-ACC-1")
    fill(s, f"hand:{o}", "EUR-5D", "EUR-1")
    fill(s, "discard", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "ACT-AUD-MD")
    s.apply(("go", "LOC-BR"))
    assert s.legal_actions() == [("resolve", "ACT-AUD-MD")]
    s.apply(("resolve", "ACT-AUD-MD"))
    assert len(s.cards(f"blacklist:{o}")) == 1  # 2 players: one dirty mark is enough
    assert len(s.cards("under:EU-ACC-1#0")) == 1
    assert s.score_breakdown(p)["accounting_firm"] == 2
    # The resolved card went to the discard pile, whose top then went under the firm.
    assert not s.cards("resolving") and ids(s, "under:EU-ACC-1#0") == ["ACT-AUD-MD"]


def test_two_player_audit_spares_a_clean_hand(db):
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    fill(s, f"hand:{1 - p}", "EUR-1", "EUR-2")
    fill(s, "spot:LOC-BR", "ACT-AUD-MD")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-AUD-MD"))
    assert not s.cards(f"blacklist:{1 - p}")


def test_audits_with_more_players(db):
    """最脏钱: every other player tied on the most marks; the threshold audit: all at 2+."""
    s = start(make_rules(db, {}), 4)
    p = s.current_player()
    a, b, c = [(p + i) % 4 for i in (1, 2, 3)]
    fill(s, f"hand:{a}", "EUR-5D", "EUR-4D")
    fill(s, f"hand:{b}", "JPY-5D", "JPY-4D", "JPY-1")
    fill(s, f"hand:{c}", "USD-5D")
    fill(s, f"hand:{p}", "USD-4D", "USD-3D", "USD-2D")  # the auditor's own hand is not shown
    fill(s, "discard", "EUR-1", "EUR-1", "EUR-1", "EUR-1")
    fill(s, "spot:LOC-BR", "ACT-AUD-MD", "ACT-AUD-2")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-AUD-MD"))
    assert [len(s.cards(f"blacklist:{q}")) for q in (p, a, b, c)] == [0, 1, 1, 0]
    fill(s, f"hand:{c}", "USD-5D", "USD-4D")
    s.apply(("resolve", "ACT-AUD-2"))
    assert [len(s.cards(f"blacklist:{q}")) for q in (p, a, b, c)] == [0, 2, 2, 1]


def test_blacklist_penalties_lowest_free_highest_minus_two_ties_share():
    bp = DirtyMoneyState.blacklist_penalties
    assert bp([0, 3, 5]) == [0, -3, -7]
    assert bp([1, 2, 3]) == [0, -2, -5]
    assert bp([2, 2, 4, 4]) == [0, 0, -6, -6]
    assert bp([3, 3]) == [0, 0]


def test_charity_discards_blacklist_points_before_the_comparison(db):
    rules = make_rules(db, {})
    s = start(rules, 2)
    fill(s, "tableau:0", "EU-CHA-1")
    fill(s, "blacklist:0", "EUR-1", "EUR-1", "EUR-1")  # 3 − 2 = 1
    fill(s, "blacklist:1", "EUR-2", "EUR-2")  # 2: now the highest
    fill(s, "hand:0")
    fill(s, "hand:1")
    printed = rules.placements["EU-CHA-1"].points
    assert s.returns() == [float(printed), -4.0]
    assert s.scores_from_rules() == s.returns()


def test_remittance_digital_bank_casino_and_law_firm(db):
    rules = make_rules(db, {})
    s = start(rules, 2)
    fill(s, "tableau:0", "EU-REM-1", "JP-ART-1", "US-ART-1", "EU-ART-1", "JP-LAW-1")
    assert s.score_breakdown(0)["remittance"] == 3  # one US+EU+JP set
    s.place("JP-REM-1", "tableau:0")
    assert s.score_breakdown(0)["remittance"] == 6  # each firm scores the same set
    s.place("EU-BNK-1", "tableau:0")
    fill(s, "hand:0", "EUR-1", "EUR-2", "EUR-3", "JPY-1")
    assert s.score_breakdown(0)["digital_bank"] == 4
    assert s.hand_limit(0) == 8
    s.place("EUR-4", "under:JP-LAW-1#0")
    assert s.score_breakdown(0)["law_firm"] == 2
    assert s.returns() == s.scores_from_rules()


def test_casino_tucks_for_each_purchase_in_its_region(db):
    pin(db, "US-ART-1", cost=4)
    pin(db, "USD-4", value=4)
    s = start(make_rules(db, {}), 2, ("V3", "V4"))
    p = s.current_player()
    fill(s, f"tableau:{p}", "US-CAS-1")
    fill(s, f"hand:{p}", "USD-4")
    fill(s, "display:美国", "US-ART-1")
    fill(s, "spot:LOC-US", "JPY-1")
    s.apply(("go", "LOC-US"))
    s.apply(("pick", "US-ART-1"))
    s.apply(("pay", "USD-4", 0))
    s.apply(("settle",))
    assert ids(s, "under:US-CAS-1#0") == ["USD-4"]  # the note just paid is the discard
    assert s.score_breakdown(p)["casino"] == 1


def test_art_gallery_draws_a_card_per_art_bought(db):
    pin(db, "EU-ART-1", cost=3)
    pin(db, "EUR-3", value=3)
    s = start(make_rules(db, {}), 2, ("V3", "V4"))
    p = s.current_player()
    fill(s, f"tableau:{p}", "EU-GAL-1")
    fill(s, f"hand:{p}", "EUR-3")
    fill(s, "display:欧洲", "EU-ART-1")
    fill(s, "spot:LOC-EU", "JPY-1")
    ensure_in(s, "money_deck", "ACT-BRB")
    s.apply(("go", "LOC-EU"))
    s.apply(("pick", "EU-ART-1"))
    s.apply(("pay", "EUR-3", 0))
    s.apply(("settle",))
    assert s.current_player() == CHANCE and "ACT-BRB" in s.legal_actions()
    s.apply("ACT-BRB")  # an action card is resolved at once
    assert "ACT-BRB" in ids(s, "discard") and ids(s, f"hand:{p}") == ["JPY-1"]


# ---- action cards ---------------------------------------------------------------------------


def test_inspection_two_player_draws_two_from_the_opponent(db):
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    o = 1 - p
    fill(s, f"tableau:{p}", "EU-LAW-1")
    fill(s, f"hand:{p}")
    fill(s, f"hand:{o}", "EUR-5D", "EUR-1", "JPY-2")
    fill(s, "discard", "USD-1", "USD-1")
    fill(s, "spot:LOC-BR", "ACT-INS-LR")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-INS-LR"))
    assert s.current_player() == CHANCE
    assert s.legal_actions() == ["EUR-1", "EUR-5D", "JPY-2"]
    s.apply("EUR-5D")  # dirty: taken, opponent blacklisted
    assert ids(s, f"hand:{p}") == ["EUR-5D"] and len(s.cards(f"blacklist:{o}")) == 1
    assert s.legal_actions() == ["EUR-1", "JPY-2"]
    s.apply("EUR-1")  # clean: handed back
    assert s.current_player() != CHANCE  # two cards in all
    assert ids(s, f"hand:{o}") == ["EUR-1", "JPY-2"]
    assert len(s.cards("under:EU-LAW-1#0")) == 1  # law firm: a discard per inspection


def test_inspection_with_three_players_takes_one_from_each_neighbour(db):
    s = start(make_rules(db, {}), 3)
    p = s.current_player()
    left, right = (p - 1) % 3, (p + 1) % 3
    fill(s, f"hand:{left}", "EUR-1", "EUR-2")
    fill(s, f"hand:{right}", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "ACT-INS-LR")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-INS-LR"))
    pools = []
    while s.current_player() == CHANCE:
        pools.append(tuple(s.legal_actions()))
        s.apply(s.legal_actions()[0])
    assert sorted(pools) == [("EUR-1", "EUR-2"), ("JPY-1", "JPY-2")]


def test_inspect_any_player_chooses_the_target(db):
    s = start(make_rules(db, {}), 3)
    p = s.current_player()
    target = (p + 2) % 3
    fill(s, f"hand:{target}", "EUR-5D", "JPY-5D", "USD-1")
    fill(s, "discard", "EUR-1", "EUR-1")  # blacklist cards come from here
    fill(s, "spot:LOC-BR", "ACT-INS-ONE")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-INS-ONE"))
    assert s.legal_actions() == sorted(("target", q) for q in range(3) if q != p)
    s.apply(("target", target))
    draws = 0
    while s.current_player() == CHANCE:
        s.apply("EUR-5D" if "EUR-5D" in s.legal_actions() else s.legal_actions()[0])
        draws += 1
    assert draws == 2


def test_trade_swaps_one_chosen_card_each_way(db):
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    o = 1 - p
    fill(s, f"hand:{p}", "EUR-1")
    fill(s, f"hand:{o}", "USD-5", "JPY-3")
    fill(s, "spot:LOC-BR", "ACT-TRD")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-TRD"))
    assert s.legal_actions() == [("trade", o, "JPY-3", "EUR-1"), ("trade", o, "USD-5", "EUR-1")]
    s.apply(("trade", o, "USD-5", "EUR-1"))
    assert ids(s, f"hand:{p}") == ["USD-5"] and ids(s, f"hand:{o}") == ["EUR-1", "JPY-3"]


def test_trade_with_an_empty_hand_only_looks(db):
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    fill(s, f"hand:{p}")
    fill(s, f"hand:{1 - p}", "USD-5")
    fill(s, "spot:LOC-BR", "ACT-TRD")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-TRD"))
    assert s.legal_actions() == [("trade", 1 - p, "", "")]
    s.apply(("trade", 1 - p, "", ""))
    assert ids(s, f"hand:{1 - p}") == ["USD-5"]


def test_bribe_and_banana_republic_drop_blacklist_cards_and_take_the_marker(db):
    s = start(make_rules(db, {}), 2)
    first = s.current_player()
    second = 1 - first
    finish_turn(s, go="LOC-EU")
    assert s.current_player() == second
    fill(s, f"blacklist:{second}", "EUR-1", "EUR-1", "EUR-1")
    fill(s, "spot:LOC-BR", "ACT-BRB")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-BRB"))
    assert len(s.cards(f"blacklist:{second}")) == 2
    assert s.legal_actions() == [("banana",), ("skip",)]
    s.apply(("banana",))
    assert len(s.cards(f"blacklist:{second}")) == 1 and s.marker == second
    finish_turn(s)
    assert s.round_number == 2 and s.current_player() == second  # first in the next round


# ---- turn structure and FAQ -------------------------------------------------------------------


def test_faq_empty_locations_are_closed_and_every_card_is_taken(db):
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    before = ids(s, f"hand:{p}")
    fill(s, "spot:LOC-JP")
    fill(s, "spot:LOC-EU", "EUR-1", "EUR-2", "ACT-BRB", "ACT-TRD")
    assert ("go", "LOC-JP") not in s.legal_actions()
    s.apply(("go", "LOC-EU"))
    assert ids(s, f"hand:{p}") == sorted(before + ["EUR-1", "EUR-2"])
    # 常见问题 4: several action cards, resolved in the order the player picks.
    assert s.legal_actions() == [("resolve", "ACT-BRB"), ("resolve", "ACT-TRD")]


def test_hand_limit_sends_the_excess_to_the_blacklist(db):
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    fill(s, f"hand:{p}", "EUR-1", "EUR-2", "EUR-3", "EUR-4", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "USD-1", "USD-2", "USD-3", "ACT-BRB")  # actions do not count
    s.apply(("go", "LOC-BR"))
    assert s.phase() == "hand_limit" and s.current_player() == p
    s.apply(("overflow", "JPY-1"))
    s.apply(("overflow", "USD-3"))
    assert len(s.cards(f"hand:{p}")) == 7 and ids(s, f"blacklist:{p}") == ["JPY-1", "USD-3"]
    assert s.phase() == "resolve_actions"
    with pytest.raises(RuleViolation):
        s.apply(("overflow", "EUR-1"))


def test_digital_bank_raises_the_hand_limit(db):
    s = start(make_rules(db, {}), 2)
    p = s.current_player()
    fill(s, f"tableau:{p}", "EU-BNK-1")
    fill(s, f"hand:{p}", "EUR-1", "EUR-2", "EUR-3", "EUR-4", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "USD-1", "USD-2", "USD-3")
    s.apply(("go", "LOC-BR"))
    s.apply(s.legal_actions()[0])
    assert len(s.cards(f"hand:{p}")) == 8 and s.phase() != "hand_limit"


def test_round_end_refills_locations_and_displays(db):
    s = start(make_rules(db, {}), 2)
    fill(s, "spot:LOC-US", "EUR-1", "EUR-1", "EUR-1", "EUR-1")  # full: stays at 4
    finish_turn(s, go="LOC-EU")
    finish_turn(s, go="LOC-JP")
    assert s.round_number == 2
    sizes = {loc: len(s.cards(f"spot:{loc}")) for loc in ("LOC-EU", "LOC-JP", "LOC-US", "LOC-BR")}
    assert sizes == {"LOC-EU": 2, "LOC-JP": 2, "LOC-US": 4, "LOC-BR": 3}
    assert all(len(s.cards(f"display:{r}")) == 2 for r in ("欧洲", "日本", "美国"))


def test_last_players_extra_card_only_at_setup(db):
    s = start(make_rules(db, {}), 3)
    for _ in range(2):
        finish_turn(s, go="LOC-EU" if ("go", "LOC-EU") in s.legal_actions() else None)
    turn = next(f for f in reversed(s.stack) if f.kind == "turn")
    s.apply(("go", "LOC-JP"))
    while any(f is turn for f in s.stack):
        legal = s.legal_actions()
        s.apply(next((a for a in (("done",), ("skip",)) if a in legal), legal[0]))
    hands = [ids(s, f"hand:{q}") for q in range(3)]
    while s.phase() != "turn" or s.current_player() == CHANCE:
        s.apply(s.legal_actions()[0])  # the refill's draws
    assert s.round_number == 2 and [ids(s, f"hand:{q}") for q in range(3)] == hands


@pytest.mark.parametrize("quick", [False, True])
def test_reaching_the_target_ends_the_game_after_the_round(db, quick):
    pin(db, "EU-ART-1", cost=1)
    pin(db, "EUR-1", value=1)
    rules = make_rules(db, {"quick": quick})
    target = 8 if quick else 10
    s = start(rules, 3)
    p = s.current_player()
    others = [c for c in rules.placements if c != "EU-ART-1"][: target - 1]
    fill(s, f"tableau:{p}", *others)
    fill(s, f"hand:{p}", "EUR-1")
    fill(s, "display:欧洲", "EU-ART-1")
    fill(s, "spot:LOC-EU", "JPY-1")
    s.apply(("go", "LOC-EU"))
    s.apply(("pick", "EU-ART-1"))
    s.apply(("pay", "EUR-1", 0))
    s.apply(("settle",))
    finish_turn(s)
    assert len(s.cards(f"tableau:{p}")) == target and not s.is_terminal()
    finish_turn(s)  # everyone else still plays
    assert not s.is_terminal()
    finish_turn(s)
    assert s.is_terminal() and s.end_reason() == "placement target"
    assert s.returns() == s.scores_from_rules()


def test_one_short_of_the_target_plays_on(db):
    rules = make_rules(db, {})
    s = start(rules, 2)
    fill(s, "tableau:0", *list(rules.placements)[:9])
    finish_turn(s)
    finish_turn(s)
    assert not s.is_terminal() and s.round_number == 2


def test_tie_breakers_money_in_hand_then_last_to_play(db):
    pin(db, "EUR-1", value=1)
    pin(db, "EUR-5", value=5)
    s = start(make_rules(db, {}), 3)
    order = s.round_order
    for q in range(3):
        fill(s, f"hand:{q}", "EUR-1")
    assert s.returns() == [0.0, 0.0, 0.0]
    assert s.winners() == [order[-1]]  # all tied: the last to play wins
    fill(s, f"hand:{order[0]}", "EUR-5")
    assert s.winners() == [order[0]]  # more money left wins first


# ---- villains ---------------------------------------------------------------------------------


def test_launderer_draws_past_action_cards_and_discards_one(db):
    s = start(make_rules(db, {}), 2, ("V1", "V3"))
    p = seat_of(s, "V1")
    until_turn_of(s, p)
    s.apply(("go", "LOC-EU"))
    while s.phase() != "launder":
        legal = s.legal_actions()
        s.apply(next((a for a in (("done",), ("skip",)) if a in legal), legal[0]))
    hand = ids(s, f"hand:{p}")
    assert s.legal_actions() == [("launder",), ("skip",)]
    s.apply(("launder",))
    ensure_in(s, "money_deck", "ACT-TRD")
    s.apply("ACT-TRD")  # an action card: discarded, draw again
    assert s.current_player() == CHANCE and "ACT-TRD" in ids(s, "discard")
    ensure_in(s, "money_deck", "EUR-3")
    s.apply("EUR-3")
    assert ids(s, f"hand:{p}") == sorted(hand + ["EUR-3"])
    assert s.legal_actions() == [("launder_discard", c) for c in sorted(set(hand + ["EUR-3"]))]
    s.apply(("launder_discard", "EUR-3"))  # may drop the card just drawn
    assert ids(s, f"hand:{p}") == hand


def test_embezzler_files_a_discard_for_each_overpay_of_two(db):
    for cid in ("US-ART-1", "US-ART-2"):
        pin(db, cid, cost=3)
    pin(db, "USD-5", value=5)
    pin(db, "USD-4", value=4)
    s = start(make_rules(db, {}), 2, ("V2", "V3"))
    p = seat_of(s, "V2")
    until_turn_of(s, p)
    fill(s, f"hand:{p}", "USD-5", "USD-4")
    fill(s, "display:美国", "US-ART-1", "US-ART-2")
    fill(s, "spot:LOC-US", "JPY-1")
    s.apply(("go", "LOC-US"))
    s.apply(("pick", "US-ART-1"))
    s.apply(("pay", "USD-5", 0))  # $2 over
    s.apply(("settle",))
    assert len(s.cards(f"overpay:{p}")) == 1
    s.apply(("pick", "US-ART-2"))
    s.apply(("pay", "USD-4", 0))  # $1 over: nothing
    s.apply(("settle",))
    assert len(s.cards(f"overpay:{p}")) == 1
    assert s.score_breakdown(p)["overpay"] == 1


def test_fox_values_crypto_at_five(db):
    s = start(make_rules(db, {}), 2, ("V3", "V2"))
    fox = seat_of(s, "V3")
    assert s.pay_value(fox, "CRYPTO-3", "JPY") == 5
    assert s.pay_value(1 - fox, "CRYPTO-3", "EUR") == 3
    assert s.pay_value(1 - fox, "EUR-3", "JPY") == 0


def test_wall_street_bear_buys_alone_from_the_banana_republic(db):
    rules = make_rules(db, {})
    s = start(rules, 2, ("V4", "V3"))
    bear = seat_of(s, "V4")
    assert len(s.cards("bear")) == 3 and len(s.cards("pdeck:日本")) == 20 - 2 - 3
    other = 1 - bear
    until_turn_of(s, other)
    s.apply(("go", "LOC-BR"))
    while s.phase() != "location":
        s.apply(s.legal_actions()[0])
    s.apply(("skip",))
    assert s.phase() != "buy"  # only the bear may buy here
    until_turn_of(s, bear)
    for cid in ("CRYPTO-3", "CRYPTO-3", "CRYPTO-3"):
        s.place(cid, f"hand:{bear}")
    s.place("EUR-1", "spot:LOC-BR")
    s.apply(("go", "LOC-BR"))
    while s.phase() != "location":
        s.apply(s.legal_actions()[0])
    s.apply(("banana",))
    assert s.phase() == "buy"
    picks = {a[1] for a in s.legal_actions() if a[0] == "pick"}
    assert picks and picks <= set(ids(s, "bear"))
    s.apply(("pick", sorted(picks)[0]))
    while ("settle",) not in s.legal_actions():
        s.apply(next(a for a in s.legal_actions() if a[0] == "pay"))
    s.apply(("settle",))
    assert s.phase() != "buy"  # one card a visit
    finish_turn(s)
    assert len(s.cards("bear")) == 2  # never refilled


def test_loan_shark_uses_any_card_as_two_once_per_turn(db):
    for cid in ("US-ART-1", "US-ART-2"):
        pin(db, cid, cost=2)
    pin(db, "JPY-3", value=3)
    s = start(make_rules(db, {}), 2, ("V5", "V3"))
    p = seat_of(s, "V5")
    until_turn_of(s, p)
    fill(s, f"hand:{p}", "JPY-3", "EUR-1")
    fill(s, "display:美国", "US-ART-1", "US-ART-2")
    fill(s, "spot:LOC-US", "JPY-1")
    s.apply(("go", "LOC-US"))
    s.apply(("pick", "US-ART-1"))
    pays = [a for a in s.legal_actions() if a[0] == "pay"]
    assert ("pay", "JPY-3", 1) in pays and ("pay", "JPY-3", 0) not in pays
    s.apply(("pay", "JPY-3", 1))
    s.apply(("settle",))
    assert s.legal_actions() == [("done",)]  # used once this turn


# ---- data drives the engine -----------------------------------------------------------------


def test_card_edits_and_unknown_effects_reach_the_engine(db):
    assert make_rules(db, {}).unknown_effects() == []
    pin(db, "EU-ART-1", cost=9)
    pin(db, "ACT-BRB", effect="launder_everything")
    rules = make_rules(db, {})
    assert rules.placements["EU-ART-1"].cost == 9
    assert [(u.card_id, u.effect) for u in rules.unknown_effects()] == [("ACT-BRB", "launder_everything")]
    card = repo.get_card(db, SLUG, "EU-CAS-1")
    del card.fields["cost"]
    with transaction(db) as conn:
        repo.update_card(conn, card)
    with pytest.raises(PnpError, match="EU-CAS-1.*cost"):
        make_rules(db, {})


def test_options(db):
    assert make_rules(db, {"quick": "true"}).end_target == 8
    assert make_rules(db, {}).end_target == 10
    with pytest.raises(PnpError, match="unknown option"):
        make_rules(db, {"turbo": True})
    with pytest.raises(PnpError, match="quick"):
        make_rules(db, {"quick": "maybe"})
    with pytest.raises(PnpError, match="players"):
        make_rules(db, {}).new_initial_state(6, random.Random(0))


# ---- random play ------------------------------------------------------------------------------


def random_game(rules, players: int, seed: int) -> DirtyMoneyState:
    """Random legal play, checking conservation and invariants after every step."""
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    s = rules.new_initial_state(players, rng)
    steps = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal and legal == sorted(legal)
        if s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            assert abs(sum(p for _a, p in outcomes) - 1) < 1e-9
            action = rng.choices([a for a, _p in outcomes], [p for _a, p in outcomes])[0]
        else:
            action = legal[rng.randrange(len(legal))]
        s.apply(action)
        steps += 1
        assert steps <= rules.info.max_steps
        s.check_invariants()
        assert Counter(c for cards in s.zones().values() for c in cards) == deck
    assert s.returns() == s.scores_from_rules()
    assert len(s.winners()) == 1
    return s


def test_random_games_keep_every_card_and_end(db):
    rules = make_rules(db, {})
    reasons = Counter(random_game(rules, 2 + seed % 4, seed).end_reason() for seed in range(16))
    assert reasons["placement target"] >= 14


def test_random_quick_and_selection_games(db):
    for options in ({"quick": True}, {"selection": True}):
        rules = make_rules(db, options)
        for seed in range(4):
            s = random_game(rules, 2 + seed, 100 + seed)
            if s.end_reason() == "placement target":
                assert max(len(s.cards(f"tableau:{q}")) for q in range(s.players)) >= rules.end_target


def test_runner_plays_mixed_agents(db):
    rules = make_rules(db, {})
    for seed in range(6):
        n = 2 + seed % 4
        res = play_game(rules, n, seed, (["greedy", "random"] * 3)[:n])
        assert res.completed, res.failure


def test_pnp_check_passes(run, shipped_db):
    result = run("--db", shipped_db, "check", SLUG, "-n", "8")
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_many_random_games(db):
    for options in ({}, {"quick": True}, {"selection": True}):
        rules = make_rules(db, options)
        for seed in range(100):
            random_game(rules, 2 + seed % 4, 1000 + seed)

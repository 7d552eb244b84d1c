"""Dirty Money (洗钱): placement-card effects, scoring and action cards, from the rulebook's examples.

Positions are built as in `test_rules_dirty_money` (see `dirty_money_positions`).
"""

from __future__ import annotations

import pytest

from dirty_money_positions import (  # type: ignore[import-not-found, unused-ignore]
    ensure_in,
    fill,
    finish_turn,
    ids,
    pin,
    start,
)
from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.dirty_money import art_set_score, board, make_rules, scoring
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


# ---- placement-card effects and scoring -----------------------------------------------------


def test_art_set_table(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    assert rules.art_table == (2, 5, 9, 14, 20)
    assert [art_set_score(k, rules.art_table) for k in range(8)] == [0, 2, 5, 9, 14, 20, 22, 25]
    assert art_set_score(10, rules.art_table) == 40
    s = start(rules, 2)
    fill(s, "tableau:0", "EU-ART-1", "JP-ART-1", "US-ART-1")  # art from different places
    assert scoring.score_breakdown(s, 0)["art"] == 9


def test_restaurant_chain_example_scores_five(db):
    """1 日本餐厅连锁店 + 3 other 日本 cards: 4 from the effect, with its printed point 5."""
    rules = make_rules(load_game(db, "dirty-money"), {})
    s = start(rules, 2)
    fill(s, "tableau:0", "JP-RES-1", "JP-LAW-1", "JP-CAS-1", "JP-ACC-1", "EU-ART-1")
    b = scoring.score_breakdown(s, 0)
    assert b["restaurant_chain"] == 4
    assert b["restaurant_chain"] + rules.placements["JP-RES-1"].points == 5


def test_accounting_firm_takes_a_discard_after_an_audit(db):
    """The rulebook's example: after an audit a discard goes under the firm, 2 points each."""
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    o = 1 - p
    fill(s, f"tableau:{p}", "EU-ACC-1")
    fill(s, f"hand:{o}", "EUR-5D", "EUR-1")
    fill(s, "discard", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "ACT-AUD-MD")
    s.apply(("go", "LOC-BR"))
    assert s.legal_actions() == [("resolve", "ACT-AUD-MD")]
    s.apply(("resolve", "ACT-AUD-MD"))
    assert len(board.cards(s, f"blacklist:{o}")) == 1  # 2 players: one dirty mark is enough
    assert len(board.cards(s, "under:EU-ACC-1#0")) == 1
    assert scoring.score_breakdown(s, p)["accounting_firm"] == 2
    # The resolved card went to the discard pile, whose top then went under the firm.
    assert not board.cards(s, "resolving") and ids(s, "under:EU-ACC-1#0") == ["ACT-AUD-MD"]


def test_two_player_audit_spares_a_clean_hand(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    fill(s, f"hand:{1 - p}", "EUR-1", "EUR-2")
    fill(s, "spot:LOC-BR", "ACT-AUD-MD")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-AUD-MD"))
    assert not board.cards(s, f"blacklist:{1 - p}")


def test_audits_with_more_players(db):
    """最脏钱: every other player tied on the most marks; the threshold audit: all at 2+."""
    s = start(make_rules(load_game(db, "dirty-money"), {}), 4)
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
    assert [len(board.cards(s, f"blacklist:{q}")) for q in (p, a, b, c)] == [0, 1, 1, 0]
    fill(s, f"hand:{c}", "USD-5D", "USD-4D")
    s.apply(("resolve", "ACT-AUD-2"))
    assert [len(board.cards(s, f"blacklist:{q}")) for q in (p, a, b, c)] == [0, 2, 2, 1]


def test_blacklist_penalties_lowest_free_highest_minus_two_ties_share():
    bp = scoring.blacklist_penalties
    assert bp([0, 3, 5]) == [0, -3, -7]
    assert bp([1, 2, 3]) == [0, -2, -5]
    assert bp([2, 2, 4, 4]) == [0, 0, -6, -6]
    assert bp([3, 3]) == [0, 0]


def test_charity_discards_blacklist_points_before_the_comparison(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
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
    rules = make_rules(load_game(db, "dirty-money"), {})
    s = start(rules, 2)
    fill(s, "tableau:0", "EU-REM-1", "JP-ART-1", "US-ART-1", "EU-ART-1", "JP-LAW-1")
    assert scoring.score_breakdown(s, 0)["remittance"] == 3  # one US+EU+JP set
    s.place("JP-REM-1", "tableau:0")
    assert scoring.score_breakdown(s, 0)["remittance"] == 6  # each firm scores the same set
    s.place("EU-BNK-1", "tableau:0")
    fill(s, "hand:0", "EUR-1", "EUR-2", "EUR-3", "JPY-1")
    assert scoring.score_breakdown(s, 0)["digital_bank"] == 4
    assert board.hand_limit(s, 0) == 8
    s.place("EUR-4", "under:JP-LAW-1#0")
    assert scoring.score_breakdown(s, 0)["law_firm"] == 2
    assert s.returns() == s.scores_from_rules()


def test_casino_tucks_for_each_purchase_in_its_region(db):
    pin(db, "US-ART-1", cost=4)
    pin(db, "USD-4", value=4)
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V3", "V4"))
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
    assert scoring.score_breakdown(s, p)["casino"] == 1


def test_art_gallery_draws_a_card_per_art_bought(db):
    pin(db, "EU-ART-1", cost=3)
    pin(db, "EUR-3", value=3)
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V3", "V4"))
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
    assert s.current_player() == CHANCE and ("draw", "ACT-BRB") in s.legal_actions()
    s.apply(("draw", "ACT-BRB"))  # an action card is resolved at once
    assert "ACT-BRB" in ids(s, "discard") and ids(s, f"hand:{p}") == ["JPY-1"]


# ---- action cards ---------------------------------------------------------------------------


def test_inspection_two_player_draws_two_from_the_opponent(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
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
    assert s.legal_actions() == [("draw", "EUR-1"), ("draw", "EUR-5D"), ("draw", "JPY-2")]
    s.apply(("draw", "EUR-5D"))  # dirty: taken, opponent blacklisted
    assert ids(s, f"hand:{p}") == ["EUR-5D"] and len(board.cards(s, f"blacklist:{o}")) == 1
    assert s.legal_actions() == [("draw", "EUR-1"), ("draw", "JPY-2")]
    s.apply(("draw", "EUR-1"))  # clean: handed back
    assert s.current_player() != CHANCE  # two cards in all
    assert ids(s, f"hand:{o}") == ["EUR-1", "JPY-2"]
    assert len(board.cards(s, "under:EU-LAW-1#0")) == 1  # law firm: a discard per inspection


def test_inspection_with_three_players_takes_one_from_each_neighbour(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 3)
    p = s.current_player()
    left, right = (p - 1) % 3, (p + 1) % 3
    fill(s, f"hand:{left}", "EUR-1", "EUR-2")
    fill(s, f"hand:{right}", "JPY-1", "JPY-2")
    fill(s, "spot:LOC-BR", "ACT-INS-LR")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-INS-LR"))
    pools = []
    while s.current_player() == CHANCE:
        pools.append(tuple(card_id for _draw, card_id in s.legal_actions()))
        s.apply(s.legal_actions()[0])
    assert sorted(pools) == [("EUR-1", "EUR-2"), ("JPY-1", "JPY-2")]


def test_inspect_any_player_chooses_the_target(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 3)
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
        s.apply(("draw", "EUR-5D") if ("draw", "EUR-5D") in s.legal_actions() else s.legal_actions()[0])
        draws += 1
    assert draws == 2


def test_trade_swaps_one_chosen_card_each_way(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    o = 1 - p
    fill(s, f"hand:{p}", "EUR-1")
    fill(s, f"hand:{o}", "USD-5", "JPY-3")
    fill(s, "spot:LOC-BR", "ACT-TRD")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-TRD"))
    assert s.legal_actions() == [("trade_with", o)]  # the hand shows only once its seat is chosen
    s.apply(("trade_with", o))
    assert s.legal_actions() == [("trade", o, "JPY-3", "EUR-1"), ("trade", o, "USD-5", "EUR-1")]
    s.apply(("trade", o, "USD-5", "EUR-1"))
    assert ids(s, f"hand:{p}") == ["USD-5"] and ids(s, f"hand:{o}") == ["EUR-1", "JPY-3"]


def test_trade_with_an_empty_hand_only_looks(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    fill(s, f"hand:{p}")
    fill(s, f"hand:{1 - p}", "USD-5")
    fill(s, "spot:LOC-BR", "ACT-TRD")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-TRD"))
    s.apply(("trade_with", 1 - p))
    assert s.legal_actions() == [("trade", 1 - p, "", "")]
    s.apply(("trade", 1 - p, "", ""))
    assert ids(s, f"hand:{1 - p}") == ["USD-5"]


def test_bribe_and_banana_republic_drop_blacklist_cards_and_take_the_marker(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    first = s.current_player()
    second = 1 - first
    finish_turn(s, go="LOC-EU")
    assert s.current_player() == second
    fill(s, f"blacklist:{second}", "EUR-1", "EUR-1", "EUR-1")
    fill(s, "spot:LOC-BR", "ACT-BRB")
    s.apply(("go", "LOC-BR"))
    s.apply(("resolve", "ACT-BRB"))
    assert len(board.cards(s, f"blacklist:{second}")) == 2
    assert s.legal_actions() == [("banana",), ("skip",)]
    s.apply(("banana",))
    assert len(board.cards(s, f"blacklist:{second}")) == 1 and s.marker == second
    finish_turn(s)
    assert s.round_number == 2 and s.current_player() == second  # first in the next round

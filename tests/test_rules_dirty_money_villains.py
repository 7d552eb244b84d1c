"""Dirty Money (洗钱): the five villains' powers, from the rulebook's 恶棍卡效果.

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
    seat_of,
    start,
    until_turn_of,
)
from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.dirty_money import board, buying, make_rules, scoring
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


# ---- villains ---------------------------------------------------------------------------------


def test_launderer_draws_past_action_cards_and_discards_one(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V1", "V3"))
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
    s.apply(("draw", "ACT-TRD"))  # an action card: discarded, draw again
    assert s.current_player() == CHANCE and "ACT-TRD" in ids(s, "discard")
    ensure_in(s, "money_deck", "EUR-3")
    s.apply(("draw", "EUR-3"))
    assert ids(s, f"hand:{p}") == sorted(hand + ["EUR-3"])
    assert s.legal_actions() == [("launder_discard", c) for c in sorted(set(hand + ["EUR-3"]))]
    s.apply(("launder_discard", "EUR-3"))  # may drop the card just drawn
    assert ids(s, f"hand:{p}") == hand


def test_embezzler_files_a_discard_for_each_overpay_of_two(db):
    for cid in ("US-ART-1", "US-ART-2"):
        pin(db, cid, cost=3)
    pin(db, "USD-5", value=5)
    pin(db, "USD-4", value=4)
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V2", "V3"))
    p = seat_of(s, "V2")
    until_turn_of(s, p)
    fill(s, f"hand:{p}", "USD-5", "USD-4")
    fill(s, "display:美国", "US-ART-1", "US-ART-2")
    fill(s, "spot:LOC-US", "JPY-1")
    s.apply(("go", "LOC-US"))
    s.apply(("pick", "US-ART-1"))
    s.apply(("pay", "USD-5", 0))  # $2 over
    s.apply(("settle",))
    assert len(board.cards(s, f"overpay:{p}")) == 1
    s.apply(("pick", "US-ART-2"))
    s.apply(("pay", "USD-4", 0))  # $1 over: nothing
    s.apply(("settle",))
    assert len(board.cards(s, f"overpay:{p}")) == 1
    assert scoring.score_breakdown(s, p)["overpay"] == 1


def test_fox_values_crypto_at_five(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V3", "V2"))
    fox = seat_of(s, "V3")
    assert buying.pay_value(s, fox, "CRYPTO-3", "JPY") == 5
    assert buying.pay_value(s, 1 - fox, "CRYPTO-3", "EUR") == 3
    assert buying.pay_value(s, 1 - fox, "EUR-3", "JPY") == 0


def test_wall_street_bear_buys_alone_from_the_banana_republic(db):
    rules = make_rules(load_game(db, "dirty-money"), {})
    s = start(rules, 2, ("V4", "V3"))
    bear = seat_of(s, "V4")
    assert len(board.cards(s, "bear")) == 3 and len(board.cards(s, "pdeck:日本")) == 20 - 2 - 3
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
    assert len(board.cards(s, "bear")) == 2  # never refilled


def test_loan_shark_uses_any_card_as_two_once_per_turn(db):
    for cid in ("US-ART-1", "US-ART-2"):
        pin(db, cid, cost=2)
    pin(db, "JPY-3", value=3)
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V5", "V3"))
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

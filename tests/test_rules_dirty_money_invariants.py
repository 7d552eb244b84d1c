"""Dirty Money's invariant check: it reads only what moved since the last step, and must still
catch every break the full check caught (a marker the ledger missed, a ledger entry changed
without a move, an action card in a hand, an over-full spot or display, a hand over its limit).

Breaks are made with raw pile moves, which keep conservation but skip the rules' bookkeeping.
"""

from __future__ import annotations

import random

import pytest

from dirty_money_positions import start
from pnpforge.rules import runner
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.dirty_money import DirtyMoneyState, board, make_rules
from pnpforge.rules.games.dirty_money.data import HAND_LIMIT, SPOT_CAP
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def cash_in(s: DirtyMoneyState, pile: str) -> list:
    return [c for c in board.cards(s, pile) if not s.rules.money[c.card].is_action]


def action_card(s: DirtyMoneyState):
    return next(c for c in board.cards(s, "money_deck") if s.rules.money[c.card].is_action)


def test_a_start_position_passes_and_a_repeat_check_reads_nothing_new(db):
    s = start(make_rules(load_game(db, "dirty-money")), 4)
    s.check_invariants()
    s.check_invariants()


def test_a_marker_the_ledger_did_not_count_is_caught(db):
    s = start(make_rules(load_game(db, "dirty-money")), 4)
    s.place(cash_in(s, "money_deck")[0].card, "blacklist:0")  # counted by the ledger
    s.check_invariants()
    s.piles.move(cash_in(s, "money_deck")[0], "money_deck", "blacklist:0")  # not counted
    with pytest.raises(RuleViolation, match="blacklist:0: 1 markers placed, 2 there"):
        s.check_invariants()


def test_a_marker_in_a_pile_the_ledger_never_counted_is_caught(db):
    s = start(make_rules(load_game(db, "dirty-money")), 4)
    s.check_invariants()
    assert "overpay:2" not in s.ledger
    s.piles.move(cash_in(s, "money_deck")[0], "money_deck", "overpay:2")
    with pytest.raises(RuleViolation, match="overpay:2: 0 markers placed, 1 there"):
        s.check_invariants()


def test_a_ledger_entry_changed_without_a_move_is_caught_at_the_next_move(db):
    s = start(make_rules(load_game(db, "dirty-money")), 4)
    s.place(cash_in(s, "money_deck")[0].card, "blacklist:1")
    s.check_invariants()
    s.ledger["blacklist:1"] += 1
    s.piles.move(cash_in(s, "money_deck")[0], "money_deck", "discard")  # an unrelated move
    with pytest.raises(RuleViolation, match="blacklist:1: 2 markers placed, 1 there"):
        s.check_invariants()


def test_an_action_card_in_a_hand_is_caught(db):
    s = start(make_rules(load_game(db, "dirty-money")), 3)
    s.check_invariants()
    s.piles.move(action_card(s), "money_deck", "hand:2")
    with pytest.raises(RuleViolation, match="seat 2 holds an action card in hand"):
        s.check_invariants()


def test_an_over_full_spot_is_caught(db):
    s = start(make_rules(load_game(db, "dirty-money")), 3)
    spot = s.names.spots[0]
    s.check_invariants()
    while len(board.cards(s, spot)) <= SPOT_CAP:
        s.piles.move(cash_in(s, "money_deck")[0], "money_deck", spot)
    with pytest.raises(RuleViolation, match=f"{spot} has more than {SPOT_CAP} money cards"):
        s.check_invariants()


def test_a_hand_over_its_limit_is_caught_on_every_later_step_until_fixed(db):
    s = start(make_rules(load_game(db, "dirty-money")), 3)
    s.check_invariants()
    while len(board.cards(s, "hand:1")) <= HAND_LIMIT:
        s.piles.move(cash_in(s, "money_deck")[0], "money_deck", "hand:1")
    for _ in range(2):  # the second check moves nothing: the over-full hand is remembered
        with pytest.raises(RuleViolation, match="seat 1 holds 8 money cards, over the limit 7"):
            s.check_invariants()
    s.piles.move(board.cards(s, "hand:1")[-1], "hand:1", "discard")
    s.check_invariants()


@pytest.mark.parametrize("seed", [3, 11])
def test_a_break_in_the_middle_of_a_game_is_caught_at_that_step(db, seed):
    """Caches built over many steps must not hide a break made late in the game."""
    rules = make_rules(load_game(db, "dirty-money"))
    rng = random.Random(seed)
    s = rules.new_initial_state(4, rng)
    for _step in range(150 + seed):
        legal = s.legal_actions()
        chance = s.current_player() == CHANCE
        s.apply(runner.pick_chance(s, rng) if chance else legal[rng.randrange(len(legal))])
        s.check_invariants()
    s.piles.move(action_card(s), "money_deck", f"hand:{seed % 4}")
    with pytest.raises(RuleViolation, match="holds an action card in hand"):
        s.check_invariants()
    assert not s.is_terminal()


def test_a_move_from_the_wrong_pile_or_to_no_pile_is_refused(db):
    """The piles' own move keeps the kit's guards: a card moves only from where it is."""
    s = start(make_rules(load_game(db, "dirty-money")), 3)
    card = cash_in(s, "money_deck")[0]
    with pytest.raises(RuleViolation, match=f"card {card} is not in 'discard' \\(it is in 'money_deck'\\)"):
        s.piles.move(card, "discard", "hand:0")
    with pytest.raises(RuleViolation, match="unknown pile 'nowhere'"):
        s.piles.move(card, "money_deck", "nowhere")
    before = s.piles.ids("hand:0")
    s.piles.move(card, "money_deck", "hand:0", top=False)
    assert board.cards(s, "hand:0")[0] is card and s.piles.ids("hand:0") == (card.card, *before)
    assert s.piles.where(card) == "hand:0"

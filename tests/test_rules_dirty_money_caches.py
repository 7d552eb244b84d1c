"""Dirty Money (洗钱): what the engine keeps between steps to play fast must never go stale.

The public table is reused while only hidden piles move, chance outcomes follow cached draw
lists, bookkeeping steps that would do nothing are left out, and payments leave in one move.
Each test compares the fast answer with one worked out from the piles alone, in seeded games
of random and greedy play, or pins the game-visible result of a shortcut in a set-up position.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dirty_money_positions import fill, ids, start  # type: ignore[import-not-found, unused-ignore]
from pnpforge.rules import runner
from pnpforge.rules.agents import make_agent
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.dirty_money import DirtyMoneyState, board, buying, make_rules
from pnpforge.rules.games.dirty_money.agents import PublicTable
from pnpforge.rules.games.dirty_money.data import REGION_CURRENCY
from pnpforge.rules.games.dirty_money.invariants import HAND_FIXERS
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def table_from_piles(s: DirtyMoneyState) -> PublicTable:
    """The public table read afresh from the piles, with no cache involved."""

    def card_ids(pile: str) -> tuple[str, ...]:
        return tuple(c.card for c in board.cards(s, pile))

    seats = range(s.players)
    on_sale = ("display:欧洲", "display:日本", "display:美国", "auction", "bear")
    return PublicTable(
        hand_sizes=tuple(len(board.cards(s, f"hand:{q}")) for q in seats),
        blacklists=tuple(len(board.cards(s, f"blacklist:{q}")) for q in seats),
        overpay=tuple(len(board.cards(s, f"overpay:{q}")) for q in seats),
        villains=tuple(v or "" for v in s.villain_of),
        tableaux=tuple(card_ids(f"tableau:{q}") for q in seats),
        spots=tuple((loc.id, card_ids(f"spot:{loc.id}")) for loc in s.in_play),
        displays=tuple((pile, card_ids(pile)) for pile in on_sale),
    )


def draw_weights(s: DirtyMoneyState) -> Counter[str]:
    """Copies of each card id the pending chance step may bring, counted from the piles."""
    step = s.stack[-1]
    if step.kind == "inspect":
        seen = set(step.data["seen"])
        return Counter(c.card for c in board.cards(s, f"hand:{step.data['target']}") if str(c) not in seen)
    pile = {"deal_villain": "villain_pool", "draw_placement": f"pdeck:{step.data.get('region')}"}
    return Counter(c.card for c in board.cards(s, pile.get(step.kind, "money_deck")))


@pytest.mark.parametrize("agent, players, seed", [("random", 3, 7), ("greedy", 4, 11), ("random", 5, 3)])
def test_fast_answers_match_the_piles_at_every_step(db, agent, players, seed):
    """Observed tables, chance probabilities and the hand-limit bookkeeping, checked each step."""
    rules = make_rules(load_game(db, "dirty-money"), {})
    rng = random.Random(seed)
    s = rules.new_initial_state(players, rng)
    seats = [make_agent(agent, seed, q, rules.greedy_values) for q in range(players)]
    decisions = 0
    while not s.is_terminal():
        player = s.current_player()
        legal = s.legal_actions()
        if player == CHANCE:
            weights = draw_weights(s)
            total = sum(weights.values())
            outcomes = s.chance_outcomes()
            assert [a for a, _p in outcomes] == legal == [("draw", i) for i in sorted(weights)]
            assert [p for _a, p in outcomes] == [weights[a[1]] / total for a, _p in outcomes]
            action = runner.pick_chance(s, rng)
        else:
            obs = s.observation(player)
            assert obs.table == table_from_piles(s)
            decisions += 1
            action = seats[player].choose(obs, legal)
        s.apply(action)
        for q in range(players):  # a hand over its limit always has its fixing step pending
            if len(board.cards(s, f"hand:{q}")) > board.hand_limit(s, q):
                assert any(f.seat == q and f.kind in HAND_FIXERS for f in s.stack)
    assert decisions > 50


def test_public_table_is_kept_while_only_hidden_piles_move(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 3)
    p = s.current_player()
    table = s.observation(p).table
    s.place("USD-1", "discard")  # money deck to discard pile: nothing face up moves
    assert s.observation(p).table is table
    other = (p + 1) % 3
    before = len(board.cards(s, f"hand:{other}"))
    s.place("USD-1", f"hand:{other}")  # a hand grows: its size is public
    moved = s.observation(p).table
    assert moved is not table and moved.hand_sizes[other] == before + 1
    assert moved == table_from_piles(s)


def test_a_visit_within_the_hand_limit_leaves_no_bookkeeping_step(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    p = s.current_player()
    fill(s, f"hand:{p}", "JPY-1")
    fill(s, "spot:LOC-BR", "USD-1", "USD-2")
    s.apply(("go", "LOC-BR"))
    assert ids(s, f"hand:{p}") == ["JPY-1", "USD-1", "USD-2"]
    assert not any(f.kind in ("hand_limit", "resolve_actions") for f in s.stack)
    assert s.phase() == "location" and s.current_player() == p  # the Banana Republic's choice


def test_payment_goes_to_the_discard_pile_in_the_order_paid(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2, ("V3", "V4"))
    p = s.current_player()
    fill(s, f"hand:{p}", "EUR-5", "EUR-4", "EUR-3")
    fill(s, "spot:LOC-EU", "JPY-1")
    s.apply(("go", "LOC-EU"))
    card = next(a[1] for a in s.legal_actions() if a[0] == "pick")
    s.apply(("pick", card))
    paid = []
    while ("settle",) not in s.legal_actions():
        pay = next(a for a in reversed(s.legal_actions()) if a[0] == "pay")
        s.apply(pay)
        paid.append(pay[1])
    s.apply(("settle",))
    assert [c.card for c in board.cards(s, "discard")[-len(paid) :]] == paid
    assert not board.cards(s, "payment")


def owned_from_piles(s: DirtyMoneyState, seat: int) -> dict[str, list[str]]:
    """Each effect's placement cards in the seat's tableau, in tableau order, read from the pile."""
    found: dict[str, list[str]] = {}
    for c in board.cards(s, f"tableau:{seat}"):
        found.setdefault(s.rules.placements[c.card].effect, []).append(str(c))
    return found


@pytest.mark.parametrize("agent, players, seed", [("random", 4, 5), ("greedy", 3, 2)])
def test_owned_cards_and_purchase_prices_match_the_piles_at_every_step(db, agent, players, seed):
    """The effect index kept as cards join tableaux, and the kept price and payable totals of a
    purchase, against answers worked out afresh (a copy of the hand is a new read-out)."""
    rules = make_rules(load_game(db, "dirty-money"), {})
    rng = random.Random(seed)
    s = rules.new_initial_state(players, rng)
    seats = [make_agent(agent, seed, q, rules.greedy_values) for q in range(players)]
    priced = 0
    while not s.is_terminal():
        for q in range(players):
            index = {
                effect: [str(c) for c, _pl in board._owned(s, q, effect)] for effect in owned_from_piles(s, q)
            }
            assert index == owned_from_piles(s, q)
        step = s.stack[-1]
        if step.kind == "buy" and step.data["group"]:
            group = buying._group_cards(s, step)
            assert buying._group_due(s, step, group) == buying.due(s, step.seat, group)
            hand = s.piles.ids(f"hand:{step.seat}")
            for currency in REGION_CURRENCY.values():
                for shark in (False, True):
                    kept = buying.max_payable(s, step.seat, hand, currency, shark)
                    assert kept == buying.max_payable(s, step.seat, tuple(list(hand)), currency, shark)
            priced += 1
        player = s.current_player()
        legal = s.legal_actions()
        if player == CHANCE:
            action = runner.pick_chance(s, rng)
        else:
            action = seats[player].choose(s.observation(player), legal)
        s.apply(action)
    assert priced > 10


def test_a_bank_placed_into_a_tableau_raises_the_hand_limit_at_once(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    before = board.hand_limit(s, 0)
    s.place("EU-BNK-1", "tableau:0")
    assert board.hand_limit(s, 0) == before + s.rules.placements["EU-BNK-1"].value
    s.clear("tableau:0")
    assert board.hand_limit(s, 0) == before and not board._owned(s, 0, "digital_bank")


def test_chance_outcomes_at_a_decision_is_a_rule_violation(db):
    s = start(make_rules(load_game(db, "dirty-money"), {}), 2)
    assert s.current_player() != CHANCE
    with pytest.raises(RuleViolation, match="no chance draw is pending"):
        s.chance_outcomes()

"""Top Enforcement Officer (王牌執行官): the greedy look-ahead's cost payment equals the plain rule.

`Greedy.pay_costs` keeps the hand's copies by id per decision and tests payers by rule instead of
building a multiset and a payer set per call; this compares it with the plain statement of the
rule on many hands drawn from the shipped cards, costly cards made common.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.enforcer import make_rules
from pnpforge.rules.games.enforcer.agents import Greedy
from pnpforge.rules.games.enforcer.data import DISCARD_COSTS, RESTRICTION, STRATEGY
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def rules(shipped_db):
    return make_rules(load_game(open_db(shipped_db), "enforcer"), {})


def plain_pay_costs(greedy: Greedy, usable: list[str]) -> list[str]:
    """The rule as first written: a multiset of the spare cards, a set of payers per costly card."""
    play, hand = greedy.cards.play, greedy.obs.hand
    chosen = sorted(usable, key=lambda cid: play[cid].power, reverse=True)
    if not any(play[cid].effect in DISCARD_COSTS for cid in chosen):
        return chosen
    spare = Counter(hand)
    spare.subtract(chosen)
    for cid in [c for c in chosen if play[c].effect in DISCARD_COSTS]:
        if cid not in chosen:
            continue
        need_restriction = play[cid].effect == "discard_restriction_cost"
        payers = {o for o in hand if not need_restriction or play[o].family == RESTRICTION}
        unused = [o for o, k in spare.items() if k > 0 and o in payers]
        if unused:
            spare[unused[0]] -= 1
            continue
        others = [o for o in chosen if o in payers]
        if cid in others and others.count(cid) == 1:
            others.remove(cid)
        if not others:
            chosen.remove(cid)
            continue
        chosen.remove(min(others, key=lambda o: play[o].power))
    return chosen


def an_observation(rules):
    """A seat's observation from a seeded game's first decision (its hand is replaced below)."""
    rng = random.Random(5)
    st = rules.new_initial_state(3, rng)
    while st.current_player() == CHANCE:
        ids, weights = zip(*st.chance_outcomes(), strict=True)
        st.apply(rng.choices(ids, weights)[0])
    return st.observation(st.current_player())


def test_pay_costs_equals_the_plain_rule_on_many_hands(rules):
    cards = rules.cards
    obs = an_observation(rules)
    plays = sorted(cid for cid, card in cards.play.items() if card.family != STRATEGY)
    costly = sorted(cards.costly)
    restriction = sorted(cid for cid in plays if cards.play[cid].family == RESTRICTION)
    assert costly and restriction
    rng = random.Random(11)
    paid = 0
    for _ in range(3000):
        pool = plays + costly * 3 + restriction * rng.randint(0, 2)  # costs and payers often at hand
        hand = tuple(rng.choice(pool) for _ in range(rng.randint(1, 9)))
        greedy = Greedy(cards, dataclasses.replace(obs, hand=hand))
        usable = [cid for cid in hand if rng.random() < 0.8]
        expected = plain_pay_costs(greedy, list(usable))
        got = greedy.pay_costs(list(usable))
        assert sorted(got) == sorted(expected), hand
        assert got == expected, hand  # the same cards in the same order
        paid += any(cid in cards.costly for cid in usable)
    assert paid > 1000  # most hands had a cost to pay

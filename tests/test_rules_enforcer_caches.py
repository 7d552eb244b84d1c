"""Top Enforcement Officer (王牌執行官): the engine's kept and shortcut results equal the long way.

The engine keeps observation parts between decisions, finds drawn cards by id, keeps
play-block verdicts per card and target, and values a decision's actions in one loop
with shortcuts for the execution arithmetic.  Each test plays seeded games and checks,
at every step, that the fast answer is the one the plain computation gives.
"""

from __future__ import annotations

import itertools
import random

import pytest

from enforcer_positions import QUIET_TABLE, deal_game
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.enforcer import make_rules
from pnpforge.rules.games.enforcer.agents import Greedy
from pnpforge.rules.games.enforcer.flow import CHANCE_PILES, DRAWN_FROM, first, first_drawn
from pnpforge.rules.games.enforcer.memo import READOUTS
from pnpforge.rules.games.enforcer.observe import observe_afresh
from pnpforge.rules.games.enforcer.power import added_power, total_power
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def rules(shipped_db):
    return make_rules(load_game(open_db(shipped_db), "enforcer"), {})


def play_steps(rules, players: int, seed: int, greedy: bool):
    """Every state of one seeded game (random or greedy play), yielded before each step."""
    rng = random.Random(seed)
    st = rules.new_initial_state(players, rng)
    while not st.is_terminal():
        yield st
        legal = st.legal_actions()
        if st.current_player() == CHANCE:
            ids, weights = zip(*st.chance_outcomes(), strict=True)
            action = rng.choices(ids, weights)[0]
        elif greedy:
            values = rules.greedy_values(st.observation(st.current_player()), legal)
            action = legal[values.index(max(values))]
        else:
            action = rng.choice(legal)
        st.apply(action)


GAMES = [(3 + seed % 4, seed, seed % 2 == 0) for seed in range(8)]


@pytest.mark.parametrize(("players", "seed", "greedy"), GAMES)
def test_kept_observation_parts_equal_a_fresh_build(rules, players, seed, greedy):
    for st in play_steps(rules, players, seed, greedy):
        for seat in range(players):
            assert st.observation(seat) == observe_afresh(st, seat)


def test_observation_follows_piles_moved_from_outside(rules):
    st = deal_game(rules, hands={1: ["EX-award", "EX-detain"]}, table=QUIET_TABLE)
    before = st.observation(1)
    card = st.piles.top("hand:1")
    st.piles.move(card, "hand:1", "scored:0")  # a move no action made: the watcher still sees it
    after = st.observation(1)
    assert after == observe_afresh(st, 1)
    assert after.hand_sizes[1] == before.hand_sizes[1] - 1 and after.scored[0] == (str(card),)


@pytest.mark.parametrize(("players", "seed", "greedy"), GAMES[:4])
def test_drawn_cards_are_the_first_copies_in_their_pile(rules, players, seed, greedy):
    for st in play_steps(rules, players, seed, greedy):
        for pile in DRAWN_FROM:
            for cid in set(st.piles.ids(pile)):
                assert first_drawn(st, pile, cid) is first(st, pile, cid)
    assert set(CHANCE_PILES.values()) <= set(DRAWN_FROM)


@pytest.mark.parametrize(("players", "seed", "greedy"), GAMES)
def test_legal_actions_are_distinct_and_blocks_kept_per_target_change_nothing(rules, players, seed, greedy):
    for st in play_steps(rules, players, seed, greedy):
        legal = st.legal_actions()
        assert len(set(legal)) == len(legal)
        if st.phase == "exec" and not st.pending:
            st.cards.blocked.clear()
            READOUTS(st).legal = None
            assert st.legal_actions() == legal


@pytest.mark.parametrize(("players", "seed", "greedy"), GAMES)
def test_greedy_values_equal_each_action_valued_alone(rules, players, seed, greedy):
    for st in play_steps(rules, players, seed, greedy):
        if st.current_player() == CHANCE:
            continue
        obs = st.observation(st.current_player())
        legal = st.legal_actions()
        alone = [Greedy(rules.cards, obs).value(action) for action in legal]
        assert Greedy(rules.cards, obs).values(legal) == alone
        if len(legal) > 1:  # through the rules: the execution kept from the previous decision
            assert rules.greedy_values(obs, legal) == alone


@pytest.mark.parametrize(("players", "seed", "greedy"), GAMES[:4])
def test_hand_look_ahead_equals_the_full_power_sum(rules, players, seed, greedy):
    """The look-ahead adds the officer and award to a power kept per card selection: the same
    as `total_power` over the selection for every obligor asked about."""
    cards = rules.cards
    for st in play_steps(rules, players, seed, greedy):
        if st.phase != "period" or st.pending:
            continue
        obs = st.observation(st.current_player())
        greedy_view = Greedy(cards, obs)
        officer_id = obs.officers[obs.seat]
        officer = cards.officer[officer_id] if officer_id else None
        for target in obs.table:
            obligor = cards.obligor_at[target]
            weak = greedy_view.weak(target)
            immune = obligor.effect == "immune_restriction"
            chosen = greedy_view.pay_costs(greedy_view._usable(obligor, weak, immune))
            expected = total_power(cards, obligor, weak, chosen, frozenset(), officer, 0)
            assert greedy_view.hand_potential(target, "table") == expected


def test_added_power_is_the_difference_of_the_power_sums(rules):
    cards = rules.cards
    rng = random.Random(5)
    plays = sorted(cards.play)
    obligors = [cards.obligor[o] for o in sorted(cards.obligor)]
    voids = [frozenset(), frozenset({"查封"}), frozenset({"限制"})]
    checked = 0
    for obligor, weak, voided in itertools.product(obligors, (False, True), voids):
        played = rng.sample(plays, 3)
        base = total_power(cards, obligor, weak, played, voided, None, 0)
        for cid in plays:
            added = added_power(cards, obligor, weak, cid, voided)
            if added is not None:
                assert added == total_power(cards, obligor, weak, [*played, cid], voided, None, 0) - base
                checked += 1
    assert checked > 1000


def test_invariants_kept_between_steps_still_catch_broken_seats(rules):
    """The scored totals are kept between checks: breaking points, scored piles or helped
    obligors after many checked steps is still caught at the next check."""
    states = play_steps(rules, 3, 4, greedy=True)
    st = next(states)
    for st in states:
        st.check_invariants()
        if any(st.points):
            break
    seat = next(s for s in range(3) if st.points[s])
    scored = f"scored:{seat}"
    st.points[seat] += 1
    with pytest.raises(RuleViolation, match="points"):
        st.check_invariants()
    st.points[seat] -= 1
    st.check_invariants()
    stray = st.piles.top("obligor_deck") or st.piles.top("table")
    st.helped[seat].add(stray)
    with pytest.raises(RuleViolation, match="helped"):
        st.check_invariants()
    st.helped[seat].discard(stray)
    card = st.piles.top(scored)
    st.piles.move(card, scored, "table")  # the pile moved, the points did not
    with pytest.raises(RuleViolation, match="points"):
        st.check_invariants()
    st.piles.move(card, "table", scored)
    st.check_invariants()

"""Top Enforcement Officer (王牌執行官): invariants kept between steps still catch every fault.

The checker redoes only the parts whose piles moved or whose per-seat values changed since the
last check.  Each test plays a seeded game with a check after every step, then breaks one fact
the way a faulty effect would (a pile moved, a plain value changed) and expects the very next
check to name it; undoing the fault makes the position sound again.
"""

from __future__ import annotations

import random

import pytest

from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.enforcer import make_rules
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def rules(shipped_db):
    return make_rules(load_game(open_db(shipped_db), "enforcer"), {})


def checked_position(rules, players: int, seed: int, steps: int, until=lambda st: True):
    """A greedy game after `steps` steps and then on until `until(state)` holds (or its end),
    the invariants checked after each step."""
    rng = random.Random(seed)
    st = rules.new_initial_state(players, rng)
    st.check_invariants()
    step = 0
    while not st.is_terminal() and (step < steps or not until(st)):
        step += 1
        legal = st.legal_actions()
        if st.current_player() == CHANCE:
            ids, weights = zip(*st.chance_outcomes(), strict=True)
            action = rng.choices(ids, weights)[0]
        else:
            values = rules.greedy_values(st.observation(st.current_player()), legal)
            action = legal[values.index(max(values))]
        st.apply(action)
        st.check_invariants()
    return st


def _empty_pile(st, kind: str) -> tuple[int, str] | None:
    """A seat still in whose pile of `kind` is empty, and that pile's name (None: every seat holds one)."""
    for seat in st.alive():
        name = st.seat_names[seat][kind]
        if not st.piles.count(name):
            return seat, name
    return None


def _seat_pile(st, kind: str) -> tuple[int, str]:
    """As `_empty_pile`; a position without one is a mistake in the test's set-up, never a pass."""
    found = _empty_pile(st, kind)
    assert found is not None, f"every seat holds a {kind} card: play on with until=_empty_pile"
    return found


def _a_seat_lacks_a_project(st) -> bool:
    return _empty_pile(st, "project") is not None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_big_obligor_moved_into_a_project_is_caught(rules, seed):
    st = checked_position(rules, 3, seed, 120, until=_a_seat_lacks_a_project)
    big = next(c for c in rules.cards.instances("obligor") if st.obligor(c).big)
    home = st.piles.where(big)
    _, project = _seat_pile(st, "project")
    st.piles.move(big, home, project)
    with pytest.raises(RuleViolation, match="大戶"):
        st.check_invariants()
    st.piles.move(big, project, home)
    st.check_invariants()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_award_without_a_project_is_caught(rules, seed):
    st = checked_position(rules, 3, seed, 25, until=_a_seat_lacks_a_project)
    seat, project = _seat_pile(st, "project")
    card = st.piles.top("exec_deck")
    award = st.seat_names[seat]["award"]
    st.piles.move(card, "exec_deck", award)
    with pytest.raises(RuleViolation, match="獎檢公告"):
        st.check_invariants()
    st.piles.move(card, award, "exec_deck")
    st.check_invariants()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_changed_eliminated_flag_or_penalty_is_caught(rules, seed):
    st = checked_position(rules, 4, seed, 150)
    seat = st.alive()[0]
    st.out_of_game[seat] = True
    with pytest.raises(RuleViolation, match="eliminated flag"):
        st.check_invariants()
    st.out_of_game[seat] = False
    st.check_invariants()
    kept = st.penalties[seat]
    st.penalties[seat] = st.tracks[seat].eliminate_at
    with pytest.raises(RuleViolation, match="eliminated flag"):
        st.check_invariants()
    st.penalties[seat] = kept
    st.check_invariants()


def test_an_eliminated_seat_given_a_card_is_caught(rules):
    """Cards reaching an eliminated seat's hand after its elimination was checked are caught."""
    st = checked_position(rules, 3, 4, 40)
    seat = st.alive()[-1]
    hand = st.seat_names[seat]["hand"]
    for card in list(st.piles.pile(hand)):
        st.piles.move(card, hand, "exec_discard")
    project = st.project(seat)
    if project is not None:
        st.piles.move(project, st.seat_names[seat]["project"], "table")
    st.penalties[seat] = st.tracks[seat].eliminate_at
    st.out_of_game[seat] = True
    st.check_invariants()  # the eliminated seat's position is valid before the card arrives
    card = st.piles.top("exec_deck")
    st.piles.move(card, "exec_deck", hand)
    with pytest.raises(RuleViolation, match="still holds cards"):
        st.check_invariants()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_specialty_card_away_from_its_master_is_caught(rules, seed):
    st = checked_position(rules, 3, seed, 120)
    card = st.piles.top("exec_deck")
    st.specialty_owner[card] = 0
    with pytest.raises(RuleViolation, match="strayed"):
        st.check_invariants()
    del st.specialty_owner[card]
    st.check_invariants()
    # a card owned and found at home, then moved away without its owner changing
    hand = st.seat_names[0]["hand"]
    st.piles.move(card, "exec_deck", hand)
    st.specialty_owner[card] = 0
    st.check_invariants()
    st.piles.move(card, hand, "exec_discard")
    with pytest.raises(RuleViolation, match="strayed"):
        st.check_invariants()

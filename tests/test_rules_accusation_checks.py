"""Accusation's pile and mark checks look only at what a step changed, yet still catch every fault.

The incremental check is compared with the full check (every invariant read afresh) after every
step of seeded games; then a fault is made the way a faulty effect would make it (a card moved
through the Zones behind the board's back, a mark set where the rules allow none) and the very
next check must name it, as the full check does.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from pnpforge.rules.engine import RuleViolation
from pnpforge.rules.games.accusation import board, make_rules
from pnpforge.rules.games.accusation.agents import AccusationObservation
from pnpforge.rules.games.accusation.memo import READOUTS
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def checked_game(rules, seed: int, steps: int | None = None, until=None):
    """A random game checked after every step (both ways), stopped after `steps` steps, at the end,
    or as soon as `until(state)` holds."""
    rng = random.Random(seed)
    state = rules.new_initial_state(rules.players)
    state.check_invariants()
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()
        checks = READOUTS(state).board_checks
        assert checks is not None  # made by the first check
        checks.full_check(state)
        done += 1
        if until is not None and until(state):
            break
    return state


@pytest.mark.parametrize("mode", ["duel", "2v2"])
def test_the_kept_checks_agree_with_the_full_check_through_whole_games(db, mode):
    rules = make_rules(load_game(db, "accusation"), {"mode": mode})
    guilty_seen = 0
    for seed in range(1, 7):
        state = checked_game(rules, seed)
        guilty_seen += len(state.guilty)
        won = any(total >= board.rituals_to_win(state) for total in board.rituals_by_team(state).values())
        checks = READOUTS(state).board_checks
        assert checks is not None and checks.won == won
    assert guilty_seen  # the games made guilty followers, so that part of the check was exercised


def _state_with_guilty_follower(rules):
    for seed in range(1, 30):
        state = checked_game(rules, seed, until=lambda st: bool(st.guilty))
        if state.guilty and not state.is_terminal():
            return state
    pytest.fail("no seeded game made a guilty follower: the test needs other seeds")


def _move(state, card: int, seat: int, pile: str) -> None:
    """Move a card through the Zones alone, as an effect that forgot the board's bookkeeping would."""
    instance = state.instances[card]
    state.zones_.move(instance, state.zones_.where(instance), state.pile_names[seat][pile])


@pytest.mark.parametrize("mode", ["duel", "2v2"])
def test_a_guilty_follower_moved_off_the_field_is_caught(db, mode):
    state = _state_with_guilty_follower(make_rules(load_game(db, "accusation"), {"mode": mode}))
    follower = min(state.guilty)
    seat = board.location(state, follower)[0]
    _move(state, follower, seat, "discard")  # its guilty mark stays: the fault
    with pytest.raises(RuleViolation, match="is guilty but not a follower on the field"):
        state.check_invariants()


def test_a_guilty_mark_on_a_card_in_hand_is_caught(db):
    state = checked_game(make_rules(load_game(db, "accusation"), {}), 3, steps=60)
    card = board.pile(state, 0, "hand")[0]
    state.guilty = state.guilty | {card}
    with pytest.raises(RuleViolation, match="is guilty but not a follower on the field"):
        state.check_invariants()


def test_magic_on_a_field_and_a_follower_in_a_score_pile_are_caught(db):
    rules = make_rules(load_game(db, "accusation"), {})
    state = checked_game(rules, 4, steps=60)
    magic = next(
        c for c in range(len(rules.instances)) if rules.kind_of[c] == "magic" and board.owner(state, c) == 0
    )
    _move(state, magic, 0, "field")
    with pytest.raises(RuleViolation, match="on the field"):
        state.check_invariants()
    _move(state, magic, 0, "discard")
    state.check_invariants()  # sound again
    follower = next(
        c
        for c in range(len(rules.instances))
        if rules.kind_of[c] == "follower" and board.owner(state, c) == 1
    )
    _move(state, follower, 1, "score")
    with pytest.raises(RuleViolation, match="in the score zone is not a ritual"):
        state.check_invariants()


def test_a_leader_moved_out_of_play_is_caught(db):
    rules = make_rules(load_game(db, "accusation"), {"mode": "2v2"})
    state = checked_game(rules, 5, steps=80)
    leader = rules.leaders[-1]
    _move(state, leader, board.owner(state, leader), "exile")
    with pytest.raises(RuleViolation, match="left play to exile"):
        state.check_invariants()


def test_observations_hold_exactly_their_fields(db):
    rules = make_rules(load_game(db, "accusation"), {"mode": "2v2"})
    state = checked_game(rules, 2, steps=40)
    names = {f.name for f in dataclasses.fields(AccusationObservation)}
    for seat in range(rules.players):
        obs = state.observation(seat)
        assert set(vars(obs)) == names
        assert obs == AccusationObservation.of(**vars(obs))  # the checked constructor gives the same

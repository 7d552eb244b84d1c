"""Accusation's kept read-outs agree with the piles and marks they stand for, at every step.

The board keeps index lists of the piles, the stardust and guard sums, the observation's
shared fields and the main-phase options up to date as cards move instead of reading them
again at every decision; each is compared here with a fresh reading from the Zones and the
card data after every action of whole games.
"""

from __future__ import annotations

import random

import pytest

from pnpforge.rules.games.accusation import (
    ABILITY,
    END,
    LOC_ACTION,
    PLAY,
    RAID,
    REBUILD,
    make_rules,
)
from pnpforge.rules.games.accusation.board import PILES, PUBLIC_PILES
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def fresh_options(state, seat: int) -> list[tuple[int, ...]]:
    """The main-phase options read from scratch with the rules' own per-card functions."""
    options: list[tuple[int, ...]] = [(END,)]
    for card in state.field(seat, "leader"):
        if card not in state.abilities_used and state.card(card).steps("ability"):
            options.append((ABILITY, card))
    if state.actions_left <= 0:
        return sorted(options)
    for card in state.pile(seat, "hand") + state.pile(seat, "conspiracy"):
        if state.any_ritual_completed() or state.card(card).type != "leader":
            options.append((PLAY, card))
    available = sum(state.raid_value(f) for f in state.raiders(seat)) + state.raid_bonus_all(seat)
    for enemy in state.enemies(seat):
        for location in state.field(enemy, "location"):
            if available >= state.guard(location):
                options.append((RAID, location))
    for location in state.field(seat, "location"):
        if state.card(location).steps("action"):
            options.append((LOC_ACTION, location))
    if state.actions_left >= 2:
        for card in state.pile(seat, "discard"):
            if state.card(card).type == "ritual":
                options.append((REBUILD, card))
    return sorted(options)


def assert_readouts_match(state) -> None:
    index_of = {id(instance): card for card, instance in enumerate(state.instances)}
    for seat in range(state.players):
        for pile in PILES:
            in_zones = [index_of[id(i)] for i in state.zones_.view(state.pile_names[seat][pile])]
            assert state.pile(seat, pile) == in_zones, (seat, pile)
        assert state.public(seat) == tuple((p, tuple(in_zones_of(state, seat, p))) for p in PUBLIC_PILES)
        assert state.stardusts()[seat] == state.stardust(seat)
        assert state.raid_strength(seat) == sum(
            state.raid_value(f) for f in state.raiders(seat)
        ) + state.raid_bonus_all(seat)
        for location in state.field(seat, "location"):
            assert state.guard_by_location()[location] == state.guard(location)
    assert state.publics() == tuple(state.public(seat) for seat in range(state.players))
    assert state.hidden_counts() == (state.counts("hand"), state.counts("deck"), state.counts("under"))
    if state.decision is not None and state.decision.kind == "main":
        assert state.main_options(state.decision.seat) == fresh_options(state, state.decision.seat)


def in_zones_of(state, seat: int, pile: str) -> list[int]:
    index_of = {id(instance): card for card, instance in enumerate(state.instances)}
    return [index_of[id(i)] for i in state.zones_.view(state.pile_names[seat][pile])]


@pytest.mark.parametrize("mode", ["duel", "2v2"])
def test_kept_readouts_equal_fresh_readings_through_whole_games(db, mode):
    rules = make_rules(db, {"mode": mode})
    for seed in range(1, 5):
        rng = random.Random(seed)
        state = rules.new_initial_state(rules.players)
        steps = 0
        while not state.is_terminal():
            assert_readouts_match(state)
            for seat in range(state.players):
                obs = state.observation(seat)
                assert obs.hand == tuple(state.pile(seat, "hand"))
                assert obs.stardust == tuple(state.stardust(s) for s in range(state.players))
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        assert steps > 50


def test_a_move_gives_the_changed_piles_new_lists_and_keeps_the_others(db):
    """Readers keep a pile's list and tell by identity whether it moved: a move must replace the
    two lists it changed and leave every other list as it was."""
    rules = make_rules(db, {})
    state = rules.new_initial_state(rules.players)
    before = [dict(piles) for piles in state._lists]
    card = state.pile(0, "hand")[0]
    state.move(card, 0, "field")
    for seat in range(state.players):
        for pile in PILES:
            same = state.pile(seat, pile) is before[seat][pile]
            assert same == ((seat, pile) not in ((0, "hand"), (0, "field"))), (seat, pile)
    assert card not in before[0]["field"] and card in before[0]["hand"]  # old lists untouched
    assert state.pile(0, "field")[-1] == card

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
    arithmetic,
    board,
    flow,
    make_rules,
)
from pnpforge.rules.games.accusation.board import PILES, PUBLIC_PILES
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db


@pytest.fixture
def db(shipped_db):
    return open_db(shipped_db)


def fresh_options(state, seat: int) -> list[tuple[int, ...]]:
    """The main-phase options read from scratch with the rules' own per-card functions."""
    options: list[tuple[int, ...]] = [(END,)]
    for card in board.field(state, seat, "leader"):
        if card not in state.abilities_used and board.card(state, card).steps("ability"):
            options.append((ABILITY, card))
    if state.actions_left <= 0:
        return sorted(options)
    for card in board.pile(state, seat, "hand") + board.pile(state, seat, "conspiracy"):
        if arithmetic.any_ritual_completed(state) or board.card(state, card).type != "leader":
            options.append((PLAY, card))
    available = sum(
        arithmetic.raid_value(state, f) for f in arithmetic.raiders(state, seat)
    ) + arithmetic.raid_bonus_all(state, seat)
    for enemy in board.enemies(state, seat):
        for location in board.field(state, enemy, "location"):
            if available >= arithmetic.guard(state, location):
                options.append((RAID, location))
    for location in board.field(state, seat, "location"):
        if board.card(state, location).steps("action"):
            options.append((LOC_ACTION, location))
    if state.actions_left >= 2:
        for card in board.pile(state, seat, "discard"):
            if board.card(state, card).type == "ritual":
                options.append((REBUILD, card))
    return sorted(options)


def assert_readouts_match(state) -> None:
    index_of = {id(instance): card for card, instance in enumerate(state.instances)}
    for seat in range(state.players):
        for pile in PILES:
            in_zones = [index_of[id(i)] for i in state.zones_.view(state.pile_names[seat][pile])]
            assert board.pile(state, seat, pile) == in_zones, (seat, pile)
        assert board.public(state, seat) == tuple(
            (p, tuple(in_zones_of(state, seat, p))) for p in PUBLIC_PILES
        )
        assert arithmetic.stardusts(state)[seat] == arithmetic.stardust(state, seat)
        assert arithmetic.raid_strength(state, seat) == sum(
            arithmetic.raid_value(state, f) for f in arithmetic.raiders(state, seat)
        ) + arithmetic.raid_bonus_all(state, seat)
        for location in board.field(state, seat, "location"):
            assert arithmetic.guard_by_location(state)[location] == arithmetic.guard(state, location)
    assert board.publics(state) == tuple(board.public(state, seat) for seat in range(state.players))
    assert board.hidden_counts(state) == (
        board.counts(state, "hand"),
        board.counts(state, "deck"),
        board.counts(state, "under"),
    )
    if state.decision is not None and state.decision.kind == "main":
        assert flow.main_options(state, state.decision.seat) == fresh_options(state, state.decision.seat)


def in_zones_of(state, seat: int, pile: str) -> list[int]:
    index_of = {id(instance): card for card, instance in enumerate(state.instances)}
    return [index_of[id(i)] for i in state.zones_.view(state.pile_names[seat][pile])]


@pytest.mark.parametrize("mode", ["duel", "2v2"])
def test_kept_readouts_equal_fresh_readings_through_whole_games(db, mode):
    rules = make_rules(load_game(db, "accusation"), {"mode": mode})
    for seed in range(1, 5):
        rng = random.Random(seed)
        state = rules.new_initial_state(rules.players)
        steps = 0
        while not state.is_terminal():
            assert_readouts_match(state)
            for seat in range(state.players):
                obs = state.observation(seat)
                assert obs.hand == tuple(board.pile(state, seat, "hand"))
                assert obs.stardust == tuple(arithmetic.stardust(state, s) for s in range(state.players))
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        assert steps > 50


def test_a_move_gives_the_changed_piles_new_lists_and_keeps_the_others(db):
    """Readers keep a pile's list and tell by identity whether it moved: a move must replace the
    two lists it changed and leave every other list as it was."""
    rules = make_rules(load_game(db, "accusation"), {})
    state = rules.new_initial_state(rules.players)
    before = [dict(piles) for piles in state._lists]
    card = board.pile(state, 0, "hand")[0]
    board.move(state, card, 0, "field")
    for seat in range(state.players):
        for pile in PILES:
            same = board.pile(state, seat, pile) is before[seat][pile]
            assert same == ((seat, pile) not in ((0, "hand"), (0, "field"))), (seat, pile)
    assert card not in before[0]["field"] and card in before[0]["hand"]  # old lists untouched
    assert board.pile(state, 0, "field")[-1] == card

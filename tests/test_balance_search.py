"""The search agent sees only its observation: a sampled world depends on what the seat observes,
never on where the hidden cards really are, and it looks to the seat exactly like the real
position (the same observation, the same legal actions)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from dbcopies import SHIPPED_DB
from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games import load_rules
from pnpforge.rules.kit.worlds import NoWorld
from pnpforge.rules.runner import check_zones, pick_chance, play_game
from pnpforge.rules.search import SearchAgent, check_options
from pnpforge.store.db import open_db

CASES = [
    ("enforcer", 3, {}),
    ("enforcer", 5, {}),
    ("dirty-money", 2, {}),
    ("dirty-money", 4, {}),
    ("hackers", 2, {}),
    ("hackers", 3, {}),
    ("infiltraitors", 3, {"mission": "M03"}),
    ("infiltraitors", 4, {"mission": "M17"}),  # hands out: a seat sees the others' hands, not its own
    ("infiltraitors", 3, {"mission": "M19"}),  # a seat may look at the suspect set aside
    ("accusation", 2, {}),
]


@pytest.fixture(scope="module")
def db():
    return open_db(SHIPPED_DB, readonly=True)


def _canonical(state):
    """The piles, an unordered pile's cards as a set (its order is no part of the game)."""
    zones = state.card_zones()
    return {
        name: sorted(cards) if zones.is_unordered(name) else cards for name, cards in state.zones().items()
    }


def _positions(rules, players, seed, every):
    """Every `every`-th decision of a real choice in a random game, as (state, seat) pairs."""
    rng = random.Random(seed)
    state = rules.new_initial_state(players, rng)
    step = 0
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        if player != CHANCE and len(legal) > 1 and step % every == 0:
            yield state, player
        state.apply(pick_chance(state, rng) if player == CHANCE else legal[rng.randrange(len(legal))])
        step += 1


@pytest.mark.parametrize(("slug", "players", "options"), CASES)
def test_worlds_look_the_same_and_forget_where_hidden_cards_were(db, slug, players, options):
    rules = load_rules(db, slug, options)
    deck = Counter(rules.deck())
    checked = 0
    every = 2 if slug == "infiltraitors" else 7  # a mission is short
    positions = itertools.chain(*(_positions(rules, players, seed, every) for seed in (11, 12)))
    for state, seat in positions:  # a live position, checked before the game moves on
        try:
            world = state.resample_from_infostate(seat, random.Random(1))
            other = state.resample_from_infostate(seat, random.Random(2))
            again = other.resample_from_infostate(seat, random.Random(1))
        except NoWorld:
            continue
        checked += 1
        assert world.observation(seat) == state.observation(seat)
        assert world.legal_actions() == state.legal_actions()
        # `other` looks the same to the seat but has the hidden cards elsewhere: the same sample
        assert other.observation(seat) == state.observation(seat)
        assert _canonical(again) == _canonical(world)
        world.check_invariants()
        check_zones(world, deck)
        assert state.observation(seat) == state.observation(seat)  # sampling left the real game alone
        if checked % 4 == 1:  # a sampled world plays on to the end by the rules
            rng = random.Random(3)
            while not world.is_terminal():
                player, legal = world.current_player(), world.legal_actions()
                world.apply(pick_chance(world, rng) if player == CHANCE else legal[rng.randrange(len(legal))])
                world.check_invariants()
            check_zones(world, deck)
    assert checked >= 3


def test_a_sample_hides_what_the_seat_cannot_see(db):
    """Across samples another seat's hand changes while the seat's own hand never does."""
    rules = load_rules(db, "hackers", {})
    state, seat = next(iter(_positions(rules, 2, seed=4, every=9)))
    other = 1 - seat
    hands = {
        tuple(sorted(state.resample_from_infostate(seat, random.Random(k)).piles.ids(f"hand:{other}")))
        for k in range(8)
    }
    own = {
        tuple(state.resample_from_infostate(seat, random.Random(k)).piles.ids(f"hand:{seat}"))
        for k in range(8)
    }
    assert len(hands) > 1 and len(own) == 1


@pytest.mark.parametrize(("slug", "players", "options"), [CASES[0], CASES[2], CASES[4], CASES[6], CASES[9]])
def test_the_search_agent_plays_a_whole_game(db, slug, players, options):
    rules = load_rules(db, slug, options)
    agents = ["search"] + ["greedy"] * (players - 1)
    result = play_game(
        rules, players, 7, agents, options=options, agent_options={"budget": "1", "width": "2"}
    )
    assert result.completed, result.failure
    again = play_game(rules, players, 7, agents, options=options, agent_options={"budget": "1", "width": "2"})
    assert (again.returns, again.steps) == (result.returns, result.steps)  # seeded: the same game


def test_without_worlds_the_agent_takes_the_greedy_choice(db):
    rules = load_rules(db, "hackers", {})
    state, seat = next(iter(_positions(rules, 2, seed=4, every=9)))
    obs, legal = state.observation(seat), state.legal_actions()
    agent = SearchAgent(random.Random(0), rules, seat, {"budget": "2"})
    values = rules.greedy_values(obs, legal)
    assert agent.choose(obs, legal) == legal[values.index(max(values))]
    assert agent.decisions == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [({"budget": "0"}, "budget=0"), ({"width": "x"}, "whole number"), ({"depth": "3"}, "unknown"),
     ({"rollout": "smart"}, "rollout=smart"), ({"margin": "-1"}, "margin=-1")],
)  # fmt: skip
def test_bad_agent_options_are_refused(options, message):
    with pytest.raises(PnpError, match=message):
        check_options(options)

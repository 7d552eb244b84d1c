"""The search agent sees only its observation: a sampled world depends on what the seat observes,
never on where the hidden cards really are, and it looks to the seat exactly like the real
position (the same observation, the same legal actions)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest

from dbcopies import SHIPPED_DB
from pnpforge.errors import PnpError
from pnpforge.query import select
from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games import load_rules
from pnpforge.rules.games.accusation import worlds as accusation_worlds
from pnpforge.rules.games.dirty_money import worlds as dirty_money_worlds
from pnpforge.rules.games.infiltraitors import worlds as infiltraitors_worlds
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
     ({"rollout": "smart"}, "rollout=smart"), ({"margin": "-1"}, "margin=-1"),
     ({"confidence": "x"}, "expected a number"), ({"confidence": "11"}, "0..10")],
)  # fmt: skip
def test_bad_agent_options_are_refused(options, message):
    with pytest.raises(PnpError, match=message):
        check_options(options)


def _swapped(state, a, b):
    """`state` with cards `a` and `b` trading places (and every reference to them), or None when
    that position could not arise (the history no longer replays, an invariant breaks)."""
    if hasattr(state, "history"):  # accusation: a position is its history
        number = {card: i for i, card in enumerate(state.instances)}
        index = {number[a]: number[b], number[b]: number[a]}
        world = type(state)(state.rules)
        try:
            for action in state.history:
                world.apply(accusation_worlds._renamed(action, index))
        except RuleViolation:
            return None
    else:
        world = state.clone()
        zones = world.card_zones()
        where_a, where_b = zones.where(a), zones.where(b)
        if where_a == where_b:
            return None
        zones.move(a, where_a, where_b)
        zones.move(b, where_b, where_a)
        world._legal = None  # the engines' kept legal actions and draws are stale
        if hasattr(world, "choice"):  # hackers: a board's key card is named
            swap = {a: b, b: a}
            world.choice = [c if c is None else replace(c, key=swap.get(c.key, c.key)) for c in world.choice]
        if hasattr(world, "_draw_lists"):
            dirty_money_worlds.forget_caches(world)
    try:
        world.check_invariants()
    except RuleViolation:
        return None
    return world


def _kept(state, seat):
    return state.fixed_cards(seat) if hasattr(state, "fixed_cards") else frozenset()


def _telling_positions(rules, players, slug):
    """Decisions of random games: every one where the sampler keeps some hidden card in place (where
    a leak would hide), up to 20, and every fifth of the others, up to 20."""
    kept, others, step = 0, 0, 0
    for seed in range(21, 29):
        for state, seat in _positions(rules, players, seed, 1):
            step += 1
            if kept < 20 and _kept(state, seat) and (slug != "accusation" or step % 3 == 0):
                kept += 1
                yield state, seat
            elif others < 20 and step % (2 if slug == "infiltraitors" else 5) == 0:
                others += 1
                yield state, seat
            if kept >= 20 and others >= 20:
                return


def _hidden_piles(state, seat):
    """The groups of piles the sampler deals afresh (Infiltraitors deals one group of its own)."""
    if hasattr(state, "stand_piles"):
        hinted, free = infiltraitors_worlds._places(state, seat)
        return [[pile for _, pile in hinted] + free]
    return state.hidden_groups(seat)


@pytest.mark.parametrize(("slug", "players", "options"), CASES)
def test_positions_the_seat_cannot_tell_apart_give_the_same_samples(db, slug, players, options):
    """Two cards trade places where the seat cannot see it (its observation and its legal actions
    stay the same, the position stays legal): the agent must not be able to tell, so the sampled
    worlds must be the very same.  A sampler that keeps a hidden card where it really is (a card
    under a face-up board not yet resolved, another hand than the one a trade looks at, a ritual
    sacrificed face down) fails here, as do legal actions that name hidden cards."""
    rules = load_rules(db, slug, options)
    type_of = {card.id: card.type for card in select.cards(db, select.select(db, slug))}
    pick = random.Random(5)
    swaps = 0
    for state, seat in _telling_positions(rules, players, slug):
        obs, legal = state.observation(seat), state.legal_actions()
        zones = state.card_zones()
        groups = [[c for pile in group for c in zones.view(pile)] for group in _hidden_piles(state, seat)]
        kept = sorted(_kept(state, seat))
        for _ in range(12):
            group = pick.choice(groups)  # the sampler's hidden piles, cards it keeps in place included
            if len(group) < 2:
                continue
            a, b = pick.sample(group, 2)
            if kept and pick.random() < 0.5:  # half the time a card the sampler keeps where it is
                a = pick.choice(kept)
                b = pick.choice(next((g for g in groups if a in g), [c for g in groups for c in g]))
            if (
                a.card == b.card
                or type_of[a.card] != type_of[b.card]
                or state.card_kind(a) != state.card_kind(b)
            ):
                continue  # a card's type shows on its back (and the engine's kinds are public too)
            twin = _swapped(state, a, b)
            if twin is None or twin.observation(seat) != obs:
                continue
            swaps += 1
            assert twin.legal_actions() == legal, (a, b)  # the choices must not name hidden cards
            for k in (1, 2):
                try:
                    world = state.resample_from_infostate(seat, random.Random(k))
                except NoWorld:
                    continue
                other = twin.resample_from_infostate(seat, random.Random(k))
                assert _canonical(other) == _canonical(world), (a, b, state.card_zones().where(a))
                seen = [world.observation(q) for q in range(players)]
                assert [other.observation(q) for q in range(players)] == seen
    assert swaps >= 5  # enough hidden swaps were tried for the test to mean something


def _worlds(*wins):
    return [[(float(w), 0.0) for w in row] for row in wins]


def test_the_greedy_choice_stays_unless_another_wins_consistently(db):
    rules = load_rules(db, "hackers", {})
    agent = SearchAgent(random.Random(0), rules, 0, {})
    # candidate 1 wins one world more and loses none: a consistent advantage
    assert agent._pick(_worlds([0, 1, 0], [1, 1, 0], [0, 0, 0])) == 1
    # candidate 2's raw mean is best, but one world for it, one against: luck, the greedy choice stays
    assert agent._pick(_worlds([0, 0, 1], [1, 0, 0], [0, 0, 1])) == 0
    best_mean = SearchAgent(random.Random(0), rules, 0, {"confidence": "0", "margin": "0"})
    assert best_mean._pick(_worlds([0, 0, 1], [1, 0, 0], [0, 0, 1])) == 2
    # a higher score in every world, no more wins: the score only breaks ties, the greedy choice stays
    assert agent._pick([[(1.0, 3.0), (1.0, 5.0)], [(0.0, 2.0), (0.0, 4.0)]]) == 0
    assert agent._pick([]) == 0  # no world: the greedy choice

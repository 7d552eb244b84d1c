"""The engine shape every engine shares.

Every engine's positions can be copied (`clone()`) and rebuilt from their action list
(`kit.replay`): a copy goes its own way, and the replayed and copied positions play on exactly
as the original did."""

from __future__ import annotations

import ast
import dataclasses
import gc
import importlib
import random
from enum import Enum
from pathlib import Path
from types import FunctionType, MappingProxyType, MethodType
from typing import Any

import pytest
import sqlite_utils

from dbcopies import SHIPPED_DB
from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, State
from pnpforge.rules.games import hackers, load_rules, module_name, register, unregister
from pnpforge.rules.kit import GameData, Zones, game_cards, replay
from pnpforge.rules.runner import pick_chance, play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db

CASES = [
    ("enforcer", 3, {}),
    ("dirty-money", 3, {}),
    ("hackers", 2, {}),
    ("infiltraitors", 3, {"mission": "M03"}),
    ("accusation", 2, {}),
    ("accusation", 4, {"mode": "2v2"}),
]


@pytest.fixture(scope="module")
def db():
    return open_db(SHIPPED_DB, readonly=True)


def _position(state):
    """What a position shows: whose turn, the legal actions, every pile (an unordered pile's
    cards as a sorted list: its order is no part of the game) and the events so far."""
    zones = state.card_zones()
    piles = {
        name: sorted(cards) if zones.is_unordered(name) else list(cards)
        for name, cards in state.zones().items()
    }
    terminal = state.is_terminal()
    return (
        state.current_player(),
        [] if terminal else state.legal_actions(),
        piles,
        [(e.kind, e.seat, e.text) for e in state.events],
        state.returns() if terminal else None,
    )


def _random_game(rules, players, seed):
    """A seeded random game: its action list, with the position after each of a few steps."""
    rng = random.Random(seed)
    state = rules.new_initial_state(players, rng)
    actions, marks = [], {}
    while not state.is_terminal() and len(actions) < 400:
        if len(actions) in (0, 5, 20, 60, 250):
            marks[len(actions)] = (state.clone(), _position(state))
        legal = state.legal_actions()
        action = (
            pick_chance(state, rng) if state.current_player() == CHANCE else legal[rng.randrange(len(legal))]
        )
        state.apply(action)
        actions.append(action)
    return state, actions, marks


@pytest.mark.parametrize(("slug", "players", "options"), CASES)
def test_replay_and_clone_rebuild_every_position(db, slug, players, options):
    rules = load_rules(db, slug, options)
    final, actions, marks = _random_game(rules, players, seed=11)
    assert len(marks) >= 3, "the game is long enough to copy positions along the way"
    for step, (copy, seen) in marks.items():
        # the copy stayed where it was made while the original played on
        assert _position(copy) == seen, (slug, step)
        # the same position from the action list alone
        assert _position(replay(rules, players, actions[:step])) == seen, (slug, step)
        # and the copy, given the rest of the actions, ends where the original ended
        for action in actions[step:]:
            copy.apply(action)
        assert _position(copy) == _position(final), (slug, step)


def test_a_clone_is_independent_of_its_original(db):
    rules = load_rules(db, "dirty-money", {})
    state = rules.new_initial_state(3, random.Random(1))
    copy = state.clone()
    rng = random.Random(2)
    while copy.current_player() == CHANCE:
        copy.apply(pick_chance(copy, rng))
    assert _position(state) != _position(copy)
    assert _position(state) == _position(rules.new_initial_state(3, random.Random(1)))


def test_engines_never_read_the_database():
    """Engines receive their cards and player counts from the kit (`kit.game_cards`,
    `kit.game_info`): no engine module, shipped or the contributing guide's example, imports the store."""
    root = Path(__file__).resolve().parent.parent
    engines = [
        *(root / "cli/pnpforge/rules/games").glob("*/*.py"),
        *(root / "tests/fixtures").glob("*/engines/*/*.py"),
    ]
    assert len(engines) > 40
    readers = []
    for path in engines:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += (
                [alias.name for alias in node.names] if isinstance(node, ast.Import | ast.ImportFrom) else []
            )
            if any(name == "pnpforge.store" or name.startswith("pnpforge.store.") for name in names):
                readers.append(str(path.relative_to(root)))
    assert readers == []


def test_an_engine_is_given_its_cards_as_data_not_the_database(db):
    """`load_rules` has the kit read the game once and hands the engine plain data: the cards in
    deck order and the player range, nothing that reaches the database."""
    given = []

    def probe(game, options):
        given.append(game)
        return hackers.make_rules(game, options)

    register("hackers", probe)
    try:
        rules = load_rules(db, "hackers", {})
    finally:
        unregister("hackers")
    (game,) = given
    assert isinstance(game, GameData) and dataclasses.is_dataclass(game)
    assert [card.id for card in game.cards] == [card.id for card in repo.list_cards(db, "hackers")]
    assert (rules.info.players_min, rules.info.players_max) == (game.players_min, game.players_max)
    assert not any(isinstance(value, sqlite_utils.Database) for value in vars(game).values())


def test_an_engine_written_for_the_database_fails_at_set_up_in_one_line(db):
    """A designer's engine from before (`make_rules(db, options)` calling `game_cards(db, slug)`)
    now receives the kit's data: it stops at set-up with one line naming the engine, rather than
    reading its slug as a card type and playing with no cards."""

    def old_style(db_handle, options):
        return game_cards(db_handle, "hackers")

    register("hackers", old_style)
    try:
        with pytest.raises(
            PnpError, match=r"^the rules engine of 'hackers' \(.*\) failed while setting up: TypeError"
        ):
            load_rules(db, "hackers", {})
    finally:
        unregister("hackers")


@pytest.mark.parametrize("slug", sorted({slug for slug, _players, _options in CASES}))
def test_a_state_is_one_class_over_the_engine_interface(db, slug):
    """The rules are functions over the state, not base classes or mixins it is built from."""
    slug_cases = [(players, options) for s, players, options in CASES if s == slug]
    players, options = slug_cases[0]
    state = load_rules(db, slug, options).new_initial_state(players, random.Random(0))
    assert type(state).__bases__ == (State,), type(state).__mro__


@pytest.mark.parametrize(("slug", "players", "options"), CASES)
def test_read_outs_live_outside_the_position(db, slug, players, options):
    """What the rules derive from a position for speed is kept in a memo beside it (the engine's
    `memo.READOUTS`), not in it: a copy has read-outs of its own, and the memo forgets a position
    that is gone."""
    memo = importlib.import_module(f"pnpforge.rules.games.{module_name(slug)}.memo")
    readouts = memo.READOUTS
    rules = load_rules(db, slug, options)
    _final, actions, _marks = _random_game(rules, players, seed=5)
    state = replay(rules, players, actions[:30])
    state.legal_actions()
    gc.collect()  # positions of earlier games that only the collector frees
    kept = len(memo.MEMO)
    copies = [state.clone() for _ in range(3)]
    assert [copy.legal_actions() for copy in copies] == [state.legal_actions()] * 3
    assert all(readouts(copy) is not readouts(state) for copy in copies)
    assert len(memo.MEMO) == kept + 3
    del copies
    gc.collect()
    assert len(memo.MEMO) == kept


# The kit's own read-outs inside its piles (`Zones`): "which piles moved" for their watchers and
# the id read-outs dropped at every move. They are the kit's, documented there; every other
# attribute of a state or a rules object counts.
_ZONES_READOUTS = frozenset({"_watchers", "_ids_of", "_texts_of", "_sorted_ids"})


def _contents(value: Any, skip: object = None, path: frozenset[int] = frozenset()) -> Any:
    """What `value` holds, as plain data two objects can be compared by: containers by their
    items (in order), objects by every attribute (`__dict__` and `__slots__`), functions and
    classes by name; `skip` (a state's rules, which every position shares) by name only."""
    if value is None or isinstance(value, bool | int | float | str | bytes | Enum):
        return value
    if value is skip:
        return "<rules>"
    if id(value) in path:
        return "<cycle>"
    inner = path | {id(value)}
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_contents(item, skip, inner) for item in value])
    if isinstance(value, dict | MappingProxyType):
        return ("map", [(_contents(k, skip, inner), _contents(v, skip, inner)) for k, v in value.items()])
    if isinstance(value, set | frozenset):
        return ("set", sorted(repr(_contents(item, skip, inner)) for item in value))
    if (
        isinstance(value, FunctionType | MethodType | type)
        or callable(value)
        and not hasattr(value, "__dict__")
    ):
        return ("code", getattr(value, "__qualname__", repr(value)))
    if isinstance(value, random.Random):
        return ("rng", value.getstate())
    names = list(getattr(value, "__dict__", {}))
    for cls in type(value).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    if isinstance(value, Zones):
        names = [name for name in names if name not in _ZONES_READOUTS]
    if not names:
        return ("value", repr(value))
    attrs = sorted(
        {name for name in names if name not in ("__dict__", "__weakref__") and hasattr(value, name)}
    )
    return (
        type(value).__qualname__,
        [(name, _contents(getattr(value, name), skip, inner)) for name in attrs],
    )


@pytest.mark.parametrize(("slug", "players", "options"), CASES)
def test_a_rules_object_keeps_no_cache(db, slug, players, options):
    """A rules object is shared by every game played with it: after games by every kind of agent
    (greedy agents asking the heuristic at every decision, a search agent sampling worlds) it
    holds exactly what a rules object made afresh holds. A cache kept on it would be filled."""
    rules = load_rules(db, slug, options)
    made = _contents(rules)
    for seed, agents in ((1, "greedy"), (2, "random"), (3, "greedy")):
        result = play_game(rules, players, seed, [agents] * players, options=options)
        assert result.completed, result.failure
    searched = play_game(
        rules, players, 4, ["search"] + ["random"] * (players - 1), options=options,
        agent_options={"budget": "1", "width": "1"},
    )  # fmt: skip
    assert searched.completed, searched.failure
    assert _contents(rules) == made
    assert _contents(load_rules(db, slug, options)) == made


def _ask_everything(rules, state, players: int) -> None:
    """Every question an agent, the runner or the checker asks of a position, none of which
    changes it."""
    state.is_terminal()
    if state.is_terminal():
        state.returns()
        return
    player = state.current_player()
    legal = state.legal_actions()
    if player == CHANCE:
        state.chance_outcomes()
    for seat in range(players):
        obs = state.observation(seat)
        if seat == player:
            rules.greedy_values(obs, legal)
            rules.greedy_agent_values()(obs, legal)
    state.check_invariants()
    state.clone()


@pytest.mark.parametrize(("slug", "players", "options"), CASES)
def test_asking_a_position_leaves_it_as_it_was(db, slug, players, options):
    """A position holds what the game is, nothing it derives for speed: asking it everything
    (legal actions, chance odds, every seat's observation, the greedy values, the invariant
    check, a copy) leaves every attribute as it was, at every step of a game."""
    rules = load_rules(db, slug, options)
    _final, actions, _marks = _random_game(rules, players, seed=7)
    state = replay(rules, players, [])
    asked = 0
    for step, action in enumerate(actions[:120]):
        if step % 3 == 0:
            before = _contents(state, skip=rules)
            _ask_everything(rules, state, players)
            assert _contents(state, skip=rules) == before, (slug, step)
            asked += 1
        state.apply(action)
    assert asked >= 10

"""Every registered engine plays random and greedy games under a checker that looks at every state.

Per state: the legal actions are sorted and non-empty, the piles hold the
deck exactly once, every seat's observation is plain immutable data and its
own, new events are well formed; at the end the scores recomputed by the
scoring rules equal the returns.  Engines are found through the registry, so
a new engine is covered without editing this file.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pnpforge.rules.engine import CHANCE, RuleViolation, State
from pnpforge.rules.games import engine_slugs, load_rules
from pnpforge.rules.kit import check_observation
from pnpforge.rules.runner import check_event, check_legal, check_zones, play_game
from pnpforge.store.db import open_db

SHIPPED_DB = Path(__file__).resolve().parent.parent / "cards.db"
SLUGS = engine_slugs()
DEFAULT_SEEDS = range(3)
SLOW_SEEDS = range(3, 40)


class StateChecker:
    """The per-state checks; counts what it looked at so a test can prove it ran."""

    def __init__(self, rules: Any, players: int) -> None:
        self.rules, self.players = rules, players
        self.deck = Counter(rules.deck())
        self.cards = {c.card for c in self.deck}
        self.events_seen = 0
        self.states = 0
        self.illegal_tried = 0

    def __call__(self, state: State) -> None:
        self.states += 1
        check_zones(state, self.deck)
        if not state.is_terminal():
            legal = state.legal_actions()
            check_legal(legal)
            player = state.current_player()
            if player != CHANCE and not 0 <= player < self.players:
                raise RuleViolation(f"current_player() returned {player}")
            if player != CHANCE and self.illegal_tried < 1:
                self._refuses_illegal(state, legal)
        for seat in range(self.players):
            check_observation(state.observation(seat), seat)
        for event in state.events[self.events_seen :]:
            check_event(event, self.players, self.cards)
        self.events_seen = len(state.events)
        if state.is_terminal() and state.scores_from_rules() != state.returns():
            raise RuleViolation("scores_from_rules() differs from returns()")

    def _refuses_illegal(self, state: State, legal: list[Any]) -> None:
        """apply() of an action outside legal_actions() raises RuleViolation and is caught early."""
        self.illegal_tried += 1
        illegal: Any = (10**9,) if isinstance(legal[0], tuple) else 10**9
        try:
            copy.deepcopy(state).apply(illegal)
        except RuleViolation:
            return
        raise AssertionError(f"apply({illegal!r}) was accepted though it is not a legal action")


def _scenario_rules(db, slug: str, seed: int) -> tuple[Any, dict[str, Any]]:
    rules = load_rules(db, slug, {})
    scenarios = rules.scenarios()
    if not scenarios:
        return rules, {}
    options = {"mission": scenarios[seed % len(scenarios)]}
    return load_rules(db, slug, options), options


def _play_all_counts(slug: str, seeds: range, agent: str) -> None:
    db = open_db(SHIPPED_DB, readonly=True)
    for seed in seeds:
        rules, options = _scenario_rules(db, slug, seed)
        for players in range(rules.info.players_min, rules.info.players_max + 1):
            checker = StateChecker(rules, players)
            result = play_game(rules, players, seed, [agent] * players, checker=checker, options=options)
            assert result.completed, f"{slug} seed {seed}, {players} players, {options}: {result.failure}"
            assert checker.states == result.steps > 0
            assert len(result.returns) == players


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_engine_plays_legal_conserving_pure_games(slug, agent):
    _play_all_counts(slug, DEFAULT_SEEDS, agent)


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_engine_plays_many_games(slug, agent):
    _play_all_counts(slug, SLOW_SEEDS, agent)


def test_registry_finds_the_shipped_engines():
    assert len(SLUGS) >= 5 and all("_" not in s for s in SLUGS)

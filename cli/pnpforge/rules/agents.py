"""Seeded agents for sample games: uniformly random, and a one-step greedy one.

An agent sees `state.hidden_view(seat)`, never more, so engines with hidden
information decide what an agent may use.
"""

from __future__ import annotations

import random
from typing import Hashable, Sequence

AGENTS = ("random", "greedy")


class RandomAgent:
    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view, legal: Sequence[Hashable]) -> Hashable:
        return legal[self.rng.randrange(len(legal))]


class GreedyAgent:
    """Takes the action the engine values most (`greedy_value`), ties broken at random.

    Engines without the hook get random play, so a new engine can be checked
    before it has a heuristic.
    """

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view, legal: Sequence[Hashable]) -> Hashable:
        value = getattr(view, "greedy_value", None)
        if value is None:
            return legal[self.rng.randrange(len(legal))]
        scored = [(value(a), i) for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        top = [i for s, i in scored if s == best]
        return legal[top[self.rng.randrange(len(top))]]


def make_agent(name: str, seed: int, seat: int):
    rng = random.Random(f"agent:{seed}:{seat}")
    if name == "random":
        return RandomAgent(rng)
    if name == "greedy":
        return GreedyAgent(rng)
    raise ValueError(f"unknown agent '{name}' (allowed: {', '.join(AGENTS)})")


def seat_agents(mode: str, players: int, game_index: int) -> list[str]:
    """Which agent plays each seat: one kind everywhere, or mixed and rotated per game."""
    if mode in AGENTS:
        return [mode] * players
    return [AGENTS[(seat + game_index) % 2] for seat in range(players)]

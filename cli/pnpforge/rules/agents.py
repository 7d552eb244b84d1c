"""Seeded agents for sample games, and which agent plays which seat.

An agent receives the seat's observation and the sorted legal actions, never
the state, so hidden information stays hidden.  The greedy agent asks the
engine's one hook, `GameRules.greedy_value(obs, action)`, through
`GameRules.greedy_values(obs, legal)`, which values every legal action of one
decision in one call (an engine may override it to share the look-ahead).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from pnpforge.errors import PnpError

AGENTS = ("random", "greedy")  # the agents of the check's mixed tables
KNOWN_AGENTS = AGENTS + ("search",)  # every agent a seat may name (`search`: rules.search)
MODES = AGENTS + ("mixed", "auto")

ValuesFn = Callable[[Any, Sequence[Any]], list[float]]  # (observation, legal actions) -> value of each


class Agent(Protocol):
    name: str
    observes: bool  # False: choose() ignores the observation, so the runner need not build it

    def choose(self, obs: Any, legal: Sequence[Any]) -> Any: ...

    def forced(self, action: Any) -> Any:
        """`action`, the only legal one, drawing from the agent's generator exactly what
        `choose` would draw, so every later choice is the same; the runner then need not
        build an observation nor value a choice that is no choice."""
        ...


class RandomAgent:
    """Uniformly random legal play: explores corners of the rules greedy play never reaches."""

    name = "random"
    observes = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, obs: Any, legal: Sequence[Any]) -> Any:
        return legal[self.rng.randrange(len(legal))]

    def forced(self, action: Any) -> Any:
        self.rng.randrange(1)  # what choose() draws from a list of one
        return action


class GreedyAgent:
    """Takes the action the engine values most for this observation, ties broken at random.

    Engines whose hook returns the default 0.0 everywhere get random play, so a
    new engine can be checked before it has a heuristic.
    """

    name = "greedy"
    observes = True

    def __init__(self, rng: random.Random, values: ValuesFn) -> None:
        self.rng = rng
        self.values = values

    def choose(self, obs: Any, legal: Sequence[Any]) -> Any:
        scores = self.values(obs, legal)
        best = max(scores)
        if scores.count(best) == 1:  # the usual case; the draw is still made, so games do not change
            self.rng.randrange(1)
            return legal[scores.index(best)]
        top = [i for i, s in enumerate(scores) if s == best]
        return legal[top[self.rng.randrange(len(top))]]

    def forced(self, action: Any) -> Any:
        self.rng.randrange(1)  # the tie-break choose() draws when one action is best
        return action


def make_agent(
    name: str,
    seed: int,
    seat: int,
    values: ValuesFn | None = None,
    rules: Any = None,
    options: dict[str, str] | None = None,
) -> Agent:
    """The agent `name` for `seat` of game `seed`: its randomness depends on both alone.
    The search agent also needs the rules (to play its rollouts) and takes `options` (budget…)."""
    rng = random.Random(f"agent:{seed}:{seat}")
    if name == "random":
        return RandomAgent(rng)
    if name == "greedy":
        return GreedyAgent(rng, values or (lambda obs, legal: [0.0] * len(legal)))
    if name == "search" and rules is not None:
        from pnpforge.rules.search import SearchAgent

        return SearchAgent(rng, rules, seat, options or {})
    raise PnpError(f"unknown agent '{name}' (allowed: {', '.join(KNOWN_AGENTS)})")


def parse_agents(text: str, players: int | None = None) -> list[str] | None:
    """A per-seat list such as 'greedy,greedy,random', or None when `text` is a mode name."""
    if text in MODES:
        return None
    names = [n.strip() for n in text.split(",")]
    for name in names:
        if name not in AGENTS:
            raise PnpError(
                f"--agents: unknown agent '{name}' (allowed: {', '.join(AGENTS)}, "
                f"or a mode: {', '.join(MODES)})"
            )
    if players is not None and len(names) != players:
        raise PnpError(f"--agents names {len(names)} agents for {players} players")
    return names


def resolve_mode(mode: str, cooperative: bool) -> str:
    """`auto` is greedy teams for cooperative games and mixed tables for competitive ones."""
    if mode == "auto":
        return "greedy" if cooperative else "mixed"
    if mode not in MODES:
        raise PnpError(f"unknown agent mode '{mode}' (allowed: {', '.join(MODES)})")
    return mode


def seat_agents(mode: str, players: int, rotation: int) -> list[str]:
    """Which agent plays each seat.  In `mixed` mode agents alternate around the table and
    `rotation` shifts them by one seat, so two consecutive rotations of the same player
    count give every seat every agent once."""
    if mode in AGENTS:
        return [mode] * players
    if mode != "mixed":
        raise PnpError(f"unknown agent mode '{mode}' (allowed: {', '.join(MODES)})")
    return [AGENTS[(seat + rotation) % len(AGENTS)] for seat in range(players)]


def rotations(counts: Sequence[int], scenarios: int) -> Iterator[tuple[int, int, int]]:
    """(player count, scenario index, rotation) of game 0, 1, 2…, for ever.

    Scenarios vary fastest, then player counts, then the seat rotation: every
    scenario meets every player count, and each (count, scenario) pair is seen
    with both rotations in turn, so no seat is tied to one agent.
    """
    index = 0
    per_cycle = scenarios * len(counts)
    while True:
        scenario = index % scenarios
        count = counts[(index // scenarios) % len(counts)]
        yield count, scenario, (index // per_cycle) % len(AGENTS)
        index += 1

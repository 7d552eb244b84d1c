"""Games aimed at cards the planned games never used or used far too little, before a verdict.

A rare card can miss 100 games by chance (a special card only some missions
shuffle in), and a card used once in 100 games may be nearly useless or
merely hard: 100 games cannot tell.  So a miss or a warning is a question,
not a verdict: the check plays further games aimed at those cards — every
player count, greedy, random and mixed tables, first the scenarios in which
cards of the same type were used — until each missed card has been used and
each under-used one is shown nearly useless or cleared (pnpforge.rules.usage),
or the budget is spent.  Every card's use is counted in the aimed games too,
so a card is compared with its peers over the same games.  The aimed games
take their seeds after the planned ones, their plan from the planned run's
facts only, and are folded in seed order in whole batches, so the same run
always plays, and counts, the same aimed games whatever the workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

AIMED_GAMES = 1000  # at most this many aimed games per check
BATCH = 50  # games folded in between looks at what is still unresolved
MODES = ("greedy", "random", "mixed")


@dataclass
class AimedRun:
    """What the aimed games found: the cards they were aimed at, and the game each was first used in."""

    aimed_at: list[str]
    missed: list[str] = field(default_factory=list)  # the cards the planned games never used
    games: int = 0
    found: dict[str, int] = field(default_factory=dict)  # missed card -> seed of the first game using it
    scenarios: list[str | None] = field(default_factory=list)
    replays: dict[str, list[str]] = field(default_factory=dict)  # card -> `pnp` arguments of that game
    failures: list[dict[str, Any]] = field(default_factory=list)  # {seed, error, replay} of failed games

    @property
    def still_unused(self) -> list[str]:
        return [c for c in self.missed if c not in self.found]

    def to_dict(self) -> dict[str, Any]:
        return {
            "aimed_at": self.aimed_at,
            "missed": self.missed,
            "games": self.games,
            "found": self.found,
            "still_unused": self.still_unused,
            "scenarios": [s for s in self.scenarios if s is not None],
            "replays": self.replays,
            "failures": self.failures,
        }


def aimed_scenarios(
    missing: list[str],
    types: dict[str, str],
    scenario_cards: dict[str | None, set[str]],
    scenarios: list[str | None],
) -> list[str | None]:
    """Scenarios in which a card of a missing card's type was used first, then the others."""
    wanted = {types.get(c) for c in missing}
    hit = [s for s in scenarios if any(types.get(c) in wanted for c in scenario_cards.get(s, ()))]
    return hit + [s for s in scenarios if s not in hit]


def plan(
    first_seed: int,
    counts: list[int],
    scenarios: list[str | None],
    seat_agents: Callable[[str, int, int], list[str]],
    cooperative: bool,
) -> Iterator[tuple[int, int, tuple[str, ...], str | None]]:
    """(seed, players, agents, scenario) of the aimed games: scenarios fastest, then player counts,
    then the table (greedy, random, mixed with both rotations; greedy teams first when cooperative)."""
    tables = [("greedy", 0), ("mixed", 0), ("random", 0), ("mixed", 1)]
    if not cooperative:
        tables = [("mixed", 0), ("mixed", 1), ("greedy", 0), ("random", 0)]
    index = 0
    while index < AIMED_GAMES:
        for mode, rotation in tables:
            for count in counts:
                for scenario in scenarios:
                    if index >= AIMED_GAMES:
                        return
                    yield first_seed + index, count, tuple(seat_agents(mode, count, rotation)), scenario
                    index += 1

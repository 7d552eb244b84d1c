"""A position rebuilt from its actions: every engine's positions are pure functions of the rules,
the number of seats and the actions applied, chance outcomes included.

Engines deal and shuffle through chance actions (never through the generator they are given),
so the action list of a game is its whole record: a report's replay line, a search agent's
world and a test's position are all rebuilt by applying it to a fresh initial state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnpforge.rules.engine import GameRules, State


def replay(rules: GameRules, players: int, actions: Iterable[Any]) -> State:
    """The position `actions` reach from the start of a game of `players` seats; RuleViolation
    when one of them is not legal where it is applied (the engine's own check)."""
    # the generator is for set-up choices no agent makes; no engine draws from it, so any seed does
    state = rules.new_initial_state(players, random.Random(0))
    for action in actions:
        state.apply(action)
    return state

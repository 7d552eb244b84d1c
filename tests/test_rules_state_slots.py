"""The shipped engines keep every attribute of a position in a slot.

A position is read thousands of times a game; CPython reads an instance's attributes fast
from a shared-key dict only up to 30 of them, and every shipped position has more, so each
declares `__slots__`.  An attribute added later without a slot still works, silently slower:
this test names it instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpforge.rules.games import load_rules
from pnpforge.rules.runner import play_game
from pnpforge.store.db import open_db

SHIPPED_DB = Path(__file__).resolve().parent.parent / "cards.db"
GAMES = [
    ("enforcer", {}),
    ("dirty-money", {}),
    ("hackers", {}),
    ("infiltraitors", {}),
    ("accusation", {}),
    ("accusation", {"mode": "2v2"}),
]


def _positions(slug: str, options: dict[str, Any], agent: str) -> list[Any]:
    """Every position `new_initial_state` made while two seeded games were played to the end."""
    rules = load_rules(open_db(SHIPPED_DB, readonly=True), slug, options)
    made: list[Any] = []
    make = type(rules).new_initial_state

    def recording(players: int, rng: Any = None) -> Any:
        state = make(rules, players, rng)
        made.append(state)
        return state

    rules.new_initial_state = recording
    for seed in (1, 2):
        players = rules.info.players_min + seed % (rules.info.players_max - rules.info.players_min + 1)
        result = play_game(rules, players, seed, [agent] * players, options=options)
        assert result.completed, result.failure
    return made


@pytest.mark.parametrize("agent", ["random", "greedy"])
@pytest.mark.parametrize(("slug", "options"), GAMES)
def test_every_attribute_of_a_position_is_a_slot(slug, options, agent):
    positions = _positions(slug, options, agent)
    assert positions
    for state in positions:
        unslotted = sorted(vars(state))
        assert not unslotted, f"{type(state).__name__}: add {unslotted} to __slots__"


def test_the_check_sees_an_attribute_outside_the_slots():
    state = _positions("hackers", {}, "random")[0]
    state.scratch = 1  # a base class without slots still gives positions a dict
    assert sorted(vars(state)) == ["scratch"]

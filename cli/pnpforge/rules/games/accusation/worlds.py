"""Sampled worlds for a search agent: what one seat cannot see in Accusation, dealt afresh.

Hidden from a seat: the other seats' decks, hands and sacrificed cards, and the order and
contents of its own deck.  Rituals stay where they are: every seat starts with its rituals in
hand, so a ritual not on the table is known to be in its owner's hand.  A position is a pure
function of its action history (that is how it is copied), so a sample renames the hidden cards
as a fresh deal would place them (each pile keeping its size, `kit.worlds.relabelling`) and
replays the history under the new names.  A
renaming under which an earlier action would be illegal (a seat once did what only the real
card allowed) is dealt again, up to `TRIES` times; then the search agent plays its greedy choice.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from pnpforge.rules.engine import RuleViolation
from pnpforge.rules.kit.worlds import NoWorld, relabelling

from .actions import FIRST, AccusationAction

if TYPE_CHECKING:
    from .state import AccusationState

TRIES = 8


def hidden_groups(st: AccusationState, seat: int) -> list[list[str]]:
    groups = []
    for q in range(st.players):
        names = st.pile_names[q]
        groups.append([names["deck"]] if q == seat else [names["deck"], names["hand"], names["under"]])
    return groups


def _renamed(action: AccusationAction, index: dict[int, int]) -> AccusationAction:
    if len(action) < 2 or action[0] == FIRST:  # FIRST names a seat, not a card
        return action
    return (action[0], *(index.get(card, card) for card in action[1:]))


def resample(st: AccusationState, seat: int, rng: random.Random) -> AccusationState:
    from .state import AccusationState

    number = {card: i for i, card in enumerate(st.instances)}
    defs = st.rules.instance_defs
    rituals = frozenset(card for i, card in enumerate(st.instances) if defs[i].type == "ritual")
    for _ in range(TRIES):
        names = relabelling(st.zones_, hidden_groups(st, seat), rng, rituals)
        index = {number[old]: number[new] for old, new in names.items() if old is not new}
        world = AccusationState(st.rules)
        try:
            for action in st.history:
                world.apply(_renamed(action, index))
        except RuleViolation:
            continue
        return world
    raise NoWorld(f"no deal of the hidden cards replays the history within {TRIES} tries")

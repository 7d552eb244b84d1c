"""Sampled worlds for a search agent: what one seat cannot see in Accusation, dealt afresh.

Hidden from a seat: the other seats' decks, hands and sacrificed cards, and the order and
contents of its own deck.  Every seat starts with its rituals in hand, so a ritual of another
seat not on the table is most likely in that seat's hand or face down under a ritual (獻祭 may
sacrifice it): a sample puts those rituals on places of the hand and the cards under, chosen at
random (on any place when they are too many: a card may go back to a deck), and deals the seat's
other hidden cards to the rest, every pile keeping its size; where the rituals really are leaves
no trace, and the replay below rejects a deal the history rules out.  A position is a pure function of its
action history (that is how it is copied), so a sample renames the hidden cards as that fresh
deal places them and replays the history under the new names.  A renaming under which an
earlier action would be illegal (a seat once did what only the real card allowed) is dealt
again, up to `TRIES` times; then the search agent plays its greedy choice.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from pnpforge.rules.engine import RuleViolation
from pnpforge.rules.kit.core import CardInstance
from pnpforge.rules.kit.worlds import NoWorld

from .actions import FIRST, AccusationAction

if TYPE_CHECKING:
    from .state import AccusationState  # import cycle: state imports this module

TRIES = 8


def hidden_groups(st: AccusationState, seat: int) -> list[list[str]]:
    groups = []
    for q in range(st.players):
        names = st.pile_names[q]
        groups.append([names["deck"]] if q == seat else [names["deck"], names["hand"], names["under"]])
    return groups


def relabelling(
    st: AccusationState, seat: int, rng: random.Random, rituals: frozenset[CardInstance]
) -> dict[CardInstance, CardInstance]:
    """The card now in each hidden place -> the card a fresh deal puts there (see the docstring)."""
    names: dict[CardInstance, CardInstance] = {}
    view = st.zones_.view
    for group in hidden_groups(st, seat):
        places = [card for pile in group for card in view(pile)]
        in_deck = len(view(group[0]))  # a group lists the deck first: the rituals' places follow it
        sacred = sorted(c for c in places if c in rituals)
        others = sorted(c for c in places if c not in rituals)
        rng.shuffle(others)
        # (an effect that shuffles cards back into a deck may put a ritual there: then anywhere)
        spots = range(in_deck, len(places)) if len(places) - in_deck >= len(sacred) else range(len(places))
        chosen = set(rng.sample(spots, len(sacred))) if sacred else set()
        rng.shuffle(sacred)
        for i, old in enumerate(places):
            names[old] = sacred.pop() if i in chosen else others.pop()
    return names


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
        names = relabelling(st, seat, rng, rituals)
        index = {number[old]: number[new] for old, new in names.items() if old is not new}
        world = AccusationState(st.rules)
        try:
            for action in st.history:
                world.apply(_renamed(action, index))
        except RuleViolation:
            continue
        return world
    raise NoWorld(f"no deal of the hidden cards replays the history within {TRIES} tries")

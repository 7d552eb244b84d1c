"""Sampled worlds: what a seat cannot see, dealt afresh from what it can.

A search agent plans on copies of the position whose hidden cards (other hands, the contents and
order of face-down decks) are redealt at random.  Each engine names the groups of piles whose
cards a seat cannot tell apart (`State.hidden_groups(seat)`); `redeal` gathers a group's cards,
puts them in a canonical order (so where they really were leaves no trace), shuffles them with
the searcher's generator and deals them back, every pile keeping its size.  The cards travel
through `Zones.move`, so the piles' counts, indexes and change notices stay right.  A sample
therefore depends on the observation alone: two positions that look the same to the seat give
the same samples (`tests/test_balance_search.py`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Hashable, Sequence

from pnpforge.rules.kit.core import CardInstance, RuleViolation
from pnpforge.rules.kit.zones import Zones


class NoWorld(RuleViolation):
    """No world consistent with the seat's observation was found (an engine that replays its
    history under renamed cards gives up after a few deals); the searcher decides without one."""


Plan = list[tuple[str, list[CardInstance], list[CardInstance]]]  # (pile, cards it loses, cards it gets)


def deal_plan(
    zones: Zones,
    groups: Sequence[Sequence[str]],
    rng: random.Random,
    fixed: Collection[CardInstance] = (),
    kind: Callable[[CardInstance], Hashable] | None = None,
) -> Plan:
    """The cards each pile of each group gets when the group is dealt afresh, pile sizes unchanged.

    `fixed` cards stay where they are (their place is public, though the observation does not
    spell it out, e.g. a card whose owner is known).  With `kind`, each pile keeps how many cards
    of each kind it holds (a hand that only ever holds money cards gets money cards), and cards
    are shuffled among the places of their own kind.  The result depends on each pile's size (and
    mix of kinds) and on the group's cards as a set, never on which card lies where."""
    plan: Plan = []
    for group in groups:
        slots = [[c for c in zones.view(name) if c not in fixed] for name in group]
        places: dict[Hashable, list[CardInstance]] = {}
        for pile in slots:
            for card in pile:
                places.setdefault(kind(card) if kind else None, []).append(card)
        dealt: dict[Hashable, list[CardInstance]] = {}
        for key in sorted(places, key=repr):  # a canonical order, whatever the arrangement was
            cards = sorted(places[key])
            rng.shuffle(cards)
            dealt[key] = cards
        for name, pile in zip(group, slots, strict=True):
            kinds = sorted((kind(c) if kind else None for c in pile), key=repr)
            rng.shuffle(kinds)  # where in the pile each kind lies is not kept either
            plan.append((name, pile, [dealt[key].pop() for key in kinds]))
    return plan


def redeal(
    zones: Zones,
    groups: Sequence[Sequence[str]],
    rng: random.Random,
    fixed: Collection[CardInstance] = (),
    kind: Callable[[CardInstance], Hashable] | None = None,
) -> None:
    """Deal each group afresh (see `deal_plan`), moving the cards through `Zones.move`."""
    for name, _old, new in deal_plan(zones, groups, rng, fixed, kind):
        for card in new:
            zones.move(card, zones.where(card), name)  # every card moves: piles end in dealt order


def relabelling(
    zones: Zones,
    groups: Sequence[Sequence[str]],
    rng: random.Random,
    fixed: Collection[CardInstance] = (),
) -> dict[CardInstance, CardInstance]:
    """The same fresh deal as a renaming of cards (the card now in a place -> the card dealt to
    it), for an engine that rebuilds a position by replaying its history under the new names."""
    plan = deal_plan(zones, groups, rng, fixed)
    return {o: n for _name, old, new in plan for o, n in zip(old, new, strict=True)}

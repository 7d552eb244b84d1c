"""Bounded caches and cache keys of the face planner.

A deck can hold thousands of cards; every cache the planner keeps is a small
least-recently-used map, and a card's plan is keyed by exactly what a face can
show, so two copies share one plan and an edit of notes or timestamps does not
plan a card again.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from pnpforge.model import Card

PLAN_CACHE_SIZE = 512  # planned faces kept (copies of a card reuse its plan)
ART_CACHE_BYTES = 192 * 2**20  # resampled art kept (RGB bytes; ~80 cards' art at 300 dpi)
FIT_CACHE_SIZE = 512  # fitted texts kept (the same text in the same region: one fit)
REF_CACHE_SIZE = 256  # cards looked up by ref(), kept


class LRU(OrderedDict):
    """A small least-recently-used map: caches here must not grow with the deck."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def lookup(self, key: Any) -> Any:
        value = self.get(key, MISSING)
        if value is not MISSING:
            self.move_to_end(key)
        return value

    def store(self, key: Any, value: Any) -> Any:
        if len(self) >= self.size:
            self.popitem(last=False)
        self[key] = value
        return value


class SizedLRU(OrderedDict):
    """A least-recently-used map bounded by the total size of its values (bytes, say),
    for values as uneven as resampled art: the oldest go once `budget` is exceeded."""

    def __init__(self, budget: int) -> None:
        super().__init__()
        self.budget = budget
        self.used = 0

    def lookup(self, key: Any) -> Any:
        hit = self.get(key, MISSING)
        if hit is MISSING:
            return MISSING
        self.move_to_end(key)
        return hit[0]

    def store(self, key: Any, value: Any, size: int) -> Any:
        old = self.pop(key, None)
        if old is not None:
            self.used -= old[1]
        while self and self.used + size > self.budget:
            _, (_, gone) = self.popitem(last=False)
            self.used -= gone
        self[key] = (value, size)
        self.used += size
        return value


MISSING = object()


def freeze_value(value: Any) -> Any:
    """A hashable stand-in for a card value that keeps 1, 1.0 and True apart."""
    t = type(value)
    if t is str:
        return value
    if t is dict:
        return (dict, tuple((k, freeze_value(v)) for k, v in value.items()))
    if t is list or t is tuple:
        return (t, tuple(freeze_value(v) for v in value))
    if t is float:
        return (t, repr(value))
    return (t, value)


def plan_key(card: Card) -> tuple | None:
    """Everything of a card a face can show (templates see no notes or timestamps);
    None when a value cannot be hashed (then the card is planned afresh)."""
    key = tuple(
        freeze_value(v)
        for v in (
            card.type,
            card.id,
            card.name,
            card.name_en,
            card.copies,
            card.text,
            card.flavor,
            card.art,
            card.provenance,
            card.source,
            card.provisional_fields,
            card.fields,
        )
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


class StaticText(str):
    """A template without Jinja syntax: its output, rendered once."""

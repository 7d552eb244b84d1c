"""The small value types every engine and the runner share: cards, game facts, rule failures.

They live in the kit (not in `rules.engine`) so that the kit's modules can use them
without importing the engine interface; `rules.engine` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHANCE = -1
TERMINAL = -4
SIMULTANEOUS = -2  # not used by the runner; engines serialise simultaneous choices


class RuleViolation(AssertionError):
    """An invariant or legality check failed: the engine or the deck is wrong."""


class UnknownEffect(Exception):
    """A card names an effect the engine does not implement."""

    def __init__(self, card_id: str, effect: str) -> None:
        super().__init__(f"card {card_id}: effect '{effect}' is not implemented by the engine")
        self.card_id = card_id
        self.effect = effect


class CardInstance:
    """One physical card: the database card id and which copy it is (0-based).

    Instances are interned: `CardInstance("X", 0)` is always the same object, so
    equality is identity and the hash is the object's own, both computed in C
    rather than by Python methods (piles, conservation checks and observations
    hash and compare cards thousands of times a game).  Engines never depend on
    the iteration order of a set of cards (it varied with the string hash seed
    before, and varies with addresses now); they sort when order matters.
    """

    __slots__ = ("card", "copy", "_text")
    card: str
    copy: int
    _text: str

    def __new__(cls, card: str, copy: int = 0) -> CardInstance:
        key = (card, copy)
        known = _INTERNED.get(key)
        if known is not None:
            return known
        instance = object.__new__(cls)
        object.__setattr__(instance, "card", card)
        object.__setattr__(instance, "copy", copy)
        object.__setattr__(instance, "_text", f"{card}#{copy}")
        _INTERNED[key] = instance
        return instance

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"CardInstance is immutable: cannot assign '{name}'")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"CardInstance is immutable: cannot delete '{name}'")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"CardInstance(card={self.card!r}, copy={self.copy!r})"

    def __lt__(self, other: object) -> bool:
        if type(other) is not CardInstance:
            return NotImplemented
        return (self.card, self.copy) < (other.card, other.copy)

    def __le__(self, other: object) -> bool:
        if type(other) is not CardInstance:
            return NotImplemented
        return (self.card, self.copy) <= (other.card, other.copy)

    def __gt__(self, other: object) -> bool:
        if type(other) is not CardInstance:
            return NotImplemented
        return (self.card, self.copy) > (other.card, other.copy)

    def __ge__(self, other: object) -> bool:
        if type(other) is not CardInstance:
            return NotImplemented
        return (self.card, self.copy) >= (other.card, other.copy)

    def __reduce__(self) -> tuple[type[CardInstance], tuple[str, int]]:
        return (CardInstance, (self.card, self.copy))  # unpickled through __new__: interned again

    def __copy__(self) -> CardInstance:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> CardInstance:
        return self


_INTERNED: dict[tuple[str, int], CardInstance] = {}


@dataclass
class GameInfo:
    """Static metadata of a game's engine, apart from any state."""

    slug: str
    players_min: int
    players_max: int
    max_steps: int
    cooperative: bool = False
    options: dict[str, Any] = field(default_factory=dict)

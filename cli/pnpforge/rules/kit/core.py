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


@dataclass(frozen=True, order=True)
class CardInstance:
    """One physical card: the database card id and which copy it is (0-based)."""

    card: str
    copy: int = 0

    def __str__(self) -> str:
        return f"{self.card}#{self.copy}"


@dataclass
class GameInfo:
    """Static metadata of a game's engine, apart from any state."""

    slug: str
    players_min: int
    players_max: int
    max_steps: int
    cooperative: bool = False
    options: dict[str, Any] = field(default_factory=dict)

"""The engine interface every game's rules module implements.

Modelled on OpenSpiel's game/state split:

* `GameRules` holds static data built once from the database (cards, copies,
  numbers, effects) and never changes during play.
* `State` is one position.  Chance is an explicit step: when
  `current_player()` is CHANCE the legal actions are the chance outcomes
  (e.g. which card comes off the deck) and the runner picks one with the
  seeded RNG, so a game is a pure function of its seed.
* `legal_actions()` is the only source of legality: sorted, never empty for a
  non-terminal state, and `apply()` refuses anything outside it.
* `zones()` lists every physical card instance by zone so the runner can
  check conservation; `check_invariants()` is the engine's own per-state hook.

Actions are small ints or tuples (anything hashable and orderable); the
engine turns them into readable text with `action_text()` for the move log.
Rules engines never import rendering.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Hashable

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


@dataclass(frozen=True)
class CardInstance:
    """One physical card: the database card id and which copy it is (0-based)."""

    card: str
    copy: int = 0

    def __str__(self) -> str:
        return f"{self.card}#{self.copy}"


@dataclass
class GameInfo:
    """Static metadata, apart from any state."""

    slug: str
    players_min: int
    players_max: int
    max_steps: int
    cooperative: bool = False
    options: dict[str, Any] = field(default_factory=dict)


class State(ABC):
    """One position of a game; mutable, advanced with apply()."""

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act (0-based), CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[Hashable]:
        """Sorted legal actions of the player to act (chance outcomes at a chance node)."""

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        """(action, probability) at a chance node; uniform over legal_actions by default."""
        acts = self.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    @abstractmethod
    def apply(self, action: Hashable) -> None:
        """Apply a legal action; raise RuleViolation for an illegal one."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Final score per seat (valid when terminal); the runner compares with scores_from_rules()."""

    def scores_from_rules(self) -> list[float]:
        """Scores recomputed from the final state by the scoring rules alone (independent path)."""
        return self.returns()

    def winners(self) -> list[int]:
        """Winning seats after tie-breakers (cooperative games: all seats or none)."""
        r = self.returns()
        best = max(r)
        return [i for i, v in enumerate(r) if v == best]

    @abstractmethod
    def zones(self) -> dict[str, list[CardInstance]]:
        """Every physical card instance by zone name; each must appear exactly once."""

    def hidden_view(self, seat: int) -> Any:
        """What `seat` may see; agents of hidden-information games use only this."""
        return self

    def check_invariants(self) -> None:
        """Cheap per-step checks of the engine's own (hand limits, counters…)."""

    def end_reason(self) -> str:
        return "terminal"

    @abstractmethod
    def action_text(self, action: Hashable) -> str:
        """The action in words, for the move log."""

    def cards_played(self) -> list[str]:
        """Card ids played so far, for the report's play counts."""
        return []


class GameRules(ABC):
    """A game's rules bound to its database data; makes initial states."""

    info: GameInfo

    @abstractmethod
    def new_initial_state(self, players: int, rng: random.Random) -> State:
        """Set-up; use rng only for agents-independent choices, chance nodes for shuffles."""

    @abstractmethod
    def deck(self) -> list[CardInstance]:
        """Every physical card the database says this game has (what zones() must total)."""

    def unknown_effects(self) -> list[UnknownEffect]:
        """Cards whose effect the engine does not implement (reported, never ignored)."""
        return []

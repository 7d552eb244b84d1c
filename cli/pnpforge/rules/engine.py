"""The engine interface every game's rules package implements.

Modelled on OpenSpiel's game/state split:

* `GameRules` holds static data built once from the game's cards as the kit read
  them from the database (`kit.GameData`: cards, copies, numbers, effects), bound
  to the declared options, and never changes during play; an engine never sees
  the database itself.
* `State` is one position, and only the position: what the rules derive from it
  for speed is kept beside it (`kit.memo`), never in it.  Chance is an explicit step: when
  `current_player()` is CHANCE the legal actions are the chance outcomes
  (e.g. which card comes off the deck) and the runner picks one with the
  seeded RNG, so a game is a pure function of its seed.
* `legal_actions()` is the only source of legality: sorted, never empty for a
  non-terminal state, and `apply()` refuses anything outside it.
* `zones()` lists every physical card instance by zone so the runner can
  check conservation; `check_invariants()` is the engine's own per-state hook.
* `observation(seat)` is all an agent ever receives: a frozen dataclass of
  plain values, so hidden information stays hidden by construction.
* The event log (`State.events`, see `kit.events`) says what happened; the
  checker's report (used cards, factions, outcomes) is built from it.

Rules engines never import rendering.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self

from pnpforge.rules.kit.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    CardInstance,
    GameInfo,
    RuleViolation,
    UnknownEffect,
)
from pnpforge.rules.kit.events import EventLog
from pnpforge.rules.kit.options import Option
from pnpforge.rules.kit.worlds import redeal

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "CardInstance",
    "GameInfo",
    "GameRules",
    "Observation",
    "RuleViolation",
    "State",
    "UnknownEffect",
]

Action = int | tuple[int | str, ...]  # sortable; one engine keeps one shape


@dataclass(frozen=True)
class Observation:
    """What one seat may see.  Engines subclass it as a frozen dataclass of tuples, ints, strs
    and frozensets; the runner refuses anything mutable reachable from it."""

    seat: int

    @classmethod
    def of(cls, **values: Any) -> Self:
        """The observation with these field values, every field named (defaults are not filled in).

        A frozen dataclass's `__init__` sets each field through `object.__setattr__`, a few
        microseconds for a large observation built at every decision; this fills the instance's
        dictionary in one step instead and gives the same object.  Classes with `__post_init__`
        or slots are built through their `__init__`.
        """
        plan = _PLANS.get(cls)
        if plan is None:
            names = frozenset(f.name for f in fields(cls))
            plan = _PLANS[cls] = (names, hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"))
        names, through_init = plan
        if values.keys() != names:
            missing, extra = sorted(names - values.keys()), sorted(values.keys() - names)
            raise TypeError(f"{cls.__name__}.of(): missing fields {missing}, unknown fields {extra}")
        if through_init:
            return cls(**values)
        obs = object.__new__(cls)
        obs.__dict__.update(values)
        return obs


# per class: its field names, and whether it must be built through __init__
_PLANS: dict[type, tuple[frozenset[str], bool]] = {}


class State(EventLog, ABC):
    """One position of a game; mutable, advanced with apply()."""

    # attributes holding the game's static data (its rules, card tables): shared by every clone
    SHARED: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act (0-based), CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[Any]:
        """Sorted legal actions of the player to act (chance outcomes at a chance node)."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """(action, probability) at a chance node; uniform over legal_actions by default."""
        acts = self.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    @abstractmethod
    def apply(self, action: Any) -> None:
        """Apply a legal action; raise RuleViolation for an illegal one."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """Final score per seat (valid when terminal); the runner compares with scores_from_rules()."""

    @abstractmethod
    def scores_from_rules(self) -> list[float]:
        """Final scores recomputed from the final state by the scoring rules, independently of the
        running tally that `returns()` reports: the runner fails the game when they differ."""

    def winners(self) -> list[int]:
        """Winning seats after tie-breakers (cooperative games: all seats or none)."""
        r = self.returns()
        best = max(r)
        return [i for i, v in enumerate(r) if v == best]

    @abstractmethod
    def zones(self) -> dict[str, list[CardInstance]]:
        """Every physical card instance by zone name; each must appear exactly once."""

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """What `seat` may see, as immutable data; the only thing its agent receives."""

    def check_invariants(self) -> None:
        """Cheap per-step checks of the engine's own (hand limits, counters…)."""

    def clone(self) -> Self:
        """An independent copy of the position (a search agent plays its sampled worlds on copies);
        the static data named in SHARED is shared, everything else copied."""
        memo: dict[int, Any] = {}
        for name in self.SHARED:
            value = getattr(self, name, None)
            if value is not None:
                memo[id(value)] = value
        return copy.deepcopy(self, memo)

    def hidden_groups(self, seat: int) -> list[list[str]]:
        """Groups of piles whose cards `seat` cannot tell apart (other hands, face-down decks…);
        an engine that a search agent plays must say which (see `kit.worlds`)."""
        raise NotImplementedError(f"{type(self).__name__} does not say what a seat cannot see")

    def fixed_cards(self, seat: int) -> frozenset[CardInstance]:
        """Cards of the hidden groups that stay where they are in a sample: where they lie is public
        knowledge, though the observation does not spell it out.  None by default."""
        return frozenset()

    def card_kind(self, card: CardInstance) -> Any:
        """What a sample keeps per pile: a pile keeps how many cards of each kind it holds (None:
        every card is alike).  An engine whose hidden piles hold only some kinds of card says so."""
        return None

    def card_zones(self) -> Any:
        """The position's `Zones` (the piles `resample_from_infostate` redeals)."""
        raise NotImplementedError(f"{type(self).__name__} does not expose its piles")

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        """A copy of the position with what `seat` cannot see dealt afresh (after OpenSpiel's
        `ResampleFromInfostate`): the sample depends only on what the seat observes."""

        world = self.clone()
        redeal(world.card_zones(), world.hidden_groups(seat), rng, world.fixed_cards(seat), world.card_kind)
        return world

    def end_reason(self) -> str:
        return "terminal"

    @abstractmethod
    def action_text(self, action: Any) -> str:
        """The action in words, for the move log."""


class GameRules(ABC):
    """A game's rules bound to its cards (as the kit read them) and options; makes initial states."""

    info: GameInfo
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    # card type slug -> what "used" means for it ("played", "executed", "drawn as a mission")
    USED: ClassVar[dict[str, str]] = {}

    @abstractmethod
    def new_initial_state(self, players: int, rng: random.Random) -> State:
        """Set-up; use rng only for agent-independent choices, chance nodes for shuffles."""

    @abstractmethod
    def deck(self) -> list[CardInstance]:
        """Every physical card the game's cards say it has (what zones() must total)."""

    def unknown_effects(self) -> list[UnknownEffect]:
        """Cards whose effect the engine does not implement (reported, never ignored)."""
        return []

    def scenarios(self) -> list[str]:
        """Cooperative games: the missions or scenarios the check plays, each by default; [] otherwise."""
        return []

    def greedy_value(self, obs: Observation, action: Any) -> float:
        """How much the greedy agent likes `action`, judged from the observation alone."""
        return 0.0

    def greedy_values(self, obs: Observation, legal: Sequence[Any]) -> list[float]:
        """`greedy_value` of every legal action of one decision, in order.  The greedy agent calls
        this once per decision; an engine overrides it to work out what all the actions share
        (the hand's look-ahead, the execution under way) once instead of once per action."""
        return [self.greedy_value(obs, action) for action in legal]

    def greedy_agent_values(self) -> Callable[[Any, Sequence[Any]], list[float]]:
        """The values one greedy agent of one game asks (the runner calls this once per agent):
        `greedy_values` itself, unless the engine's heuristic keeps a memory from one decision
        to the next, which then lives with that agent (a fresh one each call), never on the
        rules every game shares."""
        return self.greedy_values

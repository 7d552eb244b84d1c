"""The enforcer rules bound to one database's cards: declared options, player counts, the deck."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pnpforge.errors import PnpError
from pnpforge.rules.engine import Action, CardInstance, GameRules, Observation, UnknownEffect
from pnpforge.rules.kit import GameData, Option, check_players, game_info, parse_options

from .actions import blocked_table
from .agents import EnforcerObservation, Greedy, GreedyMemory
from .data import SLUG, CardData, auction_as_doubling_only
from .evaluate import HORIZON, win_share
from .state import EnforcerState
from .worked import run_example

# Measured: greedy games last at most ~42 turns and ~14 steps a turn; the caps leave room for
# five times that before a game counts as stuck.
OPTIONS = (
    Option("max_turns", int, 200, "turns after which the game ends as if the obligors ran out", min=1),
    Option("max_steps", int, 10000, "steps after which the runner reports a game as stuck", min=100),
    Option(
        "auction_power",
        str,
        "added",
        "拍賣's own 執行力: added (the engine's reading: its printed 2 counts beside the doubling) "
        "or doubling_only (the rulebook's worked examples, 15 vs 14 and 7 vs 9: only the doubling counts)",
        choices=("added", "doubling_only"),
    ),
)


class EnforcerRules(GameRules):
    """The enforcer rules bound to one database's cards."""

    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS
    USED: ClassVar[dict[str, str]] = {
        "execution": "played from a hand (in an execution, or as a strategy card)",
        "specialty": "played from its master's hand",
        "obligor": "executed successfully (scored)",
        "objection": "flipped against an execution",
        "officer": "chosen as a player's officer",
        "penalty": "taken as a player's penalty marker",
    }

    def __init__(self, game: GameData, cards: CardData, options: Mapping[str, Any]) -> None:
        values = parse_options(self.OPTIONS, options, game=SLUG)
        if values["auction_power"] == "doubling_only":
            cards = auction_as_doubling_only(cards)
        self.cards = replace(cards, blocked=blocked_table(cards))
        self.max_turns: int = values["max_turns"]
        self.info = game_info(game, max_steps=values["max_steps"])
        self.info.options = values

    def deck(self) -> list[CardInstance]:
        cards = self.cards
        return [CardInstance(cid, i) for cid in cards.kind for i in range(cards.copies[cid])]

    def run_example(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """A rulebook worked example (an execution's power against a difficulty) by these rules."""

        return run_example(self.cards, setup)

    def unknown_effects(self) -> list[UnknownEffect]:
        return list(self.cards.unknown)

    def new_initial_state(self, players: int, rng: random.Random | None = None) -> EnforcerState:
        check_players(self.info, players)
        if len(self.cards.instances("officer")) < 2 * players:
            raise PnpError(f"{SLUG}: {players} players need {2 * players} officer cards")
        if len(self.cards.instances("penalty")) < players:
            raise PnpError(f"{SLUG}: {players} players need {players} penalty marker cards")
        return EnforcerState(self, players)

    def greedy_value(self, obs: Observation, action: Action) -> float:
        """One-step value of `action` for the observing seat, from its observation alone."""
        assert isinstance(obs, EnforcerObservation)
        return Greedy(self.cards, obs).value(action)

    def greedy_values(self, obs: Observation, legal: Sequence[Action]) -> list[float]:
        """Every legal action valued by one look-ahead over the observation.  A lone action is
        taken whatever its value, so it is not valued (many decisions have one: clock-in draws,
        forced discards)."""
        assert isinstance(obs, EnforcerObservation)
        if len(legal) < 2:
            return [0.0] * len(legal)
        return Greedy(self.cards, obs).values(legal)

    def greedy_agent_values(self) -> Callable[[Any, Sequence[Any]], list[float]]:
        """One greedy agent's values: `greedy_values` with the agent's own memory of the
        execution under way (`GreedyMemory`), made afresh for each agent of each game."""
        return GreedyMemory(self.cards).values

    # the search agent's truncated playouts (see `evaluate`): after `playout_horizon` steps a
    # playout asks `evaluate` for the seat's estimated share of the win instead of playing on
    playout_horizon: ClassVar[int] = HORIZON

    def evaluate(self, state: EnforcerState, seat: int) -> float:
        return win_share(state, seat)

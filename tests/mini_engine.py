"""A small engine for the 'mini' fixture game, built on the engine kit, with switchable faults.

Each turn chance draws a card; the seat to act plays it (scoring its power or
cost) or discards it.  Cards above the `limit` option cannot be played, which
lets a test make a card unusable.  The cooperative variant wins as a team when
the total reaches its mission's target; mission "impossible" never can.
Fault switches make the engine break one promise at a time so the runner's
checks can be shown to fail.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnpforge.rules.engine import CHANCE, TERMINAL, GameRules, Observation, RuleViolation, State
from pnpforge.rules.kit import (
    CardInstance,
    GameData,
    Option,
    Zones,
    check_players,
    game_cards,
    game_info,
    int_field,
    parse_options,
)

TARGETS = {"easy": 1, "impossible": 10**6}


@dataclass(frozen=True)
class MiniObservation(Observation):
    drawn: str | None
    my_score: int
    deck_left: int
    leak: Any = None


class MiniRules(GameRules):
    USED = {"hero": "played", "spell": "played"}

    def __init__(
        self, game: GameData, options: Mapping[str, Any], cooperative: bool = False, **faults: Any
    ) -> None:
        declared = [Option("limit", int, 20, "highest value that may be played", min=0, max=99)]
        if cooperative:
            declared.append(Option("mission", str, "easy", "team target", choices=tuple(TARGETS)))
        self.OPTIONS = tuple(declared)  # type: ignore[misc]
        self.options = parse_options(self.OPTIONS, options, game="mini")
        self.cards = game_cards(game)
        self.value = {c.id: int_field(c, "power" if c.type == "hero" else "cost", min=0) for c in self.cards}
        self.info = game_info(game, max_steps=100, cooperative=cooperative)
        self.faults = faults

    def deck(self) -> list[CardInstance]:
        return [CardInstance(c.id, i) for c in self.cards for i in range(c.copies)]

    def scenarios(self) -> list[str]:
        return list(TARGETS) if self.info.cooperative else []

    def new_initial_state(self, players: int, rng: random.Random) -> MiniState:
        check_players(self.info, players)
        return MiniState(self, players)

    def greedy_value(self, obs: Observation, action: Any) -> float:
        return float(action)


class MiniState(State):
    def __init__(self, rules: MiniRules, players: int) -> None:
        self.rules, self.players, self.turn = rules, players, 0
        self.zones_ = Zones(["deck", "drawn", "discard"] + [f"played{s}" for s in range(players)])
        self.zones_.deal(rules.deck(), "deck")
        self.tally = [0] * players
        for seat in range(players):
            self.faction(seat, "fire" if seat % 2 == 0 else "water")

    def seat(self) -> int:
        return self.turn % self.players

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if not self.zones_.count("drawn") else self.seat()

    def drawn(self) -> CardInstance | None:
        return self.zones_.top("drawn")

    def legal_actions(self) -> list[Any]:
        if self.current_player() == CHANCE:
            return list(range(self.zones_.count("deck")))
        card = self.drawn()
        playable = card is not None and self.rules.value[card.card] <= self.rules.options["limit"]
        actions = [0, 1] if playable else [0]
        return sorted(actions, reverse=bool(self.rules.faults.get("unsorted")))

    def apply(self, action: Any) -> None:
        if self.current_player() == CHANCE:
            card = self.zones_.pile("deck")[action]
            self.zones_.move(card, "deck", "drawn")
            return
        if action not in self.legal_actions():
            raise RuleViolation(f"illegal action {action}")
        card = self.drawn()
        assert card is not None
        seat = self.seat()
        if self.rules.faults.get("endless"):
            self.zones_.move(card, "drawn", "deck")
        elif action == 1:
            self.zones_.move(card, "drawn", f"played{seat}")
            self.tally[seat] += self.rules.value[card.card]
            self.used(seat, card.card, f"plays {card.card}")
            self.score(seat, self.rules.value[card.card], f"plays {card.card}", card.card)
        else:
            self.zones_.move(card, "drawn", "discard")
            self.outcome(seat, f"discards {card.card}", card.card)
        if self.rules.faults.get("bad_event"):
            self.used(seat, "NOPE", "uses a card that does not exist")
        self.turn += 1
        if self.is_terminal():
            self.end("deck exhausted")

    def is_terminal(self) -> bool:
        return not self.zones_.count("deck") and not self.zones_.count("drawn")

    def _team_won(self, total: float) -> bool:
        return total >= TARGETS[self.rules.options["mission"]]

    def returns(self) -> list[float]:
        if self.rules.info.cooperative:
            won = self._team_won(sum(self.tally))
            return [1.0 if won else 0.0] * self.players
        return [float(t) for t in self.tally]

    def scores_from_rules(self) -> list[float]:
        per_seat = [
            float(sum(self.rules.value[c.card] for c in self.zones_.pile(f"played{s}")))
            for s in range(self.players)
        ]
        per_seat = [s + self.rules.faults.get("score_bias", 0.0) for s in per_seat]
        if self.rules.info.cooperative:
            return [1.0 if self._team_won(sum(per_seat)) else 0.0] * self.players
        return per_seat

    def winners(self) -> list[int]:
        r = self.returns()
        if self.rules.info.cooperative:
            return list(range(self.players)) if r[0] else []
        return [i for i, v in enumerate(r) if v == max(r)]

    def zones(self) -> dict[str, list[CardInstance]]:
        z = self.zones_.as_dict()
        if self.rules.faults.get("leak") and z["discard"]:
            z["discard"].pop()
        return z

    def observation(self, seat: int) -> MiniObservation:
        card = self.drawn()
        leak = self.zones_ if self.rules.faults.get("mutable_observation") else None
        return MiniObservation(
            seat,
            card.card if card and seat == self.seat() else None,
            self.tally[seat],
            self.zones_.count("deck"),
            leak,
        )

    def end_reason(self) -> str:
        return "deck exhausted"

    def action_text(self, action: Any) -> str:
        if self.current_player() == CHANCE:
            return f"draw {self.zones_.pile('deck')[action]}"
        return "play" if action else "discard"


def make_rules(game: GameData, options: Mapping[str, Any]) -> MiniRules:
    return MiniRules(game, options)


def make_coop_rules(game: GameData, options: Mapping[str, Any]) -> MiniRules:
    return MiniRules(game, options, cooperative=True)

"""One position of Accusation behind the engine interface the runner drives.

The turn generator holds where the game is; `apply()` sends a legal action
into it and stores the next decision.  Chance draws pick which card leaves an
unordered deck, so a shuffle is implicit and a game is a pure function of its
action sequence (which is how `clone()` works).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import TERMINAL, CardInstance, RuleViolation, State
from pnpforge.rules.games.accusation import worlds
from pnpforge.rules.games.accusation.actions import (
    ACTION_WORDS,
    DRAW,
    FIRST,
    PURPOSE_CODES,
    TURN_ACTIONS,
    AccusationAction,
    Decision,
)
from pnpforge.rules.games.accusation.agents import AccusationObservation, observe
from pnpforge.rules.games.accusation.invariants import BoardChecks
from pnpforge.rules.games.accusation.turn import TurnFlow
from pnpforge.rules.kit import Zones

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.rules import AccusationRules


class AccusationState(TurnFlow, State):
    """One position; advanced by sending actions into the `game` generator."""

    # Every attribute of a position as a slot: read through the class (a position has more
    # attributes than CPython keeps in a shared-key instance dict, whose reads are slower).
    __slots__ = (
        "_board_checks", "_clockwise", "_enemies", "_events", "_field_of_kind", "_guard_map", "_guards",
        "_lists", "_own_hidden", "_public_of", "_publics", "_stardust_seats", "_stardusts", "_symbols_of",
        "_turns", "abilities_used", "actions_left", "decision", "deconstructing", "end_text", "field_moves",
        "first_seat", "follower_moves", "follower_stardust_of", "garrisoning", "guard_of",
        "guard_others_of", "guilty", "has_ability", "has_action", "history", "instances", "kind_of",
        "location_guilt", "location_moves", "moves", "pile_names", "players", "public_moves",
        "raid_bonus_all_of", "raider_value_of", "requirements_of", "rules", "sacrificed", "seat_pile_of",
        "shared_view", "shown_marks", "stardust_of", "symbols_of", "table_moves", "team_of", "turn_number",
        "turn_seat", "winning_seats", "zones_"
    )  # fmt: skip

    def __init__(self, rules: AccusationRules) -> None:
        self.first_seat = self.turn_number = 0
        self.winning_seats: list[int] | None = None
        self.end_text = ""
        super().__init__(rules)
        self.history: list[AccusationAction] = []
        for seat, cult in enumerate(rules.seat_cults):
            self.faction(seat, cult)
        self._turns = self.game()
        self.decision: Decision | None = None
        # the pile and mark checks, made by the first check (games nobody checks do not pay for its watcher)
        self._board_checks: BoardChecks | None = None
        self._advance(None)

    # ---- engine interface ----------------------------------------------------------------

    def current_player(self) -> int:
        if self.decision is None:
            return TERMINAL
        return self.decision.seat

    def legal_actions(self) -> list[Any]:
        return [] if self.decision is None else list(self.decision.offered)

    def apply(self, action: Any) -> None:
        if self.decision is None:
            raise RuleViolation("the game is over")
        chosen: AccusationAction = tuple(action)
        if chosen not in self.decision.actions():
            raise RuleViolation(f"illegal action {chosen} at a '{self.decision.kind}' decision")
        self.history.append(chosen)
        self._advance(chosen)

    def _advance(self, action: AccusationAction | None) -> None:
        try:
            self.decision = self._turns.send(action) if action is not None else next(self._turns)
        except StopIteration:
            self.decision = None

    def is_terminal(self) -> bool:
        return self.decision is None

    def returns(self) -> list[float]:
        if self.winning_seats is None:
            return [0.0] * self.players
        return [1.0 if seat in self.winning_seats else -1.0 for seat in range(self.players)]

    def scores_from_rules(self) -> list[float]:
        """Recompute the result from the final piles: completed rituals, else the deck-out."""
        for team in range(2 if self.players == 4 else self.players):
            seats = self.team_seats(team)
            if self.team_rituals(team) >= self.rituals_to_win():
                return [1.0 if seat in seats else -1.0 for seat in range(self.players)]
        seat = self.turn_seat
        if self.pile(seat, "deck") or self.executable_rituals(seat):
            return [0.0] * self.players  # neither ending applies: not a finished game
        losers = self.team_seats(self.team(seat))
        return [-1.0 if other in losers else 1.0 for other in range(self.players)]

    def winners(self) -> list[int]:
        return list(self.winning_seats or [])

    def end_reason(self) -> str:
        return self.end_text or "terminal"

    def zones(self) -> dict[str, list[CardInstance]]:
        return self.zones_.as_dict()

    def observation(self, seat: int) -> AccusationObservation:
        return observe(self, seat)

    def clone(self) -> AccusationState:
        """A copy made by replaying the action history (generators cannot be copied)."""
        other = AccusationState(self.rules)
        for action in self.history:
            other.apply(action)
        return other

    def __deepcopy__(self, memo: dict) -> AccusationState:
        return self.clone()

    def card_zones(self) -> Zones:
        return self.zones_

    def hidden_groups(self, seat: int) -> list[list[str]]:
        return worlds.hidden_groups(self, seat)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> AccusationState:
        """A world renamed and replayed (see `worlds`): a position is its history."""
        return worlds.resample(self, seat, rng)

    # ---- checks and words -------------------------------------------------------------------

    def check_invariants(self) -> None:
        """The piles, the marks and the end of the game (the pile and mark checks redo only what the
        last step could have changed: see `invariants`)."""
        checks = self._board_checks
        if checks is None:
            checks = self._board_checks = BoardChecks(self)
        checks.check(self)
        if not 0 <= self.actions_left <= TURN_ACTIONS:
            raise RuleViolation(f"actions left {self.actions_left}")
        if self.decision is not None and checks.won:
            raise RuleViolation("a side completed enough rituals but the game goes on")

    def action_text(self, action: Any) -> str:
        chosen: AccusationAction = tuple(action)
        code = chosen[0]
        if code == FIRST:
            card = str(chosen[-1])
        else:
            card = self.label(chosen[1]) if len(chosen) > 1 else ""
        template = ACTION_WORDS.get(code)
        text = template.format(card=card) if template else str(chosen)
        decision = self.decision
        if decision is not None and code == DRAW:
            text = f"seat {decision.context.get('seat')} {text}"
        elif decision is not None and decision.seat >= 0 and code in PURPOSE_CODES:
            purpose = decision.context.get("verb") or decision.context.get("why") or decision.kind
            text += f" ({purpose})"
        return text

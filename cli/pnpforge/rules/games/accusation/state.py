"""One position of Accusation behind the engine interface the runner drives.

The turn generator holds where the game is; `apply()` sends a legal action
into it and stores the next decision.  Chance draws pick which card leaves an
unordered deck, so a shuffle is implicit and a game is a pure function of its
action sequence (which is how `clone()` works).

The class holds the data only (piles, marks, per-card values, the turn counters) and the
engine interface; every rule is a function over it in `board`, `arithmetic`, `effects`
and `flow`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import TERMINAL, CardInstance, RuleViolation, State
from pnpforge.rules.games.accusation import arithmetic, board, flow, worlds
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
from pnpforge.rules.games.accusation.board import NO_MARKS, PILES
from pnpforge.rules.games.accusation.invariants import BoardChecks
from pnpforge.rules.games.accusation.memo import READOUTS
from pnpforge.rules.kit import Zones

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.rules import AccusationRules


class AccusationState(State):
    """One position; advanced by sending actions into the `game` generator."""

    # Every attribute of a position as a slot: read through the class (a position has more
    # attributes than CPython keeps in a shared-key instance dict, whose reads are slower).
    __slots__ = (
        "_events", "_lists", "_turns", "abilities_used", "actions_left", "decision", "deconstructing",
        "end_text", "field_moves", "first_seat", "follower_moves", "garrisoning", "guilty", "history",
        "instances", "location_guilt", "location_moves", "moves", "pile_names", "players", "public_moves",
        "rules", "sacrificed", "seat_pile_of", "table_moves", "turn_number", "turn_seat", "winning_seats",
        "zones_",
    )  # fmt: skip

    def __init__(self, rules: AccusationRules) -> None:
        self.first_seat = self.turn_number = 0
        self.winning_seats: list[int] | None = None
        self.end_text = ""
        # ---- the board: piles and marks ----
        self.rules = rules
        self.players = rules.players
        # the rules' static tables, shared by every position (never copied): the physical cards and
        # each seat's pile names, both ways
        self.instances = rules.instances
        self.pile_names = rules.pile_names
        self.seat_pile_of = rules.seat_pile_of
        self.zones_ = Zones(self.seat_pile_of)
        # Each seat's piles as card indices, kept in step with the Zones by `move` (every change
        # goes through it): piles are read far more often than they change.  A changed pile gets a
        # new list, so a reader may keep a list and tell by identity whether its pile moved.
        self._lists: list[dict[str, list[int]]] = [{pile: [] for pile in PILES} for _ in range(self.players)]
        # Bumped when a card enters or leaves any field, or any public pile: the observation's
        # shared fields (agents) are read again only when these or the marks changed.
        self.field_moves = 0
        self.public_moves = 0
        # ... and, of those field moves, the followers' and the locations' (what stardust and
        # guards read), with the changes of a location's guilt (a guilty card loses its passives).
        self.follower_moves = 0
        self.location_moves = 0
        self.location_guilt = 0
        # The marks are immutable and replaced whenever they change (see `board_key`).
        self.guilty: frozenset[int] = frozenset()
        self.garrisoning: Mapping[int, int] = NO_MARKS  # follower -> location it garrisons
        self.deconstructing: Mapping[int, int] = NO_MARKS  # follower -> ritual it deconstructs
        self.sacrificed: Mapping[int, int] = NO_MARKS  # card under a ritual -> that ritual
        # Moves into or out of a field, an under pile or a score pile, and moves of leaders:
        # with the marks, what the field read-outs and the piles' invariants depend on.
        self.table_moves = 0
        self.moves = 0  # every move
        self.turn_seat = 0
        self.actions_left = 0
        self.abilities_used: set[int] = set()  # leaders whose free ability was used this turn
        for card, owner in enumerate(rules.instance_owner):
            kind = rules.instance_defs[card].type
            pile = "conspiracy" if kind == "leader" else "hand" if kind == "ritual" else "deck"
            self.zones_.deal([self.instances[card]], self.pile_names[owner][pile])
            self._lists[owner][pile].append(card)
        self.history: list[AccusationAction] = []
        for seat, cult in enumerate(rules.seat_cults):
            self.faction(seat, cult)
        self._turns = flow.game(self)
        self.decision: Decision | None = None
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
            seats = board.team_seats(self, team)
            if board.team_rituals(self, team) >= board.rituals_to_win(self):
                return [1.0 if seat in seats else -1.0 for seat in range(self.players)]
        seat = self.turn_seat
        if board.pile(self, seat, "deck") or arithmetic.executable_rituals(self, seat):
            return [0.0] * self.players  # neither ending applies: not a finished game
        losers = board.team_seats(self, board.team(self, seat))
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
        readouts = READOUTS(self)
        checks = readouts.board_checks
        if checks is None:
            checks = readouts.board_checks = BoardChecks(self)
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
            card = board.label(self, chosen[1]) if len(chosen) > 1 else ""
        template = ACTION_WORDS.get(code)
        text = template.format(card=card) if template else str(chosen)
        decision = self.decision
        if decision is not None and code == DRAW:
            text = f"seat {decision.context.get('seat')} {text}"
        elif decision is not None and decision.seat >= 0 and code in PURPOSE_CODES:
            purpose = decision.context.get("verb") or decision.context.get("why") or decision.kind
            text += f" ({purpose})"
        return text

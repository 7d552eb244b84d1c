"""One position of Accusation behind the engine interface the runner drives.

The turn generator holds where the game is; `apply()` sends a legal action
into it and stores the next decision.  Chance draws pick which card leaves an
unordered deck, so a shuffle is implicit and a game is a pure function of its
action sequence (which is how `clone()` works).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import TERMINAL, CardInstance, RuleViolation, State
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
from pnpforge.rules.games.accusation.turn import TurnFlow

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.rules import AccusationRules


class AccusationState(TurnFlow, State):
    """One position; advanced by sending actions into the `game` generator."""

    def __init__(self, rules: AccusationRules) -> None:
        super().__init__(rules)
        self.history: list[AccusationAction] = []
        for seat, cult in enumerate(rules.seat_cults):
            self.faction(seat, cult)
        self._turns = self.game()
        self.decision: Decision | None = None
        # the board (`board_key`) last found clean by the pile and mark checks, and its rituals
        self._clean: tuple[tuple[object, ...], bool] | None = None
        # The pile checks read the Zones themselves (not the index lists the rules read): the card
        # index of each of the rules' CardInstance objects by identity, the identities of magic
        # and of non-ritual cards, and the piles a leader may be in.
        self._index_by_identity = {id(instance): card for card, instance in enumerate(rules.instances)}
        kind_of, instances = self.kind_of, rules.instances
        self._magic_ids = frozenset(
            id(instances[card]) for card, kind in enumerate(kind_of) if kind == "magic"
        )
        self._not_ritual_ids = frozenset(
            id(instances[card]) for card, kind in enumerate(kind_of) if kind != "ritual"
        )
        self._leader_piles = frozenset(
            names[pile] for names in self.pile_names for pile in ("conspiracy", "field", "hand")
        )
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

    # ---- checks and words -------------------------------------------------------------------

    def check_invariants(self) -> None:
        """The piles, the marks and the end of the game.  The pile and mark checks read nothing
        but the piles and the marks, so they run again only when `board_key` changed: a step that
        moved no card on or off a field, under pile or score pile and changed no mark leaves
        their answer as it was."""
        key = self.board_key()
        if self._clean is None or self._clean[0] != key:
            self._check_piles()
            self._check_marks()
            needed = self.rituals_to_win()
            self._clean = (key, any(total >= needed for total in self.rituals_by_team().values()))
        if not 0 <= self.actions_left <= TURN_ACTIONS:
            raise RuleViolation(f"actions left {self.actions_left}")
        if self.decision is not None and self._clean[1]:
            raise RuleViolation("a side completed enough rituals but the game goes on")

    def _check_piles(self) -> None:
        """Only cards of the right type are in special piles (the Zones keep each card in one pile)."""
        zones, instances = self.zones_, self.instances
        where, leaders = zones.where, self.rules.leaders
        if not self._leader_piles.issuperset(map(where, [instances[leader] for leader in leaders])):
            for leader in leaders:
                pile = self.seat_pile_of[where(instances[leader])][1]
                if pile not in ("conspiracy", "field", "hand"):
                    raise RuleViolation(f"leader {self.label(leader)} left play to {pile}")
        piles, magic, not_ritual = zones.all_views(), self._magic_ids, self._not_ritual_ids
        for names in self.pile_names:
            field, score = piles[names["field"]], piles[names["score"]]
            if not magic.isdisjoint(map(id, field)):
                card = next(self._index_by_identity[id(i)] for i in field if id(i) in magic)
                raise RuleViolation(f"magic {self.label(card)} on the field")
            if not not_ritual.isdisjoint(map(id, score)):
                card = next(self._index_by_identity[id(i)] for i in score if id(i) in not_ritual)
                raise RuleViolation(f"{self.label(card)} in the score zone is not a ritual")

    def _check_marks(self) -> None:
        """Guilt, garrisons, deconstructions and sacrifices only on cards where the rules allow them."""
        where, instances, seat_pile_of, kind_of = (
            self.zones_.where,
            self.instances,
            self.seat_pile_of,
            self.kind_of,
        )
        for follower in self.guilty:
            if seat_pile_of[where(instances[follower])][1] != "field" or kind_of[follower] != "follower":
                raise RuleViolation(f"{self.label(follower)} is guilty but not a follower on the field")
        for marks, kind in ((self.garrisoning, "location"), (self.deconstructing, "ritual")):
            for follower, host in marks.items():
                seat, pile = seat_pile_of[where(instances[follower])]
                if follower in self.guilty or pile != "field":
                    raise RuleViolation(f"{self.label(follower)} attached while guilty or off the field")
                if seat_pile_of[where(instances[host])] != (seat, "field") or kind_of[host] != kind:
                    raise RuleViolation(
                        f"{self.label(follower)} attached to {self.label(host)}, not a {kind} on its field"
                    )
        for under, ritual in self.sacrificed.items():
            seat, pile = seat_pile_of[where(instances[under])]
            if pile != "under" or seat_pile_of[where(instances[ritual])] != (seat, "field"):
                raise RuleViolation(f"sacrificed {self.label(under)} is not under a ritual of its seat")
        piles = self.zones_.all_views()
        if sum([len(piles[names["under"]]) for names in self.pile_names]) != len(self.sacrificed):
            raise RuleViolation("a card is under a ritual without being sacrificed to it")

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

"""What actions and chance draws do, and the automatic steps between decisions.

Every card movement is a `Zones.move`, so a card can never be duplicated or
lost; counters (bullets, solved suspects, number tiles) change only here.
"""

from __future__ import annotations

from pnpforge.rules.engine import CardInstance, RuleViolation
from pnpforge.rules.kit import EventLog

from .actions import Action, LegalActions
from .table import ASIDE, ASIDE_PILE, CENTRE, DECK, DISCARD_DOWN, DISCARD_UP, LINEUP, REWARDS, SHARED


class Effects(LegalActions, EventLog):
    """Resolving chance events and decisions; settling the turn sequence; recording events."""

    # -- chance ----------------------------------------------------------------------

    def resolve_chance(self, action: Action) -> None:
        event = self.chance_queue.pop(0)
        kind = event[0]
        if kind == "eliminator":
            self.eliminator = action[1]
            return
        card = CardInstance(action[1], action[2])
        src = self.chance_source(kind)
        if kind in ("deal", "draw", "pool_deal"):
            self.piles.move(card, src, self.hand_piles[event[1]])
        elif kind == "suspect":
            self.piles.move(card, src, LINEUP)
        elif kind == "aside":
            self.piles.move(card, src, ASIDE_PILE)
        elif kind == "burn":
            self.piles.move(card, src, DISCARD_DOWN)  # discarded unseen, so face down
        elif kind == "cover":
            self.piles.move(card, src, self.cover_piles[event[1]])
        elif kind == "take":
            seat = event[1]
            self.piles.move(card, src, self.stand_piles[seat])
            self.outcome(
                seat, f"stands suspect {self.card_name(card.card)} (only seat {seat} sees it)", card.card
            )
            if self.mission.has("ordered"):
                self.tile_of[seat] = self.next_tile
                self.next_tile += 1
        elif kind == "blind_reward":
            self._reward_to(event[1], card, src)
        else:
            raise RuleViolation(f"unknown chance event {event}")

    def _reward_to(self, seat: int, card: CardInstance, src: str) -> None:
        if self.mission.has("pooled_final") and not self.final_phase:
            self.piles.move(card, src, REWARDS)  # mission 18: rewards wait face up for the last suspect
        else:
            self.piles.move(card, src, self.hand_piles[seat])

    # -- decisions -------------------------------------------------------------------

    def decide(self, action: Action) -> None:
        kind = action[0]
        if kind != "pass":
            self.passes = 0
        getattr(self, f"_do_{kind}")(action)

    def _do_take(self, action: Action) -> None:
        self.chance_queue.append(("take", self.actor))
        if self.piles.count(DECK):
            self.chance_queue.append(("cover", self.actor) if self.mission.has("covered_suit") else ("burn",))
        self.stage = "end_turn"

    def _play_from(self, src: int) -> str:
        """The pile a played card leaves: a seat's hand or the shared centre specials."""
        return SHARED if src == CENTRE else self.hand_piles[src]

    def _place(self, card: CardInstance, src_pile: str, target: int) -> None:
        """Put a hint beside a suspect, oriented by the rule (the owner places it truthfully)."""
        up = self.orientation(card, target)
        self.upright[card] = up
        self._hints_view = None
        self.piles.move(card, src_pile, self.hint_piles[target])
        way = "upright (related)" if up else "sideways (unrelated)"
        self.used(
            self.actor, card.card, f"hint {self.card_name(card.card)} beside {self.place_name(target)}: {way}"
        )

    def _do_hint(self, action: Action) -> None:
        _, src, card_id, copy = action
        card = CardInstance(card_id, copy)
        self._place(card, self._play_from(src), self.actor)
        self.stage = "end_turn"

    def _do_exchange(self, action: Action) -> None:
        _, src, target, card_id, copy, draw = action
        card = CardInstance(card_id, copy)
        self._place(card, self._play_from(src), target)
        if draw:
            self.chance_queue.append(("draw", self.actor))
        self.stage = "end_turn"

    def _do_wait(self, action: Action) -> None:
        self.chance_queue.append(("burn",))
        self.chance_queue += [("draw", self.actor)] * action[1]
        self.outcome(self.actor, f"burns the top headquarters card unseen and draws {action[1]}")
        self.stage = "end_turn"

    def _do_pass(self, action: Action) -> None:
        self.passes += 1
        self.outcome(self.actor, "cannot act and passes")
        if self.passes >= self.active_count():
            self.finish("lose", "stalemate: no agent can act")
        self.stage = "end_turn"

    def _do_eliminate(self, action: Action) -> None:
        _, target, suit, number = action
        self.bullets -= 1
        hit = self.suspect_identity(target) == (suit, number)
        self._report_shot(target, suit, number, hit)
        if self.stage == "final":
            if hit:
                aside = self.aside()
                assert aside is not None
                self.piles.move(aside, ASIDE_PILE, DECK)
                self._discard_hints(ASIDE)
                self.solved += 1
            if hit:
                self.finish("win", "final suspect eliminated")
            else:
                self.finish("lose", "final shot missed")
            return
        if not hit:
            self.stage = "end_turn"
            return
        self._eliminate(target)
        discards = self.piles.count(DISCARD_UP) or self.piles.count(DISCARD_DOWN)
        self.stage = "reward" if discards else "after_reward"

    def _report_shot(self, target: int, suit: str, number: int, hit: bool) -> None:
        card = self.aside() if target == ASIDE else self.suspect(target)
        assert card is not None
        guess = f"{suit}{number}"
        if hit:
            who = self.card_name(card.card)
            text = f"shoots {self.place_name(target)} as {guess}: hit, traitor {who} eliminated"
            self.outcome(self.actor, text, card.card)
        else:
            text = (
                f"shoots {self.place_name(target)} as {guess}: miss, {self.bullets} bullets left "
                f"for {self.unsolved()} suspects"
            )
            self.outcome(self.actor, text)

    def _eliminate(self, target: int) -> None:
        """The suspect (and its cover) go back into the deck; its hints to the discard pile."""
        self.piles.move_all(self.stand_piles[target], DECK)
        self.piles.move_all(self.cover_piles[target], DECK)
        self.tile_of[target] = None
        self._discard_hints(target)
        self.solved += 1

    def _discard_hints(self, target: int) -> None:
        self._hints_view = None
        pile = self.hint_piles[target]
        for card in self.piles.pile(pile):
            del self.upright[card]
            if card in self.rules.shared_special_set:
                self.piles.move(card, pile, SHARED)  # mission 6: the shared specials stay shared
            else:
                self._discard(card, pile)

    def _discard(self, card: CardInstance, src: str) -> None:
        self.piles.move(card, src, DISCARD_DOWN if self.mission.has("facedown") else DISCARD_UP)

    def _do_reward(self, action: Action) -> None:
        self._reward_to(self.actor, CardInstance(action[1], action[2]), DISCARD_UP)
        self.outcome(
            self.actor, f"takes {self.card_name(action[1])} from the discard pile as a reward", action[1]
        )
        self.stage = "after_reward"

    def _do_reward_blind(self, action: Action) -> None:
        self.chance_queue.append(("blind_reward", self.actor))
        self.stage = "after_reward"

    def _do_reward_skip(self, action: Action) -> None:
        self.stage = "after_reward"

    def _do_peek(self, action: Action) -> None:
        if not action[1]:
            self.stage = "end_turn"
            return
        self.peeked.add(self.actor)
        self.extra_hints_left = 2 if self.players == 2 else 1
        self.stage = "extra_hint"
        if not self.extra_hint_legal():
            self._withdraw(self.actor)

    def _do_extra_hint(self, action: Action) -> None:
        _, src, card_id, copy = action
        card = CardInstance(card_id, copy)
        self._place(card, self.hand_piles[self.actor] if src == 0 else DISCARD_UP, ASIDE)
        self.extra_hints_left -= 1
        if self.extra_hints_left <= 0 or not self.extra_hint_legal():
            self._withdraw(self.actor)

    def _withdraw(self, seat: int) -> None:
        """Mission 19: the agent who looked leaves; its hand goes face up to the discard."""
        self.piles.move_all(self.hand_piles[seat], DISCARD_UP)
        self.withdrawn[seat] = True
        self.eliminated(seat, "looked at the aside suspect and withdrew from the mission")
        active = [s for s in range(self.players) if not self.withdrawn[s]]
        if len(active) == 1:
            self.stage, self.actor = "final", active[0]
        else:
            self.stage = "end_turn"

    def _do_discard(self, action: Action) -> None:
        pile = self.hand_piles[self.actor]
        card = self.piles.pile(pile)[action[1]]
        self._discard(card, pile)
        self.outcome(self.actor, f"discards {self.card_name(card.card)} down to the hand limit", card.card)
        self.stage = "end_turn"  # settles back here while the hand is still over the limit

    # -- flow ------------------------------------------------------------------------

    def settle(self) -> None:
        """Run automatic steps until a decision, a chance draw or the end."""
        while self.result is None and not self.chance_queue:
            if self._check_end():
                return
            if self.stage == "after_reward":
                self._after_reward()
            elif self.stage == "end_turn":
                if self.hand_count(self.turn) > self.mission.hand_limit:
                    self.stage, self.actor = "discard", self.turn
                    return
                self._next_turn()
                return
            else:
                return

    def _after_reward(self) -> None:
        mission = self.mission
        has_aside = self.aside() is not None
        if mission.has("solo_final") and has_aside and self.active_count() >= 2:
            self.stage = "peek"
            return
        self.stage = "end_turn"
        if (
            mission.has("pooled_final")
            and not self.final_phase
            and has_aside
            and not self.piles.count(LINEUP)
            and not any(self.has_suspect(s) for s in range(self.players))
        ):
            self._start_pooled_final(self.actor)

    def _start_pooled_final(self, seat: int) -> None:
        """Mission 18: hands out, the rewards dealt from `seat` on, the aside suspect to `seat`."""
        for other in range(self.players):
            self.piles.move_all(self.hand_piles[other], DISCARD_UP)
        self.piles.move_all(ASIDE_PILE, self.stand_piles[seat])
        self.final_phase = True
        rewards = self.piles.count(REWARDS)
        self.round(
            f"the table's suspects are solved: hands discarded, {rewards} pooled rewards dealt from "
            f"seat {seat}, who stands the last suspect"
        )
        self.chance_queue += [("pool_deal", (seat + i) % self.players) for i in range(rewards)]

    def _next_turn(self) -> None:
        seat = self.turn
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if not self.withdrawn[seat]:
                break
        if seat <= self.turn:
            self.rounds += 1
            self.round(
                f"round {self.rounds} ends: {self.unsolved()} suspects unsolved, {self.bullets} bullets, "
                f"{self.piles.count(DECK)} cards in headquarters"
            )
        self.turn = self.actor = seat
        self.stage = "act"

    def _check_end(self) -> bool:
        """Both end conditions, checked whenever an action has fully resolved."""
        unsolved = self.unsolved()
        if not unsolved and not self.mission.has("solo_final"):
            self.finish("win", "all traitors eliminated")
        elif self.bullets < unsolved:
            self.finish("lose", "fewer bullets than unsolved suspects")
        elif (self.final_phase or not self.piles.count(DECK)) and not any(
            self.piles.count(pile) for pile in self.hand_piles
        ):
            self.finish("lose", "headquarters deck and hands exhausted")
        return self.result is not None

    def finish(self, verdict: str, reason: str) -> None:
        """End the mission: the team wins or loses together."""
        self.result = (verdict, reason)
        won = verdict == "win"
        word = "won" if won else "lost"
        for seat in range(self.players):
            self.score(seat, 1.0 if won else 0.0, f"mission {self.mission.id} {word}")
        if won and self.rules.mission_card is not None:
            self.used(None, self.mission.id, f"mission {self.mission.id} completed")
        self.end(
            f"mission {self.mission.id} {word}: {reason} ({self.solved} of {self.suspects_total} "
            f"suspects solved, {self.bullets} bullets left)"
        )

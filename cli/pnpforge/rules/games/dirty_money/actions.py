"""Action cards (动作卡: inspections, audits, trade, bribe) and the Launderer's end-of-turn wash."""

from __future__ import annotations

from typing import Any

from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.dirty_money.base import AUTO, Action, StateBase, Step
from pnpforge.rules.games.dirty_money.data import Money

# Which placement cards take a discard after an action card of each effect resolves.
FIRM_FOR_EFFECT = {
    "inspect_neighbours": "law_firm",
    "inspect_one": "law_firm",
    "audit_most_dirty": "accounting_firm",
    "audit_threshold": "accounting_firm",
}


class ActionCardSteps(StateBase):
    """Resolving the action cards a player picked up, one at a time in the order chosen."""

    def _actor_resolve_actions(self, step: Step) -> int:
        return step.seat if self.cards(f"pending:{step.seat}") else AUTO

    def _legal_resolve_actions(self, step: Step) -> list[Action]:
        return [("resolve", card_id) for card_id in self._ids(f"pending:{step.seat}")]

    def _apply_resolve_actions(self, step: Step, action: tuple[Any, ...] | None) -> None:
        if action is None:
            self._pop(step)
            return
        inst = self._first(f"pending:{step.seat}", action[1])
        self._move(inst, f"pending:{step.seat}", "resolving")
        self.stack.append(Step("resolve_card", seat=step.seat, data={"card": str(inst), "id": inst.card}))

    def _actor_resolve_card(self, step: Step) -> int:
        effect = self.rules.money[step.data["id"]].effect
        if step.stage == 0 and effect in ("inspect_one", "trade"):
            return step.seat
        return AUTO

    def _legal_resolve_card(self, step: Step) -> list[Action]:
        seat = step.seat
        if self.rules.money[step.data["id"]].effect == "inspect_one":
            return [("target", q) for q in self._others(seat)]
        trades: list[Action] = []
        mine = self._ids(f"hand:{seat}")
        for q in self._others(seat):
            theirs = self._ids(f"hand:{q}")
            if mine and theirs:
                trades += [("trade", q, take, give) for take in theirs for give in mine]
            else:
                trades.append(("trade", q, "", ""))  # look only (交易: no cards to give)
        return trades

    def _apply_resolve_card(self, step: Step, action: tuple[Any, ...] | None) -> None:
        card = self.rules.money[step.data["id"]]
        seat = step.seat
        if step.stage == 1:
            self._finish_action(step, card)
            return
        step.stage = 1
        effect = card.effect
        if effect == "bribe":
            dropped = self._drop_blacklist(seat)
            words = "drops a blacklist card" if dropped else "has no blacklist card to drop"
            self.outcome(seat, f"{card.name}: {words}", card.id)
        elif effect in ("audit_most_dirty", "audit_threshold"):
            self._audit(seat, card)
        elif effect == "inspect_neighbours":
            self._push_seq(
                [
                    Step("inspect", seat=seat, data={"target": q, "left": count, "seen": []})
                    for q, count in self._neighbour_targets(seat, card.amount)
                ]
            )
        elif effect == "inspect_one":
            assert action is not None
            self.stack.append(
                Step("inspect", seat=seat, data={"target": action[1], "left": card.amount, "seen": []})
            )
        elif effect == "trade":
            assert action is not None
            self._trade(seat, action)
        if self.stack[-1] is step:  # nothing pushed above it (no inspection, no marker to draw)
            self._finish_action(step, card)

    def _finish_action(self, step: Step, card: Money) -> None:
        """Discard the resolved card; law / accounting firms take their discard."""
        seat = step.seat
        self._pop(step)
        inst = next(c for c in self.cards("resolving") if str(c) == step.data["card"])
        self._move(inst, "resolving", "discard")
        self.used(seat, card.id, f"resolves {card.name}")
        self.stack += self._hand_limit_step(seat)  # a firm's marker below goes under it, not to the hand
        firm = FIRM_FOR_EFFECT.get(card.effect)
        if firm:
            for firm_card, placement in self._owned(seat, firm):
                self._marker(f"under:{firm_card}")
                self.outcome(seat, f"{placement.name} takes a discard under it", placement.id)

    def _neighbour_targets(self, seat: int, amount: int) -> list[tuple[int, int]]:
        """检查左右玩家: one card from each neighbour; 2 players: two from the opponent."""
        left, right = (seat - 1) % self.players, (seat + 1) % self.players
        if left == right:
            return [(left, amount * 2)]
        return [(left, amount), (right, amount)]

    def _audit(self, seat: int, card: Money) -> None:
        others = self._others(seat)
        dirt = {q: self.dirt(q) for q in others}
        if card.effect == "audit_most_dirty":
            top = max(dirt.values())
            caught = [q for q in others if top >= 1 and dirt[q] == top]
        else:
            caught = [q for q in others if dirt[q] >= card.amount]
        for q in caught:
            self._marker(f"blacklist:{q}")
            self.outcome(
                q, f"{card.name} by seat {seat}: {dirt[q]} dirty in hand, one blacklist card", card.id
            )
        if not caught:
            self.outcome(seat, f"{card.name} catches nobody", card.id)

    def _trade(self, seat: int, action: tuple[Any, ...]) -> None:
        _kind, other, take, give = action
        if not take:
            return
        give_inst = self._first(f"hand:{seat}", give)
        take_inst = self._first(f"hand:{other}", take)
        self._move(give_inst, f"hand:{seat}", f"hand:{other}")
        self._move(take_inst, f"hand:{other}", f"hand:{seat}")
        self.outcome(seat, f"trades {self.name(give)} for {self.name(take)} from seat {other}", take)

    def _actor_inspect(self, step: Step) -> int:
        return CHANCE if step.data["left"] > 0 and self._chance_weights(step) else AUTO

    def _legal_inspect(self, step: Step) -> list[Action]:
        return self._legal_chance(step)

    def _apply_inspect(self, step: Step, action: tuple[str, str] | None) -> None:
        if action is None:
            self._pop(step)
            return
        target, card_id = step.data["target"], action[1]
        inst = self._first(f"hand:{target}", card_id, exclude=tuple(step.data["seen"]))
        step.data["seen"].append(str(inst))
        step.data["left"] -= 1
        if self.rules.money[inst.card].dirty > 0:
            self._move(inst, f"hand:{target}", f"hand:{step.seat}")
            self._marker(f"blacklist:{target}")
            self.outcome(
                target,
                f"inspected by seat {step.seat}: dirty {self.name(card_id)} is taken, one blacklist card",
                card_id,
            )
        else:
            self.outcome(target, f"inspected by seat {step.seat}: {self.name(card_id)} is clean", card_id)

    # ---- the Launderer --------------------------------------------------------------------

    def _actor_launder(self, step: Step) -> int:
        if step.stage == 0:
            return step.seat if self._currency_left() else AUTO
        if step.stage == 1:
            if not self._currency_left():
                return AUTO
            return self._money_actor()
        return step.seat if self.cards(f"hand:{step.seat}") and step.data["discards"] > 0 else AUTO

    def _legal_launder(self, step: Step) -> list[Action]:
        if step.stage == 0:
            return [("launder",), ("skip",)]
        if step.stage == 1:
            return self._legal_chance(step)
        return [("launder_discard", card_id) for card_id in self._ids(f"hand:{step.seat}")]

    def _apply_launder(self, step: Step, action: Any) -> None:
        seat, data = step.seat, step.data
        if step.stage == 0:
            if action == ("launder",):
                step.stage, data["draws"], data["discards"] = 1, data["left"], 0
                villain = self.villain_of[seat] or ""
                self.used(seat, villain, "launders: draws a currency card, then discards one")
            else:
                self._pop(step)
            return
        if step.stage == 1:
            self._launder_draw(step, action)
            return
        if action is None:
            self._pop(step)
            self.stack += self._hand_limit_step(seat)
            return
        self._move(self._first(f"hand:{seat}", action[1]), f"hand:{seat}", "discard")
        data["discards"] -= 1

    def _launder_draw(self, step: Step, action: tuple[str, str] | None) -> None:
        """Draw until a currency card comes (action cards are discarded), then owe a discard."""
        if action is None:
            if not self._currency_left() or not self._reshuffle():
                step.stage = 2
            return
        inst = self._first("money_deck", action[1])
        if self.rules.money[inst.card].is_action:
            self._move(inst, "money_deck", "discard")  # discard and draw again
            return
        self._move(inst, "money_deck", f"hand:{step.seat}")
        step.data["discards"] += 1
        step.data["draws"] -= 1
        if step.data["draws"] <= 0:
            step.stage = 2

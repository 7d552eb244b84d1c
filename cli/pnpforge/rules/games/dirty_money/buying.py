"""Buying placement cards: choose cards of one region, pay in its currency, no change given.

A purchase is one `buy` step whose data holds the chosen group (pile, card id, instance),
the money cards paid so far and their value; cards bought together are paid together
(执行地点动作: three $5 buy a $7 and an $8 at once).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnpforge.rules.games.dirty_money.base import AUTO, Action, StateBase, Step
from pnpforge.rules.games.dirty_money.data import CRYPTO, REGION_CURRENCY, Placement, Villain


class BuyingSteps(StateBase):
    """The buy step, settling a purchase, and each bought card joining its owner's tableau."""

    def _group_cards(self, step: Step) -> list[Placement]:
        return [self.rules.placements[card_id] for _pile, card_id, _inst in step.data["group"]]

    def due(self, seat: int, cards: list[Placement]) -> int:
        """Total price of cards bought in this order (crypto exchanges bought first count)."""
        return self._due([pl for _c, pl in self._owned(seat, "crypto_exchange")], cards)

    def _group_due(self, step: Step, group: list[Placement]) -> int:
        """`due` of the open purchase, kept while neither its chosen cards (a list that only grows
        until it is replaced) nor the seat's exchanges change: every payment decision asks it."""
        owned = self._owned(step.seat, "crypto_exchange")
        chosen = step.data["group"]
        known = self._due_of
        if known is None or known[0] is not owned or known[1] is not chosen or known[2] != len(chosen):
            known = self._due_of = (owned, chosen, len(chosen), self.due(step.seat, group))
        return known[3]

    @staticmethod
    def _due(exchanges: list[Placement], cards: list[Placement]) -> int:
        """`due` given the crypto exchanges already owned."""
        owned = list(exchanges)
        total = 0
        for pl in cards:
            discount = sum(x.value for x in owned if x.region == pl.region)
            total += max(0, pl.cost - discount)
            if pl.effect == "crypto_exchange":
                owned.append(pl)
        return total

    def pay_value(self, seat: int, card_id: str, currency: str) -> int:
        return self._pay_values(seat, currency)[card_id]

    def _pay_values(self, seat: int, currency: str) -> dict[str, int]:
        """Card id -> what it pays toward a price in `currency` for this seat (read only)."""
        return self.rules.pay_values(self.villain_of[seat] or "", currency)

    def _shark_free(self, seat: int) -> Villain | None:
        shark = self._has(seat, "loan_shark")
        return shark if shark and not self.shark_used else None

    def _shark_value(self, seat: int) -> int:
        shark = self._has(seat, "loan_shark")
        return shark.value if shark else 0

    def max_payable(self, seat: int, hand: Sequence[str], currency: str, shark: bool) -> int:
        """The most `hand` pays toward a price in `currency`: every card, and with the Loan Shark's
        free payment its lowest card counted at the Shark's value instead when that is more."""
        if not hand:
            return 0
        key = (seat, currency, shark)
        known = self._payable_of.get(key)
        if known is not None and known[0] is hand:  # the same read-out: the hand has not moved
            return known[1]
        values = list(map(self._pay_values(seat, currency).__getitem__, hand))
        total = sum(values)
        if shark:
            total += max(0, self._shark_value(seat) - min(values))
        self._payable_of[key] = (hand, total)
        return total

    def _actor_buy(self, step: Step) -> int:
        return step.seat

    def _legal_buy(self, step: Step) -> list[Action]:
        """Picks (each card id once), payments and settling, or being done; unsorted: the state
        sorts every decision's actions."""
        group = self._group_cards(step) if step.data["group"] else []
        hand = self.piles.ids(self.names.hands[step.seat])  # the kit's cached read-out: read only
        if step.data["paid"]:  # paying has begun: no more picks
            return self._legal_payments(step, group, hand)
        picks = self._legal_picks(step, group, hand)
        if not group:
            picks.append(("done",))
            return picks
        return picks + self._legal_payments(step, group, hand)

    def _legal_picks(self, step: Step, group: list[Placement], hand: Sequence[str]) -> list[Action]:
        """Cards that could join the purchase: same region, and the hand can still pay for all.

        A buy step is a quarter of a game's decisions and may look over every card on sale, so
        the group's own price is worked out once: a card joining it costs that plus its own price
        after the discounts the seat and the group then hold (what `_due` of the longer group is).
        """
        seat, data = step.seat, step.data
        if data["paid"] or data["bought"] + len(group) >= data["max"]:
            return []
        shark = bool(self._shark_free(seat))
        exchanges = self._owned(seat, "crypto_exchange")
        owned = [pl for _c, pl in exchanges] if exchanges else []
        region = None
        group_due = 0
        if group:  # cards chosen already: their price, their region, their exchanges
            group_due = self._due(owned, group)
            owned += [pl for pl in group if pl.effect == "crypto_exchange"]
            region = group[0].region
        on_sale = self.rules.on_sale  # card id -> (region, currency, price before discounts)
        budget: dict[str, int] = {}  # most the hand can pay, per currency
        discount: dict[str, int] = {}  # what the exchanges then owned take off, per region
        picks: list[Action] = []
        for card_id in self._on_sale(data):  # each card id once: two copies on sale are one action
            card_region, currency, cost = on_sale[card_id]
            if region is not None and card_region != region:
                continue
            most = budget.get(currency)
            if most is None:
                most = budget[currency] = self.max_payable(seat, hand, currency, shark)
            if owned:
                if card_region not in discount:
                    discount[card_region] = sum(x.value for x in owned if x.region == card_region)
                cost = max(0, cost - discount[card_region])
            if most >= group_due + cost:
                picks.append(("pick", card_id))
        return picks

    def _on_sale(self, data: dict[str, Any]) -> set[str]:
        """The card ids of the purchase's sources not yet chosen for it (a copy chosen leaves its
        twin on sale)."""
        ids = self.piles.ids
        if not data["group"]:  # nothing chosen yet: the piles' kept id read-outs, merged in C
            return set().union(*map(ids, data["sources"]))
        picked = {inst for _pile, _card, inst in data["group"]}
        return {inst.card for pile in data["sources"] for inst in self.cards(pile) if str(inst) not in picked}

    def _legal_payments(self, step: Step, group: list[Placement], hand: Sequence[str]) -> list[Action]:
        """Money cards worth paying (the rest of the hand can still cover the price), and settling."""
        seat, data = step.seat, step.data
        need = self._group_due(step, group)
        paid_now = data["value"]
        payments: list[Action] = []
        if hand:
            shark = self._shark_free(seat)
            pays = self._pay_values(seat, REGION_CURRENCY[group[0].region])
            if not shark:
                # Without the Loan Shark a card paid and the rest of the hand pay the whole hand's
                # worth (no card pays below 0: the card readers refuse it), so every card worth
                # something is worth paying, or none is.
                if paid_now + sum(map(pays.__getitem__, hand)) >= need:
                    payments = [("pay", card_id, 0) for card_id in sorted(set(hand)) if pays[card_id] > 0]
                if paid_now >= need:
                    payments.append(("settle",))
                return payments
            shark_value = shark.value
            values = sorted(map(pays.__getitem__, hand))
            total, low = sum(values), values[0]
            second = values[1] if len(values) > 1 else None
            for card_id in sorted(set(hand)):
                own = pays[card_id]
                # The rest of the hand after paying this card: its total and its smallest value.
                rest_total = total - own
                if own > 0:
                    rest_pays = rest_total
                    rest_min = second if low == own else low
                    if shark and rest_min is not None:
                        rest_pays += max(0, shark_value - rest_min)
                    if paid_now + own >= need or paid_now + own + rest_pays >= need:
                        payments.append(("pay", card_id, 0))
                if shark and shark_value > 0:
                    if paid_now + shark_value >= need or paid_now + shark_value + rest_total >= need:
                        payments.append(("pay", card_id, 1))
        if paid_now >= need:
            payments.append(("settle",))
        return payments

    def _apply_buy(self, step: Step, action: tuple[Any, ...]) -> None:
        seat, data = step.seat, step.data
        kind = action[0]
        if kind == "done":
            self._pop(step)
        elif kind == "pick":
            card_id = action[1]
            picked = {inst for _pile, _card, inst in data["group"]}
            for pile in data["sources"]:  # the first copy on sale not already chosen
                for c in self.cards(pile):
                    if c.card == card_id and (not picked or str(c) not in picked):
                        data["group"].append((pile, card_id, str(c)))
                        return
        elif kind == "pay":
            _kind, card_id, use_shark = action
            region = self.rules.placements[data["group"][0][1]].region  # the purchase's region
            inst = self._first(f"hand:{seat}", card_id)
            self._move(inst, f"hand:{seat}", "payment")
            data["paid"].append(str(inst))
            if use_shark:
                self.shark_used = True
                data["value"] += self._shark_value(seat)
                shark = self.villain_of[seat] or ""
                self.used(seat, shark, f"pays with {self.name(card_id)} as ${self._shark_value(seat)}")
            else:
                data["value"] += self.pay_value(seat, card_id, REGION_CURRENCY[region])
        else:
            self._settle(step)

    def _settle(self, step: Step) -> None:
        """Pay (no change), the 贪污鼠's overpay slot, then each card in purchase order."""
        seat, data = step.seat, step.data
        group = list(data["group"])
        overpaid = data["value"] - self.due(seat, self._group_cards(step))
        paid = set(data["paid"])
        bought = ", ".join(self.name(card_id) for _pile, card_id, _inst in group)
        fox = self._has(seat, "crypto_fox")
        payment = [c for c in self.cards("payment") if str(c) in paid]
        if len(payment) == len(self.cards("payment")):
            self._move_all("payment", "discard")  # the usual case: the same order as one by one
        else:
            for inst in payment:
                self._move(inst, "payment", "discard")
        for inst in payment:
            self.used(seat, inst.card, f"paid toward {bought}")
            if fox and self.rules.money[inst.card].currency == CRYPTO:
                self.used(seat, fox.id, f"pays {self.name(inst.card)} as ${fox.value}")
        data["bought"] += len(group)
        data["group"], data["paid"], data["value"] = [], [], 0
        if data["bought"] >= data["max"]:
            self._pop(step)
        self._push_seq(
            [Step("acquire", seat=seat, data={"pile": pile, "card": inst}) for pile, _c, inst in group]
        )
        embezzler = self._has(seat, "embezzler")
        if embezzler and overpaid >= embezzler.value:
            self._marker(f"overpay:{seat}")
            self.used(seat, embezzler.id, f"overpays by ${overpaid}: a card goes to the overpay slot")

    def _actor_acquire(self, step: Step) -> int:
        return AUTO

    def _apply_acquire(self, step: Step, action: None) -> None:
        """The bought card joins the tableau; casinos and galleries already owned react."""
        seat = step.seat
        self._pop(step)
        pile = step.data["pile"]
        inst = next(c for c in self.cards(pile) if str(c) == step.data["card"])
        bought = self.rules.placements[inst.card]
        casinos = [c for c, casino in self._owned(seat, "casino") if casino.region == bought.region]
        galleries = self._owned(seat, "art_gallery") if bought.effect == "art" else []
        self._move(inst, pile, f"tableau:{seat}")
        self._joined_tableau(seat, inst, bought)
        self.used(seat, inst.card, f"buys {bought.name} ({bought.region}, cost {bought.cost})")
        if pile == "bear":
            bear = self._has(seat, "wall_street_bear")
            self.used(seat, bear.id if bear else "", "buys a card it set aside at the Banana Republic")
        for casino_card in casinos:
            self._marker(f"under:{casino_card}")
            self.outcome(seat, f"{self.name(casino_card.card)} takes a discard under it", casino_card.card)
        for _c, gallery in galleries:
            self.stack += [
                Step("draw_money", seat=seat, data={"dest": f"hand:{seat}", "mode": "gallery"})
                for _ in range(gallery.value)
            ]

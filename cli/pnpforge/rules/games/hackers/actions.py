"""Dealing, set-up, the secret choice of boards and payments, and the install and defend actions.

Boards are chosen face down and at the same time; the engine serialises the
choice (seats choose one after another) and each seat's observation hides
what earlier seats put down.
"""

from __future__ import annotations

from collections import deque

from pnpforge.rules.engine import CHANCE, CardInstance

from .board import BoardChoice, Decision, HackersTable
from .data import ATTACK, DEFEND, HAND_SIZE, INSTALL, MAX_PAYMENT, REPAIR


class ChoosingSteps(HackersTable):
    """Everything up to the reveal of the boards, then installing and defending."""

    # -- dealing (chance) ------------------------------------------------------------------------
    def _job_deal(self) -> None:
        self.to_draw = deque(seat for _ in range(HAND_SIZE) for seat in range(self.players))
        if self.round_no == 1:  # the optional rule: extra cards for less experienced players
            self.to_draw.extend(seat for seat in range(self.players) for _ in range(self.handicap[seat]))
        self._next_draw()

    def _next_draw(self) -> None:
        if not self.to_draw:
            return
        if not self.piles.count("deck") and self.piles.count("discard"):
            self.piles.move_all("discard", "deck")  # reshuffled: draws stay random
            self.deck_counts.update(card.card for card in self.piles.pile("deck"))
            self.outcome(None, "the discard pile is shuffled into a new deck")
        if not self.piles.count("deck"):
            self.to_draw.clear()
            return
        self.decide("draw", CHANCE, [("draw", cid) for cid in self.deck_ids if self.deck_counts[cid]])

    def _on_draw(self, decision: Decision, action: tuple) -> None:
        seat = self.to_draw.popleft()
        self.move(self.find("deck", action[1]), "deck", self.hand_pile[seat])
        self._next_draw()

    def _job_handicap(self) -> None:
        """Seats that drew extra cards discard back to eight; the discards go back into the deck."""
        self.push(*[("trim", seat) for seat in range(self.players) if self.handicap[seat]])

    def _job_trim(self, seat: int) -> None:
        if self.piles.count(self.hand_pile[seat]) > HAND_SIZE:
            self.decide("discard", seat, [("discard", cid) for cid in self._hand_ids(seat)])

    def _on_discard(self, decision: Decision, action: tuple) -> None:
        self.move(self.find(self.hand_pile[decision.seat], action[1]), self.hand_pile[decision.seat], "deck")
        self._job_trim(decision.seat)

    def _hand_ids(self, seat: int) -> list[str]:
        return sorted({card.card for card in self.piles.pile(self.hand_pile[seat])})

    # -- set-up: starting servers ----------------------------------------------------------------
    def _job_setup(self) -> None:
        picks = []
        for seat in range(self.players):
            picks.append(("setup_pick", seat, False))
            if self.has_virtual:
                picks.append(("setup_pick", seat, True))
        self.push(*picks)

    def _job_setup_pick(self, seat: int, for_virtual: bool) -> None:
        if self.piles.count("supply"):
            self.decide("setup", seat, self._server_actions(self.supply_ids()), virtual=for_virtual)

    def _on_setup(self, decision: Decision, action: tuple) -> None:
        owner = self.virtual_owner if decision.data["virtual"] else decision.seat
        self.add_server(owner, self.find("supply", action[1]), "supply")
        if decision.data["virtual"]:
            self.outcome(decision.seat, "picked as the virtual player's starting server", action[1])
        else:
            self.used(owner, action[1], "installed at set-up")

    @staticmethod
    def _server_actions(ids: list[str]) -> list[tuple]:
        return [("server", cid) for cid in ids]

    # -- choosing actions (serialised secret choice) ---------------------------------------------
    def _job_select(self) -> None:
        seats = [seat for seat in range(self.players) if self.piles.count(self.hand_pile[seat])]
        if self.action_no > self.action_limit or not seats:
            self.push(("round_end",))
            return
        self.push(*[("choose", seat) for seat in seats], ("reveal",))

    def boards_open(self, seat: int) -> list[tuple]:
        """The boards `seat` can afford: install needs a supply, defend and attack a key card."""
        hand = self.piles.pile(self.hand_pile[seat])
        catalogue = self.catalogue
        supply = self.piles.pile("supply")
        out = []
        if supply and len(hand) >= min(self.effective_cost(seat, catalogue.server[c.card]) for c in supply):
            out.append(("board", INSTALL))
        if any(c.card in catalogue.defence and catalogue.defence[c.card].cost <= len(hand) - 1 for c in hand):
            out.append(("board", DEFEND))
        if len(hand) >= 2 and any(c.card in catalogue.attack for c in hand):
            out.append(("board", ATTACK))
        out.append(("board", REPAIR))
        return out

    def _job_choose(self, seat: int) -> None:
        self.decide("board", seat, self.boards_open(seat))

    def _on_board(self, decision: Decision, action: tuple) -> None:
        seat, board = decision.seat, action[1]
        hand = self.piles.pile(self.hand_pile[seat])
        catalogue = self.catalogue
        self.choice[seat] = BoardChoice(board)
        if board == INSTALL:
            costs = [self.effective_cost(seat, catalogue.server[c.card]) for c in self.piles.pile("supply")]
            acts: list[tuple] = [("amount", n) for n in range(min(costs), min(len(hand), max(costs)) + 1)]
        elif board == DEFEND:
            ids = {
                c.card
                for c in hand
                if c.card in catalogue.defence and catalogue.defence[c.card].cost <= len(hand) - 1
            }
            acts = [("defence", cid) for cid in sorted(ids)]
        elif board == ATTACK:
            ids = {c.card for c in hand if c.card in catalogue.attack}
            acts = [
                ("attack", cid, pay)
                for cid in sorted(ids)
                for pay in range(1, min(MAX_PAYMENT, len(hand) - 1) + 1)
            ]
        else:
            acts = [("amount", n) for n in range(1, len(hand) + 1)]
        self.decide("key", seat, acts)

    def _on_key(self, decision: Decision, action: tuple) -> None:
        seat = decision.seat
        choice = self.chosen(seat)
        if action[0] == "amount":
            choice.pay = action[1]
        else:
            key = self.find(self.hand_pile[seat], action[1])
            self.move(key, self.hand_pile[seat], self.board_pile[seat])
            choice.key = key
            if action[0] == "defence":
                choice.pay = self.catalogue.defence[key.card].cost
            else:
                choice.pay = choice.pay_option = action[2]
        self._ask_payment(seat)

    def _ask_payment(self, seat: int) -> None:
        choice = self.chosen(seat)
        paid = self.piles.count(self.board_pile[seat]) - (1 if choice.key is not None else 0)
        left = choice.pay - paid
        hand_size = self.piles.count(self.hand_pile[seat])
        if left <= 0:
            return
        if left >= hand_size:  # no choice: every card goes
            self.piles.move_all(self.hand_pile[seat], self.board_pile[seat])
            return
        self.decide("pay", seat, [("pay", cid) for cid in self._hand_ids(seat)])

    def _on_pay(self, decision: Decision, action: tuple) -> None:
        seat = decision.seat
        self.move(self.find(self.hand_pile[seat], action[1]), self.hand_pile[seat], self.board_pile[seat])
        self._ask_payment(seat)

    def _job_reveal(self) -> None:
        chosen = [seat for seat in range(self.players) if self.choice[seat] is not None]
        by_board = {board: [s for s in chosen if self.chosen(s).board == board] for board in range(4)}
        jobs: list[tuple] = [("install", seat) for seat in self.priority(by_board[INSTALL])]
        jobs += [("defend", seat) for seat in by_board[DEFEND]]
        if by_board[ATTACK]:
            jobs.append(("attack_phase", tuple(by_board[ATTACK])))
        jobs += [("repair", seat) for seat in by_board[REPAIR]]
        jobs.append(("step_end",))
        self.push(*jobs)

    # -- I install -------------------------------------------------------------------------------
    def _job_install(self, seat: int) -> None:
        self.revealed[seat] = True
        paid = self.piles.count(self.board_pile[seat])
        affordable = [
            c
            for c in self.piles.pile("supply")
            if self.effective_cost(seat, self.catalogue.server[c.card]) <= paid
        ]
        if not affordable:  # supply bought out (or priced out): cards back to hand
            self.piles.move_all(self.board_pile[seat], self.hand_pile[seat])
            self.outcome(
                seat, "install failed: no affordable server left in the supply, payment back to hand"
            )
            return
        self.decide("buy", seat, self._server_actions(sorted({c.card for c in affordable})))

    def _on_buy(self, decision: Decision, action: tuple) -> None:
        seat = decision.seat
        card = self.find("supply", action[1])
        spec = self.catalogue.server[card.card]
        paid = self.piles.count(self.board_pile[seat])
        need = max(0, spec.cost - paid)
        for tableau_card in sorted(self.piles.pile(self.tableau_pile[seat]), key=str):
            if (
                need
                and self.catalogue.defence[tableau_card.card].effect == "thin_provision"
                and tableau_card not in self.tapped
            ):
                self.tap(tableau_card)
                self.outcome(seat, "Thin Provision tapped: one card less to pay", tableau_card.card)
                need -= 1
        self.discard_board(seat)
        caches = self.count_effect(seat, "solid_state_cache")
        self.installs.append((seat, caches))
        self.gain(seat, caches, "Solid State Cache: server installed")
        self.used(seat, card.card, f"installed for {paid} card(s)")
        self.outcome(seat, f"installed server {card.card} (cost {spec.cost}, paid {paid})", card.card)
        self._install(seat, card, chooser=seat)
        self.push(("virtual_check", seat))

    def _install(self, owner: int, card: CardInstance, chooser: int) -> None:
        self.add_server(owner, card, "supply")
        if len(self.servers[owner]) > self.server_limit:
            kind = "vscrap" if owner == self.virtual_owner else "scrap"
            self.decide(
                kind, chooser, [("scrap", k) for k in range(len(self.servers[owner]) - 1)], owner=owner
            )

    def _on_scrap(self, decision: Decision, action: tuple) -> None:
        owner = decision.data["owner"]
        old = self.remove_server(owner, action[1])
        new = self.servers[owner][-1]
        moved = sum(old.damage)
        self.outcome(
            None if owner == self.virtual_owner else owner,
            f"server {old.card.card} of {self.owner_name(owner)} goes back to the box, "
            f"its {moved} damage moves to {new.card.card}",
            old.card.card,
        )
        if moved:
            refs = tuple((len(self.servers[owner]) - 1, h) for h in range(len(new.damage)))
            self.push(("place", owner, refs, moved))

    _on_vscrap = _on_scrap

    def _job_virtual_check(self, seat: int) -> None:
        """Two players: the virtual player keeps up with the current level's servers."""
        if not self.has_virtual or not self.piles.count("supply"):
            return
        level = self.round_no
        mine = sum(1 for sv in self.servers[seat] if sv.spec.level == level)
        theirs = sum(1 for sv in self.servers[self.virtual_owner] if sv.spec.level == level)
        if mine > theirs:
            self.decide("vpick", 1 - seat, self._server_actions(self.supply_ids()))

    def _on_vpick(self, decision: Decision, action: tuple) -> None:
        self.outcome(decision.seat, "given to the virtual player", action[1])
        self._install(self.virtual_owner, self.find("supply", action[1]), chooser=decision.seat)

    # -- II defend -------------------------------------------------------------------------------
    def _job_defend(self, seat: int) -> None:
        self.revealed[seat] = True
        key = self.chosen(seat).key
        assert key is not None
        self.move(key, self.board_pile[seat], self.tableau_pile[seat])
        self.used(seat, key.card, "put into play in front of its owner")
        self.discard_board(seat)

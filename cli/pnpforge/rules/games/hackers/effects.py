"""Attack, repair and the round's end: how damage is placed, removed and scored.

Damage is spread evenly over the holes of the attacked colour (water-filling,
four per hole); the owner places what cannot be spread evenly, the virtual
player's remainders are placed automatically.
"""

from __future__ import annotations

from pnpforge.rules.engine import RuleViolation

from .arithmetic import attack_strength, landed
from .board import AttackRecord, Decision, HackersTable
from .data import AUTO_RECOVERY, HOLE_CAPACITY, INCIDENT_REPAIR, REPAIR_PER_CARD, ROUNDS, UNDERGROUND_VP


class ResolutionSteps(HackersTable):
    """Attack, damage placement, repair, step end and round end."""

    # -- III attack ------------------------------------------------------------------------------
    def _job_attack_phase(self, seats: tuple[int, ...]) -> None:
        self.push(*[("attack", seat) for seat in self.priority(seats)])

    def _job_attack(self, seat: int) -> None:
        self.revealed[seat] = True
        key = self.chosen(seat).key
        assert key is not None
        colours = self.catalogue.attack[key.card].colours
        if len(colours) > 1:
            self.decide("colour", seat, [("colour", c) for c in sorted(colours)])
        else:
            self.push(("hit", seat, colours[0]))

    def _on_colour(self, decision: Decision, action: tuple) -> None:
        self.push(("hit", decision.seat, action[1]))

    def attack_strength(self, seat: int, card_id: str, pay: int, colour: str) -> tuple[int, int]:
        """(attack, direct) of `seat` attacking with this card; see `arithmetic.attack_strength`."""
        return attack_strength(self.catalogue, self.tableau_ids(seat), card_id, pay, colour)

    def damage_against(self, owner: int, colour: str, attack: int, direct: int) -> int:
        """Tokens that would land on `owner`: attack less defence, plus direct, up to the free slots."""
        return landed(attack, direct, self.defence_of(owner, colour), self.free_slots(owner, colour))

    def _job_hit(self, seat: int, colour: str) -> None:
        choice = self.chosen(seat)
        assert choice.key is not None
        card_id = choice.key.card
        attack, direct = self.attack_strength(seat, card_id, choice.pay_option, colour)
        self.discard_board(seat)
        self.used(seat, card_id, f"attacked in {colour} paying {choice.pay_option}")
        placements, placed_on = [], []
        for owner in range(self.owner_count):
            if owner == seat or not self.has_colour(owner, colour):
                continue
            placed = self.damage_against(owner, colour, attack, direct)
            if placed <= 0:
                continue
            placed_on.append(placed)
            refs = tuple(
                (k, h)
                for k, sv in enumerate(self.servers[owner])
                for h, c in enumerate(sv.spec.holes)
                if c == colour
            )
            placements.append(("place", owner, refs, placed))
            self.outcome(
                seat,
                f"attack ({attack} attack, {direct} direct) puts {placed} damage in {colour} "
                f"on {self.owner_name(owner)}",
                card_id,
            )
        if not placed_on:
            self.outcome(
                seat, f"attack ({attack} attack, {direct} direct) in {colour} lands no damage", card_id
            )
        proofs = self.count_effect(seat, "proof_of_concept")
        markets = self.count_effect(seat, "underground_market")
        self.attacks.append(AttackRecord(seat, tuple(placed_on), proofs, markets))
        self.gain(seat, max(placed_on, default=0), "damage placed", card_id)
        if placed_on:
            self.gain(seat, proofs, "Proof of Concept: an opponent damaged")
        if len(placed_on) >= 2:
            self.gain(seat, UNDERGROUND_VP * markets, "Underground Market: two opponents damaged")
        self.push(*placements)

    def _job_place(self, owner: int, refs: tuple[tuple[int, int], ...], amount: int) -> None:
        """Spread `amount` evenly (water-filling, 4 per hole); the owner places the remainder."""
        self.servers_changed()
        servers = self.servers[owner]
        damage = [servers[k].damage[h] for k, h in refs]
        amount = min(amount, sum(HOLE_CAPACITY - x for x in damage))
        level = min(damage)
        while level < HOLE_CAPACITY:
            step = sum(1 for x in damage if x <= level)
            if step > amount:
                break
            amount -= step
            level += 1
        for (k, h), x in zip(refs, damage, strict=True):
            servers[k].damage[h] = max(x, level)
        if amount <= 0:
            return
        at_level = [ref for ref in refs if servers[ref[0]].damage[ref[1]] == level]
        if owner == self.virtual_owner or len(at_level) == amount:
            for k, h in at_level[:amount]:
                servers[k].damage[h] += 1
            return
        self.decide("place", owner, [("place", k, h) for k, h in sorted(at_level)], owner=owner, left=amount)

    def _on_place(self, decision: Decision, action: tuple) -> None:
        self.servers_changed()
        _, k, h = action
        self.servers[decision.data["owner"]][k].damage[h] += 1
        left = decision.data["left"] - 1
        rest = [a for a in decision.actions if a != action]
        if left > 0:
            self.decide("place", decision.seat, rest, owner=decision.data["owner"], left=left)

    # -- IV repair -------------------------------------------------------------------------------
    def _job_repair(self, seat: int) -> None:
        self.revealed[seat] = True
        paid = self.piles.count(self.board_pile[seat])
        self.discard_board(seat)
        budget = REPAIR_PER_CARD * paid
        damage = self.total_damage(seat)
        for card in sorted(self.piles.pile(self.tableau_pile[seat]), key=str):  # Incident Response, as needed
            if budget >= damage:
                break
            if self.catalogue.defence[card.card].effect == "incident_response" and card not in self.tapped:
                self.tap(card)
                self.outcome(seat, "Incident Response tapped: two more damage removed", card.card)
                budget += INCIDENT_REPAIR
        self.outcome(seat, f"repair paid {paid} card(s): up to {budget} of {damage} damage removed")
        self.push(("fix", seat, budget))

    def _job_fix(self, seat: int, budget: int) -> None:
        """Remove `budget` damage from the seat's holes; the seat picks when it matters."""
        self.servers_changed()
        if budget <= 0:
            return
        if self.total_damage(seat) <= budget:
            for sv in self.servers[seat]:
                sv.damage = [0] * len(sv.damage)
            return
        acts = [
            ("fix", k, h) for k, sv in enumerate(self.servers[seat]) for h, x in enumerate(sv.damage) if x > 0
        ]
        self.decide("fix", seat, acts, budget=budget)

    def _on_fix(self, decision: Decision, action: tuple) -> None:
        self.servers_changed()
        _, k, h = action
        self.servers[decision.seat][k].damage[h] -= 1
        self.push(("fix", decision.seat, decision.data["budget"] - 1))

    # -- end of a step, of a round, of the game --------------------------------------------------
    def _job_step_end(self) -> None:
        for seat in range(self.players):
            if self.piles.count(self.board_pile[seat]):
                raise RuleViolation(f"seat {seat} still has cards under its board after resolution")
            self.choice[seat] = None
            self.revealed[seat] = False
        self.action_no += 1
        self.push(("select",))

    def _job_round_end(self) -> None:
        jobs: list[tuple] = [
            ("fix", s, AUTO_RECOVERY * self.count_effect(s, "auto_recovery")) for s in range(self.players)
        ]
        jobs.append(("round_score",))
        if self.round_no < ROUNDS:
            jobs += [("cleanup",), ("deal",), ("select",)]
        self.push(*jobs)

    def _job_round_score(self) -> None:
        """Round-end effects (Certification Audit), clean holes and clean-server bonuses."""
        snapshot = []
        for seat in range(self.players):
            servers = self.servers[seat]
            clean = sum(1 for sv in servers if sv.clean)
            audits = self.count_effect(seat, "certification_audit")
            snapshot.append((tuple((tuple(sv.damage), sv.spec.bonus) for sv in servers), audits))
            holes = sum(1 for sv in servers for x in sv.damage if x == 0)
            bonus = sum(sv.spec.bonus for sv in servers if sv.clean)
            self._round_points(
                seat,
                audits * clean + holes + bonus,
                f"round {self.round_no}: {holes} clean holes, "
                f"{clean} clean servers (bonus {bonus}, audits {audits})",
            )
        self.snapshots.append(snapshot)
        self.round(f"round {self.round_no} scored: VP {self.vp}")

    def _round_points(self, seat: int, vp: int, reason: str) -> None:
        """Round scoring moves the disc like any gain; `scores_from_rules` recomputes it from snapshots."""
        if vp > 0:
            self.vp[seat] += vp
            self._top_height += 1
            self.disc_height[seat] = self._top_height
            self.score(seat, vp, reason)

    def _job_cleanup(self) -> None:
        self.servers_changed()
        for owner in self.servers:
            for sv in owner:
                sv.damage = [0] * len(sv.damage)
        self.untap_all()
        for seat in range(self.players):
            self.piles.move_all(self.hand_pile[seat], "discard")
        self.piles.move_all("supply", "box")
        self.round_no += 1
        self.action_no = 1
        self.piles.move_all(f"stock:{self.round_no}", "supply")
        self.round(f"round {self.round_no} begins: level {self.round_no} servers in the supply")

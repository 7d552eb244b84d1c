"""What one seat sees (`HackersObservation`) and how the greedy agent values an action from it.

The observation holds the public table (servers and their damage, the cards in
front of everyone and which are tapped, VP, supply, pile sizes), the seat's own
hand and face-down choice, and of the other seats' boards only what is shown:
the number of face-down cards while boards are chosen, the board once turned
over, the cards once that seat resolves.  It holds card ids and numbers only,
never the state, so hidden cards cannot be reached from it.

The greedy values are one-step estimates in VP: an attack is worth the damage
it would land now (plus Proof of Concept and Underground Market), a server its
holes and bonus, a repair the VP the round's scoring would give back, a defence
card its protection and effect for the rounds left; paying a card costs
CARD_COST.  They read only the observation and the card data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pnpforge.rules.engine import Observation

from .arithmetic import attack_strength, defence_in, free_slots, landed, virtual_defence
from .data import (
    ATTACK,
    DEFEND,
    INCIDENT_REPAIR,
    INSTALL,
    MAX_PAYMENT,
    REPAIR,
    REPAIR_PER_CARD,
    ROUNDS,
    UNDERGROUND_VP,
    Catalogue,
    ServerSpec,
)

CARD_COST = 0.8  # what paying one card away is worth, in VP, when weighing an action's price
# What each defence effect is worth per round left, in VP (audits: per server owned).
EFFECT_VALUE = {
    "thin_provision": 0.6,
    "incident_response": 0.6,
    "solid_state_cache": 1.0,
    "auto_recovery": 1.0,
    "certification_audit": 0.5,
    "proof_of_concept": 1.2,
    "trojan_horse": 1.2,
    "underground_market": 1.2,
    "zero_day_attack": 1.6,
    "deep_security": 0.3,
}


@dataclass(frozen=True)
class HackersObservation(Observation):
    players: int
    virtual_owner: int  # owner index of the virtual player (two players), else -1
    server_limit: int
    round_no: int
    action_no: int
    decision: str  # what the seat decides now ("board", "key", "pay", "place"…)
    decision_owner: int  # whose servers a scrap or place decision is about, else -1
    hand: tuple[str, ...]
    my_board: int  # the board this seat chose face down in this step, else -1
    my_key: str  # the key card under it ("" for install and repair)
    my_pay_option: int  # the printed strength an attack paid for
    boards: tuple[tuple[int, int, tuple[str, ...]], ...]  # per seat: board (-1 hidden), cards, cards shown
    hand_sizes: tuple[int, ...]
    vp: tuple[int, ...]
    disc_heights: tuple[int, ...]
    deck_size: int
    discard_size: int
    supply: tuple[str, ...]
    servers: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]  # per owner: (server id, damage per hole)
    tableaux: tuple[tuple[tuple[str, bool], ...], ...]  # per seat: (defence card id, tapped)


class GreedyJudge:
    """One-step values of actions for the greedy agent, from an observation and the card data.

    The agent asks for every legal action of one observation in a row, so what depends on
    the observation alone (opponents' defence and free slots per colour, effect counts,
    attack values) is computed once per observation and kept until the next one arrives.
    """

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._obs: HackersObservation | None = None
        self._table: tuple[object, ...] = ()
        self._targets: dict[str, list[tuple[int, int]]] = {}
        self._counts: dict[tuple[str, bool], int] = {}
        self._attacks: dict[tuple[str, int], float] = {}
        self._defences: dict[str, float] = {}

    def _for(self, obs: HackersObservation) -> None:
        """Start over when an observation of a different table arrives.

        A seat's decisions while choosing (board, key card, payments) all see the same
        servers and tableaux, so the values computed for the first stay valid for the rest.
        """
        if obs is self._obs:
            return
        table = (obs.seat, obs.virtual_owner, obs.round_no, obs.action_no, obs.servers, obs.tableaux)
        self._obs = obs
        if table != self._table:
            self._table = table
            self._targets.clear()
            self._counts.clear()
            self._attacks.clear()
            self._defences.clear()

    # -- the table as the observation shows it ---------------------------------------------------
    def _tableau(self, obs: HackersObservation, seat: int) -> list[str]:
        return [card_id for card_id, _ in obs.tableaux[seat]]

    def _count(self, obs: HackersObservation, effect: str, untapped: bool = False) -> int:
        key = (effect, untapped)
        if key not in self._counts:
            defence = self.catalogue.defence
            self._counts[key] = sum(
                1
                for card_id, tapped in obs.tableaux[obs.seat]
                if defence[card_id].effect == effect and not (untapped and tapped)
            )
        return self._counts[key]

    def _effective_cost(self, obs: HackersObservation, spec: ServerSpec) -> int:
        return max(1, spec.cost - self._count(obs, "thin_provision", untapped=True))

    def _holes(self, obs: HackersObservation, owner: int) -> list[tuple[str, ...]]:
        return [self.catalogue.server[sid].holes for sid, _ in obs.servers[owner]]

    def _targets_in(self, obs: HackersObservation, colour: str) -> list[tuple[int, int]]:
        """(defence, free slots) in `colour` of every opponent with a hole of that colour."""
        if colour not in self._targets:
            found = []
            for owner in range(len(obs.servers)):
                holes = self._holes(obs, owner)
                if owner == obs.seat or not any(colour in h for h in holes):
                    continue
                if owner == obs.virtual_owner:
                    defence = virtual_defence(holes, colour)
                else:
                    defence = defence_in(self.catalogue, self._tableau(obs, owner), colour)
                damage = (d for _, d in obs.servers[owner])
                found.append((defence, free_slots(zip(holes, damage, strict=True), colour)))
            self._targets[colour] = found
        return self._targets[colour]

    def _damage(self, obs: HackersObservation, owner: int) -> int:
        return sum(sum(damage) for _, damage in obs.servers[owner])

    # -- values ----------------------------------------------------------------------------------
    @staticmethod
    def server_value(spec: ServerSpec) -> float:
        return spec.bonus + len(spec.holes)

    def best_attack(self, obs: HackersObservation, card_id: str, pay: int) -> float:
        """VP an attack would earn now, in its best colour."""
        self._for(obs)
        key = (card_id, pay)
        if key in self._attacks:
            return self._attacks[key]
        best = 0.0
        mine = self._tableau(obs, obs.seat)
        for colour in self.catalogue.attack[card_id].colours:
            attack, direct = attack_strength(self.catalogue, mine, card_id, pay, colour)
            hits = [landed(attack, direct, d, free) for d, free in self._targets_in(obs, colour)]
            hits = [h for h in hits if h > 0]
            value = (
                max(hits, default=0)
                + (self._count(obs, "proof_of_concept") if hits else 0)
                + (UNDERGROUND_VP * self._count(obs, "underground_market") if len(hits) >= 2 else 0)
            )
            best = max(best, value)
        self._attacks[key] = best
        return best

    def defence_value(self, obs: HackersObservation, card_id: str) -> float:
        """What a defence card in front of this seat is worth for the rest of the game, less its price.

        Its defence protects the holes of its colour (every hole for Deep Security); its effect
        pays once per round or per action of its kind (EFFECT_VALUE, in VP per round); both are
        worth more the more of the game is left."""
        self._for(obs)
        if card_id in self._defences:
            return self._defences[card_id]
        spec = self.catalogue.defence[card_id]
        mine = [c for holes in self._holes(obs, obs.seat) for c in holes]
        cover = len(mine) if spec.effect == "deep_security" else mine.count(spec.colour)
        effect = EFFECT_VALUE.get(spec.effect, 0.5)
        if spec.effect == "underground_market" and len(obs.servers) < 3:
            effect = 0.0  # two damaged opponents needs two opponents
        if spec.effect == "certification_audit":
            effect *= len(obs.servers[obs.seat])
        steps = 4 if obs.players == 2 else 5
        rounds_left = ROUNDS - obs.round_no + (steps - obs.action_no + 1) / steps
        value = (spec.defence * min(cover, 3) * 0.3 + effect) * rounds_left * 0.5 - spec.cost * CARD_COST
        self._defences[card_id] = value
        return value

    def keep_value(self, obs: HackersObservation, card_id: str) -> float:
        """How much a card in hand is worth keeping (paying with it gives that up)."""
        if card_id in self.catalogue.attack:
            return self.best_attack(obs, card_id, 2) / 2 + 0.5
        return self.defence_value(obs, card_id)

    def values(self, obs: Observation, legal: Sequence[Any]) -> list[float]:
        """Every legal action of one decision, judged in a row (what they share worked out once)."""
        assert isinstance(obs, HackersObservation)
        value = self.value
        return [value(obs, action) for action in legal]

    def value(self, obs: HackersObservation, action: tuple) -> float:
        self._for(obs)
        kind = obs.decision
        if kind == "board":
            return self._board_value(obs, action[1])
        if kind == "key":
            return self._key_value(obs, action)
        if kind in ("pay", "discard"):
            return -self.keep_value(obs, action[1])
        if kind in ("buy", "setup"):
            return self.server_value(self.catalogue.server[action[1]])
        if kind == "vpick":
            return len(self.catalogue.server[action[1]].holes)
        if kind in ("scrap", "vscrap"):
            server_id, damage = obs.servers[obs.decision_owner][action[1]]
            return -self.server_value(self.catalogue.server[server_id]) + 0.5 * sum(damage)
        if kind == "colour":
            attack, direct = attack_strength(
                self.catalogue, self._tableau(obs, obs.seat), obs.my_key, obs.my_pay_option, action[1]
            )
            return max(
                (landed(attack, direct, d, free) for d, free in self._targets_in(obs, action[1])), default=0
            )
        if kind == "place":
            return sum(obs.servers[obs.decision_owner][action[1]][1])  # keep the other servers clean
        if kind == "fix":
            return self._fix_value(obs, action[1], action[2])
        return 0.0

    def _board_value(self, obs: HackersObservation, board: int) -> float:
        hand = obs.hand
        catalogue = self.catalogue
        if board == ATTACK:
            return max(
                (
                    self.best_attack(obs, c, p) - CARD_COST * p
                    for c in set(hand)
                    if c in catalogue.attack
                    for p in range(1, min(MAX_PAYMENT, len(hand) - 1) + 1)
                ),
                default=0,
            )
        if board == INSTALL:
            if len(obs.servers[obs.seat]) >= obs.server_limit:
                return 0.5
            costs = {sid: self._effective_cost(obs, catalogue.server[sid]) for sid in obs.supply}
            return max(
                self.server_value(catalogue.server[sid]) - 0.6 * costs[sid]
                for sid in obs.supply
                if costs[sid] <= len(hand)
            )
        if board == DEFEND:
            return max(self.defence_value(obs, c) for c in set(hand) if c in catalogue.defence)
        return max(self._repair_value(obs, n) for n in range(1, len(hand) + 1))

    def _key_value(self, obs: HackersObservation, action: tuple) -> float:
        if action[0] == "attack":
            return self.best_attack(obs, action[1], action[2]) - CARD_COST * action[2]
        if action[0] == "defence":
            return self.defence_value(obs, action[1])
        amount = action[1]
        if obs.my_board == REPAIR:
            return self._repair_value(obs, amount)
        return (
            max(
                (
                    self.server_value(self.catalogue.server[sid])
                    for sid in obs.supply
                    if self._effective_cost(obs, self.catalogue.server[sid]) <= amount
                ),
                default=0,
            )
            - amount
        )

    # -- repair: damage only costs VP when the round is scored -----------------------------------
    def repair_gain(self, obs: HackersObservation, budget: int) -> float:
        """VP the round's scoring gives back if `budget` damage is removed now: whole servers
        cheapest first (holes, bonus and Certification Audits), then single holes."""
        servers = [
            (sum(damage), damage, self.catalogue.server[sid].bonus) for sid, damage in obs.servers[obs.seat]
        ]
        total = sum(dirt for dirt, _, _ in servers)
        for _ in range(self._count(obs, "incident_response", untapped=True)):
            if budget >= total:
                break
            budget += INCIDENT_REPAIR
        audits = self._count(obs, "certification_audit")
        gain = 0.0
        rest: list[int] = []
        for dirt, damage, bonus in sorted(servers):
            if 0 < dirt <= budget:
                budget -= dirt
                gain += sum(1 for d in damage if d) + bonus + audits
            else:
                rest += [d for d in damage if d]
        for dirt in sorted(rest):
            if dirt > budget:
                break
            budget -= dirt
            gain += 1
        return gain

    def _repair_value(self, obs: HackersObservation, cards: int) -> float:
        """VP won back for `cards` cards, discounted while later attacks this round may undo it."""
        steps_left = (4 if obs.players == 2 else 5) - obs.action_no
        timing = 1.0 if steps_left <= 0 or len(obs.hand) <= cards else 0.7
        return self.repair_gain(obs, REPAIR_PER_CARD * cards) * timing - CARD_COST * cards

    def _fix_value(self, obs: HackersObservation, server: int, hole: int) -> float:
        """Take damage off the least damaged hole of the least damaged server first, so the
        budget cleans whole holes and servers (which score) rather than thinning many."""
        damage = obs.servers[obs.seat][server][1]
        return -damage[hole] - 0.01 * sum(damage)

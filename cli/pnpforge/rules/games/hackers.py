"""League of Hackers (駭客聯盟): rules engine.

Three rounds; in each, up to five action steps (four with two players).  In a
step every player with cards secretly picks one action board and puts cards
under it face down; the boards are then resolved install → defend → attack →
repair.  The secret choice is serialised: seats choose one after another and
`hidden_view` keeps earlier choices hidden from later seats.

Card numbers (defence values and costs, attack tables, server holes, costs and
bonuses) and copies come from the database, so editing a card changes the
next check.  The effect *rules* (e.g. Trojan Horse: +2 attack) are the
rulebook's text and live here, keyed by each defence card's `effect` field.

Where the rulebook leaves a detail open the engine decides, and says so here:
* the payment for Install is declared when choosing; at resolution the player
  buys any supply server it affords (Thin Provision cards are tapped only as
  needed); if none is affordable the cards go back to hand, as when the supply
  is empty;
* Incident Response cards are tapped only when the repair budget would not
  already remove all damage; Auto Recovery resolves before Certification Audit;
* the resolution order inside one action is fixed when that action begins;
* the virtual player (2 players) gains a server when a player owns more
  servers of the current round's level than it does; the other player picks
  it (and, at the limit, which old one it loses); its remainders are placed
  automatically;
* the virtual player counts as an opponent for attack VP and D-06/D-08;
* after the third round the damage stays on the servers, for the tie-break.
"""

from __future__ import annotations

import copy
import random
from collections import Counter, deque
from dataclasses import dataclass
from typing import Any, Hashable

from pnpforge.errors import PnpError
from pnpforge.rules.engine import (CHANCE, TERMINAL, CardInstance, GameInfo, GameRules,
                                   RuleViolation, State, UnknownEffect)

SLUG = "hackers"
COLOURS = ("R", "Y", "G", "B")
INSTALL, DEFEND, ATTACK, REPAIR = range(4)
BOARD_NAMES = ("安裝購置 install", "防禦漏洞 defend", "攻擊入侵 attack", "修理維護 repair")

ROUNDS = 3
HAND_SIZE = 8
HOLE_CAPACITY = 4            # damage tokens per hole
REPAIR_PER_CARD = 3
MAX_PAYMENT = 4              # attack cards offer strengths for paying 1-4
# Effect sizes printed in the rulebook's card-effect list.
TROJAN_ATTACK = 2
ZERO_DAY_DIRECT = 2
INCIDENT_REPAIR = 2
AUTO_RECOVERY = 2
UNDERGROUND_VP = 2

EFFECTS = ("thin_provision", "incident_response", "solid_state_cache", "auto_recovery",
           "certification_audit", "proof_of_concept", "trojan_horse", "underground_market",
           "zero_day_attack", "deep_security")


# ---- static card data --------------------------------------------------------------------

@dataclass(frozen=True)
class DefenceSpec:
    id: str
    colour: str
    defence: int
    cost: int
    effect: str
    effect_colours: frozenset[str]


@dataclass(frozen=True)
class AttackSpec:
    id: str
    colours: tuple[str, ...]
    options: tuple[tuple[int, int], ...]   # (attack, direct) for paying 1..4

    def option(self, pay: int) -> tuple[int, int]:
        return self.options[pay - 1]


@dataclass(frozen=True)
class ServerSpec:
    id: str
    level: int
    holes: tuple[str, ...]
    cost: int
    bonus: int


class Server:
    """A server card in front of someone, with the damage on each of its holes."""

    __slots__ = ("inst", "spec", "damage")

    def __init__(self, inst: CardInstance, spec: ServerSpec) -> None:
        self.inst = inst
        self.spec = spec
        self.damage = [0] * len(spec.holes)

    @property
    def clean(self) -> bool:
        return not any(self.damage)


@dataclass
class Decision:
    """Who must choose what now; `actions` is the sorted legal list."""

    kind: str
    seat: int
    actions: list
    data: dict


def _need(card, name: str, kind: type = int):
    value = card.fields.get(name)
    if value is None or (kind is int and (isinstance(value, bool) or not isinstance(value, int))):
        raise PnpError(f"hackers card {card.id}: field '{name}' is missing or not "
                       f"{'an integer' if kind is int else 'valid'} (got {value!r})")
    return value


def _colours(card, name: str, required: bool) -> tuple[str, ...]:
    value = card.fields.get(name) or []
    bad = [c for c in value if c not in COLOURS]
    if bad or (required and not value):
        raise PnpError(f"hackers card {card.id}: field '{name}' must list colours from "
                       f"{', '.join(COLOURS)} (got {value!r})")
    return tuple(value)


def _parse_cards(cards) -> tuple[dict, dict, dict, dict]:
    defence, attack, server, copies = {}, {}, {}, {}
    for c in cards:
        copies[c.id] = c.copies
        if c.type == "defence":
            colour = c.fields.get("colour")
            if colour not in COLOURS:
                raise PnpError(f"hackers card {c.id}: field 'colour' must be one of "
                               f"{', '.join(COLOURS)} (got {colour!r})")
            defence[c.id] = DefenceSpec(c.id, colour, _need(c, "defence"), _need(c, "cost"),
                                        str(c.fields.get("effect") or ""),
                                        frozenset(_colours(c, "effect_colours", False)))
        elif c.type == "attack":
            options = tuple((_need(c, f"attack_{p}"), _need(c, f"direct_{p}"))
                            for p in range(1, MAX_PAYMENT + 1))
            attack[c.id] = AttackSpec(c.id, _colours(c, "colours", True), options)
        elif c.type == "server":
            holes = _colours(c, "holes", True)
            cost = _need(c, "cost")
            if cost < 1:
                raise PnpError(f"hackers card {c.id}: a server costs at least 1 (got {cost})")
            server[c.id] = ServerSpec(c.id, _need(c, "level"), holes, cost, _need(c, "bonus"))
        else:
            raise PnpError(f"hackers card {c.id}: unknown card type '{c.type}' "
                           "(the engine knows defence, attack, server)")
    return defence, attack, server, copies


class HackersRules(GameRules):
    """League of Hackers bound to one database's cards."""

    def __init__(self, cards, options: dict | None = None) -> None:
        options = dict(options or {})
        if options:
            raise PnpError(f"hackers engine takes no options (got {', '.join(sorted(options))})")
        self.defence, self.attack, self.server, self.copies = _parse_cards(cards)
        if not self.server:
            raise PnpError("hackers: the database has no server cards")
        levels = {s.level for s in self.server.values()}
        missing = [lvl for lvl in range(1, ROUNDS + 1) if lvl not in levels]
        if missing:
            raise PnpError(f"hackers: no server card of level {', '.join(map(str, missing))}")
        self.info = GameInfo(slug=SLUG, players_min=2, players_max=4, max_steps=2000,
                             options=options)

    def instances(self, ids) -> list[CardInstance]:
        return [CardInstance(i, k) for i in ids for k in range(self.copies[i])]

    def deck(self) -> list[CardInstance]:
        return self.instances([*self.defence, *self.attack, *self.server])

    def unknown_effects(self) -> list[UnknownEffect]:
        return [UnknownEffect(d.id, d.effect) for d in self.defence.values()
                if d.effect not in EFFECTS]

    def new_initial_state(self, players: int, rng: random.Random) -> "HackersState":
        if not self.info.players_min <= players <= self.info.players_max:
            raise PnpError(f"League of Hackers is for 2–4 players (got {players})")
        return HackersState(self, players)


def make_rules(db, options: dict) -> HackersRules:
    from pnpforge.store import repo
    return HackersRules(repo.list_cards(db, SLUG), options)


# ---- state -------------------------------------------------------------------------------

class HackersState(State):
    """One position.  Work left to do sits in `jobs`; `decision` is what waits for a seat."""

    def __init__(self, rules: HackersRules, players: int) -> None:
        self.rules = rules
        self.n = players
        self.virtual = players == 2
        self.V = players if self.virtual else -1          # owner index of the virtual player
        self.owners = players + (1 if self.virtual else 0)
        self.action_limit = 4 if players == 2 else 5
        self.server_limit = 4 if players == 2 else 5
        self.deck: list[CardInstance] = rules.instances([*rules.defence, *rules.attack])
        self.discard: list[CardInstance] = []
        self.hands: list[list[CardInstance]] = [[] for _ in range(players)]
        self.boards: list[list[CardInstance]] = [[] for _ in range(players)]
        self.choice: list[dict | None] = [None] * players
        self.tableau: list[list[CardInstance]] = [[] for _ in range(players)]
        self.tapped: set[CardInstance] = set()
        self.servers: list[list[Server]] = [[] for _ in range(self.owners)]
        self.stock: dict[int, list[CardInstance]] = {}
        for sid, spec in rules.server.items():
            self.stock.setdefault(spec.level, []).extend(rules.instances([sid]))
        self.supply: list[CardInstance] = []
        self.box: list[CardInstance] = []
        self.vp = [0] * players
        self.disc = list(range(players))   # stack height stamp: the later arrival sits higher
        self._stamp = players - 1
        self.round_no = 1
        self.action_no = 1
        self.to_draw: deque[int] = deque()
        self.jobs: deque[tuple] = deque()
        self.decision: Decision | None = None
        self.played: list[str] = []
        self.ledger: list[tuple[int, int, str]] = []       # (seat, VP, reason) gained in play
        self.snapshots: list[dict] = []                     # servers at each round's scoring
        self.revealed = [False] * players
        self.terminal = False
        self.supply = self._take_stock(1)
        self.jobs.extend([("deal",), ("setup",), ("select",)])
        self._advance()

    # -- engine interface ------------------------------------------------------------------
    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        return self.decision.seat

    def legal_actions(self) -> list[Hashable]:
        return [] if self.terminal else self.decision.actions

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        if self.terminal or self.decision.seat != CHANCE:
            raise RuleViolation("chance_outcomes() asked at a player decision")
        counts = Counter(i.card for i in self.deck)
        total = len(self.deck)
        return [(cid, counts[cid] / total) for cid in self.decision.actions]

    def is_terminal(self) -> bool:
        return self.terminal

    def apply(self, action: Hashable) -> None:
        d = self.decision
        if d is None or action not in d.actions:
            raise RuleViolation(f"illegal action {action!r} at {d.kind if d else 'terminal'}")
        self.decision = None
        getattr(self, f"_on_{d.kind}")(d, action)
        self._advance()

    def returns(self) -> list[float]:
        return [float(v) for v in self.vp]

    def scores_from_rules(self) -> list[float]:
        """Round scoring recomputed from the snapshots, plus the VP earned during play."""
        total = [0] * self.n
        for seat, vp, _ in self.ledger:
            total[seat] += vp
        for snap in self.snapshots:
            for seat, (servers, audits) in enumerate(snap["seats"]):
                clean = [not any(dmg) for dmg, _ in servers]
                total[seat] += sum(1 for dmg, _ in servers for d in dmg if d == 0)
                total[seat] += sum(bonus for (_, bonus), ok in zip(servers, clean) if ok)
                total[seat] += audits * sum(clean)
        return [float(v) for v in total]

    def winners(self) -> list[int]:
        best = max(self.vp)
        top = [s for s in range(self.n) if self.vp[s] == best]
        least = min(self.total_damage(s) for s in top)
        return [s for s in top if self.total_damage(s) == least]

    def end_reason(self) -> str:
        return "three rounds played"

    def zones(self) -> dict[str, list[CardInstance]]:
        z = {"deck": list(self.deck), "discard": list(self.discard), "supply": list(self.supply),
             "box": list(self.box)}
        for lvl, cards in self.stock.items():
            z[f"stock:{lvl}"] = list(cards)
        for s in range(self.n):
            z[f"hand:{s}"] = list(self.hands[s])
            z[f"board:{s}"] = list(self.boards[s])
            z[f"tableau:{s}"] = list(self.tableau[s])
        for o in range(self.owners):
            z[f"servers:{self._owner_name(o)}"] = [sv.inst for sv in self.servers[o]]
        return z

    def hidden_view(self, seat: int) -> "HackersView":
        return HackersView(self, seat)

    def cards_played(self) -> list[str]:
        return list(self.played)

    def check_invariants(self) -> None:
        for o in range(self.owners):
            over = 1 if (self.decision and self.decision.kind in ("scrap", "vscrap")) else 0
            if len(self.servers[o]) > self.server_limit + over:
                raise RuleViolation(f"{self._owner_name(o)} owns {len(self.servers[o])} servers")
            for sv in self.servers[o]:
                if any(not 0 <= d <= HOLE_CAPACITY for d in sv.damage):
                    raise RuleViolation(f"{sv.inst}: damage {sv.damage} outside 0..{HOLE_CAPACITY}")
        for s in range(self.n):
            if self.vp[s] < 0:
                raise RuleViolation(f"seat {s} has negative VP")
            if self.choice[s] is None and self.boards[s]:
                raise RuleViolation(f"seat {s} has cards under a board without a choice")
            if any(i.card not in self.rules.defence for i in self.tableau[s]):
                raise RuleViolation(f"seat {s} has a non-defence card in front")
        for inst in self.tapped:
            eff = self.rules.defence[inst.card].effect
            if eff not in ("thin_provision", "incident_response") or not any(
                    inst in t for t in self.tableau):
                raise RuleViolation(f"{inst} is tapped but cannot be")
        if self.action_no > self.action_limit + 1:
            raise RuleViolation(f"action step {self.action_no} beyond {self.action_limit}")
        if self.scores_from_rules() != self.returns():
            raise RuleViolation(f"VP {self.vp} differ from the ledger and round scoring "
                                f"{self.scores_from_rules()}")

    def action_text(self, action: Hashable) -> str:
        kind = action[0] if isinstance(action, tuple) else None
        if isinstance(action, str):
            return f"draw {action}"
        if kind == "board":
            return f"choose the board {BOARD_NAMES[action[1]]} (face down)"
        if kind == "amount":
            return f"declare a payment of {action[1]}"
        if kind == "defence":
            return f"play defence card {action[1]}"
        if kind == "pay":
            return f"pay with {action[1]} (face down)"
        if kind == "attack":
            return f"attack with {action[1]} paying {action[2]}"
        if kind == "server":
            return f"take server {action[1]}"
        if kind == "scrap":
            return f"remove server #{action[1]}"
        if kind == "colour":
            return f"attack in colour {action[1]}"
        if kind == "place":
            return f"put a damage token on hole {action[2]} of server #{action[1]}"
        if kind == "fix":
            return f"remove a damage token from hole {action[2]} of server #{action[1]}"
        return repr(action)

    # -- helpers ---------------------------------------------------------------------------
    def _owner_name(self, o: int) -> str:
        return "virtual" if o == self.V else str(o)

    def _take_stock(self, level: int) -> list[CardInstance]:
        return self.stock.pop(level, [])

    def _count(self, seat: int, effect: str, untapped: bool = False) -> int:
        d = self.rules.defence
        return sum(1 for i in self.tableau[seat] if d[i.card].effect == effect
                   and not (untapped and i in self.tapped))

    def defence_of(self, owner: int, colour: str) -> int:
        """Defence in one colour: the cards in front, or the virtual player's hole count."""
        if owner == self.V:
            return sum(sv.spec.holes.count(colour) for sv in self.servers[owner])
        total = 0
        for inst in self.tableau[owner]:
            spec = self.rules.defence[inst.card]
            if spec.effect == "deep_security" or spec.colour == colour:
                total += spec.defence
        return total

    def total_damage(self, owner: int) -> int:
        return sum(sum(sv.damage) for sv in self.servers[owner])

    def free_slots(self, owner: int, colour: str) -> int:
        return sum(HOLE_CAPACITY - sv.damage[h] for sv in self.servers[owner]
                   for h, c in enumerate(sv.spec.holes) if c == colour)

    def has_colour(self, owner: int, colour: str) -> bool:
        return any(colour in sv.spec.holes for sv in self.servers[owner])

    def gain(self, seat: int, vp: int, reason: str) -> None:
        """Score VP; a moving disc lands on top of the stack at its new space."""
        if vp <= 0:
            return
        self.vp[seat] += vp
        self._stamp += 1
        self.disc[seat] = self._stamp
        self.ledger.append((seat, vp, reason))

    def priority(self, seats) -> list[int]:
        """Lower VP first; on equal VP the disc higher in the stack first."""
        return sorted(seats, key=lambda s: (self.vp[s], -self.disc[s]))

    def _eff_cost(self, seat: int, spec: ServerSpec) -> int:
        return max(1, spec.cost - self._count(seat, "thin_provision", untapped=True))

    def _server_ids(self, cards: list[CardInstance]) -> list[tuple]:
        return [("server", cid) for cid in sorted({i.card for i in cards})]

    @staticmethod
    def _take(cards: list[CardInstance], cid: str) -> CardInstance:
        for k, inst in enumerate(cards):
            if inst.card == cid:
                return cards.pop(k)
        raise RuleViolation(f"{cid} is not where the engine expected it")

    def _decide(self, kind: str, seat: int, actions: list, **data: Any) -> None:
        if not actions:
            raise RuleViolation(f"decision {kind} for seat {seat} has no option")
        self.decision = Decision(kind, seat, actions, data)

    def _advance(self) -> None:
        while self.decision is None:
            if not self.jobs:
                self.terminal = True
                return
            job = self.jobs.popleft()
            getattr(self, f"_job_{job[0]}")(*job[1:])

    def _push(self, *jobs: tuple) -> None:
        """Run these jobs next, in the order given."""
        self.jobs.extendleft(reversed(jobs))

    # -- dealing (chance) ------------------------------------------------------------------
    def _job_deal(self) -> None:
        self.to_draw = deque(s for _ in range(HAND_SIZE) for s in range(self.n))
        self._next_draw()

    def _next_draw(self) -> None:
        if not self.to_draw:
            return
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []     # reshuffled: draws stay random
        if not self.deck:
            self.to_draw.clear()
            return
        self._decide("draw", CHANCE, sorted({i.card for i in self.deck}))

    def _on_draw(self, d: Decision, cid: str) -> None:
        self.hands[self.to_draw.popleft()].append(self._take(self.deck, cid))
        self._next_draw()

    # -- set-up: starting servers ----------------------------------------------------------
    def _job_setup(self) -> None:
        picks = []
        for s in range(self.n):
            picks.append(("setup_pick", s, False))
            if self.virtual:
                picks.append(("setup_pick", s, True))
        self._push(*picks)

    def _job_setup_pick(self, seat: int, for_virtual: bool) -> None:
        if self.supply:
            self._decide("setup", seat, self._server_ids(self.supply), virtual=for_virtual)

    def _on_setup(self, d: Decision, action: tuple) -> None:
        owner = self.V if d.data["virtual"] else d.seat
        inst = self._take(self.supply, action[1])
        self.servers[owner].append(Server(inst, self.rules.server[inst.card]))

    # -- choosing actions (serialised secret choice) ---------------------------------------
    def _job_select(self) -> None:
        seats = [s for s in range(self.n) if self.hands[s]]
        if self.action_no > self.action_limit or not seats:
            self._push(("round_end",))
            return
        self._push(*[("choose", s) for s in seats], ("reveal",))

    def _boards_open(self, seat: int) -> list[tuple]:
        hand = self.hands[seat]
        out = []
        if self.supply and len(hand) >= min(self._eff_cost(seat, self.rules.server[i.card])
                                             for i in self.supply):
            out.append(("board", INSTALL))
        if any(i.card in self.rules.defence and self.rules.defence[i.card].cost <= len(hand) - 1
               for i in hand):
            out.append(("board", DEFEND))
        if len(hand) >= 2 and any(i.card in self.rules.attack for i in hand):
            out.append(("board", ATTACK))
        out.append(("board", REPAIR))
        return out

    def _job_choose(self, seat: int) -> None:
        self._decide("board", seat, self._boards_open(seat))

    def _on_board(self, d: Decision, action: tuple) -> None:
        seat, board = d.seat, action[1]
        hand = self.hands[seat]
        self.choice[seat] = {"board": board, "key": None, "pay": 0, "pay_option": 0}
        if board == INSTALL:
            costs = [self._eff_cost(seat, self.rules.server[i.card]) for i in self.supply]
            acts = [("amount", n) for n in range(min(costs), min(len(hand), max(costs)) + 1)]
        elif board == DEFEND:
            acts = [("defence", cid) for cid in sorted({i.card for i in hand
                    if i.card in self.rules.defence
                    and self.rules.defence[i.card].cost <= len(hand) - 1})]
        elif board == ATTACK:
            ids = sorted({i.card for i in hand if i.card in self.rules.attack})
            acts = [("attack", cid, p) for cid in ids
                    for p in range(1, min(MAX_PAYMENT, len(hand) - 1) + 1)]
        else:
            acts = [("amount", n) for n in range(1, len(hand) + 1)]
        self._decide("key", seat, acts)

    def _on_key(self, d: Decision, action: tuple) -> None:
        seat = d.seat
        ch = self.choice[seat]
        if action[0] == "amount":
            ch["pay"] = action[1]
        else:
            key = self._take(self.hands[seat], action[1])
            self.boards[seat].append(key)
            ch["key"] = key
            if action[0] == "defence":
                ch["pay"] = self.rules.defence[key.card].cost
            else:
                ch["pay"] = ch["pay_option"] = action[2]
        self._ask_payment(seat)

    def _ask_payment(self, seat: int) -> None:
        ch = self.choice[seat]
        paid = len(self.boards[seat]) - (1 if ch["key"] is not None else 0)
        left = ch["pay"] - paid
        hand = self.hands[seat]
        if left <= 0:
            return
        if left >= len(hand):       # no choice: every card goes
            self.boards[seat].extend(hand)
            hand.clear()
            return
        self._decide("pay", seat, [("pay", cid) for cid in sorted({i.card for i in hand})])

    def _on_pay(self, d: Decision, action: tuple) -> None:
        self.boards[d.seat].append(self._take(self.hands[d.seat], action[1]))
        self._ask_payment(d.seat)

    def _job_reveal(self) -> None:
        chosen = [s for s in range(self.n) if self.choice[s] is not None]
        by_board = {b: [s for s in chosen if self.choice[s]["board"] == b] for b in range(4)}
        jobs = [("install", s) for s in self.priority(by_board[INSTALL])]
        jobs += [("defend", s) for s in by_board[DEFEND]]
        if by_board[ATTACK]:
            jobs.append(("attack_phase", tuple(by_board[ATTACK])))
        jobs += [("repair", s) for s in by_board[REPAIR]]
        jobs.append(("step_end",))
        self._push(*jobs)

    def _finish(self, seat: int, to_discard: list[CardInstance]) -> None:
        self.discard.extend(to_discard)
        self.boards[seat] = [i for i in self.boards[seat] if i not in to_discard]

    # -- I install ---------------------------------------------------------------------------
    def _job_install(self, seat: int) -> None:
        self.revealed[seat] = True
        paid = len(self.boards[seat])
        options = [i for i in self.supply
                   if self._eff_cost(seat, self.rules.server[i.card]) <= paid]
        if not options:             # supply bought out (or priced out): cards back to hand
            self.hands[seat].extend(self.boards[seat])
            self.boards[seat] = []
            return
        self._decide("buy", seat, self._server_ids(options))

    def _on_buy(self, d: Decision, action: tuple) -> None:
        seat = d.seat
        inst = self._take(self.supply, action[1])
        spec = self.rules.server[inst.card]
        need = max(0, spec.cost - len(self.boards[seat]))
        for card in sorted(self.tableau[seat], key=str):
            if need and self.rules.defence[card.card].effect == "thin_provision" \
                    and card not in self.tapped:
                self.tapped.add(card)
                need -= 1
        self._finish(seat, list(self.boards[seat]))
        self.gain(seat, self._count(seat, "solid_state_cache"), "D-03 Solid State Cache")
        self._add_server(seat, inst, chooser=seat)
        self._push(("virtual_check", seat))

    def _add_server(self, owner: int, inst: CardInstance, chooser: int) -> None:
        self.servers[owner].append(Server(inst, self.rules.server[inst.card]))
        if len(self.servers[owner]) > self.server_limit:
            kind = "vscrap" if owner == self.V else "scrap"
            self._decide(kind, chooser,
                         [("scrap", k) for k in range(len(self.servers[owner]) - 1)], owner=owner)

    def _on_scrap(self, d: Decision, action: tuple) -> None:
        owner = d.data["owner"]
        old = self.servers[owner].pop(action[1])
        self.box.append(old.inst)
        new = self.servers[owner][-1]
        moved = sum(old.damage)
        if moved:
            refs = [(len(self.servers[owner]) - 1, h) for h in range(len(new.damage))]
            self._push(("place", owner, tuple(refs), moved))

    _on_vscrap = _on_scrap

    def _job_virtual_check(self, seat: int) -> None:
        """Two players: the virtual player keeps up with the current level's servers."""
        if not self.virtual or not self.supply:
            return
        lvl = self.round_no
        mine = sum(1 for sv in self.servers[seat] if sv.spec.level == lvl)
        theirs = sum(1 for sv in self.servers[self.V] if sv.spec.level == lvl)
        if mine > theirs:
            self._decide("vpick", 1 - seat, self._server_ids(self.supply))

    def _on_vpick(self, d: Decision, action: tuple) -> None:
        self._add_server(self.V, self._take(self.supply, action[1]), chooser=d.seat)

    # -- II defend ---------------------------------------------------------------------------
    def _job_defend(self, seat: int) -> None:
        self.revealed[seat] = True
        key = self.choice[seat]["key"]
        self.boards[seat].remove(key)
        self.tableau[seat].append(key)
        self.played.append(key.card)
        self._finish(seat, list(self.boards[seat]))

    # -- III attack --------------------------------------------------------------------------
    def _job_attack_phase(self, seats: tuple[int, ...]) -> None:
        self._push(*[("attack", s) for s in self.priority(seats)])

    def _job_attack(self, seat: int) -> None:
        self.revealed[seat] = True
        key = self.choice[seat]["key"]
        spec = self.rules.attack[key.card]
        self.played.append(key.card)
        if len(spec.colours) > 1:
            self._decide("colour", seat, [("colour", c) for c in sorted(spec.colours)])
        else:
            self._push(("hit", seat, spec.colours[0]))

    def _on_colour(self, d: Decision, action: tuple) -> None:
        self._push(("hit", d.seat, action[1]))

    def attack_strength(self, seat: int, card_id: str, pay: int, colour: str) -> tuple[int, int]:
        """(attack, direct) after Trojan Horse and Zero-Day Attack; effects stack."""
        atk, direct = self.rules.attack[card_id].option(pay)
        for inst in self.tableau[seat]:
            spec = self.rules.defence[inst.card]
            if colour in spec.effect_colours:
                if spec.effect == "trojan_horse":
                    atk += TROJAN_ATTACK
                elif spec.effect == "zero_day_attack":
                    direct += ZERO_DAY_DIRECT
        return atk, direct

    def damage_against(self, owner: int, colour: str, atk: int, direct: int) -> int:
        """Tokens that land: attack less defence, plus direct, up to the free slots."""
        dealt = max(0, atk - self.defence_of(owner, colour)) + direct
        return min(dealt, self.free_slots(owner, colour))

    def _job_hit(self, seat: int, colour: str) -> None:
        ch = self.choice[seat]
        atk, direct = self.attack_strength(seat, ch["key"].card, ch["pay_option"], colour)
        self._finish(seat, list(self.boards[seat]))
        targets = [o for o in range(self.owners) if o != seat and self.has_colour(o, colour)]
        placements, hit = [], 0
        best = 0
        for o in targets:
            placed = self.damage_against(o, colour, atk, direct)
            if placed <= 0:
                continue
            hit += 1
            best = max(best, placed)
            refs = tuple((k, h) for k, sv in enumerate(self.servers[o])
                         for h, c in enumerate(sv.spec.holes) if c == colour)
            placements.append(("place", o, refs, placed))
        self.gain(seat, best, "damage placed")
        if hit >= 1:
            self.gain(seat, self._count(seat, "proof_of_concept"), "D-06 Proof of Concept")
        if hit >= 2:
            self.gain(seat, UNDERGROUND_VP * self._count(seat, "underground_market"),
                      "D-08 Underground Market")
        self._push(*placements)

    def _job_place(self, owner: int, refs: tuple, amount: int) -> None:
        """Spread `amount` evenly (water-filling, 4 per hole); the owner places the remainder."""
        servers = self.servers[owner]
        dmg = [servers[k].damage[h] for k, h in refs]
        amount = min(amount, sum(HOLE_CAPACITY - x for x in dmg))
        level = min(dmg)
        while level < HOLE_CAPACITY:
            step = sum(1 for x in dmg if x <= level)
            if step > amount:
                break
            amount -= step
            level += 1
        for (k, h), x in zip(refs, dmg):
            servers[k].damage[h] = max(x, level)
        if amount <= 0:
            return
        at_level = [ref for ref in refs if servers[ref[0]].damage[ref[1]] == level]
        if owner == self.V or len(at_level) == amount:
            for k, h in at_level[:amount]:
                servers[k].damage[h] += 1
            return
        self._decide("place", owner, [("place", k, h) for k, h in sorted(at_level)],
                     owner=owner, left=amount)

    def _on_place(self, d: Decision, action: tuple) -> None:
        _, k, h = action
        self.servers[d.data["owner"]][k].damage[h] += 1
        left = d.data["left"] - 1
        rest = [a for a in d.actions if a != action]
        if left > 0:
            self._decide("place", d.seat, rest, owner=d.data["owner"], left=left)

    # -- IV repair ---------------------------------------------------------------------------
    def _job_repair(self, seat: int) -> None:
        self.revealed[seat] = True
        paid = len(self.boards[seat])
        self._finish(seat, list(self.boards[seat]))
        budget = REPAIR_PER_CARD * paid
        damage = self.total_damage(seat)
        for card in sorted(self.tableau[seat], key=str):    # Incident Response, as needed
            if budget >= damage:
                break
            if self.rules.defence[card.card].effect == "incident_response" \
                    and card not in self.tapped:
                self.tapped.add(card)
                budget += INCIDENT_REPAIR
        self._push(("fix", seat, budget))

    def _job_fix(self, seat: int, budget: int) -> None:
        """Remove `budget` damage from the seat's holes; the seat picks when it matters."""
        if budget <= 0:
            return
        if self.total_damage(seat) <= budget:
            for sv in self.servers[seat]:
                sv.damage = [0] * len(sv.damage)
            return
        acts = [("fix", k, h) for k, sv in enumerate(self.servers[seat])
                for h, x in enumerate(sv.damage) if x > 0]
        self._decide("fix", seat, acts, budget=budget)

    def _on_fix(self, d: Decision, action: tuple) -> None:
        _, k, h = action
        self.servers[d.seat][k].damage[h] -= 1
        self._push(("fix", d.seat, d.data["budget"] - 1))

    # -- end of a step, of a round, of the game ----------------------------------------------
    def _job_step_end(self) -> None:
        for s in range(self.n):
            if self.boards[s]:
                raise RuleViolation(f"seat {s} still has cards under its board after resolution")
            self.choice[s] = None
            self.revealed[s] = False
        self.action_no += 1
        self._push(("select",))

    def _job_round_end(self) -> None:
        jobs = [("fix", s, AUTO_RECOVERY * self._count(s, "auto_recovery")) for s in range(self.n)]
        jobs.append(("round_score",))
        if self.round_no < ROUNDS:
            jobs += [("cleanup",), ("deal",), ("select",)]
        self._push(*jobs)

    def _job_round_score(self) -> None:
        """Round-end effects (D-05), clean holes and clean-server bonuses."""
        snap = {"round": self.round_no, "seats": []}
        for s in range(self.n):
            servers = self.servers[s]
            clean = sum(1 for sv in servers if sv.clean)
            audits = self._count(s, "certification_audit")
            snap["seats"].append(([(tuple(sv.damage), sv.spec.bonus) for sv in servers], audits))
            holes = sum(1 for sv in servers for x in sv.damage if x == 0)
            bonus = sum(sv.spec.bonus for sv in servers if sv.clean)
            self._score(s, audits * clean + holes + bonus)
        self.snapshots.append(snap)

    def _score(self, seat: int, vp: int) -> None:
        """Round scoring moves the disc like any gain but is recomputed from snapshots."""
        if vp > 0:
            self.vp[seat] += vp
            self._stamp += 1
            self.disc[seat] = self._stamp

    def _job_cleanup(self) -> None:
        for owner in self.servers:
            for sv in owner:
                sv.damage = [0] * len(sv.damage)
        self.tapped.clear()
        for s in range(self.n):
            self.discard.extend(self.hands[s])
            self.hands[s] = []
        self.box.extend(self.supply)
        self.round_no += 1
        self.action_no = 1
        self.supply = self._take_stock(self.round_no)

    # -- greedy heuristic (uses only what `seat` may see) -----------------------------------
    def _server_value(self, spec: ServerSpec) -> float:
        return spec.bonus + len(spec.holes)

    def _best_attack(self, seat: int, card_id: str, pay: int) -> float:
        spec = self.rules.attack[card_id]
        best = 0.0
        for colour in spec.colours:
            atk, direct = self.attack_strength(seat, card_id, pay, colour)
            hits = [self.damage_against(o, colour, atk, direct) for o in range(self.owners)
                    if o != seat and self.has_colour(o, colour)]
            hits = [h for h in hits if h > 0]
            value = (max(hits, default=0) + (self._count(seat, "proof_of_concept") if hits else 0)
                     + (UNDERGROUND_VP * self._count(seat, "underground_market")
                        if len(hits) >= 2 else 0))
            best = max(best, value)
        return best

    def _defence_value(self, seat: int, card_id: str) -> float:
        spec = self.rules.defence[card_id]
        mine = [c for sv in self.servers[seat] for c in sv.spec.holes]
        cover = len(mine) if spec.effect == "deep_security" else mine.count(spec.colour)
        bonus = {"certification_audit": 1.5, "underground_market": 1.0, "proof_of_concept": 1.5,
                 "solid_state_cache": 1.0, "auto_recovery": 1.0}.get(spec.effect, 0.5)
        return spec.defence * min(cover, 3) * 0.6 + bonus - spec.cost * 0.5

    def _keep_value(self, seat: int, cid: str) -> float:
        if cid in self.rules.attack:
            return self._best_attack(seat, cid, 2) / 2 + 0.5
        return self._defence_value(seat, cid)

    def greedy_value(self, seat: int, action: Hashable) -> float:
        d = self.decision
        kind = d.kind
        hand = self.hands[seat]
        if kind == "board":
            b = action[1]
            if b == ATTACK:
                return max((self._best_attack(seat, i.card, p) - 0.8 * p for i in hand
                            if i.card in self.rules.attack
                            for p in range(1, min(MAX_PAYMENT, len(hand) - 1) + 1)), default=0)
            if b == INSTALL:
                if len(self.servers[seat]) >= self.server_limit:
                    return 0.5
                return max(self._server_value(self.rules.server[i.card]) - 0.6 *
                           self._eff_cost(seat, self.rules.server[i.card]) for i in self.supply
                           if self._eff_cost(seat, self.rules.server[i.card]) <= len(hand))
            if b == DEFEND:
                return max(self._defence_value(seat, i.card) for i in hand
                           if i.card in self.rules.defence)
            return min(self.total_damage(seat), REPAIR_PER_CARD) * 0.5 - 0.4
        if kind == "key":
            if action[0] == "attack":
                return self._best_attack(seat, action[1], action[2]) - 0.8 * action[2]
            if action[0] == "defence":
                return self._defence_value(seat, action[1])
            n = action[1]
            if self.choice[seat]["board"] == REPAIR:
                return min(self.total_damage(seat), REPAIR_PER_CARD * n) - 1.2 * n
            return max((self._server_value(self.rules.server[i.card]) for i in self.supply
                        if self._eff_cost(seat, self.rules.server[i.card]) <= n), default=0) - n
        if kind == "pay":
            return -self._keep_value(seat, action[1])
        if kind in ("buy", "setup"):
            return self._server_value(self.rules.server[action[1]])
        if kind == "vpick":
            return len(self.rules.server[action[1]].holes)
        if kind in ("scrap", "vscrap"):
            sv = self.servers[d.data["owner"]][action[1]]
            return -self._server_value(sv.spec) + 0.5 * sum(sv.damage)
        if kind == "colour":
            ch = self.choice[seat]
            atk, direct = self.attack_strength(seat, ch["key"].card, ch["pay_option"], action[1])
            return max((self.damage_against(o, action[1], atk, direct)
                        for o in range(self.owners) if o != seat), default=0)
        if kind == "place":
            sv = self.servers[d.data["owner"]][action[1]]
            return sum(sv.damage)                       # keep the other servers clean
        if kind == "fix":
            return -sum(self.servers[seat][action[1]].damage)  # finish the nearly clean ones
        return 0.0


class HackersView:
    """What one seat may see: the public table, its own hand and its own face-down choice.

    Other seats' hands, the deck order and other seats' face-down boards are not in it;
    the greedy heuristic runs on `_table`, a copy of the state with those parts removed.
    """

    def __init__(self, state: HackersState, seat: int) -> None:
        self.seat = seat
        self.round = state.round_no
        self.action_step = state.action_no
        self.hand = sorted(i.card for i in state.hands[seat])
        self.hand_sizes = [len(h) for h in state.hands]
        self.vp = list(state.vp)
        self.deck_size = len(state.deck)
        self.discard = sorted(i.card for i in state.discard)
        self.supply = sorted(i.card for i in state.supply)
        self.tableau = [sorted(i.card for i in t) for t in state.tableau]
        self.tapped = sorted(str(i) for i in state.tapped)
        self.servers = [[(sv.inst.card, tuple(sv.damage)) for sv in o] for o in state.servers]
        d = state.decision
        self.decision = None if d is None else (d.kind, d.seat, list(d.actions))
        choosing = d is not None and d.kind in ("board", "key", "pay")
        self.boards = [self._board(state, s, choosing) for s in range(state.n)]
        self._table = self._redacted(state, seat)

    def _board(self, st: HackersState, s: int, choosing: bool) -> dict | None:
        ch = st.choice[s]
        if ch is None:
            return None
        if s == self.seat:
            return {"board": ch["board"], "cards": sorted(i.card for i in st.boards[s])}
        # Chosen face down: only the size of the pile shows until the boards are turned over,
        # and the cards themselves only when that seat resolves.
        if choosing:
            return {"cards_face_down": len(st.boards[s])}
        shown: dict = {"board": ch["board"], "cards_face_down": len(st.boards[s])}
        if st.revealed[s]:
            shown["cards"] = sorted(i.card for i in st.boards[s])
        return shown

    @staticmethod
    def _redacted(state: HackersState, seat: int) -> HackersState:
        table = copy.copy(state)
        table.hands = [list(h) if s == seat else [] for s, h in enumerate(state.hands)]
        table.boards = [list(b) if s == seat else [] for s, b in enumerate(state.boards)]
        table.choice = [c if s == seat else None for s, c in enumerate(state.choice)]
        table.deck = []
        table.jobs = deque()
        table.to_draw = deque()
        return table

    def greedy_value(self, action: Hashable) -> float:
        return self._table.greedy_value(self.seat, action)

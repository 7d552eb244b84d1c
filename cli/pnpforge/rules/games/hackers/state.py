"""One position of League of Hackers behind the engine interface.

`HackersState` holds the table's data and answers what the runner asks of every
state: legality, observations, piles, invariants and the scoring check.  The
rules are functions over it: `board` (piles, servers, the work queue), `actions`
(choosing and installing) and `effects` (attack, repair, round end); `JOBS` and
`DECISIONS` name the function each queued job and each kind of decision runs.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any

from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, RuleViolation, State
from pnpforge.rules.kit import Zones

from . import actions, board, effects, worlds
from .agents import HackersObservation
from .board import AttackRecord, BoardChoice, Decision, Server
from .data import BOARD_NAMES, TAPPABLE, UNDERGROUND_VP, Catalogue

CHOOSING = ("board", "key", "pay")  # decisions taken while the boards are still face down


class HackersState(State):
    """A game from the deal to the third round's scoring."""

    # Every attribute of a position as a slot: read through the class (a position has more
    # attributes than CPython keeps in a shared-key instance dict, whose reads are slower).
    __slots__ = (
        "_events", "_top_height", "action_limit", "action_no", "attacks",
        "board_pile", "catalogue", "choice", "decision", "deck_ids", "disc_height",
        "hand_pile", "handicap", "has_virtual", "installs", "jobs", "owner_count", "piles", "players",
        "revealed", "round_no", "server_limit", "servers", "snapshots", "tableau_pile", "tapped",
        "terminal", "to_draw", "virtual_owner", "vp"
    )  # fmt: skip

    def __init__(self, catalogue: Catalogue, players: int, handicap: tuple[int, ...]) -> None:
        self.catalogue = catalogue
        self.players = players
        self.has_virtual = players == 2
        self.virtual_owner = players if self.has_virtual else -1
        self.owner_count = players + (1 if self.has_virtual else 0)
        self.action_limit = 4 if players == 2 else 5
        self.server_limit = 4 if players == 2 else 5
        self.handicap = handicap
        levels = sorted({spec.level for spec in catalogue.server.values()})
        # the deck is counted: the kit keeps its copies per card id (the chance outcomes' weights)
        # in step with every move
        self.piles = Zones(
            ["deck", "discard", "supply", "box", *[f"stock:{lvl}" for lvl in levels]], counted=["deck"]
        )
        self.hand_pile = [f"hand:{seat}" for seat in range(players)]
        self.board_pile = [f"board:{seat}" for seat in range(players)]
        self.tableau_pile = [f"tableau:{seat}" for seat in range(players)]
        for names in (self.hand_pile, self.board_pile, self.tableau_pile):
            for name in names:
                self.piles.add_pile(name)
        for owner in range(self.owner_count):
            self.piles.add_pile(board.server_pile(self, owner))
        self.piles.deal(catalogue.instances([*catalogue.defence, *catalogue.attack]), "deck")
        self.deck_ids = sorted(self.piles.id_counts("deck"))  # every id the deck can hold, in action order
        for sid, spec in catalogue.server.items():
            self.piles.deal(catalogue.instances([sid]), f"stock:{spec.level}")
        self.choice: list[BoardChoice | None] = [None] * players
        self.tapped: set[CardInstance] = set()
        self.servers: list[list[Server]] = [[] for _ in range(self.owner_count)]
        self.vp = [0] * players
        self.disc_height = list(range(players))  # the later arrival on a space sits higher
        self._top_height = players - 1
        self.round_no = 1
        self.action_no = 1
        self.to_draw: deque[int] = deque()
        self.jobs: deque[tuple[Any, ...]] = deque()
        self.decision: Decision | None = None
        self.attacks: list[AttackRecord] = []
        self.installs: list[tuple[int, int]] = []  # (seat, Solid State Caches in play)
        self.snapshots: list[list[tuple[tuple[tuple[tuple[int, ...], int], ...], int]]] = []
        self.revealed = [False] * players
        self.terminal = False
        self.piles.move_all("stock:1", "supply")
        self.jobs.extend([("deal",), ("handicap",), ("setup",), ("select",)])
        self.round("round 1 begins: level 1 servers in the supply")
        self.advance()

    # -- engine interface ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.terminal or self.decision is None:
            return TERMINAL
        return self.decision.seat

    def legal_actions(self) -> list[Any]:
        return [] if self.terminal or self.decision is None else self.decision.actions

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.decision is None or self.decision.seat != CHANCE:
            raise RuleViolation("chance_outcomes() asked at a player decision")
        total = self.piles.count("deck")
        counts = self.piles.id_counts("deck")
        return [(action, counts[action[1]] / total) for action in self.decision.actions]

    def advance(self) -> None:
        """Run queued jobs until one needs a decision or none is left (the game is over)."""
        while self.decision is None:
            if not self.jobs:
                self.terminal = True
                self.end("three rounds played")
                return
            job = self.jobs.popleft()
            JOBS[job[0]](self, *job[1:])

    def is_terminal(self) -> bool:
        return self.terminal

    def apply(self, action: Any) -> None:
        decision = self.decision
        if decision is None or action not in decision.actions:
            raise RuleViolation(f"illegal action {action!r} at {decision.kind if decision else 'terminal'}")
        self.decision = None
        DECISIONS[decision.kind](self, decision, action)
        self.advance()

    def returns(self) -> list[float]:
        return [float(v) for v in self.vp]

    def scores_from_rules(self) -> list[float]:
        """VP recomputed by the scoring rules from the recorded facts: each round's servers
        (damage per hole, bonuses, Certification Audits), each attack's landed damage and
        each install, independently of the running tally in `vp`."""
        total = [0] * self.players
        for record in self.attacks:
            if record.placed:
                total[record.seat] += max(record.placed) + record.proofs_of_concept
            if len(record.placed) >= 2:
                total[record.seat] += UNDERGROUND_VP * record.underground_markets
        for seat, caches in self.installs:
            total[seat] += caches
        for snapshot in self.snapshots:
            for seat, (servers, audits) in enumerate(snapshot):
                clean = [not any(damage) for damage, _ in servers]
                total[seat] += sum(1 for damage, _ in servers for d in damage if d == 0)
                total[seat] += sum(bonus for (_, bonus), ok in zip(servers, clean, strict=True) if ok)
                total[seat] += audits * sum(clean)
        return [float(v) for v in total]

    # rulebook 002:261 「若有平手的狀況發生，則由伺服器卡片上傷害較少之玩家獲勝。」
    # rulebook 002:263 「若仍然平手則共同勝利。」
    def winners(self) -> list[int]:
        """Most VP; a tie goes to the least damage on the servers; still tied, all win."""
        best = max(self.vp)
        top = [s for s in range(self.players) if self.vp[s] == best]
        least = min(board.total_damage(self, s) for s in top)
        return [s for s in top if board.total_damage(self, s) == least]

    def end_reason(self) -> str:
        return "three rounds played"

    def zones(self) -> dict[str, list[CardInstance]]:
        return self.piles.as_dict()

    # -- sampled worlds (the search agent: see `worlds`) -----------------------------------------
    SHARED = ("catalogue",)

    def card_zones(self) -> Zones:
        return self.piles

    def hidden_groups(self, seat: int) -> list[list[str]]:
        return worlds.hidden_groups(self, seat)

    def fixed_cards(self, seat: int) -> frozenset[CardInstance]:
        return worlds.fixed_cards(self, seat)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> HackersState:
        world = super().resample_from_infostate(seat, rng)
        assert isinstance(world, HackersState)
        worlds.rechoose(world, seat, rng)
        return world

    def observation(self, seat: int) -> HackersObservation:
        decision = self.decision
        kind = decision.kind if decision else "none"
        choosing = kind in CHOOSING
        choice = self.choice[seat]
        return HackersObservation.of(
            seat=seat,
            players=self.players,
            virtual_owner=self.virtual_owner,
            server_limit=self.server_limit,
            round_no=self.round_no,
            action_no=self.action_no,
            decision=kind,
            decision_owner=decision.data.get("owner", -1) if decision else -1,
            hand=tuple(sorted(self.piles.ids(self.hand_pile[seat]))),
            my_board=choice.board if choice else -1,
            my_key=choice.key.card if choice and choice.key else "",
            my_pay_option=choice.pay_option if choice else 0,
            boards=tuple([self._board_seen(seat, other, choosing) for other in range(self.players)]),
            hand_sizes=tuple([len(self.piles.view(name)) for name in self.hand_pile]),
            vp=tuple(self.vp),
            disc_heights=tuple(self.disc_height),
            deck_size=self.piles.count("deck"),
            discard_size=self.piles.count("discard"),
            supply=tuple(sorted(self.piles.ids("supply"))),
            servers=board.servers_seen(self),
            tableaux=board.tableaux_seen(self),
        )

    def _board_seen(self, seat: int, other: int, choosing: bool) -> tuple[int, int, tuple[str, ...]]:
        """(board, cards under it, cards shown) of `other` as `seat` sees it; -1 hides the board.

        Chosen face down: only the size of the pile shows until the boards are turned over,
        and the cards themselves only when that seat resolves (or to their owner)."""
        choice = self.choice[other]
        if choice is None:
            return (-1, 0, ())
        cards = self.piles.ids(self.board_pile[other])
        shown = tuple(sorted(cards))
        if other == seat:
            return (choice.board, len(cards), shown)
        if choosing:
            return (-1, len(cards), ())
        return (choice.board, len(cards), shown if self.revealed[other] else ())

    def check_invariants(self) -> None:
        scrapping = 1 if self.decision and self.decision.kind in ("scrap", "vscrap") else 0
        for owner, servers in enumerate(self.servers):
            if len(servers) > self.server_limit + scrapping:
                raise RuleViolation(f"{board.owner_name(self, owner)} owns {len(servers)} servers")
        board.servers_seen(self)  # checks the damage of every hole whenever it changed
        for seat in range(self.players):
            if self.vp[seat] < 0:
                raise RuleViolation(f"seat {seat} has negative VP")
            if self.choice[seat] is None and self.piles.count(self.board_pile[seat]):
                raise RuleViolation(f"seat {seat} has cards under a board without a choice")
        for card in self.tapped:
            if self.catalogue.defence[card.card].effect not in TAPPABLE or not self.piles.where(
                card
            ).startswith("tableau:"):
                raise RuleViolation(f"{card} is tapped but cannot be")
        if self.action_no > self.action_limit + 1:
            raise RuleViolation(f"action step {self.action_no} beyond {self.action_limit}")

    def action_text(self, action: Any) -> str:
        kind = action[0]
        texts = {
            "draw": lambda: f"draw {action[1]}",
            "board": lambda: f"choose the board {BOARD_NAMES[action[1]]} (face down)",
            "amount": lambda: f"declare a payment of {action[1]}",
            "defence": lambda: f"play defence card {action[1]}",
            "pay": lambda: f"pay with {action[1]} (face down)",
            "discard": lambda: f"discard {action[1]} back into the deck (handicap set-up)",
            "attack": lambda: f"attack with {action[1]} paying {action[2]}",
            "server": lambda: f"take server {action[1]}",
            "scrap": lambda: f"remove server #{action[1]}",
            "colour": lambda: f"attack in colour {action[1]}",
            "place": lambda: f"put a damage token on hole {action[2]} of server #{action[1]}",
            "fix": lambda: f"remove a damage token from hole {action[2]} of server #{action[1]}",
        }
        return texts[kind]() if kind in texts else repr(action)


# The automatic steps queued in `jobs`, by the name a job starts with.
JOBS: dict[str, Callable[..., None]] = {
    "attack": effects._job_attack,
    "attack_phase": effects._job_attack_phase,
    "choose": actions._job_choose,
    "cleanup": effects._job_cleanup,
    "deal": actions._job_deal,
    "defend": actions._job_defend,
    "fix": effects._job_fix,
    "handicap": actions._job_handicap,
    "hit": effects._job_hit,
    "install": actions._job_install,
    "place": effects._job_place,
    "repair": effects._job_repair,
    "reveal": actions._job_reveal,
    "round_end": effects._job_round_end,
    "round_score": effects._job_round_score,
    "select": actions._job_select,
    "setup": actions._job_setup,
    "setup_pick": actions._job_setup_pick,
    "step_end": effects._job_step_end,
    "trim": actions._job_trim,
    "virtual_check": actions._job_virtual_check,
}

# What a decision's chosen action does, by the decision's kind.
DECISIONS: dict[str, Callable[[HackersState, Decision, Any], None]] = {
    "board": actions._on_board,
    "buy": actions._on_buy,
    "colour": effects._on_colour,
    "discard": actions._on_discard,
    "draw": actions._on_draw,
    "fix": effects._on_fix,
    "key": actions._on_key,
    "pay": actions._on_pay,
    "place": effects._on_place,
    "scrap": actions._on_scrap,
    "setup": actions._on_setup,
    "vpick": actions._on_vpick,
    "vscrap": actions._on_scrap,  # the virtual player scraps as a player does
}

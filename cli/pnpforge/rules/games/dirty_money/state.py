"""One position of a Dirty Money game: the engine interface over the rule steps."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, RuleViolation, State
from pnpforge.rules.games.dirty_money.actions import ActionCardSteps
from pnpforge.rules.games.dirty_money.agents import DirtyMoneyObservation, PublicTable, Purchase
from pnpforge.rules.games.dirty_money.base import AUTO, Action, Step
from pnpforge.rules.games.dirty_money.buying import BuyingSteps
from pnpforge.rules.games.dirty_money.data import (
    HAND_LIMIT,
    REGION_CURRENCY,
    REGIONS,
    SELECTION_DISPLAY,
    SLUG,
    SPOT_CAP,
    TUCK_EFFECTS,
)
from pnpforge.rules.games.dirty_money.flow import FlowSteps
from pnpforge.rules.games.dirty_money.piles import TablePiles
from pnpforge.rules.games.dirty_money.scoring import Scoring
from pnpforge.rules.games.dirty_money.text import describe_action

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.rules import DirtyMoneyRules

TABLE_PILES = (
    "box",
    "villain_pool",
    "money_deck",
    "action_setup",
    "discard",
    "auction",
    "bear",
    "resolving",
    "payment",
)
SEAT_PILES = ("villain", "hand", "blacklist", "tableau", "overpay", "pending")
# Piles whose cards are markers counted in the ledger as they arrive.
MARKER_PILES = ("blacklist:", "under:", "overpay:")
# Steps that bring a hand back under its limit before the turn goes on.
HAND_FIXERS = ("hand_limit", "resolve_card", "launder")


@dataclass(frozen=True)
class PileNames:
    """The names of the piles read at every step, spelled out once per game."""

    hands: tuple[str, ...]
    blacklists: tuple[str, ...]
    overpay: tuple[str, ...]
    tableaux: tuple[str, ...]
    locations: tuple[str, ...]
    spots: tuple[str, ...]
    displays: tuple[str, ...]
    on_sale: tuple[str, ...]

    @classmethod
    def for_table(cls, players: int, locations: list[str]) -> PileNames:
        seats = range(players)
        displays = tuple(f"display:{region}" for region in REGIONS)
        return cls(
            hands=tuple(f"hand:{q}" for q in seats),
            blacklists=tuple(f"blacklist:{q}" for q in seats),
            overpay=tuple(f"overpay:{q}" for q in seats),
            tableaux=tuple(f"tableau:{q}" for q in seats),
            locations=tuple(locations),
            spots=tuple(f"spot:{loc}" for loc in locations),
            displays=displays,
            on_sale=(*displays, "auction", "bear"),
        )


class DirtyMoneyState(FlowSteps, ActionCardSteps, BuyingSteps, Scoring, State):
    """One position of a Dirty Money game."""

    # Step kind -> its actor, legal-action and apply functions, looked up once per class.
    _handlers: ClassVar[dict[str, tuple[Callable[..., Any], ...]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = {}

    @classmethod
    def _step_handlers(cls) -> dict[str, tuple[Callable[..., Any], ...]]:
        """Every step kind's (actor, legal, apply) functions, found by their `_actor_<kind>` names."""
        if not cls._handlers:
            for name in dir(cls):
                if name.startswith("_actor_"):
                    kind = name.removeprefix("_actor_")
                    legal = getattr(cls, f"_legal_{kind}", None)
                    cls._handlers[kind] = (
                        getattr(cls, name),
                        legal or cls._no_decision,
                        getattr(cls, f"_apply_{kind}"),
                    )
        return cls._handlers

    def _no_decision(self, step: Step) -> list[Action]:
        raise RuleViolation(f"step {step.kind} never waits for a decision")

    def __init__(self, rules: DirtyMoneyRules, players: int) -> None:
        self._step_handlers()
        self.rules = rules
        self.players = players
        self.ledger = Counter()
        self.villain_of = [None] * players
        self.in_play = rules.locations_for(players)
        self.marker = 0
        self.round_number = 0
        self.round_order = []
        self.shark_used = False
        self.terminal = False
        self.reason = ""
        self.version = 0  # bumped by every change, so per-position caches know when to recompute
        self._legal: list[Action] = []
        self._legal_version = -1
        self._current_actor = AUTO
        self._checked_changes = -1
        self._actor_version = -1
        self._table: PublicTable | None = None
        self._table_version = -1
        self.names = PileNames.for_table(players, [loc.id for loc in self.in_play])
        self.piles = self._lay_out()
        self.stack = [Step("after_villains")] + [
            Step("deal_villain", seat=q) for q in reversed(range(players))
        ]
        self._advance()

    def _lay_out(self) -> TablePiles:
        """Every card of the deck in its starting pile; dealing happens in chance steps."""
        rules = self.rules
        names = list(TABLE_PILES) + ["locations"]
        names += [f"{kind}:{region}" for region in REGIONS for kind in ("pdeck", "display")]
        names += [f"{kind}:{q}" for q in range(self.players) for kind in SEAT_PILES]
        names += [f"spot:{loc.id}" for loc in self.in_play]
        names += [
            f"under:{inst}"
            for inst in rules.deck()
            if inst.card in rules.placements and rules.placements[inst.card].effect in TUCK_EFFECTS
        ]
        piles = TablePiles(names, counted=["money_deck", "villain_pool", *(f"pdeck:{r}" for r in REGIONS)])
        in_play = {loc.id for loc in self.in_play}
        for inst in rules.deck():
            if inst.card in rules.placements:
                piles.deal([inst], f"pdeck:{rules.placements[inst.card].region}")
            elif inst.card in rules.money:
                piles.deal([inst], "action_setup" if rules.money[inst.card].is_action else "money_deck")
            elif inst.card in rules.villains:
                piles.deal([inst], "villain_pool")
            else:
                piles.deal([inst], "locations" if inst.card in in_play else "box")
        return piles

    # ---- engine interface -----------------------------------------------------------------

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self._actor_version != self.version:
            self._current_actor, self._actor_version = self._actor(self.stack[-1]), self.version
        return self._current_actor

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self) -> list[Action]:
        """The sorted legal actions, computed once per position (`apply` checks against the same list)."""
        if self.terminal:
            return []
        if self._legal_version != self.version:
            step = self.stack[-1]
            if self.current_player() == CHANCE:
                legal: list[Action] = self._legal_chance(step)
            else:
                legal = sorted(self._handlers[step.kind][1](self, step))
            self._legal, self._legal_version = legal, self.version
        return list(self._legal)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        weights = self._chance_weights(self.stack[-1])
        total = sum(weights.values())
        return [(draw, weights[draw[1]] / total) for draw in self.legal_actions()]

    def apply(self, action: Any) -> None:
        if self.terminal:
            raise RuleViolation("the game is over")
        step = self.stack[-1]
        if action not in self.legal_actions():
            raise RuleViolation(f"illegal action {action!r} in {step.kind} (player {self.current_player()})")
        self.version += 1
        self._handlers[step.kind][2](self, step, action)
        self._advance()

    def _actor(self, step: Step) -> int:
        actor: int = self._handlers[step.kind][0](self, step)
        return actor

    def _advance(self) -> None:
        """Run bookkeeping steps until a decision or a chance draw is due."""
        guard = 0
        while self.stack:
            step = self.stack[-1]
            actor = self._actor(step)
            if actor != AUTO:
                self._current_actor, self._actor_version = actor, self.version
                return
            self._handlers[step.kind][2](self, step, None)
            guard += 1
            if guard > 10_000:
                raise RuleViolation(f"automatic steps do not settle (at {step.kind})")
        if not self.terminal:
            raise RuleViolation("no pending step but the game is not over")

    def zones(self) -> dict[str, list[CardInstance]]:
        return self.piles.as_dict()

    def observation(self, seat: int) -> DirtyMoneyObservation:
        """What `seat` may see: its own hand and pending cards, and the face-up table."""
        ids = self.piles.ids
        table = self._public_table()
        return DirtyMoneyObservation(
            seat=seat,
            phase=self.phase(),
            hand=tuple(sorted(ids(self.names.hands[seat]))),
            pending=tuple(sorted(ids(f"pending:{seat}"))),
            hand_limit=self.hand_limit(seat),
            purchase=self._purchase(),
            round_number=self.round_number,
            first_player=self.marker,
            table=table,
        )

    def _public_table(self) -> PublicTable:
        """The face-up part of every observation, rebuilt only after cards have moved."""
        if self._table is None or self._table_version != self.piles.changes:
            pile, ids, names = self.piles.view, self.piles.ids, self.names
            self._table = PublicTable(
                hand_sizes=tuple(map(len, map(pile, names.hands))),
                blacklists=tuple(map(len, map(pile, names.blacklists))),
                overpay=tuple(map(len, map(pile, names.overpay))),
                villains=tuple(v or "" for v in self.villain_of),
                tableaux=tuple(map(ids, names.tableaux)),
                spots=tuple(zip(names.locations, map(ids, names.spots), strict=True)),
                displays=tuple(zip(names.on_sale, map(ids, names.on_sale), strict=True)),
            )
            self._table_version = self.piles.changes
        return self._table

    def _purchase(self) -> Purchase | None:
        """The open purchase, when cards have been chosen at the pending buy step."""
        step = self.stack[-1] if self.stack else None
        if step is None or step.kind != "buy" or not step.data["group"]:
            return None
        group = self._group_cards(step)
        return Purchase(
            cards=tuple(pl.id for pl in group),
            currency=REGION_CURRENCY[group[0].region],
            due=self.due(step.seat, group),
            paid=step.data["value"],
            shark_free=self._shark_free(step.seat) is not None,
        )

    def end_reason(self) -> str:
        return self.reason

    def phase(self) -> str:
        """The pending step's kind ('turn', 'buy', 'hand_limit', …) or 'over'."""
        return self.stack[-1].kind if self.stack else "over"

    def action_text(self, action: Any) -> str:
        return describe_action(self, action)

    # ---- invariants -----------------------------------------------------------------------

    def check_invariants(self) -> None:
        """The rules' own limits, checked after every step.

        What depends on the piles alone (markers against the ledger, action cards in hands, spot
        and display sizes) is checked again only after a step that moved cards: the ledger changes
        only with a marker's move, and the final scoring check recounts it anyway.
        """
        view = self.piles.view
        for seat, hand_pile in enumerate(self.names.hands):
            if len(view(hand_pile)) > HAND_LIMIT:
                self._check_hand_limit(seat, len(view(hand_pile)))
        if self._checked_changes != self.piles.changes:
            self._check_piles()
            self._checked_changes = self.piles.changes
        paid = resolving = 0
        for step in self.stack:
            if step.kind == "buy":
                paid += len(step.data["paid"])
            elif step.kind == "resolve_card":
                resolving += 1
        if paid != len(view("payment")):
            raise RuleViolation("payment zone and open purchases disagree")
        if len(view("resolving")) != resolving:
            raise RuleViolation("an action card is resolving outside a resolution step")
        if not 0 <= self.marker < self.players:
            raise RuleViolation("first-player marker is off the table")

    def _check_piles(self) -> None:
        view = self.piles.view
        for pile, count in self.ledger.items():
            if count != len(view(pile)):
                raise RuleViolation(f"{pile}: {count} markers placed, {len(view(pile))} there")
        action_ids = self.rules.action_ids
        for seat, hand_pile in enumerate(self.names.hands):
            if not action_ids.isdisjoint(self.piles.ids(hand_pile)):
                raise RuleViolation(f"seat {seat} holds an action card in hand")
        for spot in self.names.spots:
            if len(view(spot)) > SPOT_CAP:
                raise RuleViolation(f"{spot} has more than {SPOT_CAP} money cards")
        for display in self.names.displays:
            if len(view(display)) > SELECTION_DISPLAY:
                raise RuleViolation(f"{display} is too long")

    def _check_hand_limit(self, seat: int, size: int) -> None:
        """A hand over its limit is allowed only while a pending step will bring it back."""
        limit = self.hand_limit(seat)
        if size > limit and not any(step.seat == seat and step.kind in HAND_FIXERS for step in self.stack):
            raise RuleViolation(
                f"seat {seat} holds {size} money cards, over the limit {limit}, with nothing to fix it"
            )

    # ---- building positions (tests, worked examples) --------------------------------------

    _SUPPLY_FIRST = ("money_deck", "pdeck:", "discard", "action_setup")

    def place(self, card_id: str, pile: str) -> CardInstance:
        """Move one copy of `card_id` from wherever it lies (supplies first) into `pile`.

        For setting up worked examples; every card stays in exactly one pile and the
        marker ledger follows blacklist / under-card / overpay moves.
        """
        names = sorted(
            (name for name in self.piles.names() if name != pile),
            key=lambda name: (not name.startswith(self._SUPPLY_FIRST), name),
        )
        for name in names:
            candidates = [c for c in self.cards(name) if c.card == card_id]
            if candidates:
                inst = min(candidates, key=lambda c: c.copy)
                self._relocate(inst, name, pile)
                return inst
        raise PnpError(f"{SLUG}: no copy of card '{card_id}' outside {pile}")

    def clear(self, pile: str) -> None:
        """Return every card in `pile` to its supply (money deck or region deck)."""
        for inst in list(self.cards(pile)):
            placement = self.rules.placements.get(inst.card)
            self._relocate(inst, pile, f"pdeck:{placement.region}" if placement else "money_deck")

    def _relocate(self, inst: CardInstance, src: str, dst: str) -> None:
        self._move(inst, src, dst)
        if src.startswith(MARKER_PILES):
            self.ledger[src] -= 1
        if dst.startswith(MARKER_PILES):
            self.ledger[dst] += 1

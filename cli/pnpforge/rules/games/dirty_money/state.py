"""One position of a Dirty Money game: the engine interface over the rule steps."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from operator import truediv
from typing import TYPE_CHECKING, Any, NamedTuple

from pnpforge.errors import PnpError
from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, RuleViolation, State
from pnpforge.rules.games.dirty_money import (
    action_cards,
    agents,
    board,
    buying,
    flow,
    invariants,
    scoring,
    worlds,
)
from pnpforge.rules.games.dirty_money.actions import describe_action
from pnpforge.rules.games.dirty_money.agents import DirtyMoneyObservation, Purchase
from pnpforge.rules.games.dirty_money.board import AUTO, Action, Step, TablePlan
from pnpforge.rules.games.dirty_money.data import (
    REGION_CURRENCY,
    REGIONS,
    SLUG,
    TUCK_EFFECTS,
    Location,
    Villain,
)
from pnpforge.rules.games.dirty_money.invariants import Ledger, PileNames
from pnpforge.rules.games.dirty_money.memo import MEMO, READOUTS, Readouts
from pnpforge.rules.kit import Zones

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


class DirtyMoneyState(State):
    """One position of a Dirty Money game: its data and the engine interface.

    Every rule is a function over this data, in `board` (piles, owners, markers, the step
    stack, chance), `flow`, `action_cards`, `buying`, `scoring` and `invariants`; `STEPS`
    names each step kind's actor, legal-action and apply functions.
    """

    rules: DirtyMoneyRules
    players: int
    piles: Zones
    names: PileNames  # the piles read at every step, by group
    ledger: Ledger  # markers counted as they are placed (scoring path 1)
    villain_of: list[str | None]
    _villain_cards: list[Villain | None]  # each seat's villain card, once dealt (as `villain_of`)
    in_play: list[Location]
    marker: int  # seat holding the first-player marker
    round_number: int
    round_order: list[int]
    shark_used: bool
    terminal: bool
    reason: str
    stack: list[Step]
    version: int  # bumped by every change: read-outs kept outside the position compare it
    # ---- the piles' own lists, by name (views into `piles`, not copies: read them only) ----
    views: Mapping[str, Sequence[CardInstance]]  # every pile by name
    _money_deck: Sequence[CardInstance]  # the money deck
    _deck_copies: dict[str, Mapping[str, Sequence[CardInstance]]]  # deck -> its copies by card id

    # What the rules derive from the position and keep between steps (legal actions, the tableau
    # index, prices, draws, the invariant check's progress) lives outside it, in `memo.READOUTS`;
    # the observation's read-outs live with the observation, in `agents`.

    # Every attribute of a position as a slot: read through the class.
    __slots__ = (
        "_deck_copies", "_events", "_money_deck", "_villain_cards", "in_play", "ledger", "marker", "names",
        "piles", "players", "reason", "round_number", "round_order", "rules", "shark_used", "stack",
        "terminal", "version", "views", "villain_of",
    )  # fmt: skip

    def __init__(self, rules: DirtyMoneyRules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.ledger = Ledger()
        self.villain_of = [None] * players
        self._villain_cards = [None] * players
        self.in_play = rules.locations_for(players)
        self.marker = 0
        self.round_number = 0
        self.round_order = []
        self.shark_used = False
        self.terminal = False
        self.reason = ""
        self.version = 0
        self.piles = self._lay_out()
        markers = [pile for pile in self.piles.names() if pile.startswith(MARKER_PILES)]
        self.names = PileNames.for_table(players, [loc.id for loc in self.in_play], markers)
        # The piles by name, uncopied: the same lists for the whole game (moves change them in place)
        self.views = self.piles.all_views()
        self._money_deck = self.views["money_deck"]
        decks = filter(self.piles.is_counted, self.views)
        self._deck_copies = {pile: self.piles.copies_by_id(pile) for pile in decks}
        self.stack = [Step("after_villains")] + [
            Step("deal_villain", seat=q) for q in reversed(range(players))
        ]
        self._advance()

    def _lay_out(self) -> Zones:
        """Every card of the deck in its starting pile; dealing happens in chance steps."""
        names, start = self.rules.table_plans[self.players]  # the same for every game of this many seats
        # The decks are drawn from by card id (chance picks an id, the copy that arrived first
        # moves), never from the top: their order is no part of the game, so a drawn card leaves
        # in O(1).
        piles = Zones(names, counted=DECKS, unordered=DECKS)
        for pile, cards in start:
            piles.deal(cards, pile)
        return piles

    # ---- engine interface -----------------------------------------------------------------

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        readouts = READOUTS(self)
        if readouts.actor_version != self.version:
            readouts.actor, readouts.actor_version = self._actor(self.stack[-1]), self.version
        return readouts.actor

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self) -> list[Action]:
        """The sorted legal actions, computed once per position (`apply` checks against the same list)."""
        readouts = READOUTS(self)
        if readouts.legal_version == self.version:
            return readouts.legal[:]
        return self._legal_now(readouts)[:]

    def _legal_now(self, readouts: Readouts | None = None) -> list[Action]:
        """The position's legal actions, the kept list itself (read it, never change it); the
        caller that has the position's read-outs at hand passes them."""
        if readouts is None:
            readouts = READOUTS(self)
        if self.terminal:
            readouts.legal, readouts.legal_version = [], self.version
        elif readouts.legal_version != self.version:
            step = self.stack[-1]
            # `_advance` left the actor of this very position (the version it was found at)
            actor = readouts.actor if readouts.actor_version == self.version else self.current_player()
            if actor == CHANCE:
                legal: list[Action] = board._legal_chance(self, step)
            else:
                legal = sorted(STEPS[step.kind].legal(self, step))
            readouts.legal, readouts.legal_version = legal, self.version
        return readouts.legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        readouts = READOUTS(self)
        legal = readouts.legal if readouts.legal_version == self.version else self._legal_now(readouts)
        drawn = readouts.drawn
        if drawn is None or drawn[0] is not legal:
            raise RuleViolation(f"no chance draw is pending (at {self.phase()})")
        _legal, card_ids, weights, pile = drawn
        # each outcome's copies / all copies left (every card of a drawn pile is counted by id),
        # computed in C: a deck draw has dozens of outcomes
        chances = map(truediv, map(weights.__getitem__, card_ids), repeat(len(pile)))
        return list(zip(legal, chances, strict=True))

    def apply(self, action: Any) -> None:
        if self.terminal:
            raise RuleViolation("the game is over")
        step = self.stack[-1]
        # the legal list the caller just read is still kept: checked without working it out again
        readouts = READOUTS(self)
        legal = readouts.legal if readouts.legal_version == self.version else self._legal_now(readouts)
        # binary search in the sorted legal actions (an action of another shape is illegal)
        try:
            index = bisect_left(legal, action)
        except TypeError:
            index = len(legal)
        if index == len(legal) or legal[index] != action:
            raise RuleViolation(f"illegal action {action!r} in {step.kind} (player {self.current_player()})")
        self.version += 1
        STEPS[step.kind].apply(self, step, action)
        self._advance(readouts)

    def _actor(self, step: Step) -> int:
        actor: int = STEPS[step.kind].actor(self, step)
        return actor

    def _advance(self, readouts: Readouts | None = None) -> None:
        """Run bookkeeping steps until a decision or a chance draw is due."""
        guard = 0
        handlers = STEPS
        if readouts is None:
            readouts = READOUTS(self)
        while self.stack:  # the game's end replaces the stack: read it afresh each time
            step = self.stack[-1]
            actor_of, _legal, apply = handlers[step.kind]
            actor = actor_of(self, step)
            if actor != AUTO:
                readouts.actor, readouts.actor_version = actor, self.version
                return
            apply(self, step, None)
            guard += 1
            if guard > 10_000:
                raise RuleViolation(f"automatic steps do not settle (at {step.kind})")
        if not self.terminal:
            raise RuleViolation("no pending step but the game is not over")

    def zones(self) -> dict[str, list[CardInstance]]:
        """Every pile by name: the piles' own lists, uncopied (the runner reads them at sampled
        steps; read them, never change them)."""
        return dict(self.views)  # type: ignore[arg-type]  # the views are the piles' lists

    # ---- sampled worlds (the search agent: see `worlds`) --------------------------------------

    SHARED = ("rules",)

    def card_zones(self) -> Zones:
        return self.piles

    hidden_groups = worlds.hidden_groups
    fixed_cards = worlds.fixed_cards
    card_kind = worlds.card_kind

    def resample_from_infostate(self, seat: int, rng: Any) -> DirtyMoneyState:
        world = super().resample_from_infostate(seat, rng)
        assert isinstance(world, DirtyMoneyState)
        # what the copy read before its hidden cards were dealt afresh (its legal actions, for
        # `fixed_cards`) no longer holds: it reads its new cards from scratch
        MEMO.forget(world)
        agents.OBSERVED_MEMO.forget(world)
        return world

    def observation(self, seat: int) -> DirtyMoneyObservation:
        """What `seat` may see: its own hand and pending cards, and the face-up table."""
        table = agents.public_table(self)
        return DirtyMoneyObservation.of(
            seat=seat,
            phase=self.phase(),
            hand=agents.sorted_ids(self, self.names.hands[seat]),
            pending=agents.sorted_ids(self, f"pending:{seat}"),
            hand_limit=board.hand_limit(self, seat),
            purchase=self._purchase(),
            round_number=self.round_number,
            first_player=self.marker,
            table=table,
            looking_at=self._looking_at(seat),
        )

    def _looking_at(self, seat: int) -> tuple[str, ...]:
        """The hand `seat` looks at while it chooses the cards of a trade (交易), else ()."""
        step = self.stack[-1] if self.stack else None
        if step is None or step.kind != "resolve_card" or step.seat != seat or "with" not in step.data:
            return ()
        return agents.sorted_ids(self, f"hand:{step.data['with']}")

    def _purchase(self) -> Purchase | None:
        """The open purchase, when cards have been chosen at the pending buy step."""
        step = self.stack[-1] if self.stack else None
        if step is None or step.kind != "buy" or not step.data["group"]:
            return None
        group = buying._group_cards(self, step)
        return Purchase(
            cards=tuple(pl.id for pl in group),
            currency=REGION_CURRENCY[group[0].region],
            due=buying.due(self, step.seat, group),
            paid=step.data["value"],
            shark_free=buying._shark_free(self, step.seat) is not None,
        )

    def returns(self) -> list[float]:
        return scoring.returns(self)

    def scores_from_rules(self) -> list[float]:
        return scoring.scores_from_rules(self)

    def winners(self) -> list[int]:
        return scoring.winners(self)

    def check_invariants(self) -> None:
        invariants.check_invariants(self)

    def end_reason(self) -> str:
        return self.reason

    def phase(self) -> str:
        """The pending step's kind ('turn', 'buy', 'hand_limit', …) or 'over'."""
        return self.stack[-1].kind if self.stack else "over"

    def action_text(self, action: Any) -> str:
        return describe_action(self, action)

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
            candidates = [c for c in board.cards(self, name) if c.card == card_id]
            if candidates:
                inst = min(candidates, key=lambda c: c.copy)
                self._relocate(inst, name, pile)
                return inst
        raise PnpError(f"{SLUG}: no copy of card '{card_id}' outside {pile}")

    def clear(self, pile: str) -> None:
        """Return every card in `pile` to its supply (money deck or region deck)."""
        for inst in list(board.cards(self, pile)):
            placement = self.rules.placements.get(inst.card)
            self._relocate(inst, pile, f"pdeck:{placement.region}" if placement else "money_deck")

    def _relocate(self, inst: CardInstance, src: str, dst: str) -> None:
        board._move(self, inst, src, dst)
        for pile in (src, dst):
            if pile.startswith("tableau:"):
                board._index_tableau(self, int(pile.removeprefix("tableau:")))
        if src.startswith(MARKER_PILES):
            self.ledger[src] -= 1
        if dst.startswith(MARKER_PILES):
            self.ledger[dst] += 1


DECKS = ("money_deck", "villain_pool", *(f"pdeck:{region}" for region in REGIONS))


def table_plan(rules: DirtyMoneyRules, players: int, in_play: list[Location]) -> TablePlan:
    """The piles of a table of `players` seats with these locations in play, and each pile's
    starting cards in deck order (dealt in one call per pile: the same piles as card by card)."""
    names = [*TABLE_PILES, "locations"]
    names += [f"{kind}:{region}" for region in REGIONS for kind in ("pdeck", "display")]
    names += [f"{kind}:{q}" for q in range(players) for kind in SEAT_PILES]
    names += [f"spot:{loc.id}" for loc in in_play]
    placements = rules.placements
    names += [
        f"under:{inst}"
        for inst in rules.deck()
        if inst.card in placements and placements[inst.card].effect in TUCK_EFFECTS
    ]
    in_play_ids = {loc.id for loc in in_play}
    start: dict[str, list[CardInstance]] = {}
    for inst in rules.deck():
        if inst.card in placements:
            pile = f"pdeck:{placements[inst.card].region}"
        elif inst.card in rules.money:
            pile = "action_setup" if rules.money[inst.card].is_action else "money_deck"
        elif inst.card in rules.villains:
            pile = "villain_pool"
        else:
            pile = "locations" if inst.card in in_play_ids else "box"
        start.setdefault(pile, []).append(inst)
    return tuple(names), tuple((pile, tuple(cards)) for pile, cards in start.items())


class StepRule(NamedTuple):
    """One step kind's functions: who acts (a seat, CHANCE, or AUTO), the legal actions of a
    decision, and what an action (None for an AUTO step) does."""

    actor: Callable[[DirtyMoneyState, Step], int]
    legal: Callable[[DirtyMoneyState, Step], list[Action]]
    apply: Callable[[DirtyMoneyState, Step, Any], None]


def no_decision(st: DirtyMoneyState, step: Step) -> list[Action]:
    """The legal actions of a step that never waits for a decision: asking is a bug."""
    raise RuleViolation(f"step {step.kind} never waits for a decision")


# Every step kind of the procedure, by name (a step on the stack names its kind).
STEPS: dict[str, StepRule] = {
    "acquire": StepRule(buying.actor_acquire, no_decision, buying.apply_acquire),
    "after_villains": StepRule(flow.actor_after_villains, no_decision, flow.apply_after_villains),
    "bear_choose": StepRule(flow.actor_bear_choose, flow.legal_bear_choose, flow.apply_bear_choose),
    "buy": StepRule(buying.actor_buy, buying.legal_buy, buying.apply_buy),
    "deal_villain": StepRule(flow.actor_deal_villain, flow.legal_deal_villain, flow.apply_deal_villain),
    "draw_money": StepRule(flow.actor_draw_money, flow.legal_draw_money, flow.apply_draw_money),
    "draw_placement": StepRule(
        flow.actor_draw_placement, flow.legal_draw_placement, flow.apply_draw_placement
    ),
    "hand_limit": StepRule(flow.actor_hand_limit, flow.legal_hand_limit, flow.apply_hand_limit),
    "inspect": StepRule(action_cards.actor_inspect, action_cards.legal_inspect, action_cards.apply_inspect),
    "launder": StepRule(action_cards.actor_launder, action_cards.legal_launder, action_cards.apply_launder),
    "location": StepRule(flow.actor_location, flow.legal_location, flow.apply_location),
    "merge_actions": StepRule(flow.actor_merge_actions, no_decision, flow.apply_merge_actions),
    "resolve_actions": StepRule(
        action_cards.actor_resolve_actions,
        action_cards.legal_resolve_actions,
        action_cards.apply_resolve_actions,
    ),
    "resolve_card": StepRule(
        action_cards.actor_resolve_card, action_cards.legal_resolve_card, action_cards.apply_resolve_card
    ),
    "round": StepRule(flow.actor_round, no_decision, flow.apply_round),
    "turn": StepRule(flow.actor_turn, flow.legal_turn, flow.apply_turn),
}

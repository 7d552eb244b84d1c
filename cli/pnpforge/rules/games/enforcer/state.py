"""One position of a game of 王牌執行官: its piles, per-player status and turn sequence state.

What actions do lives in `effects`, which actions are legal in `actions`, the
automatic part of the turn in `flow` and the execution arithmetic in `power`;
this class holds the data they share and answers the engine interface.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, RuleViolation, State
from pnpforge.rules.kit import Zones

from . import actions, effects, flow, power
from .data import (
    CATEGORIES,
    HAND_LIMIT,
    JUSTICE_BONUS,
    LOVE_BONUS,
    CardData,
    Obligor,
    Officer,
    Track,
)
from .flow import Execution
from .invariants import InvariantChecker
from .observe import EnforcerObservation, PublicPiles, observe

if TYPE_CHECKING:
    from .rules import EnforcerRules

MORNING, AFTERNOON, EVENING = 0, 1, 2
SHARED_PILES = (
    "exec_deck", "exec_discard", "obligor_deck", "table", "objection_deck", "objection_shown",
    "in_play", "officer_deck", "penalty_supply", "box",
)  # fmt: skip
SEAT_PILES = ("hand", "officer", "cover", "dealt", "penalty", "project", "award", "scored", "specialty")


@cache
def seat_pile(kind: str, seat: int) -> str:
    """The name of one seat's pile of `kind` (e.g. 'hand:2'); cached, as every step asks."""
    return f"{kind}:{seat}"


class EnforcerState(State):
    """One position of a game of 王牌執行官."""

    # Every attribute of a position as a slot: read through the class (a position has more
    # attributes than CPython keeps in a shared-key instance dict, whose reads are slower).
    __slots__ = (
        "_events", "_invariants", "_legal", "award_block", "cards", "choosing", "delayed", "ending",
        "execution", "exposed", "final_order", "give_return", "helped", "news", "out_of_game", "penalties",
        "pending", "period", "phase", "piles", "piles_of_kind", "played_keys", "players", "points",
        "public_piles", "reason", "rules", "seat_names", "specialty_owner", "then", "tracks", "turn",
        "turns", "veto_used"
    )  # fmt: skip

    def __init__(self, rules: EnforcerRules, players: int) -> None:
        self.rules = rules
        self.cards: CardData = rules.cards
        self.players = players
        # each seat's pile names by kind, looked up by every step's checks and observation
        self.seat_names: list[dict[str, str]] = [
            {kind: seat_pile(kind, s) for kind in SEAT_PILES} for s in range(players)
        ]
        # every seat's pile of one kind, seat by seat (observations and checks read them all)
        self.piles_of_kind: dict[str, list[str]] = {
            kind: [names[kind] for names in self.seat_names] for kind in SEAT_PILES
        }
        names = [*SHARED_PILES, *(name for seat in self.seat_names for name in seat.values())]
        self.piles = Zones(names, counted=flow.DRAWN_FROM)
        # the observations' public fields, kept until their piles move (made by the first observation,
        # so games whose agents never observe do not pay for the watcher)
        self.public_piles: PublicPiles | None = None
        for kind, pile in (("execution", "exec_deck"), ("obligor", "obligor_deck"),
                           ("objection", "objection_deck"), ("officer", "officer_deck"),
                           ("penalty", "penalty_supply"), ("specialty", "box")):  # fmt: skip
            self.piles.deal(self.cards.instances(kind), pile)
        # per-player status
        self.tracks: list[Track] = [self.cards.standard_track] * players
        self.penalties = [0] * players
        self.out_of_game = [False] * players
        self.helped: list[set[CardInstance]] = [set() for _ in range(players)]
        self.points = [0] * players
        self.specialty_owner: dict[CardInstance, int] = {}
        # obligor status: exposed 假弱勢, and which seats' 延緩執行 / 發布新聞 are on each obligor
        self.exposed: set[CardInstance] = set()
        self.delayed: dict[CardInstance, set[int]] = {}
        self.news: dict[CardInstance, set[int]] = {}
        # turn sequence
        self.phase = "setup"
        self.turn = 0
        self.period = MORNING
        self.choosing = 0
        self.pending: list[tuple] = []  # chance tasks to resolve before anyone decides
        self.then: str | None = None  # the automatic step that follows the pending tasks
        self.execution: Execution | None = None
        self.give_return = "period"
        self.played_keys: set[str] = set()
        self.veto_used = False
        self.award_block: CardInstance | None = None
        self.ending = False
        self.final_order: list[int] = []
        self.turns = 0
        self.reason = ""
        self._legal: list | None = None
        self._invariants: InvariantChecker | None = None
        for seat in range(players):
            self.pending += [("officer", seat)] * 2
        self.then = "choose_officers"
        flow.advance(self)

    # ---- piles by seat ------------------------------------------------------------------

    def hand(self, seat: int) -> Sequence[CardInstance]:
        return self.piles.pile(self.seat_names[seat]["hand"])

    def project(self, seat: int) -> CardInstance | None:
        return self.piles.top(self.seat_names[seat]["project"])  # a pile of at most one card

    def officer_card(self, seat: int) -> CardInstance | None:
        return self.piles.top(self.seat_names[seat]["officer"])  # a pile of at most one card

    def table(self) -> Sequence[CardInstance]:
        return self.piles.pile("table")

    # ---- small queries ------------------------------------------------------------------

    def obligor(self, card: CardInstance) -> Obligor:
        return self.cards.obligor[card.card]

    def weak(self, card: CardInstance) -> bool:
        """弱勢, or 假弱勢 not yet exposed (the rulebook: treated exactly as 弱勢)."""
        traits = self.obligor(card).traits
        return "弱勢" in traits or ("假弱勢" in traits and card not in self.exposed)

    def spotlight(self, card: CardInstance) -> bool:
        """矚目 printed on the card, or given by a 發布新聞 still in force."""
        return "矚目" in self.obligor(card).traits or bool(self.news and self.news.get(card))

    def affected(self, card: CardInstance) -> bool:
        """Under a 延緩執行 or 發布新聞 still in force (the dicts are usually empty: checked first)."""
        return bool(self.delayed and self.delayed.get(card)) or bool(self.news and self.news.get(card))

    def projectable(self, card: CardInstance) -> bool:
        return not self.obligor(card).big and not self.affected(card) and self.piles.where(card) == "table"

    def officer_of(self, seat: int) -> Officer | None:
        card = self.officer_card(seat)
        return self.cards.officer[card.card] if card else None

    def hand_limit(self, seat: int) -> int:
        officer = self.officer_of(seat)
        return officer.value if officer and officer.effect == "hand_limit" else HAND_LIMIT

    def alive(self) -> list[int]:
        return [s for s in range(self.players) if not self.out_of_game[s]]

    def actor(self) -> int:
        """The seat whose decision it is (or would be, once the pending chance tasks are done)."""
        if self.phase == "officer":
            return self.choosing
        if self.phase == "exec" and self.execution:
            return self.execution.seat
        return self.turn

    # ---- execution arithmetic (the tests and the log read it) ----------------------------

    def execution_difficulty(self) -> int:
        return power.execution_difficulty(self)

    def execution_power(self, extra: list[str] | None = None) -> int:
        return power.execution_power(self, extra)

    def power_against(self, seat: int, target: CardInstance, source: str, cards: list[str]) -> int:
        return power.power_against(self, seat, target, source, cards, frozenset())

    # ---- State interface ----------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "end":
            return TERMINAL
        if self.pending:
            return CHANCE
        return self.actor()

    def is_terminal(self) -> bool:
        return self.phase == "end"

    def end_reason(self) -> str:
        return self.reason or "terminal"

    def _legal_now(self) -> list[Hashable]:
        """The legal actions of this position, computed once (apply() and the runner both ask)."""
        if self._legal is None:
            self._legal = actions.legal_actions(self)
        return self._legal

    def legal_actions(self) -> list[Hashable]:
        legal = self._legal  # `_legal_now`, inline: asked at every step
        if legal is None:
            legal = self._legal = actions.legal_actions(self)
        return list(legal)

    def chance_counts(self) -> Counter[str]:
        """Copies of each card id in the pile this chance step draws from (kept by the piles)."""
        return self.piles.id_counts(flow.chance_pile(self.pending[0]))

    def chance_outcomes(self) -> list[tuple[Hashable, float]]:
        legal: list[str] = self._legal_now()  # type: ignore[assignment]  # the pile's card ids, sorted
        pile = flow.chance_pile(self.pending[0])
        counts = self.piles.id_counts(pile)
        total = len(self.piles.view(pile))
        return [(cid, counts[cid] / total) for cid in legal]  # chance actions are card id strings

    def apply(self, action: Hashable) -> None:
        if self.phase == "end":
            raise RuleViolation("the game is over")
        legal = self._legal
        if legal is None:
            legal = self._legal = actions.legal_actions(self)
        if action not in legal:
            raise RuleViolation(f"illegal action {action!r} in phase {self.phase}")
        self._legal = None
        if self.pending:
            effects.apply_chance(self, str(action))
        else:
            effects.apply_decision(self, action)  # type: ignore[arg-type]
        flow.advance(self)
        self._legal = None

    def zones(self) -> dict[str, list[CardInstance]]:
        return self.piles.as_dict()

    # ---- sampled worlds (the search agent) ---------------------------------------------------

    SHARED = ("rules", "cards")

    def card_zones(self) -> Zones:
        return self.piles

    def hidden_groups(self, seat: int) -> list[list[str]]:
        """Other hands with the execution deck and discards; the obligor and objection decks; the
        officers nobody has shown (the deck, the box, others' dealt and face-down covers)."""
        others = [names for s, names in enumerate(self.seat_names) if s != seat]
        return [
            ["exec_deck", "exec_discard", *(names["hand"] for names in others)],
            ["obligor_deck"],
            ["objection_deck"],
            [
                "officer_deck",
                "box",
                *(names["dealt"] for names in others),
                *(names["cover"] for names in others),
            ],
        ]

    def fixed_cards(self, seat: int) -> frozenset[CardInstance]:
        """Specialty cards stay put: each belongs to a known officer and goes only to its owner."""
        kind = self.cards.kind
        return frozenset(
            c for pile in self.piles.all_views().values() for c in pile if kind.get(c.card) == "specialty"
        )

    def clone(self) -> EnforcerState:
        """A copy whose observations read its own piles: the kept public fields are rebuilt on the
        copy (their readers are closures over the piles they were made for, which a copy shares)."""
        world = super().clone()
        world.public_piles = None
        return world

    def resample_from_infostate(self, seat: int, rng: random.Random) -> EnforcerState:
        world = super().resample_from_infostate(seat, rng)
        assert isinstance(world, EnforcerState)
        world._legal = None
        return world

    def observation(self, seat: int) -> EnforcerObservation:
        return observe(self, seat)

    def action_text(self, action: Hashable) -> str:
        return actions.action_text(self, action)

    # ---- scoring ------------------------------------------------------------------------

    def _love_winners(self, helped_counts: list[int]) -> set[int]:
        """執行有愛: every player still in tied for the most helped 弱勢 obligors (at least one)."""
        alive = self.alive()
        best = max((helped_counts[s] for s in alive), default=0)
        return {s for s in alive if best > 0 and helped_counts[s] == best}

    def final_adjustments(self, seat: int) -> list[tuple[int, str]]:
        """The end-of-game points of `seat` beside its obligors: track loss, 執行有愛, 公義無礙."""
        out: list[tuple[int, str]] = []
        loss = self.tracks[seat].loss(self.penalties[seat])
        if loss:
            out.append((loss, f"penalty track after {self.penalties[seat]} penalties"))
        if seat in self._love_winners([len(h) for h in self.helped]):
            out.append((LOVE_BONUS, "執行有愛: most 弱勢 obligors helped"))
        scored = self.piles.pile(seat_pile("scored", seat))
        categories = set().union(*(self.obligor(c).categories for c in scored)) if scored else set()
        if categories >= set(CATEGORIES):
            out.append((JUSTICE_BONUS, "公義無礙: obligors of all four categories"))
        return out

    def returns(self) -> list[float]:
        """Final points: obligor scores + 執行有愛 + 公義無礙 − the penalty track's loss."""
        return [
            float(self.points[s] + sum(points for points, _ in self.final_adjustments(s)))
            for s in range(self.players)
        ]

    def scores_from_rules(self) -> list[float]:
        """Recomputed from the piles alone: scored piles, officers, penalties and the helped set."""
        scored = [self.piles.pile(seat_pile("scored", s)) for s in range(self.players)]
        helped_counts = [sum(1 for c in scored[s] if c in self.helped[s]) for s in range(self.players)]
        love = self._love_winners(helped_counts)
        out = []
        for seat in range(self.players):
            base = sum(self.cards.obligor[c.card].score for c in scored[seat])
            categories: set[str] = set()
            for card in scored[seat]:
                categories |= self.cards.obligor[card.card].categories
            officer = self.officer_of(seat)
            rookie = officer is not None and officer.effect == "rookie_track"
            track = self.cards.rookie_track if rookie else self.cards.standard_track
            bonus = (LOVE_BONUS if seat in love else 0) + (
                JUSTICE_BONUS if all(c in categories for c in CATEGORIES) else 0
            )
            out.append(float(base + bonus + track.loss(self.penalties[seat])))
        return out

    def winners(self) -> list[int]:
        """Highest score among players still in; ties: more obligors, then fewer penalties."""
        if not self.is_terminal():
            return []
        scores = self.returns()
        alive = self.alive()
        if not alive:
            return []
        key = {s: (scores[s], self.piles.count(seat_pile("scored", s)), -self.penalties[s]) for s in alive}
        best = max(key.values())
        return [s for s in alive if key[s] == best]

    # ---- invariants ---------------------------------------------------------------------

    def check_invariants(self) -> None:
        checker = self._invariants
        if checker is None:  # made by the first check: games nobody checks do not pay for its watcher
            checker = self._invariants = InvariantChecker(self)
        checker.check(self)

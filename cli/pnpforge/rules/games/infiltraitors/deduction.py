"""The greedy agent's reasoning, from one seat's observation alone.

It deduces each suspect's possible (suit, number) from the cards this seat has
not seen and the orientation of the hints beside it, then values sure shots
first, then informative hints, then refilling the hand.  The greedy agent asks
for the value of every legal action with the same observation, so everything
that depends only on the observation is computed once and kept.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .agents import SeatObservation
from .board import ASIDE
from .data import NUMBERS, SPECIAL_NUMBER, CardSpec, related

if TYPE_CHECKING:
    from .rules import InfiltraitorsRules

Identity = tuple[str, int]
# Missions 7/13: value of one step towards as many upright as sideways hints.  Measured over
# 96 greedy games of M07 and M13: 3 → 80 % won, 5–8 → 94–95 %, 10 → 82 %.
BALANCE_WEIGHT = 6.0
# (weights by identity, weight by suit, weight by number, total weight) of one suspect's possibilities
Margins = tuple[dict[Identity, int], dict[str, int], dict[int, int], int]


class CardTables:
    """Per card, computed once per rules: its identity, and every identity it relates to."""

    def __init__(self, rules: InfiltraitorsRules) -> None:
        relation = _relations(tuple(rules.specs.values()))
        self.relates, self.bit, self.relate_bits = relation
        self.all_bits = (1 << len(self.bit)) - 1
        specs = rules.specs
        self.identity: dict[str, Identity] = {cid: spec.identity() for cid, spec in specs.items()}
        self.suit: dict[str, str] = {cid: spec.suit for cid, spec in specs.items()}
        # The numbers a card relates to by number (its own and its factors/multiples); none for a special.
        self.numbers: dict[str, tuple[int, ...]] = {
            cid: () if spec.number is None else (spec.number, *sorted(spec.relates))
            for cid, spec in specs.items()
        }
        # The cards that could be a suspect: (card id, copies, identity, identity's bit).
        self.pool = [
            (cid, copies, self.identity[cid], self.bit[self.identity[cid]])
            for cid, copies in rules.suspect_pool.items()
        ]
        self.single_copies = all(copies == 1 for copies in rules.suspect_pool.values())
        self.single_entries = [(cid, (ident, bit, 1)) for cid, _, ident, bit in self.pool]
        # Per card, what a hint's upright share is summed from: its suit, and each number it
        # relates to with the identity counted by both suit and number (built once, not per hint).
        self.shares: dict[str, tuple[str, tuple[tuple[int, Identity], ...]]] = {
            cid: (self.suit[cid], tuple((number, (self.suit[cid], number)) for number in self.numbers[cid]))
            for cid in specs
        }


Relations = tuple[dict[str, frozenset[Identity]], dict[Identity, int], dict[str, int]]
_RELATIONS: dict[tuple[CardSpec, ...], Relations] = {}


def _relations(specs: tuple[CardSpec, ...]) -> Relations:
    """Each card's related identities (as a set and as bits of an int, so a hint filters every
    possibility with one AND), kept per deck: every mission of a check shares the cards."""
    if specs not in _RELATIONS:
        suits = sorted({spec.suit for spec in specs})
        identities = [(suit, number) for suit in suits for number in (SPECIAL_NUMBER, *NUMBERS)]
        bit = {ident: 1 << i for i, ident in enumerate(identities)}
        relates = {
            spec.id: frozenset(ident for ident in identities if related(spec, *ident)) for spec in specs
        }
        relate_bits = {card_id: sum(bit[ident] for ident in rel) for card_id, rel in relates.items()}
        if len(_RELATIONS) > 8:
            _RELATIONS.clear()
        _RELATIONS[specs] = (relates, bit, relate_bits)
    return _RELATIONS[specs]


class Deduction:
    """A seat's reasoning over its observation: what each suspect may be, what a card would tell."""

    def __init__(self, rules: InfiltraitorsRules, obs: SeatObservation, tables: CardTables) -> None:
        self.rules = rules
        self.obs = obs
        self.tables = tables
        self.relates = tables.relates
        self.identity = tables.identity
        self.suit = tables.suit
        self.numbers = tables.numbers
        self.miss_value = self._shot_value(0.0)
        self.balanced = rules.mission.has("balanced")
        self.my_hand = obs.hand_sizes[obs.seat]
        self.hand_limit = rules.mission.hand_limit
        self._candidates: dict[tuple[bool, bool], list[tuple[Identity, int, int]]] = {}
        self._margins: dict[tuple[int, bool], Margins] = {}
        self._unseen: dict[bool, dict[str, int]] = {}
        self._shots: dict[tuple[Any, ...], float] | None = None
        self._known: dict[int, Identity | None] = {}
        self._gains: dict[int, dict[str, float]] = {}  # target -> card -> bits told
        # target -> (known identity, its possibilities' margins): what every hint beside it shares
        self._gain_parts: dict[int, tuple[Identity | None, Margins]] = {}

    # -- what is known ---------------------------------------------------------------

    def _seen(self, public: bool) -> dict[str, int]:
        """Card id -> copies face up for everyone (public) or, in addition, those only this seat
        sees.  Both are asked at most once per observation."""
        obs = self.obs
        cards = [card for _, hints in obs.hints for card, _ in hints]
        cards += obs.discard_up + obs.shared_specials + obs.rewards
        if not public:
            cards += obs.hand or ()
            cards += [card for _, hand in obs.other_hands for card in hand]
            cards += [card for card in (obs.my_suspect, obs.my_cover, obs.aside_known) if card]
        seen: dict[str, int] = {}
        get = seen.get
        for card in cards:
            card_id = card.card
            seen[card_id] = get(card_id, 0) + 1
        return seen

    def unseen(self, public: bool) -> dict[str, int]:
        """Cards that could still be a suspect: the mission's deck less what this seat (or anyone) saw."""
        if public not in self._unseen:
            unseen = dict(self.rules.suspect_pool)
            for card_id, count in self._seen(public).items():
                left = unseen.get(card_id, 0) - count
                if left > 0:
                    unseen[card_id] = left
                else:
                    unseen.pop(card_id, None)
            self._unseen[public] = unseen
        return self._unseen[public]

    def weights(self, target: int, public: bool = False) -> dict[Identity, int]:
        """Possible (suit, number) of a suspect, weighted by how many unseen cards give it."""
        return self.margins(target, public)[0]

    def candidates(self, public: bool, covered: bool) -> list[tuple[Identity, int, int]]:
        """Every (suit, number) a suspect could be before its hints, weighted by unseen cards."""
        key = (public, covered)
        if key in self._candidates:
            return self._candidates[key]
        identity = self.identity
        pairs: dict[Identity, int] = {}
        if covered:
            # Mission 16: suit from one unseen card, number from another.
            suits: dict[str, int] = {}
            numbers: dict[int, int] = {}
            for card_id, count in self.unseen(public).items():
                suit, number = identity[card_id]
                suits[suit] = suits.get(suit, 0) + count
                numbers[number] = numbers.get(number, 0) + count
            pairs = {(s, n): a * b for s, a in suits.items() for n, b in numbers.items()}
        else:
            # Each card of the mission's deck has its own (suit, number) (the loader refuses a
            # deck where two share one), so the unseen cards map one to one onto identities.
            seen = self._seen(public)
            if self.tables.single_copies:  # the usual deck: a card seen is a card ruled out
                found = [entry for card_id, entry in self.tables.single_entries if card_id not in seen]
            else:
                found = [
                    (ident, bit, copies - seen.get(card_id, 0))
                    for card_id, copies, ident, bit in self.tables.pool
                    if copies > seen.get(card_id, 0)
                ]
            self._candidates[key] = found
            return found
        bit = self.tables.bit
        self._candidates[key] = [(ident, bit[ident], w) for ident, w in pairs.items()]
        return self._candidates[key]

    def margins(self, target: int, public: bool) -> Margins:
        """The possible identities' weights, their sums by suit and by number, and their total."""
        key = (target, public)
        known = self._margins.get(key)
        if known is not None:
            return known
        allowed = self.tables.all_bits
        relate_bits = self.tables.relate_bits
        for card, up in self.obs.hints_at(target):
            allowed &= relate_bits[card.card] if up else ~relate_bits[card.card]
        candidates = self.candidates(public, covered=target != ASIDE and self.obs.has_cover[target])
        # one pass over the candidates gives the weights and both margins
        weights: dict[Identity, int] = {}
        by_suit: dict[str, int] = {}
        by_number: dict[int, int] = {}
        suit_get, number_get = by_suit.get, by_number.get
        for ident, bit, w in candidates:
            if allowed & bit:
                weights[ident] = w
                suit, number = ident
                by_suit[suit] = suit_get(suit, 0) + w
                by_number[number] = number_get(number, 0) + w
        known = self._margins[key] = (weights, by_suit, by_number, sum(by_suit.values()))
        return known

    def own_identity(self, target: int) -> Identity | None:
        """A suspect this seat knows: its own (with its cover) or the aside one it looked at."""
        if target in self._known:
            return self._known[target]
        specs = self.rules.specs
        obs = self.obs
        known: Identity | None = None
        if target == ASIDE:
            known = specs[obs.aside_known.card].identity() if obs.aside_known else None
        elif target == obs.seat and obs.my_suspect is not None:
            suit, number = specs[obs.my_suspect.card].identity()
            if obs.my_cover is not None:
                suit = specs[obs.my_cover.card].suit
            known = (suit, number)
        self._known[target] = known
        return known

    def info_gain(self, card: str, target: int) -> float:
        """Bits a hint with `card` beside `target` tells the table."""
        gains = self._gains.get(target)
        if gains is None:
            gains = self._gains[target] = {}
        else:
            gain = gains.get(card)
            if gain is not None:
                return gain
        gain = gains[card] = self._info_gain(card, target)
        return gain

    def upright_weight(self, card: str, target: int, public: bool) -> tuple[int, int]:
        """(weight of the identities `card` relates to, total weight) at `target`.

        A card relates by its suit or by its numbers, so the sum is the suit's share
        plus the numbers' shares less their overlap (a few look-ups, not a scan).
        """
        weights, by_suit, by_number, total = self.margins(target, public)
        suit = self.suit[card]
        up = by_suit.get(suit, 0)
        for number in self.numbers[card]:
            up += by_number.get(number, 0) - weights.get((suit, number), 0)
        return up, total

    def _info_gain(self, card: str, target: int) -> float:
        parts = self._gain_parts.get(target)
        if parts is None:
            known = self.own_identity(target)
            parts = self._gain_parts[target] = (known, self.margins(target, known is not None))
        known, (weights, by_suit, by_number, total) = parts
        suit, pairs = self.tables.shares[card]
        up = by_suit.get(suit, 0)
        for number, ident in pairs:
            up += by_number.get(number, 0) - weights.get(ident, 0)
        if total <= 0:
            return 0.0
        if known is not None:  # we know the answer: the surviving share is what others learn
            kept = up if known in self.relates[card] else total - up
            return math.log2(total / kept) if kept else 0.0
        p = up / total
        return 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))

    def balance_bonus(self, card: str, target: int) -> float:
        """Missions 7/13: how much closer the hint brings upright and sideways counts."""
        if not self.balanced:
            return 0.0
        lean = sum(1 if up else -1 for _, up in self.obs.hints_at(target))
        known = self.own_identity(target)
        if known is not None:
            p_up = 1.0 if known in self.relates[card] else 0.0
        else:
            up, total = self.upright_weight(card, target, public=False)
            p_up = up / total if total else 0.5
        return BALANCE_WEIGHT * (abs(lean) - (p_up * abs(lean + 1) + (1 - p_up) * abs(lean - 1)))

    def prior_gain(self, card: str) -> float:
        """Bits a hint with `card` would tell about a suspect not yet drawn (no hints beside it)."""
        candidates = self.candidates(public=False, covered=False)
        total = sum(w for _, _, w in candidates)
        relset = self.relates[card]
        up = sum(w for ident, _, w in candidates if ident in relset)
        p = up / total if total else 0.0
        return 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))

    def usefulness(self, card: str) -> float:
        targets = [t for t in range(self.obs.players) if self.obs.occupied[t]]
        return max((self.info_gain(card, t) for t in targets), default=0.0)

    # -- the heuristic -------------------------------------------------------------------

    def greedy_value(self, action: Any) -> float:
        """A one-step value: sure shots first, then informative hints, then refills."""
        kind = action[0]
        if kind == "eliminate":
            shots = self._shots
            if shots is None:
                shots = self._shots = self.shot_values()
            return shots.get(action, self.miss_value)
        obs = self.obs
        my_hand = self.my_hand
        limit = self.hand_limit
        if kind == "exchange":
            value = 10.0 * self.info_gain(action[3], action[2])
            if self.balanced:
                value += self.balance_bonus(action[3], action[2])
            if action[5]:
                value += 1.5 if my_hand - (action[1] == obs.seat) < limit else -1.0
            return value
        if kind == "take":
            return 12.0
        if kind == "hint":
            gain = self.info_gain(action[2], obs.seat)
            return 10.0 * gain + self.balance_bonus(action[2], obs.seat) + 0.5
        if kind == "wait":
            k = action[1]
            return -2.0 + 2.0 * min(k, max(0, limit - my_hand)) - 3.0 * max(0, my_hand + k - limit)
        if kind == "discard":
            return -self.usefulness(obs.hand[action[1]].card) if obs.hand is not None else 0.0
        if kind == "reward":
            if self.rules.mission.has("pooled_final") and not obs.final_phase:
                return 1.0 + self.prior_gain(action[1])  # pooled for the last, still unknown suspect
            return 1.0 + self.usefulness(action[1])
        if kind == "reward_blind":
            return 0.8
        if kind == "peek":
            table = obs.unsolved - (1 if obs.aside_present else 0)
            active = sum(1 for gone in obs.withdrawn if not gone)
            must = table <= active - 1
            return (6.0 if must else -6.0) if action[1] else 0.0
        if kind == "extra_hint":
            return 10.0 * self.info_gain(action[2], ASIDE)
        return 0.0

    def _shot_value(self, p: float) -> float:
        """A sure shot first of all; a likely one only with bullets to spare."""
        if p >= 0.999:
            return 1000.0
        spare = self.obs.bullets - self.obs.unsolved
        return 100.0 * p - 45.0 if spare > 0 else 100.0 * p - 100.0

    def shot_block(self, target: int, guess_index: dict[Identity, int]) -> list[float]:
        """The value of every shot at `target`, in the order of the mission's guesses
        (`guess_index`: guess -> position): what `shot_values` gives those actions, as a list."""
        miss = self.miss_value
        values = [miss] * len(guess_index)
        known = self.own_identity(target)
        if known is not None:
            position = guess_index.get(known)
            if position is not None:
                values[position] = self._shot_value(1.0)
            return values
        weights = self.weights(target)
        total = sum(weights.values())
        shot_value = self._shot_value
        for identity, w in weights.items():
            if w > 0:
                position = guess_index.get(identity)
                if position is not None:
                    values[position] = shot_value(w / total)
        return values

    def shot_values(self) -> dict[tuple[Any, ...], float]:
        """The 剷除叛徒 action -> its value, for every guess with a chance to hit (the rest miss)."""
        obs = self.obs
        targets = [t for t in range(obs.players) if obs.occupied[t]] + ([ASIDE] if obs.aside_present else [])
        values: dict[tuple[Any, ...], float] = {}
        for target in targets:
            known = self.own_identity(target)
            if known is not None:
                values[("eliminate", target, *known)] = self._shot_value(1.0)
                continue
            weights = self.weights(target)
            total = sum(weights.values())
            for (suit, number), w in weights.items():
                if w > 0:
                    values[("eliminate", target, suit, number)] = self._shot_value(w / total)
        return values

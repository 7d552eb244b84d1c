"""The greedy agent's look-ahead over its own hand: the best power the hand could reach against an
obligor, costs paid from the hand.

Every period decision asks it for each obligor on the table (execute it, take it as a project),
so what it works out is kept for the decision: the cards any execution may use, the cards chosen
per kind of target, and the answer per obligor.  A hand seldom meets the same obligors twice (each
decision draws or plays a card), so nothing is kept across decisions.
"""

from __future__ import annotations

from .data import DISCARD_COSTS, RESTRICTION, CardData, Obligor, Officer, PlayCard
from .observe import EnforcerObservation
from .power import cards_power

_NONE: frozenset[str] = frozenset()


class HandLookahead:
    """The look-ahead of one decision, from the seat's observation alone."""

    __slots__ = ("_candidates", "_chosen", "_counts", "_floors", "_officer", "_potentials", "cards", "obs")

    def __init__(self, cards: CardData, obs: EnforcerObservation) -> None:
        self.cards = cards
        self.obs = obs
        self._candidates: list[tuple[str, PlayCard]] | None = None  # hand cards any execution may use
        self._counts: dict[str, int] | None = None  # copies of each id in the own hand
        # the hand's cards a look-ahead plays, costs paid, by (weak, immune, min_difficulty admitted):
        # the cards, their keys (what weaknesses match) and their power when no weakness doubles
        self._chosen: dict[tuple[bool, bool, tuple[bool, ...]], tuple[list[str], set[str], int]] = {}
        # hand_potential by (obligor id, weak, source): asked twice per obligor on the table (execute
        # it, take it as a project), and copies of one obligor look ahead alike
        self._potentials: dict[tuple[str, bool, str], int] = {}
        self._floors: list[int] | None = None  # the least difficulty of each 'min_difficulty' candidate
        officer_id = obs.officers[obs.seat]
        self._officer: Officer | None = cards.officer[officer_id] if officer_id else None  # own officer

    def hand_potential(self, target: str, source: str) -> int:
        """Rough best power the hand could reach against `target` (costs paid from the hand).

        Worked out per decision: a hand seldom meets the same obligors twice (each decision
        draws or plays a card), so answers are not kept across decisions."""
        obs = self.obs
        if source == "project" and obs.projects[obs.seat] != target:
            source = "table"  # no 獎檢公告 power: the same look-ahead as executing it from the table
        return self._potential(self.cards.obligor_at[target], target, source)

    def _potential(self, obligor: Obligor, target: str, source: str) -> int:
        """`hand_potential` for a source already settled, the obligor already looked up: the power
        of the cards the look-ahead plays (costs paid), kept per decision by (obligor id, weak, source)."""
        traits = obligor.traits  # weak(), inline: every execute and project question asks
        weak = "弱勢" in traits or ("假弱勢" in traits and target not in self.obs.exposed)
        key = (obligor.id, weak, source)
        value = self._potentials.get(key)
        if value is not None:
            return value
        immune = obligor.effect == "immune_restriction"
        # The cards kept depend only on the weakness, the immunity and which 'min_difficulty'
        # cards the difficulty admits: obligors alike in these share one selection per decision.
        floors = self._floors
        if floors is None:
            floors = self._floors = [c.value for _, c in self.candidates() if c.effect == "min_difficulty"]
        admitted = tuple([obligor.difficulty >= floor for floor in floors]) if floors else ()
        selection = self._chosen.get((weak, immune, admitted))
        if selection is None:
            chosen = self.pay_costs(self._usable(obligor, weak, immune))
            play = self.cards.play
            selection = self._chosen[weak, immune, admitted] = (
                chosen,
                {play[cid].key for cid in chosen},
                cards_power(self.cards, None, weak, chosen, _NONE),  # no weakness doubled
            )
        chosen, keys, power = selection
        weakness = obligor.weakness
        if weakness and weakness in keys:  # a card it is weak to doubles: worked out for this obligor
            power = cards_power(self.cards, weakness, weak, chosen, _NONE)
        obs = self.obs
        award = 0
        if source == "project":  # hand_potential() asks for it only with the project's 獎檢公告 in play
            award = sum(self.cards.play[cid].power for cid in obs.awards[obs.seat])
        officer = self._officer  # officer_bonus, inline: most officers give none
        if officer is not None and officer.effect == "specialist" and officer.category in obligor.categories:
            power += officer.value
        value = self._potentials[key] = power + award
        return value

    def candidates(self) -> list[tuple[str, PlayCard]]:
        """The hand's cards, in hand order, that some execution could use whatever its target:
        no strategy card, and a 'requires_card' card only with its partner at hand or played."""
        if self._candidates is None:
            play, strategy, hand = self.cards.play, self.cards.strategy, self.obs.hand
            hand_keys: set[str] | None = None  # the hand's keys, found only for a card that needs one
            candidates = self._candidates = []
            for cid in hand:
                if cid in strategy:
                    continue
                card = play[cid]
                if card.effect == "requires_card":
                    if hand_keys is None:
                        hand_keys = {play[other].key for other in hand}
                    if not (card.requires in hand_keys or card.requires in self.obs.played_keys):
                        continue
                candidates.append((cid, card))
        return self._candidates

    def _usable(self, obligor: Obligor, weak: bool, immune: bool) -> list[str]:
        """The candidates that may be played against `obligor`, in hand order."""
        difficulty, filters = obligor.difficulty, self.cards.play_filter
        usable = []
        for cid, _ in self.candidates():
            barred_weak, barred_strong, restriction, floor = filters[cid]
            if not (barred_weak if weak else barred_strong) and not (restriction and immune):
                if floor is None or difficulty >= floor:
                    usable.append(cid)
        return usable

    def pay_costs(self, usable: list[str]) -> list[str]:
        """Drop the cards a discard cost would eat (or the costly card when nothing can pay).

        A cost is paid with the first card of the hand (in hand order) that the look-ahead does
        not play and that may pay it (管收: only 限制 cards); else with the weakest card played."""
        play = self.cards.play
        # strongest first, ties in hand order (a stable sort stays stable reversed)
        chosen = sorted(usable, key=self.cards.play_power.__getitem__, reverse=True)
        if self.cards.costly.isdisjoint(chosen):
            return chosen  # nothing to pay
        spare = self.hand_counts().copy()  # the hand's copies not played, by id in hand order
        for cid in chosen:
            spare[cid] -= 1
        for cid in [c for c in chosen if play[c].effect in DISCARD_COSTS]:
            if cid not in chosen:
                continue
            restriction_only = play[cid].effect == "discard_restriction_cost"
            unused = next(
                (
                    o
                    for o, k in spare.items()
                    if k > 0 and (not restriction_only or play[o].family == RESTRICTION)
                ),
                None,
            )
            if unused is not None:  # pay with a card we would not play anyway
                spare[unused] -= 1
                continue
            others = [o for o in chosen if not restriction_only or play[o].family == RESTRICTION]
            if cid in others and others.count(cid) == 1:
                others.remove(cid)
            if not others:
                chosen.remove(cid)
                continue
            chosen.remove(min(others, key=lambda o: play[o].power))
        return chosen

    def hand_counts(self) -> dict[str, int]:
        """Copies of each card id in the own hand, in the order of their first copy (found once)."""
        counts = self._counts
        if counts is None:
            counts = self._counts = {}
            for cid in self.obs.hand:
                counts[cid] = counts.get(cid, 0) + 1
        return counts

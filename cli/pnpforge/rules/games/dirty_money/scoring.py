"""Final scoring (最终得分) by two independent paths, and the tie-breakers.

`returns()` scores from the marker ledger (markers counted as they were placed during play);
`scores_from_rules()` counts the cards lying in the final piles.  The runner compares the two,
so a marker that went astray shows as a failure instead of a silently wrong score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pnpforge.rules.games.dirty_money.base import StateBase
from pnpforge.rules.games.dirty_money.data import (
    BLACKLIST_EXTRA,
    EMBEZZLER_POINTS,
    REGIONS,
    TUCK_EFFECTS,
    art_set_score,
)

SOURCE_WORDS = {
    "printed": "printed points of placement cards",
    "art": "art sets",
    "accounting_firm": "accounting firms: discards under them",
    "casino": "casinos: discards under them",
    "law_firm": "law firms: discards under them",
    "digital_bank": "digital banks: money cards in hand",
    "remittance": "remittance: complete sets of regions",
    "restaurant_chain": "restaurant chains: placement cards of their region",
    "overpay": "the Embezzler's overpay slot",
}


def blacklist_penalties(points: list[int]) -> list[int]:
    """−1 each; the fewest (ties too) lose nothing; the most (ties too) lose 2 more."""
    low, high = min(points), max(points)
    penalties = []
    for count in points:
        if count == low:
            penalties.append(0)
        else:
            penalties.append(-count - (BLACKLIST_EXTRA if count == high else 0))
    return penalties


class Scoring(StateBase):
    """Scores, their breakdown by source, and the winner."""

    blacklist_penalties = staticmethod(blacklist_penalties)

    def _raw_blacklists(self, count: Callable[[int], int]) -> list[int]:
        """Blacklist points per seat after each seat's charities discard theirs."""
        points = []
        for seat in range(self.players):
            charity = sum(pl.value for _c, pl in self._owned(seat, "charity"))
            points.append(max(0, count(seat) - charity))
        return points

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Points of a seat by source, from the ledger of markers placed during play."""
        placements = self.rules.placements
        tableau = [placements[c.card] for c in self.cards(f"tableau:{seat}")]
        by_region = Counter(pl.region for pl in tableau)
        breakdown = Counter(
            printed=sum(pl.points for pl in tableau),
            art=art_set_score(sum(pl.effect == "art" for pl in tableau), self.rules.art_table),
        )
        for card in self.cards(f"tableau:{seat}"):
            pl = placements[card.card]
            if pl.effect in TUCK_EFFECTS:
                breakdown[pl.effect] += pl.value * self.ledger[f"under:{card}"]
            elif pl.effect == "digital_bank":
                breakdown[pl.effect] += pl.value * len(self.cards(f"hand:{seat}"))
            elif pl.effect == "remittance":
                breakdown[pl.effect] += pl.value * min(by_region[r] for r in REGIONS)
            elif pl.effect == "restaurant_chain":
                breakdown[pl.effect] += pl.value * by_region[pl.region]
        breakdown["overpay"] = EMBEZZLER_POINTS * self.ledger[f"overpay:{seat}"]
        return dict(breakdown)

    def _score_events(self) -> None:
        """Each seat's final points by source, and its blacklist penalty, as "score" events."""
        blacklists = self._raw_blacklists(lambda seat: self.ledger[f"blacklist:{seat}"])
        penalties = blacklist_penalties(blacklists)
        for seat in range(self.players):
            for source, points in self.score_breakdown(seat).items():
                if points:
                    self.score(seat, points, SOURCE_WORDS.get(source, source))
            if penalties[seat]:
                self.score(seat, penalties[seat], f"blacklist: {blacklists[seat]} points after charities")

    def returns(self) -> list[float]:
        blacklists = self._raw_blacklists(lambda seat: self.ledger[f"blacklist:{seat}"])
        penalties = blacklist_penalties(blacklists)
        return [float(sum(self.score_breakdown(q).values()) + penalties[q]) for q in range(self.players)]

    def scores_from_rules(self) -> list[float]:
        """Recount from the piles alone (an independent path from the marker ledger)."""
        piles = self.piles.as_dict()
        placements = self.rules.placements
        scores = []
        for seat in range(self.players):
            mine = [(c, placements[c.card]) for c in piles[f"tableau:{seat}"]]
            regions = [pl.region for _c, pl in mine]
            hand = len(piles[f"hand:{seat}"])
            score = 0
            for card, pl in mine:
                under = len(piles.get(f"under:{card}", []))
                score += pl.points + {
                    "accounting_firm": pl.value * under,
                    "casino": pl.value * under,
                    "law_firm": pl.value * under,
                    "digital_bank": pl.value * hand,
                    "remittance": pl.value * min(regions.count(r) for r in REGIONS),
                    "restaurant_chain": pl.value * regions.count(pl.region),
                }.get(pl.effect, 0)
            score += art_set_score(sum(1 for _c, pl in mine if pl.effect == "art"), self.rules.art_table)
            score += EMBEZZLER_POINTS * len(piles[f"overpay:{seat}"])
            scores.append(score)
        blacklists = self._raw_blacklists(lambda seat: len(piles[f"blacklist:{seat}"]))
        return [float(s + pen) for s, pen in zip(scores, blacklist_penalties(blacklists), strict=True)]

    def winners(self) -> list[int]:
        """Highest score; then most money left in hand; then who played last this round."""
        scores = self.returns()
        best = max(scores)
        tied = [q for q in range(self.players) if scores[q] == best]
        cash = {q: self.money_in_hand(q) for q in tied}
        tied = [q for q in tied if cash[q] == max(cash.values())]
        order = self.round_order or list(range(self.players))
        return [max(tied, key=order.index)]

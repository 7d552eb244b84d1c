"""How often each card is used, compared with its peers, as statistics rather than thresholds.

"Used at least once in 100 games" cannot see a card made nearly useless (a
cost typo that still lets it be bought twice), and fails a legal deck when a
rare card happens to miss one run.  Here a card's rate is the share of
completed games that used it, with a Wilson score interval; its peers are
the other cards of its type that the run expects to be used.

The test, one-sided, for each card with at least three peers:
- "far less" means the card's rate is below a quarter (`FAR_LESS`) of its
  peers' pooled rate;
- a **warning** when the card's 95 % Wilson upper bound is already below a
  quarter of the peers' pooled rate (the shortfall is unlikely to be chance
  for this one card);
- **strong evidence** (an error under --strict) when the card's upper bound
  is below a quarter of the peers' *lower* bound, both at the confidence a
  Bonferroni correction over every card tested asks for (family-wise
  α = 0.001), so the chance that any legal card in the run is called
  strongly under-used stays below one in a thousand, whatever the seed.
A card never used at all is reported by the check after games aimed at it
(see pnpforge.rules.aimed); this module compares the ones that were.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

FAR_LESS = 0.25  # "far less than its peers": below this share of their rate
WARN_Z = NormalDist().inv_cdf(0.975)  # 95 % two-sided, for the warning
FAMILY_ALPHA = 0.001  # family-wise error rate of the strong verdict
MIN_PEERS = 3


def wilson(successes: int, trials: int, z: float) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (never outside 0..1, sane at 0 and n)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class LowUse:
    """A card used far less than its peers, with the evidence."""

    card: str
    type: str
    games_used: int
    games: int
    rate: float
    interval: tuple[float, float]  # the card's 95 % Wilson interval
    peer_rate: float
    peers: int
    strong: bool  # the Bonferroni-corrected test holds too: an error under --strict

    def message(self) -> str:
        lo, hi = self.interval
        return (
            f"{self.card} ({self.type}) used in {self.games_used}/{self.games} games "
            f"(rate {self.rate:.1%}, 95 % CI {lo:.1%}–{hi:.1%}) against {self.peer_rate:.1%} "
            f"for its {self.peers} peers"
        )

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "interval": list(self.interval), "message": self.message()}


def low_use(games_used: dict[str, int], types: dict[str, str], games: int) -> list[LowUse]:
    """Cards (keys of `games_used`, all expected in the run) used far less than their type's peers."""
    if games <= 0:
        return []
    by_type: dict[str, list[str]] = {}
    for card in games_used:
        by_type.setdefault(types.get(card, ""), []).append(card)
    tested = [c for cards in by_type.values() if len(cards) > MIN_PEERS for c in cards if games_used[c] > 0]
    if not tested:
        return []
    strong_z = NormalDist().inv_cdf(1 - FAMILY_ALPHA / len(tested))
    out = []
    for ctype, cards in sorted(by_type.items()):
        if len(cards) <= MIN_PEERS:
            continue
        total = sum(games_used[c] for c in cards)
        for card in sorted(cards):
            used = games_used[card]
            if used == 0:
                continue
            peers = len(cards) - 1
            peer_used, peer_trials = total - used, peers * games
            peer_rate = peer_used / peer_trials
            _, upper = wilson(used, games, WARN_Z)
            if upper >= FAR_LESS * peer_rate:
                continue
            _, strong_upper = wilson(used, games, strong_z)
            peer_lower, _ = wilson(peer_used, peer_trials, strong_z)
            out.append(
                LowUse(
                    card,
                    ctype,
                    used,
                    games,
                    used / games,
                    wilson(used, games, WARN_Z),
                    peer_rate,
                    peers,
                    strong_upper < FAR_LESS * peer_lower,
                )
            )
    return out

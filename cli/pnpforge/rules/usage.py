"""How often each card is used, compared with its peers, as statistics rather than thresholds.

"Used at least once in 100 games" cannot see a card made nearly useless (a
cost typo that still lets it be bought twice), and fails a legal deck when a
rare card happens to miss one run.  Here a card's rate is the share of
completed games that used it, with a Wilson score interval; its peers are
the other cards of its type that the run expects to be used.

The test, one-sided, for each card with at least three peers:
- a **warning** when the card's 95 % Wilson upper bound is below a quarter
  (`FAR_LESS`) of its peers' pooled rate: used far less, unlikely by chance;
- **strong evidence** that the card is nearly useless (an error under
  --strict) when its upper bound is below a tenth (`NEARLY_USELESS`) of the
  peers' *lower* bound, both at the confidence a Bonferroni correction over
  every card tested asks for (family-wise α = 0.01), so the chance that any
  legal card of the run is called nearly useless stays below 1 %;
- a warned card is **cleared** when its 95 % lower bound is above a
  twentieth (`CLEARED`) of its peers' rate: more games could not make it
  strong (a hard but playable card, such as an obligor few can execute).
A warned card neither strong nor cleared gets further games aimed at it
(pnpforge.rules.aimed) until it is one or the other, or the budget is spent,
so evidence too weak in 100 games (0 or 1 use) is gathered, not guessed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any

FAR_LESS = 0.25  # a warning: the card's rate is below a quarter of its peers'
NEARLY_USELESS = 0.1  # strong evidence: below a tenth of its peers' rate …
CLEARED = 0.05  # … and a card shown to be above a twentieth of it needs no more games
WARN_Z = NormalDist().inv_cdf(0.975)  # 95 % two-sided, for the warning and the clearing
FAMILY_ALPHA = 0.01  # family-wise error rate of the strong verdict (Bonferroni over the cards tested)
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
    strong: bool  # below a tenth of its peers, Bonferroni-corrected: an error under --strict
    cleared: bool  # shown above a twentieth of its peers: more games would not make it strong

    def message(self) -> str:
        lo, hi = self.interval
        return (
            f"{self.card} ({self.type}) used in {self.games_used}/{self.games} games "
            f"(rate {self.rate:.1%}, 95 % CI {lo:.1%}–{hi:.1%}) against {self.peer_rate:.1%} "
            f"for its {self.peers} peers"
        )

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "interval": list(self.interval), "message": self.message()}


def low_use(games_used: Mapping[str, int], types: Mapping[str, str], games: int) -> list[LowUse]:
    """Cards (keys of `games_used`, all expected in the run) used far less than their type's peers.

    A card never used is included (its rate is 0): the check reports it as never used only
    when games aimed at it found no use either.
    """
    if games <= 0:
        return []
    by_type: dict[str, list[str]] = {}
    for card in games_used:
        by_type.setdefault(types.get(card, ""), []).append(card)
    tested = sum(len(cards) for cards in by_type.values() if len(cards) > MIN_PEERS)
    if not tested:
        return []
    strong_z = NormalDist().inv_cdf(1 - FAMILY_ALPHA / tested)
    out = []
    for ctype, cards in sorted(by_type.items()):
        if len(cards) <= MIN_PEERS:
            continue
        total = sum(games_used[c] for c in cards)
        for card in sorted(cards):
            used = games_used[card]
            peers = len(cards) - 1
            peer_used, peer_trials = total - used, peers * games
            peer_rate = peer_used / peer_trials
            lower, upper = wilson(used, games, WARN_Z)
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
                    (lower, upper),
                    peer_rate,
                    peers,
                    strong_upper < NEARLY_USELESS * peer_lower,
                    lower >= CLEARED * peer_rate,
                )
            )
    return out

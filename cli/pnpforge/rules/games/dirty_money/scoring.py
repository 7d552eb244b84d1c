"""Final scoring (最终得分) by two independent paths, and the tie-breakers.

`returns()` scores from the marker ledger (markers counted as they were placed during play);
`scores_from_rules()` counts the cards lying in the final piles.  The runner compares the two,
so a marker that went astray shows as a failure instead of a silently wrong score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from pnpforge.rules.games.dirty_money import board
from pnpforge.rules.games.dirty_money.data import (
    BLACKLIST_EXTRA,
    EMBEZZLER_POINTS,
    REGIONS,
    TUCK_EFFECTS,
    art_set_score,
)

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState


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


# rulebook 001:172 「黑名单积分最少的玩家无需从分数中扣除黑名单积分。黑名单得分最高的玩家将失去额外 2 分。」
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


# rulebook 001:219 「游戏结束时，每个所拥有的慈善机构可以让玩家丢弃最多 2 个黑名单积分。」
def _raw_blacklists(st: DirtyMoneyState, count: Callable[[int], int]) -> list[int]:
    """Blacklist points per seat after each seat's charities discard theirs."""
    points = []
    for seat in range(st.players):
        charity = sum(pl.value for _c, pl in board._owned(st, seat, "charity"))
        points.append(max(0, count(seat) - charity))
    return points


# rulebook 001:237 「玩家所拥有的每套美国、欧洲和日本处置卡可获得 3 分。」
# rulebook 001:243 「与所拥有的餐厅连锁店在同一地点的处置卡（包括餐厅连锁店）将获得 1 分。」
def score_breakdown(st: DirtyMoneyState, seat: int) -> dict[str, int]:
    """Points of a seat by source, from the ledger of markers placed during play."""
    placements = st.rules.placements
    tableau = [placements[c.card] for c in board.cards(st, f"tableau:{seat}")]
    by_region = Counter(pl.region for pl in tableau)
    breakdown = Counter(
        printed=sum(pl.points for pl in tableau),
        art=art_set_score(sum(pl.effect == "art" for pl in tableau), st.rules.art_table),
    )
    for card in board.cards(st, f"tableau:{seat}"):
        pl = placements[card.card]
        if pl.effect in TUCK_EFFECTS:
            breakdown[pl.effect] += pl.value * st.ledger[f"under:{card}"]
        elif pl.effect == "digital_bank":
            breakdown[pl.effect] += pl.value * len(board.cards(st, f"hand:{seat}"))
        elif pl.effect == "remittance":
            breakdown[pl.effect] += pl.value * min(by_region[r] for r in REGIONS)
        elif pl.effect == "restaurant_chain":
            breakdown[pl.effect] += pl.value * by_region[pl.region]
    breakdown["overpay"] = EMBEZZLER_POINTS * st.ledger[f"overpay:{seat}"]
    return dict(breakdown)


def _score_events(st: DirtyMoneyState) -> None:
    """Each seat's final points by source, and its blacklist penalty, as "score" events."""
    blacklists = _raw_blacklists(st, lambda seat: st.ledger[f"blacklist:{seat}"])
    penalties = blacklist_penalties(blacklists)
    for seat in range(st.players):
        for source, points in score_breakdown(st, seat).items():
            if points:
                st.score(seat, points, SOURCE_WORDS.get(source, source))
        if penalties[seat]:
            st.score(seat, penalties[seat], f"blacklist: {blacklists[seat]} points after charities")


def returns(st: DirtyMoneyState) -> list[float]:
    blacklists = _raw_blacklists(st, lambda seat: st.ledger[f"blacklist:{seat}"])
    penalties = blacklist_penalties(blacklists)
    return [float(sum(score_breakdown(st, q).values()) + penalties[q]) for q in range(st.players)]


def scores_from_rules(st: DirtyMoneyState) -> list[float]:
    """Recount from the piles alone (an independent path from the marker ledger)."""
    piles = st.piles.as_dict()
    placements = st.rules.placements
    scores = []
    for seat in range(st.players):
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
        score += art_set_score(sum(1 for _c, pl in mine if pl.effect == "art"), st.rules.art_table)
        score += EMBEZZLER_POINTS * len(piles[f"overpay:{seat}"])
        scores.append(score)
    blacklists = _raw_blacklists(st, lambda seat: len(piles[f"blacklist:{seat}"]))
    return [float(s + pen) for s, pen in zip(scores, blacklist_penalties(blacklists), strict=True)]


# rulebook 001:175 「在平分的情况下，手中剩余最多货币的玩家将赢得平局。」
# rulebook 001:175 「如果仍然平局，则最后玩此回合的玩家获胜。」
def winners(st: DirtyMoneyState) -> list[int]:
    """Highest score; then most money left in hand; then who played last this round."""
    scores = returns(st)
    best = max(scores)
    tied = [q for q in range(st.players) if scores[q] == best]
    cash = {q: board.money_in_hand(st, q) for q in tied}
    tied = [q for q in tied if cash[q] == max(cash.values())]
    order = st.round_order or list(range(st.players))
    return [max(tied, key=order.index)]

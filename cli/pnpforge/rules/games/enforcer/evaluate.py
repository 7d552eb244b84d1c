"""How good a position of 王牌執行官 that is not over looks to one seat: the search agent's
truncated playouts stop after a few turns and ask this instead of playing to the end.

A full greedy playout of a three-player game runs some 300 steps, and most of what happens after
the first few turns is luck that has nothing to do with the decision being compared; stopping
early makes a playout several times cheaper (more sampled worlds for the same cost) and less
noisy.  The estimate is the rulebook's final scoring read now, as if the game ended here, turned
into a share of the win between the seats still in:

* rulebook 000:439-440 「基本分 所有成功執行的義務人分數加總」: the obligors each seat has executed;
* rulebook 000:442, 000:444 「執行有愛 扶助最多愛心義務人者+4分」「公義無礙 湊齊稅健罰費者+4分」:
  the two bonuses as they stand now (`EnforcerState.final_adjustments`), and a part of 公義無礙
  for every category already scored (a seat three categories in is near its four points);
* rulebook 000:419-420 「每次減分，向右移一格」「減分至X時，直接淘汰」: the penalty track's loss,
  and a seat one penalty from X pays part of the next cell's loss besides (it may be out);
* rulebook 000:417 「遊戲結束時，面前有尚未執行的專案，且補執行失敗」 (a penalty): a project
  still open is not counted either way: executing it is the greedy agent's next business.

The standings become a share by a softmax over the seats still in (an eliminated seat has none):
a lead of `SPREAD` points is worth e≈2.7 times the share of the seat behind.  The same position
gives the same estimate; the estimate reads only the position it is given (a sampled world).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .data import CATEGORIES, JUSTICE_BONUS

if TYPE_CHECKING:
    from .state import EnforcerState

SPREAD = 4.0  # points of lead that multiply a seat's share of the win by e
HORIZON = 60  # playout steps (chance steps included) before the estimate is asked: some four turns


def standing(state: EnforcerState, seat: int) -> float:
    """`seat`'s points if the game ended now, with the partial credit described above."""
    points = float(state.points[seat] + sum(p for p, _ in state.final_adjustments(seat)))
    scored = state.piles.pile(state.seat_names[seat]["scored"])
    categories: set[str] = set()
    for card in scored:
        categories |= state.obligor(card).categories
    if len(categories) < len(CATEGORIES):  # the bonus itself is in final_adjustments once complete
        points += JUSTICE_BONUS * len(categories) / (2 * len(CATEGORIES))
    track = state.tracks[seat]
    penalties = state.penalties[seat]
    if penalties >= 1 and penalties == track.eliminate_at - 1:  # one more penalty and it is out
        points += 0.5 * (track.loss(penalties) - track.loss(penalties - 1))  # the last step's loss again
    return points


def win_share(state: EnforcerState, seat: int) -> float:
    """An estimate in [0, 1] of `seat`'s win: exact when the game is over, else a softmax of the
    standings of the seats still in."""
    if state.is_terminal():
        winners = state.winners()
        return 1.0 / len(winners) if seat in winners else 0.0
    alive = state.alive()
    if seat not in alive:
        return 0.0
    standings = {s: standing(state, s) for s in alive}
    top = max(standings.values())
    weights = {s: math.exp((value - top) / SPREAD) for s, value in standings.items()}
    return weights[seat] / sum(weights.values())

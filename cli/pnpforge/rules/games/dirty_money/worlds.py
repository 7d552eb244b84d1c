"""Sampled worlds for a search agent: what one seat cannot see in Dirty Money, dealt afresh.

Hidden from a seat: the other hands and their pending action cards, the money deck and the
discards, each region's placement deck and the villains nobody drew.  Each hand keeps its number
of money cards and each pending pile its number of action cards (`card_kind`).  Marker piles
(blacklists, overpay slots, cards tucked under) stay: the ledger counts them.  A trade (交易) first
chooses a player and only then looks at its money cards: while the seat itself is choosing the
cards of a trade, the hand it looks at (its cards are the choices) stays; no other hand ever does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CardInstance

if TYPE_CHECKING:
    from .state import DirtyMoneyState


def hidden_groups(st: DirtyMoneyState, seat: int) -> list[list[str]]:
    others = [q for q in range(st.players) if q != seat]
    regions = [name for name in st.views if name.startswith("pdeck:")]
    return [
        ["money_deck", "discard", *(f"hand:{q}" for q in others), *(f"pending:{q}" for q in others)],
        *([name] for name in regions),
        ["villain_pool"],
    ]


def fixed_cards(st: DirtyMoneyState, seat: int) -> frozenset[CardInstance]:
    step = st.stack[-1] if st.stack else None
    if step is None or step.kind != "resolve_card" or step.seat != seat or "with" not in step.data:
        return frozenset()
    return frozenset(st.views[f"hand:{step.data['with']}"])


def card_kind(st: DirtyMoneyState, card: CardInstance) -> Any:
    money = st.rules.money.get(card.card)
    return None if money is None else money.is_action

"""Sampled worlds for a search agent: what one seat cannot see in Dirty Money, dealt afresh.

Hidden from a seat: the other hands and their pending action cards, the money deck and the
discards, each region's placement deck and the villains nobody drew.  Each hand keeps its number
of money cards and each pending pile its number of action cards (`card_kind`).  Marker piles
(blacklists, overpay slots, cards tucked under) stay: the ledger counts them.  A trade shows the
hand it trades with (its cards are the choices), so that hand stays too.
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
    shown = {action[1] for action in st._legal_now() if action[0] == "trade" and len(action) > 1}
    return frozenset(card for q in shown for card in st.views[f"hand:{q}"])


def card_kind(st: DirtyMoneyState, card: CardInstance) -> Any:
    money = st.rules.money.get(card.card)
    return None if money is None else money.is_action

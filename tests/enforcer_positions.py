"""Reaching enforcer positions through the engine's own interface, for the enforcer tests.

A test chooses the chance outcomes (which officers are dealt, which cards are
drawn, which obligors and objections are flipped) from a private copy of
cards.db, so every card is real and conservation holds throughout.  Scoring
tests move real cards between piles with `grab` (never creating any).
"""

from __future__ import annotations

import random
from collections import Counter

from pnpforge.rules.engine import CHANCE, CardInstance
from pnpforge.rules.games.enforcer import EnforcerState

# Cards drawn when a test does not care: plain power, no effect that changes the scenario.
FILLER = ["EX-sale", "EX-instalment", "EX-care-visit", "EX-probe", "EX-seize-revenue",
          "EX-blitz", "EX-seize-deposit", "EX-exit-ban", "EX-seize-vehicle"]  # fmt: skip
QUIET_TABLE = ["OB-03", "OB-01", "OB-19", "OB-27"]  # no 矚目, no 大戶, not weak
DEFAULT_OFFICERS = [
    ("OF-negotiate", "OF-care"), ("OF-rookie", "OF-gold"), ("OF-ace", "OF-fee"),
    ("OF-fine", "OF-health"), ("OF-tax", "OF-auction"), ("OF-arrest", "OF-detain"),
]  # fmt: skip


def feed(st: EnforcerState, *ids: str) -> None:
    """Apply chosen chance outcomes, one per id."""
    for cid in ids:
        assert st.current_player() == CHANCE, f"expected a chance node for {cid}"
        st.apply(cid)


def settle(st: EnforcerState) -> None:
    """Resolve pending chance nodes with filler cards (or the first outcome)."""
    while st.current_player() == CHANCE:
        legal = st.legal_actions()
        st.apply(next((c for c in FILLER if c in legal), legal[0]))


def act(st: EnforcerState, *action) -> None:
    st.apply(tuple(action))


def deal_game(rules, players: int = 3, officers=None, hands=None, table=None) -> EnforcerState:
    """A game dealt with the given officers (first of each pair chosen), hands and table."""
    st = rules.new_initial_state(players, random.Random(0))
    officers = officers or DEFAULT_OFFICERS[:players]
    for pair in officers:
        feed(st, *pair)
    for seat, pair in enumerate(officers):
        assert st.current_player() == seat
        act(st, "officer", pair[0])
    hands = hands or {}
    for seat in range(players):
        wanted = list(hands.get(seat, []))
        for _ in range(5):
            if wanted:
                feed(st, wanted.pop(0))
            else:
                legal = st.legal_actions()
                feed(st, next((c for c in FILLER if c in legal), legal[0]))
    feed(st, *(table or QUIET_TABLE))
    if st.phase == "clock_in":
        act(st, "draw")
    settle(st)
    assert st.phase == "period" and st.period == 0 and st.current_player() == 0
    return st


def ids(cards) -> list[str]:
    return [c.card for c in cards]


def pile(st: EnforcerState, name: str) -> list[str]:
    """The card ids of a pile, bottom first."""
    return ids(st.piles.pile(name))


def grab(st: EnforcerState, cid: str, dst: str) -> CardInstance:
    """Move one instance of `cid` from whichever pile holds it onto `dst`."""
    for name in st.piles.names():
        for card in st.piles.pile(name):
            if card.card == cid and name != dst:
                st.piles.move(card, name, dst)
                return card
    raise AssertionError(f"{cid} not found")


def ob(cid: str) -> str:
    return f"{cid}#0"


def on_table(st: EnforcerState, cid: str) -> CardInstance:
    return next(c for c in st.table() if c.card == cid)


def conserved(rules, st: EnforcerState) -> bool:
    seen: Counter = Counter()
    for cards in st.zones().values():
        seen.update(cards)
    return seen == Counter(rules.deck())

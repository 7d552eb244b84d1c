"""Sampled worlds for a search agent: what one seat cannot see in Infiltraitors, dealt afresh.

Hidden from a seat: the suspects on the other stands and the one set aside (unless it looked at
it), the face-down lineup, the deck, the face-down discards, the other hands (in mission 17 its
own hand instead) and the covers of mission 16.  A sample gathers those cards, shuffles them,
and first gives each hinted suspect a card its hints allow (a hint stands upright beside a
suspect it relates to, sideways beside one it does not: the greedy agent's own deduction), then
deals the rest, every pile keeping its size.  A covered suspect's hints are not used (its suit
and number come from two cards).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CardInstance

from . import board
from .board import ASIDE, ASIDE_PILE, DECK, DISCARD_DOWN, LINEUP

if TYPE_CHECKING:
    from .state import InfiltraitorsState


def _places(st: InfiltraitorsState, seat: int) -> tuple[list[tuple[int, str]], list[str]]:
    """(hinted single-suspect places as (target, pile), the other hidden piles)."""
    hands_out = st.mission.has("hands_out")
    hinted: list[tuple[int, str]] = []
    free = [DECK, LINEUP, DISCARD_DOWN]
    for q in range(st.players):
        if q == seat:
            if hands_out:
                free.append(st.hand_piles[q])
            continue
        if not hands_out:
            free.append(st.hand_piles[q])
        covered = st.piles.count(st.cover_piles[q]) > 0
        free.append(st.cover_piles[q])
        if covered or st.piles.count(st.stand_piles[q]) != 1:
            free.append(st.stand_piles[q])
        else:
            hinted.append((q, st.stand_piles[q]))
    if st.piles.count(ASIDE_PILE) == 1 and seat not in st.peeked:
        hinted.append((ASIDE, ASIDE_PILE))
    elif seat not in st.peeked:
        free.append(ASIDE_PILE)
    return hinted, free


def redeal(st: InfiltraitorsState, seat: int, rng: random.Random) -> None:
    """Deal the cards `seat` cannot see afresh, hinted suspects first (see the module docstring)."""
    rules = st.rules
    tables = rules.card_tables
    bit_of: Mapping[Any, int] = tables.bit  # a card outside the tables (none) reads as no identity
    hinted, free = _places(st, seat)
    piles = st.piles
    cards: list[CardInstance] = sorted(c for _, pile in hinted for c in piles.view(pile))
    cards += sorted(c for pile in free for c in piles.view(pile))
    cards.sort()  # canonical: where the cards were leaves no trace
    rng.shuffle(cards)
    sizes = {pile: piles.count(pile) for pile in free}
    deal: list[tuple[CardInstance, str]] = []
    for target, pile in hinted:
        allowed = tables.all_bits
        for card, up in board.hints(st, target):
            bits = tables.relate_bits.get(card.card, 0)
            allowed &= bits if up else ~bits
        pick = next(
            (c for c in cards if allowed & bit_of.get(tables.identity.get(c.card), 0)), cards[0]
        )  # no card fits every hint (only when a hint rule is unknown here): any card
        cards.remove(pick)
        deal.append((pick, pile))
    at = 0
    for pile in free:
        deal += [(card, pile) for card in cards[at : at + sizes[pile]]]
        at += sizes[pile]
    for card, pile in deal:
        piles.move(card, piles.where(card), pile)

"""Sampled worlds for a search agent: what one seat cannot see in League of Hackers, dealt afresh.

Hidden from a seat: the other hands, the deck and the discards, and while the boards are still
face down, which board each other seat chose and the cards under it (only their number shows).
A sample redeals all those cards (each board keeps its number of cards), then gives every other
seat that chose face down a board its cards could have paid for, chosen at random: defend needs
a defence card costing one less than the cards under it, attack an attack card and one more
card, install enough cards for a server of the supply, repair any card.  Boards turned face up
but not yet resolved keep their cards (the engine resolves them within the same step).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance

from . import board
from .board import BoardChoice
from .data import ATTACK, DEFEND, INSTALL, MAX_PAYMENT, REPAIR

if TYPE_CHECKING:
    from .state import HackersState

CHOOSING = ("board", "key", "pay")


def choosing(st: HackersState) -> bool:
    return st.decision is not None and st.decision.kind in CHOOSING


def hidden_groups(st: HackersState, seat: int) -> list[list[str]]:
    others = [q for q in range(st.players) if q != seat]
    boards = [st.board_pile[q] for q in others] if choosing(st) else []
    return [["deck", "discard", *(st.hand_pile[q] for q in others), *boards]]


def fixed_cards(st: HackersState, seat: int) -> frozenset[CardInstance]:
    if choosing(st):
        return frozenset()
    return frozenset(c for q in range(st.players) if q != seat for c in st.piles.view(st.board_pile[q]))


def rechoose(world: HackersState, seat: int, rng: random.Random) -> None:
    """After the redeal: the other seats' face-down choices, drawn afresh from what their cards allow."""
    world.deck_counts = Counter(card.card for card in world.piles.view("deck"))
    if not choosing(world):
        return
    catalogue = world.catalogue
    for q in range(world.players):
        if q == seat or world.choice[q] is None:
            continue
        cards = sorted(world.piles.view(world.board_pile[q]))
        n = len(cards)
        options: list[BoardChoice] = []
        costs = [board.effective_cost(world, q, catalogue.server[c.card]) for c in world.piles.view("supply")]
        if costs and n >= min(costs):
            options.append(BoardChoice(INSTALL, None, n))
        defence = [
            c for c in cards if c.card in catalogue.defence and catalogue.defence[c.card].cost == n - 1
        ]
        if defence:
            key = defence[rng.randrange(len(defence))]
            options.append(BoardChoice(DEFEND, key, n - 1))
        attack = [c for c in cards if c.card in catalogue.attack]
        if attack and 2 <= n <= MAX_PAYMENT + 1:
            key = attack[rng.randrange(len(attack))]
            options.append(BoardChoice(ATTACK, key, n - 1, n - 1))
        if n >= 1 or not options:
            options.append(BoardChoice(REPAIR, None, n))
        world.choice[q] = options[rng.randrange(len(options))]

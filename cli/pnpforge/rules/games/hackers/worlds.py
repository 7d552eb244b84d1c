"""Sampled worlds for a search agent: what one seat cannot see in League of Hackers, dealt afresh.

Hidden from a seat: the other hands, the deck and the discards, and while the boards are still
face down, which board each other seat chose and the cards under it (only their number shows).
A sample redeals all those cards (each board keeps its number of cards), then gives every other
seat that chose face down a board its cards could have paid for, chosen at random: defend needs
a defence card costing one less than the cards under it, attack an attack card and one more
card, install enough cards for a server of the supply, repair any card.  Boards turned face up
show which board each seat chose, but the cards under a board show only when its seat resolves
it: until then they are redealt like a hand, and a defend or attack board gets a key card its
board could have (a defence card costing one less than the cards under it, or an attack card),
taken from the redealt cards when the deal put none there.  Resolved boards' cards stay.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance
from pnpforge.rules.kit.worlds import NoWorld

from . import board
from .board import BoardChoice
from .data import ATTACK, DEFEND, INSTALL, MAX_PAYMENT, REPAIR

if TYPE_CHECKING:
    from .state import HackersState

CHOOSING = ("board", "key", "pay")


def choosing(st: HackersState) -> bool:
    return st.decision is not None and st.decision.kind in CHOOSING


def _covered(st: HackersState, seat: int) -> list[int]:
    """The other seats whose cards under the board `seat` cannot see."""
    hide_all = choosing(st)
    return [q for q in range(st.players) if q != seat and (hide_all or not st.revealed[q])]


def hidden_groups(st: HackersState, seat: int) -> list[list[str]]:
    others = [q for q in range(st.players) if q != seat]
    boards = [st.board_pile[q] for q in _covered(st, seat)]
    return [["deck", "discard", *(st.hand_pile[q] for q in others), *boards]]


def fixed_cards(st: HackersState, seat: int) -> frozenset[CardInstance]:
    covered = _covered(st, seat)
    return frozenset(
        c
        for q in range(st.players)
        if q != seat and q not in covered
        for c in st.piles.view(st.board_pile[q])
    )


def _fits(world: HackersState, choice: BoardChoice, n: int) -> Callable[[CardInstance], bool]:
    catalogue = world.catalogue
    if choice.board == DEFEND:
        return lambda c: c.card in catalogue.defence and catalogue.defence[c.card].cost == n - 1
    return lambda c: c.card in catalogue.attack


def rekey(world: HackersState, seat: int, rng: random.Random) -> None:
    """After the redeal, outside the choosing: a key card for every face-up defend or attack board
    whose cards were redealt (swapped in from the other redealt cards when none landed there)."""
    if choosing(world):
        return
    piles = world.piles
    covered = _covered(world, seat)
    pool = ["deck", "discard", *(world.hand_pile[q] for q in range(world.players) if q != seat)]
    for q in covered:
        choice = world.choice[q]
        if choice is None or choice.board not in (DEFEND, ATTACK):
            continue
        pile = world.board_pile[q]
        fits = _fits(world, choice, piles.count(pile))
        here = sorted(c for c in piles.view(pile) if fits(c))
        if not here:  # swap a fitting card in for a random card of the board
            away = sorted(c for name in pool for c in piles.view(name) if fits(c))
            if not away:
                raise NoWorld(f"no card could be seat {q}'s {choice.board} key")
            card = away[rng.randrange(len(away))]
            under = sorted(piles.view(pile))
            out = under[rng.randrange(len(under))]
            home = piles.where(card)
            piles.move(card, home, pile)
            piles.move(out, pile, home)
            here = [card]
        world.choice[q] = dataclasses.replace(choice, key=here[rng.randrange(len(here))])


def rechoose(world: HackersState, seat: int, rng: random.Random) -> None:
    """After the redeal: the other seats' face-down choices, drawn afresh from what their cards allow."""
    if not choosing(world):
        rekey(world, seat, rng)
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

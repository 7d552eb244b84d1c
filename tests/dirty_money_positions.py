"""Building Dirty Money positions for the rules tests: a real set-up, then cards arranged by hand.

`start` plays the set-up with the first chance outcome everywhere; `fill` / `state.place` then
move chosen cards into place, every card staying in exactly one pile.
"""

from __future__ import annotations

import random
from typing import Any

from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.dirty_money import DirtyMoneyState, board
from pnpforge.store import repo
from pnpforge.store.db import transaction

SLUG = "dirty-money"


def pin(db: Any, card_id: str, **fields: Any) -> None:
    """Set field values on a card of the private database copy."""
    card = repo.get_card(db, SLUG, card_id)
    card.fields.update(fields)
    with transaction(db) as conn:
        repo.update_card(conn, card)


def start(rules: Any, players: int, villains: tuple[str, ...] | None = None) -> DirtyMoneyState:
    """Set-up with the first chance outcome everywhere (villains as asked) up to turn one."""
    s = rules.new_initial_state(players, random.Random(0))
    while s.phase() != "turn" or s.current_player() == CHANCE:
        f = s.stack[-1]
        s.apply(("draw", villains[f.seat]) if f.kind == "deal_villain" and villains else s.legal_actions()[0])
    return s


def fill(s: DirtyMoneyState, zone: str, *card_ids: str) -> None:
    s.clear(zone)
    for cid in card_ids:
        s.place(cid, zone)


def ids(s: DirtyMoneyState, zone: str) -> list[str]:
    return sorted(c.card for c in board.cards(s, zone))


def seat_of(s: DirtyMoneyState, villain: str) -> int:
    return s.villain_of.index(villain)


def finish_turn(s: DirtyMoneyState, go: str | None = None) -> None:
    """Play the current turn declining every option, up to the next player's first decision."""
    turn = next((f for f in reversed(s.stack) if f.kind == "turn"), None)
    if go:
        s.apply(("go", go))
    while not s.is_terminal():
        if not any(f is turn for f in s.stack) and s.phase() == "turn" and s.current_player() != CHANCE:
            return
        legal = s.legal_actions()
        choice = next((a for a in (("done",), ("skip",)) if a in legal), legal[0])
        s.apply(choice)


def ensure_in(s: DirtyMoneyState, zone: str, card_id: str) -> None:
    """Make sure a copy of card_id lies in zone (e.g. so a chance draw can pick it)."""
    if card_id not in ids(s, zone):
        s.place(card_id, zone)


def until_turn_of(s: DirtyMoneyState, seat: int) -> None:
    while s.current_player() != seat:
        finish_turn(s)

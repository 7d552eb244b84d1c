"""Shared set-up for the Infiltraitors engine tests: the shipped cards on a copy of the
database, and positions arranged by moving real cards between piles (so card
conservation holds in every arranged position)."""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path

from pnpforge.rules.engine import CHANCE, CardInstance
from pnpforge.rules.games.infiltraitors import ASIDE, board, make_rules
from pnpforge.rules.games.infiltraitors.board import DECK, LINEUP
from pnpforge.rules.kit import load_game
from pnpforge.store.db import open_db

REPO_DB = Path(__file__).resolve().parents[1] / "cards.db"
ALL_MISSIONS = ["T1", "T2", "T3"] + [f"M{i:02d}" for i in range(1, 21)]


def module_db(tmp_path_factory):
    """A copy of the shipped database for one test module."""
    path = tmp_path_factory.mktemp("infiltraitors") / "cards.db"
    shutil.copy(REPO_DB, path)
    return open_db(path)


def rules_cache(db):
    """`get(mission)`: the rules of a mission, built once per module."""
    cache: dict = {}

    def get(mission: str = "M01"):
        if mission not in cache:
            cache[mission] = make_rules(load_game(db, "infiltraitors"), {"mission": mission})
        return cache[mission]

    return get


def copy_db(tmp_path: Path):
    """A writable copy of the shipped database (the shipped file is never changed)."""
    path = tmp_path / "cards.db"
    shutil.copy(REPO_DB, path)
    return path, open_db(path)


def settle_chance(st, rng: random.Random | None = None) -> None:
    rng = rng or random.Random(1)
    while st.current_player() == CHANCE:
        st.apply(rng.choice(st.legal_actions()))


def fresh(rules, players: int = 3, seed: int = 0):
    """A mission after its set-up deals, with seat 0 to act."""
    st = rules.new_initial_state(players, random.Random(seed))
    settle_chance(st, random.Random(seed))
    return st


def move(st, cid: str, pile: str) -> CardInstance:
    """Move card `cid` (copy 0) from wherever it lies onto `pile`; a hint loses its orientation."""
    card = CardInstance(cid)
    src = st.piles.where(card)
    st.upright.pop(card, None)
    st.piles.move(card, src, pile)
    st.refresh()
    return card


def put_rack(st, seat: int, cid: str) -> None:
    """Stand card `cid` before `seat` as if taken from the centre (the unsolved count stays)."""
    card = CardInstance(cid)
    if board.has_suspect(st, seat):
        st.piles.move_all(st.stand_piles[seat], DECK)
    elif st.piles.where(card) != LINEUP and st.piles.count(LINEUP):
        st.piles.move(st.piles.pile(LINEUP)[-1], LINEUP, DECK)
    move(st, cid, st.stand_piles[seat])


def set_hand(st, seat: int, cids: list[str]) -> None:
    st.piles.move_all(st.hand_piles[seat], DECK)
    for cid in cids:
        move(st, cid, st.hand_piles[seat])


def add_hint(st, target: int, cid: str, up: bool | None = None) -> CardInstance:
    """A hint beside `target`, upright by the rule unless `up` says otherwise."""
    card = move(st, cid, st.hint_piles[target])
    st.upright[card] = board.orientation(st, card, target) if up is None else up
    st.refresh()
    return card


def give_turn(st, seat: int, stage: str = "act") -> None:
    st.turn = st.actor = seat
    st.stage = stage
    st.refresh()


def clear_lineup(st) -> None:
    st.piles.move_all(LINEUP, DECK)
    st.refresh()


def conserved(st, rules) -> bool:
    return Counter(c for z in st.zones().values() for c in z) == Counter(rules.deck())


def pile_ids(st, pile: str) -> list[str]:
    return [c.card for c in st.piles.pile(pile)]


__all__ = ["ALL_MISSIONS", "ASIDE"]

"""Position builders for the League of Hackers engine tests.

Positions are built from a real game (a private copy of cards.db): the helpers
move cards between piles, never create them, so card conservation holds in
every test.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

from pnpforge.rules.engine import CardInstance
from pnpforge.rules.games.hackers import HackersRules, board, make_rules
from pnpforge.rules.games.hackers.data import ServerSpec
from pnpforge.rules.games.hackers.state import HackersState
from pnpforge.rules.kit import load_game
from pnpforge.rules.runner import check_zones
from pnpforge.store.db import open_db


def load(db_path, options=None) -> HackersRules:
    return make_rules(load_game(open_db(db_path), "hackers"), options or {})


def kind(st: HackersState) -> str:
    """What the state waits for ("board", "pay", "place"…), or "none" when it waits for nothing."""
    return st.decision.kind if st.decision else "none"


def fresh(rules: HackersRules, players: int, seed: int = 0) -> HackersState:
    """A dealt game with starting servers, waiting for the first board choice."""
    st = rules.new_initial_state(players, random.Random(seed))
    while kind(st) != "board":
        st.apply(st.legal_actions()[0])
    return st


def grab(st: HackersState, cid: str, dst: str) -> CardInstance:
    """Move one copy of card `cid` from any pile but the servers onto `dst`."""
    for name, cards in st.piles.as_dict().items():
        if name.startswith("servers:"):
            continue
        for card in cards:
            if card.card == cid:
                board.move(st, card, name, dst)
                return card
    raise AssertionError(f"{cid} not found outside the servers")


def put_server(st: HackersState, owner: int, cid: str, damage=None) -> None:
    grab(st, cid, "box")
    board.add_server(st, owner, board.find(st, "box", cid), "box")
    if damage:
        st.servers[owner][-1].damage = list(damage)
        board.servers_changed(st)


def clear_table(st: HackersState) -> None:
    for seat in range(st.players):
        st.piles.move_all(f"hand:{seat}", "box")
    for owner in range(st.owner_count):
        while st.servers[owner]:
            board.remove_server(st, owner, 0)


def position(
    rules, players: int, hands=None, tableau=None, servers=None, supply=None, vp=None, discs=None
) -> HackersState:
    """Rearrange a fresh game into the given position and reopen the current step's choices."""
    st = fresh(rules, players)
    for seat in range(players):
        for card in board.hand(st, seat):
            board.move(st, card, f"hand:{seat}", "deck")
    for owner in range(st.owner_count):
        while st.servers[owner]:
            board.remove_server(st, owner, 0)
    if supply is not None:
        st.piles.move_all("supply", "box")
        for cid in supply:
            grab(st, cid, "supply")
    for seat, ids in (hands or {}).items():
        for cid in ids:
            grab(st, cid, f"hand:{seat}")
    for seat, ids in (tableau or {}).items():
        for cid in ids:
            grab(st, cid, f"tableau:{seat}")
    for owner, specs in (servers or {}).items():
        for cid, damage in specs:
            put_server(st, owner, cid, damage)
    if vp:
        st.vp = list(vp)
    if discs:
        st.disc_height = list(discs)
    st.jobs.clear()
    st.decision = None
    st.jobs.append(("select",))
    st.advance()
    return st


def play(st: HackersState, *actions) -> None:
    for action in actions:
        assert action in st.legal_actions(), f"{action} not legal at {kind(st)}: {st.legal_actions()}"
        st.apply(action)


def pay_first(st: HackersState, decision: str = "pay") -> None:
    while not st.is_terminal() and kind(st) == decision:
        st.apply(st.legal_actions()[0])


def resolve_passively(st: HackersState) -> None:
    """Take the first option at every resolution decision until a new choice begins."""
    while not st.is_terminal() and kind(st) not in ("board", "draw"):
        st.apply(st.legal_actions()[0])


def servers_with(rules, pred: Callable[[ServerSpec], bool], n: int = 1) -> list[str]:
    ids = [sid for sid, spec in sorted(rules.catalogue.server.items()) if pred(spec)]
    assert len(ids) >= n, "the database has too few servers for this test"
    return ids[:n]


def defence_summing(rules, colour: str, total: int, avoid=()) -> list[str]:
    """Defence cards adding exactly `total` to `colour` (from the database's values)."""
    cands = [
        d
        for d in sorted(rules.catalogue.defence.values(), key=lambda d: d.id)
        if (d.colour == colour or d.effect == "deep_security") and d.effect not in avoid
    ]
    for k in range(1, 5):
        for combo in itertools.combinations(cands, k):
            if sum(d.defence for d in combo) == total:
                return [d.id for d in combo]
    raise AssertionError(f"no defence cards add up to {total} in {colour}")


def plain_attacks(rules, n: int, exclude=()) -> list[str]:
    return [a for a in sorted(rules.catalogue.attack) if a not in exclude][:n]


def colour_damage(st: HackersState, owner: int, colour: str) -> int:
    return sum(sv.damage[h] for sv in st.servers[owner] for h, c in enumerate(sv.spec.holes) if c == colour)


def test_positions_conserve_every_card(shipped_db):
    rules = load(shipped_db)
    st = position(
        rules,
        3,
        hands={0: plain_attacks(rules, 3)},
        tableau={1: ["D-05G"]},
        servers={0: [("S-01", None)], 2: [("S-14", [1, 0, 0])]},
    )
    check_zones(st, Counter(rules.deck()))
    assert [sv.card.card for sv in st.servers[2]] == ["S-14"]
    assert kind(st) == "board" and st.current_player() == 0

"""Dealing, set-up, the secret choice of boards and payments, and the install and defend actions.

Boards are chosen face down and at the same time; the engine serialises the
choice (seats choose one after another) and each seat's observation hides
what earlier seats put down.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CHANCE, CardInstance

from . import board
from .board import BoardChoice, Decision
from .data import ATTACK, DEFEND, HAND_SIZE, INSTALL, MAX_PAYMENT, REPAIR

if TYPE_CHECKING:
    from .state import HackersState


# -- dealing (chance) ------------------------------------------------------------------------
# rulebook 002:57 「所有玩家從牌堆抽８張牌。」
def _job_deal(st: HackersState) -> None:
    st.to_draw = deque(seat for _ in range(HAND_SIZE) for seat in range(st.players))
    if st.round_no == 1:  # the optional rule: extra cards for less experienced players
        st.to_draw.extend(seat for seat in range(st.players) for _ in range(st.handicap[seat]))
    _next_draw(st)


def _next_draw(st: HackersState) -> None:
    if not st.to_draw:
        return
    if not st.piles.count("deck") and st.piles.count("discard"):
        st.piles.move_all("discard", "deck")  # reshuffled: draws stay random
        st.outcome(None, "the discard pile is shuffled into a new deck")
    if not st.piles.count("deck"):
        st.to_draw.clear()
        return
    counts = st.piles.id_counts("deck")
    board.decide(st, "draw", CHANCE, [("draw", cid) for cid in st.deck_ids if counts[cid]])


def _on_draw(st: HackersState, decision: Decision, action: tuple) -> None:
    seat = st.to_draw.popleft()
    board.move(st, board.find(st, "deck", action[1]), "deck", st.hand_pile[seat])
    _next_draw(st)


# rulebook 002:74 「在遊戲開始前必須將手牌棄到８張為止。」
def _job_handicap(st: HackersState) -> None:
    """Seats that drew extra cards discard back to eight; the discards go back into the deck."""
    board.push(st, *[("trim", seat) for seat in range(st.players) if st.handicap[seat]])


def _job_trim(st: HackersState, seat: int) -> None:
    if st.piles.count(st.hand_pile[seat]) > HAND_SIZE:
        board.decide(st, "discard", seat, [("discard", cid) for cid in _hand_ids(st, seat)])


def _on_discard(st: HackersState, decision: Decision, action: tuple) -> None:
    board.move(
        st, board.find(st, st.hand_pile[decision.seat], action[1]), st.hand_pile[decision.seat], "deck"
    )
    _job_trim(st, decision.seat)


def _hand_ids(st: HackersState, seat: int) -> list[str]:
    return sorted({card.card for card in st.piles.pile(st.hand_pile[seat])})


# -- set-up: starting servers ----------------------------------------------------------------
# rulebook 002:63 「由駭客資歷最資淺的玩家開始順時鐘進行，選擇一張伺服器」
def _job_setup(st: HackersState) -> None:
    picks = []
    for seat in range(st.players):
        picks.append(("setup_pick", seat, False))
        if st.has_virtual:
            picks.append(("setup_pick", seat, True))
    board.push(st, *picks)


def _job_setup_pick(st: HackersState, seat: int, for_virtual: bool) -> None:
    if st.piles.count("supply"):
        board.decide(st, "setup", seat, _server_actions(board.supply_ids(st)), virtual=for_virtual)


def _on_setup(st: HackersState, decision: Decision, action: tuple) -> None:
    owner = st.virtual_owner if decision.data["virtual"] else decision.seat
    board.add_server(st, owner, board.find(st, "supply", action[1]), "supply")
    if decision.data["virtual"]:
        st.outcome(decision.seat, "picked as the virtual player's starting server", action[1])
    else:
        st.used(owner, action[1], "installed at set-up")


# -- choosing actions (serialised secret choice) ---------------------------------------------
# rulebook 002:86 「每回合所有玩家將會同時選擇並執行至多５次行動。」
# rulebook 002:278 「每回合只能執行四次行動，伺服器卡數量上限改為４張。」
def _job_select(st: HackersState) -> None:
    seats = [seat for seat in range(st.players) if st.piles.count(st.hand_pile[seat])]
    if st.action_no > st.action_limit or not seats:
        board.push(st, ("round_end",))
        return
    board.push(st, *[("choose", seat) for seat in seats], ("reveal",))


# rulebook 002:151 「若展示區無牌不可選擇此行動。」
def boards_open(st: HackersState, seat: int) -> list[tuple]:
    """The boards `seat` can afford: install needs a supply, defend and attack a key card."""
    hand = st.piles.pile(st.hand_pile[seat])
    catalogue = st.catalogue
    supply = st.piles.pile("supply")
    out = []
    if supply and len(hand) >= min(board.effective_cost(st, seat, catalogue.server[c.card]) for c in supply):
        out.append(("board", INSTALL))
    if any(c.card in catalogue.defence and catalogue.defence[c.card].cost <= len(hand) - 1 for c in hand):
        out.append(("board", DEFEND))
    if len(hand) >= 2 and any(c.card in catalogue.attack for c in hand):
        out.append(("board", ATTACK))
    out.append(("board", REPAIR))
    return out


def _job_choose(st: HackersState, seat: int) -> None:
    board.decide(st, "board", seat, boards_open(st, seat))


def _on_board(st: HackersState, decision: Decision, action: tuple) -> None:
    seat, picked = decision.seat, action[1]
    hand = st.piles.pile(st.hand_pile[seat])
    catalogue = st.catalogue
    st.choice[seat] = BoardChoice(picked)
    if picked == INSTALL:
        costs = [board.effective_cost(st, seat, catalogue.server[c.card]) for c in st.piles.pile("supply")]
        acts: list[tuple] = [("amount", n) for n in range(min(costs), min(len(hand), max(costs)) + 1)]
    elif picked == DEFEND:
        ids = {
            c.card
            for c in hand
            if c.card in catalogue.defence and catalogue.defence[c.card].cost <= len(hand) - 1
        }
        acts = [("defence", cid) for cid in sorted(ids)]
    elif picked == ATTACK:
        ids = {c.card for c in hand if c.card in catalogue.attack}
        acts = [
            ("attack", cid, pay)
            for cid in sorted(ids)
            for pay in range(1, min(MAX_PAYMENT, len(hand) - 1) + 1)
        ]
    else:
        acts = [("amount", n) for n in range(1, len(hand) + 1)]
    board.decide(st, "key", seat, acts)


def _on_key(st: HackersState, decision: Decision, action: tuple) -> None:
    seat = decision.seat
    choice = board.chosen(st, seat)
    if action[0] == "amount":
        choice.pay = action[1]
    else:
        key = board.find(st, st.hand_pile[seat], action[1])
        board.move(st, key, st.hand_pile[seat], st.board_pile[seat])
        choice.key = key
        if action[0] == "defence":
            choice.pay = st.catalogue.defence[key.card].cost
        else:
            choice.pay = choice.pay_option = action[2]
    _ask_payment(st, seat)


def _ask_payment(st: HackersState, seat: int) -> None:
    choice = board.chosen(st, seat)
    paid = st.piles.count(st.board_pile[seat]) - (1 if choice.key is not None else 0)
    left = choice.pay - paid
    hand_size = st.piles.count(st.hand_pile[seat])
    if left <= 0:
        return
    if left >= hand_size:  # no choice: every card goes
        st.piles.move_all(st.hand_pile[seat], st.board_pile[seat])
        return
    board.decide(st, "pay", seat, [("pay", cid) for cid in _hand_ids(st, seat)])


def _on_pay(st: HackersState, decision: Decision, action: tuple) -> None:
    seat = decision.seat
    board.move(st, board.find(st, st.hand_pile[seat], action[1]), st.hand_pile[seat], st.board_pile[seat])
    _ask_payment(st, seat)


# rulebook 002:127 「當所有玩家決定行動後，翻開所有指令板並且依序結算：」
def _job_reveal(st: HackersState) -> None:
    chosen = [seat for seat in range(st.players) if st.choice[seat] is not None]
    by_board = {b: [s for s in chosen if board.chosen(st, s).board == b] for b in range(4)}
    jobs: list[tuple] = [("install", seat) for seat in board.priority(st, by_board[INSTALL])]
    jobs += [("defend", seat) for seat in by_board[DEFEND]]
    if by_board[ATTACK]:
        jobs.append(("attack_phase", tuple(by_board[ATTACK])))
    jobs += [("repair", seat) for seat in by_board[REPAIR]]
    jobs.append(("step_end",))
    board.push(st, *jobs)


# -- I install -------------------------------------------------------------------------------
# rulebook 002:145 「將費用支付到棄牌堆，並從供應區選擇一張伺服器卡放到」
# rulebook 002:149 「伺服器卡買走，將費用卡片回收到手上。」
def _job_install(st: HackersState, seat: int) -> None:
    st.revealed[seat] = True
    paid = st.piles.count(st.board_pile[seat])
    affordable = [
        c
        for c in st.piles.pile("supply")
        if board.effective_cost(st, seat, st.catalogue.server[c.card]) <= paid
    ]
    if not affordable:  # supply bought out (or priced out): cards back to hand
        st.piles.move_all(st.board_pile[seat], st.hand_pile[seat])
        st.outcome(seat, "install failed: no affordable server left in the supply, payment back to hand")
        return
    board.decide(st, "buy", seat, _server_actions(sorted({c.card for c in affordable})))


def _on_buy(st: HackersState, decision: Decision, action: tuple) -> None:
    seat = decision.seat
    card = board.find(st, "supply", action[1])
    spec = st.catalogue.server[card.card]
    paid = st.piles.count(st.board_pile[seat])
    need = max(0, spec.cost - paid)
    for tableau_card in sorted(st.piles.pile(st.tableau_pile[seat]), key=str):
        if (
            need
            and st.catalogue.defence[tableau_card.card].effect == "thin_provision"
            and tableau_card not in st.tapped
        ):
            board.tap(st, tableau_card)
            st.outcome(seat, "Thin Provision tapped: one card less to pay", tableau_card.card)
            need -= 1
    board.discard_board(st, seat)
    caches = board.count_effect(st, seat, "solid_state_cache")
    st.installs.append((seat, caches))
    board.gain(st, seat, caches, "Solid State Cache: server installed")
    st.used(seat, card.card, f"installed for {paid} card(s)")
    st.outcome(seat, f"installed server {card.card} (cost {spec.cost}, paid {paid})", card.card)
    _install(st, seat, card, chooser=seat)
    board.push(st, ("virtual_check", seat))


def _install(st: HackersState, owner: int, card: CardInstance, chooser: int) -> None:
    board.add_server(st, owner, card, "supply")
    if len(st.servers[owner]) > st.server_limit:
        kind = "vscrap" if owner == st.virtual_owner else "scrap"
        board.decide(
            st, kind, chooser, [("scrap", k) for k in range(len(st.servers[owner]) - 1)], owner=owner
        )


# rulebook 002:153 「每位玩家面前至多只能擁有５張伺服器卡。若購買了第六」
# rulebook 002:155 「張，必須移除一張原有的伺服器卡，計算上面的傷害數量，並」
def _on_scrap(st: HackersState, decision: Decision, action: tuple) -> None:
    owner = decision.data["owner"]
    old = board.remove_server(st, owner, action[1])
    new = st.servers[owner][-1]
    moved = sum(old.damage)
    st.outcome(
        None if owner == st.virtual_owner else owner,
        f"server {old.card.card} of {board.owner_name(st, owner)} goes back to the box, "
        f"its {moved} damage moves to {new.card.card}",
        old.card.card,
    )
    if moved:
        refs = tuple((len(st.servers[owner]) - 1, h) for h in range(len(new.damage)))
        board.push(st, ("place", owner, refs, moved))


# rulebook 002:280 「一位玩家，本回合等級的伺服器張數超越虛擬玩家擁有的張數，」
# rulebook 002:282 「則虛擬玩家立即獲得一張伺服器卡片，由另一位玩家挑選。」
def _job_virtual_check(st: HackersState, seat: int) -> None:
    """Two players: the virtual player keeps up with the current level's servers."""
    if not st.has_virtual or not st.piles.count("supply"):
        return
    level = st.round_no
    mine = sum(1 for sv in st.servers[seat] if sv.spec.level == level)
    theirs = sum(1 for sv in st.servers[st.virtual_owner] if sv.spec.level == level)
    if mine > theirs:
        board.decide(st, "vpick", 1 - seat, _server_actions(board.supply_ids(st)))


def _on_vpick(st: HackersState, decision: Decision, action: tuple) -> None:
    st.outcome(decision.seat, "given to the virtual player", action[1])
    _install(st, st.virtual_owner, board.find(st, "supply", action[1]), chooser=decision.seat)


# -- II defend -------------------------------------------------------------------------------
# rulebook 002:163 「展示一張防禦卡，將費用支付到棄牌堆後將防禦卡放到自」
def _job_defend(st: HackersState, seat: int) -> None:
    st.revealed[seat] = True
    key = board.chosen(st, seat).key
    assert key is not None
    board.move(st, key, st.board_pile[seat], st.tableau_pile[seat])
    st.used(seat, key.card, "put into play in front of its owner")
    board.discard_board(st, seat)


def _server_actions(ids: list[str]) -> list[tuple]:
    return [("server", cid) for cid in ids]

"""Buying placement cards: choose cards of one region, pay in its currency, no change given.

A purchase is one `buy` step whose data holds the chosen group (pile, card id, instance),
the money cards paid so far and their value; cards bought together are paid together
(执行地点动作: three $5 buy a $7 and an $8 at once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pnpforge.rules.games.dirty_money import board
from pnpforge.rules.games.dirty_money.board import AUTO, Action, Step
from pnpforge.rules.games.dirty_money.data import CRYPTO, REGION_CURRENCY, Placement, Villain
from pnpforge.rules.games.dirty_money.memo import READOUTS

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState


def _group_cards(st: DirtyMoneyState, step: Step) -> list[Placement]:
    return [st.rules.placements[card_id] for _pile, card_id, _inst in step.data["group"]]


def due(st: DirtyMoneyState, seat: int, cards: list[Placement]) -> int:
    """Total price of cards bought in this order (crypto exchanges bought first count)."""
    return _due([pl for _c, pl in board._owned(st, seat, "crypto_exchange")], cards)


def _group_due(st: DirtyMoneyState, step: Step, group: list[Placement]) -> int:
    """`due` of the open purchase, kept while neither its chosen cards (a list that only grows
    until it is replaced) nor the seat's exchanges change: every payment decision asks it."""
    owned = board._owned(st, step.seat, "crypto_exchange")
    chosen = step.data["group"]
    readouts = READOUTS(st)
    known = readouts.due_of
    if known is None or known[0] is not owned or known[1] is not chosen or known[2] != len(chosen):
        known = readouts.due_of = (owned, chosen, len(chosen), due(st, step.seat, group))
    return known[3]


# rulebook 001:213 「如果玩家拥有加密货币交易所，他从该地点购买任何的处置卡时，只需少付 \$1。」
def _due(exchanges: list[Placement], cards: list[Placement]) -> int:
    """`due` given the crypto exchanges already owned."""
    owned = list(exchanges)
    total = 0
    for pl in cards:
        discount = sum(x.value for x in owned if x.region == pl.region)
        total += max(0, pl.cost - discount)
        if pl.effect == "crypto_exchange":
            owned.append(pl)
    return total


def pay_value(st: DirtyMoneyState, seat: int, card_id: str, currency: str) -> int:
    return _pay_values(st, seat, currency)[card_id]


def _pay_values(st: DirtyMoneyState, seat: int, currency: str) -> Mapping[str, int]:
    """Card id -> what it pays toward a price in `currency` for this seat (read only)."""
    return st.rules.pay_values(st.villain_of[seat] or "", currency)


# rulebook 001:291 「玩家可以将任何货币卡用作任何货币的 \$2。每回合只能使用此能力一次。」
def _shark_free(st: DirtyMoneyState, seat: int) -> Villain | None:
    shark = board._has(st, seat, "loan_shark")
    return shark if shark and not st.shark_used else None


def _shark_value(st: DirtyMoneyState, seat: int) -> int:
    shark = board._has(st, seat, "loan_shark")
    return shark.value if shark else 0


def max_payable(st: DirtyMoneyState, seat: int, hand: Sequence[str], currency: str, shark: bool) -> int:
    """The most `hand` pays toward a price in `currency`: every card, and with the Loan Shark's
    free payment its lowest card counted at the Shark's value instead when that is more."""
    if not hand:
        return 0
    key = (seat, currency, shark)
    payable_of = READOUTS(st).payable_of
    known = payable_of.get(key)
    if known is not None and known[0] is hand:  # the same read-out: the hand has not moved
        return known[1]
    values = list(map(_pay_values(st, seat, currency).__getitem__, hand))
    total = sum(values)
    if shark:
        total += max(0, _shark_value(st, seat) - min(values))
    payable_of[key] = (hand, total)
    return total


def actor_buy(st: DirtyMoneyState, step: Step) -> int:
    return step.seat


# rulebook 001:134 「使用相应的货币卡购买 1 或 2 张处置卡」
def legal_buy(st: DirtyMoneyState, step: Step) -> list[Action]:
    """Picks (each card id once), payments and settling, or being done; unsorted: the state
    sorts every decision's actions."""
    group = _group_cards(st, step) if step.data["group"] else []
    hand = st.piles.ids(st.names.hands[step.seat])  # the kit's cached read-out: read only
    if step.data["paid"]:  # paying has begun: no more picks
        return _legal_payments(st, step, group, hand)
    picks = _legal_picks(st, step, group, hand)
    if not group:
        picks.append(("done",))
        return picks
    return picks + _legal_payments(st, step, group, hand)


def _legal_picks(
    st: DirtyMoneyState, step: Step, group: list[Placement], hand: Sequence[str]
) -> list[Action]:
    """Cards that could join the purchase: same region, and the hand can still pay for all.

    A buy step is a quarter of a game's decisions and may look over every card on sale, so
    the group's own price is worked out once: a card joining it costs that plus its own price
    after the discounts the seat and the group then hold (what `_due` of the longer group is).
    """
    seat, data = step.seat, step.data
    if data["paid"] or data["bought"] + len(group) >= data["max"]:
        return []
    shark = bool(_shark_free(st, seat))
    exchanges = board._owned(st, seat, "crypto_exchange")
    owned = [pl for _c, pl in exchanges] if exchanges else []
    region = None
    group_due = 0
    if group:  # cards chosen already: their price, their region, their exchanges
        group_due = _due(owned, group)
        owned += [pl for pl in group if pl.effect == "crypto_exchange"]
        region = group[0].region
    on_sale = st.rules.on_sale  # card id -> (region, currency, price before discounts)
    budget: dict[str, int] = {}  # most the hand can pay, per currency
    discount: dict[str, int] = {}  # what the exchanges then owned take off, per region
    picks: list[Action] = []
    for card_id in _on_sale(st, data):  # each card id once: two copies on sale are one action
        card_region, currency, cost = on_sale[card_id]
        if region is not None and card_region != region:
            continue
        most = budget.get(currency)
        if most is None:
            most = budget[currency] = max_payable(st, seat, hand, currency, shark)
        if owned:
            if card_region not in discount:
                discount[card_region] = sum(x.value for x in owned if x.region == card_region)
            cost = max(0, cost - discount[card_region])
        if most >= group_due + cost:
            picks.append(("pick", card_id))
    return picks


def _on_sale(st: DirtyMoneyState, data: dict[str, Any]) -> set[str]:
    """The card ids of the purchase's sources not yet chosen for it (a copy chosen leaves its
    twin on sale)."""
    ids = st.piles.ids
    if not data["group"]:  # nothing chosen yet: the piles' kept id read-outs, merged in C
        return set().union(*map(ids, data["sources"]))
    picked = {inst for _pile, _card, inst in data["group"]}
    return {
        inst.card for pile in data["sources"] for inst in board.cards(st, pile) if str(inst) not in picked
    }


def _legal_payments(
    st: DirtyMoneyState, step: Step, group: list[Placement], hand: Sequence[str]
) -> list[Action]:
    """Money cards worth paying (the rest of the hand can still cover the price), and settling."""
    seat, data = step.seat, step.data
    need = _group_due(st, step, group)
    paid_now = data["value"]
    payments: list[Action] = []
    if hand:
        shark = _shark_free(st, seat)
        pays = _pay_values(st, seat, REGION_CURRENCY[group[0].region])
        if not shark:
            # Without the Loan Shark a card paid and the rest of the hand pay the whole hand's
            # worth (no card pays below 0: the card readers refuse it), so every card worth
            # something is worth paying, or none is.
            if paid_now + sum(map(pays.__getitem__, hand)) >= need:
                payments = [("pay", card_id, 0) for card_id in sorted(set(hand)) if pays[card_id] > 0]
            if paid_now >= need:
                payments.append(("settle",))
            return payments
        shark_value = shark.value
        values = sorted(map(pays.__getitem__, hand))
        total, low = sum(values), values[0]
        second = values[1] if len(values) > 1 else None
        for card_id in sorted(set(hand)):
            own = pays[card_id]
            # The rest of the hand after paying this card: its total and its smallest value.
            rest_total = total - own
            if own > 0:
                rest_pays = rest_total
                rest_min = second if low == own else low
                if shark and rest_min is not None:
                    rest_pays += max(0, shark_value - rest_min)
                if paid_now + own >= need or paid_now + own + rest_pays >= need:
                    payments.append(("pay", card_id, 0))
            if shark and shark_value > 0:
                if paid_now + shark_value >= need or paid_now + shark_value + rest_total >= need:
                    payments.append(("pay", card_id, 1))
    if paid_now >= need:
        payments.append(("settle",))
    return payments


def apply_buy(st: DirtyMoneyState, step: Step, action: tuple[Any, ...]) -> None:
    seat, data = step.seat, step.data
    kind = action[0]
    if kind == "done":
        board._pop(st, step)
    elif kind == "pick":
        card_id = action[1]
        picked = {inst for _pile, _card, inst in data["group"]}
        for pile in data["sources"]:  # the first copy on sale not already chosen
            for c in board.cards(st, pile):
                if c.card == card_id and (not picked or str(c) not in picked):
                    data["group"].append((pile, card_id, str(c)))
                    return
    elif kind == "pay":
        _kind, card_id, use_shark = action
        region = st.rules.placements[data["group"][0][1]].region  # the purchase's region
        inst = board._first(st, f"hand:{seat}", card_id)
        board._move(st, inst, f"hand:{seat}", "payment")
        data["paid"].append(str(inst))
        if use_shark:
            st.shark_used = True
            data["value"] += _shark_value(st, seat)
            shark = st.villain_of[seat] or ""
            st.used(seat, shark, f"pays with {board.name(st, card_id)} as ${_shark_value(st, seat)}")
        else:
            data["value"] += pay_value(st, seat, card_id, REGION_CURRENCY[region])
    else:
        _settle(st, step)


# rulebook 001:134 「如果支付了额外的货币卡，将不会得到任何找零。」
# rulebook 001:261 「如果玩家多付了 \$2 或更多购买处置卡，则可以将一张弃卡放置在恶棍卡左侧的多付插槽中。」
def _settle(st: DirtyMoneyState, step: Step) -> None:
    """Pay (no change), the 贪污鼠's overpay slot, then each card in purchase order."""
    seat, data = step.seat, step.data
    group = list(data["group"])
    overpaid = data["value"] - due(st, seat, _group_cards(st, step))
    paid = set(data["paid"])
    bought = ", ".join(board.name(st, card_id) for _pile, card_id, _inst in group)
    fox = board._has(st, seat, "crypto_fox")
    payment = [c for c in board.cards(st, "payment") if str(c) in paid]
    if len(payment) == len(board.cards(st, "payment")):
        board._move_all(st, "payment", "discard")  # the usual case: the same order as one by one
    else:
        for inst in payment:
            board._move(st, inst, "payment", "discard")
    for inst in payment:
        st.used(seat, inst.card, f"paid toward {bought}")
        if fox and st.rules.money[inst.card].currency == CRYPTO:
            st.used(seat, fox.id, f"pays {board.name(st, inst.card)} as ${fox.value}")
    data["bought"] += len(group)
    data["group"], data["paid"], data["value"] = [], [], 0
    if data["bought"] >= data["max"]:
        board._pop(st, step)
    board._push_seq(
        st, [Step("acquire", seat=seat, data={"pile": pile, "card": inst}) for pile, _c, inst in group]
    )
    embezzler = board._has(st, seat, "embezzler")
    if embezzler and overpaid >= embezzler.value:
        board._marker(st, f"overpay:{seat}")
        st.used(seat, embezzler.id, f"overpays by ${overpaid}: a card goes to the overpay slot")


def actor_acquire(st: DirtyMoneyState, step: Step) -> int:
    return AUTO


# rulebook 001:207 「每当玩家购买该地点的处置卡时，将一张弃卡放入该卡下面。」
# rulebook 001:195 「玩家拥有的每个艺术画廊可以让玩家在购买任何艺术品后立即抽取一张货币卡。」
def apply_acquire(st: DirtyMoneyState, step: Step, action: None) -> None:
    """The bought card joins the tableau; casinos and galleries already owned react."""
    seat = step.seat
    board._pop(st, step)
    pile = step.data["pile"]
    inst = next(c for c in board.cards(st, pile) if str(c) == step.data["card"])
    bought = st.rules.placements[inst.card]
    casinos = [c for c, casino in board._owned(st, seat, "casino") if casino.region == bought.region]
    galleries = board._owned(st, seat, "art_gallery") if bought.effect == "art" else []
    board._move(st, inst, pile, f"tableau:{seat}")
    board._joined_tableau(st, seat, inst, bought)
    st.used(seat, inst.card, f"buys {bought.name} ({bought.region}, cost {bought.cost})")
    if pile == "bear":
        bear = board._has(st, seat, "wall_street_bear")
        st.used(seat, bear.id if bear else "", "buys a card it set aside at the Banana Republic")
    for casino_card in casinos:
        board._marker(st, f"under:{casino_card}")
        st.outcome(seat, f"{board.name(st, casino_card.card)} takes a discard under it", casino_card.card)
    for _c, gallery in galleries:
        st.stack += [
            Step("draw_money", seat=seat, data={"dest": f"hand:{seat}", "mode": "gallery"})
            for _ in range(gallery.value)
        ]

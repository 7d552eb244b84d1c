"""Action cards (动作卡: inspections, audits, trade, bribe) and the Launderer's end-of-turn wash."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games.dirty_money import board
from pnpforge.rules.games.dirty_money.board import AUTO, Action, Step
from pnpforge.rules.games.dirty_money.data import Money

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState


# Which placement cards take a discard after an action card of each effect resolves.
FIRM_FOR_EFFECT = {
    "inspect_neighbours": "law_firm",
    "inspect_one": "law_firm",
    "audit_most_dirty": "accounting_firm",
    "audit_threshold": "accounting_firm",
}


def actor_resolve_actions(st: DirtyMoneyState, step: Step) -> int:
    return step.seat if board.cards(st, f"pending:{step.seat}") else AUTO


# rulebook 001:110 「玩家可以选择执行顺序，但是必须先解决一张动作卡，然后再执行下一张。」
def legal_resolve_actions(st: DirtyMoneyState, step: Step) -> list[Action]:
    return [("resolve", card_id) for card_id in board._ids(st, f"pending:{step.seat}")]


def apply_resolve_actions(st: DirtyMoneyState, step: Step, action: tuple[Any, ...] | None) -> None:
    if action is None:
        board._pop(st, step)
        return
    inst = board._first(st, f"pending:{step.seat}", action[1])
    board._move(st, inst, f"pending:{step.seat}", "resolving")
    st.stack.append(Step("resolve_card", seat=step.seat, data={"card": str(inst), "id": inst.card}))


TRADING = 2  # a trade's stage once the seat has chosen whom to trade with and looks at that hand


def actor_resolve_card(st: DirtyMoneyState, step: Step) -> int:
    effect = st.rules.money[step.data["id"]].effect
    if (step.stage == 0 and effect in ("inspect_one", "trade")) or step.stage == TRADING:
        return step.seat
    return AUTO


def legal_resolve_card(st: DirtyMoneyState, step: Step) -> list[Action]:
    seat = step.seat
    if st.rules.money[step.data["id"]].effect == "inspect_one":
        return [("target", q) for q in board._others(st, seat)]
    if step.stage == 0:  # 交易: first choose a player, only then look at its money cards
        return [("trade_with", q) for q in board._others(st, seat)]
    q = step.data["with"]
    mine, theirs = board._ids(st, f"hand:{seat}"), board._ids(st, f"hand:{q}")
    if mine and theirs:
        return [("trade", q, take, give) for take in theirs for give in mine]
    return [("trade", q, "", "")]  # look only (交易: no cards to give)


def apply_resolve_card(st: DirtyMoneyState, step: Step, action: tuple[Any, ...] | None) -> None:
    card = st.rules.money[step.data["id"]]
    seat = step.seat
    if step.stage == 1:
        _finish_action(st, step, card)
        return
    if card.effect == "trade" and step.stage == 0:
        assert action is not None
        step.data["with"] = action[1]
        step.stage = TRADING
        return
    step.stage = 1
    effect = card.effect
    if effect == "bribe":
        dropped = board._drop_blacklist(st, seat)
        words = "drops a blacklist card" if dropped else "has no blacklist card to drop"
        st.outcome(seat, f"{card.name}: {words}", card.id)
    elif effect in ("audit_most_dirty", "audit_threshold"):
        _audit(st, seat, card)
    elif effect == "inspect_neighbours":
        board._push_seq(
            st,
            [
                Step("inspect", seat=seat, data={"target": q, "left": count, "seen": []})
                for q, count in _neighbour_targets(st, seat, card.amount)
            ],
        )
    elif effect == "inspect_one":
        assert action is not None
        st.stack.append(
            Step("inspect", seat=seat, data={"target": action[1], "left": card.amount, "seen": []})
        )
    elif effect == "trade":
        assert action is not None
        _trade(st, seat, action)
    if st.stack[-1] is step:  # nothing pushed above it (no inspection, no marker to draw)
        _finish_action(st, step, card)


# rulebook 001:231 「每当执行检查时，将一张弃卡插入律师事务所卡下。」
# rulebook 001:201 「执行审计动作后，立即将一张弃卡放在会计师事务所卡下面。」
def _finish_action(st: DirtyMoneyState, step: Step, card: Money) -> None:
    """Discard the resolved card; law / accounting firms take their discard."""
    seat = step.seat
    board._pop(st, step)
    inst = next(c for c in board.cards(st, "resolving") if str(c) == step.data["card"])
    board._move(st, inst, "resolving", "discard")
    st.used(seat, card.id, f"resolves {card.name}")
    st.stack += board._hand_limit_step(st, seat)  # a firm's marker below goes under it, not to the hand
    firm = FIRM_FOR_EFFECT.get(card.effect)
    if firm:
        for firm_card, placement in board._owned(st, seat, firm):
            board._marker(st, f"under:{firm_card}")
            st.outcome(seat, f"{placement.name} takes a discard under it", placement.id)


# rulebook 001:114 「在 2 人游戏中使用“检查左右玩家”时，请抽取 2 张货币卡而不是 1 张。」
def _neighbour_targets(st: DirtyMoneyState, seat: int, amount: int) -> list[tuple[int, int]]:
    """检查左右玩家: one card from each neighbour; 2 players: two from the opponent."""
    left, right = (seat - 1) % st.players, (seat + 1) % st.players
    if left == right:
        return [(left, amount * 2)]
    return [(left, amount), (right, amount)]


# rulebook 001:118 「任何达到审核卡上指定要求的玩家必须将一张弃卡放置黑名单上。」
def _audit(st: DirtyMoneyState, seat: int, card: Money) -> None:
    others = board._others(st, seat)
    dirt = {q: board.dirt(st, q) for q in others}
    if card.effect == "audit_most_dirty":
        top = max(dirt.values())
        caught = [q for q in others if top >= 1 and dirt[q] == top]
    else:
        caught = [q for q in others if dirt[q] >= card.amount]
    for q in caught:
        board._marker(st, f"blacklist:{q}")
        st.outcome(q, f"{card.name} by seat {seat}: {dirt[q]} dirty in hand, one blacklist card", card.id)
    if not caught:
        st.outcome(seat, f"{card.name} catches nobody", card.id)


# rulebook 001:122 「从该玩家手中拿出所选的货币卡，然后从你的手中给该玩家所选择的一张货币卡。」
def _trade(st: DirtyMoneyState, seat: int, action: tuple[Any, ...]) -> None:
    _kind, other, take, give = action
    if not take:
        return
    give_inst = board._first(st, f"hand:{seat}", give)
    take_inst = board._first(st, f"hand:{other}", take)
    board._move(st, give_inst, f"hand:{seat}", f"hand:{other}")
    board._move(st, take_inst, f"hand:{other}", f"hand:{seat}")
    st.outcome(seat, f"trades {board.name(st, give)} for {board.name(st, take)} from seat {other}", take)


def actor_inspect(st: DirtyMoneyState, step: Step) -> int:
    return CHANCE if step.data["left"] > 0 and board._chance_weights(st, step) else AUTO


def legal_inspect(st: DirtyMoneyState, step: Step) -> list[Action]:
    return board._legal_chance(st, step)


# rulebook 001:114 「如果选择的卡上有黑钱符号 ，将此卡收纳入手中，并向其玩家提供一张弃卡放入黑名单中。」
def apply_inspect(st: DirtyMoneyState, step: Step, action: tuple[str, str] | None) -> None:
    if action is None:
        board._pop(st, step)
        return
    target, card_id = step.data["target"], action[1]
    inst = board._first(st, f"hand:{target}", card_id, exclude=tuple(step.data["seen"]))
    step.data["seen"].append(str(inst))
    step.data["left"] -= 1
    if st.rules.money[inst.card].dirty > 0:
        board._move(st, inst, f"hand:{target}", f"hand:{step.seat}")
        board._marker(st, f"blacklist:{target}")
        st.outcome(
            target,
            f"inspected by seat {step.seat}: dirty {board.name(st, card_id)} is taken, one blacklist card",
            card_id,
        )
    else:
        st.outcome(target, f"inspected by seat {step.seat}: {board.name(st, card_id)} is clean", card_id)


def actor_launder(st: DirtyMoneyState, step: Step) -> int:
    if step.stage == 0:
        return step.seat if board._currency_left(st) else AUTO
    if step.stage == 1:
        if not board._currency_left(st):
            return AUTO
        return board._money_actor(st)
    return step.seat if board.cards(st, f"hand:{step.seat}") and step.data["discards"] > 0 else AUTO


def legal_launder(st: DirtyMoneyState, step: Step) -> list[Action]:
    if step.stage == 0:
        return [("launder",), ("skip",)]
    if step.stage == 1:
        return board._legal_chance(st, step)
    return [("launder_discard", card_id) for card_id in board._ids(st, f"hand:{step.seat}")]


def apply_launder(st: DirtyMoneyState, step: Step, action: Any) -> None:
    seat, data = step.seat, step.data
    if step.stage == 0:
        if action == ("launder",):
            step.stage, data["draws"], data["discards"] = 1, data["left"], 0
            villain = st.villain_of[seat] or ""
            st.used(seat, villain, "launders: draws a currency card, then discards one")
        else:
            board._pop(st, step)
        return
    if step.stage == 1:
        _launder_draw(st, step, action)
        return
    if action is None:
        board._pop(st, step)
        st.stack += board._hand_limit_step(st, seat)
        return
    board._move(st, board._first(st, f"hand:{seat}", action[1]), f"hand:{seat}", "discard")
    data["discards"] -= 1


# rulebook 001:251 「如果抽出的货币卡是行动卡，则将其丢弃并再次抽取，直到抽出货币卡为止。」
def _launder_draw(st: DirtyMoneyState, step: Step, action: tuple[str, str] | None) -> None:
    """Draw until a currency card comes (action cards are discarded), then owe a discard."""
    if action is None:
        if not board._currency_left(st) or not board._reshuffle(st):
            step.stage = 2
        return
    inst = board._first(st, "money_deck", action[1])
    if st.rules.money[inst.card].is_action:
        board._move(st, inst, "money_deck", "discard")  # discard and draw again
        return
    board._move(st, inst, "money_deck", f"hand:{step.seat}")
    step.data["discards"] += 1
    step.data["draws"] -= 1
    if step.data["draws"] <= 0:
        step.stage = 2

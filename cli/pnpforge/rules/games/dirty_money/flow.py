"""Set-up, draws, rounds and turns: the game's procedure from dealing villains to the end check."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.dirty_money import board, scoring
from pnpforge.rules.games.dirty_money.board import AUTO, Action, Step
from pnpforge.rules.games.dirty_money.data import (
    HAND_LIMIT,
    LAST_PLAYER_EXTRA,
    REFILL_EMPTY,
    REFILL_SOME,
    REGIONS,
    SELECTION_DISPLAY,
    SETUP_SPOT,
    SPOT_CAP,
    START_HAND,
    Location,
)

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState


# The piles a placement card can still come from (the Wall Street Bear's set-aside cards count too,
# for a seat that has the Bear: see `_placements_left`)
_PLACEMENT_PILES = (*(f"pdeck:{r}" for r in REGIONS), *(f"display:{r}" for r in REGIONS), "auction")

# Why a game ended, in words for the event log (the end reason itself stays a short key).
END_WORDS = {
    "placement target": "a seat reached the placement-card target; the round was played out",
    "placements exhausted": "no placement card is left to buy",
}


def actor_deal_villain(st: DirtyMoneyState, step: Step) -> int:
    return CHANCE


def legal_deal_villain(st: DirtyMoneyState, step: Step) -> list[Action]:
    return board._legal_chance(st, step)


def apply_deal_villain(st: DirtyMoneyState, step: Step, action: tuple[str, str]) -> None:
    villain = action[1]
    board._move(st, board._first(st, "villain_pool", villain), "villain_pool", f"villain:{step.seat}")
    st.villain_of[step.seat] = villain
    st._villain_cards[step.seat] = st.rules.villains[villain]
    st.faction(step.seat, f"{board.name(st, villain)} ({villain})")
    board._pop(st, step)


def actor_after_villains(st: DirtyMoneyState, step: Step) -> int:
    return AUTO


# rulebook 001:93 「把第一玩家标记给开始游戏的玩家。给最后一位玩家额外一张货币卡。」
def apply_after_villains(st: DirtyMoneyState, step: Step, action: None) -> None:
    """Set-up steps 2–5 once the villains (and so the first player) are known."""
    board._pop(st, step)
    for inst in list(board.cards(st, "villain_pool")):
        board._move(st, inst, "villain_pool", "box")
    st.marker = min(range(st.players), key=lambda q: _villain_order(st, q))
    seq: list[Step] = []
    for loc in st.in_play:
        seq += _display_draws(st, loc)
    for seat in range(st.players):
        bear = board._has(st, seat, "wall_street_bear")
        if bear and _bear_location(st):
            seq.append(Step("bear_choose", seat=seat, data={"left": bear.value}))
    order = [(st.marker + i) % st.players for i in range(st.players)]
    for seat in order:
        seq += [_deal_to(st, seat) for _ in range(START_HAND)]
    seq += [_deal_to(st, order[-1]) for _ in range(LAST_PLAYER_EXTRA)]
    seq.append(Step("merge_actions"))
    for loc in st.in_play:
        seq += [
            Step("draw_money", data={"dest": f"spot:{loc.id}", "mode": "spot"}) for _ in range(SETUP_SPOT)
        ]
    seq.append(Step("round"))
    board._push_seq(st, seq)


# rulebook 001:80 「持有最低的玩家编号将获得第一玩家标记，并在游戏中开始第一轮。」
def _villain_order(st: DirtyMoneyState, seat: int) -> tuple[int, int]:
    villain = board._villain(st, seat)
    assert villain is not None
    return (villain.order, seat)


def _deal_to(st: DirtyMoneyState, seat: int) -> Step:
    return Step("draw_money", seat=seat, data={"dest": f"hand:{seat}", "mode": "deal"})


# rulebook 001:89 「如果使用拍卖行，请从每个地点卡组抽出一张处置卡」
def _display_draws(st: DirtyMoneyState, loc: Location) -> list[Step]:
    """The set-up draws that put placement cards above a region market or the auction house."""
    if loc.effect == "region_market":
        count = SELECTION_DISPLAY if st.rules.selection else loc.display
        return [
            Step("draw_placement", data={"region": loc.region, "dest": f"display:{loc.region}"})
            for _ in range(count)
        ]
    if loc.effect == "auction_house":
        return [Step("draw_placement", data={"region": region, "dest": "auction"}) for region in REGIONS]
    return []


def _bear_location(st: DirtyMoneyState) -> Location | None:
    return next((loc for loc in st.in_play if loc.effect == "banana_republic"), None)


def actor_bear_choose(st: DirtyMoneyState, step: Step) -> int:
    return step.seat if any(board.cards(st, f"pdeck:{r}") for r in REGIONS) else AUTO


def legal_bear_choose(st: DirtyMoneyState, step: Step) -> list[Action]:
    return [("bear_region", r) for r in REGIONS if board.cards(st, f"pdeck:{r}")]


# rulebook 001:281 「在设置过程中，从美国、欧洲和日本任意抽取 3 张处置卡，并将其放置在香蕉共和国上方。」
def apply_bear_choose(st: DirtyMoneyState, step: Step, action: tuple[Any, ...] | None) -> None:
    if action is None:
        board._pop(st, step)
        return
    step.data["left"] -= 1
    if step.data["left"] <= 0:
        board._pop(st, step)
    st.stack.append(Step("draw_placement", data={"region": action[1], "dest": "bear"}))


def actor_merge_actions(st: DirtyMoneyState, step: Step) -> int:
    return AUTO


def apply_merge_actions(st: DirtyMoneyState, step: Step, action: None) -> None:
    board._pop(st, step)
    st.piles.move_all("action_setup", "money_deck")
    st.version += 1


def actor_draw_placement(st: DirtyMoneyState, step: Step) -> int:
    return CHANCE if board.cards(st, f"pdeck:{step.data['region']}") else AUTO


def legal_draw_placement(st: DirtyMoneyState, step: Step) -> list[Action]:
    return board._legal_chance(st, step)


def apply_draw_placement(st: DirtyMoneyState, step: Step, action: tuple[str, str] | None) -> None:
    board._pop(st, step)
    if action is not None:
        src = f"pdeck:{step.data['region']}"
        board._move(st, board._first(st, src, action[1]), src, step.data["dest"])


def actor_draw_money(st: DirtyMoneyState, step: Step) -> int:
    return CHANCE if st._money_deck else AUTO  # `_money_actor`, the commonest actor, inline


def legal_draw_money(st: DirtyMoneyState, step: Step) -> list[Action]:
    return board._legal_chance(st, step)


def apply_draw_money(st: DirtyMoneyState, step: Step, action: tuple[str, str] | None) -> None:
    if action is None:
        if not board._reshuffle(st):
            board._pop(st, step)  # nothing left to draw anywhere
        return
    board._pop(st, step)
    inst = board._first(st, "money_deck", action[1])
    mode, seat = step.data["mode"], step.seat
    if mode == "marker":
        board._add_marker(st, inst, "money_deck", step.data["dest"])
    elif mode == "gallery":
        if st.rules.money[inst.card].is_action:
            board._move(st, inst, "money_deck", "resolving")
            st.stack.append(Step("resolve_card", seat=seat, data={"card": str(inst), "id": inst.card}))
        else:
            board._move(st, inst, "money_deck", f"hand:{seat}")
            st.stack += board._hand_limit_step(st, seat)
    else:
        board._move(st, inst, "money_deck", step.data["dest"])


def actor_round(st: DirtyMoneyState, step: Step) -> int:
    return AUTO


# rulebook 001:106 「当所有玩家都进行一回合后，该回合将结束。」
def apply_round(st: DirtyMoneyState, step: Step, action: None) -> None:
    data = step.data
    if not data:
        st.round_number += 1
        data["order"] = [(st.marker + i) % st.players for i in range(st.players)]
        data["idx"] = 0
        st.round_order = list(data["order"])
    if data["idx"] < st.players:
        seat = data["order"][data["idx"]]
        data["idx"] += 1
        st.shark_used = False
        st.stack.append(Step("turn", seat=seat))
        return
    board._pop(st, step)
    _end_of_round(st)


# rulebook 001:168 「当任何玩家有 10 张或以上的处置卡时，就会触发最后一轮。」
def _end_of_round(st: DirtyMoneyState) -> None:
    """Game-end check, else 回合结束 refills and the next round."""
    views = st.views
    tableaux = list(map(len, map(views.__getitem__, st.names.tableaux)))
    st.round(f"round {st.round_number} ends; placement cards per seat: {tableaux}")
    if max(tableaux) >= st.rules.end_target:
        _finish(st, "placement target")
        return
    if not _placements_left(st):
        _finish(st, "placements exhausted")
        return
    if st.round_number >= st.rules.max_rounds:
        raise RuleViolation(
            f"the game did not end in {st.rules.max_rounds} rounds (placement cards per seat: "
            f"{tableaux}, the end needs {st.rules.end_target}): no one can finish this deck"
        )
    seq: list[Step] = []
    for spot in st.names.spots:  # the spots of the locations in play, in their order
        have = len(views[spot])
        add = REFILL_EMPTY if have == 0 else min(REFILL_SOME, max(0, SPOT_CAP - have))
        seq += [Step("draw_money", data={"dest": spot, "mode": "spot"}) for _ in range(add)]
    for loc in st.in_play:
        seq += _display_refills(st, loc)
    seq.append(Step("round"))
    board._push_seq(st, seq)


# rulebook 001:164 「如果欧洲；日本或美国拥有少于 2 张面朝上的处置卡，从各自的卡组中添加处置卡」
def _display_refills(st: DirtyMoneyState, loc: Location) -> list[Step]:
    """回合结束 3: region displays back to their size, the auction house to one card a region."""
    if loc.effect == "region_market":
        want = SELECTION_DISPLAY if st.rules.selection else loc.display
        need = want - len(board.cards(st, f"display:{loc.region}"))
        return [
            Step("draw_placement", data={"region": loc.region, "dest": f"display:{loc.region}"})
            for _ in range(max(0, need))
        ]
    if loc.effect == "auction_house":
        there = {st.rules.placements[c.card].region for c in board.cards(st, "auction")}
        return [
            Step("draw_placement", data={"region": region, "dest": "auction"})
            for region in REGIONS
            if region not in there
        ]
    return []


def _placements_left(st: DirtyMoneyState) -> bool:
    views = st.views
    if any(map(views.__getitem__, _PLACEMENT_PILES)):
        return True
    return bool(views["bear"]) and any(board._has(st, q, "wall_street_bear") for q in range(st.players))


def _finish(st: DirtyMoneyState, reason: str) -> None:
    st.terminal = True
    st.reason = reason
    st.stack = []
    scoring._score_events(st)
    st.end(END_WORDS.get(reason, reason))


def actor_turn(st: DirtyMoneyState, step: Step) -> int:
    return step.seat if step.stage == 0 else AUTO


# rulebook 001:301 「一旦某个地点没有货币卡，玩家将无法去该地点执行动作」
def legal_turn(st: DirtyMoneyState, step: Step) -> list[Action]:
    # 常见问题 1: only a location that still has money cards can be visited.
    views = st.piles.all_views()
    open_locations: list[Action] = [
        ("go", loc.id) for loc, spot in zip(st.in_play, st.names.spots, strict=True) if views[spot]
    ]
    return open_locations or [("pass",)]


# rulebook 001:101 「选择一个地点，然后取出该地点中所有货币卡和动作卡。」
def apply_turn(st: DirtyMoneyState, step: Step, action: tuple[Any, ...] | None) -> None:
    seat = step.seat
    if step.stage == 0:
        if action == ("pass",):
            step.stage = 2
            return
        assert action is not None
        location_id = action[1]
        st.used(seat, location_id, f"visits {board.name(st, location_id)} and takes its money cards")
        # Take every card there (常见问题 2): money to hand, actions to be resolved.
        spot, hand = f"spot:{location_id}", st.names.hands[seat]
        there = st.views[spot]
        if st.rules.action_cards.isdisjoint(there):
            board._move_all(st, spot, hand)  # all money: the same order as one by one
        else:
            for inst in list(there):
                dst = f"pending:{seat}" if st.rules.money[inst.card].is_action else hand
                board._move(st, inst, spot, dst)
        # Then the hand limit, the action cards taken, and the location's own action; a hand
        # within its limit or no action card to resolve needs no step (nothing there to do).
        step.stage = 2
        after = board._hand_limit_step(st, seat)
        if board.cards(st, f"pending:{seat}"):
            after.append(Step("resolve_actions", seat=seat))
        after.append(Step("location", seat=seat, data={"loc": location_id}))
        board._push_seq(st, after)
    elif step.stage == 2:
        launderer = board._has(st, seat, "launderer")
        if launderer:
            step.stage = 3
            st.stack.append(Step("launder", seat=seat, data={"left": launderer.value}))
        else:
            board._pop(st, step)  # the turn is over: nothing acts at its end
    else:
        board._pop(st, step)


def actor_hand_limit(st: DirtyMoneyState, step: Step) -> int:
    size = len(board.cards(st, f"hand:{step.seat}"))
    return step.seat if size > HAND_LIMIT and size > board.hand_limit(st, step.seat) else AUTO


def legal_hand_limit(st: DirtyMoneyState, step: Step) -> list[Action]:
    return [("overflow", card_id) for card_id in board._ids(st, f"hand:{step.seat}")]


# rulebook 001:110 「玩家手中最多可持有 7 张货币卡。」
def apply_hand_limit(st: DirtyMoneyState, step: Step, action: tuple[Any, ...] | None) -> None:
    if action is None:
        board._pop(st, step)
        return
    hand = f"hand:{step.seat}"
    board._add_marker(st, board._first(st, hand, action[1]), hand, f"blacklist:{step.seat}")
    st.outcome(
        step.seat,
        f"over the hand limit of {board.hand_limit(st, step.seat)}: "
        f"{board.name(st, action[1])} goes to the blacklist",
        action[1],
    )


def actor_location(st: DirtyMoneyState, step: Step) -> int:
    loc = st.rules.location_by_id[step.data["loc"]]
    return step.seat if loc.effect == "banana_republic" and step.stage == 0 else AUTO


def legal_location(st: DirtyMoneyState, step: Step) -> list[Action]:
    return [("banana",), ("skip",)]


# rulebook 001:140 「香蕉共和国：从黑名单中丢弃 1 张卡。获得第一个玩家标记，成为下一回合的第一位玩家。」
def apply_location(st: DirtyMoneyState, step: Step, action: tuple[Any, ...] | None) -> None:
    loc = st.rules.location_by_id[step.data["loc"]]
    seat = step.seat
    if loc.effect == "banana_republic" and step.stage == 0:
        step.stage = 1
        if action == ("banana",):
            dropped = board._drop_blacklist(st, seat)
            st.marker = seat
            st.outcome(
                seat,
                "takes the first-player marker"
                + (" and drops a blacklist card" if dropped else " (no blacklist card to drop)"),
                loc.id,
            )
        return
    board._pop(st, step)
    sources: list[str] = []
    limit = loc.buy_limit
    if loc.effect == "region_market":
        sources = [f"display:{loc.region}"]
    elif loc.effect == "black_market":
        sources = [f"display:{x.region}" for x in st.in_play if x.effect == "region_market"]
    elif loc.effect == "auction_house":
        sources = ["auction"]
    elif loc.effect == "banana_republic":
        bear = board._has(st, seat, "wall_street_bear")
        if bear and board.cards(st, "bear"):
            sources, limit = ["bear"], 1
    if sources and limit > 0:
        st.stack.append(
            Step(
                "buy",
                seat=seat,
                data={"sources": sources, "max": limit, "bought": 0, "group": [], "paid": [], "value": 0},
            )
        )

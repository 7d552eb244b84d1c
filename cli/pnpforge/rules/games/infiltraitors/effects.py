"""What actions and chance draws do, and the automatic steps between decisions.

Every card movement is a `Zones.move`, so a card can never be duplicated or
lost; counters (bullets, solved suspects, number tiles) change only here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, RuleViolation

from . import actions, board
from .actions import Action
from .board import ASIDE, ASIDE_PILE, CENTRE, DECK, DISCARD_DOWN, DISCARD_UP, LINEUP, REWARDS, SHARED
from .memo import READOUTS

if TYPE_CHECKING:
    from .state import InfiltraitorsState


def resolve_chance(st: InfiltraitorsState, action: Action) -> None:
    event = st.chance_queue.pop(0)
    kind = event[0]
    if kind == "eliminator":
        st.eliminator = action[1]
        return
    card = CardInstance(action[1], action[2])
    src = actions.chance_source(st, kind)
    if kind in ("deal", "draw", "pool_deal"):
        st.piles.move(card, src, st.hand_piles[event[1]])
    elif kind == "suspect":
        st.piles.move(card, src, LINEUP)
    elif kind == "aside":
        st.piles.move(card, src, ASIDE_PILE)
    elif kind == "burn":
        st.piles.move(card, src, DISCARD_DOWN)  # discarded unseen, so face down
    elif kind == "cover":
        st.piles.move(card, src, st.cover_piles[event[1]])
    elif kind == "take":
        seat = event[1]
        st.piles.move(card, src, st.stand_piles[seat])
        st.outcome(
            seat, f"stands suspect {board.card_name(st, card.card)} (only seat {seat} sees it)", card.card
        )
        if st.mission.has("ordered"):
            st.tile_of[seat] = st.next_tile
            st.next_tile += 1
    elif kind == "blind_reward":
        _reward_to(st, event[1], card, src)
    else:
        raise RuleViolation(f"unknown chance event {event}")


def _reward_to(st: InfiltraitorsState, seat: int, card: CardInstance, src: str) -> None:
    if st.mission.has("pooled_final") and not st.final_phase:
        st.piles.move(card, src, REWARDS)  # mission 18: rewards wait face up for the last suspect
    else:
        st.piles.move(card, src, st.hand_piles[seat])


def decide(st: InfiltraitorsState, action: Action) -> None:
    kind = action[0]
    if kind != "pass":
        st.passes = 0
    DECISIONS[kind](st, action)


# rulebook 003:493 「在遊玩區中央抽 1 張嫌疑人牌，不可讓其他特務看到該牌內容」
# rulebook 003:495 「然後棄掉總部牌庫頂牌，但切不可查看該牌內容。」
def _do_take(st: InfiltraitorsState, action: Action) -> None:
    st.chance_queue.append(("take", st.actor))
    if st.piles.count(DECK):
        st.chance_queue.append(("cover", st.actor) if st.mission.has("covered_suit") else ("burn",))
    st.stage = "end_turn"


def _play_from(st: InfiltraitorsState, src: int) -> str:
    """The pile a played card leaves: a seat's hand or the shared centre specials."""
    return SHARED if src == CENTRE else st.hand_piles[src]


# rulebook 003:506 「**縱向提示**—打出的手牌與嫌疑人牌有關連。」
# rulebook 003:508 「**橫向提示**—打出的手牌與嫌疑人牌並無關連。」
def _place(st: InfiltraitorsState, card: CardInstance, src_pile: str, target: int) -> None:
    """Put a hint beside a suspect, oriented by the rule (the owner places it truthfully)."""
    up = board.orientation(st, card, target)
    st.upright[card] = up
    READOUTS(st).hints_view = None
    st.piles.move(card, src_pile, st.hint_piles[target])
    way = "upright (related)" if up else "sideways (unrelated)"
    st.used(
        st.actor,
        card.card,
        f"hint {board.card_name(st, card.card)} beside {board.place_name(st, target)}: {way}",
    )


# rulebook 003:503 「在自己的嫌疑人牌旁邊打出 1 張手牌，以便其他特務確認嫌疑人身分。」
def _do_hint(st: InfiltraitorsState, action: Action) -> None:
    _, src, card_id, copy = action
    card = CardInstance(card_id, copy)
    _place(st, card, _play_from(st, src), st.actor)
    st.stage = "end_turn"


# rulebook 003:545 「你可以打出 1 張手牌放在**另一名特務的嫌疑人牌**旁邊」
# rulebook 003:546 「之後你可以抽取總部牌庫的頂牌加進手牌。」
def _do_exchange(st: InfiltraitorsState, action: Action) -> None:
    _, src, target, card_id, copy, draw = action
    card = CardInstance(card_id, copy)
    _place(st, card, _play_from(st, src), target)
    if draw:
        st.chance_queue.append(("draw", st.actor))
    st.stage = "end_turn"


# rulebook 003:550 「透過棄掉總部牌庫最頂的那張牌（不可窺看其內容），」
# rulebook 003:550 「特務可從牌庫抽取最多 3 張牌加進自己的手牌。」
def _do_wait(st: InfiltraitorsState, action: Action) -> None:
    st.chance_queue.append(("burn",))
    st.chance_queue += [("draw", st.actor)] * action[1]
    st.outcome(st.actor, f"burns the top headquarters card unseen and draws {action[1]}")
    st.stage = "end_turn"


def _do_pass(st: InfiltraitorsState, action: Action) -> None:
    st.passes += 1
    st.outcome(st.actor, "cannot act and passes")
    if st.passes >= board.active_count(st):
        finish(st, "lose", "stalemate: no agent can act")
    st.stage = "end_turn"


# rulebook 003:558 「棄掉總部牌庫旁的其中一枚子彈並拿起紙板手槍」
# rulebook 003:567 「被猜測的嫌疑人牌須留在原處維持保密。」
def _do_eliminate(st: InfiltraitorsState, action: Action) -> None:
    _, target, suit, number = action
    st.bullets -= 1
    hit = board.suspect_identity(st, target) == (suit, number)
    _report_shot(st, target, suit, number, hit)
    if st.stage == "final":
        if hit:
            aside = board.aside(st)
            assert aside is not None
            st.piles.move(aside, ASIDE_PILE, DECK)
            _discard_hints(st, ASIDE)
            st.solved += 1
        if hit:
            finish(st, "win", "final suspect eliminated")
        else:
            finish(st, "lose", "final shot missed")
        return
    if not hit:
        st.stage = "end_turn"
        return
    _eliminate(st, target)
    discards = st.piles.count(DISCARD_UP) or st.piles.count(DISCARD_DOWN)
    st.stage = "reward" if discards else "after_reward"


def _report_shot(st: InfiltraitorsState, target: int, suit: str, number: int, hit: bool) -> None:
    card = board.aside(st) if target == ASIDE else board.suspect(st, target)
    assert card is not None
    guess = f"{suit}{number}"
    if hit:
        who = board.card_name(st, card.card)
        text = f"shoots {board.place_name(st, target)} as {guess}: hit, traitor {who} eliminated"
        st.outcome(st.actor, text, card.card)
    else:
        text = (
            f"shoots {board.place_name(st, target)} as {guess}: miss, {st.bullets} bullets left "
            f"for {board.unsolved(st)} suspects"
        )
        st.outcome(st.actor, text)


# rulebook 003:566 「接著就將該被認出的嫌疑人牌混入總部牌庫洗勻，並將放在它旁邊的所有提示都**面朝上棄置**。」
def _eliminate(st: InfiltraitorsState, target: int) -> None:
    """The suspect (and its cover) go back into the deck; its hints to the discard pile."""
    st.piles.move_all(st.stand_piles[target], DECK)
    st.piles.move_all(st.cover_piles[target], DECK)
    st.tile_of[target] = None
    _discard_hints(st, target)
    st.solved += 1


def _discard_hints(st: InfiltraitorsState, target: int) -> None:
    READOUTS(st).hints_view = None
    pile = st.hint_piles[target]
    for card in st.piles.pile(pile):
        del st.upright[card]
        if card in st.rules.shared_special_set:
            st.piles.move(card, pile, SHARED)  # mission 6: the shared specials stay shared
        else:
            _discard(st, card, pile)


def _discard(st: InfiltraitorsState, card: CardInstance, src: str) -> None:
    st.piles.move(card, src, DISCARD_DOWN if st.mission.has("facedown") else DISCARD_UP)


def _do_reward(st: InfiltraitorsState, action: Action) -> None:
    _reward_to(st, st.actor, CardInstance(action[1], action[2]), DISCARD_UP)
    st.outcome(
        st.actor, f"takes {board.card_name(st, action[1])} from the discard pile as a reward", action[1]
    )
    st.stage = "after_reward"


def _do_reward_blind(st: InfiltraitorsState, action: Action) -> None:
    st.chance_queue.append(("blind_reward", st.actor))
    st.stage = "after_reward"


def _do_reward_skip(st: InfiltraitorsState, action: Action) -> None:
    st.stage = "after_reward"


def _do_peek(st: InfiltraitorsState, action: Action) -> None:
    if not action[1]:
        st.stage = "end_turn"
        return
    st.peeked.add(st.actor)
    st.extra_hints_left = 2 if st.players == 2 else 1
    st.stage = "extra_hint"
    if not actions.extra_hint_legal(st):
        _withdraw(st, st.actor)


def _do_extra_hint(st: InfiltraitorsState, action: Action) -> None:
    _, src, card_id, copy = action
    card = CardInstance(card_id, copy)
    _place(st, card, st.hand_piles[st.actor] if src == 0 else DISCARD_UP, ASIDE)
    st.extra_hints_left -= 1
    if st.extra_hints_left <= 0 or not actions.extra_hint_legal(st):
        _withdraw(st, st.actor)


def _withdraw(st: InfiltraitorsState, seat: int) -> None:
    """Mission 19: the agent who looked leaves; its hand goes face up to the discard."""
    st.piles.move_all(st.hand_piles[seat], DISCARD_UP)
    st.withdrawn[seat] = True
    st.eliminated(seat, "looked at the aside suspect and withdrew from the mission")
    active = [s for s in range(st.players) if not st.withdrawn[s]]
    if len(active) == 1:
        st.stage, st.actor = "final", active[0]
    else:
        st.stage = "end_turn"


# rulebook 003:585 「如果在一輪結束時，你的手牌數量多於 7 張，就須要隨意棄掉多出的手牌（以面朝上的方式棄置）」
def _do_discard(st: InfiltraitorsState, action: Action) -> None:
    pile = st.hand_piles[st.actor]
    card = st.piles.pile(pile)[action[1]]
    _discard(st, card, pile)
    st.outcome(st.actor, f"discards {board.card_name(st, card.card)} down to the hand limit", card.card)
    st.stage = "end_turn"  # settles back here while the hand is still over the limit


def settle(st: InfiltraitorsState) -> None:
    """Run automatic steps until a decision, a chance draw or the end."""
    while st.result is None and not st.chance_queue:
        if _check_end(st):
            return
        if st.stage == "after_reward":
            _after_reward(st)
        elif st.stage == "end_turn":
            if board.hand_count(st, st.turn) > st.mission.hand_limit:
                st.stage, st.actor = "discard", st.turn
                return
            _next_turn(st)
            return
        else:
            return


def _after_reward(st: InfiltraitorsState) -> None:
    mission = st.mission
    has_aside = board.aside(st) is not None
    if mission.has("solo_final") and has_aside and board.active_count(st) >= 2:
        st.stage = "peek"
        return
    st.stage = "end_turn"
    if (
        mission.has("pooled_final")
        and not st.final_phase
        and has_aside
        and not st.piles.count(LINEUP)
        and not any(board.has_suspect(st, s) for s in range(st.players))
    ):
        _start_pooled_final(st, st.actor)


def _start_pooled_final(st: InfiltraitorsState, seat: int) -> None:
    """Mission 18: hands out, the rewards dealt from `seat` on, the aside suspect to `seat`."""
    for other in range(st.players):
        st.piles.move_all(st.hand_piles[other], DISCARD_UP)
    st.piles.move_all(ASIDE_PILE, st.stand_piles[seat])
    st.final_phase = True
    rewards = st.piles.count(REWARDS)
    st.round(
        f"the table's suspects are solved: hands discarded, {rewards} pooled rewards dealt from "
        f"seat {seat}, who stands the last suspect"
    )
    st.chance_queue += [("pool_deal", (seat + i) % st.players) for i in range(rewards)]


# rulebook 003:480 「除非另有指明，否則特務輪次會按照順時針方向進行。」
def _next_turn(st: InfiltraitorsState) -> None:
    seat = st.turn
    for _ in range(st.players):
        seat = (seat + 1) % st.players
        if not st.withdrawn[seat]:
            break
    if seat <= st.turn:
        st.rounds += 1
        st.round(
            f"round {st.rounds} ends: {board.unsolved(st)} suspects unsolved, {st.bullets} bullets, "
            f"{st.piles.count(DECK)} cards in headquarters"
        )
    st.turn = st.actor = seat
    st.stage = "act"


# rulebook 003:591 「嫌疑人牌庫清空，且放在各特務前面的嫌疑人都給剷除。」
# rulebook 003:592 「總部牌庫耗盡且各特務都已用光手牌，或可用的子彈數目少於未破解的嫌疑人牌數目」
def _check_end(st: InfiltraitorsState) -> bool:
    """Both end conditions, checked whenever an action has fully resolved."""
    unsolved = board.unsolved(st)
    if not unsolved and not st.mission.has("solo_final"):
        finish(st, "win", "all traitors eliminated")
    elif st.bullets < unsolved:
        finish(st, "lose", "fewer bullets than unsolved suspects")
    elif (st.final_phase or not st.piles.count(DECK)) and not any(
        st.piles.count(pile) for pile in st.hand_piles
    ):
        finish(st, "lose", "headquarters deck and hands exhausted")
    return st.result is not None


# rulebook 003:457 「各玩家所扮演的特務不是共同獲得勝利，就是一起輸掉。」
def finish(st: InfiltraitorsState, verdict: str, reason: str) -> None:
    """End the mission: the team wins or loses together."""
    st.result = (verdict, reason)
    won = verdict == "win"
    word = "won" if won else "lost"
    for seat in range(st.players):
        st.score(seat, 1.0 if won else 0.0, f"mission {st.mission.id} {word}")
    if won and st.rules.mission_card is not None:
        st.used(None, st.mission.id, f"mission {st.mission.id} completed")
    st.end(
        f"mission {st.mission.id} {word}: {reason} ({st.solved} of {st.suspects_total} "
        f"suspects solved, {st.bullets} bullets left)"
    )


# What each kind of decision does, by the action's first word.
DECISIONS: dict[str, Callable[[InfiltraitorsState, Action], None]] = {
    "discard": _do_discard,
    "eliminate": _do_eliminate,
    "exchange": _do_exchange,
    "extra_hint": _do_extra_hint,
    "hint": _do_hint,
    "pass": _do_pass,
    "peek": _do_peek,
    "reward": _do_reward,
    "reward_blind": _do_reward_blind,
    "reward_skip": _do_reward_skip,
    "take": _do_take,
    "wait": _do_wait,
}

"""Which actions are legal: the five turn actions, rewards, mission 19's look, hand limits.

Action shapes (tuples, first the kind):
  ("take",)                                   揪出嫌疑人
  ("hint", source_seat, card, copy)           給予提示 beside your own suspect
  ("exchange", source, target, card, copy, draw)  交換情報; source CENTRE for mission 6's specials
  ("wait", k)                                 等待時機: burn the top card, draw k
  ("eliminate", target, suit, number)         剷除叛徒 (ASIDE: the aside suspect)
  ("discard", hand_index), ("reward", card, copy), ("reward_blind",), ("reward_skip",),
  ("peek", 0|1), ("extra_hint", 0 hand | 1 discard, card, copy), ("pass",)
and at a chance step ("card", card, copy) or ("seat", seat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board
from .board import ASIDE, CENTRE, DECK, DISCARD_DOWN, DISCARD_UP, LINEUP, REWARDS, SHARED

if TYPE_CHECKING:
    from .state import InfiltraitorsState

Action = tuple


def compute_legal(st: InfiltraitorsState) -> list[Action]:
    """The legal actions, sorted (the state keeps them for a binary search).  Most lists are
    sorted as they are built; the long run of shots is never sorted again."""
    if st.result is not None:
        return []
    if st.chance_queue:
        return _chance_legal(st)
    stage = st.stage
    if stage == "act":
        return _act_legal(st)
    if stage == "reward":
        return sorted(_reward_legal(st))
    if stage == "peek":
        return [("peek", 0), ("peek", 1)]
    if stage == "extra_hint":
        return sorted(extra_hint_legal(st))
    if stage == "final":
        return _eliminations(st, st.actor, final=True)
    if stage == "discard":
        return [("discard", i) for i in range(board.hand_count(st, st.actor))]
    raise KeyError(stage)


def _chance_legal(st: InfiltraitorsState) -> list[Action]:
    kind = st.chance_queue[0][0]
    if kind == "eliminator":
        return [("seat", s) for s in range(st.players)]
    outcome, rank = st.rules.draw_action, st.rules.draw_rank
    cards = sorted(st.piles.pile(chance_source(st, kind)), key=rank.__getitem__)
    return [outcome[card] for card in cards]


def chance_source(st: InfiltraitorsState, kind: str) -> str:
    """The pile a chance event's card comes from."""
    if kind == "blind_reward":
        return DISCARD_DOWN
    if kind == "pool_deal":
        return REWARDS
    if kind == "take":
        return LINEUP
    return DECK


# rulebook 003:483 「特務在其一輪中必須執行下列其中一項行動：」
def _act_legal(st: InfiltraitorsState) -> list[Action]:
    seat, mission = st.actor, st.mission
    acts: list[Action] = []
    if (
        not board.has_suspect(st, seat)
        and st.piles.count(LINEUP)
        and not st.final_phase
        and not (mission.has("sole_eliminator") and seat == st.eliminator)
    ):
        acts.append(("take",))
    sources = _hand_sources(st, seat)
    if board.has_suspect(st, seat):
        acts += [("hint", src, card.card, card.copy) for src in sources for card in board.hand(st, src)]
    acts += _exchanges(st, seat, sources)
    deck_size = st.piles.count(DECK)
    if deck_size and not st.final_phase:
        acts += [("wait", k) for k in range(min(3, deck_size - 1) + 1)]
    # 'eliminate' sorts before every other kind, and the shots come sorted (targets in seat
    # order, guesses sorted): only the few other actions need a sort.
    shots = _eliminations(st, seat)
    if not shots:
        return sorted(acts) or [("pass",)]
    return shots + sorted(acts)


def _hand_sources(st: InfiltraitorsState, seat: int) -> list[int]:
    """Whose hand a seat plays from: its own, or (mission 17) any other agent's."""
    if st.mission.has("hands_out"):
        return [o for o in range(st.players) if o != seat and not st.withdrawn[o]]
    return [seat]


def _exchange_targets(st: InfiltraitorsState, seat: int) -> list[int]:
    targets = [t for t in range(st.players) if t != seat and board.has_suspect(st, t)]
    if st.mission.has("exchange_left"):
        targets = [t for t in targets if t == (seat + 1) % st.players]
    if board.aside(st) is not None and st.peeked:
        targets.append(ASIDE)  # the withdrawn agents who know it place the hints
    return targets


def _exchanges(st: InfiltraitorsState, seat: int, sources: list[int]) -> list[Action]:
    targets = _exchange_targets(st, seat)
    if not targets:
        return []
    can_draw = bool(st.piles.count(DECK)) and not st.final_phase  # mission 18's last round: no draws
    if st.mission.has("hands_out"):
        draws = [1] if can_draw else [0]  # mission 17: the draw is compulsory
    else:
        draws = [0, 1] if can_draw else [0]
    acts: list[Action] = [
        ("exchange", src, target, card.card, card.copy, draw)
        for src in sources
        for card in board.hand(st, src)
        for target in targets
        for draw in draws
    ]
    shared = st.piles.pile(SHARED)
    acts += [("exchange", CENTRE, target, card.card, card.copy, 0) for card in shared for target in targets]
    return acts


def _eliminations(st: InfiltraitorsState, seat: int, final: bool = False) -> list[Action]:
    """Every shot open to `seat`, sorted: targets ascending, each target's shots as
    `shot_actions` gives them (in the sorted order of the mission's guesses)."""
    if st.bullets <= 0:
        return []
    if final:
        targets = [ASIDE] if board.aside(st) is not None else []
    else:
        targets = _elimination_targets(st, seat)
    shots = st.rules.shot_actions
    return [action for target in targets for action in shots(target)]


def _elimination_targets(st: InfiltraitorsState, seat: int) -> list[int]:
    mission = st.mission
    if mission.has("sole_eliminator") and seat != st.eliminator:
        return []
    targets = [t for t in range(st.players) if t != seat and board.has_suspect(st, t)]
    if mission.has("eliminate_right"):
        targets = [t for t in targets if t == (seat - 1) % st.players]
    if mission.has("ordered") and targets:
        lowest = min(st.tile_of[t] or 0 for t in range(st.players) if board.has_suspect(st, t))
        targets = [t for t in targets if st.tile_of[t] == lowest]
    if mission.has("balanced"):
        targets = [t for t in targets if _balanced(st, t)]
    return targets


# rulebook 003:155 「在嫌疑人牌旁的縱向提示（即有關連）和橫向提示（即並無關連）的數量必須相同。」
def _balanced(st: InfiltraitorsState, target: int) -> bool:
    """Missions 7/13: as many upright as sideways hints, and at least 4 in all."""
    hints = board.hints(st, target)
    upright = sum(1 for _, up in hints if up)
    return len(hints) >= 4 and 2 * upright == len(hints)


def _reward_legal(st: InfiltraitorsState) -> list[Action]:
    acts: list[Action] = [("reward", card.card, card.copy) for card in st.piles.pile(DISCARD_UP)]
    if st.piles.count(DISCARD_DOWN):
        acts.append(("reward_blind",))
    return acts + [("reward_skip",)]


def extra_hint_legal(st: InfiltraitorsState) -> list[Action]:
    acts: list[Action] = [("extra_hint", 0, card.card, card.copy) for card in board.hand(st, st.actor)]
    return acts + [("extra_hint", 1, card.card, card.copy) for card in st.piles.pile(DISCARD_UP)]

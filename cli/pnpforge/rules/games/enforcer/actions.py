"""Which decisions are legal in a position, and each action in words.

An action is a tuple `(kind, *arguments)`: card ids for cards in hand (copies of
one card are interchangeable), 'OB-03#0' for an obligor, seat numbers for
players, objection indices for objections shown.  At a chance node the actions
are the card ids that can come off the pile.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from .data import AID, RESTRICTION, SEIZURE, STRATEGY, CardData, Obligor, PlayCard
from .effects import instance
from .flow import chance_pile, master_can_take
from .power import active_objections

if TYPE_CHECKING:
    from .state import EnforcerState

MORNING, EVENING = 0, 2
PERIOD_NAMES = ("上午", "下午", "晚上")


def legal_actions(st: EnforcerState) -> list:
    if st.phase == "end":
        return []
    if st.pending:  # the distinct ids left in the pile, sorted: kept by the piles until one runs out
        return list(st.piles.sorted_ids(chance_pile(st.pending[0])))
    seat = st.actor()
    acts: list = []
    phase = st.phase
    if phase == "period":
        acts = strategy_actions(st, seat)
        if st.period == EVENING:
            acts.append(("end_turn",))
        else:
            acts += main_actions(st, seat)
    elif phase == "exec":
        acts = execution_actions(st, seat)
    elif phase == "officer":  # two copies of one officer may be dealt: one action
        acts = list({("officer", cid) for cid in st.piles.ids(st.seat_names[seat]["dealt"])})
    elif phase == "clock_in":
        acts = [("draw",), ("take_specialty",)]
    elif phase == "give":
        acts = give_actions(st, seat)
    elif phase == "discard":
        acts = [("discard", cid) for cid in set(st.piles.ids(st.seat_names[seat]["hand"]))]
    # every list above holds each action once (one per distinct card id, obligor, seat, objection)
    acts.sort()
    return acts


def main_actions(st: EnforcerState, seat: int) -> list:
    """Morning and afternoon: study the files, execute an obligor, or take a project."""
    acts: list = [("research",)]
    if master_can_take(st, seat):
        acts.append(("research_sp",))
    blocked = st.award_block  # cards are interned: `is` is their equality
    delayed, news, obligors = st.delayed, st.news, st.cards.obligor
    # the table's texts are kept by the piles until the table changes
    for card, text in zip(st.piles.view("table"), st.piles.texts("table"), strict=True):
        held = bool(delayed and delayed.get(card))
        if card is not blocked and not held:
            acts.append(("execute", text))
        # on the table, so projectable unless 大戶 or under a 延緩執行 / 發布新聞 (as `st.affected`)
        if not obligors[card.card].big and not held and not (news and news.get(card)):
            acts.append(("project", text))
    project = st.project(seat)
    if project is not None and project is not blocked:
        acts.append(("execute", str(project)))
    return acts


# rulebook 000:427 「但「執行義務人」的途中，只有「協同辦案」可以發動」
def strategy_actions(st: EnforcerState, seat: int) -> list:
    """Strategy cards, playable in any period without using it up."""
    acts: list = []
    play = st.cards.play
    projectable: list[str] | None = None  # the projectable obligors' texts, found once per call
    for cid in st.cards.strategy.intersection(st.piles.ids(st.seat_names[seat]["hand"])):
        effect = play[cid].effect
        if effect == "delay" or effect == "news":
            acts += [("strat", cid, text) for text in st.piles.texts("table")]
        elif effect == "bonus_project" or effect == "assign_project":
            if projectable is None:
                projectable = projectable_texts(st)
            if effect == "bonus_project":
                acts += [("strat", cid, text) for text in projectable]
            else:
                alive = st.alive()
                acts += [("strat", cid, text, s) for text in projectable for s in alive]
        else:  # cowork, or an effect the engine does not know
            acts.append(("strat", cid))
    return acts


# rulebook 000:121 「大戶義務人不能被列為專案」
def projectable_texts(st: EnforcerState) -> list[str]:
    """The table's obligors that may become a project (`st.projectable`, for cards on the table)."""
    delayed, news, obligors = st.delayed, st.news, st.cards.obligor
    return [
        text
        for card, text in zip(st.piles.view("table"), st.piles.texts("table"), strict=True)
        if not obligors[card.card].big
        and not (delayed and delayed.get(card))
        and not (news and news.get(card))
    ]


# rulebook 000:125 「查封、限制類執行卡對弱勢無效」
# rulebook 000:155 「扶助：僅能對弱勢使用」
def play_block_by_target(card: PlayCard, obligor: Obligor, weak: bool) -> str | None:
    """Why `card` can never be played against `obligor` (None: it can), `weak` as `st.weak` says of
    the target; a pure function of the cards, so its verdicts are kept per game data.  A
    'requires_card' card also needs its partner played this turn (checked by the caller)."""
    if weak and (card.family in (SEIZURE, RESTRICTION) or card.effect == "not_vs_weak"):
        return "無效：弱勢"
    if not weak and card.family == AID:
        return "扶助類僅能對弱勢使用"
    if card.family == RESTRICTION and obligor.effect == "immune_restriction":
        return "限制類執行卡無效"
    if card.effect == "min_difficulty" and obligor.difficulty < card.value:
        return f"難度須≥{card.value}"
    return None


def blocked_table(cards: CardData) -> dict[tuple[str, bool], dict[str, bool]]:
    """`play_block_by_target` of every play card against every obligor, weak or not, by
    (obligor id, weak) then card id: static data of the cards, worked out once with the rules."""
    return {
        (obligor.id, weak): {
            cid: play_block_by_target(card, obligor, weak) is not None for cid, card in cards.play.items()
        }
        for obligor in cards.obligor.values()
        for weak in (False, True)
    }


def execution_actions(st: EnforcerState, seat: int) -> list:
    """During an execution: play a card (paying its cost), veto an objection, or resolve."""
    execution = st.execution
    assert execution is not None
    acts: list = [("resolve",)]
    hand = st.piles.ids(st.seat_names[seat]["hand"])
    ids: dict[str, int] = {}  # copies of each id, in hand order (a Counter costs more to build)
    for cid in hand:
        ids[cid] = ids.get(cid, 0) + 1
    active = active_objections(st.piles.ids("objection_shown"), execution.cancelled)
    obligor, weak, play = st.obligor(execution.target), st.weak(execution.target), st.cards.play
    # the verdicts of play_block_by_target for this target, by card id (worked out with the rules)
    blocked = st.cards.blocked.get((obligor.id, weak), {})
    played_keys = st.played_keys
    for cid in ids:
        card = play[cid]
        if card.family == STRATEGY:
            if card.effect == "cowork":
                acts.append(("strat", cid))
            continue
        block = blocked.get(cid)
        if block is None:  # cards whose table was not worked out (a test's hand-made data)
            block = play_block_by_target(card, obligor, weak) is not None
        if block or (card.effect == "requires_card" and card.requires not in played_keys):
            continue
        if card.effect == "discard_cost":
            acts += [("play", cid, other) for other, k in ids.items() if k > (other == cid)]
        elif card.effect == "discard_restriction_cost":
            acts += [
                ("play", cid, other)
                for other, k in ids.items()
                if k > (other == cid) and st.cards.play[other].family == RESTRICTION
            ]
        elif card.effect == "cancel_objection":
            acts += [("play", cid, i) for i in active] or [("play", cid, -1)]
        else:
            acts.append(("play", cid))
    if active and not st.veto_used and hand:
        officer = st.officer_of(seat)
        if officer and officer.effect == "veto_objection":
            acts += [("veto", i, cid) for i in active for cid in ids]
    return acts


def give_actions(st: EnforcerState, seat: int) -> list:
    """協同辦案: one card of the hand (never a specialty card) to another player still in."""
    cards = {c.card for c in st.hand(seat) if c not in st.specialty_owner}
    return [("give", cid, s) for cid in cards for s in st.alive() if s != seat]


# ---- text ---------------------------------------------------------------------------------------


def _name(st: EnforcerState, ref: str) -> str:
    cid = instance(ref).card if "#" in ref else ref
    return f"{st.cards.names.get(cid, cid)} ({ref})"


def action_text(st: EnforcerState, action: Hashable) -> str:
    if st.pending:
        what = {"draw": "抽牌", "reveal": "翻開義務人", "objection": "翻開聲明異議", "officer": "發執行官"}
        return f"{what[st.pending[0][0]]}: {_name(st, str(action))}"
    act = action if isinstance(action, tuple) else (action,)
    kind = act[0]
    who = f"P{st.actor()}"
    if kind == "officer":
        return f"{who} 選擇執行官 {_name(st, act[1])}"
    if kind in ("execute", "project"):
        verb = "執行義務人" if kind == "execute" else "專案列管"
        return f"{who} {PERIOD_NAMES[st.period]} {verb} {_name(st, act[1])}"
    if kind == "play":
        extra = f"（{act[2]}）" if len(act) > 2 else ""
        return f"{who} 打出 {_name(st, act[1])}{extra}"
    if kind == "strat":
        rest = " → ".join(_name(st, x) if isinstance(x, str) else f"P{x}" for x in act[2:])
        return f"{who} 策略 {_name(st, act[1])}" + (f" → {rest}" if rest else "")
    if kind == "give":
        return f"{who} 送出 {_name(st, act[1])} 給 P{act[2]}"
    if kind == "discard":
        return f"{who} 捨棄 {_name(st, act[1])}"
    if kind == "veto":
        return f"{who} 異議駁回（第{act[1]}張異議，捨棄 {_name(st, act[2])}）"
    if kind == "resolve":
        return f"{who} 結算執行 {st.execution_power()} vs {st.execution_difficulty()}"
    return f"{who} {' '.join(map(str, act))}"

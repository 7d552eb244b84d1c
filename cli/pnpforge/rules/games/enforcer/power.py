"""Execution arithmetic: the power of the cards played against an obligor, and its difficulty.

The pure functions take plain values so the state (which knows everything) and
the greedy agent (which knows only its observation) compute the same numbers.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, RuleViolation

from .data import AID, SEIZURE, STRATEGY, CardData, Obligor, Officer

if TYPE_CHECKING:
    from .state import EnforcerState


def active_objections(shown: Sequence[str], cancelled: Collection[int]) -> list[int]:
    """Indices of the objection cards shown that no 釋明法令 or veto cancelled."""
    if not cancelled:
        return list(range(len(shown)))
    return [i for i in range(len(shown)) if i not in cancelled]


# rulebook 000:129 「聲明異議：隨機翻異議卡增加難度」
def difficulty(cards: CardData, obligor: Obligor, shown: Sequence[str], cancelled: Collection[int]) -> int:
    """The obligor's difficulty plus the active objections' increases."""
    total = obligor.difficulty
    for i in active_objections(shown, cancelled):
        objection = cards.objection[shown[i]]
        if objection.effect == "difficulty_up":
            total += objection.value
    return total


def voided_families(cards: CardData, shown: Sequence[str], cancelled: Collection[int]) -> set[str]:
    """Families whose power an active objection voids (查封錯誤, 限制錯誤)."""
    out = set()
    for i in active_objections(shown, cancelled):
        objection = cards.objection[shown[i]]
        if objection.effect == "void_family" and objection.family:
            out.add(objection.family)
    return out


def total_power(
    cards: CardData,
    obligor: Obligor,
    weak: bool,
    played: Iterable[str],
    voided: Collection[str],
    officer: Officer | None,
    award_power: int,
) -> int:
    """Power of `played` card ids: weakness ×2, each 拍賣 doubles one 查封 (the strongest first),
    a 專股 officer's bonus, and the project's 獎檢公告 power."""
    return (
        cards_power(cards, obligor.weakness, weak, played, voided)
        + officer_bonus(obligor, officer)
        + award_power
    )


# rulebook 000:130 「弱點：該執行卡之執行力雙倍計算」
def cards_power(
    cards: CardData, weakness: str | None, weak: bool, played: Iterable[str], voided: Collection[str]
) -> int:
    """The cards' part of `total_power`: what depends on the obligor only through its weakness."""
    total = 0
    auctions = 0
    seizures: list[int] = []
    play = cards.play
    for cid in played:
        card = play[cid]
        family = card.family
        if family == STRATEGY or family in voided:
            continue
        if family == AID and not weak:
            continue  # 扶助 voided once a 假弱勢 is exposed
        power = card.power * (2 if weakness and card.key == weakness else 1)
        if family == SEIZURE:
            seizures.append(power)
            continue
        if card.effect == "double_seizure":
            auctions += 1
        total += power
    if seizures:
        seizures.sort(reverse=True)
        total += sum(p * 2 if i < auctions else p for i, p in enumerate(seizures))
    return total


# rulebook 000:100 「對財稅類義務人執行時」
# rulebook 000:101 「額外獲得1點執行力」
def officer_bonus(obligor: Obligor, officer: Officer | None) -> int:
    """A 專股 officer's bonus against obligors of its category."""
    if officer and officer.effect == "specialist" and officer.category in obligor.categories:
        return officer.value
    return 0


def added_power(
    cards: CardData, obligor: Obligor, weak: bool, cid: str, voided: Collection[str]
) -> int | None:
    """What playing `cid` adds to the power of an execution, or None when that depends on the
    other cards played (a 查封 or a 拍賣: the doublings pair them).  Mirrors `cards_power`."""
    card = cards.play[cid]
    family = card.family
    if family == STRATEGY or family in voided or (family == AID and not weak):
        return 0
    if family == SEIZURE or card.effect == "double_seizure":
        return None
    weakness = obligor.weakness
    return card.power * (2 if weakness and card.key == weakness else 1)


# ---- the same, read from a state ---------------------------------------------------------------


def _shown(st: EnforcerState) -> list[str]:
    return list(st.piles.ids("objection_shown"))


def execution_difficulty(st: EnforcerState) -> int:
    execution = st.execution
    if execution is None:
        raise RuleViolation("no execution under way")
    return difficulty(st.cards, st.obligor(execution.target), _shown(st), execution.cancelled)


def execution_totals(st: EnforcerState) -> tuple[int, int]:
    """`execution_power` and `execution_difficulty` together, the objections shown read once."""
    execution = st.execution
    if execution is None:
        raise RuleViolation("no execution under way")
    shown, cancelled = st.piles.ids("objection_shown"), execution.cancelled
    voided = voided_families(st.cards, shown, cancelled) if shown else set()
    played = list(st.piles.ids("in_play"))
    power = power_against(st, execution.seat, execution.target, execution.source, played, voided)
    return power, difficulty(st.cards, st.obligor(execution.target), shown, cancelled)


def execution_power(st: EnforcerState, extra: list[str] | None = None) -> int:
    """Power of the cards in play (plus `extra` card ids, for look-ahead)."""
    execution = st.execution
    if execution is None:
        raise RuleViolation("no execution under way")
    played = [*st.piles.ids("in_play"), *(extra or [])]
    voided = voided_families(st.cards, _shown(st), execution.cancelled)
    return power_against(st, execution.seat, execution.target, execution.source, played, voided)


def power_against(
    st: EnforcerState,
    seat: int,
    target: CardInstance,
    source: str,
    played: list[str],
    voided: Collection[str],
) -> int:
    award = 0
    if source == "project" and st.project(seat) == target:
        award = sum(st.cards.play[cid].power for cid in st.piles.ids(st.seat_names[seat]["award"]))
    return total_power(
        st.cards, st.obligor(target), st.weak(target), played, voided, st.officer_of(seat), award
    )

"""What chance outcomes and players' decisions do to a position.

Decisions arrive as tuples `(kind, *arguments)` (see `actions`); each kind has
one function here.  Execution cards' effects are keyed by the card's `effect`
field, so a card's behaviour follows the database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CardInstance

from . import flow
from .data import AID, DISCARD_COSTS, START_HAND, TABLE_SIZE
from .flow import discard, first, first_drawn
from .power import execution_totals

if TYPE_CHECKING:
    from .state import EnforcerState


def name(st: EnforcerState, cid: str) -> str:
    """A card's printed name, for event texts."""
    return st.cards.names.get(cid, cid)


def instance(text: str) -> CardInstance:
    """'OB-03#0' → the card instance it names."""
    cid, _, copy = text.rpartition("#")
    return CardInstance(cid, int(copy))


# ---- chance -------------------------------------------------------------------------------------


def apply_chance(st: EnforcerState, cid: str) -> None:
    task = st.pending.pop(0)
    kind = task[0]
    if kind == "draw":
        st.piles.move(first_drawn(st, "exec_deck", cid), "exec_deck", st.seat_names[task[1]]["hand"])
    elif kind == "reveal":
        st.piles.move(first_drawn(st, "obligor_deck", cid), "obligor_deck", "table")
        st.outcome(None, f"{name(st, cid)} revealed on the table", cid)
    elif kind == "officer":
        st.piles.move(first_drawn(st, "officer_deck", cid), "officer_deck", st.seat_names[task[1]]["dealt"])
    elif kind == "objection":
        st.piles.move(first_drawn(st, "objection_deck", cid), "objection_deck", "objection_shown")
        execution = st.execution
        seat = execution.seat if execution else None
        against = f" against {name(st, execution.target.card)}" if execution else ""
        st.used(seat, cid, f"objection {name(st, cid)} flipped{against}")
        if (
            execution
            and st.cards.objection[cid].effect == "none"
            and st.obligor(execution.target).effect == "redraw_on_dismissed"
        ):
            st.pending.insert(0, ("objection",))  # 黑道酒店大亨: 若抽出異議駁回則再抽一張
            st.outcome(seat, f"{name(st, execution.target.card)} flips another objection")


# ---- decisions ----------------------------------------------------------------------------------


def apply_decision(st: EnforcerState, action: tuple) -> None:
    DECISIONS[action[0]](st, st.actor(), *action[1:])


def _officer(st: EnforcerState, seat: int, cid: str) -> None:
    """Keep one of the two dealt officers; the other is its cover; take a penalty marker."""
    st.piles.move(first(st, f"dealt:{seat}", cid), f"dealt:{seat}", f"officer:{seat}")
    st.piles.move_all(f"dealt:{seat}", f"cover:{seat}")
    officer = st.cards.officer[cid]
    st.used(seat, cid, f"chose {name(st, cid)} as officer")
    marker = st.piles.draw("penalty_supply", f"penalty:{seat}")
    st.used(seat, marker.card, "took a penalty marker")
    if officer.effect == "rookie_track":
        st.tracks[seat] = st.cards.rookie_track
    if officer.effect == "master" and officer.specialty:
        specialty = first(st, "box", officer.specialty)
        st.piles.move(specialty, "box", f"specialty:{seat}")
        st.specialty_owner[specialty] = seat
        st.outcome(seat, f"puts the specialty card {name(st, specialty.card)} beside the officer")
    if seat + 1 < st.players:
        st.choosing = seat + 1
        return
    st.piles.move_all("officer_deck", "box")
    st.phase = "deal"
    for s in range(st.players):
        st.pending += [("draw", s)] * START_HAND
    st.pending += [("reveal",)] * TABLE_SIZE
    st.then = "start_game"


def _draw(st: EnforcerState, seat: int) -> None:
    st.pending.append(("draw", seat))
    st.then = "morning"


def _take_specialty(st: EnforcerState, seat: int) -> None:
    st.piles.draw(f"specialty:{seat}", f"hand:{seat}")
    flow.morning(st)


# rulebook 000:330 「研究卷宗：抽1張牌」
def _research(st: EnforcerState, seat: int) -> None:
    st.pending.append(("draw", seat))
    st.then = "next_period"


def _research_specialty(st: EnforcerState, seat: int) -> None:
    st.piles.draw(f"specialty:{seat}", f"hand:{seat}")
    flow.next_period(st)


# rulebook 000:329 「專案列管：將一位義務人列為自己的專案」
def _project(st: EnforcerState, seat: int, target: str) -> None:
    card = instance(target)
    if st.project(seat) is not None:
        flow.penalize(st, seat, "replaced its project")  # 專案列管 replaces the old project
    if st.out_of_game[seat]:
        flow.next_period(st)
        return
    flow.set_project(st, seat, card)
    st.outcome(seat, f"takes {name(st, card.card)} as its project", card.card)
    st.then = "next_period"


# rulebook 000:328 「執行義務人：選擇一位義務人進行執行」
# rulebook 000:416 「跳過桌面上的矚目義務人，執行其他桌面上的義務人（不含專案）」
def _execute(st: EnforcerState, seat: int, target: str) -> None:
    card = instance(target)
    if st.project(seat) == card:
        flow.open_execution(st, seat, card, "project")
        return
    due = []
    if not st.spotlight(card) and any(st.spotlight(o) for o in st.piles.view("table") if o != card):
        due.append("passed over a 矚目 obligor")
    if st.project(seat) is not None:
        due.append("abandoned its project")
        flow.drop_project(st, seat)
    for why in due:
        if not st.out_of_game[seat]:
            flow.penalize(st, seat, why)
    if st.out_of_game[seat]:
        flow.next_period(st)
        return
    flow.open_execution(st, seat, card, "table")


# rulebook 000:333 「回合結束：手牌捨棄至6張」
def _end_turn(st: EnforcerState, seat: int) -> None:
    if st.piles.count(st.seat_names[seat]["hand"]) > st.hand_limit(seat):
        st.phase = "discard"
    else:
        flow.next_turn(st)


def _discard(st: EnforcerState, seat: int, cid: str) -> None:
    discard(st, first(st, f"hand:{seat}", cid), f"hand:{seat}")
    if st.piles.count(st.seat_names[seat]["hand"]) <= st.hand_limit(seat):
        flow.next_turn(st)


def _give(st: EnforcerState, seat: int, cid: str, to: int) -> None:
    st.piles.move(first(st, f"hand:{seat}", cid), f"hand:{seat}", f"hand:{to}")
    st.phase = st.give_return


def _veto(st: EnforcerState, seat: int, index: int, cost: str) -> None:
    """高手執行官: discard a card to cancel one objection, once per turn."""
    discard(st, first(st, f"hand:{seat}", cost), f"hand:{seat}")
    st.outcome(seat, f"vetoes objection {index + 1}, discarding {name(st, cost)}")
    st.veto_used = True
    assert st.execution is not None
    st.execution.cancelled.add(index)


# rulebook 000:428 「策略卡不占行動機會，打出策略卡後，可以繼續上、下午的行動」
def _strategy(
    st: EnforcerState, seat: int, cid: str, target: str | None = None, to: int | None = None
) -> None:
    card = first(st, f"hand:{seat}", cid)
    effect = st.cards.play[cid].effect
    obligor = instance(target) if target else None
    on = f" on {name(st, obligor.card)}" if obligor else ""
    st.used(
        seat,
        cid,
        f"played the strategy card {name(st, cid)}{on}" + (f" for seat {to}" if to is not None else ""),
    )
    if effect == "bonus_project" and obligor is not None:
        flow.set_project(st, seat, obligor)  # the old project (and its awards) go first
        st.piles.move(card, f"hand:{seat}", f"award:{seat}")
        st.award_block = obligor
        st.then = "stay"
        return
    discard(st, card, f"hand:{seat}")
    if effect == "cowork":
        st.pending += [("draw", seat)] * st.cards.play[cid].value
        st.then = "give"
    elif effect == "assign_project" and obligor is not None and to is not None:
        flow.set_project(st, to, obligor)
        st.then = "stay"
    elif effect == "delay" and obligor is not None:
        st.delayed.setdefault(obligor, set()).add(seat)
    elif effect == "news" and obligor is not None:
        st.news.setdefault(obligor, set()).add(seat)


def _play(st: EnforcerState, seat: int, cid: str, extra: Any = None) -> None:
    execution = st.execution
    assert execution is not None
    hand = st.seat_names[seat]["hand"]
    st.piles.move(first(st, hand, cid), hand, "in_play")
    card = st.cards.play[cid]
    st.played_keys.add(card.key)
    st.used(seat, cid, f"played {name(st, cid)} against {name(st, execution.target.card)}")
    if card.effect in DISCARD_COSTS:
        discard(st, first(st, hand, extra), hand)
    elif card.effect == "draw":
        st.pending += [("draw", seat)] * card.value
    elif card.effect == "expose":
        if "假弱勢" in st.obligor(execution.target).traits:
            st.exposed.add(execution.target)
    elif card.effect == "cancel_objection" and isinstance(extra, int) and extra >= 0:
        execution.cancelled.add(extra)
    elif card.effect == "extra_objection":
        st.pending += [("objection",)] * card.value


# rulebook 000:112 「玩家從手中打出執行力合計大於或等於難度的執行卡，才能執行成功」
# rulebook 000:414 「執行義務人失敗」
def _resolve(st: EnforcerState, seat: int) -> None:
    """Power ≥ difficulty scores the obligor; anything less is a penalty and it stays."""
    execution = st.execution
    assert execution is not None
    obligor = st.obligor(execution.target)
    power, difficulty = execution_totals(st)
    success = power >= difficulty
    verdict = "succeeds" if success else "fails"
    st.outcome(
        seat, f"execution of {obligor.name} {verdict}: power {power} vs difficulty {difficulty}", obligor.id
    )
    weak = st.weak(execution.target)
    aided = weak and any(st.cards.play[cid].family == AID for cid in st.piles.ids("in_play"))
    flow.discard_all(st, "in_play")
    st.piles.move_all("objection_shown", "objection_deck")
    st.execution = None
    if success:
        if execution.source == "project":
            st.piles.move(execution.target, f"project:{seat}", f"scored:{seat}")
            flow.discard_all(st, f"award:{seat}")
        else:
            st.piles.move(execution.target, "table", f"scored:{seat}")
            flow.refill(st)
        st.points[seat] += obligor.score
        st.used(seat, obligor.id, f"executed {obligor.name}")
        st.score(seat, obligor.score, f"executed {obligor.name}", obligor.id)
        if aided:
            st.helped[seat].add(execution.target)
        _officer_bonus(st, seat, weak, obligor.traits)
    else:
        flow.penalize(st, seat, f"failed to execute {obligor.name}")
    st.then = "final_next" if execution.final else "next_period"


def _officer_bonus(st: EnforcerState, seat: int, weak: bool, traits: frozenset[str]) -> None:
    """達人 officers draw after a success against the obligors they are good with."""
    officer = st.officer_of(seat)
    if (
        officer
        and officer.effect == "draw_on_success"
        and (
            (officer.condition == "弱勢" and weak)
            or (officer.condition == "聲明異議" and "聲明異議" in traits)
        )
    ):
        st.pending += [("draw", seat)] * officer.value


DECISIONS: dict[str, Callable[..., None]] = {
    "officer": _officer,
    "draw": _draw,
    "take_specialty": _take_specialty,
    "research": _research,
    "research_sp": _research_specialty,
    "project": _project,
    "execute": _execute,
    "end_turn": _end_turn,
    "discard": _discard,
    "give": _give,
    "veto": _veto,
    "strat": _strategy,
    "play": _play,
    "resolve": _resolve,
}

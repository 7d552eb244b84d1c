"""The automatic part of the turn sequence, and the card movements the rules repeat.

A day (turn) is: clock in (draw 1) → morning and afternoon (one of execute an
obligor / take a project / study the files each) → evening (strategy cards
only) → discard to the hand limit.  Between decisions the state runs chance
tasks (`pending`: draws, reveals, objection flips) and then the step named by
`then`; `advance` does that until a decision, a chance node or the end.  An
execution under way is an `Execution`, opened here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, RuleViolation

from .data import TABLE_SIZE

if TYPE_CHECKING:
    from .state import EnforcerState

MORNING, EVENING = 0, 2
CHANCE_PILES = {"draw": "exec_deck", "reveal": "obligor_deck", "objection": "objection_deck"}
DRAWN_FROM = (*CHANCE_PILES.values(), "officer_deck")  # every pile a chance step draws from


@dataclass
class Execution:
    """The execution under way: who, against which obligor, from where."""

    seat: int
    target: CardInstance
    source: str  # "table" or "project"
    final: bool = False  # a make-up execution at game end
    cancelled: set[int] = field(default_factory=set)  # indices into the objections shown


def chance_pile(task: tuple) -> str:
    """The face-down pile a chance task draws from."""
    return CHANCE_PILES.get(task[0], "officer_deck")


def advance(st: EnforcerState) -> None:
    """Run pending chance tasks' bookkeeping and automatic steps until someone must act."""
    pending, piles = st.pending, st.piles
    while st.phase != "end":
        if pending:
            task = pending[0]
            if task[0] == "draw" and not piles.count("exec_deck") and piles.count("exec_discard"):
                piles.move_all("exec_discard", "exec_deck")  # house rule: reshuffle the discards
            if piles.count(CHANCE_PILES.get(task[0], "officer_deck")):  # chance_pile(task), inline
                return
            pending.pop(0)  # nothing left to draw: the draw is lost
            continue
        if st.then is None:
            return
        step, st.then = st.then, None
        STEPS[step](st)


# ---- steps named by `then` -------------------------------------------------------------------


# rulebook 000:254 「每位玩家發2張執行官卡，各自從其中選擇一張使用」
def _choose_officers(st: EnforcerState) -> None:
    st.phase = "officer"
    st.choosing = 0


# rulebook 000:257 「每位玩家發5張執行卡」
# rulebook 000:258 「台面上翻出4張義務人」
def _start_game(st: EnforcerState) -> None:
    begin_turn(st, 0)


def morning(st: EnforcerState) -> None:
    st.phase = "period"
    st.period = MORNING


def _stay(st: EnforcerState) -> None:
    """After a strategy card's draws/reveals: the same phase goes on unless the game ended."""
    check_end(st)


def _give(st: EnforcerState) -> None:
    """After 協同辦案's draws: give one card away (skipped when nothing can be given)."""
    from .actions import give_actions  # import cycle: actions imports this module

    if give_actions(st, st.actor()):
        st.give_return, st.phase = st.phase, "give"


STEPS = {
    "choose_officers": _choose_officers,
    "start_game": _start_game,
    "morning": morning,
    "next_period": lambda st: next_period(st),
    "stay": _stay,
    "give": _give,
    "final_next": lambda st: next_final(st),
}


# ---- turns, periods and the end ------------------------------------------------------------


# rulebook 000:326 「打卡上班：抽一張牌」
def begin_turn(st: EnforcerState, seat: int) -> None:
    st.turn = seat
    st.turns += 1
    expire_effects(st, seat)
    st.played_keys = set()
    st.veto_used = False
    st.award_block = None
    if st.turns > st.rules.max_turns:
        start_final(st, "turn_limit")
        return
    if master_can_take(st, seat):
        st.phase = "clock_in"
        return
    st.phase = "clock_in_auto"
    st.pending.append(("draw", seat))
    st.then = "morning"


def master_can_take(st: EnforcerState, seat: int) -> bool:
    """A master officer whose specialty card is home may take it instead of drawing."""
    officer = st.officer_of(seat)
    return bool(officer and officer.effect == "master" and st.piles.count(st.seat_names[seat]["specialty"]))


def expire_effects(st: EnforcerState, seat: int) -> None:
    """延緩執行 / 發布新聞 cast by `seat` end at the start of its next turn (or its elimination)."""
    for effects in (st.delayed, st.news):
        for card in list(effects):
            effects[card].discard(seat)
            if not effects[card]:
                del effects[card]


def next_period(st: EnforcerState) -> None:
    if check_end(st):
        return
    if st.out_of_game[st.turn]:
        next_turn(st)
        return
    st.phase = "period"
    st.period = min(st.period + 1, EVENING)


# rulebook 000:325 「由起使玩家開始，順時針輪流進行回合，每回合為一天」
def next_turn(st: EnforcerState) -> None:
    """The next seat after the current one that is still in (the current one last) begins."""
    out, players = st.out_of_game, st.players
    for k in range(1, players + 1):
        seat = (st.turn + k) % players
        if not out[seat]:
            begin_turn(st, seat)
            return
    raise RuleViolation("no player left to take a turn")


# rulebook 000:437 「桌面上的義務人不足四人」
# rulebook 000:438 「淘汰到只剩下1位玩家時」
def check_end(st: EnforcerState) -> bool:
    """Ends the game (or starts the make-up executions) when a condition holds."""
    if st.phase == "end":
        return True
    if st.out_of_game.count(False) <= 1:  # one player (or none) still in
        finish(st, "last_player")
        return True
    if (
        not st.ending
        and st.piles.count("table") < TABLE_SIZE
        and not st.piles.count("obligor_deck")
        and not any(t[0] == "reveal" for t in st.pending)
    ):
        start_final(st, "table")
        return True
    return False


def start_final(st: EnforcerState, reason: str) -> None:
    """The game ends: every player still in with a project makes it up, in turn order."""
    st.ending = True
    st.reason = reason
    st.round(f"game end: {END_WORDS.get(reason, reason)}; players make up their projects")
    st.execution = None
    order = [(st.turn + k) % st.players for k in range(st.players)]
    st.final_order = [s for s in order if not st.out_of_game[s] and st.project(s)]
    next_final(st)


def next_final(st: EnforcerState) -> None:
    if len(st.alive()) <= 1:
        finish(st, "last_player")
        return
    while st.final_order:
        seat = st.final_order.pop(0)
        project = st.project(seat)
        if st.out_of_game[seat] or project is None:
            continue
        st.turn = seat
        st.played_keys = set()
        st.veto_used = False
        open_execution(st, seat, project, "project", final=True)
        return
    finish(st, st.reason or "table")


END_WORDS = {
    "table": "the obligor pile ran out and fewer than four obligors could be kept on the table",
    "last_player": "only one player is left in the game",
    "turn_limit": "the turn cap (option max_turns) was reached",
}


def finish(st: EnforcerState, reason: str) -> None:
    """The game is over: the end-of-game points are scored and the end recorded."""
    st.reason = reason
    st.phase = "end"
    st.pending.clear()
    st.then = None
    for seat in range(st.players):
        for points, why in st.final_adjustments(seat):
            st.score(seat, points, why)
    st.end(END_WORDS.get(reason, reason))


def open_execution(
    st: EnforcerState, seat: int, target: CardInstance, source: str, final: bool = False
) -> None:
    """Declare an execution: its objection cards are flipped at once."""
    st.execution = Execution(seat, target, source, final)
    st.phase = "exec"
    st.pending += [("objection",)] * st.obligor(target).objections


# ---- card movement ---------------------------------------------------------------------------


def first(st: EnforcerState, pile: str, cid: str) -> CardInstance:
    """The first instance of card `cid` in `pile` (piles of one id are interchangeable)."""
    for card in st.piles.view(pile):
        if card.card == cid:
            return card
    raise RuleViolation(f"card {cid} is not in pile {pile}")


def first_drawn(st: EnforcerState, pile: str, cid: str) -> CardInstance:
    """`first(st, pile, cid)` for a pile chance draws from, without a scan: the piles keep its
    copies by id in pile order (cards only ever go onto the top of these piles)."""
    copies = st.piles.copies(pile, cid)
    if not copies:
        raise RuleViolation(f"card {cid} is not in pile {pile}")
    return copies[0]


def discard(st: EnforcerState, card: CardInstance, src: str) -> None:
    """Played or discarded cards: execution cards to the discard pile, specialties home."""
    owner = st.specialty_owner.get(card)
    st.piles.move(card, src, f"specialty:{owner}" if owner is not None else "exec_discard")


def discard_all(st: EnforcerState, src: str) -> None:
    """Discard a pile from its top down."""
    while pile := st.piles.view(src):  # looked up afresh after each move (a view is not kept across one)
        discard(st, pile[-1], src)


def refill(st: EnforcerState) -> None:
    """Reveal obligors until four are on the table (counting reveals already pending)."""
    pending = sum(1 for t in st.pending if t[0] == "reveal")
    for _ in range(max(0, TABLE_SIZE - st.piles.count("table") - pending)):
        st.pending.append(("reveal",))


def drop_project(st: EnforcerState, seat: int) -> None:
    """The project (if any) goes back to the table; its 獎檢公告 cards are discarded."""
    project = st.project(seat)
    if project is not None:
        st.piles.move(project, f"project:{seat}", "table")
    discard_all(st, f"award:{seat}")


# rulebook 000:348 「玩家同時只會擁有一個專案」
def set_project(st: EnforcerState, seat: int, card: CardInstance) -> None:
    drop_project(st, seat)
    st.piles.move(card, "table", f"project:{seat}")
    refill(st)


# rulebook 000:419 「每次減分，向右移一格」
def penalize(st: EnforcerState, seat: int, why: str) -> None:
    st.penalties[seat] += 1
    st.outcome(seat, f"penalty {st.penalties[seat]}: {why}")
    if st.penalties[seat] >= st.tracks[seat].eliminate_at:
        eliminate(st, seat)


# rulebook 000:420 「減分至X時，直接淘汰」
def eliminate(st: EnforcerState, seat: int) -> None:
    """An eliminated player's hand is discarded and its project returns to the table."""
    st.out_of_game[seat] = True
    st.eliminated(seat, f"{st.penalties[seat]} penalties ran off the end of the penalty track")
    discard_all(st, f"hand:{seat}")
    drop_project(st, seat)
    expire_effects(st, seat)

"""What card effects do: accusation, execution, and the verbs of the effect language.

Every function here is a generator that yields a `Decision` whenever a seat or
chance must choose and returns whether the effect was carried out in full,
because general rule 1 ends an effect at the first step that cannot be.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pnpforge.rules.engine import RuleViolation
from pnpforge.rules.games.accusation import arithmetic, board
from pnpforge.rules.games.accusation.actions import (
    ACCEPT,
    ACCUSE,
    CHOOSE,
    DECLINE,
    DISCARD,
    NO_ACCUSE,
    Decision,
)
from pnpforge.rules.games.accusation.board import Attempt, Play
from pnpforge.rules.games.accusation.language import GUARD_AT_MOST_PATTERN, TARGET_VERBS, TYPED_VERBS, Step

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.state import AccusationState


# rulebook 004:304 「執行時若該效果有災厄，敵方可以控訴。」
def execute(st: AccusationState, seat: int, source: int, steps: Iterable[Step], kind: str) -> Attempt:
    """An executed effect: enemies may accuse it (災厄), otherwise it triggers."""
    accused = yield from accusation(st, seat, source, board.card(st, source).calamity)
    if accused:
        if kind == "chant":
            yield from _after_chant_accused(st, seat)
        return False
    yield from resolve(st, seat, source, tuple(steps))
    return True


# rulebook 004:269 「當執行災厄效果時，按照順時針輪流詢問每位玩家是否控訴。」
# rulebook 004:109 「每個效果只能使用1個信徒來控訴，不能累加多張信徒控訴。」
def accusation(st: AccusationState, seat: int, source: int, calamity: int | None) -> Attempt:
    """Ask each enemy clockwise; the first accuser cancels the effect."""
    if calamity is None:
        return False
    for enemy in board.enemies(st, seat):
        candidates = arithmetic.accusers(st, enemy, calamity)
        if not candidates:
            continue
        options = [(ACCUSE, f) for f in candidates] + [(NO_ACCUSE,)]
        choice = yield Decision(enemy, "accuse", options, {"source": source, "calamity": calamity})
        if choice[0] == NO_ACCUSE:
            continue
        accuser = choice[1]
        st.used(enemy, board.card(st, accuser).id, f"revealed {board.label(st, accuser)} to accuse")
        st.outcome(
            enemy,
            f"accused {board.label(st, source)} (災厄 {calamity}) with {board.label(st, accuser)}: cancelled",
            board.card(st, source).id,
        )
        board.move(st, accuser, enemy, "stack")  # 1. revealed; the effect is cancelled
        steps = board.card(st, accuser).steps("on_accuse")  # 2. its 控訴時 effect (cannot be accused)
        if steps:
            yield from resolve(st, enemy, accuser, steps)
        board.move(st, accuser, enemy, "field")  # 3. onto the accuser's field, guilty
        board.make_guilty(st, accuser)
        return True
    return False


def _after_chant_accused(st: AccusationState, seat: int) -> Play:
    """「後」 triggers of your cards, e.g. a location that reacts to an accused 詠頌."""
    for card in list(board.field(st, seat)):
        steps = board.card(st, card).steps("after_chant_accused")
        if steps and card not in st.guilty:
            yield from resolve(st, seat, card, steps)


# rulebook 004:354 「效果文字依照閱讀順序，必須盡可能完整執行，直到不能完整執行為止」
# rulebook 004:354 「該效果與之後的效果都不會再進行結算。」
def resolve(st: AccusationState, seat: int, source: int, steps: tuple[Step, ...]) -> Attempt:
    """Resolve steps in order; the first one not carried out in full ends the effect."""
    have = arithmetic.symbols(st, seat)
    repeats = [have[s.per[0]] // s.per[1] if s.per else 1 for s in steps]  # fixed at trigger
    done = True
    for step, count in zip(steps, repeats, strict=True):
        if step.if_done and not done:
            continue
        if step.condition and arithmetic.symbols(st, seat)[step.condition[0]] < step.condition[1]:
            continue
        for _ in range(count):
            if step.may:
                if not _possible(st, seat, step):
                    done = False
                    break
                options = [(ACCEPT,), (DECLINE,)]
                choice = yield Decision(seat, "may", options, {"step": step, "source": source})
                if choice[0] == DECLINE:
                    done = False
                    break
            carried_out = yield from _verb(st, seat, source, step)
            if not carried_out:
                return False
            done = True
    return True


def _possible(st: AccusationState, seat: int, step: Step) -> bool:
    """Whether an optional step could be carried out at all (else it is not offered)."""
    verb = step.verb
    if verb == "draw":
        return bool(board.pile(st, seat, "deck"))
    if verb in ("discard", "sacrifice"):
        return bool(board.pile(st, seat, "hand")) and (
            verb == "discard" or bool(board.field(st, seat, "ritual"))
        )
    if verb in TYPED_VERBS:
        pile = "deck" if verb == "search" else "discard"
        return bool(board.of_kind(st, board.pile(st, seat, pile), step.kind))
    if verb in TARGET_VERBS:
        return bool(_targets(st, seat, step))
    if verb == "absolve":
        return any(f in st.guilty for f in board.field(st, seat, "follower"))
    return True


# rulebook 004:288 「被破壞的卡牌會從場上被置入棄牌區。」
def destroy(st: AccusationState, card: int) -> Play:
    """Field -> owner's discard; attached followers stay on the field; 'on_destroyed' fires."""
    owner = board.owner(st, card)
    board.move(st, card, owner, "discard")
    st.outcome(owner, f"{board.label(st, card)} destroyed", board.card(st, card).id)
    steps = board.card(st, card).steps("on_destroyed")
    if steps:
        yield from resolve(st, owner, card, steps)


def _verb(st: AccusationState, seat: int, source: int, step: Step) -> Attempt:
    verb = step.verb
    if verb == "draw":
        for _ in range(step.count):
            if not (yield from board.draw(st, seat)):
                return False
        return True
    if verb == "discard":
        return (yield from board.discard(st, seat, step.count, "effect"))
    if verb in ("each_discard", "enemy_discard"):
        seats = board.clockwise(st, st.turn_seat) if verb == "each_discard" else board.enemies(st, seat)
        results = []
        for other in seats:
            results.append((yield from board.discard(st, other, step.count, "effect")))
        return any(results)
    if verb in TYPED_VERBS:
        return (yield from _fetch(st, seat, step))
    if verb in TARGET_VERBS:
        return (yield from _target(st, seat, step))
    if verb == "each_destroy_own_follower":
        return (yield from _each_destroy_own_follower(st, verb))
    if verb == "absolve":
        return (yield from _absolve(st, seat, step))
    if verb == "sacrifice":
        return (yield from _sacrifice(st, seat, step.count))
    if verb == "rechant":
        return (yield from _rechant(st, seat, verb))
    raise RuleViolation(f"verb '{verb}' has no implementation")  # parse_effect admits no others


def _each_destroy_own_follower(st: AccusationState, verb: str) -> Attempt:
    """Each seat from the turn seat on destroys one of its own followers, if it has one."""
    results = []
    for seat in board.clockwise(st, st.turn_seat):
        own = board.field(st, seat, "follower")
        if not own:
            results.append(False)
            continue
        choice = yield Decision(seat, "choose", [(CHOOSE, f) for f in own], {"verb": verb})
        yield from destroy(st, choice[1])
        results.append(True)
    return any(results)


def _rechant(st: AccusationState, seat: int, verb: str) -> Attempt:
    """Execute the 詠頌 of one of your innocent followers again (it can be accused again)."""
    candidates = [f for f in board.innocent_followers(st, seat) if board.card(st, f).steps("chant")]
    if not candidates:
        return False
    choice = yield Decision(seat, "choose", [(CHOOSE, f) for f in candidates], {"verb": verb})
    yield from execute(st, seat, choice[1], board.card(st, choice[1]).steps("chant") or (), "chant")
    return True


# rulebook 004:316 「若你從牌庫尋找指定牌，展示並加入指定區域後，重洗牌庫。」
def _fetch(st: AccusationState, seat: int, step: Step) -> Attempt:
    """search (deck→hand, revealed; the deck is reshuffled), recover (discard→hand),
    revive (discard→field)."""
    pile = "deck" if step.verb == "search" else "discard"
    candidates = board.of_kind(st, board.pile(st, seat, pile), step.kind)
    if not candidates:
        return False
    choice = yield Decision(seat, "choose", [(CHOOSE, c) for c in candidates], {"verb": step.verb})
    board.move(st, choice[1], seat, "field" if step.verb == "revive" else "hand")
    return True


def _targets(st: AccusationState, seat: int, step: Step) -> list[int]:
    kind = "location" if step.verb == "destroy_location" else "follower"
    seats: Iterable[int] = range(st.players)
    if "own" in step.filters:
        seats = [seat]
    elif "enemy" in step.filters:
        seats = board.enemies(st, seat)
    return [card for other in seats for card in board.field(st, other, kind) if _matches(st, card, step)]


def _matches(st: AccusationState, card: int, step: Step) -> bool:
    definition = board.card(st, card)
    for flt in step.filters:
        if flt == "guilty" and card not in st.guilty:
            return False
        if flt == "innocent" and card in st.guilty:
            return False
        if flt == "chant" and not definition.steps("chant"):
            return False
        if flt.startswith("not:") and definition.location_type == flt[4:]:
            return False
        if flt.startswith("is:") and definition.location_type != flt[3:]:
            return False
        if (match := GUARD_AT_MOST_PATTERN.match(flt)) and arithmetic.guard(st, card) > int(match.group(1)):
            return False
    return not (step.verb == "make_guilty" and card in st.guilty)


def _target(st: AccusationState, seat: int, step: Step) -> Attempt:
    candidates = _targets(st, seat, step)
    if not candidates:
        return False
    choice = yield Decision(seat, "choose", [(CHOOSE, c) for c in candidates], {"verb": step.verb})
    card = choice[1]
    if step.verb in ("destroy_follower", "destroy_location"):
        yield from destroy(st, card)
    elif step.verb == "make_guilty":
        board.make_guilty(st, card)
        st.outcome(board.owner(st, card), f"{board.label(st, card)} made guilty", board.card(st, card).id)
    elif step.verb == "bounce":
        owner = board.owner(st, card)
        board.move(st, card, owner, "hand")
        st.outcome(owner, f"{board.label(st, card)} returned to its owner's hand", board.card(st, card).id)
    return True


def _absolve(st: AccusationState, seat: int, step: Step) -> Attempt:
    """解除罪惡 n followers ("upto": at most n, may stop); they do not resume 駐守/解構."""
    for _ in range(step.count):
        candidates = [f for f in board.field(st, seat, "follower") if f in st.guilty]
        if not candidates:
            return step.upto
        options = [(CHOOSE, f) for f in candidates] + ([(DECLINE,)] if step.upto else [])
        choice = yield Decision(seat, "choose", options, {"verb": "absolve"})
        if choice[0] == DECLINE:
            return True
        board.absolve(st, choice[1])
    return True


def _sacrifice(st: AccusationState, seat: int, count: int) -> Attempt:
    """獻祭: cards from hand go face down under one of your rituals (none: impossible)."""
    rituals = board.field(st, seat, "ritual")
    if not rituals:
        return False
    choice = yield Decision(seat, "choose", [(CHOOSE, r) for r in rituals], {"verb": "sacrifice"})
    ritual = choice[1]
    for _ in range(count):
        hand = board.pile(st, seat, "hand")
        if not hand:
            return False
        offered = yield Decision(seat, "discard", [(DISCARD, c) for c in hand], {"why": "sacrifice"})
        board.move(st, offered[1], seat, "under")
        board.attach(st, "sacrificed", offered[1], ritual)
    return True

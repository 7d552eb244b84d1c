"""What every rule of Dirty Money reads: the pending steps, the piles, small queries (functions
over `state.DirtyMoneyState`).

How the state works: a stack of small data-only `Step`s is the program counter.  Each step
kind has an actor function (a seat, CHANCE, or AUTO for bookkeeping that needs no decision),
a legal-action function and an apply function (named together in `state.STEPS`); the state
runs AUTO steps until a decision or a chance draw is due.  Every draw from a deck (money,
placement, villain, the random cards of an inspection) is an explicit chance node whose
outcomes are card ids weighted by the copies left, so a game is a pure function of its seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter, indexOf
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CHANCE, CardInstance, RuleViolation
from pnpforge.rules.games.dirty_money.data import CRYPTO, HAND_LIMIT, Money, Placement, Villain
from pnpforge.rules.games.dirty_money.memo import READOUTS

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState

AUTO = -99  # internal actor: the step resolves without a decision

# Every action is a tuple led by its kind: ("go", location id), ("pay", card id, 1), and at a
# chance step ("draw", card id); tuples of one engine sort, and their kinds read in logs.
Action = tuple[Any, ...]
# The piles of a table and each pile's starting cards, the same for every game of a player count
TablePlan = tuple[tuple[str, ...], tuple[tuple[str, tuple[CardInstance, ...]], ...]]


# The deck each chance step draws from ("pdeck:" + the step's region); an inspection draws from a hand.
_DRAW_PILE = {
    "deal_villain": "villain_pool",
    "draw_placement": "pdeck:",
    "draw_money": "money_deck",
    "launder": "money_deck",
}


_copy_number = attrgetter("copy")  # a card instance's copy number, read in C
_card_id = attrgetter("card")  # a card instance's card id, read in C


@dataclass(slots=True)
class Step:
    """One pending step of the game's procedure (data only, so positions copy cheaply).

    `seat` is whose step it is (-1 for table bookkeeping), `stage` how far the step has got,
    `data` the step's own working values (e.g. a purchase's chosen cards and money paid).
    """

    kind: str
    seat: int = -1
    stage: int = 0
    data: dict[str, Any] = field(default_factory=dict)


def cards(st: DirtyMoneyState, pile: str) -> Sequence[CardInstance]:
    """The cards of a pile, bottom first (the live pile: read it, never change it)."""
    try:
        return st.views[pile]
    except KeyError:
        return st.piles.view(pile)  # raises the kit's error naming the piles there are


def _move(st: DirtyMoneyState, inst: CardInstance, src: str, dst: str) -> None:
    st.piles.move(inst, src, dst)
    st.version += 1


def _move_all(st: DirtyMoneyState, src: str, dst: str) -> None:
    """Every card of `src` onto `dst` in one move, as moving them one by one bottom first would."""
    st.piles.move_all(src, dst)
    st.version += 1


def _first(st: DirtyMoneyState, pile: str, card_id: str, exclude: tuple[str, ...] = ()) -> CardInstance:
    """A copy of card_id in a pile: the copy that arrived first in a deck, the bottom-most one
    elsewhere, the lowest when some are excluded (which copy moves never changes the game; each
    rule keeps it a function of the seed)."""
    candidates: Sequence[CardInstance]
    if not exclude:
        by_id = st._deck_copies.get(pile)
        if by_id is not None:
            candidates = by_id.get(card_id, ())
            if candidates:  # the first to arrive: copies are alike, and this needs no search
                return candidates[0]
        else:
            in_pile = st.views.get(pile) or cards(st, pile)  # (an unknown pile: the kit's error)
            try:  # found in C: the first card of the pile with this id
                return in_pile[indexOf(map(_card_id, in_pile), card_id)]
            except ValueError:
                candidates = ()
    else:
        candidates = [c for c in cards(st, pile) if c.card == card_id and str(c) not in exclude]
    if not candidates:
        raise RuleViolation(f"no {card_id} in {pile}")
    return candidates[0] if len(candidates) == 1 else min(candidates, key=_copy_number)


def _ids(st: DirtyMoneyState, pile: str) -> list[str]:
    """The distinct card ids of a pile, sorted."""
    return sorted(set(st.piles.ids(pile)))


def _villain(st: DirtyMoneyState, seat: int) -> Villain | None:
    villain_id = st.villain_of[seat]
    return st.rules.villains.get(villain_id) if villain_id else None


def _has(st: DirtyMoneyState, seat: int, effect: str) -> Villain | None:
    """The seat's villain when it has `effect` (asked several times a step: one list read)."""
    villain = st._villain_cards[seat]
    return villain if villain is not None and villain.effect == effect else None


def _owned(st: DirtyMoneyState, seat: int, effect: str) -> Sequence[tuple[CardInstance, Placement]]:
    """The seat's placement cards with `effect`, in tableau order (read them, never change them).

    Hand limits, prices and scoring ask this many times per step; the answer is kept per seat
    and effect as cards join the tableau, a new list each time, so a reader may cache what it
    derives from one list until another takes its place.
    """
    return READOUTS(st).owned_by[seat].get(effect, ())


def _joined_tableau(st: DirtyMoneyState, seat: int, inst: CardInstance, placement: Placement) -> None:
    """Record a card that has just joined the seat's tableau (on top) in the effect index."""
    owned = READOUTS(st).owned_by[seat]
    owned[placement.effect] = [*owned.get(placement.effect, ()), (inst, placement)]


def _index_tableau(st: DirtyMoneyState, seat: int) -> None:
    """The seat's effect index built afresh from its tableau (after a set-up move in or out)."""
    READOUTS(st).owned_by[seat] = {}
    placements = st.rules.placements
    for inst in cards(st, f"tableau:{seat}"):
        _joined_tableau(st, seat, inst, placements[inst.card])


def name(st: DirtyMoneyState, card_id: str) -> str:
    """A card's name for event texts (its id when the deck has no such card)."""
    return st.rules.card_names.get(card_id, card_id)


def _others(st: DirtyMoneyState, seat: int) -> list[int]:
    return [q for q in range(st.players) if q != seat]


# rulebook 001:225 「每个数码银行让玩家在手中的货币卡增加 1。」
def hand_limit(st: DirtyMoneyState, seat: int) -> int:
    """7, plus what the seat's digital banks add (summed again only when the banks change: the
    invariant check asks at every step while a hand is over 7)."""
    banks = _owned(st, seat, "digital_bank")
    limit_of = READOUTS(st).limit_of
    known = limit_of.get(seat)
    if known is not None and known[0] is banks:
        return known[1]
    limit = HAND_LIMIT + sum(pl.value for _c, pl in banks)
    limit_of[seat] = (banks, limit)
    return limit


# rulebook 001:271 「每个加密货币的价值为 \$5 而不是 \$3。」
def crypto_value(st: DirtyMoneyState, seat: int, card: Money) -> int:
    fox = _has(st, seat, "crypto_fox")
    return fox.value if fox else card.value


def dirt(st: DirtyMoneyState, seat: int) -> int:
    return sum(st.rules.money[c.card].dirty for c in cards(st, f"hand:{seat}"))


def money_in_hand(st: DirtyMoneyState, seat: int) -> int:
    """Face value of a hand (crypto as its holder values it): the first tie-breaker."""
    total = 0
    for c in cards(st, f"hand:{seat}"):
        money = st.rules.money[c.card]
        total += crypto_value(st, seat, money) if money.currency == CRYPTO else money.value
    return total


def _add_marker(st: DirtyMoneyState, inst: CardInstance, src: str, dst: str) -> None:
    _move(st, inst, src, dst)
    st.ledger[dst] += 1


def _marker(st: DirtyMoneyState, dst: str) -> None:
    """Put one '弃卡' at dst: the discard pile's top, else a draw from the money deck."""
    discard = cards(st, "discard")
    if discard:
        _add_marker(st, discard[-1], "discard", dst)
    else:
        st.stack.append(Step("draw_money", data={"dest": dst, "mode": "marker"}))


def _drop_blacklist(st: DirtyMoneyState, seat: int) -> bool:
    """贿赂 / 香蕉共和国: one blacklist card back to the discard pile; False when there was none."""
    pile = f"blacklist:{seat}"
    if not cards(st, pile):
        return False
    _move(st, cards(st, pile)[-1], pile, "discard")
    st.ledger[pile] -= 1
    return True


def _pop(st: DirtyMoneyState, step: Step) -> None:
    stack = st.stack
    if stack and stack[-1] is step:  # nearly always the step on top
        stack.pop()
        return
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is step:
            del stack[i]
            return
    raise RuleViolation(f"step {step.kind} is not on the stack")


def _hand_limit_step(st: DirtyMoneyState, seat: int) -> list[Step]:
    """The hand-limit step for `seat`, or none when the hand is within its limit now.

    Only for a step that runs before anything can add to that hand: such a step finding the
    hand within its limit would only remove itself, so it is left out (the same game, fewer
    bookkeeping steps)."""
    size = len(cards(st, st.names.hands[seat]))
    return [Step("hand_limit", seat=seat)] if size > HAND_LIMIT and size > hand_limit(st, seat) else []


def _push_seq(st: DirtyMoneyState, steps: list[Step]) -> None:
    """Push steps so that they run in list order."""
    st.stack.extend(reversed(steps))


def _chance_weights(st: DirtyMoneyState, step: Step) -> Mapping[str, int]:
    """Copies of each card the pending draw may bring (ids with none left are absent)."""
    if step.kind == "deal_villain":
        return st.piles.id_counts("villain_pool")
    if step.kind == "draw_placement":
        return st.piles.id_counts(f"pdeck:{step.data['region']}")
    if step.kind == "inspect":
        seen = set(step.data["seen"])
        return Counter(c.card for c in cards(st, f"hand:{step.data['target']}") if str(c) not in seen)
    return st.piles.id_counts("money_deck")


def _legal_chance(st: DirtyMoneyState, step: Step) -> list[Action]:
    """A chance step's outcomes: ("draw", card id), one per card id left to draw.

    A draw from a deck reuses the list built for the same ids (read it, never change it):
    most draws leave a deck's set of ids alone.
    """
    pile = _DRAW_PILE.get(step.kind)
    if pile is None:
        weights = _chance_weights(st, step)
        drawn_ids = sorted(weights)
        legal = [("draw", card_id) for card_id in drawn_ids]
        # a range as long as the copies left stands for the hand's cards in the total
        READOUTS(st).drawn = (legal, drawn_ids, weights, range(sum(weights.values())))
        return legal
    if pile == "pdeck:":
        pile += step.data["region"]
    piles = st.piles
    ids = piles.sorted_ids(pile)
    readouts = READOUTS(st)
    drawn = readouts.draw_lists.get(pile)
    if drawn is None or drawn[1] is not ids:
        # the outcomes' probabilities follow these ids and the deck's live counts (the kit
        # keeps one counter per deck, and the deck itself is the list whose length is the total)
        legal = list(zip(repeat("draw"), ids))
        drawn = readouts.draw_lists[pile] = (legal, ids, piles.id_counts(pile), st.views[pile])
    readouts.drawn = drawn
    return drawn[0]


def _money_actor(st: DirtyMoneyState) -> int:
    """Draws from the money deck are chance; an empty deck first needs a reshuffle."""
    return CHANCE if st._money_deck else AUTO


def _reshuffle(st: DirtyMoneyState) -> bool:
    """Discard pile becomes the money deck; False when both are empty."""
    if not cards(st, "discard"):
        return False
    st.piles.move_all("discard", "money_deck")
    st.version += 1
    return True


def _currency_left(st: DirtyMoneyState) -> bool:
    money = st.rules.money
    return any(not money[c.card].is_action for pile in ("money_deck", "discard") for c in cards(st, pile))

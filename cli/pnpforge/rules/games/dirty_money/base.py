"""What every part of a Dirty Money position shares: the pending steps, the piles, small queries.

How the state works: a stack of small data-only `Step`s is the program counter.  Each step
kind has an actor function (a seat, CHANCE, or AUTO for bookkeeping that needs no decision),
a legal-action function and an apply function; the state runs AUTO steps until a decision
or a chance draw is due.  Every draw from a deck (money, placement, villain, the random
cards of an inspection) is an explicit chance node whose outcomes are card ids weighted by
the copies left, so a game is a pure function of its seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence, Sized
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter, indexOf
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CHANCE, CardInstance, RuleViolation
from pnpforge.rules.games.dirty_money.data import CRYPTO, HAND_LIMIT, Location, Money, Placement, Villain
from pnpforge.rules.kit import EventLog, Zones

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.invariants import PileNames
    from pnpforge.rules.games.dirty_money.rules import DirtyMoneyRules

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


class StateBase(EventLog):
    """Piles, pending steps and the queries every rule needs; the rule mixins build on it."""

    rules: DirtyMoneyRules
    players: int
    piles: Zones
    names: PileNames  # the piles read at every step, by group
    ledger: Counter[str]  # markers counted as they are placed (scoring path 1)
    villain_of: list[str | None]
    _villain_cards: list[Villain | None]  # each seat's villain card, once dealt (as `villain_of`)
    in_play: list[Location]
    marker: int  # seat holding the first-player marker
    round_number: int
    round_order: list[int]
    shark_used: bool
    terminal: bool
    reason: str
    stack: list[Step]
    version: int
    # seat -> effect -> the seat's tableau cards with that effect, with their placements
    _owned_by: list[dict[str, list[tuple[CardInstance, Placement]]]]
    # pile -> the draw from it for its current ids (as `_drawn`), kept while the ids stay the same
    _draw_lists: dict[str, tuple[list[Action], Sequence[str], Mapping[str, int], Sized]]
    _payable_of: dict[tuple[int, str, bool], tuple[Sequence[str], int]]  # see `max_payable`
    # the open purchase's price: (the exchanges, the chosen-cards list, its length, the price)
    _due_of: tuple[Sequence[tuple[CardInstance, Placement]], list[Any], int, int] | None
    _limit_of: dict[int, tuple[Sequence[tuple[CardInstance, Placement]], int]]  # seat -> (its banks, limit)
    views: Mapping[str, Sequence[CardInstance]]  # every pile by name (the piles' own lists: read only)
    _money_deck: Sequence[CardInstance]  # the money deck's own list
    _deck_copies: dict[str, Mapping[str, Sequence[CardInstance]]]  # deck -> its copies by card id (live)
    # The last chance draw list, its card ids in order, the copies left per id, and the cards they
    # total (for a deck, the deck itself: its length is the live total)
    _drawn: tuple[list[Action], Sequence[str], Mapping[str, int], Sized] | None

    # ---- piles ----------------------------------------------------------------------------

    def cards(self, pile: str) -> Sequence[CardInstance]:
        """The cards of a pile, bottom first (the live pile: read it, never change it)."""
        try:
            return self.views[pile]
        except KeyError:
            return self.piles.view(pile)  # raises the kit's error naming the piles there are

    def _move(self, inst: CardInstance, src: str, dst: str) -> None:
        self.piles.move(inst, src, dst)
        self.version += 1

    def _move_all(self, src: str, dst: str) -> None:
        """Every card of `src` onto `dst` in one move, as moving them one by one bottom first would."""
        self.piles.move_all(src, dst)
        self.version += 1

    def _first(self, pile: str, card_id: str, exclude: tuple[str, ...] = ()) -> CardInstance:
        """A copy of card_id in a pile: the copy that arrived first in a deck, the bottom-most one
        elsewhere, the lowest when some are excluded (which copy moves never changes the game; each
        rule keeps it a function of the seed)."""
        candidates: Sequence[CardInstance]
        if not exclude:
            by_id = self._deck_copies.get(pile)
            if by_id is not None:
                candidates = by_id.get(card_id, ())
                if candidates:  # the first to arrive: copies are alike, and this needs no search
                    return candidates[0]
            else:
                cards = self.views.get(pile) or self.cards(pile)  # (an unknown pile: the kit's error)
                try:  # found in C: the first card of the pile with this id
                    return cards[indexOf(map(_card_id, cards), card_id)]
                except ValueError:
                    candidates = ()
        else:
            candidates = [c for c in self.cards(pile) if c.card == card_id and str(c) not in exclude]
        if not candidates:
            raise RuleViolation(f"no {card_id} in {pile}")
        return candidates[0] if len(candidates) == 1 else min(candidates, key=_copy_number)

    def _ids(self, pile: str) -> list[str]:
        """The distinct card ids of a pile, sorted."""
        return sorted(set(self.piles.ids(pile)))

    # ---- who owns what --------------------------------------------------------------------

    def _villain(self, seat: int) -> Villain | None:
        villain_id = self.villain_of[seat]
        return self.rules.villains.get(villain_id) if villain_id else None

    def _has(self, seat: int, effect: str) -> Villain | None:
        """The seat's villain when it has `effect` (asked several times a step: one list read)."""
        villain = self._villain_cards[seat]
        return villain if villain is not None and villain.effect == effect else None

    def _owned(self, seat: int, effect: str) -> Sequence[tuple[CardInstance, Placement]]:
        """The seat's placement cards with `effect`, in tableau order (read them, never change them).

        Hand limits, prices and scoring ask this many times per step; the answer is kept per seat
        and effect as cards join the tableau, a new list each time, so a reader may cache what it
        derives from one list until another takes its place.
        """
        return self._owned_by[seat].get(effect, ())

    def _joined_tableau(self, seat: int, inst: CardInstance, placement: Placement) -> None:
        """Record a card that has just joined the seat's tableau (on top) in the effect index."""
        owned = self._owned_by[seat]
        owned[placement.effect] = [*owned.get(placement.effect, ()), (inst, placement)]

    def _index_tableau(self, seat: int) -> None:
        """The seat's effect index built afresh from its tableau (after a set-up move in or out)."""
        self._owned_by[seat] = {}
        placements = self.rules.placements
        for inst in self.cards(f"tableau:{seat}"):
            self._joined_tableau(seat, inst, placements[inst.card])

    def name(self, card_id: str) -> str:
        """A card's name for event texts (its id when the deck has no such card)."""
        return self.rules.card_names.get(card_id, card_id)

    def _others(self, seat: int) -> list[int]:
        return [q for q in range(self.players) if q != seat]

    def hand_limit(self, seat: int) -> int:
        """7, plus what the seat's digital banks add (summed again only when the banks change: the
        invariant check asks at every step while a hand is over 7)."""
        banks = self._owned(seat, "digital_bank")
        known = self._limit_of.get(seat)
        if known is not None and known[0] is banks:
            return known[1]
        limit = HAND_LIMIT + sum(pl.value for _c, pl in banks)
        self._limit_of[seat] = (banks, limit)
        return limit

    def crypto_value(self, seat: int, card: Money) -> int:
        fox = self._has(seat, "crypto_fox")
        return fox.value if fox else card.value

    def dirt(self, seat: int) -> int:
        return sum(self.rules.money[c.card].dirty for c in self.cards(f"hand:{seat}"))

    def money_in_hand(self, seat: int) -> int:
        """Face value of a hand (crypto as its holder values it): the first tie-breaker."""
        total = 0
        for c in self.cards(f"hand:{seat}"):
            money = self.rules.money[c.card]
            total += self.crypto_value(seat, money) if money.currency == CRYPTO else money.value
        return total

    # ---- markers (弃卡) ------------------------------------------------------------------

    def _add_marker(self, inst: CardInstance, src: str, dst: str) -> None:
        self._move(inst, src, dst)
        self.ledger[dst] += 1

    def _marker(self, dst: str) -> None:
        """Put one '弃卡' at dst: the discard pile's top, else a draw from the money deck."""
        discard = self.cards("discard")
        if discard:
            self._add_marker(discard[-1], "discard", dst)
        else:
            self.stack.append(Step("draw_money", data={"dest": dst, "mode": "marker"}))

    def _drop_blacklist(self, seat: int) -> bool:
        """贿赂 / 香蕉共和国: one blacklist card back to the discard pile; False when there was none."""
        pile = f"blacklist:{seat}"
        if not self.cards(pile):
            return False
        self._move(self.cards(pile)[-1], pile, "discard")
        self.ledger[pile] -= 1
        return True

    def _score_events(self) -> None:
        """Record the final scores as events (the scoring mixin implements it)."""
        raise NotImplementedError

    # ---- the step stack -------------------------------------------------------------------

    def _pop(self, step: Step) -> None:
        stack = self.stack
        if stack and stack[-1] is step:  # nearly always the step on top
            stack.pop()
            return
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is step:
                del stack[i]
                return
        raise RuleViolation(f"step {step.kind} is not on the stack")

    def _hand_limit_step(self, seat: int) -> list[Step]:
        """The hand-limit step for `seat`, or none when the hand is within its limit now.

        Only for a step that runs before anything can add to that hand: such a step finding the
        hand within its limit would only remove itself, so it is left out (the same game, fewer
        bookkeeping steps)."""
        size = len(self.cards(self.names.hands[seat]))
        return [Step("hand_limit", seat=seat)] if size > HAND_LIMIT and size > self.hand_limit(seat) else []

    def _push_seq(self, steps: list[Step]) -> None:
        """Push steps so that they run in list order."""
        self.stack.extend(reversed(steps))

    # ---- chance --------------------------------------------------------------------------

    def _chance_weights(self, step: Step) -> Mapping[str, int]:
        """Copies of each card the pending draw may bring (ids with none left are absent)."""
        if step.kind == "deal_villain":
            return self.piles.id_counts("villain_pool")
        if step.kind == "draw_placement":
            return self.piles.id_counts(f"pdeck:{step.data['region']}")
        if step.kind == "inspect":
            seen = set(step.data["seen"])
            return Counter(c.card for c in self.cards(f"hand:{step.data['target']}") if str(c) not in seen)
        return self.piles.id_counts("money_deck")

    def _legal_chance(self, step: Step) -> list[Action]:
        """A chance step's outcomes: ("draw", card id), one per card id left to draw.

        A draw from a deck reuses the list built for the same ids (read it, never change it):
        most draws leave a deck's set of ids alone.
        """
        pile = _DRAW_PILE.get(step.kind)
        if pile is None:
            weights = self._chance_weights(step)
            drawn_ids = sorted(weights)
            legal = [("draw", card_id) for card_id in drawn_ids]
            # a range as long as the copies left stands for the hand's cards in the total
            self._drawn = (legal, drawn_ids, weights, range(sum(weights.values())))
            return legal
        if pile == "pdeck:":
            pile += step.data["region"]
        piles = self.piles
        ids = piles.sorted_ids(pile)
        drawn = self._draw_lists.get(pile)
        if drawn is None or drawn[1] is not ids:
            # the outcomes' probabilities follow these ids and the deck's live counts (the kit
            # keeps one counter per deck, and the deck itself is the list whose length is the total)
            legal = list(zip(repeat("draw"), ids))
            drawn = self._draw_lists[pile] = (legal, ids, piles.id_counts(pile), self.views[pile])
        self._drawn = drawn
        return drawn[0]

    def _money_actor(self) -> int:
        """Draws from the money deck are chance; an empty deck first needs a reshuffle."""
        return CHANCE if self._money_deck else AUTO

    def _reshuffle(self) -> bool:
        """Discard pile becomes the money deck; False when both are empty."""
        if not self.cards("discard"):
            return False
        self.piles.move_all("discard", "money_deck")
        self.version += 1
        return True

    def _currency_left(self) -> bool:
        money = self.rules.money
        return any(
            not money[c.card].is_action for pile in ("money_deck", "discard") for c in self.cards(pile)
        )

"""The invariant check of a Dirty Money position, and the bookkeeping that keeps it cheap.

The check runs after every step.  What depends on the piles alone (markers against the ledger,
action cards in hands, spot and display sizes, which hands are over the base limit) is checked
again only after a step that moved cards, and then only for the piles that moved or the ledger
entries that changed: an untouched pile, or an entry neither counted nor moved, still holds
what passed the last check.  What depends on the pending steps is checked every time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance, RuleViolation
from pnpforge.rules.games.dirty_money import board
from pnpforge.rules.games.dirty_money.board import Step
from pnpforge.rules.games.dirty_money.data import HAND_LIMIT, REGIONS, SELECTION_DISPLAY, SPOT_CAP
from pnpforge.rules.games.dirty_money.memo import READOUTS, Readouts

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState


# Steps that bring a hand back under its limit before the turn goes on.
HAND_FIXERS = ("hand_limit", "resolve_card", "launder")
# The per-pile limits of the invariant check: no action card in a hand, spot and display sizes.
_HAND, _SPOT, _DISPLAY, _MARKERS = "hand", "spot", "display", "markers"
_kind_of = attrgetter("kind")  # a pending step's kind, read in C
_OPEN_KINDS = frozenset(("buy", "resolve_card"))  # steps that hold cards in a zone of their own


class Ledger(Counter[str]):
    """Markers counted per pile as they are placed, remembering which entries changed since the
    invariant check last compared them with the piles."""

    def __init__(self, counts: Mapping[str, int] | None = None) -> None:
        # Counter.copy() calls the class with the counts: a copy starts with every entry changed
        self.changed: set[str] = set()
        super().__init__(counts or {})

    def __setitem__(self, key: str, value: int) -> None:
        self.changed.add(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: object) -> None:
        if isinstance(key, str):
            self.changed.add(key)
        super().__delitem__(key)


@dataclass(frozen=True)
class PileNames:
    """The names of the piles read at every step, spelled out once per game."""

    hands: tuple[str, ...]
    blacklists: tuple[str, ...]
    overpay: tuple[str, ...]
    tableaux: tuple[str, ...]
    locations: tuple[str, ...]
    spots: tuple[str, ...]
    displays: tuple[str, ...]
    on_sale: tuple[str, ...]
    limits: dict[str, str]  # pile -> which per-pile check the invariant check holds it to
    seat_of_hand: dict[str, int]  # hand pile -> its seat
    # The same groups as sets: which parts of the public table a moved pile changes.
    hand_set: frozenset[str]
    blacklist_set: frozenset[str]
    overpay_set: frozenset[str]
    tableau_set: frozenset[str]
    spot_set: frozenset[str]
    on_sale_set: frozenset[str]
    public_set: frozenset[str]  # every pile the public table reads

    @classmethod
    def for_table(cls, players: int, locations: list[str], markers: Iterable[str] = ()) -> PileNames:
        """The names for a table of `players` seats at `locations`; `markers` are the piles whose
        cards are markers the ledger counts (blacklists, overpay slots, cards tucked under)."""
        seats = range(players)
        displays = tuple(f"display:{region}" for region in REGIONS)
        hands = tuple(f"hand:{q}" for q in seats)
        blacklists = tuple(f"blacklist:{q}" for q in seats)
        overpay = tuple(f"overpay:{q}" for q in seats)
        tableaux = tuple(f"tableau:{q}" for q in seats)
        spots = tuple(f"spot:{loc}" for loc in locations)
        on_sale = (*displays, "auction", "bear")
        return cls(
            hands=hands,
            blacklists=blacklists,
            overpay=overpay,
            tableaux=tableaux,
            locations=tuple(locations),
            spots=spots,
            displays=displays,
            on_sale=on_sale,
            hand_set=frozenset(hands),
            blacklist_set=frozenset(blacklists),
            overpay_set=frozenset(overpay),
            tableau_set=frozenset(tableaux),
            spot_set=frozenset(spots),
            on_sale_set=frozenset(on_sale),
            public_set=frozenset(
                (*hands, *blacklists, *overpay, *tableaux, *spots, *on_sale, *(f"villain:{q}" for q in seats))
            ),
            seat_of_hand={hand: seat for seat, hand in enumerate(hands)},
            limits={
                **{pile: _MARKERS for pile in markers},
                **{f"hand:{q}": _HAND for q in seats},
                **{f"spot:{loc}": _SPOT for loc in locations},
                **{display: _DISPLAY for display in displays},
            },
        )


def check_invariants(st: DirtyMoneyState) -> None:
    """The rules' own limits, checked after every step."""
    views = st.views
    readouts = READOUTS(st)
    if readouts.checked_changes != st.piles.changes:
        _check_piles(st, views, readouts)
    over = readouts.over_limit
    if over:  # hand sizes change only with a move; limits only as banks join a tableau
        for seat, size in sorted(over.items()) if len(over) > 1 else over.items():
            if size > board.hand_limit(st, seat):
                _check_hand_limit(st, seat, size)
    stack = st.stack
    # Most steps have no purchase or resolution open and nothing in their zones: seen in C,
    # without a list of the pending kinds.
    if views["payment"] or views["resolving"] or not _OPEN_KINDS.isdisjoint(map(_kind_of, stack)):
        _check_open_steps(st, stack, views)
    if not 0 <= st.marker < st.players:
        raise RuleViolation("first-player marker is off the table")


def _check_open_steps(
    st: DirtyMoneyState, stack: list[Step], views: Mapping[str, Sequence[CardInstance]]
) -> None:
    """The payment zone holds what the open purchases paid; the resolving zone one card per
    resolution step."""
    kinds = list(map(_kind_of, stack))
    paid = 0
    if "buy" in kinds:
        for step in stack:
            if step.kind == "buy":
                paid += len(step.data["paid"])
    if paid != len(views["payment"]):
        raise RuleViolation("payment zone and open purchases disagree")
    if len(views["resolving"]) != kinds.count("resolve_card"):
        raise RuleViolation("an action card is resolving outside a resolution step")


def _check_piles(
    st: DirtyMoneyState, views: Mapping[str, Sequence[CardInstance]], readouts: Readouts
) -> None:
    """Markers against the ledger, and the per-pile limits, for the piles that moved; then the
    ledger entries that changed without a move."""
    touched, ledger, limits = readouts.unchecked, st.ledger, st.names.limits
    for pile in touched:
        kind = limits.get(pile)
        if kind is None:  # most moves touch a deck, the discard or a payment as well
            continue
        if kind is _HAND:
            _check_hand(st, pile, views[pile], readouts.over_limit)
        elif kind is _MARKERS:
            if ledger.get(pile, 0) != len(views[pile]):  # a pile no ledger entry counts holds none
                _check_markers(st, pile, views)
        elif kind is _SPOT:
            if len(views[pile]) > SPOT_CAP:
                raise RuleViolation(f"{pile} has more than {SPOT_CAP} money cards")
        elif len(views[pile]) > SELECTION_DISPLAY:
            raise RuleViolation(f"{pile} is too long")
    touched.clear()
    if ledger.changed:  # entries counted or discounted without their pile moving
        for pile in ledger.changed:
            if pile in ledger:
                _check_markers(st, pile, views)
        ledger.changed.clear()
    readouts.checked_changes = st.piles.changes


def _check_hand(
    st: DirtyMoneyState, pile: str, hand: Sequence[CardInstance], over_limit: dict[int, int]
) -> None:
    """No action card in a hand; note whether the hand is over the base limit."""
    seat = st.names.seat_of_hand[pile]
    if not st.rules.action_cards.isdisjoint(hand):
        raise RuleViolation(f"seat {seat} holds an action card in hand")
    if len(hand) > HAND_LIMIT:
        over_limit[seat] = len(hand)
    elif over_limit:
        over_limit.pop(seat, None)


def _check_markers(st: DirtyMoneyState, pile: str, views: Mapping[str, Sequence[CardInstance]]) -> None:
    count = st.ledger.get(pile, 0)
    if count != len(views[pile]):
        raise RuleViolation(f"{pile}: {count} markers placed, {len(views[pile])} there")


def _check_hand_limit(st: DirtyMoneyState, seat: int, size: int) -> None:
    """A hand over its limit is allowed only while a pending step will bring it back."""
    limit = board.hand_limit(st, seat)
    if size > limit and not any(step.seat == seat and step.kind in HAND_FIXERS for step in st.stack):
        raise RuleViolation(
            f"seat {seat} holds {size} money cards, over the limit {limit}, with nothing to fix it"
        )

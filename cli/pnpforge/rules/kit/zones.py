"""Piles of physical cards that cannot lose or duplicate a card.

Every move names where the card comes from, and the move is refused when the
card is not there, so a rules bug shows at the step that made it instead of
as a conservation failure many steps later.  Index -1 of a pile is its top,
except in a pile declared unordered (a deck drawn from by card id), whose order
is no part of the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

from pnpforge.rules.kit.core import CardInstance, RuleViolation

_card_id = attrgetter("card")  # a card instance's card id, read in C


class Zones:
    """Named piles; each card instance is in exactly one of them."""

    def __init__(
        self, names: Iterable[str], counted: Iterable[str] = (), unordered: Iterable[str] = ()
    ) -> None:
        self._piles: dict[str, list[CardInstance]] = {name: [] for name in names}
        self._where: dict[CardInstance, str] = {}
        # Piles whose order is no part of the game (a deck drawn from by card id, never from the
        # top): each card's index there, so a card leaves from the middle in O(1), the last card
        # taking its place, instead of a search and a shift of every card above it.
        self._slots: dict[str, dict[CardInstance, int]] = {name: {} for name in unordered}
        # Copies of each card id in the `counted` piles (the decks chance draws from), kept up to
        # date by every move instead of recounted at every chance step.
        self._id_counts: dict[str, Counter[str]] = {name: Counter() for name in counted}
        # ... and those copies themselves by id, so a drawn card is found without a scan.
        self._copies: dict[str, dict[str, list[CardInstance]]] = {name: {} for name in self._id_counts}
        # The piles a move must do more for (keep an index or counts of): most moves touch none.
        self._special = frozenset(self._slots) | frozenset(self._id_counts)
        self._sorted_ids: dict[str, tuple[str, ...]] = {}  # counted pile -> its distinct ids, sorted
        # Derived read-outs of piles (see `ids`), dropped whenever the pile changes.
        self._ids_of: dict[str, tuple[str, ...]] = {}
        self._texts_of: dict[str, tuple[str, ...]] = {}
        self.changes = 0  # bumped by every change: readers cache what they derive from the piles
        self._watchers: list[set[str]] = []

    def _changed(self, name: str) -> None:
        if self._ids_of:  # empty unless an engine reads them: every move comes through here
            self._ids_of.pop(name, None)
        if self._texts_of:
            self._texts_of.pop(name, None)
        self.changes += 1
        for watcher in self._watchers:
            watcher.add(name)

    def __getstate__(self) -> dict[str, Any]:
        """What a copy (`copy.deepcopy`, a position's `clone()`) takes: everything but the watchers.
        Whoever watches these piles (a read-out kept beside the position, see `kit.memo`) does
        not read the copy's, so the copy's moves feed no orphaned watcher."""
        state = self.__dict__.copy()
        state["_watchers"] = []
        return state

    def watch(self) -> set[str]:
        """A set every later change adds its piles' names to; it starts with every pile (nothing
        read yet), and its reader empties it once it has read what changed, so a reader of many
        piles (an invariant check, the public part of observations) redoes only what moved."""
        watcher = set(self._piles)
        self._watchers.append(watcher)
        return watcher

    def _two(self, src: str, dst: str) -> tuple[list[CardInstance], list[CardInstance]]:
        """The piles named `src` and `dst`, or RuleViolation naming the unknown one."""
        piles = self._piles
        try:
            return piles[src], piles[dst]
        except KeyError:
            raise self._unknown(src if src not in piles else dst) from None

    def _counted_move(self, card: CardInstance, src: str | None, dst: str) -> None:
        """Keep the per-id counts of counted piles in step with one card's move."""
        id_counts = self._id_counts
        counts = id_counts.get(src) if src is not None else None
        if counts is not None and src is not None:
            left = counts[card.card] - 1
            if left:
                counts[card.card] = left
            else:
                del counts[card.card]
                self._sorted_ids.pop(src, None)
            self._copies[src][card.card].remove(card)
        counts = id_counts.get(dst)
        if counts is not None:
            counts[card.card] += 1
            if counts[card.card] == 1:
                self._sorted_ids.pop(dst, None)
            self._copies[dst].setdefault(card.card, []).append(card)

    def _count_in(self, dst: str, cards: list[CardInstance]) -> None:
        """`_counted_move` into `dst` for many cards at once (set-up, a pile moved whole)."""
        counts = self._id_counts.get(dst)
        if counts is None or not cards:
            return
        known = len(counts)
        counts.update(map(_card_id, cards))  # counted in C
        copies = self._copies[dst]
        for card in cards:
            copies.setdefault(card.card, []).append(card)
        if len(counts) != known:
            self._sorted_ids.pop(dst, None)

    def add_pile(self, name: str) -> None:
        """A new empty pile (e.g. one per seat once the player count is known)."""
        if name in self._piles:
            raise RuleViolation(f"pile '{name}' already exists")
        self._piles[name] = []
        self._changed(name)

    def _get(self, name: str) -> list[CardInstance]:
        try:
            return self._piles[name]
        except KeyError:
            raise self._unknown(name) from None

    def _unknown(self, name: str) -> RuleViolation:
        return RuleViolation(f"unknown pile '{name}' (piles: {', '.join(self._piles)})")

    def deal(self, cards: Iterable[CardInstance], pile: str) -> None:
        """Set-up only: place cards from the deck; a card placed twice is refused."""
        target = self._get(pile)
        where = self._where
        dealt = list(cards)
        for card in dealt:
            if card in where:
                raise RuleViolation(f"card {card} dealt twice (already in '{where[card]}')")
            where[card] = pile
        slots = self._slots.get(pile)
        if slots is not None:
            slots.update(zip(dealt, range(len(target), len(target) + len(dealt)), strict=True))
        target.extend(dealt)
        self._count_in(pile, dealt)
        self._changed(pile)

    def move(self, card: CardInstance, src: str, dst: str, *, top: bool = True) -> None:
        """Move one card from `src` to the top (or bottom) of `dst`; RuleViolation if it is not in `src`.

        An unordered `dst` has no top or bottom: the card joins it.  Every move of a game comes
        here, so the pile look-ups and the change notices of `_changed` for both piles are written
        out inline."""
        piles = self._piles
        try:
            source, target = piles[src], piles[dst]
        except KeyError:
            raise self._unknown(src if src not in piles else dst) from None
        where = self._where
        if where.get(card) != src:
            actual = where.get(card, "no pile")
            raise RuleViolation(f"card {card} is not in '{src}' (it is in '{actual}')")
        special = self._special
        if special and (src in special or dst in special):  # an unordered or a counted pile
            self._special_move(card, source, target, src, dst, top)
        else:
            # Cards are interned, so the card is this very object: it is found by identity, in C,
            # without a Python-level comparison with every card before it.
            if source[-1] is card:
                source.pop()
            elif source[0] is card:
                del source[0]
            else:
                del source[list(map(id, source)).index(id(card))]
            if top:
                target.append(card)
            else:
                target.insert(0, card)
        where[card] = dst
        if self._ids_of:
            self._ids_of.pop(src, None)
            self._ids_of.pop(dst, None)
        if self._texts_of:
            self._texts_of.pop(src, None)
            self._texts_of.pop(dst, None)
        self.changes += 2
        for watcher in self._watchers:
            watcher.add(src)
            watcher.add(dst)

    def _special_move(
        self,
        card: CardInstance,
        source: list[CardInstance],
        target: list[CardInstance],
        src: str,
        dst: str,
        top: bool,
    ) -> None:
        """`move`'s list work when either pile is unordered or counted, and the counts."""
        if src in self._id_counts or dst in self._id_counts:
            self._counted_move(card, src, dst)
        slots = self._slots
        out = slots.get(src)
        if out is not None:
            index = out.pop(card)
            last = source.pop()
            if last is not card:
                source[index] = last
                out[last] = index
        elif source[-1] is card:
            source.pop()
        else:
            del source[list(map(id, source)).index(id(card))]
        into = slots.get(dst)
        if into is not None:
            into[card] = len(target)
            target.append(card)
        elif top:
            target.append(card)
        else:
            target.insert(0, card)

    def draw(self, src: str, dst: str) -> CardInstance:
        """The top card of `src` moved onto `dst`."""
        source, target = self._two(src, dst)
        if not source:
            raise RuleViolation(f"cannot draw from empty pile '{src}'")
        if src in self._slots:
            raise RuleViolation(f"pile '{src}' is unordered: it has no top card to draw")
        card = source.pop()
        into = self._slots.get(dst)
        if into is not None:
            into[card] = len(target)
        target.append(card)
        self._where[card] = dst
        self._changed(src)
        self._changed(dst)
        id_counts = self._id_counts
        if id_counts and (src in id_counts or dst in id_counts):
            self._counted_move(card, src, dst)
        return card

    def move_all(self, src: str, dst: str) -> None:
        """Every card of `src` onto `dst`, keeping their order (the top of `src` ends on top)."""
        source, target = self._two(src, dst)
        where = self._where
        for card in source:
            where[card] = dst
        if src in self._id_counts:  # the pile is emptied: so are its counts
            self._id_counts[src].clear()
            self._copies[src].clear()
            self._sorted_ids.pop(src, None)
        self._count_in(dst, source)
        if src in self._slots:
            self._slots[src].clear()
        into = self._slots.get(dst)
        if into is not None:
            into.update(zip(source, range(len(target), len(target) + len(source)), strict=True))
        target.extend(source)
        source.clear()
        self._changed(src)
        self._changed(dst)

    def shuffle_order(self, name: str, order: Sequence[int]) -> None:
        """Reorder a pile by a permutation of its indices (a chance outcome chose it)."""
        pile = self._get(name)
        if sorted(order) != list(range(len(pile))):
            raise RuleViolation(f"not a permutation of pile '{name}' ({len(pile)} cards)")
        pile[:] = [pile[i] for i in order]
        if name in self._slots:
            self._slots[name] = {card: index for index, card in enumerate(pile)}
        self._changed(name)

    def pile(self, name: str) -> Sequence[CardInstance]:
        """A read-only snapshot of a pile, bottom first (safe to hold while cards move); an unordered
        pile's cards come in no meaningful order."""
        return tuple(self._get(name))

    def view(self, name: str) -> Sequence[CardInstance]:
        """The pile itself, bottom first, without a copy: for readers that neither change it nor
        keep it across a move (legal actions, observations, invariants read piles every step)."""
        try:
            return self._piles[name]
        except KeyError:
            raise self._unknown(name) from None

    def all_views(self) -> Mapping[str, Sequence[CardInstance]]:
        """Every pile by name, uncopied (see `view`): one look-up per pile for a reader of many."""
        return self._piles

    def id_counts(self, name: str) -> Counter[str]:
        """Copies of each card id in a pile named `counted` at creation (ids with no copy left
        are absent); the live counts: read them, never change them."""
        try:
            return self._id_counts[name]
        except KeyError:
            raise RuleViolation(
                f"pile '{name}' is not counted (counted: {', '.join(self._id_counts)})"
            ) from None

    def is_counted(self, name: str) -> bool:
        return name in self._id_counts

    def is_unordered(self, name: str) -> bool:
        """Whether the pile was declared unordered (its order is no part of the game)."""
        return name in self._slots

    def sorted_ids(self, name: str) -> tuple[str, ...]:
        """The distinct card ids of a counted pile, sorted: the same tuple until an id is added or
        runs out (most draws leave the set of ids alone), so a reader may cache what it derives."""
        ids = self._sorted_ids.get(name)
        if ids is None:
            ids = self._sorted_ids[name] = tuple(sorted(self.id_counts(name)))
        return ids

    def copies_by_id(self, name: str) -> Mapping[str, Sequence[CardInstance]]:
        """Every card id's copies in a counted pile, in the order they arrived (pile order where
        cards only join on top): the live mapping (read it, never change it), for a reader that
        looks up copies at every draw."""
        self.id_counts(name)  # the error naming the counted piles, for one that is not
        return self._copies[name]

    def copies(self, name: str, card_id: str) -> Sequence[CardInstance]:
        """The copies of `card_id` in a counted pile, found without scanning the pile; read only."""
        return self._copies[name].get(card_id, ())

    def ids(self, name: str) -> tuple[str, ...]:
        """The card ids of a pile, bottom first; built once and reused until the pile changes,
        so an observation rebuilt at every decision copies only the piles that moved."""
        ids = self._ids_of.get(name)
        if ids is None:
            ids = self._ids_of[name] = tuple(map(_card_id, self._get(name)))
        return ids

    def texts(self, name: str) -> tuple[str, ...]:
        """The cards of a pile as instance texts ('OB-03#0'), bottom first; cached like `ids`."""
        texts = self._texts_of.get(name)
        if texts is None:
            texts = self._texts_of[name] = tuple(map(str, self._get(name)))
        return texts

    def count(self, name: str) -> int:
        pile = self._piles.get(name)
        if pile is None:
            raise self._unknown(name)
        return len(pile)

    def top(self, name: str) -> CardInstance | None:
        """The top card of a pile, or None when it is empty (an unordered pile has no top)."""
        pile = self._piles.get(name)
        if pile is None:
            raise self._unknown(name)
        if name in self._slots:
            raise RuleViolation(f"pile '{name}' is unordered: it has no top card")
        return pile[-1] if pile else None

    def where(self, card: CardInstance) -> str:
        try:
            return self._where[card]
        except KeyError:
            raise RuleViolation(f"card {card} is in no pile") from None

    def names(self) -> list[str]:
        return list(self._piles)

    def as_dict(self) -> dict[str, list[CardInstance]]:
        """Every pile as a fresh list: what `State.zones()` returns for the runner's conservation check."""
        return {name: list(cards) for name, cards in self._piles.items()}

    def copy(self) -> Zones:
        other = Zones(())
        other._piles = {name: list(cards) for name, cards in self._piles.items()}
        other._where = dict(self._where)
        other._id_counts = {name: Counter(counts) for name, counts in self._id_counts.items()}
        other._copies = {name: {i: list(c) for i, c in by_id.items()} for name, by_id in self._copies.items()}
        other._slots = {name: dict(slots) for name, slots in self._slots.items()}
        other._special = self._special
        return other


def conservation_error(zones: dict[str, list[CardInstance]], deck: Counter[CardInstance]) -> str | None:
    """Why the piles do not hold exactly the deck (each card once), or None when they do."""
    seen = list(chain.from_iterable(zones.values()))
    if len(seen) == deck.total() == len(deck):
        unique = set(seen)  # the common case, every instance distinct: one hash per card
        if len(unique) == len(seen) and unique == deck.keys():
            return None
    counted = Counter(seen)
    if counted == deck:
        return None
    missing = sorted(map(str, deck - counted))
    extra = sorted(map(str, counted - deck))
    return f"card conservation broken: missing {missing[:5]}, extra/duplicated {extra[:5]}"

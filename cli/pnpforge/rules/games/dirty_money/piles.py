"""The kit's piles with what makes a chance draw cheap in this game.

A third of a game's steps draw from the money deck (about a hundred cards): recounting the
deck for the chance outcomes and scanning it for the drawn card made each draw cost more than
the rest of the step.  `TablePiles` keeps, on top of the kit's moves (which keep conservation
and are the only way cards change place):

* `counts(name)`: copies of each card id in a counted pile (the decks a chance step draws
  from), kept up to date on every move instead of recounted at every draw;
* `copies(name, card_id)`: the copies of a card in a counted pile, found without a scan;
* `changes`: bumped by every move, so a reader can cache what it derives from the piles;
* `watch()`: a set of the piles changed since its reader last emptied it, so a reader of many
  piles (the invariant check, the public table of observations) redoes only the piles that
  moved: an untouched pile still holds what the reader saw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pnpforge.rules.kit import CardInstance, RuleViolation, Zones


class TablePiles(Zones):
    """Zones plus running per-id counts and copies of some piles, a move counter and watchers."""

    def __init__(self, names: Iterable[str], counted: Iterable[str] = ()) -> None:
        super().__init__(names)
        self._counts: dict[str, Counter[str]] = {name: Counter() for name in counted}
        self._copies: dict[str, dict[str, list[CardInstance]]] = {name: {} for name in self._counts}
        self.changes = 0  # bumped by every move: readers cache what they derive from the piles
        self._watchers: list[set[str]] = []
        self._sorted_ids: dict[str, tuple[str, ...]] = {}  # counted pile -> its distinct ids, sorted

    def watch(self) -> set[str]:
        """A set every later change adds its piles' names to; it starts with every pile (nothing
        read yet), and its reader empties it once it has read what changed."""
        watcher = set(self._piles)
        self._watchers.append(watcher)
        return watcher

    def add_pile(self, name: str) -> None:
        super().add_pile(name)
        self._touch(name)

    def is_counted(self, name: str) -> bool:
        return name in self._counts

    def counts(self, name: str) -> Counter[str]:
        """Copies of each card id in a counted pile (ids with no copy left are absent); read only."""
        return self._counts[name]

    def sorted_ids(self, name: str) -> tuple[str, ...]:
        """The distinct card ids of a counted pile, sorted: the same tuple until an id is added or
        runs out (most draws leave the set of ids alone), so a reader may cache what it derives."""
        ids = self._sorted_ids.get(name)
        if ids is None:
            ids = self._sorted_ids[name] = tuple(sorted(self._counts[name]))
        return ids

    def copies(self, name: str, card_id: str) -> Sequence[CardInstance]:
        """The copies of `card_id` in a counted pile, without scanning the pile; read only."""
        return self._copies[name].get(card_id, ())

    def _touch(self, name: str) -> None:
        self.changes += 1
        for watcher in self._watchers:
            watcher.add(name)

    def _left(self, name: str, card: CardInstance) -> None:
        counts = self._counts.get(name)
        if counts is not None:
            counts[card.card] -= 1
            if not counts[card.card]:
                del counts[card.card]
                self._sorted_ids.pop(name, None)
            self._copies[name][card.card].remove(card)

    def _arrived(self, name: str, cards: Iterable[CardInstance]) -> None:
        counts = self._counts.get(name)
        if counts is not None:
            copies = self._copies[name]
            for card in cards:
                counts[card.card] += 1
                if counts[card.card] == 1:
                    self._sorted_ids.pop(name, None)
                copies.setdefault(card.card, []).append(card)

    def deal(self, cards: Iterable[CardInstance], pile: str) -> None:
        cards = list(cards)
        super().deal(cards, pile)
        self._arrived(pile, cards)
        self._touch(pile)

    def move(self, card: CardInstance, src: str, dst: str, *, top: bool = True) -> None:
        """The kit's move, with the same checks and messages, and this class's bookkeeping in one
        call: a game makes some 700 moves, and the kit's move through an override cost two layers
        of calls each (a sixth of a checked game's time)."""
        piles = self._piles
        source, target = piles.get(src), piles.get(dst)
        if source is None or target is None:
            raise self._unknown(src if source is None else dst)
        where = self._where
        if where.get(card) != src:
            raise RuleViolation(f"card {card} is not in '{src}' (it is in '{where.get(card, 'no pile')}')")
        if source[-1] is card:  # cards are interned: found by identity, in C
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
        ids_of, texts_of = self._ids_of, self._texts_of  # the kit's cached read-outs of piles
        if ids_of:
            ids_of.pop(src, None)
            ids_of.pop(dst, None)
        if texts_of:
            texts_of.pop(src, None)
            texts_of.pop(dst, None)
        self.changes += 1
        for watcher in self._watchers:
            watcher.add(src)
            watcher.add(dst)
        counts = self._counts
        if src in counts:
            self._left(src, card)
        if dst in counts:
            self._arrived(dst, (card,))

    def draw(self, src: str, dst: str) -> CardInstance:
        card = super().draw(src, dst)
        self._left(src, card)
        self._arrived(dst, (card,))
        self._touch(src)
        self._touch(dst)
        return card

    def move_all(self, src: str, dst: str) -> None:
        moving = list(self._get(src))
        super().move_all(src, dst)
        for card in moving:
            self._left(src, card)
        self._arrived(dst, moving)
        self._touch(src)
        self._touch(dst)

    def shuffle_order(self, name: str, order: Sequence[int]) -> None:
        super().shuffle_order(name, order)
        self._touch(name)

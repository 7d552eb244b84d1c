"""The kit's piles with read helpers that make a step cheap.

Legal actions, invariants, chance draws and observations read the hand, deck, spot and
display piles thousands of times a game.  `TablePiles` adds, on top of the kit's moves
(which keep conservation and are the only way cards change place) and its uncopied
`views()`:

* `counts(name)`: copies of each card id in a counted pile (the decks a chance step draws
  from), kept up to date on every move instead of recounted at every draw;
* `copies(name, card_id)`: the copies of a card in a counted pile, found without a scan;
* `ids(name)`: the card ids of a pile as a tuple, rebuilt only after the pile changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pnpforge.rules.kit import CardInstance, Zones


class TablePiles(Zones):
    """Zones plus running per-id counts and copies of some piles, and cached id tuples."""

    def __init__(self, names: Iterable[str], counted: Iterable[str] = ()) -> None:
        super().__init__(names)
        self._counts: dict[str, Counter[str]] = {name: Counter() for name in counted}
        self._copies: dict[str, dict[str, list[CardInstance]]] = {name: {} for name in self._counts}
        self._ids: dict[str, tuple[str, ...]] = {}
        self.changes = 0  # how many moves so far: readers cache what they derive from the piles

    def is_counted(self, name: str) -> bool:
        return name in self._counts

    def counts(self, name: str) -> Counter[str]:
        """Copies of each card id in a counted pile (ids with no copy left are absent); read only."""
        return self._counts[name]

    def copies(self, name: str, card_id: str) -> Sequence[CardInstance]:
        """The copies of `card_id` in a counted pile, without scanning the pile; read only."""
        return self._copies[name].get(card_id, ())

    def ids(self, name: str) -> tuple[str, ...]:
        """The card ids of a pile, bottom first."""
        cached = self._ids.get(name)
        if cached is None:
            cached = self._ids[name] = tuple(card.card for card in self.view(name))
        return cached

    def _left(self, name: str, card: CardInstance) -> None:
        self.changes += 1
        self._ids.pop(name, None)
        counts = self._counts.get(name)
        if counts is not None:
            counts[card.card] -= 1
            if not counts[card.card]:
                del counts[card.card]
            self._copies[name][card.card].remove(card)

    def _arrived(self, name: str, cards: Iterable[CardInstance]) -> None:
        self.changes += 1
        self._ids.pop(name, None)
        counts = self._counts.get(name)
        if counts is not None:
            copies = self._copies[name]
            for card in cards:
                counts[card.card] += 1
                copies.setdefault(card.card, []).append(card)

    def deal(self, cards: Iterable[CardInstance], pile: str) -> None:
        cards = list(cards)
        super().deal(cards, pile)
        self._arrived(pile, cards)

    def move(self, card: CardInstance, src: str, dst: str, *, top: bool = True) -> None:
        """Zones.move, with the card first brought to the bottom of `src` when it is there.

        `Zones.move` removes by equality, comparing the card with every card before it (a
        Python-level dataclass comparison each); finding it by identity first and lifting it
        to index 0 keeps the order of the other cards and makes that removal immediate.
        """
        pile = self._get(src)
        try:
            index = list(map(id, pile)).index(id(card))
        except ValueError:
            index = 0  # not this very object: Zones.move finds an equal card or refuses the move
        if index:
            pile.insert(0, pile.pop(index))
        super().move(card, src, dst, top=top)
        self._left(src, card)
        self._arrived(dst, (card,))

    def draw(self, src: str, dst: str) -> CardInstance:
        card = super().draw(src, dst)
        self._left(src, card)
        self._arrived(dst, (card,))
        return card

    def move_all(self, src: str, dst: str) -> None:
        moving = list(self._get(src))
        super().move_all(src, dst)
        for card in moving:
            self._left(src, card)
        self._arrived(dst, moving)

    def shuffle_order(self, name: str, order: Sequence[int]) -> None:
        super().shuffle_order(name, order)
        self.changes += 1
        self._ids.pop(name, None)

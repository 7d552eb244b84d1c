"""The kit's piles with what makes a chance draw cheap in this game.

A third of a game's steps draw from the money deck (about a hundred cards): recounting the
deck for the chance outcomes and scanning it for the drawn card made each draw cost more than
the rest of the step.  `TablePiles` keeps, on top of the kit's moves (which keep conservation
and are the only way cards change place):

* `counts(name)`: copies of each card id in a counted pile (the decks a chance step draws
  from), kept up to date on every move instead of recounted at every draw;
* `copies(name, card_id)`: the copies of a card in a counted pile, found without a scan;
* `changes`: how many moves so far, so a reader can cache what it derives from the piles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pnpforge.rules.kit import CardInstance, Zones


class TablePiles(Zones):
    """Zones plus running per-id counts and copies of some piles, and a move counter."""

    def __init__(self, names: Iterable[str], counted: Iterable[str] = ()) -> None:
        super().__init__(names)
        self._counts: dict[str, Counter[str]] = {name: Counter() for name in counted}
        self._copies: dict[str, dict[str, list[CardInstance]]] = {name: {} for name in self._counts}
        self.changes = 0  # how many moves so far: readers cache what they derive from the piles

    def is_counted(self, name: str) -> bool:
        return name in self._counts

    def counts(self, name: str) -> Counter[str]:
        """Copies of each card id in a counted pile (ids with no copy left are absent); read only."""
        return self._counts[name]

    def copies(self, name: str, card_id: str) -> Sequence[CardInstance]:
        """The copies of `card_id` in a counted pile, without scanning the pile; read only."""
        return self._copies[name].get(card_id, ())

    def _left(self, name: str, card: CardInstance) -> None:
        self.changes += 1
        counts = self._counts.get(name)
        if counts is not None:
            counts[card.card] -= 1
            if not counts[card.card]:
                del counts[card.card]
            self._copies[name][card.card].remove(card)

    def _arrived(self, name: str, cards: Iterable[CardInstance]) -> None:
        self.changes += 1
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

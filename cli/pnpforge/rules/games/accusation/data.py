"""Accusation cards as the engine needs them: numbers, symbols and the parsed effect.

Cards are read once when the rules are built, so an edit to the database
changes the next game; a value the engine cannot use is refused here through
the kit's field readers (one line naming card and field) before any game starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpforge.model import Card
from pnpforge.rules.games.accusation.language import Effect, Step, parse_effect
from pnpforge.rules.kit import int_field, list_field, text_field


@dataclass(frozen=True)
class CardDef:
    """What the engine needs of one database card."""

    id: str
    name: str
    type: str
    cult: str
    symbols: tuple[str, ...]
    volume: int | None
    calamity: int | None
    guard: int
    location_type: str
    stardust: int | None
    garrison: int
    deconstruct: int
    requirements: tuple[str, ...]
    effect: Effect
    copies: int

    def steps(self, trigger: str) -> tuple[Step, ...] | None:
        """The steps of one section of the card's effect, None when it has no such section."""
        return self.effect.sections.get(trigger)


def card_def(card: Card) -> CardDef:
    """Build a CardDef from a model Card; a value the engine cannot use is a DeckError naming it."""
    kind = card.type
    return CardDef(
        id=card.id,
        name=card.name,
        type=kind,
        cult=text_field(card, "cult", default=""),
        symbols=tuple(list_field(card, "symbols", default=[])),
        volume=int_field(card, "volume", min=0) if kind == "follower" else _optional_int(card, "volume"),
        calamity=_optional_int(card, "calamity"),
        guard=int_field(card, "guard", min=0) if kind == "location" else _optional_int(card, "guard") or 0,
        location_type=text_field(card, "location_type", default=""),
        stardust=_optional_int(card, "stardust"),
        garrison=_optional_int(card, "garrison") or 0,
        deconstruct=_optional_int(card, "deconstruct") or 0,
        requirements=tuple(list_field(card, "requirements", default=[])),
        effect=parse_effect(text_field(card, "effect", default="")),
        copies=card.copies,
    )


def _optional_int(card: Card, name: str) -> int | None:
    """A non-negative integer field that may be blank (None): a card without 災厄 cannot be accused."""
    value: int | None = int_field(card, name, default=None, min=0)
    return value

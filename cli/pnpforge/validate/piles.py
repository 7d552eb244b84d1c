"""Piles: card types the rulebook shuffles together must look alike from the back.

A pile names card types; every type in it must exist, be a deck type, and
share the first type's size and back, or a player could tell the cards apart
face down (and a shop would cut them to different sizes).
"""

from __future__ import annotations

import sqlite_utils

from pnpforge.model import CardType, Pile
from pnpforge.store import repo, structure


def _size(t: CardType) -> str:
    return f"{t.width_mm:g}×{t.height_mm:g} mm"


def pile_type_problems(pile: Pile, types: dict[str, CardType]) -> list[str]:
    """One line per way `pile`'s card types break it (unknown type, different size or back)."""
    label = f"pile {pile.id} ({pile.label})"
    if not pile.card_types:
        return [f"{label}: names no card type"]
    unknown = [t for t in pile.card_types if t not in types]
    if unknown:
        return [f"{label}: unknown card type(s) {', '.join(unknown)} (types: {', '.join(types)})"]
    out = []
    first = types[pile.card_types[0]]
    for slug in pile.card_types[1:]:
        other = types[slug]
        if (other.width_mm, other.height_mm) != (first.width_mm, first.height_mm):
            out.append(
                f"{label}: {slug} is {_size(other)} but {first.slug} is {_size(first)}; "
                f"cards shuffled together must share one size"
            )
        if other.back != first.back:
            out.append(
                f"{label}: {slug} has back {other.back} but {first.slug} has {first.back}; "
                f"cards shuffled together must share one back"
            )
    return out


def pile_problems(db: sqlite_utils.Database, game: str) -> list[tuple[str, str]]:
    """(message, source) of every breach of the game's piles."""
    types = {t.slug: t for t in repo.card_types(db, game)}
    return [
        (message, f"{pile.id} ({pile.source})")
        for pile in structure.piles(db, game)
        for message in pile_type_problems(pile, types)
    ]

"""One validation module for every write path and for `pnp validate`."""

from __future__ import annotations

import sqlite_utils

from pnpforge.model import Card, CardType
from pnpforge.store import repo
from pnpforge.validate.deck import (composition, composition_problems, duplicate_name_problems,
                                    reference_problems, referrers)
from pnpforge.validate.fields import check_value, coerce, provisional_warnings, validate_card
from pnpforge.validate.problem import ERROR, WARNING, Problem

__all__ = ["Problem", "ERROR", "WARNING", "validate_game", "card_problems", "composition",
           "composition_problems", "referrers", "coerce", "check_value", "validate_card"]


def card_problems(card: Card, types: dict[str, CardType], cards: list[Card]) -> list[Problem]:
    """Every card-level problem of `card` among `cards` (the game's other cards)."""
    ctype = types.get(card.type)
    problems = validate_card(card, ctype, types)
    if ctype is not None:
        by_id = {c.id: c for c in cards}
        by_id[card.id] = card
        problems += reference_problems(card, ctype, by_id)
        problems += duplicate_name_problems(card, cards)
    return problems


def validate_game(db: sqlite_utils.Database, game: str) -> list[Problem]:
    """All problems of one game: cards, references, duplicates, composition, provisional values."""
    repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    cards = repo.list_cards(db, game)
    problems: list[Problem] = []
    for c in cards:
        problems += card_problems(c, types, cards)
    problems += composition_problems(db, game)
    for c in cards:
        problems += provisional_warnings(c)
    return problems

"""One validation module for every write path and for `pnp validate`."""

from __future__ import annotations

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import Card, CardType
from pnpforge.store import repo
from pnpforge.validate.deck import (
    composition,
    composition_problems,
    duplicate_name_problems,
    reference_problems,
    referrers,
)
from pnpforge.validate.fields import check_value, coerce, provisional_warnings, validate_card
from pnpforge.validate.index import GameIndex
from pnpforge.validate.problem import ERROR, WARNING, Problem

__all__ = [
    "Problem",
    "ERROR",
    "WARNING",
    "GameIndex",
    "validate_game",
    "card_problems",
    "composition",
    "composition_problems",
    "referrers",
    "coerce",
    "check_value",
    "validate_card",
    "duplicate_name_problems",
    "reference_problems",
]


def card_problems(card: Card, types: dict[str, CardType], cards: list[Card]) -> list[Problem]:
    """Every card-level problem of `card` among `cards` (the game's other cards).

    Builds an index of `cards`: for many cards, build one GameIndex and ask it.
    """
    index = GameIndex(types, cards)
    index.put(card)
    return index.problems(card)


def validate_game(db: sqlite_utils.Database, game: str) -> list[Problem]:
    """All problems of one game: cards, references, duplicates, composition, provisional values.

    Rows another tool wrote in a shape pnpforge never writes are reported by id, never a crash.
    """
    repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    index = GameIndex(types, repo.iter_cards(db, game, strict=False))  # pass 1: the index
    problems: list[Problem] = []
    warnings: list[Problem] = []
    for c in repo.iter_cards(db, game, strict=False):  # pass 2: each card against it
        problems += index.problems(c)
        warnings += provisional_warnings(c)
    try:
        problems += composition_problems(db, game)
    except PnpError as exc:
        problems.append(Problem(ERROR, game, None, "composition", f"not checked: {exc}", scope="deck"))
    from pnpforge.validate.piles import pile_problems

    problems += [
        Problem(ERROR, game, None, "pile", message, scope="deck") for message, _ in pile_problems(db, game)
    ]
    return problems + warnings

"""One validation module for every write path and for `pnp validate`."""

from __future__ import annotations

from pathlib import Path

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import Card, CardType
from pnpforge.store import repo
from pnpforge.store.location import db_folder
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
    "text_problems",
]


def card_problems(card: Card, types: dict[str, CardType], cards: list[Card]) -> list[Problem]:
    """Every card-level problem of `card` among `cards` (the game's other cards).

    Builds an index of `cards`: for many cards, build one GameIndex and ask it.
    """
    index = GameIndex(types, cards)
    index.put(card)
    return index.problems(card)


def art_warnings(card: Card, base: Path) -> list[Problem]:
    """A card naming an art file that is missing or not allowed: it would print a placeholder."""
    from pnpforge.artfile import check_art

    if not isinstance(card.art, str) or not card.art.strip():
        return []
    path = Path(card.art)
    path = path if path.is_absolute() else base / path
    try:
        check_art(path, base)
    except FileNotFoundError:
        message = f"art file {card.art} not found (in {base}); the card prints a placeholder"
    except PnpError as exc:
        message = f"{exc}; the card prints a placeholder"
    else:
        return []
    return [Problem(WARNING, card.game, card.id, "art", message)]


def validate_game(db: sqlite_utils.Database, game: str) -> list[Problem]:
    """All problems of one game: cards, references, duplicates, composition, text rules, provisional values.

    Rows another tool wrote in a shape pnpforge never writes are reported by id, never a crash.
    """
    repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    index = GameIndex(types, repo.iter_cards(db, game, strict=False))  # pass 1: the index
    problems: list[Problem] = []
    warnings: list[Problem] = []
    base = db_folder(db) or Path.cwd()
    for c in repo.iter_cards(db, game, strict=False):  # pass 2: each card against it
        problems += index.problems(c)
        warnings += provisional_warnings(c)
        warnings += art_warnings(c, base)
    try:
        problems += composition_problems(db, game)
    except PnpError as exc:
        problems.append(Problem(ERROR, game, None, "composition", f"not checked: {exc}", scope="deck"))
    problems += text_problems(db, game)
    from pnpforge.validate.piles import pile_problems

    problems += [
        Problem(ERROR, game, None, "pile", message, scope="deck") for message, _ in pile_problems(db, game)
    ]
    return problems + warnings


def text_problems(db: sqlite_utils.Database, game: str) -> list[Problem]:
    """Cards whose printed text contradicts a field a text rule binds it to (deck-level: never blocks;
    a warning when the rule rests on our reading)."""
    from pnpforge.validate.text_rules import text_rule_breaches

    cards = repo.list_cards(db, game, strict=False)
    return [
        Problem(
            WARNING if rule.provisional else ERROR,
            game,
            b.cards[0] if b.cards else None,
            rule.id,
            f"{rule.label}: {b.message}",
            scope="deck",
        )
        for rule, breaches in text_rule_breaches(db, game, cards)
        for b in breaches
    ]

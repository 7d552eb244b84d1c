"""Validated writes: add, set, remove cards (card imports: pnpforge.importer.import_cards).

Every write takes the write lock first (BEGIN IMMEDIATE), then reads the game,
validates and writes inside that one transaction: whatever runs beside it, no
card is written against a stale copy, so no concurrent edit is lost and no
duplicate name or dangling reference slips in between the check and the
write.  A card-level problem raises ValidationFailed and nothing is written.
Deck-level problems (composition) are returned, never raised; designed targets
that follow the deck (`pnp game new`'s) move with each write, in its transaction.
"""

from __future__ import annotations

import copy as _copy
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge import cardio
from pnpforge.composition_edit import follow_deck
from pnpforge.errors import PnpError, ValidationFailed
from pnpforge.model import CARD_ATTRIBUTES, Card, CardType, card_changes
from pnpforge.store import repo
from pnpforge.store.db import transaction
from pnpforge.store.edition import note_correction
from pnpforge.validate import ERROR, GameIndex, Problem, coerce, composition_problems
from pnpforge.validate.edition import apply_edition_rules
from pnpforge.validate.text_rules import with_generated_text
from pnpforge.validate.values import id_problem, normalize_name, parse_int

_TEXT_ATTRIBUTES = ("name", "name_en", "text", "flavor", "provenance", "source", "notes", "type")


def load_index(db: sqlite_utils.Database, game: str) -> GameIndex:
    """The game's card types and cards, indexed; call it inside the write transaction.

    Cards are read leniently, so a row another tool broke can still be fixed.
    """
    repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    return GameIndex(types, repo.iter_cards(db, game, strict=False))


def refuse(problems: list[Problem], what: str) -> None:
    """Raise ValidationFailed listing the card-level errors among `problems`, if any."""
    errors = [p for p in problems if p.severity == ERROR and p.scope == "card"]
    if errors:
        raise ValidationFailed(
            f"{what} refused; nothing was changed:\n" + "\n".join(f"  {p}" for p in errors), errors
        )


def _text(card: Card, key: str, raw: Any) -> str:
    """A text attribute from a cell or a JSON value; names are stored NFC and trimmed."""
    if raw is None:
        return ""
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise PnpError(f"card {card.id}: {key} must be text, got a {type(raw).__name__}")
    text = raw if isinstance(raw, str) else str(raw)
    return normalize_name(text) if key in ("name", "name_en") else text


def assign(card: Card, ctype: CardType, key: str, raw: Any) -> None:
    """Set one attribute or field of `card` from text (`pnp cards set` and imports)."""
    if key == "copies":
        try:
            card.copies = parse_int(raw.strip() if isinstance(raw, str) else raw)
        except ValueError as exc:
            raise PnpError(f"card {card.id}: copies: {exc}") from None
    elif key == "provisional_fields":
        if isinstance(raw, list):
            if not all(isinstance(p, str) for p in raw):
                raise PnpError(f"card {card.id}: provisional_fields must be a list of names")
            card.provisional_fields = list(raw)
        else:
            text = _text(card, key, raw)
            card.provisional_fields = [p.strip() for p in text.replace("|", ",").split(",") if p.strip()]
    elif key == "art":
        card.art = _text(card, key, raw) or None
    elif key in _TEXT_ATTRIBUTES:
        setattr(card, key, _text(card, key, raw))
    else:
        fd = ctype.field(key)
        if fd is None:
            allowed = [a for a in CARD_ATTRIBUTES if a != "type"] + [f.name for f in ctype.fields]
            raise PnpError(
                f"card {card.id}: unknown field '{key}' for type '{ctype.slug}' "
                f"(allowed: {', '.join(allowed)})"
            )
        try:
            value = coerce(fd, raw)
        except ValueError as exc:
            raise PnpError(f"card {card.id}: field '{key}': {exc}") from None
        if value is None and fd.type == "list":
            card.fields[key] = []
        elif value is None:
            card.fields.pop(key, None)
        else:
            card.fields[key] = value


def _card_type(index: GameIndex, game: str, slug: str) -> CardType:
    ctype = index.types.get(slug)
    if ctype is None:
        raise PnpError(
            f"game '{game}' has no card type '{slug}' (allowed: {', '.join(index.types) or 'none'})"
        )
    return ctype


def add_card(
    db: sqlite_utils.Database, game: str, card_type: str, card_id: str, values: dict[str, Any]
) -> tuple[Card, list[Problem]]:
    """Add a card; returns it and the deck-level problems after the write."""
    reason = id_problem(card_id)
    if reason:
        raise PnpError(f"card {card_id!r}: {reason}")
    with transaction(db) as conn:
        index = load_index(db, game)
        ctype = _card_type(index, game, card_type)
        if card_id in index:
            raise PnpError(f"game '{game}' already has a card '{card_id}'; use 'pnp cards set'")
        card = Card(game=game, type=card_type, id=card_id, name="")
        for key, raw in values.items():
            assign(card, ctype, key, raw)
        repo.with_list_defaults(card, ctype)
        card = apply_edition_rules(None, with_generated_text(conn, card), None)
        index.put(card)
        refuse(index.problems(card), f"adding card {card_id}")
        repo.insert_card(conn, card)
        follow_deck(db, conn, game)
    return repo.get_card(db, game, card_id), composition_problems(db, game)


def set_card(
    db: sqlite_utils.Database, game: str, card_id: str, values: dict[str, Any], correction: str | None = None
) -> tuple[Card, list[Problem]]:
    """Change attributes and fields of one card, all or nothing; only a real change is written."""
    with transaction(db) as conn:
        index = load_index(db, game)
        old = repo.find_card(db, game, card_id, strict=False)
        if old is None:
            raise PnpError(f"game '{game}' has no card '{card_id}'")
        card = _copy.deepcopy(old)
        if not isinstance(card.fields, dict):
            card.fields = {}  # a row another tool broke: its fields start afresh
        for key, raw in values.items():
            assign(card, _card_type(index, game, card.type), key, raw)
        repo.with_list_defaults(card, _card_type(index, game, card.type))
        card = apply_edition_rules(old, with_generated_text(conn, card), correction)
        index.put(card)
        refuse(index.problems(card, type_changed=card.type != old.type), f"editing card {card_id}")
        if card_changes(old.to_dict(), card.to_dict()):
            repo.update_card(conn, card)
            if correction:
                note_correction(conn, game, card_id, correction)
            follow_deck(db, conn, game)
    return repo.get_card(db, game, card_id), composition_problems(db, game)


def remove_card(db: sqlite_utils.Database, game: str, card_id: str) -> list[Problem]:
    """Delete a card unless another card names it (that would leave a dangling reference)."""
    with transaction(db) as conn:
        index = load_index(db, game)
        if card_id not in index:
            raise PnpError(f"game '{game}' has no card '{card_id}'")
        users = index.referrers(card_id)
        if users:
            raise ValidationFailed(
                f"card {card_id} is named by {', '.join(users)}; change those first. Nothing was changed."
            )
        repo.delete_card(conn, game, card_id)
        follow_deck(db, conn, game)
    return composition_problems(db, game)


def export_cards(db: sqlite_utils.Database, game: str, fmt: str) -> str:
    repo.get_game(db, game)
    types = repo.card_types(db, game)
    return cardio.write_records(repo.list_cards(db, game), types, fmt)


def import_game(
    db: sqlite_utils.Database, path: Path, replace: bool = False, correction: str | None = None
) -> tuple[str, list[Problem]]:
    """Load a whole game from a bundle (see pnpforge.importer)."""
    from pnpforge import importer

    return importer.import_game(db, path, replace, correction)

"""Validated writes: add, set, remove, import cards and whole games.

Every function here runs in one transaction and validates the result before
committing: a card-level problem raises ValidationFailed and nothing is
written.  Deck-level problems (composition) are returned, never raised.
"""

from __future__ import annotations

import copy as _copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge import cardio
from pnpforge.errors import PnpError, ValidationFailed
from pnpforge.model import Card, CardType, card_changes
from pnpforge.store import bundle, repo
from pnpforge.store.db import transaction
from pnpforge.validate import ERROR, Problem, card_problems, coerce, composition_problems, referrers


def _context(db: sqlite_utils.Database, game: str) -> tuple[dict[str, CardType], list[Card]]:
    repo.get_game(db, game)
    return {t.slug: t for t in repo.card_types(db, game)}, repo.list_cards(db, game)


def _refuse(problems: list[Problem], what: str) -> None:
    errors = [p for p in problems if p.severity == ERROR and p.scope == "card"]
    if errors:
        raise ValidationFailed(f"{what} refused; nothing was changed:\n" +
                               "\n".join(f"  {p}" for p in errors), errors)


def assign(card: Card, ctype: CardType, key: str, raw: Any) -> None:
    """Set one attribute or field of `card` from text (`pnp cards set` and imports)."""
    if key == "copies":
        try:
            card.copies = int(str(raw).strip())
        except ValueError:
            raise PnpError(f"card {card.id}: copies must be a whole number, got {raw!r}") from None
    elif key == "provisional_fields":
        card.provisional_fields = raw if isinstance(raw, list) else \
            [p.strip() for p in str(raw).replace("|", ",").split(",") if p.strip()]
    elif key == "art":
        card.art = str(raw) if raw not in (None, "") else None
    elif key in ("name", "name_en", "text", "flavor", "provenance", "source", "notes", "type"):
        setattr(card, key, "" if raw is None else str(raw))
    else:
        fd = ctype.field(key)
        if fd is None:
            allowed = ["copies", "name", "name_en", "text", "flavor", "art", "provenance",
                       "source", "notes", "provisional_fields"] + [f.name for f in ctype.fields]
            raise PnpError(f"card {card.id}: unknown field '{key}' for type '{ctype.slug}' "
                           f"(allowed: {', '.join(allowed)})")
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


def add_card(db: sqlite_utils.Database, game: str, card_type: str, card_id: str,
             values: dict[str, Any]) -> tuple[Card, list[Problem]]:
    """Add a card; returns it and the deck-level problems after the write."""
    types, cards = _context(db, game)
    ctype = repo.get_card_type(db, game, card_type)
    if any(c.id == card_id for c in cards):
        raise PnpError(f"game '{game}' already has a card '{card_id}'; use 'pnp cards set'")
    card = Card(game=game, type=card_type, id=card_id, name=str(values.get("name", "")))
    for key, raw in values.items():
        assign(card, ctype, key, raw)
    repo.with_list_defaults(card, ctype)
    _refuse(card_problems(card, types, cards), f"adding card {card_id}")
    with transaction(db) as conn:
        repo.insert_card(conn, card)
    return repo.get_card(db, game, card_id), composition_problems(db, game)


def set_card(db: sqlite_utils.Database, game: str, card_id: str,
             values: dict[str, Any]) -> tuple[Card, list[Problem]]:
    """Change attributes and fields of one card, all or nothing."""
    types, cards = _context(db, game)
    old = repo.get_card(db, game, card_id)
    card = _copy.deepcopy(old)
    for key, raw in values.items():
        ctype = types.get(card.type) or repo.get_card_type(db, game, card.type)
        assign(card, ctype, key, raw)
    repo.with_list_defaults(card, types.get(card.type) or repo.get_card_type(db, game, card.type))
    _refuse(card_problems(card, types, cards), f"editing card {card_id}")
    with transaction(db) as conn:
        repo.update_card(conn, card)
    return repo.get_card(db, game, card_id), composition_problems(db, game)


def remove_card(db: sqlite_utils.Database, game: str, card_id: str) -> list[Problem]:
    """Delete a card unless another card names it (that would leave a dangling reference)."""
    types, cards = _context(db, game)
    repo.get_card(db, game, card_id)
    users = [u for u in referrers(card_id, cards, types) if u != card_id]
    if users:
        raise ValidationFailed(f"card {card_id} is named by {', '.join(users)}; "
                               f"change those first. Nothing was changed.")
    with transaction(db) as conn:
        repo.delete_card(conn, game, card_id)
    return composition_problems(db, game)


# ---- import / export ---------------------------------------------------------

@dataclass
class Change:
    id: str
    op: str                                   # "add" | "update" | "same"
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)


@dataclass
class ImportResult:
    changes: list[Change]
    deck_problems: list[Problem]
    written: bool

    @property
    def counts(self) -> dict[str, int]:
        out = {"add": 0, "update": 0, "same": 0}
        for c in self.changes:
            out[c.op] += 1
        return out


def _diff(old: Card | None, new: Card) -> Change:
    if old is None:
        return Change(new.id, "add")
    changes = card_changes(old.to_dict(), new.to_dict())
    return Change(new.id, "update" if changes else "same", changes)


def import_cards(db: sqlite_utils.Database, game: str, path: Path, fmt: str | None = None,
                 encoding: str | None = None, dry_run: bool = False) -> ImportResult:
    """Upsert cards by id from CSV or JSON; one bad row and nothing is written."""
    types, cards = _context(db, game)
    records = cardio.read_records(path, fmt, encoding)
    existing = {c.id: c for c in cards}
    new_cards: dict[str, Card] = {}
    problems: list[str] = []
    for rec in records:
        try:
            card = _card_from_record(rec, game, types, existing)
        except PnpError as exc:
            problems.append(f"{rec.where}: {exc}")
            continue
        if card.id in new_cards:
            problems.append(f"{rec.where}: id '{card.id}' appears twice in the file")
            continue
        new_cards[card.id] = card
    merged = {**existing, **new_cards}
    all_cards = list(merged.values())
    for rec in records:
        card = new_cards.get(str(rec.values.get("id", "")).strip())
        if card is None:
            continue
        for p in card_problems(card, types, all_cards):
            if p.severity == ERROR:
                problems.append(f"{rec.where_field(p.field)}: card {card.id}: {p.message}")
    if problems:
        raise ValidationFailed(f"import of {path} refused; nothing was written:\n" +
                               "\n".join(f"  {m}" for m in problems))
    changes = [_diff(existing.get(cid), c) for cid, c in new_cards.items()]
    if dry_run:
        return ImportResult(changes, [], False)
    with transaction(db) as conn:
        for ch in changes:
            if ch.op == "add":
                repo.insert_card(conn, new_cards[ch.id])
            elif ch.op == "update":
                repo.update_card(conn, new_cards[ch.id])
    return ImportResult(changes, composition_problems(db, game), True)


def _card_from_record(rec: "cardio.Record", game: str, types: dict[str, CardType],
                      existing: dict[str, Card]) -> Card:
    values = dict(rec.values)
    card_id = str(values.pop("id", "") or "").strip()
    if not card_id:
        raise PnpError("missing id")
    old = existing.get(card_id)
    type_slug = str(values.pop("type", "") or (old.type if old else "")).strip()
    if type_slug not in types:
        raise PnpError(f"card {card_id}: unknown card type '{type_slug}' "
                       f"(allowed: {', '.join(types)})")
    ctype = types[type_slug]
    card = _copy.deepcopy(old) if old else Card(game=game, type=type_slug, id=card_id, name="")
    card.type = type_slug
    if rec.replace_fields:
        card.fields = {}
    for key, raw in values.items():
        if rec.is_field_column(key) and ctype.field(key) is None:
            if raw in (None, ""):
                continue  # a column for another type's field
        try:
            assign(card, ctype, key, raw)
        except PnpError as exc:
            raise PnpError(f"{rec.column_name(key)}: {exc}") from None
    return repo.with_list_defaults(card, ctype)


def export_cards(db: sqlite_utils.Database, game: str, fmt: str) -> str:
    types, cards = _context(db, game)
    return cardio.write_records(cards, list(types.values()), fmt)


# ---- whole games ---------------------------------------------------------------

def import_game(db: sqlite_utils.Database, path: Path, replace: bool = False) -> tuple[str, list[Problem]]:
    """Load a game bundle; every card is validated before the transaction commits."""
    try:
        data = bundle.parse(json.loads(Path(path).read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise PnpError(f"no such file: {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PnpError(f"{path} is not valid UTF-8 JSON: {exc}") from None
    slug = data["game"]["slug"]
    with transaction(db) as conn:
        bundle.write(conn, data, replace)
        types = {t.slug: t for t in repo.card_types(db, slug)}
        cards = repo.list_cards(db, slug)
        problems = [p for c in cards for p in card_problems(c, types, cards)]
        _refuse(problems, f"import of game '{slug}' from {path}")
    return slug, composition_problems(db, slug)

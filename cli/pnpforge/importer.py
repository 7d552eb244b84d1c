"""Imports: cards from CSV or JSON (`pnp import`) and whole games (`pnp game import`).

Linear and streaming: rows are read one at a time, each card is checked on
its own and written as it comes, inside one write transaction; references
and duplicate names are then checked once per imported card against one
index of the game (before, two scans of the whole game per card made an
8,000-row import quadratic).  One bad row and the transaction is rolled
back.  A dry run runs this same code on a private in-memory copy of the
database and rolls back, so it refuses exactly what the real import refuses.
"""

from __future__ import annotations

import copy as _copy
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge import cardio
from pnpforge.composition_edit import follow_deck
from pnpforge.design import urlimport
from pnpforge.edit import assign, load_index, refuse
from pnpforge.errors import PnpError, ValidationFailed
from pnpforge.model import Card, card_changes
from pnpforge.store import bundle, repo, structure
from pnpforge.store.db import transaction
from pnpforge.store.edition import note_correction
from pnpforge.validate import ERROR, GameIndex, Problem, composition_problems, validate_card
from pnpforge.validate.edition import apply_edition_rules
from pnpforge.validate.text_rules import with_generated_text
from pnpforge.validate.values import id_problem

MAX_PROBLEMS = 200  # listed in a refusal; more are counted


@dataclass
class Change:
    id: str
    op: str  # "add" | "update" | "same"
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


class _Problems:
    """A refusal's messages, capped so 50,000 bad rows still give a readable answer."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.count = 0

    def add(self, line: str) -> None:
        self.count += 1
        if len(self.lines) < MAX_PROBLEMS:
            self.lines.append(line)

    def raise_if_any(self, what: str) -> None:
        if not self.count:
            return
        more = self.count - len(self.lines)
        tail = [f"  … and {more} more"] if more else []
        raise ValidationFailed(
            f"{what} refused; nothing was written:\n" + "\n".join([f"  {m}" for m in self.lines] + tail)
        )


def import_cards(
    db: sqlite_utils.Database,
    game: str,
    path: Path,
    fmt: str | None = None,
    encoding: str | None = None,
    dry_run: bool = False,
    correction: str | None = None,
    allow_private: bool = False,
) -> ImportResult:
    """Upsert cards by id from CSV or JSON; one bad row and nothing is written.

    For a dry run, pass a database opened with `scratch=True` (an in-memory copy).
    """
    repo.get_game(db, game)  # an unknown game is named before the file is read
    records = cardio.read_records(path, fmt, encoding, allow_private)
    source = urlimport.as_url(path) or path  # a link is named as given, not as a path
    with transaction(db, rollback_only=dry_run) as conn:
        index = load_index(db, game)
        changes, problems = _stream(conn, index, game, records, correction)
        problems.raise_if_any(f"import of {source}")
        follow_deck(db, conn, game)
        if correction and not dry_run:
            for ch in changes:
                if ch.op != "same":
                    note_correction(conn, game, ch.id, correction)
    if dry_run:
        return ImportResult(changes, [], False)
    return ImportResult(changes, composition_problems(db, game), True)


def _stream(
    conn: sqlite3.Connection,
    index: GameIndex,
    game: str,
    records: Iterable[cardio.Record],
    correction: str | None,
) -> tuple[list[Change], _Problems]:
    """Build, check and write each record's card; then check references and names once each."""
    problems = _Problems()
    changes: list[Change] = []
    where: dict[str, str] = {}  # card id -> where its row is, for messages
    old_types: dict[str, str] = {}
    position = repo.next_position(conn, game)
    for rec in records:
        try:
            card, old = _card_from_record(conn, rec, game, index)
        except PnpError as exc:
            problems.add(f"{rec.where}: {exc}")
            continue
        if card.id in where:
            problems.add(f"{rec.where}: id '{card.id}' appears twice in the file")
            continue
        card = apply_edition_rules(old, with_generated_text(conn, card), correction)
        if old is not None and not correction and card.provenance == old.provenance:
            # a sheet exported before an edit still carries the old marks: re-importing it must
            # not drop the designer's "my value" mark (only a --correction says it is the rulebook's)
            card.provisional_fields = sorted(set(card.provisional_fields) | set(old.provisional_fields))
        where[card.id] = rec.where
        if old is not None:
            old_types[card.id] = old.type
        index.put(card)
        own = [p for p in validate_card(card, index.types[card.type], index.types) if p.severity == ERROR]
        for p in own:
            problems.add(f"{rec.where_field(p.field)}: card {card.id}: {p.message}")
        change = _diff(old, card)
        changes.append(change)
        if own or problems.count:
            continue  # the import is refused: stop writing, keep checking
        try:
            if change.op == "add":
                repo.insert_card(conn, card, position)
                position += 1
            elif change.op == "update":
                repo.update_card(conn, card)
        except PnpError as exc:
            problems.add(f"{rec.where}: {exc}")
    for card_id, row in where.items():
        type_changed = card_id in old_types and old_types[card_id] != index.type_of(card_id)
        for p in index.cross_problems(card_id, type_changed):
            column = f", column '{p.field}'" if p.field else ""
            problems.add(f"{row}{column}: card {card_id}: {p.message}")
    return changes, problems


def _card_from_record(
    conn: sqlite3.Connection, rec: cardio.Record, game: str, index: GameIndex
) -> tuple[Card, Card | None]:
    values = dict(rec.values)
    raw_id = values.pop("id", "")
    if raw_id is not None and not isinstance(raw_id, str):  # JSON `"id": true` or 12 is not an id
        raise PnpError(f"column 'id': {id_problem(raw_id)}")
    card_id = raw_id.strip() if raw_id is not None else ""
    if not card_id:
        raise PnpError("missing id")
    reason = id_problem(card_id)
    if reason:
        raise PnpError(f"column 'id': {reason}")
    old = repo.find_card(conn, game, card_id, strict=False)
    raw_type = values.pop("type", "") or (old.type if old else "")
    type_slug = raw_type.strip() if isinstance(raw_type, str) else ""
    if type_slug not in index.types:
        raise PnpError(f"card {card_id}: unknown card type {raw_type!r} (allowed: {', '.join(index.types)})")
    ctype = index.types[type_slug]
    card = _copy.deepcopy(old) if old else Card(game=game, type=type_slug, id=card_id, name="")
    card.type = type_slug
    if rec.replace_fields or not isinstance(card.fields, dict):
        card.fields = {}
    for key, raw in values.items():
        if rec.is_field_column(key) and ctype.field(key) is None and raw in (None, ""):
            continue  # a column for another type's field
        try:
            assign(card, ctype, key, raw)
        except PnpError as exc:
            raise PnpError(f"{rec.column_name(key)}: {exc}") from None
    return repo.with_list_defaults(card, ctype), old


# ---- whole games ---------------------------------------------------------------


def read_bundle(path: Path) -> dict:
    """A game bundle file parsed and checked for shape; PnpError naming the file otherwise."""
    path = Path(path)
    if path.is_dir():
        raise PnpError(f"{path} is a folder; pass the game bundle's JSON file")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PnpError(f"no such file: {path}") from None
    except UnicodeDecodeError as exc:
        raise PnpError(f"{path} is not valid UTF-8 JSON: {exc}") from None
    except OSError as exc:
        raise PnpError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return bundle.parse(json.loads(text))
    except json.JSONDecodeError as exc:
        raise PnpError(f"{path} is not valid UTF-8 JSON: {exc}") from None
    except RecursionError:
        raise PnpError(f"{path}: JSON nested too deeply") from None
    except ValueError as exc:
        raise PnpError(f"{path}: JSON value out of range: {str(exc)[:120]}") from None
    except (TypeError, AttributeError, KeyError) as exc:
        raise PnpError(f"{path}: not a game bundle ({exc!r})") from None


def import_game(
    db: sqlite_utils.Database, path: Path, replace: bool = False, correction: str | None = None
) -> tuple[str, list[Problem]]:
    """Load a game bundle; every card is validated before the transaction commits."""
    return import_bundle(db, read_bundle(path), path, replace, correction)


def import_bundle(
    db: sqlite_utils.Database, data: dict, path: Path, replace: bool = False, correction: str | None = None
) -> tuple[str, list[Problem]]:
    """Write a bundle `read_bundle` returned, validated inside one transaction."""
    slug = data["game"].get("slug")
    if not isinstance(slug, str):
        raise PnpError(f"{path}: game.slug must be text")
    with transaction(db) as conn:
        exists = repo.game_exists(conn, slug)
        old_cards = {c.id: c for c in repo.list_cards(db, slug, strict=False)} if exists else {}
        old_structure = structure.current(conn, slug) if exists else None
        bundle.write(conn, data, replace)
        if old_structure is not None:
            structure.record_changes(conn, slug, old_structure, correction)
        types = {t.slug: t for t in repo.card_types(db, slug)}
        cards = [
            _edition_checked(conn, old_cards.get(c.id), c, correction)
            for c in repo.list_cards(db, slug, strict=False)
        ]
        index = GameIndex(types, cards)
        refuse([p for c in cards for p in index.problems(c)], f"import of game '{slug}' from {path}")
        if correction:
            for c in cards:
                old = old_cards.get(c.id)
                if old is not None and card_changes(old.to_dict(), c.to_dict()):
                    note_correction(conn, slug, c.id, correction)
    return slug, composition_problems(db, slug)


def _edition_checked(conn: sqlite3.Connection, old: Card | None, card: Card, correction: str | None) -> Card:
    """`card` through the edition rules, rewritten when they mark values provisional."""
    if old is None or not isinstance(card.fields, dict):
        return card
    checked = apply_edition_rules(old, card, correction)
    if checked != card:
        repo.update_card(conn, checked)
    return checked

"""Validated writes, the one path for every change to cards and composition rows.

Cards: add, set, remove, import, game import; composition rows: set, add, remove.

Every write takes the write lock first (BEGIN IMMEDIATE), then reads the game,
validates and writes inside that one transaction: whatever runs beside it, no
card is written against a stale copy, so no concurrent edit is lost and no
duplicate name or dangling reference slips in between the check and the
write.  A card-level problem raises ValidationFailed and nothing is written.
Deck-level problems (composition) are returned, never raised; designed targets
that follow the deck (`pnp game new`'s) move with each write, in its transaction.
Composition rows (`pnp composition set|add|rm`) are written the same way: one
transaction that reads, checks, writes and records the change in the structure
history.

Imports (`pnp import`, `pnp game import`) are linear and streaming: rows are
read one at a time, each card is checked on its own and written as it comes,
inside one write transaction; references and duplicate names are then checked
once per imported card against one index of the game.  One bad row and the
transaction is rolled back.  A dry run runs this same code on a private
in-memory copy of the database and rolls back, so it refuses exactly what the
real import refuses.
"""

from __future__ import annotations

import copy as _copy
import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError, ValidationFailed
from pnpforge.formats import link
from pnpforge.formats.cards import read_cards
from pnpforge.formats.records import Record
from pnpforge.model import (
    CARD_ATTRIBUTES,
    Card,
    CardType,
    CompositionRule,
    card_changes,
    fits_card,
    tidy_provisional,
)
from pnpforge.query import select
from pnpforge.store import bundle, repo, structure
from pnpforge.store.db import transaction
from pnpforge.store.edition import note_correction
from pnpforge.validate import ERROR, GameIndex, Problem, coerce, composition_problems, validate_card
from pnpforge.validate.edition import apply_edition_rules
from pnpforge.validate.text_rules import with_generated_text
from pnpforge.validate.values import game_slug_problem, id_problem, normalize_name, parse_int

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


# ---- imports: cards from a file, whole games from a bundle ----


MAX_PROBLEMS = 200  # listed in a refusal; more are counted


@dataclass
class Change:
    """One imported card: added, updated (with what changed) or the same as before."""

    id: str
    op: str  # "add" | "update" | "same"
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)


@dataclass
class ImportResult:
    """What an import did (or, in a dry run, would do) to each card, and the deck's problems after."""

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
    records = read_cards(path, fmt, encoding, allow_private)
    source = link.as_url(path) or path  # a link is named as given, not as a path
    with transaction(db, rollback_only=dry_run) as conn:
        index = load_index(db, game)
        changes, problems = _stream(db, index, game, records, correction)
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
    db: sqlite_utils.Database,
    index: GameIndex,
    game: str,
    records: Iterable[Record],
    correction: str | None,
) -> tuple[list[Change], _Problems]:
    """Build, check and write each record's card; then check references and names once each.

    Updates are written as they come; new cards in bulk, a batch at a time.
    """
    conn = db.conn
    problems = _Problems()
    changes: list[Change] = []
    where: dict[str, str] = {}  # card id -> where its row is, for messages
    old_types: dict[str, str] = {}
    position = repo.next_position(conn, game)
    added: list[tuple[Card, int, str]] = []  # new cards waiting for one bulk insert, with their rows
    for rec in records:
        try:
            card, old = _card_from_record(db, rec, game, index)
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
            kept = {e for e in old.provisional_fields if fits_card(card, e)}  # not a cell the sheet removed
            card.provisional_fields = sorted(set(card.provisional_fields) | kept)
            tidy_provisional(card)
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
        if change.op == "add":
            added.append((card, position, rec.where))
            position += 1
            if len(added) >= repo.INSERT_BATCH:
                _insert_added(db, added, problems)
        elif change.op == "update":
            try:
                repo.update_card(conn, card)
            except PnpError as exc:
                problems.add(f"{rec.where}: {exc}")
    _insert_added(db, added, problems)
    for card_id, row in where.items():
        type_changed = card_id in old_types and old_types[card_id] != index.type_of(card_id)
        for p in index.cross_problems(card_id, type_changed):
            column = f", column '{p.field}'" if p.field else ""
            problems.add(f"{row}{column}: card {card_id}: {p.message}")
    return changes, problems


def _insert_added(db: sqlite_utils.Database, added: list[tuple[Card, int, str]], problems: _Problems) -> None:
    """Write the waiting new cards in bulk; when the schema refuses one, name its row."""
    if added and not problems.count:
        try:
            repo.insert_cards(db, [(card, position) for card, position, _ in added])
        except PnpError:
            for card, position, where in added:  # the batch was undone: find the row it refused
                try:
                    repo.insert_card(db.conn, card, position)
                except PnpError as exc:
                    problems.add(f"{where}: {exc}")
                    break
    added.clear()


def _card_from_record(
    db: sqlite_utils.Database, rec: Record, game: str, index: GameIndex
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
    old = repo.find_card(db, game, card_id, strict=False)
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
        if key == "provenance" and (raw is None or (isinstance(raw, str) and not raw.strip())):
            continue  # a blank cell (a row added in the sheet): a new card is the designer's, as `cards add`
        try:
            assign(card, ctype, key, raw)
        except PnpError as exc:
            raise PnpError(f"{rec.column_name(key)}: {exc}") from None
    return repo.with_list_defaults(card, ctype), old


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
    if not repo.game_exists(db, slug) and (slug_problem := game_slug_problem(slug)):
        raise PnpError(f"{path}: {slug_problem}")  # a game already here keeps its name
    with transaction(db) as conn:
        exists = repo.game_exists(db, slug)
        old_cards = {c.id: c for c in repo.list_cards(db, slug, strict=False)} if exists else {}
        old_structure = structure.current(conn, slug) if exists else None
        bundle.write(db, data, replace)
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


# ---- composition rows: `pnp composition set|add|rm`, and targets that follow the deck ----------
#
# A composition row is either a rulebook count (a fact: a mismatch is an error) or a designed
# target (our plan: a mismatch is a warning).  Like a card value, a rulebook row edited without
# `--correction` becomes designed, and every edit is kept in the structure history, so `pnp check`
# still shows the change against the rulebook edition.  A designed row marked `follows_deck`
# (what `pnp game new` writes) moves with the designer's `cards add`/`rm`: `follow_deck` keeps it
# equal to the deck inside the same transaction as the card write.

COMPOSITION_EDITABLE = (
    "label",
    "card_type",
    "query",
    "expected",
    "parent",
    "source",
    "designed",
    "follows_deck",
)
_ROW_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# Values that define what a rulebook row declares: changing one makes the row designed.
_DECLARING = ("card_type", "query", "expected", "parent")
_YES, _NO = ("1", "true", "yes", "y"), ("0", "false", "no", "n")


def _composition_rows(db: sqlite_utils.Database, game: str) -> dict[str, CompositionRule]:
    repo.get_game(db, game)  # an unknown game is named as such
    return {r.id: r for r in repo.composition(db, game)}


def _yes_no(name: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _YES or text in _NO:
        return text in _YES
    raise PnpError(f"composition {name}: expected yes or no, got {raw!r}")


def _assign_row(rule: CompositionRule, key: str, raw: Any) -> CompositionRule:
    if key not in COMPOSITION_EDITABLE:
        raise PnpError(f"composition rows have no '{key}' (allowed: {', '.join(COMPOSITION_EDITABLE)})")
    if key == "expected":
        try:
            value = parse_int(str(raw))
        except ValueError:
            raise PnpError(f"composition {rule.id}: expected must be a whole number, got {raw!r}") from None
        if not 0 <= value <= 100_000:
            raise PnpError(f"composition {rule.id}: expected {value} is outside 0..100000")
        return dataclass_replace(rule, expected=value)
    if key == "designed":
        return dataclass_replace(rule, provisional=_yes_no("designed", raw))
    if key == "follows_deck":
        return dataclass_replace(rule, follows_deck=_yes_no("follows_deck", raw))
    text = str(raw).strip()
    if key == "card_type":
        return dataclass_replace(rule, card_type=text or None)
    if key == "parent":
        return dataclass_replace(rule, parent=text or None)
    if key == "label":
        if not text:
            raise PnpError(f"composition {rule.id}: label must not be empty")
        return dataclass_replace(rule, label=text)
    if key == "query":
        return dataclass_replace(rule, query=text)
    return dataclass_replace(rule, source=text)


def _check_row(db: sqlite_utils.Database, rule: CompositionRule, rules: dict[str, CompositionRule]) -> None:
    """Refuse a row whose type, query or parent does not exist, or whose parents loop."""
    if not _ROW_ID.fullmatch(rule.id):
        raise PnpError(f"composition id {rule.id!r}: letters, digits, . _ - (a letter or digit first)")
    select.select(db, rule.game, rule.card_type, rule.query)  # unknown type or bad query: PnpError
    seen = {rule.id}
    parent = rule.parent
    while parent:
        if parent not in rules:
            raise PnpError(f"composition {rule.id}: parent '{parent}' is not a row of {rule.game}")
        if parent in seen:
            raise PnpError(f"composition {rule.id}: parent '{rule.parent}' makes a loop")
        seen.add(parent)
        parent = rules[parent].parent
    if rule.follows_deck and not rule.provisional:
        raise PnpError(f"composition {rule.id}: only a designed target can follow the deck (designed=yes)")


def _write_row(
    db: sqlite_utils.Database, conn: sqlite3.Connection, rule: CompositionRule, correction: str | None
) -> None:
    before = structure.current(conn, rule.game)
    structure.write_rule(conn, rule)
    follow_deck(db, conn, rule.game)
    structure.record_changes(conn, rule.game, before, correction)


def set_composition_row(
    db: sqlite_utils.Database, game: str, rule_id: str, values: dict[str, Any], correction: str | None = None
) -> CompositionRule:
    """Change one row; a rulebook row whose count or selection changes becomes designed
    unless `correction` says the rulebook was transcribed wrongly."""
    with transaction(db) as conn:
        rules = _composition_rows(db, game)
        if rule_id not in rules:
            raise PnpError(
                f"game '{game}' has no composition row '{rule_id}' (rows: {', '.join(rules) or 'none'})"
            )
        old = rules[rule_id]
        rule = old
        for key, raw in values.items():
            rule = _assign_row(rule, key, raw)
        if rule.expected != old.expected and "label" not in values:
            rule = dataclass_replace(
                rule, label=re.sub(rf"×{old.expected}$", f"×{rule.expected}", rule.label)
            )
        if not old.provisional and not correction and "designed" not in values:
            if any(getattr(old, k) != getattr(rule, k) for k in _DECLARING):
                rule = dataclass_replace(rule, provisional=True)
        _check_row(db, rule, rules)
        if rule != old:
            _write_row(db, conn, rule, correction)
    return _composition_rows(db, game)[rule_id]


def add_composition_row(db: sqlite_utils.Database, rule: CompositionRule) -> CompositionRule:
    """Add a row (designed unless it says otherwise); its id must be new."""
    with transaction(db) as conn:
        rules = _composition_rows(db, rule.game)
        if rule.id in rules:
            raise PnpError(f"game '{rule.game}' already has a composition row '{rule.id}'; use set")
        if not rule.label.strip():
            raise PnpError(f"composition {rule.id}: label must not be empty")
        rule = _assign_row(rule, "expected", rule.expected)  # the same bounds as set
        _check_row(db, rule, rules)
        _write_row(db, conn, rule, None)
    return _composition_rows(db, rule.game)[rule.id]


def remove_composition_row(
    db: sqlite_utils.Database, game: str, rule_id: str, correction: str | None = None
) -> None:
    """Remove a row that no other row names as its parent."""
    with transaction(db) as conn:
        rules = _composition_rows(db, game)
        if rule_id not in rules:
            raise PnpError(
                f"game '{game}' has no composition row '{rule_id}' (rows: {', '.join(rules) or 'none'})"
            )
        children = [r.id for r in rules.values() if r.parent == rule_id]
        if children:
            raise PnpError(
                f"composition {rule_id} is the parent of {', '.join(children)}; remove those first"
            )
        before = structure.current(conn, game)
        structure.delete_rule(conn, game, rule_id)
        structure.record_changes(conn, game, before, correction)


def follow_deck(db: sqlite_utils.Database, conn: sqlite3.Connection, game: str) -> list[str]:
    """Set every deck-following target to the deck's copies now (inside the caller's transaction);
    returns the rows that moved, each recorded in the structure history."""
    moved = []
    for rule in repo.composition(db, game):
        if not rule.follows_deck:
            continue
        try:
            actual = select.copies(db, select.select(db, game, rule.card_type, rule.query))
        except PnpError:
            continue  # a row whose type went away: the check names it
        if actual == rule.expected:
            continue
        before = structure.current(conn, game)
        label = re.sub(rf"×{rule.expected}$", f"×{actual}", rule.label)
        structure.write_rule(conn, dataclass_replace(rule, expected=actual, label=label))
        structure.record_changes(conn, game, before)
        moved.append(rule.id)
    return moved

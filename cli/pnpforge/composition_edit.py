"""Validated writes of composition rows: `pnp composition set|add|rm`, and targets that follow the deck.

A composition row is either a rulebook count (a fact: a mismatch is an error)
or a designed target (our plan: a mismatch is a warning).  Like a card value,
a rulebook row edited without `--correction` becomes designed, and every edit
is kept in the structure history, so `pnp check` still shows the change
against the rulebook edition.  A designed row marked `follows_deck` (what
`pnp game new` writes) moves with the designer's `cards add`/`rm`: it is kept
equal to the deck inside the same transaction as the card write.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import CompositionRule
from pnpforge.store import repo, structure
from pnpforge.store.db import transaction
from pnpforge.validate.values import parse_int

EDITABLE = ("label", "card_type", "query", "expected", "parent", "source", "designed", "follows_deck")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# Values that define what a rulebook row declares: changing one makes the row designed.
_DECLARING = ("card_type", "query", "expected", "parent")
_YES, _NO = ("1", "true", "yes", "y"), ("0", "false", "no", "n")


def _rules(db: sqlite_utils.Database, game: str) -> dict[str, CompositionRule]:
    repo.get_game(db, game)  # an unknown game is named as such
    return {r.id: r for r in repo.composition(db, game)}


def _flag(name: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in _YES or text in _NO:
        return text in _YES
    raise PnpError(f"composition {name}: expected yes or no, got {raw!r}")


def _assign(rule: CompositionRule, key: str, raw: Any) -> CompositionRule:
    if key not in EDITABLE:
        raise PnpError(f"composition rows have no '{key}' (allowed: {', '.join(EDITABLE)})")
    if key == "expected":
        try:
            value = parse_int(str(raw))
        except ValueError:
            raise PnpError(f"composition {rule.id}: expected must be a whole number, got {raw!r}") from None
        if not 0 <= value <= 100_000:
            raise PnpError(f"composition {rule.id}: expected {value} is outside 0..100000")
        return replace(rule, expected=value)
    if key == "designed":
        return replace(rule, provisional=_flag("designed", raw))
    if key == "follows_deck":
        return replace(rule, follows_deck=_flag("follows_deck", raw))
    text = str(raw).strip()
    if key == "card_type":
        return replace(rule, card_type=text or None)
    if key == "parent":
        return replace(rule, parent=text or None)
    if key == "label":
        if not text:
            raise PnpError(f"composition {rule.id}: label must not be empty")
        return replace(rule, label=text)
    if key == "query":
        return replace(rule, query=text)
    return replace(rule, source=text)


def _check(db: sqlite_utils.Database, rule: CompositionRule, rules: dict[str, CompositionRule]) -> None:
    """Refuse a row whose type, query or parent does not exist, or whose parents loop."""
    from pnpforge.query import select

    if not _ID.fullmatch(rule.id):
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


def _write(
    db: sqlite_utils.Database, conn: sqlite3.Connection, rule: CompositionRule, correction: str | None
) -> None:
    before = structure.current(conn, rule.game)
    structure.write_rule(conn, rule)
    follow_deck(db, conn, rule.game)
    structure.record_changes(conn, rule.game, before, correction)


def set_row(
    db: sqlite_utils.Database, game: str, rule_id: str, values: dict[str, Any], correction: str | None = None
) -> CompositionRule:
    """Change one row; a rulebook row whose count or selection changes becomes designed
    unless `correction` says the rulebook was transcribed wrongly."""
    with transaction(db) as conn:
        rules = _rules(db, game)
        if rule_id not in rules:
            raise PnpError(
                f"game '{game}' has no composition row '{rule_id}' (rows: {', '.join(rules) or 'none'})"
            )
        old = rules[rule_id]
        rule = old
        for key, raw in values.items():
            rule = _assign(rule, key, raw)
        if rule.expected != old.expected and "label" not in values:
            rule = replace(rule, label=re.sub(rf"×{old.expected}$", f"×{rule.expected}", rule.label))
        if not old.provisional and not correction and "designed" not in values:
            if any(getattr(old, k) != getattr(rule, k) for k in _DECLARING):
                rule = replace(rule, provisional=True)
        _check(db, rule, rules)
        if rule != old:
            _write(db, conn, rule, correction)
    return _rules(db, game)[rule_id]


def add_row(db: sqlite_utils.Database, rule: CompositionRule) -> CompositionRule:
    """Add a row (designed unless it says otherwise); its id must be new."""
    with transaction(db) as conn:
        rules = _rules(db, rule.game)
        if rule.id in rules:
            raise PnpError(f"game '{rule.game}' already has a composition row '{rule.id}'; use set")
        if not rule.label.strip():
            raise PnpError(f"composition {rule.id}: label must not be empty")
        rule = _assign(rule, "expected", rule.expected)  # the same bounds as set
        _check(db, rule, rules)
        _write(db, conn, rule, None)
    return _rules(db, rule.game)[rule.id]


def remove_row(db: sqlite_utils.Database, game: str, rule_id: str, correction: str | None = None) -> None:
    """Remove a row that no other row names as its parent."""
    with transaction(db) as conn:
        rules = _rules(db, game)
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
    from pnpforge.query import select

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
        structure.write_rule(conn, replace(rule, expected=actual, label=label))
        structure.record_changes(conn, game, before)
        moved.append(rule.id)
    return moved

"""Validation across cards: duplicate names, dangling references, composition.

Reference and duplicate problems are card-level (they block the write that
causes them); composition problems are deck-level: shown, never blocking,
because a designer reshapes a deck one card at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from pnpforge.model import Card, CardType
from pnpforge.store import repo
from pnpforge.validate.problem import ERROR, WARNING, Problem
from pnpforge.validate.values import name_key


def reference_problems(card: Card, ctype: CardType, cards_by_id: dict[str, Card]) -> list[Problem]:
    """A `ref` field must name a card of the game (of `ref_type` when given)."""
    out = []
    for fd in ctype.fields:
        if fd.type != "ref":
            continue
        target_id = card.fields.get(fd.name)
        if target_id is None:
            continue
        target = cards_by_id.get(target_id)
        if target is None:
            out.append(
                Problem(
                    ERROR, card.game, card.id, fd.name, f"names card '{target_id}', which is not in the game"
                )
            )
        elif fd.ref_type and target.type != fd.ref_type:
            out.append(
                Problem(
                    ERROR,
                    card.game,
                    card.id,
                    fd.name,
                    f"names '{target_id}', a {target.type} card; expected a {fd.ref_type} card",
                )
            )
    return out


def duplicate_name_problems(card: Card, others: list[Card]) -> list[Problem]:
    """Two cards of one type may not share a name: players could not tell them apart."""
    key = name_key(card.name)
    clash = [
        o.id
        for o in others
        if o.id != card.id and o.type == card.type and isinstance(o.name, str) and name_key(o.name) == key
    ]
    if not clash:
        return []
    return [
        Problem(
            ERROR,
            card.game,
            card.id,
            "name",
            f"name '{card.name}' is already used by {', '.join(clash)} of the same type",
        )
    ]


def referrers(card_id: str, cards: list[Card], types: dict[str, CardType]) -> list[str]:
    """Ids of cards whose ref fields name `card_id` (a delete would leave them dangling)."""
    out = []
    for c in cards:
        t = types.get(c.type)
        if t and any(f.type == "ref" and c.fields.get(f.name) == card_id for f in t.fields):
            out.append(c.id)
    return out


@dataclass
class RuleResult:
    rule: str
    label: str
    expected: int
    actual: int
    provisional: bool
    parent: str | None
    cards: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.expected == self.actual

    def message(self) -> str:
        """What a mismatch means: a rulebook count is a fact, a designed target only our plan."""
        if self.provisional:
            return f"{self.label}: designed target {self.expected}, the deck has {self.actual}"
        return f"{self.label}: the rulebook declares {self.expected}, the deck has {self.actual}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "label": self.label,
            "expected": self.expected,
            "actual": self.actual,
            "ok": self.ok,
            "provisional": self.provisional,
            "parent": self.parent,
            "cards": self.cards,
        }


def composition(db: sqlite_utils.Database, game: str) -> list[RuleResult]:
    """Declared vs actual copies for every composition rule of a game."""
    from pnpforge.query import select  # the one selection API picks each rule's cards

    results = []
    for rule in repo.composition(db, game):
        cards = select.cards(db, select.select(db, game, rule.card_type, rule.query))
        results.append(
            RuleResult(
                rule.id,
                rule.label,
                rule.expected,
                sum(c.copies for c in cards),
                rule.provisional,
                rule.parent,
                [c.id for c in cards],
            )
        )
    return _tree_order(results)


def _tree_order(results: list[RuleResult]) -> list[RuleResult]:
    """Rules depth-first: each rule followed by its sub-counts, so a report indents them under it."""
    known = {r.rule for r in results}
    children: dict[str | None, list[RuleResult]] = {}
    for r in results:
        children.setdefault(r.parent if r.parent in known else None, []).append(r)
    out: list[RuleResult] = []

    def walk(parent: str | None) -> None:
        for r in children.get(parent, []):
            out.append(r)
            if r.rule != parent:
                walk(r.rule)

    walk(None)
    return out if len(out) == len(results) else results  # a parent cycle keeps the stored order


def composition_problems(db: sqlite_utils.Database, game: str) -> list[Problem]:
    return [
        Problem(WARNING if r.provisional else ERROR, game, None, r.rule, r.message(), scope="deck")
        for r in composition(db, game)
        if not r.ok
    ]

"""Card counts for summaries and aids: copies per type and the component list as a counted tree.

Every total is summed from the cards' copies, never read from a rulebook
label, so what the summary and the aids print follows the deck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import sqlite_utils

from pnpforge.model import Card, CompositionRule
from pnpforge.query import select
from pnpforge.store import repo
from pnpforge.validate.stored import refuse_invalid

_COUNT_IN_LABEL = re.compile(r"\s*[×*]\s*\d+")


def clean_label(label: str) -> str:
    """'義務人卡—稅×6' -> '義務人卡—稅': the count is printed from the cards instead."""
    return _COUNT_IN_LABEL.sub("", label).strip()


@dataclass
class CountNode:
    """A composition rule with the count the database gives today."""

    id: str
    label: str
    count: int
    expected: int
    provisional: bool
    card_type: str | None
    children: list[CountNode] = field(default_factory=list)
    whole_type: bool = False  # counts every card of its type (the table already shows it)

    @property
    def matches(self) -> bool:
        return self.count == self.expected


@dataclass
class TypeCount:
    """One card type with its copies counted from the cards."""

    slug: str
    name: str
    name_en: str
    width_mm: float
    height_mm: float
    size_provisional: bool
    role: str
    count: int  # sum of copies
    distinct: int  # number of card rows
    provisional: bool  # some card's copies are designed

    @property
    def size(self) -> str:
        return f"{self.width_mm:g}×{self.height_mm:g} mm"


def type_counts(db: sqlite_utils.Database, game: str) -> list[TypeCount]:
    """Copies per card type; a total is provisional only when the total itself is.

    A type whose total the component list declares takes that rule's flag (the
    rulebook can state 55 cards while each card's copies are designed); other
    types are provisional when any card's copies are.
    """
    cards = repo.list_cards(db, game)
    declared = {
        r.card_type: r.provisional
        for r in repo.composition(db, game)
        if r.card_type and not r.query.strip() and r.parent is None
    }
    out = []
    for t in repo.card_types(db, game):
        mine = [c for c in cards if c.type == t.slug]
        flag = declared[t.slug] if t.slug in declared else any(c.is_value_provisional("copies") for c in mine)
        out.append(
            TypeCount(
                t.slug,
                t.name,
                t.name_en,
                t.width_mm,
                t.height_mm,
                t.size_provisional,
                t.role,
                sum(c.copies for c in mine),
                len(mine),
                flag,
            )
        )
    return out


def _rule_cards(db: sqlite_utils.Database, game: str, rule: CompositionRule) -> list[Card]:
    """The cards a composition rule counts: its card type (if any) matching its query."""
    return select.cards(db, refuse_invalid(db, select.select(db, game, rule.card_type, rule.query)))


def composition_tree(db: sqlite_utils.Database, game: str) -> list[CountNode]:
    """The component list as a tree of counted rules.

    A top-level rule narrowing one card type (e.g. 艺术品 within 处置卡) is
    shown under that type's whole-type rule when there is one.
    """
    rules = repo.composition(db, game)
    nodes: dict[str, CountNode] = {}
    for r in rules:
        cards = _rule_cards(db, game, r)
        nodes[r.id] = CountNode(
            r.id,
            clean_label(r.label),
            sum(c.copies for c in cards),
            r.expected,
            r.provisional,  # the rule says whether the rulebook states this total
            r.card_type,
            whole_type=bool(r.card_type) and not r.query.strip(),
        )
    whole_type = {
        r.card_type: r.id for r in rules if r.parent is None and r.card_type and not r.query.strip()
    }
    roots: list[CountNode] = []
    for r in rules:
        parent = r.parent if r.parent in nodes else None
        if parent is None and r.card_type in whole_type and whole_type[r.card_type] != r.id:
            parent = whole_type[r.card_type]
        (nodes[parent].children if parent else roots).append(nodes[r.id])
    return roots

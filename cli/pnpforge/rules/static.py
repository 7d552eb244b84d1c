"""Deck findings that need no sample game: invalid cards, composition, constraints, text, examples, edition.

`pnp check` reports these before it plays anything.  Each finding names the
cards it is about, so a designer knows where to look.  Severity decides the
exit code: an "error" fails every check, a "strict" finding fails only under
`--strict` (it is a warning otherwise).

Cards are validated first and read-only; a row that raw SQL broke so badly
that a validator stumbles on it is still one finding naming the card, never
a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.rules.examples import run_examples, shown
from pnpforge.store import repo
from pnpforge.store.constraints import CONSISTENCY_KINDS, list_constraints
from pnpforge.validate import ERROR, GameIndex, composition
from pnpforge.validate.constraints import evaluate, selector
from pnpforge.validate.edition import edition_differences, structure_differences
from pnpforge.validate.piles import pile_problems
from pnpforge.validate.text_rules import text_rule_breaches

KINDS = ("invalid", "composition", "constraint", "consistency", "text", "example", "edition", "pile")
SEVERITIES = ("error", "strict")


@dataclass(frozen=True)
class Finding:
    """One problem of the deck as stored, before any game is played."""

    kind: str  # one of KINDS
    severity: str  # one of SEVERITIES
    message: str  # one line that names the card ids and fields involved
    cards: tuple[str, ...] = ()
    source: str = ""  # the rulebook section or constraint id behind the finding

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "message": self.message,
            "cards": list(self.cards),
            "source": self.source,
        }


def static_findings(db: sqlite_utils.Database, game: str) -> list[Finding]:
    """Every finding of `game`: invalid cards, composition, constraints, edition, in that order."""

    repo.get_game(db, game)
    cards = repo.list_cards(db, game, strict=False)
    out = invalid_findings(db, game, cards)
    try:
        repo.list_cards(db, game)
    except PnpError:  # a row in a shape pnpforge never writes: counts over it would mislead
        unreadable = tuple(c.id for c in cards if _unreadable(c))
        out.append(
            Finding(
                "invalid",
                "error",
                f"composition and constraints not checked: card(s) {', '.join(unreadable)} "
                f"hold values pnpforge never writes",
                unreadable,
            )
        )
        return out + pile_findings(db, game) + edition_findings(db, game)
    out += composition_findings(db, game)
    out += constraint_findings(db, game, cards)
    out += text_findings(db, game, cards)
    out += example_findings(db, game, cards)
    out += pile_findings(db, game)
    out += edition_findings(db, game)
    return out


def _unreadable(card: Card) -> bool:
    """True for a row in a shape pnpforge never writes (copies not a number, fields not an object …)."""
    return (
        type(card.copies) is not int
        or type(card.fields) is not dict
        or type(card.provisional_fields) is not list
        or type(card.name) is not str
    )


def invalid_findings(db: sqlite_utils.Database, game: str, cards: list[Card]) -> list[Finding]:
    """One "error" finding per card-level problem, as `pnp cards set` would refuse it."""

    types = {t.slug: t for t in repo.card_types(db, game)}
    index = GameIndex(types, cards)
    out: list[Finding] = []
    for card in cards:
        try:
            problems = index.problems(card)
        except Exception as exc:  # a row raw SQL broke past what the validator expects
            out.append(
                Finding(
                    "invalid",
                    "error",
                    f"{card.id}: the card cannot be read as stored ({type(exc).__name__}: {exc})",
                    (card.id,),
                )
            )
            continue
        for p in problems:
            if p.severity == ERROR:
                out.append(
                    Finding(
                        "invalid", "error", f"{card.id}/{p.field}: {p.message}", (card.id,), p.field or ""
                    )
                )
    return out


def composition_findings(db: sqlite_utils.Database, game: str) -> list[Finding]:
    """The component list, declared against actual copies."""

    try:
        rules = composition(db, game)
    except Exception as exc:  # copies that are not numbers (raw SQL) stop the count
        return [
            Finding(
                "composition",
                "error",
                f"the component list cannot be counted: {type(exc).__name__}: {exc} "
                f"(see the invalid cards above)",
            )
        ]
    return [
        Finding(
            "composition",
            "strict" if rule.provisional else "error",
            rule.message(),
            tuple(rule.cards),
            rule.rule,
        )
        for rule in rules
        if not rule.ok
    ]


def pile_findings(db: sqlite_utils.Database, game: str) -> list[Finding]:
    """Card types shuffled into one pile must share size and back, or players tell them apart."""

    return [Finding("pile", "error", message, (), source) for message, source in pile_problems(db, game)]


def constraint_findings(db: sqlite_utils.Database, game: str, cards: list[Card]) -> list[Finding]:
    """One "error" finding per breach of each of the game's constraints."""

    select = selector(db, game, cards)
    out: list[Finding] = []
    for constraint in list_constraints(db, game):
        for breach in evaluate(constraint, select):
            ids = f" [{', '.join(breach.cards)}]" if breach.cards else ""
            out.append(
                Finding(
                    "consistency" if constraint.kind in CONSISTENCY_KINDS else "constraint",
                    "error",
                    f"{constraint.label}: {breach.message}{ids}",
                    breach.cards,
                    f"{constraint.id} ({constraint.source})",
                )
            )
    return out


def text_findings(db: sqlite_utils.Database, game: str, cards: list[Card]) -> list[Finding]:
    """One finding per card whose printed text contradicts a field a text rule binds it to: an
    "error", or "strict" when the rule rests on our reading (provisional)."""

    return [
        Finding(
            "text",
            "strict" if rule.provisional else "error",
            f"{rule.label}: {breach.message}",
            breach.cards,
            f"{rule.id} ({rule.source})",
        )
        for rule, breaches in text_rule_breaches(db, game, cards)
        for breach in breaches
    ]


def example_findings(db: sqlite_utils.Database, game: str, cards: list[Card]) -> list[Finding]:
    """Worked examples that no longer add up ("error"), or that the engine's default reading
    contradicts without the conflict being recorded ("strict")."""

    out: list[Finding] = []
    for r in run_examples(db, game, cards):
        ex, expected = r.example, r.example.expected or {}
        where = f"{ex.id} ({ex.source})"
        if r.error:
            out.append(Finding("example", "error", f"{ex.label}: cannot run: {r.error}", r.cards, where))
        elif not r.ok:
            reading = f" under {_options(ex.options)}" if ex.options else ""
            out.append(
                Finding(
                    "example",
                    "error",
                    f"{ex.label}: the rulebook gives {shown(expected, expected)}; the cards now give "
                    f"{shown(r.actual, _differing(expected, r.actual))}{reading} [{', '.join(r.cards)}]",
                    r.cards,
                    where,
                )
            )
        elif r.contradicted_by_default and not ex.conflict:
            out.append(
                Finding(
                    "example",
                    "strict",
                    f"{ex.label}: holds only under {_options(ex.options)}; the engine's default reading "
                    f"gives {shown(r.default or {}, expected)}: record the conflict on the example and "
                    f"the cards' notes",
                    r.cards,
                    where,
                )
            )
    return out


def _differing(expected: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """The expected results the cards no longer give (all of them when none differs)."""
    return {k: v for k, v in expected.items() if actual.get(k) != v} or expected


def _options(options: dict[str, Any] | None) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted((options or {}).items()))


def edition_findings(db: sqlite_utils.Database, game: str) -> list[Finding]:
    """One "strict" finding per value (of a card or of the game's structure) that differs from the edition."""

    out: list[Finding] = [
        Finding(
            "edition", "strict", f"{d.key}: rulebook edition {d.edition} → now {d.current}{d.when}", (), d.key
        )
        for d in structure_differences(db, game)
    ]
    for d in edition_differences(db, game):
        when = f" (changed {d.when})" if d.when else " (changed outside recorded history)"
        out.append(
            Finding(
                "edition",
                "strict",
                f"{d.card}/{d.field}: rulebook edition {_show(d.edition)} → now {_show(d.current)}{when}",
                (d.card,),
                d.field,
            )
        )
    return out


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return "none" if value is None else repr(value) if isinstance(value, str) else str(value)

"""Deck findings that need no sample game: invalid cards, composition, constraints, edition.

`pnp check` reports these before it plays anything.  Each finding names the
cards it is about, so a designer knows where to look.  Severity decides the
exit code: an "error" fails every check, a "strict" finding fails only under
`--strict` (it is a warning otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlite_utils

KINDS = ("invalid", "composition", "constraint", "edition")
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
        return {"kind": self.kind, "severity": self.severity, "message": self.message,
                "cards": list(self.cards), "source": self.source}


def static_findings(db: sqlite_utils.Database, game: str) -> list[Finding]:
    """Every finding of `game`, composition first; empty when the deck is sound."""
    from pnpforge.validate import composition

    out: list[Finding] = []
    for rule in composition(db, game):
        if not rule.ok:
            out.append(Finding("composition", "error",
                               f"{rule.label}: the rulebook declares {rule.expected}, "
                               f"the deck has {rule.actual}",
                               tuple(rule.cards), rule.rule))
    return out

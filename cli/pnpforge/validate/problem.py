"""Problem: one finding of a validator, with enough context to act on it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    severity: str  # "error" blocks a write and fails `pnp validate`; "warning" informs
    game: str
    card: str | None  # card id, or None for deck-level problems
    field: str | None  # field or attribute name, or the composition rule id
    message: str
    scope: str = "card"  # "card" problems block the write that causes them; "deck" never do

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("severity")
        return d

    def __str__(self) -> str:
        where = "/".join(x for x in (self.game, self.card, self.field) if x)
        return f"{self.severity}: {where}: {self.message}"

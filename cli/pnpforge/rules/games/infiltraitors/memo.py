"""What the rules derive from an Infiltraitors position and keep between steps, outside it.

Kept per position in the kit's `Memo` (`READOUTS(st)`) and dropped by the steps that change what
they read (`apply` the legal actions, a hint placed or discarded the hints' view); a copy of a
position starts with none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpforge.rules.engine import CardInstance
from pnpforge.rules.kit.memo import Memo

if TYPE_CHECKING:
    from .actions import Action
    from .state import InfiltraitorsState

HintsView = tuple[tuple[int, tuple[tuple[CardInstance, bool], ...]], ...]


class Readouts:
    """One position's legal actions and hints' view (None: not read since they last changed)."""

    __slots__ = ("hints_view", "legal")

    def __init__(self, st: InfiltraitorsState) -> None:
        self.legal: list[Action] | None = None
        self.hints_view: HintsView | None = None


MEMO: Memo[InfiltraitorsState, Readouts] = Memo(Readouts)
READOUTS = MEMO.of  # a position's read-outs (made on first use)

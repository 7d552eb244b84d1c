"""What a League of Hackers position's observations keep between decisions, outside the position.

The public views of the tableaux and of the servers are kept per position in the kit's `Memo`
(`READOUTS(st)`) and dropped by the moves that change them (`board.move`, `tap`, `untap_all`,
`servers_changed`); a copy of a position starts with none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpforge.rules.kit.memo import Memo

if TYPE_CHECKING:
    from .state import HackersState

TableauxSeen = tuple[tuple[tuple[str, bool], ...], ...]  # per seat: (card id, tapped) in front
ServersSeen = tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]  # per owner: (server, damage)


class Readouts:
    """One position's public views (None: not read since they last changed)."""

    __slots__ = ("servers_seen", "tableaux_seen")

    def __init__(self, st: HackersState) -> None:
        self.tableaux_seen: TableauxSeen | None = None
        self.servers_seen: ServersSeen | None = None


MEMO: Memo[HackersState, Readouts] = Memo(Readouts)
READOUTS = MEMO.of  # a position's read-outs (made on first use)

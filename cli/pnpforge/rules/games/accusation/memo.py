"""What the rules derive from an Accusation position and keep between steps, outside the position.

The position (`state.AccusationState`) holds the game only; these read-outs are kept per
position in the kit's `Memo` (`READOUTS(st)`), each beside what it was read from (a pile's
list, which `board.move` replaces rather than changes; the move counters; the immutable marks),
so it is worked out again when that changes.  A copy of a position (replayed from its history)
starts with none.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pnpforge.rules.kit.memo import Memo

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.invariants import BoardChecks
    from pnpforge.rules.games.accusation.state import AccusationState

NOT_READ = -1  # a move count no board has: the sums are not read yet
Shown = tuple[tuple[str, tuple[int, ...]], ...]  # (pile, cards) of one seat's public piles


class Readouts:
    """One position's read-outs (see the module's docstring); made by `READOUTS` on first use."""

    __slots__ = (
        "board_checks", "field_of_kind", "guard_map", "guards", "own_hidden", "public_of", "publics",
        "stardust_seats", "stardusts", "symbols_of",
    )  # fmt: skip

    def __init__(self, st: AccusationState) -> None:
        players = st.players
        # each seat's field cards of one type, kept until that field changes (`board.move` clears)
        self.field_of_kind: list[dict[str | None, list[int]]] = [{} for _ in range(players)]
        # each seat's public piles as an observation shows them, kept until one of them changes
        self.public_of: dict[int, Shown] = {}
        # every seat's public piles beside the `public_moves` they were read at
        self.publics: tuple[int, tuple[Shown, ...]] = (-1, ())
        # each seat's hand and under pile as its observation shows them, beside the lists read
        self.own_hidden: list[tuple[list[int] | None, list[int] | None, dict[str, tuple[int, ...]]]] = [
            (None, None, {}) for _ in range(players)
        ]
        # each seat's field symbols, beside the field list they were counted from
        self.symbols_of: dict[int, tuple[list[int], Counter]] = {}
        # (follower moves, guilty, values) and (location moves, location guilt, garrisoning, values):
        # the sums of every seat beside what they were read at (marks are replaced when they change)
        self.stardusts: tuple[int, frozenset[int], tuple[int, ...]] = (NOT_READ, frozenset(), ())
        # ... and each seat's stardust beside the field list it was summed from (at those guilty marks)
        self.stardust_seats: list[tuple[list[int] | None, int]] = [(None, 0) for _ in range(players)]
        self.guards: tuple[int, int, object, tuple[tuple[int, int], ...]] = (NOT_READ, 0, None, ())
        self.guard_map: tuple[object, dict[int, int]] = (None, {})
        # the pile and mark checks, made by the first check (games nobody checks do not pay for it)
        self.board_checks: BoardChecks | None = None


MEMO: Memo[AccusationState, Readouts] = Memo(Readouts)
READOUTS = MEMO.of  # a position's read-outs (made on first use)

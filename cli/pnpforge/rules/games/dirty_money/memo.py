"""What the rules derive from a Dirty Money position and keep between steps, outside the position.

The position (`state.DirtyMoneyState`) holds the game only; these read-outs are kept per
position in the kit's `Memo` (`READOUTS(st)`), each beside what it was read from (the
position's `version`, a pile's id read-out, a tableau's effect list), so it is worked out again
when that changes.  A copy of a position (a clone, a search agent's sampled world) starts with
none and reads its own data afresh.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Sized
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import CardInstance
from pnpforge.rules.kit.memo import Memo

if TYPE_CHECKING:
    from pnpforge.rules.games.dirty_money.board import Action
    from pnpforge.rules.games.dirty_money.data import Placement
    from pnpforge.rules.games.dirty_money.state import DirtyMoneyState

# A chance draw: its outcomes, their card ids in order, the copies left per id, and the cards
# they total (for a deck, the deck itself: its length is the live total).
Draw = tuple["list[Action]", Sequence[str], Mapping[str, int], Sized]
Owned = Sequence[tuple[CardInstance, "Placement"]]


class Readouts:
    """One position's read-outs (see the module's docstring); made by `READOUTS` on first use."""

    __slots__ = (
        "actor", "actor_version", "checked_changes", "draw_lists", "drawn", "due_of", "legal",
        "legal_version", "limit_of", "over_limit", "owned_by", "payable_of", "unchecked",
    )  # fmt: skip

    def __init__(self, st: DirtyMoneyState) -> None:
        # the legal actions and the actor of the position's `version` they were found at (neither
        # is read before it is found: their versions start at none)
        self.legal: list[Action] = []
        self.legal_version = -1
        self.actor = 0
        self.actor_version = -1
        # seat -> effect -> the seat's tableau cards with that effect, with their placements (a new
        # list each time one joins, so a reader may keep what it derived from one list)
        self.owned_by: list[dict[str, Owned]] = [{} for _seat in range(st.players)]
        placements = st.rules.placements
        for seat in range(st.players):
            owned = self.owned_by[seat]
            for inst in st.views[f"tableau:{seat}"]:
                effect = placements[inst.card].effect
                owned[effect] = [*owned.get(effect, ()), (inst, placements[inst.card])]
        # seat -> (its digital banks, its hand limit): see `board.hand_limit`
        self.limit_of: dict[int, tuple[Owned, int]] = {}
        # pile -> the draw from it for its current ids, kept while the ids stay the same
        self.draw_lists: dict[str, Draw] = {}
        self.drawn: Draw | None = None  # the last chance draw (its probabilities: `chance_outcomes`)
        self.payable_of: dict[tuple[int, str, bool], tuple[Sequence[str], int]] = {}  # `max_payable`
        # the open purchase's price: (the exchanges, the chosen-cards list, its length, the price)
        self.due_of: tuple[Owned, list[Any], int, int] | None = None
        # the invariant check: piles moved since it last read them (every pile, at first), the
        # piles' `changes` when it did, and the hands over the base limit (seat -> size)
        self.unchecked = st.piles.watch()
        self.checked_changes = -1
        self.over_limit: dict[int, int] = {}


MEMO: Memo[DirtyMoneyState, Readouts] = Memo(Readouts)
READOUTS = MEMO.of  # a position's read-outs (made on first use)

"""What is kept beside a position and between decisions, never in the position.

* `READOUTS(st)`: what the rules and the observations derive from a position and keep between
  steps (its legal actions, the invariant checker's watcher, the observations' public fields),
  kept per position in the kit's `Memo`; a copy starts with none.
* `ExecutionMemo`: what the greedy agent keeps from one decision to the next, the execution under
  way.  An execution takes several decisions over the same target; the heuristic in `agents` asks
  this memo for the execution's power and difficulty instead of working them out again each time.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from pnpforge.rules.kit.memo import Memo

from .data import Obligor, Officer

if TYPE_CHECKING:
    from .agents import Greedy
    from .invariants import InvariantChecker
    from .observe import PublicPiles
    from .state import EnforcerState


class Readouts:
    """One position's read-outs: its legal actions (None: not read since the last step), and the
    invariant checker and the observations' public fields, each made by its first use (games
    nobody checks or observes do not pay for their pile watchers)."""

    __slots__ = ("invariants", "legal", "public_piles")

    def __init__(self, st: EnforcerState) -> None:
        self.legal: list[Hashable] | None = None
        self.invariants: InvariantChecker | None = None
        self.public_piles: PublicPiles | None = None


MEMO: Memo[EnforcerState, Readouts] = Memo(Readouts)
READOUTS = MEMO.of  # a position's read-outs (made on first use)


class ExecutionMemo:
    """The execution under way as the previous decision's look-ahead worked it out.

    An execution takes several decisions (play a card, another, resolve) over the same target,
    objections and officer; its parts and difficulty are kept while the observation's fields
    they are computed from stay equal, and its power while the cards in play stay the same.
    """

    __slots__ = ("difficulty", "key", "parts", "played", "power")

    def __init__(self) -> None:
        self.key: tuple[object, ...] | None = None
        self.parts: tuple[Obligor, bool, frozenset[str], Officer | None, int] | None = None
        self.difficulty = 0
        self.played: tuple[str, ...] | None = None
        self.power = 0

    def current(self, greedy: Greedy) -> tuple[int, int]:
        """`greedy`'s (power, difficulty), reusing what the previous decision worked out."""
        obs = greedy.obs
        seat = obs.execution_seat
        assert seat is not None
        key = (
            seat, obs.execution_target, obs.execution_source, obs.objections_shown, obs.cancelled,
            obs.officers[seat], obs.projects[seat], obs.awards[seat], obs.exposed,
        )  # fmt: skip
        if key != self.key:
            self.parts = greedy._execution_parts()
            self.difficulty = greedy.execution_difficulty()
            self.key, self.played = key, None
        greedy._execution = self.parts
        if self.played != obs.in_play:
            self.power = greedy.execution_power()
            self.played = obs.in_play
        return self.power, self.difficulty

"""Read-outs of a position kept outside it: what an engine derives from a state for speed.

A state holds only what the game's position is.  What the rules or the observation derive from
it and keep between steps (the legal actions of this version, an index of a tableau by effect,
the sums of a field, the public part of the observations) lives in a `Memo`: one read-out object
per position, made on first use by the engine's own factory and keyed by the position's
identity, never stored on it.  So a copy (`clone()`, a search agent's sampled world) starts with
no read-outs and works them out again from its own data: a stale read-out cannot travel with a
copy, and copying a position copies only the position.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
R = TypeVar("R")


class Memo(Generic[S, R]):
    """Each position's read-outs (`make(state)` builds them on first use), dropped with it.

    `memo.of(state)` gives them: a plain function (a rule asks at every step, and a function call
    costs less than calling an object) doing one dictionary look-up by the position's identity.
    The entry goes when the position is collected (a finaliser), so an identity is never reused
    for another position.  An engine names the function once: `READOUTS = MEMO.of`.
    """

    __slots__ = ("_of", "of")

    def __init__(self, make: Callable[[S], R]) -> None:
        kept: dict[int, R] = {}
        find = kept.get
        drop = kept.pop

        def of(state: S) -> R:
            readouts = find(id(state))
            if readouts is None:
                key = id(state)
                readouts = kept[key] = make(state)
                weakref.finalize(state, drop, key, None)
            return readouts

        self._of = kept
        self.of: Callable[[S], R] = of

    def forget(self, state: S) -> None:
        """Drop `state`'s read-outs (its data changed behind the rules' back, e.g. a redeal):
        the next use works them out afresh."""
        self._of.pop(id(state), None)

    def __len__(self) -> int:
        """Positions alive with read-outs (tests: copies do not leak entries)."""
        return len(self._of)

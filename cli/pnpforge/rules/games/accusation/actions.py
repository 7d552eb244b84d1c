"""Action codes, turn numbers and the pending-decision record of Accusation.

Actions are tuples of ints, `(CODE,)` or `(CODE, card_index)`, so they always
sort; the code says what kind of choice it is and the second number which
physical card (an index into the rules' instance list) it is about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

END, PLAY, RAID, RAID_WITH, LOC_ACTION, REBUILD, ABILITY = 0, 1, 2, 3, 4, 5, 6
ASIDE, KEEP, ACCUSE, NO_ACCUSE, CHOOSE, DECLINE, ACCEPT = 7, 8, 9, 10, 11, 12, 13
RITUAL, DISCARD, GARRISON, DECONSTRUCT, DRAW, FIRST = 14, 15, 16, 17, 20, 21

HAND_LIMIT = 6
OPENING_DRAW = 3
END_DRAW = 2
TURN_ACTIONS = 2
REBUILD_COST = 2

AccusationAction = tuple[int, ...]


class Decision:
    """A pending choice: who chooses, what kind of choice, and the options.

    The options are sorted once when the decision is made: nothing changes the
    position while a decision waits, and the runner asks for them more than once.
    A plain class with slots (not a dataclass): one is made at every step.
    """

    __slots__ = ("context", "kind", "offered", "options", "seat")

    def __init__(
        self,
        seat: int,
        kind: str,
        options: Sequence[AccusationAction],
        context: dict[str, Any] | None = None,
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.options = options
        self.context: dict[str, Any] = {} if context is None else context
        self.offered: list[AccusationAction] = sorted(options)  # the options, sorted once

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat}, kind={self.kind!r}, offered={self.offered!r})"

    def actions(self) -> list[AccusationAction]:
        return self.offered

    def shown(self) -> dict[str, Any]:
        """What an observation says of this decision (its kind, what a choice is for, the card an
        accusation would cancel): read from the decision at each look, nothing kept on it."""
        context = self.context
        return {
            "decision": self.kind,
            "purpose": str(context.get("verb") or context.get("why") or ""),
            "source": int(context.get("source", -1)) if self.kind == "accuse" else -1,
        }


class GameOver(Exception):
    """Raised inside the game generator when a side has won; carries the winners and why."""

    def __init__(self, winners: list[int], reason: str, description: str) -> None:
        super().__init__(description)
        self.winners = winners
        self.reason = reason  # the short end reason the report groups by
        self.description = description  # what happened, for the event log


ACTION_WORDS = {
    END: "end the action phase",
    PLAY: "play {card}",
    RAID: "raid {card}",
    RAID_WITH: "raid with {card}",
    LOC_ACTION: "location action of {card}",
    REBUILD: "rebuild ritual {card} (2 actions)",
    ABILITY: "leader ability of {card}",
    ASIDE: "mulligan: set {card} aside",
    KEEP: "mulligan: done",
    ACCUSE: "accuse with {card}",
    NO_ACCUSE: "do not accuse",
    CHOOSE: "choose {card}",
    DECLINE: "decline",
    ACCEPT: "accept",
    RITUAL: "execute ritual {card}",
    DISCARD: "discard {card}",
    GARRISON: "garrison {card}",
    DECONSTRUCT: "deconstruct {card}",
    DRAW: "draws {card}",
    FIRST: "seat {card} goes first",
}
# Codes whose text names the decision's purpose ("choose X (destroy_follower)").
PURPOSE_CODES = (CHOOSE, DECLINE, ACCEPT, DISCARD)

"""The standard event log: what happened in a game, in words and in numbers.

Engines record events as they resolve actions; the runner prints them under
`--verbose` and the checker builds its report from them (which cards were used
by whom, factions, eliminations, end reasons), so the report never needs to
know a game's internals.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

EVENT_KINDS = ("used", "outcome", "score", "eliminated", "round", "end", "faction")


class Event(NamedTuple):
    """One thing that happened; `text` says what happened, not only what was chosen.

    A named tuple rather than a frozen dataclass: as immutable, and built about four times
    faster (engines record thousands of events a game; the frozen dataclass's `__init__`
    set each field through `object.__setattr__`).
    """

    kind: str  # one of EVENT_KINDS (engines may add their own kinds too)
    seat: int | None
    card: str | None  # card id ("used": the card that was used)
    text: str  # words for --verbose; for "faction" the faction's name
    value: float | None = None  # points for "score"

    def describe(self) -> str:
        """One log line for --verbose."""
        who = "" if self.seat is None else f"seat {self.seat} "
        if self.kind == "faction":
            return f"{who}plays as {self.text}"
        card = f" [{self.card}]" if self.card and self.card not in self.text else ""
        points = f" ({self.value:+g})" if self.kind == "score" and self.value is not None else ""
        return f"{self.kind}: {who}{self.text}{card}{points}"


# An Event from its five fields, made by the tuple type itself: the named tuple's own constructor
# is a Python function taking them one by one.
_new_event = partial(tuple.__new__, Event)


class EventLog:
    """Mixin for State: `self.events` is the game's event list, created on first use.

    The list is created lazily so an engine's `__init__` need not call the
    mixin's; assigning `self.events = [...]` (e.g. when copying a state) works too.
    """

    _events: list[Event]

    @property
    def events(self) -> list[Event]:
        try:
            return self._events
        except AttributeError:
            self._events = []
            return self._events

    @events.setter
    def events(self, value: list[Event]) -> None:
        self._events = value

    def _record(self, fields: tuple[str, int | None, str | None, str, float | None]) -> None:
        """Append one event, built from its five fields in C (engines record thousands a game)."""
        try:
            events = self._events
        except AttributeError:
            events = self.events
        events.append(_new_event(fields))

    def used(self, seat: int | None, card: str, how: str) -> None:
        """`card` was used by `seat` in the sense the engine's USED declares for its type."""
        self._record(("used", seat, card, how, None))

    def outcome(self, seat: int | None, text: str, card: str | None = None) -> None:
        """A result: success or failure, a penalty, damage, a reveal."""
        self._record(("outcome", seat, card, text, None))

    def score(self, seat: int, points: float, reason: str, card: str | None = None) -> None:
        self._record(("score", seat, card, reason, float(points)))

    def eliminated(self, seat: int, reason: str) -> None:
        self._record(("eliminated", seat, None, reason, None))

    def round(self, text: str) -> None:
        """Round scoring and round ends."""
        self._record(("round", None, None, text, None))

    def end(self, reason: str) -> None:
        self._record(("end", None, None, reason, None))

    def faction(self, seat: int, name: str) -> None:
        """The faction, cult or role `seat` plays, so the report can give win rates per faction."""
        self._record(("faction", seat, None, name, None))

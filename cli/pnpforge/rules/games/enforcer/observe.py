"""What one seat may see: the observation, built from parts kept until the piles under them move.

The observation holds plain values (ids, counts, tuples), never a pile or the
state, so an agent cannot reach another player's hand or the face-down decks.
It is built at every decision of every observing seat, so the fields read from
the public piles are kept between observations and rebuilt only for the piles
a watcher on the state's `Zones` reports as changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pnpforge.rules.engine import Observation

from .memo import READOUTS

if TYPE_CHECKING:
    from .state import EnforcerState


@dataclass(frozen=True)
class EnforcerObservation(Observation):
    """One seat's view: its own hand and dealt officers, everything face up, counts of the rest."""

    actor: int
    phase: str
    period: int
    hand: tuple[str, ...]  # own hand, card ids in the order they arrived
    dealt: tuple[str, ...]  # own two officers while choosing
    specialty_home: int  # own specialty cards beside the officer
    hand_sizes: tuple[int, ...]
    officers: tuple[str | None, ...]
    table: tuple[str, ...]  # obligor instances, e.g. 'OB-03#0'
    projects: tuple[str | None, ...]
    awards: tuple[tuple[str, ...], ...]
    scored: tuple[tuple[str, ...], ...]
    penalties: tuple[int, ...]
    eliminated: tuple[bool, ...]
    exposed: frozenset[str]
    delayed: frozenset[str]
    news: frozenset[str]
    execution_seat: int | None
    execution_target: str | None
    execution_source: str | None
    in_play: tuple[str, ...]
    objections_shown: tuple[str, ...]
    cancelled: frozenset[int]
    played_keys: frozenset[str]
    exec_deck_size: int
    obligor_deck_size: int


_NONE: frozenset[str] = frozenset()
_NO_INDEX: frozenset[int] = frozenset()


class PublicPiles:
    """The observation fields read from public piles, the same for every seat.

    A watcher on the piles collects the names of the piles moved since the last read; each
    field is rebuilt only when one of its piles is among them (most decisions move a hand
    and a deck, rarely an officer, a project, an award or a scored pile).
    """

    __slots__ = ("_by_pile", "_changed", "_fields", "_groups", "_zones")

    def __init__(self, st: EnforcerState) -> None:
        zones = self._zones = st.piles
        self._changed = zones.watch()  # the piles moved since the last read
        of_kind = st.piles_of_kind
        views = zones.all_views()
        ids, texts = zones.ids, zones.texts
        hands, officers, projects = of_kind["hand"], of_kind["officer"], of_kind["project"]
        awards, scored = of_kind["award"], of_kind["scored"]

        def hand_sizes() -> tuple[int, ...]:
            return tuple([len(views[name]) for name in hands])

        def officer_ids() -> tuple[str | None, ...]:
            return tuple([pile[-1].card if (pile := views[name]) else None for name in officers])

        def project_texts() -> tuple[str | None, ...]:
            return tuple([str(pile[-1]) if (pile := views[name]) else None for name in projects])

        # (piles read, field, how the field is built from them)
        self._groups: list[tuple[Sequence[str], str, Callable[[], Any]]] = [
            (hands, "hand_sizes", hand_sizes),
            (officers, "officers", officer_ids),
            (projects, "projects", project_texts),
            (awards, "awards", lambda: tuple([ids(name) for name in awards])),
            (scored, "scored", lambda: tuple([texts(name) for name in scored])),
            (("table",), "table", lambda: texts("table")),
            (("in_play",), "in_play", lambda: ids("in_play")),
            (("objection_shown",), "objections_shown", lambda: ids("objection_shown")),
            (("exec_deck",), "exec_deck_size", lambda: len(views["exec_deck"])),
            (("obligor_deck",), "obligor_deck_size", lambda: len(views["obligor_deck"])),
        ]
        # each public pile's field and builder (a move names two piles: look those up, not every group)
        self._by_pile: dict[str, tuple[str, Callable[[], Any]]] = {
            name: (field, build) for names, field, build in self._groups for name in names
        }
        self._fields: dict[str, Any] = self.rebuilt()
        self._changed.clear()

    def fields(self) -> dict[str, Any]:
        """The public pile fields as of now (a shared dict of immutable values: copy, never change)."""
        changed = self._changed
        if changed:
            out, by_pile = self._fields, self._by_pile
            rebuild = {by_pile[name] for name in changed if name in by_pile}
            for field, build in rebuild:
                out[field] = build()
            changed.clear()
        return self._fields

    def rebuilt(self) -> dict[str, Any]:
        """Every field built afresh, ignoring what is kept (the tests compare the two)."""
        return {field: build() for _, field, build in self._groups}


def observe(st: EnforcerState, seat: int) -> EnforcerObservation:
    """Copy out what `seat` may see (values only, nothing that reaches back into the state).

    The instance is filled in one step as `Observation.of` does, without its check that every
    field is named (a few microseconds at every decision); the tests check the fields instead.
    """
    readouts = READOUTS(st)
    public = readouts.public_piles
    if public is None:
        public = readouts.public_piles = PublicPiles(st)
    return _build(st, seat, public.fields())


def observe_afresh(st: EnforcerState, seat: int) -> EnforcerObservation:
    """The same observation with every public field rebuilt: what the kept parts must equal."""
    return _build(st, seat, _public(st).rebuilt())


def _public(st: EnforcerState) -> PublicPiles:
    readouts = READOUTS(st)
    public = readouts.public_piles
    if public is None:
        public = readouts.public_piles = PublicPiles(st)
    return public


def _build(st: EnforcerState, seat: int, public: dict[str, Any]) -> EnforcerObservation:
    zones = st.piles
    execution = st.execution
    mine = st.seat_names[seat]
    delayed, news = st.delayed, st.news
    obs = object.__new__(EnforcerObservation)  # as `Observation.of` builds it, without its per-call checks
    values = obs.__dict__  # filled key by key: cheaper than an update with keywords
    values.update(public)
    values["seat"] = seat
    values["actor"] = st.actor()
    values["phase"] = st.phase
    values["period"] = st.period
    values["hand"] = zones.ids(mine["hand"])
    values["dealt"] = zones.ids(mine["dealt"])
    values["specialty_home"] = len(zones.view(mine["specialty"]))
    values["penalties"] = tuple(st.penalties)
    values["eliminated"] = tuple(st.out_of_game)
    values["exposed"] = frozenset([str(c) for c in st.exposed]) if st.exposed else _NONE
    values["delayed"] = frozenset([str(c) for c, by in delayed.items() if by]) if delayed else _NONE
    values["news"] = frozenset([str(c) for c, by in news.items() if by]) if news else _NONE
    if execution is None:
        values["execution_seat"] = values["execution_target"] = values["execution_source"] = None
        values["cancelled"] = _NO_INDEX
    else:
        values["execution_seat"] = execution.seat
        values["execution_target"] = str(execution.target)
        values["execution_source"] = execution.source
        values["cancelled"] = frozenset(execution.cancelled) if execution.cancelled else _NO_INDEX
    values["played_keys"] = frozenset(st.played_keys) if st.played_keys else _NONE
    return obs

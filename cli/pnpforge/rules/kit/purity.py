"""Observation purity: an agent's view must be plain immutable data.

If a State, a Zones or any list reachable from an observation were handed to
an agent, the agent could read hidden cards or change the game; this walk
finds such a leak and names the path to it.  It runs on every state in the
engine tests, so the common cases (atoms, cards, tuples of them) are cheap.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from pnpforge.rules.kit.core import CardInstance, RuleViolation

_ATOMS = frozenset({int, float, str, bytes, bool, type(None), CardInstance})


def _frozen_fields(value: Any) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """Field names of a frozen dataclass instance, in order and as a set, or None when it is anything
    else (worked out once per type)."""
    kind = type(value)
    try:
        return _FIELDS_OF[kind]
    except KeyError:
        pass
    params = getattr(kind, "__dataclass_params__", None)
    names = None
    if params is not None and params.frozen and not isinstance(value, type):
        ordered = tuple(f.name for f in dataclasses.fields(value))
        names = (ordered, frozenset(ordered))
    _FIELDS_OF[kind] = names
    return names


_FIELDS_OF: dict[type, tuple[tuple[str, ...], frozenset[str]] | None] = {}


def observation_leak(obs: Any, path: str = "observation") -> str | None:
    """The path of the first mutable or engine object reachable from `obs`, or None when it is pure."""
    # a path is kept as (parent path, step) pairs and spelled out only when a leak is found
    stack: list[tuple[Any, Any]] = [(obs, path)]
    seen: set[int] = set()
    while stack:
        value, where = stack.pop()
        kind = type(value)
        if kind in _ATOMS or isinstance(value, enum.Enum) or id(value) in seen:
            continue
        seen.add(id(value))
        if kind is tuple or kind is frozenset or isinstance(value, tuple | frozenset):
            if _ATOMS.issuperset(map(type, value)):  # the usual case, decided in C: nothing to walk
                continue
            ordered = isinstance(value, tuple)
            stack.extend(
                (item, (where, i if ordered else None))
                for i, item in enumerate(value)
                if type(item) not in _ATOMS
            )
            continue
        fields_of = _frozen_fields(value)
        if fields_of is None:
            if dataclasses.is_dataclass(value):
                return f"{_spelled(where)} is a mutable {kind.__name__}"
            return f"{_spelled(where)} is a {kind.__name__}, not immutable data"
        names, name_set = fields_of
        extra = getattr(value, "__dict__", {}).keys() - name_set
        if extra:
            return f"{_spelled(where)} carries attributes outside its fields: {', '.join(sorted(extra))}"
        stack.extend((getattr(value, name), (where, name)) for name in names)
    return None


def _spelled(path: Any) -> str:
    """'observation.piles[2]{…}' from the nested (parent, step) pairs: a field name, a tuple index,
    or None for a member of a frozenset."""
    steps: list[str] = []
    while isinstance(path, tuple):
        path, step = path
        steps.append(f".{step}" if isinstance(step, str) else "{…}" if step is None else f"[{step}]")
    return str(path) + "".join(reversed(steps))


def check_observation(obs: Any, seat: int) -> None:
    """RuleViolation when the observation is not pure or is not `seat`'s."""
    leak = observation_leak(obs)
    if leak:
        raise RuleViolation(f"observation of seat {seat} leaks: {leak}")
    if getattr(obs, "seat", seat) != seat:
        raise RuleViolation(f"observation(seat={seat}) says it is seat {obs.seat}'s")

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


def _frozen_fields(value: Any) -> tuple[str, ...] | None:
    """Field names of a frozen dataclass instance, or None when it is anything else."""
    params = getattr(type(value), "__dataclass_params__", None)
    if params is None or not params.frozen or isinstance(value, type):
        return None
    return tuple(f.name for f in dataclasses.fields(value))


def observation_leak(obs: Any, path: str = "observation") -> str | None:
    """The path of the first mutable or engine object reachable from `obs`, or None when it is pure."""
    stack: list[tuple[Any, str]] = [(obs, path)]
    seen: set[int] = set()
    while stack:
        value, where = stack.pop()
        kind = type(value)
        if kind in _ATOMS or isinstance(value, enum.Enum) or id(value) in seen:
            continue
        seen.add(id(value))
        if kind is tuple or kind is frozenset or isinstance(value, tuple | frozenset):
            for i, item in enumerate(value):
                if type(item) not in _ATOMS:
                    stack.append((item, f"{where}[{i}]" if isinstance(value, tuple) else f"{where}{{…}}"))
            continue
        names = _frozen_fields(value)
        if names is None:
            if dataclasses.is_dataclass(value):
                return f"{where} is a mutable {kind.__name__}"
            return f"{where} is a {kind.__name__}, not immutable data"
        extra = set(getattr(value, "__dict__", {})) - set(names)
        if extra:
            return f"{where} carries attributes outside its fields: {', '.join(sorted(extra))}"
        stack.extend((getattr(value, name), f"{where}.{name}") for name in names)
    return None


def check_observation(obs: Any, seat: int) -> None:
    """RuleViolation when the observation is not pure or is not `seat`'s."""
    leak = observation_leak(obs)
    if leak:
        raise RuleViolation(f"observation of seat {seat} leaks: {leak}")
    if getattr(obs, "seat", seat) != seat:
        raise RuleViolation(f"observation(seat={seat}) says it is seat {obs.seat}'s")

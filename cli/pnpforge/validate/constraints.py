"""Deck constraints: the rulebook's rules about a whole deck, beside composition counts.

A constraint is data (store/constraints.py): a kind and JSON parameters.  Each
kind selects cards with the search language (`query`, optional) and counts
copies, so a card printed twice counts twice.  Values are read by name: a
type field, or one of the card attributes `copies`, `id`, `name`, `type`.

Kinds and their parameters (every kind also takes `query`):

- `unique`       fields: [..]                     no two copies share the combination
- `each_value`   field, values: [..] | range: [lo, hi], times (default 1),
                 group_by (optional), groups: [..] (optional)
                                                  each value exactly `times` copies per group,
                                                  and no value outside the set
- `values`       field, and any of: equals, in: [..], min, max (or equals_field,
                 min_field, max_field: another value of the same card); of: "value" |
                 "length"; optional: true (a missing value is allowed)
                                                  every selected card's value obeys the limits
- `distinct`     field, values: [..] (optional)   no value on two copies; with `values`,
                                                  each of them present
- `group_count`  expected | min | max, group_by (optional), groups: [..] (optional)
                                                  copies per group (or in all) within the limits
- `refs`         field, target_query (optional), same: [fields] (optional)
                 a value naming a card id resolves to a card the target query selects,
                 whose `same` values equal the referrer's

The consistency kinds (`monotone`, `distinct_items`, `distinct_abilities`) are
evaluated by pnpforge.validate.consistency.
"""

from __future__ import annotations

import operator
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import Card
from pnpforge.query import select as selection
from pnpforge.store.constraints import KINDS, PARAMS, Constraint, check_params

__all__ = ["KINDS", "PARAMS", "Breach", "check_params", "evaluate", "run_constraint", "selector", "value"]

_ATTRIBUTES = ("copies", "id", "name", "type")


@dataclass(frozen=True)
class Breach:
    """One way a constraint is broken, and the cards that break it."""

    message: str
    cards: tuple[str, ...] = ()


def value(card: Card, name: str) -> Any:
    """A card's value by name: an attribute (copies, id, name, type) or a type field."""
    if name in _ATTRIBUTES:
        return getattr(card, name)
    return card.fields.get(name)


def copies(card: Card) -> int:
    """A card's copies as a count; a non-number written around the editor counts as 0."""
    return card.copies if isinstance(card.copies, int) and not isinstance(card.copies, bool) else 0


def _key(v: Any) -> Any:
    """A hashable form of a value (lists become tuples)."""
    return tuple(_key(x) for x in v) if isinstance(v, list) else v


def _show(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return str(v)


def _groups(cards: list[Card], params: dict[str, Any]) -> dict[Any, list[Card]]:
    """Cards by `group_by` value; each name in `groups` (or the one group of all) is there, even empty."""
    field = params.get("group_by")
    by_group: dict[Any, list[Card]] = {g: [] for g in params.get("groups", [] if field else [""])}
    for c in cards:
        by_group.setdefault(_key(value(c, field)) if field else "", []).append(c)
    return by_group


def _where(field: str | None, group: Any) -> str:
    return f"{field}={_show(group)}: " if field else ""


def _unique(cards: list[Card], params: dict[str, Any], _: Callable[..., Any]) -> list[Breach]:
    combos: dict[Any, list[Card]] = defaultdict(list)
    for c in cards:
        values = [value(c, f) for f in params["fields"]]
        if any(v is None for v in values):
            continue
        combos[tuple(_key(v) for v in values)].append(c)
    out = []
    for combo, group in combos.items():
        total = sum(copies(c) for c in group)
        if total > 1:
            shown = " ".join(f"{f}={_show(v)}" for f, v in zip(params["fields"], combo, strict=True))
            out.append(Breach(f"{shown} appears {total} times", tuple(c.id for c in group)))
    return out


def _each_value(cards: list[Card], params: dict[str, Any], _: Callable[..., Any]) -> list[Breach]:
    field, times = params["field"], params.get("times", 1)
    wanted = (
        list(params["values"])
        if "values" in params
        else list(range(params["range"][0], params["range"][1] + 1))
    )
    out = []
    for group, members in _groups(cards, params).items():
        counts: dict[Any, int] = defaultdict(int)
        holders: dict[Any, list[str]] = defaultdict(list)
        for c in members:
            v = _key(value(c, field))
            counts[v] += copies(c)
            holders[v].append(c.id)
        where = _where(params.get("group_by"), group)
        for v in wanted:
            if counts.get(_key(v), 0) != times:
                out.append(
                    Breach(
                        f"{where}{field} {_show(v)} appears {counts.get(_key(v), 0)} times, expected {times}",
                        tuple(holders.get(_key(v), [])),
                    )
                )
        for v in counts:
            if v not in {_key(w) for w in wanted} and counts[v] > 0:
                out.append(
                    Breach(
                        f"{where}{field} {_show(v)} is outside the set "
                        f"({_show(wanted[0])}…{_show(wanted[-1])})",
                        tuple(holders[v]),
                    )
                )
    return out


def _obeys(v: Any, params: dict[str, Any]) -> str:
    """Why `v` breaks the limits of a `values` constraint, or "" when it keeps them."""
    if "equals" in params and v != params["equals"]:
        return f"is {_show(v)}, expected {_show(params['equals'])}"
    if "in" in params and v not in params["in"]:
        return f"is {_show(v)}, expected one of {_show(params['in'])}"
    for bound, ok in (("min", operator.ge), ("max", operator.le)):
        if bound in params:
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                return f"is {_show(v)}, not a number"
            if not ok(v, params[bound]):
                return (
                    f"is {_show(v)}, {'below the minimum' if bound == 'min' else 'above the maximum'} "
                    f"{params[bound]}"
                )
    return ""


def _limits(card: Card, params: dict[str, Any]) -> dict[str, Any]:
    """The card's own limits: `equals_field`, `min_field`, `max_field` read from the card itself."""
    limits: dict[str, Any] = {k: params[k] for k in ("equals", "in", "min", "max") if k in params}
    for key in ("equals", "min", "max"):
        other = params.get(f"{key}_field")
        if other is not None and value(card, other) is not None:
            limits[key] = value(card, other)
    return limits


def _values(cards: list[Card], params: dict[str, Any], _: Callable[..., Any]) -> list[Breach]:
    field, of_length = params["field"], params.get("of") == "length"
    out = []
    for c in cards:
        v = value(c, field)
        if v is None:
            if not params.get("optional"):
                out.append(Breach(f"{c.id}: {field} is missing", (c.id,)))
            continue
        if of_length:
            v = len(v) if isinstance(v, (list, str)) else v
        why = _obeys(v, _limits(c, params))
        if why:
            out.append(Breach(f"{c.id}: {field}{' count' if of_length else ''} {why}", (c.id,)))
    return out


def _distinct(cards: list[Card], params: dict[str, Any], _: Callable[..., Any]) -> list[Breach]:
    field = params["field"]
    seen: dict[Any, list[Card]] = defaultdict(list)
    for c in cards:
        v = value(c, field)
        if v is not None:
            seen[_key(v)].append(c)
    out = []
    for v, group in seen.items():
        if sum(copies(c) for c in group) > 1:
            out.append(
                Breach(
                    f"{field} {_show(v)} is on {sum(copies(c) for c in group)} copies",
                    tuple(c.id for c in group),
                )
            )
    for v in params.get("values", []):
        if sum(copies(c) for c in seen.get(_key(v), [])) == 0:
            out.append(Breach(f"no card has {field} {_show(v)}"))
    return out


def _group_count(cards: list[Card], params: dict[str, Any], _: Callable[..., Any]) -> list[Breach]:
    out = []
    for group, members in _groups(cards, params).items():
        total = sum(copies(c) for c in members)
        expected, low, high = params.get("expected"), params.get("min"), params.get("max")
        wrong = (
            (expected is not None and total != expected)
            or (low is not None and total < low)
            or (high is not None and total > high)
        )
        if wrong:
            limit = (
                f"expected {expected}"
                if expected is not None
                else f"expected {low if low is not None else 0}–{high if high is not None else '∞'}"
            )
            out.append(
                Breach(
                    f"{_where(params.get('group_by'), group)}{total} copies, {limit}",
                    tuple(c.id for c in members),
                )
            )
    return out


def _refs(cards: list[Card], params: dict[str, Any], select: Callable[..., Any]) -> list[Breach]:
    field = params["field"]
    targets = {c.id: c for c in select(params.get("target_query", ""))}
    scope = f"matching '{params['target_query']}'" if params.get("target_query") else "of the game"
    out = []
    for c in cards:
        named = value(c, field)
        for target_id in named if isinstance(named, list) else [named]:
            if target_id is None:
                continue
            target = targets.get(target_id)
            if target is None:
                out.append(
                    Breach(f"{c.id}: {field} names '{target_id}', which is not a card {scope}", (c.id,))
                )
                continue
            for same in params.get("same", []):
                if value(c, same) != value(target, same):
                    out.append(
                        Breach(
                            f"{c.id}: {same} {_show(value(c, same))} differs from "
                            f"{target.id}'s {_show(value(target, same))}",
                            (c.id, target.id),
                        )
                    )
    return out


_EVALUATORS: dict[str, Callable[[list[Card], dict[str, Any], Callable[..., Any]], list[Breach]]] = {
    "unique": _unique,
    "each_value": _each_value,
    "values": _values,
    "distinct": _distinct,
    "group_count": _group_count,
    "refs": _refs,
}


def run_constraint(constraint: Constraint, select: Callable[[str], list[Card]]) -> list[Breach]:
    """The breaches of one constraint; PnpError when its parameters or queries are malformed."""
    from pnpforge.validate.consistency import EVALUATORS as CONSISTENCY  # its kinds build on this module

    check_params(constraint.kind, constraint.params)
    params = constraint.params or {}
    evaluator = _EVALUATORS.get(constraint.kind) or CONSISTENCY[constraint.kind]
    return evaluator(select(params.get("query", "")), params, select)


def evaluate(constraint: Constraint, select: Callable[[str], list[Card]]) -> list[Breach]:
    """The breaches of one constraint; `select(query)` returns the game's cards a query matches.

    A constraint whose own parameters are broken (raw SQL) is one breach
    saying why, never an exception.
    """
    try:
        return run_constraint(constraint, select)
    except PnpError as exc:
        return [Breach(f"the constraint itself is invalid: {exc}")]


def selector(db: sqlite_utils.Database, game: str, cards: Iterable[Card]) -> Callable[[str], list[Card]]:
    """A cached `select(query)` over the game: the search language, or every card for ""."""

    everything = list(cards)
    cache: dict[str, list[Card]] = {"": everything}

    def select(query: str) -> list[Card]:
        if query not in cache:
            ids = {c.id for c in selection.cards(db, selection.select(db, game, None, query))}
            cache[query] = [c for c in everything if c.id in ids]
        return cache[query]

    return select

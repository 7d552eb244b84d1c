"""Consistency kinds: the shape designed values must keep, whatever their numbers.

A rulebook often says how values relate without giving them all: paying more
buys a stronger attack, each officer has a different ability, a card marks two
different colours.  A designer changing a provisional value can break such a
relation without touching any number the rulebook prints, so these kinds are
constraints (table `consistency`, listed with the deck constraints):

- `monotone`            fields: [..] (a table across fields, e.g. attack_1 … attack_4)
                        or field (one list or text of numbers, e.g. "2,5,9,14,20";
                        non-numbers such as a final X are skipped); direction "up"
                        (default: more never gives less) or "down"; strict (default
                        false: equal neighbours allowed)
- `distinct_items`      field: a list whose items must differ on each card
- `distinct_abilities`  fields: [..] that together make an ability; no two cards
                        share one; base: [{field: value, …}] abilities equal to the
                        game's base rule (they would do nothing) are refused too
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pnpforge.model import Card
from pnpforge.validate.constraints import Breach, value

__all__ = ["EVALUATORS"]


def _numbers(v: Any) -> list[int | float] | None:
    """The numbers of a list or of a text such as '2,5,9' or '-1 -3 X'; None when there are none."""
    items = v if isinstance(v, list) else re.split(r"[\s,，、/|]+", v) if isinstance(v, str) else []
    out: list[int | float] = []
    for item in items:
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            out.append(item)
        elif isinstance(item, str) and re.fullmatch(r"[+-]?\d+", item.strip()):
            out.append(int(item))
    return out or None


def _monotone(cards: list[Card], params: dict[str, Any], _: Callable) -> list[Breach]:
    up = params.get("direction", "up") == "up"
    strict = bool(params.get("strict"))
    out = []
    for c in cards:
        if "fields" in params:
            names = list(params["fields"])
            raw = [value(c, f) for f in names]
            if any(v is None for v in raw):
                continue
            numbers = _numbers(raw) or []
            if len(numbers) != len(names):
                out.append(Breach(f"{c.id}: {', '.join(names)} are not all numbers", (c.id,)))
                continue
        else:
            found = _numbers(value(c, params["field"]))
            if found is None:
                continue
            numbers = found
            names = [f"{params['field']}[{i + 1}]" for i in range(len(numbers))]
        for i in range(1, len(numbers)):
            a, b = numbers[i - 1], numbers[i]
            bad = (b < a if up else b > a) or (strict and a == b)
            if bad:
                word = "less" if up else "more"
                why = "a step gives the same" if strict and a == b else f"the next step gives {word}"
                out.append(
                    Breach(
                        f"{c.id}: {names[i]} {b} after {names[i - 1]} {a}: {why}",
                        (c.id,),
                    )
                )
                break
    return out


def _distinct_items(cards: list[Card], params: dict[str, Any], _: Callable) -> list[Breach]:
    field = params["field"]
    out = []
    for c in cards:
        items = value(c, field)
        if not isinstance(items, list):
            continue
        repeated = sorted({str(x) for x in items if items.count(x) > 1})
        if repeated:
            out.append(Breach(f"{c.id}: {field} repeats {', '.join(repeated)}", (c.id,)))
    return out


def _ability(card: Card, fields: list[str]) -> tuple[Any, ...]:
    def key(v: Any) -> Any:
        return tuple(sorted(map(str, v))) if isinstance(v, list) else v

    return tuple(key(value(card, f)) for f in fields)


def _distinct_abilities(cards: list[Card], params: dict[str, Any], _: Callable) -> list[Breach]:
    fields = list(params["fields"])
    by_ability: dict[tuple[Any, ...], list[Card]] = defaultdict(list)
    for c in cards:
        by_ability[_ability(c, fields)].append(c)
    out = []
    for ability, group in by_ability.items():
        if len(group) > 1:
            shown = " ".join(
                f"{f}={'none' if v is None else v}" for f, v in zip(fields, ability, strict=True)
            )
            out.append(
                Breach(
                    f"{', '.join(c.id for c in group)} share one ability ({shown})",
                    tuple(c.id for c in group),
                )
            )
    for base in params.get("base", []):
        for c in cards:
            if all(value(c, f) == v for f, v in base.items()):
                shown = " ".join(f"{f}={v}" for f, v in base.items())
                out.append(
                    Breach(f"{c.id}: its ability is the base rule ({shown}): it does nothing", (c.id,))
                )
    return out


EVALUATORS: dict[str, Callable[[list[Card], dict[str, Any], Callable], list[Breach]]] = {
    "monotone": _monotone,
    "distinct_items": _distinct_items,
    "distinct_abilities": _distinct_abilities,
}

"""Card-level validation: values against their card type's field definitions.

Pure functions over model objects, so every write path (add, set, import,
game import) and `pnp validate` share one set of rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pnpforge.model import (
    CARD_ATTRIBUTES,
    INT_MAX,
    INT_MIN,
    MAX_FIELD_TEXT,
    MAX_LIST_ITEMS,
    PROVENANCES,
    Card,
    CardType,
    FieldDef,
    split_entry,
)
from pnpforge.validate.problem import ERROR, WARNING, Problem
from pnpforge.validate.values import attribute_problems, forbidden_char, parse_int

# Attributes whose wrong shape makes the rest of a card unreadable.
_SHAPE = {"fields", "provisional_fields", "name", "provenance", "source"}

_TRUE = {"true", "yes", "1", "y"}
_FALSE = {"false", "no", "0", "n"}


def coerce(fd: FieldDef, raw: Any) -> Any:
    """Turn text from the command line or a CSV cell into the field's value type.

    Raises ValueError with a plain message when it can't.
    """
    if raw is None or (isinstance(raw, str) and raw.strip() == ""):
        return None
    if fd.type == "integer":
        try:
            return parse_int(raw)
        except ValueError as exc:
            raise ValueError(str(exc).replace("a whole number", "an integer")) from None
    if fd.type == "boolean":
        if isinstance(raw, bool):
            return raw
        s = str(raw).strip().lower()
        if s in _TRUE:
            return True
        if s in _FALSE:
            return False
        raise ValueError(f"expected true or false, got {raw!r}")
    if fd.type == "list":
        if isinstance(raw, list):
            if not all(isinstance(v, str) for v in raw):
                raise ValueError("expected a list of text values")
            return raw
        if not isinstance(raw, str | int | float):
            raise ValueError(f"expected a list, got a {type(raw).__name__}")
        # an open list (no allowed values: the cells of a track) also takes spaces between items
        separators = r"[|,，]" if fd.allowed else r"[|,，\s]+"
        return [p.strip() for p in re.split(separators, str(raw)) if p.strip()]
    if not isinstance(raw, str | int | float) or isinstance(raw, bool):
        raise ValueError(f"expected text, got a {type(raw).__name__}")
    return raw if isinstance(raw, str) else str(raw)


def check_value(fd: FieldDef, value: Any) -> str | None:
    """The reason `value` is not a valid value of `fd`, or None."""
    allowed = fd.allowed or []
    if fd.type == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected an integer, got {value!r}"
        if not INT_MIN <= value <= INT_MAX:
            return f"{value} is out of range ({INT_MIN}…{INT_MAX})"
        if fd.min is not None and value < fd.min:
            return f"{value} is below the minimum {fd.min}"
        if fd.max is not None and value > fd.max:
            return f"{value} is above the maximum {fd.max}"
    elif fd.type == "boolean":
        if not isinstance(value, bool):
            return f"expected true or false, got {value!r}"
    elif fd.type in ("text", "ref"):
        if not isinstance(value, str):
            return f"expected text, got {value!r}"
        limit = fd.max if fd.max is not None else MAX_FIELD_TEXT
        if len(value) > limit:
            return f"text is {len(value)} characters, longer than the maximum {limit}"
        return forbidden_char(value, multiline=fd.type == "text")
    elif fd.type == "enum":
        if not isinstance(value, str | int) or value not in allowed:
            return f"{value!r} is not allowed (allowed: {', '.join(map(str, allowed))})"
    elif fd.type == "list":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"expected a list of text values, got {value!r}"
        if len(value) > MAX_LIST_ITEMS:
            return f"holds {len(value)} values, more than {MAX_LIST_ITEMS}"
        # an empty `allowed` declares an open list (cells of a track): any text items
        bad = [v for v in value if v not in allowed] if allowed else []
        odd = None if allowed else next(filter(None, (_open_item_problem(v) for v in value)), None)
        if odd:
            return odd
        if bad:
            return f"{', '.join(map(repr, bad))} not allowed (allowed: {', '.join(map(str, allowed))})"
        if fd.min is not None and len(value) < fd.min:
            return f"needs at least {fd.min} value(s)"
        if fd.max is not None and len(value) > fd.max:
            return f"takes at most {fd.max} value(s)"
    return None


def _open_item_problem(item: str) -> str | None:
    """Why one item of an open list cannot be printed, or None."""
    if not item.strip():
        return "an item is empty"
    if len(item) > MAX_FIELD_TEXT:
        return f"an item is {len(item)} characters, longer than the maximum {MAX_FIELD_TEXT}"
    return forbidden_char(item, multiline=False)


def validate_card(card: Card, ctype: CardType | None, known_types: Iterable[str] = ()) -> list[Problem]:
    """Problems of one card on its own (no knowledge of other cards)."""
    p: list[Problem] = []

    def err(field: str | None, msg: str, severity: str = ERROR) -> None:
        p.append(Problem(severity, card.game, card.id, field, msg))

    broken = attribute_problems(card)
    for attr, message in broken:
        err(attr, message)
    if ctype is None:
        err("type", f"unknown card type '{card.type}' (allowed: {', '.join(known_types)})")
        return p
    if any(attr in _SHAPE for attr, _ in broken):
        return p  # a row another tool wrote in the wrong shape: the rest cannot be read
    if not card.name.strip():
        err("name", "name is required")
    if card.provenance not in PROVENANCES:
        err("provenance", f"'{card.provenance}' is not allowed (allowed: {', '.join(PROVENANCES)})")
    if card.provenance == "rulebook" and not card.source.strip():
        err("source", "provenance 'rulebook' needs a source: the rulebook section it comes from")
    defs = {f.name: f for f in ctype.fields}
    for name in sorted(card.fields):
        if name not in defs:
            err(name, f"unknown field for type '{ctype.slug}' (allowed: {', '.join(defs) or 'no fields'})")
    for fd in ctype.fields:
        value = card.fields.get(fd.name)
        if value is None:
            if fd.required:
                err(fd.name, "required field is missing")
            continue
        reason = check_value(fd, value)
        if reason:
            err(fd.name, reason)
    allowed_prov = set(defs) | set(CARD_ATTRIBUTES)
    for entry in card.provisional_fields:
        name, cell = split_entry(entry)
        if cell is None:
            if name not in allowed_prov:
                err("provisional_fields", f"'{name}' is neither a field nor a card attribute")
            continue
        reason = _cell_problem(card, defs.get(name), name, cell)
        if reason:
            err("provisional_fields", f"'{entry}': {reason}")
    for name in sorted(set(card.provisional_fields) & set(defs)):
        if card.fields.get(name) is None:
            err(name, "listed as provisional but has no value", WARNING)
    return p


def _cell_problem(card: Card, fd: FieldDef | None, name: str, cell: int) -> str | None:
    """Why a cell entry such as `track[3]` does not name a cell of the card, or None."""
    if fd is None or fd.type != "list":
        return f"only a list field's cells can be marked one by one, and '{name}' is not a list field"
    value = card.fields.get(name)
    length = len(value) if isinstance(value, list) else 0
    if cell >= length:
        return f"{name} has {length} cell(s), so there is no cell {cell + 1}"
    if name in card.provisional_fields:
        return f"the whole of {name} is already marked provisional"
    return None


def provisional_warnings(card: Card) -> list[Problem]:
    """A warning per provisional card, so designers see what still needs the rulebook's word."""
    if card.provenance == "provisional":
        return [Problem(WARNING, card.game, card.id, None, "whole card is provisional")]
    if not isinstance(card.provisional_fields, list) or not all(
        isinstance(x, str) for x in card.provisional_fields
    ):
        return []  # reported as an error by validate_card
    if card.provisional_fields:
        return [
            Problem(
                WARNING,
                card.game,
                card.id,
                ",".join(card.provisional_fields),
                "provisional value(s): " + ", ".join(card.provisional_fields),
            )
        ]
    return []

"""Typed readers of card fields: an engine never indexes `card.fields` itself.

A missing or malformed value is a `DeckError` naming the card and field
("card OB-12: field 'difficulty' is 40, above the maximum 30"), so a data
mistake reaches the designer as one line instead of a crash deep in a game.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

from pnpforge.errors import PnpError
from pnpforge.model import CARD_ATTRIBUTES, Card


class DeckError(PnpError):
    """A card's data cannot be played by the engine: missing, wrong type or out of range."""


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


def _raw(card: Card, name: str) -> Any:
    """The stored value of a field (or card attribute such as 'copies'); None when absent or empty."""
    if name in card.fields:
        value = card.fields[name]
    elif name in CARD_ATTRIBUTES and name not in ("type", "provisional_fields"):
        value = getattr(card, name, None)
    else:
        value = None
    return None if value == "" else value


def _missing(card: Card, name: str, default: Any) -> Any:
    """The default of an absent field; DeckError naming card and field when it is required."""
    if default is REQUIRED:
        raise DeckError(f"card {card.id}: field '{name}' is missing")
    return default


def int_field(
    card: Card, name: str, *, default: Any = REQUIRED, min: int | None = None, max: int | None = None
) -> int:
    """An integer field within [min, max]; the default (if given) is returned unchecked when absent."""
    value = _raw(card, name)
    if value is None:
        return cast(int, _missing(card, name, default))
    if isinstance(value, bool):
        raise DeckError(f"card {card.id}: field '{name}' must be an integer, got {value!r}")
    if not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise DeckError(f"card {card.id}: field '{name}' must be an integer, got {value!r}") from None
    if min is not None and value < min:
        raise DeckError(f"card {card.id}: field '{name}' is {value}, below the minimum {min}")
    if max is not None and value > max:
        raise DeckError(f"card {card.id}: field '{name}' is {value}, above the maximum {max}")
    return value


def text_field(card: Card, name: str, *, default: Any = REQUIRED) -> str:
    """A text field; numbers are refused so a value written in the wrong column is noticed."""
    value = _raw(card, name)
    if value is None:
        return cast(str, _missing(card, name, default))
    if not isinstance(value, str):
        raise DeckError(f"card {card.id}: field '{name}' must be text, got {value!r}")
    return value


def list_field(card: Card, name: str, *, default: Any = REQUIRED) -> list[str]:
    """A list field as a new list of strings (an empty stored list is a value, not a missing one)."""
    value = card.fields.get(name)
    if value is None or value == "":
        return cast("list[str]", _missing(card, name, default))
    if not isinstance(value, list | tuple):
        raise DeckError(f"card {card.id}: field '{name}' must be a list, got {value!r}")
    if not all(isinstance(item, str | int) and not isinstance(item, bool) for item in value):
        raise DeckError(f"card {card.id}: field '{name}' must list text values, got {value!r}")
    return [str(item) for item in value]


def enum_field(card: Card, name: str, allowed: Collection[str], *, default: Any = REQUIRED) -> str:
    """A text field that must be one of `allowed` (the engine's known values, listed in the error)."""
    value = text_field(card, name, default=default)
    if value not in allowed and not (default is not REQUIRED and value == default):
        options = ", ".join(sorted(allowed))
        raise DeckError(f"card {card.id}: field '{name}' is {value!r} (allowed: {options})")
    return value


def bool_field(card: Card, name: str, *, default: Any = REQUIRED) -> bool:
    """A yes/no field; 0/1 and 'true'/'false' as raw SQL may have written them are accepted."""
    value = _raw(card, name)
    if value is None:
        return cast(bool, _missing(card, name, default))
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("true", "yes"):
        return True
    if text in ("false", "no"):
        return False
    raise DeckError(f"card {card.id}: field '{name}' must be true or false, got {value!r}")

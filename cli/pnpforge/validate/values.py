"""Limits and hygiene of single values: integers, text, names and ids.

A name with a zero-width space or a trailing blank looks like another card's
name on paper yet defeats the duplicate-name rule; a 4,000-digit integer or
copies=1000000000 makes printing and the checker run for ever.  These checks
run on every write and in `pnp validate`, so rows another tool wrote are
caught too.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pnpforge.model import (
    ID_PATTERN,
    INT_MAX,
    INT_MIN,
    MAX_COPIES,
    MAX_INT_DIGITS,
    MAX_PROVISIONAL_FIELDS,
    TEXT_LIMITS,
    Card,
)

_ID_RE = re.compile(ID_PATTERN)
_LINE_BREAKS = {"\n", "\t"}
# Categories no card text needs: controls, format characters (zero-width
# space and joiners, BOM, bidi overrides), line/paragraph separators, unassigned
# code points and lone surrogates.
_BAD_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Cn", "Co"}
_TEXT_ATTRIBUTES = ("name", "name_en", "text", "flavor", "notes", "source", "provenance", "type")
_SINGLE_LINE = ("name", "name_en", "source", "provenance", "type", "art")


def normalize_name(value: str) -> str:
    """NFC, without surrounding blanks: the one spelling a name is stored and compared in."""
    return unicodedata.normalize("NFC", value).strip()


def name_key(value: str) -> str:
    """What two names must differ in to count as different names."""
    return unicodedata.normalize("NFC", value).strip().casefold()


def forbidden_char(value: str, multiline: bool) -> str | None:
    """A description of the first character `value` may not hold, or None."""
    if value.isprintable():  # the common case, in C: no control, format or separator character
        return None
    for index, ch in enumerate(value):
        if multiline and ch in _LINE_BREAKS:
            continue
        if unicodedata.category(ch) in _BAD_CATEGORIES:
            return f"character U+{ord(ch):04X} at position {index + 1} is not allowed (control or invisible)"
    return None


def parse_int(raw: Any) -> int:
    """An integer from a cell or a JSON value; ValueError with a plain message otherwise.

    The digit count is checked before conversion, so a 4,000-digit cell costs nothing.
    """
    if isinstance(raw, bool):
        raise ValueError(f"expected a whole number, got {raw!r}")
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    else:
        text = str(raw).strip() if isinstance(raw, str) else None
        if text is None or not re.fullmatch(r"[+-]?[0-9]+", text):
            raise ValueError(f"expected a whole number, got {_short(raw)}")
        if len(text.lstrip("+-").lstrip("0")) > MAX_INT_DIGITS:
            raise ValueError(f"{_short(raw)} is out of range (at most {MAX_INT_DIGITS} digits)")
        value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise ValueError(f"{_short(value)} is out of range ({INT_MIN}…{INT_MAX})")
    return value


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def id_problem(card_id: Any) -> str | None:
    """Why `card_id` is not a valid card id, or None."""
    if not isinstance(card_id, str):
        return f"id must be text, got {_short(card_id)}"
    if not _ID_RE.fullmatch(card_id) or ".." in card_id:
        return (
            f"id {_short(card_id)} is not allowed: 1-24 characters, a letter or digit first, "
            f"then letters, digits, '.', '_' or '-' (never '..')"
        )
    return None


def attribute_problems(card: Card) -> list[tuple[str, str]]:
    """(attribute, reason) for every card attribute outside its declared limits."""
    out: list[tuple[str, str]] = []
    reason = id_problem(card.id)
    if reason:
        out.append(("id", reason))
    for attr in _TEXT_ATTRIBUTES + ("art",):
        value = getattr(card, attr)
        if attr == "art" and value is None:
            continue
        if not isinstance(value, str):
            out.append((attr, f"expected text, got {_short(value)}"))
            continue
        limit = TEXT_LIMITS.get(attr)
        if limit is not None and len(value) > limit:
            out.append((attr, f"text is {len(value)} characters, longer than the maximum {limit}"))
            continue
        bad = forbidden_char(value, multiline=attr not in _SINGLE_LINE)
        if bad:
            out.append((attr, bad))
        elif attr in ("name", "name_en") and value != normalize_name(value):
            out.append((attr, "has leading or trailing blanks or is not in Unicode NFC form"))
    copies = card.copies
    if isinstance(copies, bool) or not isinstance(copies, int):
        out.append(("copies", f"copies must be a whole number 0-{MAX_COPIES}, got {_short(copies)}"))
    elif not 0 <= copies <= MAX_COPIES:
        out.append(("copies", f"copies must be 0-{MAX_COPIES}, got {copies}"))
    prov = card.provisional_fields
    if not isinstance(prov, list) or not all(isinstance(x, str) for x in prov):
        out.append(("provisional_fields", f"expected a list of names, got {_short(prov)}"))
    elif len(prov) > MAX_PROVISIONAL_FIELDS:
        out.append(("provisional_fields", f"lists {len(prov)} names, more than {MAX_PROVISIONAL_FIELDS}"))
    if not isinstance(card.fields, dict):
        out.append(("fields", f"expected an object of field values, got {_short(card.fields)}"))
    return out

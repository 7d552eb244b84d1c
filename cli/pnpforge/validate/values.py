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
    LANGUAGES,
    MAX_COPIES,
    MAX_INT_DIGITS,
    MAX_PROVISIONAL_FIELDS,
    RESERVED_GAME_SLUGS,
    TEXT_LIMITS,
    Card,
)

_ID_RE = re.compile(ID_PATTERN)
_LINE_BREAKS = {"\n", "\t"}
# Categories no card text needs: controls, format characters (zero-width
# space and joiners, BOM, bidi overrides), line/paragraph separators, unassigned
# code points and lone surrogates.
_BAD_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Cn", "Co"}
# Characters Unicode says a renderer may show as nothing although their category is a
# letter (Other_Default_Ignorable_Code_Point of PropList.txt, letters only): the Hangul
# fillers, U+034F and the Khmer inherent vowels.  Every other invisible character is
# caught by its category below.
_IGNORABLE_LETTERS = frozenset("\u115f\u1160\u17b4\u17b5\u3164\uffa0")
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")  # letters, numbers, punctuation, symbols
# Windows reserves these file names with any extension (`nul.txt`), in any case.
_RESERVED_STEMS = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(10)] + [f"lpt{i}" for i in range(10)]
)
_TEXT_ATTRIBUTES = ("name", "name_en", "text", "flavor", "notes", "source", "provenance", "type")
_SINGLE_LINE = ("name", "name_en", "source", "provenance", "type", "art")


def game_slug_problem(slug: str) -> str | None:
    """Why `slug` cannot name a new game, or None: the grammar, and names the CLI or a folder take.

    `calibration` is what `pnp print` prints instead of a game; GAME-en (any language
    suffix) is the slug and the output folder of GAME's language edition.
    """
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", slug):
        return f"game slug {slug!r}: use lower-case letters, digits and '-' (e.g. my-game)"
    if slug in RESERVED_GAME_SLUGS:
        return f"game slug {slug!r} is a word pnp reads itself ('pnp print {slug}'); choose another"
    for lang in LANGUAGES:
        suffix = f"-{lang.lower()}"
        if slug.endswith(suffix):
            return (
                f"game slug {slug!r} ends in '{suffix}', the name of a language edition "
                f"(output/{slug}/ is where 'pnp print {slug[: -len(suffix)]} --lang {lang}' writes); "
                "choose another"
            )
    return None


def normalize_name(value: str) -> str:
    """NFC, without surrounding blanks: the one spelling a name is stored and compared in."""
    return unicodedata.normalize("NFC", value).strip()


def name_key(value: str) -> str:
    """What two names must differ in to count as different names: not case and not width
    (NFKC folds full-width `ＡＢＣ` into `ABC`, then case-folding `abc` into the same)."""
    return unicodedata.normalize("NFKC", value).strip().casefold()


def id_file_key(card_id: str) -> str:
    """What two ids must differ in to be two file names on every platform (case, width)."""
    return unicodedata.normalize("NFKC", card_id).casefold()


def visible(value: str) -> bool:
    """Whether `value` shows anything on paper: one letter, number, punctuation mark or
    symbol (by Unicode category) that is not a default-ignorable filler."""
    return any(
        unicodedata.category(ch)[0] in _VISIBLE_CATEGORIES and ch not in _IGNORABLE_LETTERS for ch in value
    )


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
    if card_id.endswith("."):
        return f"id {_short(card_id)} ends with '.', which Windows drops from a file name"
    if card_id.split(".", 1)[0].casefold() in _RESERVED_STEMS:
        return f"id {_short(card_id)} is a file name Windows reserves (CON, NUL, COM1…, with any extension)"
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
        elif attr == "name" and not visible(value) or attr == "name_en" and value and not visible(value):
            out.append((attr, "shows nothing on paper: no visible letter, number or symbol"))
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

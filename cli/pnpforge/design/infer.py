"""Infer a game's card types and typed fields from a table of cells (a CSV or a spreadsheet).

A designer's sheet says what a card holds, not what type each value has; the
cells do.  Per column (one column means one thing, whatever the card type):
whole numbers make an integer field; cells holding `|` make a list (its
allowed values are every item seen); true/false cells a boolean; a few
distinct values repeated across the rows (at most 8, and at most 60 % of the
filled cells) an enum, allowed values in the order first seen; anything else
text.  Blank cells are simply absent values, so a column with blanks keeps
its type.
Everything inferred is reported with how to change it, and nothing here
writes: `pnpforge.design.newgame` turns the result into a game.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.model import FieldDef
from pnpforge.validate.fields import coerce
from pnpforge.validate.values import id_problem, normalize_name

# Columns that are card attributes, not fields (matched without case).  `provenance` and
# `provisional_fields` come with a sheet `pnp export` wrote: honesty marks, never a field (a new
# game's cards are all its designer's).
ATTRIBUTES = (
    "id",
    "type",
    "name",
    "name_en",
    "copies",
    "text",
    "flavor",
    "art",
    "notes",
    "source",
    "provenance",
    "provisional_fields",
)
_ALIASES = {
    "title": "name",
    "card": "name",
    "count": "copies",
    "qty": "copies",
    "quantity": "copies",
    "rules": "text",
    "image": "art",
    "kind": "type",
}
ENUM_MAX_VALUES = 8  # at most this many distinct values for an enum …
ENUM_MAX_SHARE = 0.6  # … and no more distinct values than this share of the filled cells
_INT_RE = re.compile(r"[+-]?[0-9]{1,18}")
_BOOL_WORDS = {"true", "false", "yes", "no"}


@dataclass
class Row:
    """One data row: its cells by column name, and where it is for messages."""

    cells: dict[str, str]
    where: str


@dataclass
class InferredType:
    """A card type as inferred: slug, display name, fields and the rows that are its cards."""

    slug: str
    name: str
    fields: list[FieldDef] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was inferred, for the report

    @property
    def copies(self) -> int:
        return sum(parse_copies(r) for r in self.rows)


@dataclass
class Inference:
    """Everything inferred from a sheet: card types in first-seen order and the column map."""

    types: list[InferredType]
    columns: dict[str, str]  # sheet header -> attribute or field name
    labels: dict[str, str]  # field name -> the header as written
    has_ids: bool


def slugify(text: str, fallback: str, allowed: str = "a-z0-9_") -> str:
    """A lower-case ASCII name for a header or a type (`Attack Power` → attack_power)."""
    sep = "_" if "_" in allowed else "-"
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    slug = re.sub(f"[^{allowed}]+", sep, plain).strip(sep)
    slug = re.sub(f"{re.escape(sep)}+", sep, slug)
    return slug[:40] or fallback


def map_columns(header: list[str], where: str) -> tuple[dict[str, str], dict[str, str]]:
    """Sheet header -> attribute or field name, and field name -> label (the header as written)."""
    columns: dict[str, str] = {}
    labels: dict[str, str] = {}
    for i, raw in enumerate(header, 1):
        head = normalize_name(raw)
        if not head:
            raise PnpError(f"{where}: column {i} has no header; name it or delete it")
        key = head.lower().replace(" ", "_")
        key = _ALIASES.get(key, key)
        if key in ATTRIBUTES and key not in columns.values():
            columns[head] = key
            continue
        name = slugify(head, f"field_{i}")
        if name[0].isdigit():
            name = f"f_{name}"
        while name in labels or name in ATTRIBUTES:
            name = f"{name}_{i}"
        columns[head] = name
        labels[name] = head
    if "name" not in columns.values():
        raise PnpError(
            f"{where}: no 'name' column (columns: {', '.join(header)[:300]}); every card needs a name"
        )
    return columns, labels


def parse_copies(row: Row) -> int:
    raw = row.cells.get("copies", "").strip()
    if not raw:
        return 1
    if not _INT_RE.fullmatch(raw) or not 0 <= int(raw) <= 999:
        raise PnpError(f"{row.where}: column 'copies': expected a whole number 0-999, got {raw!r}")
    return int(raw)


def infer_field(name: str, label: str, values: list[str]) -> tuple[FieldDef, str]:
    """The field type the non-blank `values` of one column suggest, and a line saying why."""
    if values and all(_INT_RE.fullmatch(v) for v in values):
        nums = [int(v) for v in values]
        # the sheet's range is what the designer has drawn so far, not a limit: say so
        seen = (
            f"{min(nums)} to {max(nums)} in the sheet"
            if min(nums) != max(nums)
            else f"{nums[0]} in the sheet"
        )
        return FieldDef(name, "integer", label=label), f"integer ({seen}; any whole number allowed)"
    if any("|" in v for v in values):
        probe = FieldDef(name, "list", label=label, allowed=[])
        items: list[str] = []
        for v in values:
            for item in coerce(probe, v) or []:
                if item not in items:
                    items.append(item)
        return (
            FieldDef(name, "list", label=label, allowed=items),
            f"list split on '|', closed to these {len(items)} values: {' | '.join(items)}",
        )
    if values and all(v.lower() in _BOOL_WORDS for v in values):
        return FieldDef(name, "boolean", label=label), "boolean (true/false)"
    distinct = list(dict.fromkeys(values))
    if distinct and len(distinct) <= ENUM_MAX_VALUES and len(distinct) <= ENUM_MAX_SHARE * len(values):
        return FieldDef(name, "enum", label=label, allowed=distinct), f"enum, closed: {' | '.join(distinct)}"
    if len(distinct) < len(values):  # repeated values, yet too many different ones for a closed list
        return FieldDef(name, "text", label=label), (
            f"text, free ({len(distinct)} different values in {len(values)} cells: too many for an enum)"
        )
    return FieldDef(name, "text", label=label), "text, free"


def infer(header: list[str], rows: list[Row], where: str, default_type: str = "card") -> Inference:
    """Card types and their fields from a sheet's header and rows."""
    columns, labels = map_columns(header, where)
    by_type: dict[str, InferredType] = {}
    for row in rows:
        cells = {columns[h]: v for h, v in row.cells.items() if h in columns}
        row.cells = cells
        type_name = normalize_name(cells.get("type", "")) or default_type
        slug = slugify(type_name, "", "a-z0-9-") or f"type-{len(by_type) + 1}"
        found = by_type.get(slug)
        if found is None:
            found = by_type[slug] = InferredType(slug, type_name)
        found.rows.append(row)
    if not by_type:
        raise PnpError(f"{where}: no rows below the header; nothing to infer a game from")
    for name, label in labels.items():
        # One column means one thing: its type and values come from every row, whatever the card type.
        column = [r.cells.get(name, "").strip() for r in rows]
        fd, why = infer_field(name, label, [v for v in column if v])
        for itype in by_type.values():
            used = sum(1 for r in itype.rows if r.cells.get(name, "").strip())
            if not used:
                continue  # a column only other types use
            blanks = len(itype.rows) - used
            itype.fields.append(fd)
            itype.notes.append(
                f"{name} ({label}): {why}" + (f"; blank on {blanks} card(s)" if blanks else "")
            )
    return Inference(list(by_type.values()), columns, labels, "id" in columns.values())


def card_values(itype: InferredType, row: Row) -> dict[str, Any]:
    """A row's field values, typed by the inferred fields (blank cells left out, lists as [])."""
    out: dict[str, Any] = {}
    for fd in itype.fields:
        raw = row.cells.get(fd.name, "")
        try:
            value = coerce(fd, raw)
        except ValueError as exc:
            raise PnpError(f"{row.where}: column '{fd.label}': {exc}") from None
        if value is not None or fd.type == "list":
            out[fd.name] = value if value is not None else []
    return out


def card_id(itype: InferredType, row: Row, number: int, has_ids: bool) -> str:
    """The row's id, or one made from the type and the row's number when the sheet has no ids."""
    if has_ids:
        raw = row.cells.get("id", "").strip()
        if not raw:
            raise PnpError(f"{row.where}: column 'id' is blank")
        reason = id_problem(raw)
        if reason:
            raise PnpError(f"{row.where}: column 'id': {reason}")
        return raw
    return f"{itype.slug[:15]}-{number:03d}"

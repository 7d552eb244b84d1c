"""Plain dataclasses for what cards.db holds.

Everything above the store works with these, never with rows, so a later
schema change touches the store alone.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any

FIELD_TYPES = ("integer", "text", "enum", "boolean", "list", "ref")
PROVENANCES = ("rulebook", "reference", "provisional")
# Languages a game is written or printed in (the schema's list); `--lang L` prints GAME-l.
LANGUAGES = ("zh-Hant", "zh-Hans", "en", "ja", "ko")
# Words the command line reads in a game slug's place: `pnp print calibration`.
RESERVED_GAME_SLUGS = ("calibration",)
ROLES = ("deck", "aid")

# Card attributes that are not type fields; `pnp cards set` accepts these too.
CARD_ATTRIBUTES = (
    "name",
    "name_en",
    "copies",
    "text",
    "flavor",
    "art",
    "provenance",
    "source",
    "notes",
    "type",
    "provisional_fields",
)

# Declared limits of every value a card holds.  They keep a hostile or mistyped
# value (copies=1000000000, a 4,000-digit number, a megabyte of text) from
# reaching the printer or the checker, which would run for ever on it.
MAX_COPIES = 999
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # SQLite's integer range
MAX_INT_DIGITS = 19
TEXT_LIMITS = {
    "name": 200,
    "name_en": 200,
    "text": 4000,
    "flavor": 2000,
    "notes": 10000,
    "source": 500,
    "art": 1000,
}
MAX_FIELD_TEXT = 4000  # a text or ref field without its own max
MAX_LIST_ITEMS = 200
MAX_PROVISIONAL_FIELDS = 100
# Card ids name output files: a letter or digit first, then letters, digits, `.`, `_`, `-`
# (never `..`), at most 24 characters.  The schema enforces the same grammar.
ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,23}"


def field_names(cls: type, *leave_out: str) -> tuple[str, ...]:
    """The dataclass's field names in declaration order, less `leave_out`.

    Table columns, bundle keys and the attributes a card prints are spelled from
    these classes, so a new attribute is declared once, here.
    """
    return tuple(f.name for f in dataclass_fields(cls) if f.name not in leave_out)


@dataclass
class Game:
    slug: str
    title: str
    title_en: str
    language: str
    players_min: int
    players_max: int
    play_time: str = ""
    version: str = "0.1"
    rulebook: str = ""
    notes: str = ""

    def titles(self, sep: str = " / ") -> str:
        """'title / title_en', or the title alone when both are the same (a language edition)."""
        return self.title if self.title_en in ("", self.title) else f"{self.title}{sep}{self.title_en}"


@dataclass
class FieldDef:
    """One field of a card type: its type and the limits every value must keep."""

    name: str
    type: str
    label: str = ""
    required: bool = False
    min: int | None = None
    max: int | None = None
    allowed: list[str] | None = None
    ref_type: str | None = None
    help: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, "", False)}


@dataclass
class CardType:
    game: str
    slug: str
    name: str
    name_en: str
    width_mm: float
    height_mm: float
    size_provisional: bool = False
    role: str = "deck"
    back: dict[str, Any] = field(default_factory=dict)
    fields: list[FieldDef] = field(default_factory=list)
    notes: str = ""

    def field(self, name: str) -> FieldDef | None:
        return next((f for f in self.fields if f.name == name), None)


@dataclass
class Card:
    game: str
    type: str
    id: str
    name: str
    name_en: str = ""
    copies: int = 1
    fields: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    flavor: str = ""
    art: str | None = None
    provenance: str = "provisional"
    source: str = ""
    provisional_fields: list[str] = field(default_factory=list)
    notes: str = ""
    created_at: str = ""
    updated_at: str = ""

    @property
    def is_provisional(self) -> bool:
        """True when any value on the card is not the rulebook's or a reference's."""
        return self.provenance == "provisional" or bool(self.provisional_fields)

    def is_value_provisional(self, name: str) -> bool:
        """Whether the whole value `name` is designed (a cell entry marks only part of it)."""
        return self.provenance == "provisional" or name in self.provisional_fields

    def provisional_cells(self, name: str) -> frozenset[int]:
        """The 0-based cells of list field `name` marked designed one by one (`name[3]` entries)."""
        return frozenset(
            i for n, i in map(split_entry, self.provisional_fields) if n == name and i is not None
        )

    def is_cell_provisional(self, name: str, index: int) -> bool:
        """Whether cell `index` (0-based) of list field `name` is designed."""
        return self.is_value_provisional(name) or index in self.provisional_cells(name)

    def has_provisional_part(self, name: str) -> bool:
        """Whether any of value `name` is designed: all of it or some of its cells."""
        return self.is_value_provisional(name) or bool(self.provisional_cells(name))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("game")
        return d


_CELL_ENTRY = re.compile(r"^(?P<name>[a-z0-9_]+)\[(?P<cell>[1-9][0-9]{0,3})\]$")


def cell_entry(name: str, index: int) -> str:
    """The `provisional_fields` entry marking one cell (0-based `index`) of a list field:
    `track[3]` is the third cell, as validators and `pnp cards show` number them."""
    return f"{name}[{index + 1}]"


def split_entry(entry: str) -> tuple[str, int | None]:
    """A `provisional_fields` entry as (value name, 0-based cell or None for the whole value)."""
    found = _CELL_ENTRY.match(entry) if isinstance(entry, str) else None
    if found is None:
        return entry, None
    return found["name"], int(found["cell"]) - 1


def fits_card(card: Card, entry: str) -> bool:
    """Whether a `provisional_fields` entry still names something of `card`: a whole value
    always does; a cell entry only while its list has that cell."""
    name, index = split_entry(entry)
    if index is None:
        return True
    value = card.fields.get(name) if isinstance(card.fields, dict) else None
    return isinstance(value, list) and index < len(value)


def tidy_provisional(card: Card) -> None:
    """Keep `card.provisional_fields` minimal after an edit: a cell entry gives way to its
    whole value's name when that is marked, and when every cell of the list is marked."""
    if not isinstance(card.provisional_fields, list) or not isinstance(card.fields, dict):
        return
    whole = {e for e in card.provisional_fields if split_entry(e)[1] is None}
    cells: dict[str, set[int]] = {}
    for entry in card.provisional_fields:
        name, index = split_entry(entry)
        if index is not None and name not in whole:
            cells.setdefault(name, set()).add(index)
    for name, found in cells.items():
        value = card.fields.get(name)
        if isinstance(value, list) and value and found >= set(range(len(value))):
            whole.add(name)
    kept = [cell_entry(n, i) for n, found in cells.items() if n not in whole for i in found]
    card.provisional_fields = sorted([*whole, *kept], key=_entry_order)


def _entry_order(entry: str) -> tuple[str, int]:
    name, index = split_entry(entry)
    return name, -1 if index is None else index


def card_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Attribute and field changes between two card dicts, fields named `fields.NAME`.

    Timestamps are ignored: a diff is about what the card says.
    """

    def flat(d: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in d.items() if k not in ("fields", "created_at", "updated_at", "game")}
        out.update({f"fields.{k}": v for k, v in (d.get("fields") or {}).items()})
        if "provisional_fields" in out:
            out["provisional_fields"] = sorted(set(out["provisional_fields"] or []))
        return out

    a, b = flat(before), flat(after)
    return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


@dataclass
class CompositionRule:
    """What the component list declares: `expected` copies of the cards a rule selects."""

    game: str
    id: str
    label: str
    expected: int
    card_type: str | None = None
    query: str = ""
    parent: str | None = None
    provisional: bool = False  # a designed target, not a count the rulebook declares
    source: str = ""
    follows_deck: bool = False  # a designed target that card adds and removals move with the deck


@dataclass
class Pile:
    """Card types the rulebook shuffles together (a draw pile, a market): they must share size and back."""

    game: str
    id: str
    label: str
    card_types: list[str]
    kind: str = "draw"
    provisional: bool = False
    source: str = ""


PILE_KINDS = ("draw", "market", "deck", "supply", "other")


@dataclass
class Component:
    game: str
    slug: str
    name: str
    count: int
    name_en: str = ""
    kind: str = "other"
    provisional: bool = False
    source: str = ""
    notes: str = ""


@dataclass
class GlossaryEntry:
    game: str
    term: str
    text: str
    term_en: str = ""
    category: str = "keyword"
    source: str = ""


@dataclass
class RuleSection:
    game: str
    position: int
    kind: str
    title: str
    body: str
    title_en: str = ""
    source: str = ""

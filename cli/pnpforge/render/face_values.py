"""Card values as layout templates see them, and the templates' Jinja environment.

A provisional value reaches a template wrapped (its type keeps the value's
behaviour) so the output can carry the provisional mark after it, and a
tracker records which provisional values a region read.  The environment's
finalize prints values as cards show them (lists joined, yes/no in the
game's script).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from jinja2 import Undefined

from pnpforge.model import Card, CardType, split_entry
from pnpforge.render import text_atoms
from pnpforge.render.face_cache import LRU
from pnpforge.render.layout import Layout
from pnpforge.render.templating import sandboxed_environment

# ---- values as templates see them ------------------------------------------------------


class _PStr(str):
    pnp_prov = True


class _PInt(int):
    pnp_prov = True


class _PFloat(float):
    pnp_prov = True


class _PList(list):
    pnp_prov = True


def mark_provisional(value: Any, prov: bool) -> Any:
    """Mark a provisional value so the template output carries the sign after it."""
    if not prov or value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _PStr(value)
    if isinstance(value, int):
        return _PInt(value)
    if isinstance(value, float):
        return _PFloat(value)
    if isinstance(value, list):
        return _PList(value)
    return value


class ReadTracker:
    """Which provisional values a template read: a region showing one gets the sign."""

    def __init__(self) -> None:
        self.active = False
        self.read: set[str] = set()

    def note(self, name: str) -> None:
        if self.active:
            self.read.add(name)


class FieldsView:
    """`f.NAME` / `card.fields.NAME` in templates; a missing value is undefined (empty)."""

    def __init__(self, values: dict[str, Any], prov: set[str], tracker: ReadTracker) -> None:
        self._values, self._prov, self._tracker = values, prov, tracker
        # list fields designed cell by cell (`track[3]` entries): each such cell wears the sign
        self._cells: dict[str, set[int]] = {}
        for entry in prov:
            name, cell = split_entry(entry)
            if cell is not None:
                self._cells.setdefault(name, set()).add(cell)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._values:
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name: str) -> Any:
        if name not in self._values:
            raise KeyError(name)
        if name in self._prov:
            self._tracker.note(name)
        value = self._values[name]
        cells = self._cells.get(name)
        if cells and isinstance(value, list) and name not in self._prov:
            return [mark_provisional(item, i in cells) for i, item in enumerate(value)]
        return mark_provisional(value, name in self._prov)

    def __contains__(self, name: object) -> bool:
        return name in self._values

    def __iter__(self):
        return iter(self._values)

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self._values else default


class CardView:
    """`card` in templates: the card's attributes, provisional ones marked."""

    _PLAIN = ("id", "type", "art", "provenance", "source", "is_provisional")
    _MARKABLE = ("name", "name_en", "text", "flavor", "copies")

    def __init__(self, card: Card, prov: set[str], tracker: ReadTracker) -> None:
        self._card, self._prov, self._tracker = card, prov, tracker
        self.fields = FieldsView(card.fields, prov, tracker)

    def __getattr__(self, name: str) -> Any:
        if name in self._PLAIN:
            return getattr(self._card, name)
        if name in self._MARKABLE:
            if name in self._prov:
                self._tracker.note(name)
            return mark_provisional(getattr(self._card, name), name in self._prov)
        raise AttributeError(name)


@dataclass
class TypeVars:
    """What the template context holds for a card type, built once per type."""

    labels: dict[str, str]
    game: dict[str, Any]
    type: dict[str, Any]  # with "fields": list of FieldDef dicts
    label: Callable[[str], str]
    icon: Callable[[str], str]

    def type_copy(self) -> dict[str, Any]:
        """A fresh copy per card, as asdict gave: a template that changes it changes no
        other card."""
        t = dict(self.type)
        t["fields"] = [
            {k: (list(v) if isinstance(v, list) else v) for k, v in d.items()} for d in self.type["fields"]
        ]
        return t


@dataclass
class PlanContext:
    """Everything planning one card needs."""

    card: Card | None
    ctype: CardType
    layout: Layout
    vars: dict[str, Any]
    tracker: ReadTracker
    categories: list[str]
    measure: text_atoms.Measure
    marks_used: bool = False


ENVIRONMENTS: dict[bool, tuple[Any, Callable[[Any], str]]] = {}
COMPILED = LRU(1024)  # (zh, source, expression) -> compiled template or expression


def face_environment(zh: bool) -> tuple[Any, Callable[[Any], str]]:
    """The sandboxed Jinja2 environment (one per script: lists and yes/no differ) and its
    finalize, which prints values as cards show them and marks provisional ones."""
    if zh in ENVIRONMENTS:
        return ENVIRONMENTS[zh]

    sep = "、" if zh else ", "
    yes, no = ("是", "否") if zh else ("yes", "no")

    def plain(v: Any) -> str:
        if v is None or isinstance(v, Undefined):
            return ""
        if isinstance(v, bool):
            return yes if v else no
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        if isinstance(v, (list, tuple)):
            return sep.join(finalize(x) for x in v)  # a cell designed on its own keeps its sign
        return str(v)

    def finalize(v: Any) -> str:
        s = plain(v)
        return s + text_atoms.MARK if s and getattr(v, "pnp_prov", False) else s

    env = sandboxed_environment(finalize=finalize)
    ENVIRONMENTS[zh] = (env, finalize)
    return ENVIRONMENTS[zh]


def card_free_colour(colour: str) -> bool:
    """A colour option that resolves the same on every card (hex, palette name or empty)."""
    return "{{" not in colour and colour not in ("category", "category2")

"""Honesty follows edits: changing a rulebook value makes it the designer's.

Every write path (`cards set`, `import`, `game import`) passes each card it is
about to store through `apply_edition_rules`, inside its write transaction.
`edition_differences` compares the cards as stored with the frozen rulebook
edition, so a change made around the editor (raw SQL) is found as well.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.model import Card, cell_entry, split_entry, tidy_provisional
from pnpforge.store import edition, repo

# Values a card prints that are not type fields; an edit of one is tracked like a field's.
_PRINTED_ATTRIBUTES = ("name", "copies", "text")


def _printed_values(card: Card) -> dict[str, Any]:
    values: dict[str, Any] = {key: getattr(card, key) for key in _PRINTED_ATTRIBUTES}
    if isinstance(card.fields, dict):  # a row raw SQL broke reads leniently as its text
        values.update({f"fields.{k}": v for k, v in card.fields.items()})
    return values


def apply_edition_rules(old: Card | None, new: Card, correction: str | None = None) -> Card:
    """`new`, with every rulebook or reference value it changes marked provisional.

    With `correction` (the reason a transcription error is being fixed) the
    provenance is kept; the write path records the reason in history.  A value
    that is a field or a printed attribute (name, copies, text) joins
    `provisional_fields`; a change of card type makes the whole card
    provisional, since no field of the old type's transcription still applies.
    """
    if old is None or correction or new.provenance == "provisional":
        return new
    out = copy.deepcopy(new)
    if old.type != new.type and old.provenance != "provisional":
        out.provenance = "provisional"
        return out
    before, after = _printed_values(old), _printed_values(new)
    marked = set(out.provisional_fields)
    for key in sorted(set(before) | set(after)):
        name = key[len("fields.") :] if key.startswith("fields.") else key
        if before.get(key) == after.get(key) or old.is_value_provisional(name):
            continue
        was, now = before.get(key), after.get(key)
        if old.provisional_cells(name) and isinstance(was, list) and isinstance(now, list):
            # a list whose provenance is kept per cell: only the cells that changed become the designer's
            marked |= {cell_entry(name, i) for i in range(len(now)) if i >= len(was) or was[i] != now[i]}
            marked -= {cell_entry(name, i) for i in range(len(now), len(was))}  # cells the edit removed
        else:
            marked.add(name)
    out.provisional_fields = sorted(marked)
    tidy_provisional(out)
    return out


@dataclass(frozen=True)
class Difference:
    """A value that is no longer what the rulebook edition froze."""

    card: str
    key: str  # "copies", "name", "text", "type" or "fields.NAME"
    edition: Any
    current: Any
    when: str  # time of the edit that made the difference, "" when history lacks it

    @property
    def field(self) -> str:
        return self.key[len("fields.") :] if self.key.startswith("fields.") else self.key


def _frozen_keys(snapshot: dict[str, Any]) -> list[str]:
    """The keys of a snapshot that were rulebook or reference values when frozen."""
    if snapshot.get("provenance") not in ("rulebook", "reference"):
        return []
    entries = [split_entry(e) for e in snapshot.get("provisional_fields") or []]
    provisional = {name for name, cell in entries if cell is None}
    cells: dict[str, set[int]] = {}
    for name, cell in entries:
        if cell is not None:
            cells.setdefault(name, set()).add(cell)
    keys = [k for k in edition.ATTRIBUTES if k not in provisional and k in snapshot]
    for name, value in sorted((snapshot.get("fields") or {}).items()):
        if name in provisional:
            continue
        if name in cells and isinstance(value, list):  # only the rulebook's cells were frozen
            keys += [f"fields.{cell_entry(name, i)}" for i in range(len(value)) if i not in cells[name]]
        else:
            keys.append(f"fields.{name}")
    return keys


def _current_values(card: Card | None) -> dict[str, Any]:
    if card is None:
        return {"copies": 0}
    return {"type": card.type, "fields": card.fields, **{k: getattr(card, k) for k in _PRINTED_ATTRIBUTES}}


def edition_differences(db: sqlite_utils.Database, game: str) -> list[Difference]:
    """Every frozen value of `game` that the cards no longer hold, with when it changed."""
    entries = edition.entries(db, game)
    if not entries:
        return []
    cards = {c.id: c for c in repo.list_cards(db, game, strict=False)}
    history = edition.history_after(db, game, min(e.frozen_seq for e in entries))
    out: list[Difference] = []
    for entry in entries:
        current = _current_values(cards.get(entry.card))
        for key in _frozen_keys(entry.snapshot):
            frozen = edition.value_of(entry.snapshot, key)
            now = edition.value_of(current, key)
            if entry.card not in cards and key != "copies":
                continue
            if frozen != now:
                out.append(Difference(entry.card, key, frozen, now, _when(history, entry, key, now)))
    return out


def _when(history: list[Any], entry: edition.EditionEntry, key: str, now: Any) -> str:
    """Time of the newest edit after the freeze that changed `key` of the card."""
    found = ""
    for seq, at, card, before, after, _ in history:
        if card != entry.card or seq <= entry.frozen_seq:
            continue
        if after is None or before is None:
            found = at
        elif edition.value_of(before, key) != edition.value_of(after, key):
            found = at
    return found


@dataclass(frozen=True)
class StructureDifference:
    """A game-level value (player count, size, component, composition row, constraint, pile)
    that is no longer what the structure edition froze."""

    key: str
    edition: str  # the frozen value, shown
    current: str  # the value now, shown ("none" when it was removed)
    when: str  # " (changed …)" from the structure history, or the note that history lacks it


def structure_differences(db: sqlite_utils.Database, game: str) -> list[StructureDifference]:
    """Every frozen structural value of `game` that the game no longer holds."""
    from pnpforge.store import structure

    now = structure.current(db, game)
    changed = structure.last_change(db, game)
    out = []
    for key, frozen in structure.frozen(db, game).items():
        value = now[key].value if key in now else None
        if value == frozen.value:
            continue
        when = f" (changed {changed[key]})" if key in changed else " (changed outside recorded history)"
        out.append(StructureDifference(key, _show_json(frozen.value), _show_json(value), when))
    return out


def _show_json(value: Any) -> str:
    import json

    return "none" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)

"""What changed between two releases, or since one: added, removed and changed cards.

Only what a card prints is compared (names, copies, fields, texts, art and
the provisional marks); notes and sources are the designer's bookkeeping and
never call for a reprint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import Card, card_changes, field_names
from pnpforge.store import releases, repo

# What a card prints: every attribute but its identity and the designer's bookkeeping.
PRINTED = field_names(Card, "game", "id", "source", "notes", "created_at", "updated_at")
CURRENT = "current"  # the live cards, as the end of a comparison


@dataclass
class CardChange:
    """One changed card: each changed value as (before, after), fields named `fields.NAME`."""

    id: str
    name: str
    changes: dict[str, tuple[Any, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "changes": {k: {"before": a, "after": b} for k, (a, b) in self.changes.items()},
        }


@dataclass
class Diff:
    """Cards added, removed and changed from release `old` to `new` (`current`: the live cards)."""

    game: str
    old: str
    new: str
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    changed: list[CardChange] = field(default_factory=list)

    @property
    def reprint_ids(self) -> list[str]:
        """Cards a reprint sheet needs: the added ones and the changed ones."""
        return [c["id"] for c in self.added] + [c.id for c in self.changed]

    def is_empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def to_dict(self) -> dict[str, Any]:
        brief = [
            {"id": c["id"], "name": c.get("name", ""), "type": c.get("type", ""), "copies": c.get("copies")}
            for c in self.added
        ]
        gone = [{"id": c["id"], "name": c.get("name", ""), "type": c.get("type", "")} for c in self.removed]
        return {
            "game": self.game,
            "from": self.old,
            "to": self.new,
            "added": brief,
            "removed": gone,
            "changed": [c.to_dict() for c in self.changed],
        }


def _printed(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: snapshot.get(k) for k in PRINTED}


def compare(
    game: str, old_tag: str, new_tag: str, before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]
) -> Diff:
    """The diff between two sets of card snapshots (id -> snapshot)."""
    diff = Diff(game, old_tag, new_tag)
    for card_id, snap in after.items():
        old = before.get(card_id)
        if old is None:
            diff.added.append({"id": card_id, **snap})
            continue
        changes = card_changes(_printed(old), _printed(snap))
        if changes:
            diff.changed.append(CardChange(card_id, str(snap.get("name", "")), changes))
    diff.removed = [{"id": card_id, **snap} for card_id, snap in before.items() if card_id not in after]
    return diff


def diff_releases(
    db: sqlite_utils.Database, game: str, old_tag: str | None = None, new_tag: str | None = None
) -> Diff:
    """`pnp diff`: TAG..TAG2, TAG..now, or the last release..now."""
    repo.get_game(db, game)
    if old_tag is None:
        known = releases.list_releases(db, game)
        if not known:
            raise PnpError(f"game '{game}' has no releases yet; make one with 'pnp release {game} v0.1'")
        old_tag = known[-1].tag
    before = releases.cards_at(db, game, old_tag)
    if new_tag is None or new_tag == CURRENT:
        return compare(game, old_tag, CURRENT, before, releases.current_cards(db, game))
    return compare(game, old_tag, new_tag, before, releases.cards_at(db, game, new_tag))


def changed_since(db: sqlite_utils.Database, game: str, tag: str) -> list[str]:
    """Ids of the cards added or changed since release `tag`, in deck order."""
    diff = diff_releases(db, game, tag)
    wanted = set(diff.reprint_ids)
    return [card_id for card_id in releases.current_cards(db, game) if card_id in wanted]


def format_value(value: Any) -> str:
    """A value as the text diff shows it: lists joined with '|', text quoted when blank."""
    if isinstance(value, list):
        return "|".join(str(v) for v in value) or "[]"
    if value is None:
        return "—"
    if isinstance(value, str) and (not value or value != value.strip()):
        return repr(value)
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def text_lines(diff: Diff) -> list[str]:
    """The diff as `pnp diff` prints it."""
    lines = [
        f"{diff.game}: {diff.old} → {diff.new}: {len(diff.added)} added, {len(diff.removed)} removed, "
        f"{len(diff.changed)} changed"
    ]
    lines += [f"+ {c['id']}  {c.get('name', '')}" for c in diff.added]
    lines += [f"- {c['id']}  {c.get('name', '')}" for c in diff.removed]
    for ch in diff.changed:
        lines.append(f"~ {ch.id}  {ch.name}")
        lines += [f"    {k}: {format_value(a)} → {format_value(b)}" for k, (a, b) in ch.changes.items()]
    return lines


def reprint_query(db: sqlite_utils.Database, game: str, tag: str, query: str | None = None) -> str:
    """A search query selecting the cards changed since `tag` (and matching `query`, if given).

    `pnp print --changed-since` prints through the ordinary selection, so a
    reprint sheet gets the same sizes, backs and marks as the full print.
    """
    ids = changed_since(db, game, tag)
    if not ids:
        raise PnpError(f"no card of '{game}' was added or changed since release '{tag}'; nothing to reprint")
    selection = "(" + " or ".join(f"id:{card_id}" for card_id in ids) + ")"
    return f"{selection} ({query})" if query else selection

"""One index of a game's cards, so checking N cards costs N steps, not N².

Checking a card against "the game's other cards" used to scan every card for
a duplicate name and rebuild the id lookup per card: an 8,000-row import made
64 million comparisons.  The index keeps, per card, only what other cards
are checked against (its type, its name key and the cards it names), so a
50,000-card game costs a few megabytes; it is built once per write, inside
the write lock, and updated as the write's own cards are put in it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from pnpforge.model import Card, CardType
from pnpforge.validate.fields import validate_card
from pnpforge.validate.problem import ERROR, Problem
from pnpforge.validate.values import id_file_key, name_key


@dataclass(frozen=True, slots=True)
class _Entry:
    """What the index keeps of a card."""

    game: str
    type: str
    name: str
    key: tuple[str, str]  # (type, name key): the duplicate-name slot
    refs: tuple[tuple[str, str], ...]  # (ref field, card id it names)


class GameIndex:
    """The cards of one game by id, by name within a type, and by reference target."""

    def __init__(self, types: dict[str, CardType], cards: Iterable[Card] = ()) -> None:
        self.types = types
        self._entries: dict[str, _Entry] = {}
        self._names: dict[tuple[str, str], set[str]] = defaultdict(set)
        self._refs: dict[str, set[str]] = defaultdict(set)
        self._files: dict[str, set[str]] = defaultdict(set)  # id_file_key → ids
        for card in cards:
            self.put(card)

    # ---- keeping the index --------------------------------------------------

    def _entry(self, card: Card) -> _Entry:
        name = card.name if isinstance(card.name, str) else repr(card.name)
        ctype = self.types.get(card.type)
        refs: tuple[tuple[str, str], ...] = ()
        if ctype is not None and isinstance(card.fields, dict):
            refs = tuple(
                (f.name, v)
                for f in ctype.fields
                if f.type == "ref" and isinstance(v := card.fields.get(f.name), str)
            )
        return _Entry(card.game, card.type, name, (card.type, name_key(name)), refs)

    def put(self, card: Card) -> None:
        """Add `card`, replacing the card with its id if there is one."""
        self.remove(card.id)
        entry = self._entry(card)
        self._entries[card.id] = entry
        self._names[entry.key].add(card.id)
        if isinstance(card.id, str):
            self._files[id_file_key(card.id)].add(card.id)
        for _, target in entry.refs:
            self._refs[target].add(card.id)

    def remove(self, card_id: str) -> None:
        old = self._entries.pop(card_id, None)
        if old is None:
            return
        self._names[old.key].discard(card_id)
        if isinstance(card_id, str):
            self._files[id_file_key(card_id)].discard(card_id)
        for _, target in old.refs:
            self._refs[target].discard(card_id)

    # ---- questions ------------------------------------------------------------

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def type_of(self, card_id: str) -> str | None:
        entry = self._entries.get(card_id)
        return entry.type if entry else None

    def referrers(self, card_id: str) -> list[str]:
        """Ids of other cards whose ref fields name `card_id`, in a stable order."""
        return sorted(self._refs.get(card_id, set()) - {card_id})

    def problems(self, card: Card, type_changed: bool = False) -> list[Problem]:
        """Every card-level problem of `card` as the index holds it (put it in first).

        `type_changed` also checks the cards naming it, which only a change of type can break.
        """
        return validate_card(card, self.types.get(card.type), self.types) + self.cross_problems(
            card.id, type_changed
        )

    def cross_problems(self, card_id: str, type_changed: bool = False) -> list[Problem]:
        """The problems of a card that depend on other cards: references and duplicate names."""
        entry = self._entries.get(card_id)
        if entry is None or entry.type not in self.types:
            return []
        out = self._reference_problems(card_id, entry) + self._duplicate_problems(card_id, entry)
        out += self._file_name_problems(card_id, entry)
        if type_changed:
            out += self._incoming_problems(card_id, entry)
        return out

    def _ref_type(self, card_type: str, field_name: str) -> str | None:
        ctype = self.types.get(card_type)
        fd = ctype.field(field_name) if ctype else None
        return fd.ref_type if fd else None

    def _reference_problems(self, card_id: str, entry: _Entry) -> list[Problem]:
        """A `ref` field must name a card of the game (of `ref_type` when given)."""
        out = []
        for field_name, target_id in entry.refs:
            target = self._entries.get(target_id)
            wanted = self._ref_type(entry.type, field_name)
            if target is None:
                message = f"names card '{target_id}', which is not in the game"
            elif wanted and target.type != wanted:
                message = f"names '{target_id}', a {target.type} card; expected a {wanted} card"
            else:
                continue
            out.append(Problem(ERROR, entry.game, card_id, field_name, message))
        return out

    def _duplicate_problems(self, card_id: str, entry: _Entry) -> list[Problem]:
        """Two cards of one type may not share a name (compared in NFC, trimmed, case-folded)."""
        clash = sorted(self._names.get(entry.key, set()) - {card_id})
        if not clash:
            return []
        return [
            Problem(
                ERROR,
                entry.game,
                card_id,
                "name",
                f"name '{entry.name}' is already used by {', '.join(clash)} of the same type",
            )
        ]

    def _file_name_problems(self, card_id: str, entry: _Entry) -> list[Problem]:
        """Two ids of a game may not name the same file on a case-insensitive file system
        (Windows, macOS): `h-01` beside `H-01` would overwrite each other's images."""
        if not isinstance(card_id, str):
            return []
        clash = sorted(self._files.get(id_file_key(card_id), set()) - {card_id})
        if not clash:
            return []
        return [
            Problem(
                ERROR,
                entry.game,
                card_id,
                "id",
                f"id '{card_id}' differs from {', '.join(clash)} only in case: they would be "
                f"one file name on Windows and macOS",
            )
        ]

    def _incoming_problems(self, card_id: str, entry: _Entry) -> list[Problem]:
        """A card that changes type must still be what the cards naming it expect."""
        out = []
        for user_id in self.referrers(card_id):
            user = self._entries[user_id]
            for field_name, target in user.refs:
                wanted = self._ref_type(user.type, field_name)
                if target == card_id and wanted and entry.type != wanted:
                    out.append(
                        Problem(
                            ERROR,
                            entry.game,
                            card_id,
                            "type",
                            f"card {user_id} names it in '{field_name}', which needs a {wanted} card",
                        )
                    )
        return out

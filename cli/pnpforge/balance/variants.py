"""Variants of a deck: the edits an experiment tries, applied to an in-memory copy.

`--vary OB-12.difficulty=6,8,10` sets one card's field; `--vary obligor.score=*0.8,*1.2` scales a
field on every card of a type; several `--vary` make a grid (every combination); `--compare TAG`
puts the cards of a release in place of the current ones.  A variant is plain data (picklable, so
a worker process or a Ray task rebuilds it), and it is applied to a copy of the database held in
memory through the same validated edit path as `pnp cards set`: a value the field does not allow
is refused with the card and field named, and the database file is never opened for writing.
"""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError

MAX_VARIANTS = 64


@dataclass(frozen=True)
class Vary:
    """One `--vary` option: a target (card id or card type), a field, and the values to try."""

    target: str
    field: str
    values: tuple[str, ...]  # each a value as text, or '*F' to multiply the current value
    whole_type: bool

    @property
    def label(self) -> str:
        return f"{self.target}.{self.field}"


@dataclass(frozen=True)
class Variant:
    """A named deck: the baseline (no edits), a grid point, or a release."""

    name: str
    settings: tuple[tuple[str, str], ...] = ()  # (vary label, value text) per --vary
    release: str | None = None

    @property
    def is_baseline(self) -> bool:
        return not self.settings and self.release is None


BASELINE = Variant("baseline")


def parse_vary(text: str, card_ids: set[str], type_slugs: set[str]) -> Vary:
    """`ID.FIELD=V1,V2` or `TYPE.FIELD=*0.8,*1.2`, checked against the game's cards and types."""
    target_field, sep, values_text = text.partition("=")
    target, dot, field_name = target_field.rpartition(".")
    if not sep or not dot or not target or not field_name:
        raise PnpError(f"--vary {text!r}: expected ID.FIELD=V1,V2 or TYPE.FIELD=*0.8,*1.2")
    values = tuple(v.strip() for v in values_text.split(",") if v.strip())
    if not values:
        raise PnpError(f"--vary {text!r}: no values after '='")
    if len(set(values)) != len(values):
        raise PnpError(f"--vary {text!r}: a value is repeated")
    if target in card_ids:
        return Vary(target, field_name, values, whole_type=False)
    if target in type_slugs:
        return Vary(target, field_name, values, whole_type=True)
    raise PnpError(f"--vary {text!r}: '{target}' is neither a card id nor a card type of this game")


def variant_grid(varies: list[Vary], compare: str | None) -> list[Variant]:
    """The baseline, every combination of the --vary values, then the release compared with."""
    out = [BASELINE]
    if varies:
        for combo in itertools.product(*(v.values for v in varies)):
            settings = tuple((v.label, value) for v, value in zip(varies, combo, strict=True))
            out.append(Variant(", ".join(f"{label}={value}" for label, value in settings), settings))
    if compare is not None:
        out.append(Variant(f"release {compare}", release=compare))
    if len(out) > MAX_VARIANTS:
        raise PnpError(f"{len(out)} variants: at most {MAX_VARIANTS} (fewer --vary values)")
    return out


def snapshot(db: sqlite_utils.Database) -> bytes:
    """The whole database as bytes: what every worker deserialises into its own memory."""
    return db.conn.serialize()


def in_memory(data: bytes) -> sqlite_utils.Database:
    """A private writable database in memory holding `data` (the file stays untouched)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.deserialize(data)
    conn.execute("PRAGMA foreign_keys=ON")
    return sqlite_utils.Database(conn)


def _scaled(current: Any, factor_text: str, where: str) -> str:
    try:
        factor = float(factor_text)
    except ValueError:
        raise PnpError(f"--vary {where}: '*{factor_text}' is not a number") from None
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise PnpError(f"--vary {where}: '*{factor_text}' needs a number, the value is {current!r}")
    return str(round(current * factor))  # integer fields: round half to even


def _value_text(card: Any, field_name: str, value: str, where: str) -> str:
    if not value.startswith("*"):
        return value
    current = card.copies if field_name == "copies" else (card.fields or {}).get(field_name)
    return _scaled(current, value[1:], where)


def apply_variant(db: sqlite_utils.Database, slug: str, varies: list[Vary], variant: Variant) -> None:
    """Edit the in-memory database `db` into `variant` (validated like `pnp cards set`)."""
    from pnpforge.edit import set_card
    from pnpforge.store import repo

    by_label = {v.label: v for v in varies}
    for label, value in variant.settings:
        vary = by_label[label]
        cards = (
            [c for c in repo.list_cards(db, slug) if c.type == vary.target]
            if vary.whole_type
            else [repo.get_card(db, slug, vary.target)]
        )
        for card in cards:
            text = _value_text(card, vary.field, value, f"{label}={value} on card {card.id}")
            set_card(db, slug, card.id, {vary.field: text})
    if variant.release is not None:
        _to_release(db, slug, variant.release)


def _to_release(db: sqlite_utils.Database, slug: str, tag: str) -> None:
    """Put the cards a release froze in place of the current ones (added, changed and removed)."""
    from pnpforge.model import Card
    from pnpforge.store import releases, repo
    from pnpforge.store.db import transaction

    frozen = releases.cards_at(db, slug, tag)
    current = {c.id: c for c in repo.list_cards(db, slug, strict=False)}
    keys = set(Card.__dataclass_fields__) - {"game", "created_at", "updated_at"}
    with transaction(db) as conn:
        for card_id in current.keys() - frozen.keys():
            repo.delete_card(conn, slug, card_id)
        for card_id, snap in frozen.items():
            card = Card(game=slug, **{k: v for k, v in snap.items() if k in keys})
            if card_id in current:
                repo.update_card(conn, card)
            else:
                repo.insert_card(conn, card)

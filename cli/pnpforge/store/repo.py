"""Reading and writing model objects: cards, types, games and their rule rows.

Writers take a connection already inside a transaction (see db.transaction)
and do no validation: that is the caller's job, one layer up.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.model import (
    ID_PATTERN,
    MAX_COPIES,
    Card,
    CardType,
    Component,
    CompositionRule,
    FieldDef,
    Game,
    GlossaryEntry,
    RuleSection,
    field_names,
)
from pnpforge.store.db import connection

_CARD_COLS = field_names(Card)
INSERT_BATCH = 200  # new cards per multi-row INSERT (SQLite allows 32,766 parameters a statement)
CARD_SELECT = "SELECT " + ", ".join(f"c.{c}" for c in _CARD_COLS) + " FROM cards c"


def _rows(db: sqlite_utils.Database, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
    cur = getattr(db, "conn", db).execute(sql, tuple(params))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=False)) for r in cur.fetchall()]


Record = TypeVar("Record")


def _game_records(
    db: sqlite_utils.Database, cls: type[Record], table: str, order: str, game: str
) -> list[Record]:
    """A per-game table's rows as `cls`: one column per dataclass field, 0/1 flags read as bool.

    The deck-data tables (composition, components, glossary, rules) name their
    columns after the model's fields, so one reader serves them all.
    """
    spec: type = cls  # a dataclass: its fields name the columns
    make: Callable[..., Record] = cls  # called with those fields as keyword arguments
    names = field_names(spec, "game")
    flags = {f.name for f in dataclasses.fields(spec) if f.type == "bool"}
    columns = ", ".join(f'"{n}"' for n in names)
    rows = _rows(db, f"SELECT {columns} FROM {table} WHERE game = ? ORDER BY {order}", [game])
    return [make(game=game, **{k: bool(v) if k in flags else v for k, v in r.items()}) for r in rows]


# ---- games -----------------------------------------------------------------


def list_games(db: sqlite_utils.Database) -> list[Game]:
    return [
        Game(**r)
        for r in _rows(
            db,
            "SELECT slug, title, title_en, language, players_min, "
            "players_max, play_time, version, rulebook, notes "
            "FROM games ORDER BY slug",
        )
    ]


def game_exists(db: sqlite_utils.Database, slug: str) -> bool:
    return connection(db).execute("SELECT 1 FROM games WHERE slug = ?", [slug]).fetchone() is not None


def get_game(db: sqlite_utils.Database, slug: str) -> Game:
    for g in list_games(db):
        if g.slug == slug:
            return g
    known = ", ".join(g.slug for g in list_games(db)) or "none yet"
    raise PnpError(f"unknown game '{slug}' (games in this database: {known})")


# ---- card types --------------------------------------------------------------


def card_types(db: sqlite_utils.Database, game: str) -> list[CardType]:
    fields: dict[str, list[FieldDef]] = {}
    for r in _rows(db, "SELECT * FROM field_defs WHERE game = ? ORDER BY card_type, position, name", [game]):
        fields.setdefault(r["card_type"], []).append(
            FieldDef(
                name=r["name"],
                type=r["type"],
                label=r["label"],
                required=bool(r["required"]),
                min=r["min"],
                max=r["max"],
                allowed=json.loads(r["allowed"]) if r["allowed"] is not None else None,
                ref_type=r["ref_type"],
                help=r["help"],
            )
        )
    out = []
    for r in _rows(db, "SELECT * FROM card_types WHERE game = ? ORDER BY position, slug", [game]):
        out.append(
            CardType(
                game=game,
                slug=r["slug"],
                name=r["name"],
                name_en=r["name_en"],
                width_mm=r["width_mm"],
                height_mm=r["height_mm"],
                size_provisional=bool(r["size_provisional"]),
                role=r["role"],
                back=json.loads(r["back"]),
                fields=fields.get(r["slug"], []),
                notes=r["notes"],
            )
        )
    return out


def get_card_type(db: sqlite_utils.Database, game: str, slug: str) -> CardType:
    types = card_types(db, game)
    for t in types:
        if t.slug == slug:
            return t
    raise PnpError(
        f"game '{game}' has no card type '{slug}' (allowed: {', '.join(t.slug for t in types) or 'none'})"
    )


# ---- cards -------------------------------------------------------------------


def card_from_row(r: dict[str, Any] | sqlite3.Row | tuple[Any, ...], strict: bool = True) -> Card:
    """A Card from a row in CARD_SELECT's column order (or a dict); hot on the search path.

    Strict (the default) refuses a row in a shape pnpforge never writes (copies
    'abc', fields that are not an object, an id outside the grammar), so the
    printer and the checker never meet one; `pnp validate` reads leniently and
    reports such rows by id.
    """
    card = Card(*([r[c] for c in _CARD_COLS] if isinstance(r, dict) else r))  # columns in field order
    card.fields = _lenient_loads(card.fields)
    card.provisional_fields = _lenient_loads(card.provisional_fields)
    game, id_, name, copies = card.game, card.id, card.name, card.copies
    if strict and (
        type(copies) is not int
        or not 0 <= copies <= MAX_COPIES
        or type(card.fields) is not dict
        or type(card.provisional_fields) is not list
        or type(name) is not str
        or type(id_) is not str
        or not _ID_RE.fullmatch(id_)
        or ".." in id_
    ):
        shown = id_ if type(id_) is str and id_.isprintable() else repr(id_)
        raise PnpError(
            f"card {game}/{shown} holds values pnpforge never writes (changed with another "
            f"tool?); run 'pnp validate {game}' to see them, then fix them with 'pnp cards set'"
        )
    return card


_loads = json.JSONDecoder().decode
_ID_RE = re.compile(ID_PATTERN)


def _lenient_loads(text: Any) -> Any:
    """JSON text decoded; anything that is not valid JSON text comes back as it is."""
    try:
        return _loads(text)
    except (TypeError, ValueError, RecursionError):
        return text


def list_cards(
    db: sqlite_utils.Database,
    game: str,
    card_type: str | None = None,
    strict: bool = True,
) -> list[Card]:
    sql = CARD_SELECT + " WHERE c.game = ?"
    params: list[Any] = [game]
    if card_type:
        sql += " AND c.type = ?"
        params.append(card_type)
    sql += " ORDER BY c.position, c.pk"
    cur = getattr(db, "conn", db).execute(sql, params)
    return [card_from_row(r, strict) for r in cur]


def iter_cards(db: sqlite_utils.Database, game: str, strict: bool = True) -> Iterator[Card]:
    """The game's cards one at a time, in deck order: memory stays flat for any deck size."""
    cur = getattr(db, "conn", db).execute(CARD_SELECT + " WHERE c.game = ? ORDER BY c.position, c.pk", [game])
    for row in cur:
        yield card_from_row(row, strict)


def find_card(db: sqlite_utils.Database, game: str, card_id: str, strict: bool = True) -> Card | None:
    rows = _rows(db, CARD_SELECT + " WHERE c.game = ? AND c.id = ?", [game, card_id])
    return card_from_row(rows[0], strict) if rows else None


def get_card(db: sqlite_utils.Database, game: str, card_id: str, strict: bool = True) -> Card:
    card = find_card(db, game, card_id, strict)
    if card is None:
        raise PnpError(f"game '{game}' has no card '{card_id}'")
    return card


def with_list_defaults(card: Card, ctype: CardType) -> Card:
    """A list field with no values is stored as [], never left out.

    One spelling per meaning keeps CSV round trips exact (an empty cell reads back as [])
    and lets templates and engines iterate without a presence check.
    """
    if not isinstance(card.fields, dict):
        return card  # a malformed card: validation names it
    for f in ctype.fields:
        if f.type == "list" and card.fields.get(f.name) is None:
            card.fields[f.name] = []
    return card


def _card_values(card: Card) -> dict[str, Any]:
    if (
        not isinstance(card.fields, dict)
        or not isinstance(card.provisional_fields, list)
        or not all(isinstance(p, str) for p in card.provisional_fields)
    ):
        raise PnpError(f"card {card.id}: fields must be an object and provisional_fields a list of names")
    return {
        "game": card.game,
        "type": card.type,
        "id": card.id,
        "name": card.name,
        "name_en": card.name_en,
        "copies": card.copies,
        "fields": json.dumps(card.fields, ensure_ascii=False, sort_keys=True),
        "text": card.text,
        "flavor": card.flavor,
        "art": card.art,
        "provenance": card.provenance,
        "source": card.source,
        "provisional_fields": json.dumps(sorted(set(card.provisional_fields)), ensure_ascii=False),
        "notes": card.notes,
    }


def next_position(conn: sqlite3.Connection, game: str) -> int:
    """The deck position after the game's last card (one index probe with migration 2's index)."""
    return int(
        conn.execute("SELECT coalesce(max(position), 0) + 1 FROM cards WHERE game = ?", [game]).fetchone()[0]
    )


def insert_card(conn: sqlite3.Connection, card: Card, position: int | None = None) -> None:
    """Insert `card` at `position`, or after the game's last card."""
    vals = _card_values(card)
    vals["position"] = next_position(conn, card.game) if position is None else position
    cols = ", ".join(vals)
    _write(
        conn, card, f"INSERT INTO cards ({cols}) VALUES ({', '.join('?' * len(vals))})", list(vals.values())
    )


def insert_cards(db: sqlite_utils.Database, placed: list[tuple[Card, int]]) -> None:
    """Insert new cards at their positions in bulk (sqlite-utils' multi-row inserts).

    Inside a write transaction the batch is a savepoint: when the schema refuses a
    row, none of the batch stays and PnpError says so (insert one by one to name it).
    """
    rows = [{**_card_values(card), "position": position} for card, position in placed]
    try:
        with db.atomic():  # one savepoint over the batch: sqlite-utils splits it into statements
            db.table("cards").insert_all(rows, batch_size=INSERT_BATCH)
    except (sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.ProgrammingError, OverflowError) as exc:
        raise PnpError(f"the database refused one of {len(rows)} new cards: {exc}") from None


def _write(conn: sqlite3.Connection, card: Card, sql: str, params: list[Any]) -> None:
    """Run a card write; the schema's refusal becomes a PnpError naming the card."""
    try:
        conn.execute(sql, params)
    except sqlite3.IntegrityError as exc:
        raise PnpError(f"card {card.game}/{card.id}: the database refused it: {exc}") from None
    except (sqlite3.InterfaceError, sqlite3.ProgrammingError, ValueError, OverflowError) as exc:
        raise PnpError(f"card {card.game}/{card.id}: cannot store it: {exc}") from None


def update_card(conn: sqlite3.Connection, card: Card, old_id: str | None = None) -> None:
    vals = _card_values(card)
    sets = ", ".join(f"{k} = ?" for k in vals) + ", updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now')"
    _write(
        conn,
        card,
        f"UPDATE cards SET {sets} WHERE game = ? AND id = ?",
        [*vals.values(), card.game, old_id or card.id],
    )


def delete_card(conn: sqlite3.Connection, game: str, card_id: str) -> None:
    conn.execute("DELETE FROM cards WHERE game = ? AND id = ?", [game, card_id])


# ---- deck data ---------------------------------------------------------------


def composition(db: sqlite_utils.Database, game: str) -> list[CompositionRule]:
    return _game_records(db, CompositionRule, "composition", "position, id", game)


def components(db: sqlite_utils.Database, game: str) -> list[Component]:
    return _game_records(db, Component, "components", "position, slug", game)


def glossary(db: sqlite_utils.Database, game: str) -> list[GlossaryEntry]:
    return _game_records(db, GlossaryEntry, "glossary", "position, term", game)


def rule_sections(db: sqlite_utils.Database, game: str) -> list[RuleSection]:
    return _game_records(db, RuleSection, "rule_sections", "position", game)


def history(db: sqlite_utils.Database, game: str, card_id: str | None = None) -> list[dict[str, Any]]:
    sql = "SELECT seq, at, op, game, card, before, after FROM history WHERE game = ?"
    params: list[Any] = [game]
    if card_id:
        sql += " AND card = ?"
        params.append(card_id)
    rows = _rows(db, sql + " ORDER BY seq", params)
    for r in rows:
        r["before"] = json.loads(r["before"]) if r["before"] else None
        r["after"] = json.loads(r["after"]) if r["after"] else None
    return rows

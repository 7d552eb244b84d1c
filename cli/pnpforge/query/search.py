"""Running a query against cards.db: the two calls commands and validators use."""

from __future__ import annotations

from collections.abc import Iterable

import sqlite_utils

from pnpforge.model import Card, CardType, FieldDef
from pnpforge.query.compile import compile_query
from pnpforge.store import repo

_ORDER = " ORDER BY c.game, c.position, c.pk"


def field_defs_of(types: Iterable[CardType]) -> dict[str, list[FieldDef]]:
    """Field name -> its definitions across the given card types (what compile_query takes)."""
    defs: dict[str, list[FieldDef]] = {}
    for t in types:
        for f in t.fields:
            defs.setdefault(f.name, []).append(f)
    return defs


def type_aliases_of(types: Iterable[CardType]) -> dict[str, str]:
    """Lower-cased slug, name and English name of each card type -> its slug."""
    aliases: dict[str, str] = {}
    for t in types:
        for key in (t.name_en, t.name, t.slug):  # slug last: it wins a clash
            if key:
                aliases[key.casefold()] = t.slug
    return aliases


def _compile(db: sqlite_utils.Database, games: list[str], text: str) -> tuple[str, list]:
    types = [t for g in games for t in repo.card_types(db, g)]
    return compile_query(text, field_defs_of(types), type_aliases=type_aliases_of(types))


def search(db: sqlite_utils.Database, game: str | None, text: str) -> list[Card]:
    """Cards of `game` (every game when None) matching the query, in deck order."""
    if game is not None:
        games = [repo.get_game(db, game).slug]  # unknown game -> PnpError naming the known ones
    else:
        games = [g.slug for g in repo.list_games(db)]
    where, params = _compile(db, games, text)
    if game is not None:
        sql = repo.CARD_SELECT + f" WHERE (c.game = ?) AND {where}" + _ORDER
        params = [game, *params]
    else:
        sql = repo.CARD_SELECT + f" WHERE {where}" + _ORDER
    return [repo.card_from_row(r) for r in db.conn.execute(sql, params).fetchall()]


def count_copies(db: sqlite_utils.Database, game: str, card_type: str | None, text: str) -> int:
    """Total copies of `game`'s cards (of `card_type`, when given) matching the query.

    Composition rules use this; an empty query counts every card of the type.
    """
    where, params = _compile(db, [game], text)
    scope, head = "c.game = ?", [game]
    if card_type is not None:
        scope, head = "c.game = ? AND c.type = ?", [game, card_type]
    sql = f"SELECT coalesce(sum(c.copies), 0) FROM cards c WHERE {scope} AND {where}"
    return int(db.conn.execute(sql, [*head, *params]).fetchone()[0])

"""Running a query against cards.db: the two calls commands and validators use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlite_utils

from pnpforge.model import Card, CardType, FieldDef
from pnpforge.query.compile import compile_query, fts_phrase, ranked_words
from pnpforge.query.parser import Query, parse
from pnpforge.store import repo
from pnpforge.store.schema_search import FTS_TABLE, FTS_WEIGHTS

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


def _compile(db: sqlite_utils.Database, games: list[str], query: Query | str) -> tuple[str, list[Any]]:
    types = [t for g in games for t in repo.card_types(db, g)]
    return compile_query(query, field_defs_of(types), type_aliases=type_aliases_of(types))


def _relevance(query: Query) -> tuple[str, list[Any]]:
    """A join giving each card its bm25 score for the query's words (lower is better), or none."""
    words = ranked_words(query)
    if not words:
        return "", []
    weights = ", ".join(f"{w:g}" for w in FTS_WEIGHTS)
    join = (
        f" LEFT JOIN (SELECT rowid AS hit, bm25({FTS_TABLE}, {weights}) AS score FROM {FTS_TABLE}"
        f" WHERE {FTS_TABLE} MATCH ?) f ON f.hit = c.pk"
    )
    return join, [" OR ".join(fts_phrase(w) for w in words)]


def search(db: sqlite_utils.Database, game: str | None, text: str) -> list[Card]:
    """Cards of `game` (every game when None) matching the query.

    A query with words ranks by relevance (full-text bm25: a word in the name first);
    otherwise, and among equals, the cards come in deck order.
    """
    if game is not None:
        games = [repo.get_game(db, game).slug]  # unknown game -> PnpError naming the known ones
    else:
        games = [g.slug for g in repo.list_games(db)]
    query = parse(text)
    where, params = _compile(db, games, query)
    join, join_params = _relevance(query)
    order = (" ORDER BY f.score IS NULL, f.score, " + _ORDER.removeprefix(" ORDER BY ")) if join else _ORDER
    scope = "(c.game = ?) AND " if game is not None else ""
    sql = repo.CARD_SELECT + join + f" WHERE {scope}{where}" + order
    params = [*join_params, *([game] if game is not None else []), *params]
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

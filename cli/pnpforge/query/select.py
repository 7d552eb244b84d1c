"""One way to select "cards of type T matching query Q", with counts.

Print, helper cards, the rulebook summary, deck composition and the checker
all ask the same question of cards.db; they ask it here, so a query means the
same cards everywhere and the SQL stays in `query/` and `store/`.  A
`Selection` is compiled once (unknown game, card type or bad query fail
then, as a PnpError) and can be read as a list, streamed from a cursor (the
printer's way: memory does not grow with the deck) or counted per type.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.model import Card
from pnpforge.query.compile import compile_query
from pnpforge.query.search import field_defs_of, type_aliases_of
from pnpforge.store import repo

_DECK_ORDER = " ORDER BY c.position, c.pk"
NO_EDIT_DATE = "2000-01-01T00:00:00Z"  # a game with no cards still stamps a fixed date


@dataclass(frozen=True)
class Selection:
    """A compiled WHERE clause over alias `c` for one game, an optional type and query."""

    game: str
    card_type: str | None
    query: str
    where: str
    params: tuple[Any, ...]


@dataclass(frozen=True)
class TypeTally:
    """What a selection holds of one card type: cards, copies, and cards with 0 copies."""

    cards: int
    copies: int
    zero_copies: int


def select(
    db: sqlite_utils.Database, game: str, card_type: str | None = None, query: str | None = None
) -> Selection:
    """Compile a selection; an unknown game or type, or a bad query, raises PnpError now."""
    repo.get_game(db, game)
    clauses, params = ["c.game = ?"], [game]
    if card_type:
        repo.get_card_type(db, game, card_type)
        clauses.append("c.type = ?")
        params.append(card_type)
    text = (query or "").strip()
    if text:
        types = repo.card_types(db, game)
        where, qparams = compile_query(text, field_defs_of(types), type_aliases=type_aliases_of(types))
        clauses.append(f"({where})")
        params += list(qparams)
    return Selection(game, card_type or None, text, " AND ".join(clauses), tuple(params))


def _restricted(sel: Selection, types: Sequence[str] | None) -> tuple[str, list[Any]]:
    """The selection's WHERE narrowed to some card types (all when None)."""
    if types is None:
        return sel.where, list(sel.params)
    marks = ", ".join("?" * len(types))
    return f"{sel.where} AND c.type IN ({marks})", [*sel.params, *types]


def iter_cards(
    db: sqlite_utils.Database, sel: Selection, types: Sequence[str] | None = None
) -> Iterator[Card]:
    """The selected cards (of some types, when given) in deck order, one row at a time."""
    where, params = _restricted(sel, types)
    for row in db.conn.execute(f"{repo.CARD_SELECT} WHERE {where}{_DECK_ORDER}", params):
        yield repo.card_from_row(row)


def iter_as_stored(db: sqlite_utils.Database, sel: Selection) -> Iterator[Card]:
    """The selected cards as stored, read leniently: for the checks that name a broken row."""
    for row in db.conn.execute(f"{repo.CARD_SELECT} WHERE {sel.where}{_DECK_ORDER}", list(sel.params)):
        yield repo.card_from_row(row, strict=False)


def cards(db: sqlite_utils.Database, sel: Selection, types: Sequence[str] | None = None) -> list[Card]:
    """The selected cards in deck order, as a list."""
    return list(iter_cards(db, sel, types))


def tally(db: sqlite_utils.Database, sel: Selection) -> dict[str, TypeTally]:
    """Per card type slug: how many cards and copies the selection holds (types it misses are absent)."""
    rows = db.conn.execute(
        "SELECT c.type, count(*), coalesce(sum(c.copies), 0), coalesce(sum(c.copies = 0), 0) "
        f"FROM cards c WHERE {sel.where} GROUP BY c.type",
        list(sel.params),
    ).fetchall()
    return {slug: TypeTally(int(n), int(copies), int(zero)) for slug, n, copies, zero in rows}


def copies(db: sqlite_utils.Database, sel: Selection) -> int:
    """Total copies of the selected cards (what a composition rule counts)."""
    return sum(t.copies for t in tally(db, sel).values())


def copies_per_type(db: sqlite_utils.Database, game: str) -> dict[str, int]:
    """Card type slug -> total copies of the game's cards of that type."""
    return {slug: t.copies for slug, t in tally(db, select(db, game)).items()}


def stamp_date(db: sqlite_utils.Database, game: str) -> str:
    """The latest card edit of the game (ISO timestamp): the date every document prints.

    Never today's date, so the same database gives the same bytes on a reprint.
    """
    row = db.conn.execute("SELECT max(updated_at) FROM cards WHERE game = ?", [game]).fetchone()
    return row[0] if row and row[0] else NO_EDIT_DATE

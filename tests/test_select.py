"""The one selection API (query/select.py): cards of a type matching a query, with counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpforge.errors import PnpError
from pnpforge.query import search
from pnpforge.query import select as sel
from pnpforge.store.db import open_db
from pnpforge.validate.deck import composition


def test_selection_is_the_search_language_narrowed_to_a_type(mini_db: Path) -> None:
    db = open_db(mini_db)
    every = sel.cards(db, sel.select(db, "mini"))
    assert [c.id for c in every] == ["H-01", "H-02", "S-01"]
    heroes = sel.cards(db, sel.select(db, "mini", "hero", "power>=5"))
    assert [c.id for c in heroes] == ["H-01"]
    assert [c.id for c in sel.cards(db, sel.select(db, "mini", None, "power>=5 or cost>1"))] == [
        c.id for c in search(db, "mini", "power>=5 or cost>1")
    ]
    # streaming gives the same cards in the same order, narrowed to some types on demand
    everything = sel.select(db, "mini")
    assert [c.id for c in sel.iter_cards(db, everything, ["spell"])] == ["S-01"]


def test_tally_counts_cards_copies_and_zero_copies_per_type(mini_db: Path) -> None:
    db = open_db(mini_db)
    tally = sel.tally(db, sel.select(db, "mini"))
    assert tally["hero"] == sel.TypeTally(cards=2, copies=3, zero_copies=0)
    assert tally["spell"] == sel.TypeTally(cards=1, copies=3, zero_copies=0)
    assert sel.copies(db, sel.select(db, "mini", "hero", "element:水")) == 1
    assert sel.copies_per_type(db, "mini") == {"hero": 3, "spell": 3}
    assert sel.tally(db, sel.select(db, "mini", None, "power>100")) == {}


def test_composition_counts_through_the_selection(mini_db: Path) -> None:
    db = open_db(mini_db)
    results = {r.rule: r for r in composition(db, "mini")}
    assert results["heroes"].actual == 3 and results["heroes"].cards == ["H-01", "H-02"]
    assert results["spells"].actual == 3 and results["spells"].ok


@pytest.mark.parametrize(
    "args, words",
    [
        (("nope", None, None), ["nope"]),
        (("mini", "villain", None), ["villain"]),
        (("mini", None, "power>>3"), []),
    ],
)
def test_a_bad_selection_is_refused_when_compiled(mini_db: Path, args: tuple, words: list[str]) -> None:
    db = open_db(mini_db)
    with pytest.raises(PnpError) as err:
        sel.select(db, *args)
    assert all(w in str(err.value) for w in words)


def test_stamp_date_is_the_latest_card_edit_never_today(mini_db: Path) -> None:
    db = open_db(mini_db)
    latest = max(row[0] for row in db.conn.execute("SELECT updated_at FROM cards WHERE game = 'mini'"))
    assert sel.stamp_date(db, "mini") == latest
    db.conn.execute("DELETE FROM cards WHERE game = 'mini'")
    assert sel.stamp_date(db, "mini") == sel.NO_EDIT_DATE

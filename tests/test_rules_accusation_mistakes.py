"""Deck mistakes the Accusation engine must make visible: each is a realistic edit of a copy of
the shipped cards.db, some written around the editor with raw SQL as a careless script would."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter

import pytest

from pnpforge.edit import set_card
from pnpforge.errors import PnpError
from pnpforge.rules.agents import seat_agents
from pnpforge.rules.games.accusation import make_rules
from pnpforge.rules.kit import DeckError, load_game
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db


def raw_set(path, card: str, field: str, value) -> None:
    """Write one field straight into the database file, bypassing validation."""
    con = sqlite3.connect(path)
    con.execute(
        "UPDATE cards SET fields = json_set(fields, '$.' || ?, json(?)) WHERE game = 'accusation' AND id = ?",
        (field, json.dumps(value, ensure_ascii=False), card),
    )
    con.commit()
    con.close()


def never_used(db, games: int = 100) -> list[str]:
    """Cards with copies > 0 that no game of a default-like run used (mixed agents rotating)."""
    rules = make_rules(load_game(db, "accusation"), {})
    used: Counter[str] = Counter()
    for index in range(games):
        result = play_game(rules, 2, 1 + index, seat_agents("mixed", 2, index))
        assert result.completed, result.failure
        used.update(result.used)
    return sorted(c.id for c in repo.list_cards(db, "accusation") if c.copies > 0 and not used[c.id])


def test_shipped_deck_has_no_never_used_card(shipped_db):
    assert never_used(open_db(shipped_db)) == []


def test_a_card_outside_every_cult_is_never_used(shipped_db):
    """A typo in the cult (simplified 团 for 團) takes the card out of every seat's deck."""
    raw_set(shipped_db, "cro12", "cult", "鴉教团")
    assert never_used(open_db(shipped_db), games=30) == ["cro12"]


@pytest.mark.parametrize(
    ("card", "field", "value", "message"),
    [
        ("cro05", "volume", "三", "card cro05: field 'volume' must be an integer, got '三'"),
        ("fox10", "guard", -2, "card fox10: field 'guard' is -2, below the minimum 0"),
        ("cro02", "calamity", "3點", "card cro02: field 'calamity' must be an integer"),
        ("fox08", "garrison", -1, "card fox08: field 'garrison' is -1, below the minimum 0"),
    ],
)
def test_values_the_engine_cannot_use_are_deck_errors(shipped_db, card, field, value, message):
    raw_set(shipped_db, card, field, value)
    with pytest.raises(DeckError, match=message):
        make_rules(load_game(open_db(shipped_db), "accusation"), {})


def test_a_follower_without_volume_is_a_deck_error(shipped_db):
    con = sqlite3.connect(shipped_db)
    con.execute(
        "UPDATE cards SET fields = json_remove(fields, '$.volume') WHERE game = 'accusation' AND id = 'cro05'"
    )
    con.commit()
    con.close()
    with pytest.raises(DeckError, match="card cro05: field 'volume' is missing"):
        make_rules(load_game(open_db(shipped_db), "accusation"), {})


def test_a_cult_that_lost_its_rituals_is_refused(shipped_db):
    db = open_db(shipped_db)
    for ritual in ("fox02", "fox03"):
        set_card(db, "accusation", ritual, {"copies": 0})
    with pytest.raises(PnpError, match="cult '白狐神社' has 1 ritual card"):
        make_rules(load_game(db, "accusation"), {})
    make_rules(load_game(db, "accusation"), {"cults": "鴉教團,鴉教團"})  # the other cult alone still plays


def test_a_cult_without_cards_is_refused(shipped_db):
    db = open_db(shipped_db)
    for card in repo.list_cards(db, "accusation"):
        if card.fields.get("cult") == "白狐神社":
            set_card(db, "accusation", card.id, {"copies": 0})
    with pytest.raises(PnpError, match="cult '白狐神社' has no cards with copies > 0"):
        make_rules(load_game(db, "accusation"), {})


def test_an_effect_typo_is_reported_not_ignored(shipped_db):
    db = open_db(shipped_db)
    set_card(db, "accusation", "cro07", {"effect": "chant: draw 1; each_discard1"})
    assert [(u.card_id, u.effect) for u in make_rules(load_game(db, "accusation"), {}).unknown_effects()] == [
        ("cro07", "chant: each_discard1")
    ]

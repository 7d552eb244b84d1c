"""The committed cards.db: current schema, the five games, and no validation errors."""

from __future__ import annotations

from pnpforge.store import repo
from pnpforge.store.db import open_db
from pnpforge.store.schema import SCHEMA_VERSION
from pnpforge.validate import validate_game

GAMES = {"enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"}


def test_shipped_db_is_current_and_holds_the_five_games(shipped_db):
    db = open_db(shipped_db)
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert {g.slug for g in repo.list_games(db)} == GAMES


def test_shipped_db_validates_without_errors(shipped_db):
    db = open_db(shipped_db)
    errors = [str(p) for g in repo.list_games(db) for p in validate_game(db, g.slug) if p.severity == "error"]
    assert errors == []


def test_no_provisional_value_hides_behind_rulebook_provenance(shipped_db):
    """Every card type with a provisional size says so; every rulebook card cites its section."""
    db = open_db(shipped_db)
    for g in repo.list_games(db):
        for c in repo.list_cards(db, g.slug):
            if c.provenance in ("rulebook", "reference"):
                assert c.source.strip(), f"{g.slug}/{c.id} has provenance {c.provenance} but no source"

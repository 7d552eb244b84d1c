"""Opening, migrating and protecting the database; history triggers; the text dump."""

from __future__ import annotations

import sqlite3

import pytest

from pnpforge.errors import PnpError
from pnpforge.store import repo
from pnpforge.store.db import open_db
from pnpforge.store.dump import dump
from pnpforge.store.schema import SCHEMA_VERSION


def test_new_database_has_current_schema_and_foreign_keys(tmp_path):
    db = open_db(tmp_path / "n.db", create=True)
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def _version_1_copy(tmp_path, mini_db):
    """A pnpforge database at schema version 1 (as shipped before migration 2)."""
    import shutil

    from pnpforge.store.schema import MIGRATIONS

    path = tmp_path / "v1.db"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0] + "\nPRAGMA user_version=1;")
    conn.close()
    del shutil, mini_db
    return path


def test_older_database_is_migrated_by_a_write_open(tmp_path, mini_db):
    path = _version_1_copy(tmp_path, mini_db)
    db = open_db(path)
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "cards" in db.table_names()


def test_a_read_of_an_older_database_leaves_the_file_alone(tmp_path, mini_db):
    path = _version_1_copy(tmp_path, mini_db)
    before = path.read_bytes()
    db = open_db(path, readonly=True)
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert path.read_bytes() == before


@pytest.mark.parametrize("readonly", [True, False])
def test_empty_and_foreign_files_are_refused_and_left_byte_identical(tmp_path, readonly):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    blank = tmp_path / "blank.db"
    sqlite3.connect(blank).execute("PRAGMA user_version=0").close()
    for path, message in ((empty, "is empty"), (foreign, "another application"), (blank, "not a pnpforge")):
        before = path.read_bytes() if path.exists() else None
        with pytest.raises(PnpError, match=message if path.exists() and path.stat().st_size else "empty"):
            open_db(path, readonly=readonly)
        assert (path.read_bytes() if path.exists() else None) == before


def test_db_path_with_uri_characters_opens_exactly_that_file(tmp_path, mini_db):
    import shutil

    folder = tmp_path / "a#b?c%d"
    folder.mkdir()
    path = folder / "x?y#z.db"
    shutil.copy(mini_db, path)
    listing = sorted(p.name for p in tmp_path.rglob("*"))
    db = open_db(path, readonly=True)
    assert [g.slug for g in repo.list_games(db)] == ["mini"]
    assert sorted(p.name for p in tmp_path.rglob("*")) == listing


def test_negative_schema_version_is_a_clear_message(tmp_path, mini_db):
    conn = sqlite3.connect(mini_db)
    conn.execute("PRAGMA user_version=-3")
    conn.close()
    with pytest.raises(PnpError, match="schema version -3"):
        open_db(mini_db)


def test_a_folder_is_not_a_database(tmp_path):
    with pytest.raises(PnpError, match="not a regular file"):
        open_db(tmp_path)


def test_newer_database_is_refused(tmp_path):
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(PnpError, match="newer than this pnpforge"):
        open_db(path)


def test_missing_database_is_a_clear_message(tmp_path):
    with pytest.raises(PnpError, match="pnp db init"):
        open_db(tmp_path / "nope.db")


def test_not_a_database(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(PnpError, match="not a SQLite database"):
        open_db(path)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE cards SET copies = -1 WHERE id = 'H-01'",
        "UPDATE cards SET fields = 'not json' WHERE id = 'H-01'",
        "UPDATE cards SET type = 'nosuchtype' WHERE id = 'H-01'",
        "INSERT INTO cards (game, type, id, name) VALUES ('mini', 'hero', 'H-01', 'dup')",
        "UPDATE cards SET provenance = 'guess' WHERE id = 'H-01'",
    ],
)
def test_integrity_lives_in_the_database(mini_db, sql):
    db = open_db(mini_db)
    with pytest.raises(sqlite3.IntegrityError):
        db.conn.execute(sql)


def test_history_records_raw_sql_edits(mini_db):
    db = open_db(mini_db)
    db.conn.execute("UPDATE cards SET copies = 5 WHERE game = 'mini' AND id = 'S-01'")
    db.conn.execute("DELETE FROM cards WHERE game = 'mini' AND id = 'H-02'")
    rows = repo.history(db, "mini")
    ops = [(r["op"], r["card"]) for r in rows]
    assert ops[-2:] == [("update", "S-01"), ("delete", "H-02")]
    upd = rows[-2]
    assert upd["before"]["copies"] == 3 and upd["after"]["copies"] == 5
    assert rows[-1]["after"] is None and rows[-1]["before"]["name"] == "水之巫女"


def test_no_history_row_for_a_no_op_update(mini_db):
    db = open_db(mini_db)
    n = len(repo.history(db, "mini"))
    db.conn.execute("UPDATE cards SET copies = copies WHERE game = 'mini'")
    assert len(repo.history(db, "mini")) == n


def test_dump_is_deterministic_and_shows_cards(mini_db):
    first = list(dump(open_db(mini_db)))
    second = list(dump(open_db(mini_db)))
    assert first == second
    assert any('"id": "H-01"' in line and "火龍騎士" in line for line in first)
    assert not any("created_at" in line for line in first)

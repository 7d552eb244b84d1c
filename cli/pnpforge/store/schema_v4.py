"""Schema migration 4: releases (the designer's loop).

A release freezes every card of a game under a tag (`v0.2`), so later edits
can be listed (`pnp diff`) and reprinted (`pnp print --changed-since`).  The
snapshot has the shape of a history row's `after` (one JSON object per card),
so a release compares with history and with the live cards alike.  A
trigger refuses any update of a frozen card: only deleting the whole game
(or the release) removes one.  The rulebook edition of migration 3 is every
game's first release; it is derived from `edition` and `history`, never
copied here, so corrections of the edition show through.

Every statement is idempotent (IF NOT EXISTS), so a database whose version 4
was written before releases existed gets the tables when migration 8
(`schema_search`) runs it again.
"""

# A release tag names output files and command arguments: a letter or digit first.
TAG_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}"

SQL = """
CREATE TABLE IF NOT EXISTS releases (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    tag         TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 40 AND tag GLOB '[A-Za-z0-9]*'
                                     AND tag NOT GLOB '*[^A-Za-z0-9._-]*' AND tag <> 'edition'),
    version     TEXT NOT NULL CHECK (version <> ''),
    notes       TEXT NOT NULL DEFAULT '',
    seq         INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, tag)
);

CREATE TABLE IF NOT EXISTS release_cards (
    game        TEXT NOT NULL,
    tag         TEXT NOT NULL,
    card        TEXT NOT NULL CHECK (card <> ''),
    snapshot    TEXT NOT NULL CHECK (json_valid(snapshot) AND json_type(snapshot) = 'object'),
    PRIMARY KEY (game, tag, card),
    FOREIGN KEY (game, tag) REFERENCES releases(game, tag) ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TRIGGER IF NOT EXISTS release_cards_frozen BEFORE UPDATE OF snapshot, card ON release_cards BEGIN
    SELECT RAISE(ABORT, 'a release is frozen: its cards cannot be changed');
END;
"""

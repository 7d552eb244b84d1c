"""Schema of cards.db as a list of forward migrations.

Migration N (1-based) moves `PRAGMA user_version` from N-1 to N.  Integrity
lives here as well as in Python: foreign keys, NOT NULL, CHECK and UNIQUE, so
edits made with another SQLite tool cannot break the shape either.
"""

from __future__ import annotations

from pnpforge.store import (
    schema_declared_checks,
    schema_structure,
    schema_translations,
    schema_v2,
    schema_v3,
    schema_v4,
)

NOW = "strftime('%Y-%m-%dT%H:%M:%SZ','now')"

_V1 = f"""
CREATE TABLE games (
    slug        TEXT PRIMARY KEY CHECK (slug <> '' AND slug NOT GLOB '*[^a-z0-9-]*'),
    title       TEXT NOT NULL CHECK (title <> ''),
    title_en    TEXT NOT NULL CHECK (title_en <> ''),
    language    TEXT NOT NULL CHECK (language IN ('zh-Hant', 'zh-Hans', 'en', 'ja', 'ko')),
    players_min INTEGER NOT NULL CHECK (players_min >= 1),
    players_max INTEGER NOT NULL CHECK (players_max >= players_min),
    play_time   TEXT NOT NULL DEFAULT '',
    version     TEXT NOT NULL DEFAULT '0.1' CHECK (version <> ''),
    rulebook    TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT ''
);

CREATE TABLE card_types (
    game             TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    slug             TEXT NOT NULL CHECK (slug <> '' AND slug NOT GLOB '*[^a-z0-9-]*'),
    name             TEXT NOT NULL CHECK (name <> ''),
    name_en          TEXT NOT NULL CHECK (name_en <> ''),
    width_mm         REAL NOT NULL CHECK (width_mm > 0 AND width_mm <= 400),
    height_mm        REAL NOT NULL CHECK (height_mm > 0 AND height_mm <= 400),
    size_provisional INTEGER NOT NULL DEFAULT 0 CHECK (size_provisional IN (0, 1)),
    role             TEXT NOT NULL DEFAULT 'deck' CHECK (role IN ('deck', 'aid')),
    back             TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(back) AND json_type(back) = 'object'),
    position         INTEGER NOT NULL DEFAULT 0,
    notes            TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game, slug)
);

CREATE TABLE field_defs (
    game        TEXT NOT NULL,
    card_type   TEXT NOT NULL,
    name        TEXT NOT NULL CHECK (name <> '' AND name NOT GLOB '*[^a-z0-9_]*'),
    label       TEXT NOT NULL DEFAULT '',
    type        TEXT NOT NULL CHECK (type IN ('integer', 'text', 'enum', 'boolean', 'list', 'ref')),
    required    INTEGER NOT NULL DEFAULT 0 CHECK (required IN (0, 1)),
    min         INTEGER,
    max         INTEGER,
    allowed     TEXT CHECK (allowed IS NULL OR (json_valid(allowed) AND json_type(allowed) = 'array')),
    ref_type    TEXT,
    help        TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, card_type, name),
    FOREIGN KEY (game, card_type) REFERENCES card_types(game, slug) ON DELETE CASCADE ON UPDATE CASCADE,
    CHECK (min IS NULL OR max IS NULL OR min <= max),
    CHECK (type NOT IN ('enum', 'list') OR allowed IS NOT NULL)
);

CREATE TABLE cards (
    pk                 INTEGER PRIMARY KEY,
    game               TEXT NOT NULL,
    type               TEXT NOT NULL,
    id                 TEXT NOT NULL CHECK (length(id) BETWEEN 1 AND 24 AND id NOT GLOB '*[^A-Za-z0-9._-]*'),
    name               TEXT NOT NULL CHECK (name <> ''),
    name_en            TEXT NOT NULL DEFAULT '',
    copies             INTEGER NOT NULL DEFAULT 1 CHECK (copies >= 0),
    fields             TEXT NOT NULL DEFAULT '{{}}'
                       CHECK (json_valid(fields) AND json_type(fields) = 'object'),
    text               TEXT NOT NULL DEFAULT '',
    flavor             TEXT NOT NULL DEFAULT '',
    art                TEXT,
    provenance         TEXT NOT NULL DEFAULT 'provisional'
                       CHECK (provenance IN ('rulebook', 'reference', 'provisional')),
    source             TEXT NOT NULL DEFAULT '',
    provisional_fields TEXT NOT NULL DEFAULT '[]'
                       CHECK (json_valid(provisional_fields) AND json_type(provisional_fields) = 'array'),
    notes              TEXT NOT NULL DEFAULT '',
    position           INTEGER NOT NULL DEFAULT 0,
    created_at         TEXT NOT NULL DEFAULT ({NOW}),
    updated_at         TEXT NOT NULL DEFAULT ({NOW}),
    UNIQUE (game, id),
    FOREIGN KEY (game) REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    FOREIGN KEY (game, type) REFERENCES card_types(game, slug) ON UPDATE CASCADE
);
CREATE INDEX cards_game_type ON cards(game, type);

CREATE TABLE composition (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    id          TEXT NOT NULL CHECK (id <> ''),
    label       TEXT NOT NULL CHECK (label <> ''),
    card_type   TEXT,
    query       TEXT NOT NULL DEFAULT '',
    expected    INTEGER NOT NULL CHECK (expected >= 0),
    parent      TEXT,
    provisional INTEGER NOT NULL DEFAULT 0 CHECK (provisional IN (0, 1)),
    source      TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, id),
    FOREIGN KEY (game, card_type) REFERENCES card_types(game, slug) ON UPDATE CASCADE
);

CREATE TABLE components (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    slug        TEXT NOT NULL CHECK (slug <> ''),
    name        TEXT NOT NULL CHECK (name <> ''),
    name_en     TEXT NOT NULL DEFAULT '',
    kind        TEXT NOT NULL DEFAULT 'other'
                CHECK (kind IN ('token', 'board', 'marker', 'tile', 'aid', 'die', 'other')),
    count       INTEGER NOT NULL CHECK (count >= 0),
    provisional INTEGER NOT NULL DEFAULT 0 CHECK (provisional IN (0, 1)),
    source      TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, slug)
);

CREATE TABLE glossary (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    term        TEXT NOT NULL CHECK (term <> ''),
    term_en     TEXT NOT NULL DEFAULT '',
    category    TEXT NOT NULL DEFAULT 'keyword'
                CHECK (category IN ('trait', 'keyword', 'icon', 'term', 'action', 'symbol')),
    text        TEXT NOT NULL CHECK (text <> ''),
    source      TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, term)
);

CREATE TABLE rule_sections (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    position    INTEGER NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('overview', 'setup', 'turn', 'actions', 'end',
                                              'scoring', 'variants', 'faq', 'other')),
    title       TEXT NOT NULL CHECK (title <> ''),
    title_en    TEXT NOT NULL DEFAULT '',
    body        TEXT NOT NULL CHECK (body <> ''),
    source      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game, position)
);

CREATE TABLE history (
    seq     INTEGER PRIMARY KEY,
    at      TEXT NOT NULL DEFAULT ({NOW}),
    op      TEXT NOT NULL CHECK (op IN ('insert', 'update', 'delete')),
    game    TEXT NOT NULL,
    card    TEXT NOT NULL,
    before  TEXT CHECK (before IS NULL OR json_valid(before)),
    after   TEXT CHECK (after IS NULL OR json_valid(after))
);
CREATE INDEX history_card ON history(game, card);
"""

# json_object of a card row, shared by the three history triggers.
_CARD_JSON = (
    "json_object('id', {r}.id, 'type', {r}.type, 'name', {r}.name, 'name_en', {r}.name_en, "
    "'copies', {r}.copies, 'fields', json({r}.fields), 'text', {r}.text, 'flavor', {r}.flavor, "
    "'art', {r}.art, 'provenance', {r}.provenance, 'source', {r}.source, "
    "'provisional_fields', json({r}.provisional_fields), 'notes', {r}.notes)"
)

_V1_TRIGGERS = f"""
CREATE TRIGGER cards_history_insert AFTER INSERT ON cards BEGIN
    INSERT INTO history (op, game, card, before, after)
    VALUES ('insert', NEW.game, NEW.id, NULL, {_CARD_JSON.format(r="NEW")});
END;
CREATE TRIGGER cards_history_update AFTER UPDATE ON cards
WHEN {_CARD_JSON.format(r="OLD")} IS NOT {_CARD_JSON.format(r="NEW")} BEGIN
    INSERT INTO history (op, game, card, before, after)
    VALUES ('update', NEW.game, NEW.id, {_CARD_JSON.format(r="OLD")}, {_CARD_JSON.format(r="NEW")});
END;
CREATE TRIGGER cards_history_delete AFTER DELETE ON cards BEGIN
    INSERT INTO history (op, game, card, before, after)
    VALUES ('delete', OLD.game, OLD.id, {_CARD_JSON.format(r="OLD")}, NULL);
END;
"""

MIGRATIONS: list[str] = [
    _V1 + _V1_TRIGGERS,
    schema_v2.SQL,
    schema_v3.SQL,
    schema_v4.SQL,
    schema_translations.SQL,
    schema_declared_checks.SQL,  # 6: text rules, worked examples, consistency
    schema_structure.SQL,  # 7: piles, designed composition rows, the structure edition
]

SCHEMA_VERSION = len(MIGRATIONS)

"""Schema migration 5: piles, designed composition targets, and the edition of a game's structure.

`piles` says which card types the rulebook shuffles together (a draw pile, a
market): cards of one pile must look alike from the back, so the checker
compares their sizes and backs.  `composition.follows_deck` marks a designed
target that follows the designer's own card edits (the rows `pnp game new`
writes): `cards add` and `rm` move its count with the deck.

The card edition (migration 3) froze card values only.  `structure_values`
lists every other value a rulebook can give, one JSON value per key —
player counts, play time, card sizes, the component list, composition rows,
constraints and piles — with whether it is provisional (designed).
`structure_edition` freezes the rulebook ones, from the view, at upgrade
time; the checker compares the view with it, and only a correction moves it.
`structure_history` records edits of those values (a composition row set by
`pnp composition set`, a correction), as `history` does for cards.
"""

# (game, key, value, provisional) of every structural value (a game that names no rulebook
# has no rulebook player count or play time: it is the designer's own); keys read "game.players",
# "type.SLUG.size", "component.SLUG", "composition.ID", "constraint.ID", "pile.ID".
VIEW = """
CREATE VIEW structure_values (game, key, value, provisional) AS
SELECT slug, 'game.players', json_array(players_min, players_max), rulebook = '' FROM games
UNION ALL
SELECT slug, 'game.play_time', json_quote(play_time),
       rulebook = '' OR play_time = '' OR play_time LIKE '%provisional%' FROM games
UNION ALL
SELECT game, 'type.' || slug || '.size', json_array(width_mm, height_mm), size_provisional FROM card_types
UNION ALL
SELECT game, 'component.' || slug, json_object('name', name, 'count', count), provisional FROM components
UNION ALL
SELECT game, 'composition.' || id,
       json_object('card_type', card_type, 'query', query, 'expected', expected, 'parent', parent),
       provisional FROM composition
UNION ALL
SELECT game, 'constraint.' || id, json_object('kind', kind, 'params', json(params)), provisional
FROM constraints
UNION ALL
SELECT game, 'pile.' || id, json(card_types), provisional FROM piles;
"""

SQL = f"""
CREATE TABLE piles (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    id          TEXT NOT NULL CHECK (id <> '' AND id NOT GLOB '*[^A-Za-z0-9._-]*'),
    label       TEXT NOT NULL CHECK (label <> ''),
    kind        TEXT NOT NULL DEFAULT 'draw' CHECK (kind IN ('draw', 'market', 'deck', 'supply', 'other')),
    card_types  TEXT NOT NULL CHECK (json_valid(card_types) AND json_type(card_types) = 'array'
                                     AND json_array_length(card_types) >= 1),
    provisional INTEGER NOT NULL DEFAULT 0 CHECK (provisional IN (0, 1)),
    source      TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, id)
);

ALTER TABLE composition ADD COLUMN follows_deck INTEGER NOT NULL DEFAULT 0 CHECK (follows_deck IN (0, 1));

CREATE TABLE structure_edition (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    key         TEXT NOT NULL CHECK (key <> ''),
    value       TEXT NOT NULL CHECK (json_valid(value)),
    frozen_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    PRIMARY KEY (game, key)
);

CREATE TABLE structure_history (
    seq         INTEGER PRIMARY KEY,
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    game        TEXT NOT NULL,
    key         TEXT NOT NULL CHECK (key <> ''),
    before      TEXT CHECK (before IS NULL OR json_valid(before)),
    after       TEXT CHECK (after IS NULL OR json_valid(after)),
    correction  TEXT
);
CREATE INDEX structure_history_game ON structure_history(game, key);
{VIEW}
INSERT INTO structure_edition (game, key, value)
SELECT game, key, value FROM structure_values WHERE provisional = 0;
"""

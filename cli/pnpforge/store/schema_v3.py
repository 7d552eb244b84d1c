"""Schema migration 3: deck constraints and the rulebook edition (the rules checker).

`constraints` holds the deck rules beside the composition counts (kinds and
their parameters are checked in Python by pnpforge.validate.constraints; the
CHECK here only keeps the row's shape).  `edition` freezes, per card, the
values transcribed from the rulebook or reference table, so a later edit —
even one made with raw SQL — is found by comparing against it.  The freeze
runs inside the migration, so an existing database gets its edition from
the cards it holds at upgrade time.  `history.correction` keeps the reason
of an edit that fixes a transcription error.
"""

# The values an edition snapshot keeps: what a card prints, plus what says
# which of those values are the rulebook's.
SNAPSHOT_JSON = (
    "json_object('type', {r}.type, 'name', {r}.name, 'copies', {r}.copies, "
    "'fields', json({r}.fields), 'text', {r}.text, 'provenance', {r}.provenance, "
    "'provisional_fields', json({r}.provisional_fields))"
)

KINDS = ("unique", "each_value", "values", "distinct", "group_count", "refs")

SQL = f"""
CREATE TABLE constraints (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    id          TEXT NOT NULL CHECK (id <> '' AND id NOT GLOB '*[^A-Za-z0-9._-]*'),
    kind        TEXT NOT NULL CHECK (kind IN ({", ".join(f"'{k}'" for k in KINDS)})),
    params      TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(params) AND json_type(params) = 'object'),
    label       TEXT NOT NULL CHECK (label <> ''),
    provisional INTEGER NOT NULL DEFAULT 0 CHECK (provisional IN (0, 1)),
    source      TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, id)
);

CREATE TABLE edition (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    card        TEXT NOT NULL CHECK (card <> ''),
    snapshot    TEXT NOT NULL CHECK (json_valid(snapshot) AND json_type(snapshot) = 'object'),
    frozen_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    frozen_seq  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, card)
);

ALTER TABLE history ADD COLUMN correction TEXT;

INSERT INTO edition (game, card, snapshot, frozen_seq)
SELECT c.game, c.id, {SNAPSHOT_JSON.format(r="c")}, (SELECT coalesce(max(seq), 0) FROM history)
FROM cards c WHERE c.provenance IN ('rulebook', 'reference');
"""

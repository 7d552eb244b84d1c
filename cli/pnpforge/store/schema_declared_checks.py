"""Schema migration 6: declared checks — text rules, worked examples, consistency constraints.

Three kinds of rulebook knowledge become data beside the deck constraints,
each row with the rulebook line it comes from:

- `text_rules`: per card type, what a card's printed text restates (a number,
  a colour list, a keyword, the name of a card a field names) bound to the
  field that holds it, so the two cannot silently disagree — or, kind
  `template`, the whole text generated from the fields on every write;
- `examples`: the rulebook's worked examples that compute from card values
  (a power comparison, a score total), with their set-up, expected result and
  the engine options of the reading they follow; `pnp check` runs them;
- `consistency`: constraints on designed values whose kinds the deck
  constraints table does not hold (monotone tables, distinct list items,
  distinct abilities and "differs from the base rule").  They live in their
  own table, with the shape of `constraints`, so the older table (and its
  CHECK on kinds) stays as it is; `store.constraints` reads both as one list.

The CHECKs keep each row's shape; parameters are checked in Python.
"""

TEXT_RULE_KINDS = ("number", "list", "phrase", "name", "template")
EXAMPLE_RUNNERS = ("engine", "formula")
CONSISTENCY_KINDS = ("monotone", "distinct_items", "distinct_abilities")


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{v}'" for v in values)


SQL = f"""
CREATE TABLE text_rules (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    id          TEXT NOT NULL CHECK (id <> '' AND id NOT GLOB '*[^A-Za-z0-9._-]*'),
    card_type   TEXT NOT NULL CHECK (card_type <> ''),
    kind        TEXT NOT NULL CHECK (kind IN ({_in(TEXT_RULE_KINDS)})),
    params      TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(params) AND json_type(params) = 'object'),
    label       TEXT NOT NULL CHECK (label <> ''),
    provisional INTEGER NOT NULL DEFAULT 0 CHECK (provisional IN (0, 1)),
    source      TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, id)
);

CREATE TABLE examples (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    id          TEXT NOT NULL CHECK (id <> '' AND id NOT GLOB '*[^A-Za-z0-9._-]*'),
    label       TEXT NOT NULL CHECK (label <> ''),
    runner      TEXT NOT NULL CHECK (runner IN ({_in(EXAMPLE_RUNNERS)})),
    setup       TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(setup) AND json_type(setup) = 'object'),
    expected    TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(expected) AND json_type(expected) = 'object'),
    options     TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(options) AND json_type(options) = 'object'),
    conflict    TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, id)
);

CREATE TABLE consistency (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    id          TEXT NOT NULL CHECK (id <> '' AND id NOT GLOB '*[^A-Za-z0-9._-]*'),
    kind        TEXT NOT NULL CHECK (kind IN ({_in(CONSISTENCY_KINDS)})),
    params      TEXT NOT NULL DEFAULT '{{}}' CHECK (json_valid(params) AND json_type(params) = 'object'),
    label       TEXT NOT NULL CHECK (label <> ''),
    provisional INTEGER NOT NULL DEFAULT 0 CHECK (provisional IN (0, 1)),
    source      TEXT NOT NULL DEFAULT '',
    position    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, id)
);
"""

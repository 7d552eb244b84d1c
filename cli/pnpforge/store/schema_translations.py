"""Schema migration: translations, one row per printed text per language.

A row translates one original text of a game — a card's name, text or flavour,
a card type's name or back title, a glossary term or definition, a rule
section, a composition label, a component name, a field label, the printed
word of a field value, or a template file (layout, aid, summary) — into one
language.  `source_hash` is the fingerprint of the original the translation
was made from: when the original changes, the fingerprints differ and the
translation is stale.  `provenance` says who vouches for it: `translation`
(made, not yet checked by a speaker) or `reviewed`.  Values (numbers, colours,
suits) are never stored twice: their printed words are `value` rows.
"""

SQL = """
CREATE TABLE IF NOT EXISTS translations (
    game        TEXT NOT NULL REFERENCES games(slug) ON DELETE CASCADE ON UPDATE CASCADE,
    lang        TEXT NOT NULL CHECK (lang IN ('zh-Hant', 'zh-Hans', 'en', 'ja', 'ko')),
    kind        TEXT NOT NULL CHECK (kind IN ('game', 'type', 'field', 'value', 'card', 'glossary',
                                              'section', 'composition', 'component', 'template')),
    key         TEXT NOT NULL CHECK (key <> ''),
    field       TEXT NOT NULL CHECK (field <> ''),
    text        TEXT NOT NULL CHECK (typeof(text) = 'text' AND length(text) <= 100000),
    provenance  TEXT NOT NULL DEFAULT 'translation' CHECK (provenance IN ('translation', 'reviewed')),
    source_hash TEXT NOT NULL CHECK (length(source_hash) BETWEEN 8 AND 64),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    PRIMARY KEY (game, lang, kind, key, field)
);
"""

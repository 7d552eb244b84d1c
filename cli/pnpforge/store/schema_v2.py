"""Schema migration 2: value limits and type checks that raw SQL cannot bypass (edits under hostile input).

SQLite stores any value in any column ('abc' in an INTEGER column), so the
guards are BEFORE INSERT/UPDATE triggers, not CHECKs: adding a CHECK would
rebuild the cards table and its history triggers, a trigger costs nothing on
existing rows.  They mirror the limits in `pnpforge.model` and
`pnpforge.validate.values` (which also give the friendlier messages):
copies a whole number 0-999, text columns text, the card id grammar, names
without control or invisible characters or surrounding blanks, field values
scalars or lists of scalars, provisional_fields a list of names.  An index on
(game, position) makes "the next position" one probe instead of a scan.
"""

# Control characters and the invisible format characters a name may not hold.
_BAD_NAME_CHARS = (
    "char("
    + ",".join(
        str(c)
        for c in [
            *range(1, 32),
            127,
            173,
            8203,
            8204,
            8205,
            8206,
            8207,
            8232,
            8233,
            8234,
            8235,
            8236,
            8237,
            8238,
            8288,
            65279,
        ]
    )
    + ")"
)

_GUARDS = f"""
    SELECT RAISE(ABORT, 'cards.copies must be a whole number from 0 to 999')
        WHERE typeof(NEW.copies) <> 'integer' OR NEW.copies NOT BETWEEN 0 AND 999;
    SELECT RAISE(ABORT, 'cards.id must start with a letter or digit and never hold two dots')
        WHERE typeof(NEW.id) <> 'text' OR NEW.id NOT GLOB '[A-Za-z0-9]*' OR instr(NEW.id, '..') > 0;
    SELECT RAISE(ABORT, 'cards: name, name_en, text, flavor, notes, source and type must be text')
        WHERE typeof(NEW.name) <> 'text' OR typeof(NEW.name_en) <> 'text' OR typeof(NEW.text) <> 'text'
           OR typeof(NEW.flavor) <> 'text' OR typeof(NEW.notes) <> 'text'
           OR typeof(NEW.source) <> 'text' OR typeof(NEW.type) <> 'text'
           OR (NEW.art IS NOT NULL AND typeof(NEW.art) <> 'text');
    SELECT RAISE(ABORT, 'cards.name must not hold control or invisible characters or surrounding blanks')
        WHERE NEW.name <> trim(NEW.name) OR NEW.name GLOB '*[' || {_BAD_NAME_CHARS} || ']*'
           OR instr(NEW.name, char(0)) > 0;
    SELECT RAISE(ABORT, 'cards: text longer than pnpforge allows')
        WHERE length(NEW.name) > 200 OR length(NEW.name_en) > 200 OR length(NEW.text) > 4000
           OR length(NEW.flavor) > 2000 OR length(NEW.notes) > 10000 OR length(NEW.source) > 500
           OR length(NEW.art) > 1000;
    SELECT RAISE(ABORT, 'cards.fields values must be numbers, text, true/false or lists of text')
        WHERE json_valid(NEW.fields) AND json_type(NEW.fields) = 'object' AND (
            EXISTS (SELECT 1 FROM json_each(NEW.fields) WHERE type = 'object')
            OR EXISTS (SELECT 1 FROM json_each(NEW.fields) f, json_each(f.value) x
                       WHERE f.type = 'array' AND x.type IN ('object', 'array')));
    SELECT RAISE(ABORT, 'cards.provisional_fields must be a list of names')
        WHERE json_valid(NEW.provisional_fields) AND json_type(NEW.provisional_fields) = 'array'
          AND EXISTS (SELECT 1 FROM json_each(NEW.provisional_fields) WHERE type <> 'text');
"""

SQL = f"""
CREATE INDEX cards_game_position ON cards(game, position);
CREATE TRIGGER cards_guard_insert BEFORE INSERT ON cards BEGIN{_GUARDS}END;
CREATE TRIGGER cards_guard_update BEFORE UPDATE ON cards BEGIN{_GUARDS}END;
CREATE TRIGGER field_defs_guard_insert BEFORE INSERT ON field_defs BEGIN
    SELECT RAISE(ABORT, 'field_defs.min and max must be whole numbers')
        WHERE (NEW.min IS NOT NULL AND typeof(NEW.min) <> 'integer')
           OR (NEW.max IS NOT NULL AND typeof(NEW.max) <> 'integer');
END;
CREATE TRIGGER field_defs_guard_update BEFORE UPDATE ON field_defs BEGIN
    SELECT RAISE(ABORT, 'field_defs.min and max must be whole numbers')
        WHERE (NEW.min IS NOT NULL AND typeof(NEW.min) <> 'integer')
           OR (NEW.max IS NOT NULL AND typeof(NEW.max) <> 'integer');
END;
"""

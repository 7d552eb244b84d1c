"""Whole-game bundles: one JSON document with a game's definition and cards.

This is how a new game enters the database (`pnp game import`) and how one
leaves it whole (`pnp game export`).  Format, version 1:

    {"format": "pnpforge-game/1",
     "game": {slug, title, title_en, language, players_min, players_max,
              play_time, version, rulebook, notes},
     "card_types": [{slug, name, name_en, width_mm, height_mm, size_provisional,
                     role: deck|aid, back: {...}, notes,
                     fields: [{name, type, label, required, min, max, allowed,
                               ref_type, help}]}],
     "cards": [{id, type, name, name_en, copies, fields: {...}, text, flavor, art,
                provenance, source, provisional_fields: [...], notes}],
     "composition": [{id, label, expected, card_type, query, parent, provisional, source}],
     "components": [{slug, name, name_en, kind, count, provisional, source, notes}],
     "glossary": [{term, term_en, category, text, source}],
     "rules": [{kind, title, title_en, body, source}],
     "constraints": [{id, kind, label, params: {...}, provisional, source}],
     "text_rules": [{id, card_type, kind, label, params: {...}, provisional, source}],
     "examples": [{id, label, runner, setup: {...}, expected: {...}, options: {...},
                   conflict, source}],
     "edition": [{card, snapshot: {...}, frozen_at}],
     "piles": [{id, label, kind, card_types: [...], provisional, source}],
     "structure_edition": [{key, value, frozen_at}],
     "translations": [{lang, kind, key, field, text, provenance, source_hash}]}

`constraints` (deck constraints and consistency kinds alike), `text_rules`, `examples`,
`edition`, `piles`, `structure_edition` and `translations` are optional: a bundle without an
edition gets one frozen from its own rulebook and reference cards (and its structure from its
own rulebook values) on import.

Structure errors are reported with the JSON path; card values are validated
one layer up (pnpforge.edit), like every other write.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict
from typing import Any

import sqlite_utils

from pnpforge import model
from pnpforge.errors import PnpError
from pnpforge.model import Card, field_names
from pnpforge.store import constraints, declared, edition, releases, repo, structure, translations

FORMAT = "pnpforge-game/1"

# A bundle item's keys are its model class's fields, less what the database assigns.
_GAME_KEYS = set(field_names(model.Game))
_TYPE_KEYS = set(field_names(model.CardType, "game"))
_FIELD_KEYS = set(field_names(model.FieldDef))
_CARD_KEYS = set(field_names(Card, "game", "created_at", "updated_at"))
_COMP_KEYS = set(field_names(model.CompositionRule, "game"))
_COMPONENT_KEYS = set(field_names(model.Component, "game"))
_GLOSS_KEYS = set(field_names(model.GlossaryEntry, "game"))
_RULE_KEYS = set(field_names(model.RuleSection, "game", "position"))
_CONSTRAINT_KEYS = set(field_names(constraints.Constraint, "game"))
_EDITION_KEYS = set(field_names(edition.EditionEntry, "frozen_seq"))
_TRANSLATION_KEYS = {"lang", "kind", "key", "field", "text", "provenance", "source_hash"}
_TEXT_RULE_KEYS = set(field_names(declared.TextRule, "game"))
_EXAMPLE_KEYS = set(field_names(declared.Example, "game"))
_PILE_KEYS = set(field_names(model.Pile, "game"))
_STRUCTURE_KEYS = {"key", "value", "frozen_at"}


def _check_keys(obj: Any, allowed: set[str], where: str, required: set[str]) -> dict:
    if not isinstance(obj, dict):
        raise PnpError(f"{where}: expected an object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise PnpError(
            f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})"
        )
    missing = sorted(required - set(obj))
    if missing:
        raise PnpError(f"{where}: missing key(s) {', '.join(missing)}")
    return obj


def parse(data: Any) -> dict:
    """Check a bundle's structure; return it with every list present."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PnpError(f'not a game bundle: expected "format": "{FORMAT}"')
    _check_keys(
        data["game"] if "game" in data else None,
        _GAME_KEYS,
        "game",
        {"slug", "title", "title_en", "language", "players_min", "players_max"},
    )
    for i, t in enumerate(data.get("card_types", [])):
        _check_keys(t, _TYPE_KEYS, f"card_types[{i}]", {"slug", "name", "name_en", "width_mm", "height_mm"})
        for j, f in enumerate(t.get("fields", [])):
            _check_keys(f, _FIELD_KEYS, f"card_types[{i}].fields[{j}]", {"name", "type"})
    for i, c in enumerate(data.get("cards", [])):
        _check_keys(c, _CARD_KEYS, f"cards[{i}]", {"id", "type", "name"})
    for key, keys, req in (
        ("composition", _COMP_KEYS, {"id", "label", "expected"}),
        ("components", _COMPONENT_KEYS, {"slug", "name", "count"}),
        ("glossary", _GLOSS_KEYS, {"term", "text"}),
        ("rules", _RULE_KEYS, {"kind", "title", "body"}),
        ("constraints", _CONSTRAINT_KEYS, {"id", "kind", "label", "params"}),
        ("edition", _EDITION_KEYS, {"card", "snapshot"}),
        ("translations", _TRANSLATION_KEYS, _TRANSLATION_KEYS - {"provenance"}),
        ("text_rules", _TEXT_RULE_KEYS, {"id", "card_type", "kind", "label", "params"}),
        ("examples", _EXAMPLE_KEYS, {"id", "label", "runner", "setup", "expected"}),
        ("piles", _PILE_KEYS, {"id", "label", "card_types"}),
        ("structure_edition", _STRUCTURE_KEYS, {"key", "value"}),
    ):
        for i, item in enumerate(data.get(key, [])):
            _check_keys(item, keys, f"{key}[{i}]", req)
    _check_deck_data(data)
    return data


def _check_deck_data(data: dict) -> None:
    """Constraint parameters fit their kind; edition snapshots are objects."""
    for i, item in enumerate(data.get("constraints", [])):
        try:
            constraints.check_params(item["kind"], item["params"])
        except PnpError as exc:
            raise PnpError(f"constraints[{i}] ({item['id']}): {exc}") from None
    for i, item in enumerate(data.get("text_rules", [])):
        try:
            declared.check_text_rule_params(item["kind"], item["params"])
        except PnpError as exc:
            raise PnpError(f"text_rules[{i}] ({item['id']}): {exc}") from None
    for i, item in enumerate(data.get("examples", [])):
        bad = [k for k in ("setup", "expected", "options") if not isinstance(item.get(k, {}), dict)]
        if bad or item["runner"] not in declared.EXAMPLE_RUNNERS:
            what = (
                f"{bad[0]} must be an object" if bad else f"runner must be one of {declared.EXAMPLE_RUNNERS}"
            )
            raise PnpError(f"examples[{i}] ({item['id']}): {what}")
    for i, item in enumerate(data.get("edition", [])):
        if not isinstance(item["snapshot"], dict):
            raise PnpError(f"edition[{i}] ({item['card']}): snapshot must be an object")
    for i, item in enumerate(data.get("piles", [])):
        types = item["card_types"]
        if not isinstance(types, list) or not types or not all(isinstance(t, str) for t in types):
            raise PnpError(
                f"piles[{i}] ({item['id']}): card_types must be a non-empty list of card type slugs"
            )
        if item.get("kind", "draw") not in model.PILE_KINDS:
            raise PnpError(f"piles[{i}] ({item['id']}): kind must be one of {', '.join(model.PILE_KINDS)}")
    for i, item in enumerate(data.get("structure_edition", [])):
        if not isinstance(item["key"], str) or not item["key"]:
            raise PnpError(f"structure_edition[{i}]: key must be non-empty text")


def bundle_cards(data: dict) -> list[Card]:
    slug = data["game"]["slug"]
    return [Card(game=slug, **{k: v for k, v in c.items()}) for c in data.get("cards", [])]


def write(conn: sqlite3.Connection, data: dict, replace: bool) -> None:
    """Insert a parsed bundle; the caller owns the transaction."""
    g = data["game"]
    slug = g["slug"]
    exists = repo.game_exists(conn, slug)
    if exists and not replace:
        raise PnpError(f"game '{slug}' is already in the database; use --replace to overwrite it")
    kept_edition = edition.entries(conn, slug) if exists else []
    kept_structure = structure.frozen(conn, slug) if exists else {}
    kept_releases = releases.keep_releases(conn, slug) if exists else ([], [])
    if exists:
        conn.execute("DELETE FROM cards WHERE game = ?", [slug])
        conn.execute("DELETE FROM games WHERE slug = ?", [slug])
    _insert(conn, "games", g)
    for pos, t in enumerate(data.get("card_types", [])):
        row = {k: v for k, v in t.items() if k != "fields"}
        row["back"] = json.dumps(row.get("back", {}), ensure_ascii=False, sort_keys=True)
        row.update(game=slug, position=pos)
        _insert(conn, "card_types", row)
        for fpos, f in enumerate(t.get("fields", [])):
            frow = dict(f)
            if "allowed" in frow and frow["allowed"] is not None:
                frow["allowed"] = json.dumps(frow["allowed"], ensure_ascii=False)
            frow.update(game=slug, card_type=t["slug"], position=fpos)
            _insert(conn, "field_defs", frow)
    types = {t.slug: t for t in repo.card_types(conn, slug)}
    for card in bundle_cards(data):
        if card.type in types:
            repo.with_list_defaults(card, types[card.type])
        repo.insert_card(conn, card)
    for table, key in (
        ("composition", "composition"),
        ("components", "components"),
        ("glossary", "glossary"),
        ("rule_sections", "rules"),
    ):
        for pos, item in enumerate(data.get(key, [])):
            _insert(conn, table, {**item, "game": slug, "position": pos})
    _write_deck_data(conn, slug, data, kept_edition)
    _write_structure(conn, slug, data, kept_structure)
    releases.restore_releases(conn, kept_releases)
    _write_translations(conn, slug, data.get("translations", []))


def _write_translations(conn: sqlite3.Connection, slug: str, items: list[dict]) -> None:
    """A bundle's translations, grouped by language (the table's CHECKs refuse bad rows)."""
    by_lang: dict[str, list[translations.Translation]] = {}
    for item in items:
        by_lang.setdefault(item["lang"], []).append(
            translations.Translation(
                item["kind"],
                item["key"],
                item["field"],
                item["text"],
                item["source_hash"],
                item.get("provenance", "translation"),
            )
        )
    for lang, rows in by_lang.items():
        try:
            translations.upsert(conn, slug, lang, rows)
        except sqlite3.IntegrityError as exc:
            raise PnpError(f"translations ({lang}): {exc}") from None


def _write_structure(
    conn: sqlite3.Connection, slug: str, data: dict, kept: dict[str, structure.Frozen]
) -> None:
    """Piles as given; the structure edition as given, else the replaced game's, else frozen anew."""
    types = {t.slug for t in repo.card_types(conn, slug)}
    for pos, item in enumerate(data.get("piles", [])):
        unknown = [t for t in item["card_types"] if t not in types]
        if unknown:
            raise PnpError(f"piles '{item['id']}': unknown card type(s) {', '.join(unknown)}")
        structure.insert_pile(conn, model.Pile(game=slug, **item), position=pos)
    if "structure_edition" in data:
        structure.insert_entries(conn, slug, data["structure_edition"])
    elif kept:
        structure.restore(conn, slug, kept)
        structure.freeze(conn, slug)  # rulebook values the replaced game did not have yet
    else:
        structure.freeze(conn, slug)


def _write_deck_data(
    conn: sqlite3.Connection, slug: str, data: dict, kept_edition: list[edition.EditionEntry]
) -> None:
    """Constraints as given; the edition as given, else the replaced game's, else frozen anew.

    Keeping the replaced game's edition means a bundle without one cannot
    hide a changed rulebook value by replacing the game.
    """
    for item in data.get("constraints", []):
        constraints.insert_constraint(
            conn,
            constraints.Constraint(
                slug,
                item["id"],
                item["kind"],
                item["label"],
                item["params"],
                bool(item.get("provisional", False)),
                item.get("source", ""),
            ),
        )
    for item in data.get("text_rules", []):
        declared.insert_text_rule(conn, declared.TextRule(game=slug, **item))
    for item in data.get("examples", []):
        declared.insert_example(conn, declared.Example(game=slug, **item))
    if "edition" in data:
        edition.insert_entries(conn, slug, data["edition"])
    elif kept_edition:
        edition.restore(conn, slug, kept_edition)
    else:
        edition.freeze(conn, slug)


def _insert(conn: sqlite3.Connection, table: str, row: dict) -> None:
    cols = list(row)
    try:
        conn.execute(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            [row[c] for c in cols],
        )
    except sqlite3.IntegrityError as exc:
        ident = row.get("slug") or row.get("id") or row.get("term") or row.get("title") or ""
        raise PnpError(f"{table} '{ident}': {exc}") from None


def export(db: sqlite_utils.Database, slug: str) -> dict:
    """The bundle of one game, in a stable order, ready for json.dumps."""
    game = asdict(repo.get_game(db, slug))
    types = []
    for t in repo.card_types(db, slug):
        d = asdict(t)
        d.pop("game")
        d["fields"] = [f.to_dict() for f in t.fields]
        types.append(d)
    cards = []
    for c in repo.list_cards(db, slug):
        d = c.to_dict()
        d.pop("created_at")
        d.pop("updated_at")
        cards.append(d)

    def plain(items: list) -> list[dict]:
        out = []
        for it in items:
            d = asdict(it)
            d.pop("game")
            d.pop("position", None)
            out.append(d)
        return out

    return {
        "format": FORMAT,
        "game": game,
        "card_types": types,
        "cards": cards,
        "composition": plain(repo.composition(db, slug)),
        "components": plain(repo.components(db, slug)),
        "glossary": plain(repo.glossary(db, slug)),
        "rules": plain(repo.rule_sections(db, slug)),
        "constraints": [c.to_dict() for c in constraints.list_constraints(db, slug)],
        "text_rules": [r.to_dict() for r in declared.list_text_rules(db, slug)],
        "examples": [e.to_dict() for e in declared.list_examples(db, slug)],
        "edition": [
            {"card": e.card, "snapshot": e.snapshot, "frozen_at": e.frozen_at}
            for e in edition.entries(db, slug)
        ],
        "translations": translations.all_rows(db, slug),
        "piles": plain(structure.piles(db, slug)),
        "structure_edition": [
            {"key": key, "value": f.value, "frozen_at": f.frozen_at}
            for key, f in structure.frozen(db, slug).items()
        ],
    }


def dumps(bundle: dict) -> str:
    return json.dumps(bundle, ensure_ascii=False, indent=1, sort_keys=False) + "\n"

"""`pnp game new`: a whole game from a spreadsheet (or from flags), ready to print at once.

The sheet's rows become cards; `pnpforge.design.infer` gives the card types
and typed fields; copies give one composition rule per type; the glossary
gets each enum and list field with its values, and the rule summary one
section listing the components, both facts of the sheet.  The game enters the
database as a bundle, through the validation every import goes through, and
is released as v0.1 so `pnp diff` and `pnp print --changed-since` work from
the first edit.  Starter layouts (with an art slot) go to `templates/GAME/`.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge.design import infer
from pnpforge.design.layouts import art_slot, type_layout, write_layouts
from pnpforge.edit import import_bundle
from pnpforge.errors import PnpError
from pnpforge.formats import records as card_records
from pnpforge.formats.xlsx import read_tables
from pnpforge.model import CardType, FieldDef
from pnpforge.store import bundle, releases, repo
from pnpforge.validate.values import game_slug_problem

LANGUAGES = ("zh-Hant", "zh-Hans", "en", "ja", "ko")
DEFAULT_SIZE = (63.0, 88.0)


@dataclass
class GameSpec:
    """What the designer asked for: names, size, language, players; None means infer or default."""

    slug: str
    title: str
    title_en: str | None = None
    language: str | None = None
    size: tuple[float, float] | None = None
    players: tuple[int, int] = (2, 4)
    play_time: str = ""


@dataclass
class NewGame:
    """What `pnp game new` made, for the report."""

    slug: str
    language: str
    language_guessed: bool
    size: tuple[float, float]
    inference: infer.Inference | None
    cards: int
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)
    release: str = ""  # the release made now; "" when the game had releases already
    deck_problems: list[Any] = field(default_factory=list)
    releases_kept: list[str] = field(default_factory=list)  # a replaced game's releases, kept
    discarded: list[str] = field(default_factory=list)  # what --discard-edits dropped, one line each
    removed: list[Path] = field(default_factory=list)  # starter layouts of types the game no longer has
    orphaned: list[Path] = field(default_factory=list)  # edited layouts of such types, left in place
    art_slots: list[tuple[str, float, float]] = field(default_factory=list)  # (type, w, h mm), written now


def parse_size(text: str | None) -> tuple[float, float] | None:
    """'63x88' (or 63×88) in mm; None when not given."""
    if text is None:
        return None
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*[x×X*]\s*([0-9]+(?:\.[0-9]+)?)\s*(mm)?\s*", text)
    if not match:
        raise PnpError(f"--size {text!r}: expected WIDTHxHEIGHT in mm, e.g. 63x88")
    w, h = float(match.group(1)), float(match.group(2))
    if not (10 <= w <= 400 and 10 <= h <= 400):
        raise PnpError(f"--size {text!r}: each side must be 10-400 mm")
    return w, h


def parse_players(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*([0-9]{1,2})\s*(?:[-–]\s*([0-9]{1,2}))?\s*", text)
    if not match or int(match.group(1)) < 1 or int(match.group(2) or match.group(1)) < int(match.group(1)):
        raise PnpError(f"--players {text!r}: expected N or MIN-MAX, e.g. 2-4")
    return int(match.group(1)), int(match.group(2) or match.group(1))


def guess_language(texts: list[str]) -> str:
    """The printing language the card names suggest (kana → ja, hangul → ko, CJK → zh-Hant/zh-Hans)."""
    joined = "".join(texts)
    if re.search(r"[\u3040-\u30ff]", joined):
        return "ja"
    if re.search(r"[\uac00-\ud7af]", joined):
        return "ko"
    han = "".join(re.findall(r"[\u4e00-\u9fff]", joined))
    if not han:
        return "en"
    try:
        han.encode("gb2312")
        return "zh-Hans"
    except UnicodeEncodeError:
        return "zh-Hant"


# ---- reading the sheet -----------------------------------------------------------


def read_sheet(path: Path, encoding: str | None = None) -> tuple[list[str], list[infer.Row]]:
    """Header and rows of a CSV or XLSX file (every worksheet; a sheet's name types its rows)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        return _read_xlsx(path)
    if suffix not in (".csv", ".txt", ".tsv"):
        raise PnpError(f"{path}: --from takes a .csv or .xlsx file")
    if not path.is_file():
        raise PnpError(f"no such file: {path}")
    text = card_records.decode(path.read_bytes(), path, encoding)
    lines = text.splitlines()
    delimiter = "\t" if suffix == ".tsv" else card_records.sniff_delimiter(lines[0] if lines else "", "name")
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise PnpError(f"{path} is empty") from None
    except csv.Error as exc:
        raise PnpError(f"{path}, line 1: broken CSV: {exc}") from None
    rows = []
    try:
        for number, cells in enumerate(reader, 2):
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header) and any(c.strip() for c in cells[len(header) :]):
                raise PnpError(f"{path}, line {number}: {len(cells)} cells, the header has {len(header)}")
            rows.append(infer.Row(dict(zip(header, cells, strict=False)), f"{path}, line {number}"))
    except csv.Error as exc:
        raise PnpError(f"{path}: broken CSV: {exc}") from None
    return header, rows


def _read_xlsx(path: Path) -> tuple[list[str], list[infer.Row]]:
    header: list[str] = []
    rows: list[infer.Row] = []
    tables = list(read_tables(path))
    for title, head, body in tables:
        typed = len(tables) > 1 and "type" not in [h.lower() for h in head]
        for h in head:
            if h and h not in header:
                header.append(h)
        for number, cells in body:
            values = {h: c for h, c in zip(head, cells, strict=False) if h}
            if typed:
                values["type"] = title
            rows.append(infer.Row(values, f"{path}, sheet '{title}', row {number}"))
        if typed and "type" not in header:
            header.append("type")
    if not header:
        raise PnpError(f"{path} has no rows")
    return header, rows


# ---- the bundle ----------------------------------------------------------------------


def _type_entry(itype: infer.InferredType, spec: GameSpec, size: tuple[float, float], title: str) -> dict:
    name_en = itype.name if itype.name.isascii() else itype.slug.replace("-", " ").title()
    return {
        "slug": itype.slug,
        "name": itype.name,
        "name_en": name_en,
        "width_mm": size[0],
        "height_mm": size[1],
        "size_provisional": spec.size is None,
        "role": "deck",
        "back": {"title": title},
        "fields": [f.to_dict() for f in itype.fields],
    }


def _cards(inference: infer.Inference, slug: str, source: str) -> list[dict]:
    cards = []
    for itype in inference.types:
        for number, row in enumerate(itype.rows, 1):
            name = row.cells.get("name", "").strip()
            if not name:
                raise PnpError(f"{row.where}: the name is blank; every card needs one")
            card: dict[str, Any] = {
                "id": infer.card_id(itype, row, number, inference.has_ids),
                "type": itype.slug,
                "name": name,
                "copies": infer.parse_copies(row),
                "fields": infer.card_values(itype, row),
                "provenance": "provisional",
                "source": source,
            }
            for key in ("name_en", "text", "flavor", "notes"):
                if row.cells.get(key, "").strip():
                    card[key] = row.cells[key]
            if row.cells.get("art", "").strip():
                card["art"] = row.cells["art"].strip()
            cards.append(card)
    return cards


def _glossary(types: list[infer.InferredType], source: str) -> list[dict]:
    out: list[dict] = []
    seen: set[str] = set()
    for itype in types:
        for fd in itype.fields:
            if fd.type in ("enum", "list") and fd.allowed and (fd.label or fd.name) not in seen:
                seen.add(fd.label or fd.name)
                out.append(
                    {
                        "term": fd.label or fd.name,
                        "term_en": fd.name,
                        "category": "term",
                        "text": " · ".join(fd.allowed),
                        "source": source,
                    }
                )
    return out


def build_bundle(
    spec: GameSpec,
    inference: infer.Inference | None,
    types: list[infer.InferredType],
    language: str,
    size: tuple[float, float],
    source: str,
) -> dict:
    """The game as a `pnp game import` bundle (validated when it is written)."""
    title_en = spec.title_en or (spec.title if spec.title.isascii() else spec.slug.replace("-", " ").title())
    cards = _cards(inference, spec.slug, source) if inference else []
    # one designed target per type, a type with no cards yet (made from flags) included: it
    # starts at 0 and follows cards add/rm like the others
    composition = [
        {
            "id": t.slug,
            "label": f"{t.name}×{t.copies}",
            "card_type": t.slug,
            "expected": t.copies,
            "provisional": True,
            "follows_deck": True,
            "source": f"designed: copies in {source} (follows cards add/rm)"
            if inference
            else "designed: no cards yet (follows cards add/rm)",
        }
        for t in types
    ]
    # No overview rule: the summary writes the deck's line from the same counts as its
    # Components table, so it follows every cards add/rm (a written one would freeze them).
    rules: list[dict[str, Any]] = []
    return {
        "format": "pnpforge-game/1",
        "game": {
            "slug": spec.slug,
            "title": spec.title,
            "title_en": title_en,
            "language": language,
            "players_min": spec.players[0],
            "players_max": spec.players[1],
            "play_time": spec.play_time,
            "version": "0.1",
            "notes": f"created by pnp game new from {source}",
        },
        "card_types": [_type_entry(t, spec, size, spec.title) for t in types],
        "cards": cards,
        "composition": composition,
        "glossary": _glossary(types, source),
        "rules": rules,
    }


FIELD_TYPES = ("integer", "text", "enum", "boolean", "list")
NO_TYPES = (
    "no --from sheet and no --type: pass --from FILE.csv|FILE.xlsx, or --type NAME (repeatable) "
    f"and --field NAME[:TYPE[=A|B]] (TYPE: {', '.join(FIELD_TYPES)})"
)


def types_from_flags(type_names: list[str], field_specs: list[str]) -> list[infer.InferredType]:
    """Card types named on the command line, each with the fields `name[:type[=a|b]]` describe.

    Fields alone give one type called "card"; nothing at all is refused (a game nobody
    described is not made up)."""
    if not type_names and not field_specs:
        raise PnpError(NO_TYPES)
    fields = [parse_field_spec(s) for s in field_specs]
    out: list[infer.InferredType] = []
    for name in type_names or ["card"]:
        slug = infer.slugify(name, "", "a-z0-9-") or f"type-{len(out) + 1}"
        out.append(infer.InferredType(slug, name.strip(), list(fields)))
    return out


def parse_field_spec(text: str) -> FieldDef:
    """`attack:integer`, `element:enum=fire|water`, `tags:list=a|b`, `flavour` (text)."""
    match = re.fullmatch(r"\s*([^:=]+?)\s*(?::\s*([^=]*?)\s*(?:=(.*))?)?\s*", text)
    kind_word = match.group(2) if match else None
    if not match or (kind_word is not None and kind_word not in FIELD_TYPES):
        said = f"unknown TYPE {kind_word!r}; " if kind_word else ""
        raise PnpError(
            f"--field {text!r}: {said}expected NAME[:TYPE[=A|B]] with TYPE one of "
            f"{', '.join(FIELD_TYPES)}, e.g. power:integer or element:enum=fire|water"
        )
    label, kind, allowed = match.group(1), match.group(2) or "text", match.group(3)
    values = [v.strip() for v in (allowed or "").split("|") if v.strip()]
    if kind in ("enum", "list") and not values:
        raise PnpError(f"--field {text!r}: an {kind} field needs its values, e.g. {label}:{kind}=a|b")
    return FieldDef(infer.slugify(label, "field"), kind, label=label, allowed=values or None)


def create_game(
    db: sqlite_utils.Database,
    db_folder: Path,
    spec: GameSpec,
    source: Path | None = None,
    type_names: list[str] | None = None,
    field_specs: list[str] | None = None,
    encoding: str | None = None,
    replace: bool = False,
    discard_edits: bool = False,
) -> NewGame:
    """Make the game: infer, import as one validated bundle, write layouts, release v0.1.

    Replacing a game that has cards or values the sheet does not (added or edited
    since) is refused, listing them, unless `discard_edits`: a rerun never drops
    a designer's work silently.
    """
    slug_problem = game_slug_problem(spec.slug)
    if slug_problem:
        raise PnpError(slug_problem)
    if spec.language is not None and spec.language not in LANGUAGES:
        raise PnpError(f"--language {spec.language!r}: allowed: {', '.join(LANGUAGES)}")
    inference = None
    if source is not None:
        header, rows = read_sheet(source, encoding)
        inference = infer.infer(header, rows, str(source))
        types = inference.types
    else:
        types = types_from_flags(type_names or [], field_specs or [])
    names = [spec.title] + [r.cells.get("name", "") for t in types for r in t.rows]
    language = spec.language or guess_language(names)
    size = spec.size or DEFAULT_SIZE
    label = source.name if source is not None else "pnp game new"
    data = bundle.parse(build_bundle(spec, inference, types, language, size, label))
    replacing = replace and repo.game_exists(db, spec.slug)
    lost = edits_lost(db, spec.slug, data["cards"]) if replacing else []
    old_types = repo.card_types(db, spec.slug) if replacing else []
    if lost and not discard_edits:
        shown = "; ".join(lost[:12]) + (f"; and {len(lost) - 12} more" if len(lost) > 12 else "")
        raise PnpError(
            f"game '{spec.slug}' has {len(lost)} edit(s) the sheet does not: {shown}. Replacing would "
            "drop them: add them to the sheet, or pass --discard-edits to replace anyway"
        )
    _, problems = import_bundle(db, data, source or Path("pnp game new"), replace=replace)
    folder = db_folder / "templates" / spec.slug
    written, kept = write_layouts_for(folder, spec.title, types, size)
    removed, orphaned = drop_unused_layouts(folder, old_types, {t.slug for t in types})
    slots = [(t.slug, *art_slot(t.fields, *size)) for t in types if folder / f"{t.slug}.toml" in written]
    tag = "v0.1"
    kept_releases = [r.tag for r in releases.list_releases(db, spec.slug)]
    if kept_releases:
        tag = ""  # a replaced game keeps its history; nothing is released again
    else:
        releases.create_release(db, spec.slug, tag, "created by pnp game new")
    return NewGame(
        spec.slug,
        language,
        spec.language is None,
        size,
        inference,
        len(data["cards"]),
        written,
        kept,
        tag,
        problems,
        kept_releases,
        lost,
        removed,
        orphaned,
        slots,
    )


def drop_unused_layouts(
    folder: Path, old_types: list[CardType], new_slugs: set[str]
) -> tuple[list[Path], list[Path]]:
    """After a replace, the starter layouts of card types the game no longer has: removed when
    they are still exactly what `game new` wrote (nothing of the designer's is lost), else left
    and reported. Returns (removed, left in place)."""
    removed: list[Path] = []
    orphaned: list[Path] = []
    for old in old_types:
        path = folder / f"{old.slug}.toml"
        if old.slug in new_slugs or not path.is_file():
            continue
        starter = type_layout(old.name, old.fields, old.width_mm, old.height_mm)
        try:
            untouched = path.read_text(encoding="utf-8") == starter
            if untouched:
                path.unlink()
        except (OSError, UnicodeDecodeError):
            untouched = False
        (removed if untouched else orphaned).append(path)
    return removed, orphaned


def edits_lost(db: sqlite_utils.Database, slug: str, new_cards: list[dict[str, Any]]) -> list[str]:
    """What replacing game `slug` by `new_cards` would undo: each removed card and reverted value."""
    old = {c["id"]: c for c in bundle.export(db, slug)["cards"]}
    new = {c["id"]: c for c in new_cards}
    lost = [f"removes {cid} ({c.get('name', '')})" for cid, c in old.items() if cid not in new]
    for cid, card in new.items():
        before = old.get(cid)
        if before is None:
            continue
        mine, theirs = _flat(before), _flat(card)
        for key in sorted(set(mine) | set(theirs)):
            if key == "source" or _blank(mine.get(key)) and _blank(theirs.get(key)):
                continue
            if mine.get(key) != theirs.get(key):
                lost.append(f"reverts {cid} {key}: {mine.get(key)!r} → {theirs.get(key)!r}")
    return lost


def _flat(card: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in card.items() if k != "fields"}
    out.update({f"fields.{k}": v for k, v in (card.get("fields") or {}).items()})
    return out


def _blank(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def write_layouts_for(
    folder: Path, title: str, types: list[infer.InferredType], size: tuple[float, float]
) -> tuple[list[Path], list[Path]]:
    try:
        return write_layouts(folder, title, [(t.slug, t.name, t.fields) for t in types], *size)
    except OSError as exc:
        raise PnpError(f"cannot write the starter layouts into {folder}: {exc.strerror}") from None

"""A game's kit data in another language: a private card database every printer reads unchanged.

Why a database and not a flag through every printer: the card faces, sheets,
aids, summary, images, shop and TTS files all read the game from cards.db and
its templates.  The language edition is the game's own bundle with every
printed text replaced by its translation, written to a database in a
temporary folder, beside a `templates/` folder holding the game's templates
(translated files where a translation exists).  The edition's slug is
`GAME-LANG` (`enforcer-en`), so its kit goes to `output/GAME-LANG/`, beside
the original's, and never inside it (a build replaces `output/GAME/` whole).

What the edition keeps from the original: every value (numbers, colours,
suits: their printed words are `word(value)` in templates, from the value and
glossary translations), provenance and provisional marks, and each card's
original name in its `name_en`, which a translated layout may show in the
original script (a text region with `font = "zh-Hant"`).  The other second
names are the translated ones (types, glossary terms, the game title) or empty
(components), so summaries and aids print in the edition's script only.  A text with
no translation keeps its original and is listed in `missing`.
"""

from __future__ import annotations

import contextlib
import copy
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge.docs.context import templates_dir
from pnpforge.errors import PnpError
from pnpforge.lang.status import check_language
from pnpforge.lang.units import game_units, template_files
from pnpforge.query.select import stamp_date
from pnpforge.resources import as_roots
from pnpforge.store import bundle, repo, translations
from pnpforge.store.db import open_db, transaction
from pnpforge.store.location import ORIGIN_FILE, db_folder, project_folder
from pnpforge.store.translations import Translation


@dataclass
class Edition:
    """Where a language edition was written, and what it could not translate."""

    db_path: Path
    lang: str
    slugs: dict[str, str] = field(default_factory=dict)  # original slug -> edition slug
    missing: dict[str, int] = field(default_factory=dict)  # original slug -> untranslated texts
    # original slug -> untranslated texts the language's font cannot draw ("card cro01 name")
    undrawable: dict[str, list[str]] = field(default_factory=dict)

    def open(self) -> sqlite_utils.Database:

        return open_db(self.db_path, readonly=True)

    def warnings(self) -> list[str]:
        out = []
        for game, n in self.missing.items():
            if not n:
                continue
            bad = self.undrawable.get(game, [])
            shown = ", ".join(bad[:3]) + (f" and {len(bad) - 3} more" if len(bad) > 3 else "")
            out.append(
                f"{game}: {n} text(s) have no {self.lang} translation and print in the original "
                f"(pnp check {game} --lang {self.lang} lists them)"
                + (
                    f"; {len(bad)} of them use characters the {self.lang} font cannot draw ({shown}): "
                    "a card that shows one is refused until it is translated"
                    if bad
                    else ""
                )
            )
        return out


def edition_slug(game: str, lang: str) -> str:
    return f"{game}-{lang.lower()}"


def is_original(db: sqlite_utils.Database, game: str, lang: str | None) -> bool:
    """True when `lang` is absent or the game's own language: print the original."""

    return lang is None or repo.get_game(db, game).language == lang


@contextlib.contextmanager
def language_db(
    db: sqlite_utils.Database, games: list[str], lang: str | None
) -> Iterator[tuple[Any, list[str], list[str]]]:
    """(database, game slugs, warnings) to print `games` in `lang`: the original when
    `lang` is the game's own, else a temporary edition removed afterwards."""
    if not games or all(is_original(db, g, lang) for g in games):
        yield db, list(games), []
        return
    assert lang is not None
    with tempfile.TemporaryDirectory(prefix="pnp-lang-") as tmp:
        ed = write_edition(db, games, lang, Path(tmp))
        yield ed.open(), [ed.slugs[g] for g in games], ed.warnings()


def write_edition(db: sqlite_utils.Database, games: list[str], lang: str, folder: Path) -> Edition:
    """Write the `lang` edition of `games` into `folder` (cards.db and templates/)."""

    check_language(lang)
    roots = as_roots(templates_dir(db))
    base = db_folder(db)
    path = folder / "cards.db"
    out = open_db(path, create=True)
    ed = Edition(path, lang)
    for game in games:
        data = bundle.export(db, game)
        if data["game"]["language"] == lang:
            raise PnpError(f"{game} is written in {lang} already; print it without --lang")
        rows = translations.of_language(db, game, lang)
        kept: list[tuple[str, str]] = []
        localised, missing, templates = localise(data, rows, lang, roots, base, kept)
        slug = localised["game"]["slug"]
        with transaction(out) as conn:
            bundle.write(out, bundle.parse(localised), replace=False)
            translations.upsert(conn, slug, lang, _words(data, rows))
            stamp = max(stamp_date(db, game), translations.latest(db, game, lang))
            translations.stamp_cards(conn, slug, stamp)
        _write_templates(folder / "templates", roots, game, slug, templates)
        ed.slugs[game] = slug
        ed.missing[game] = missing
        ed.undrawable[game] = undrawable(kept, lang)
    out.conn.close()
    if base is not None:  # its outputs go to the original project's output/, never the temp folder
        (folder / ORIGIN_FILE).write_text(str(project_folder(base)), encoding="utf-8")
    return ed


def undrawable(kept: list[tuple[str, str]], lang: str) -> list[str]:
    """Which texts left in the original the language's regular font has no glyphs for."""
    from pnpforge.render.fonts import ensure_fonts, missing_glyphs  # the fonts load only when needed

    if not kept:
        return []
    try:
        font = ensure_fonts(lang).regular
    except PnpError:  # a language pnpforge has no fonts for: printing it says so itself
        return []
    return [label for label, text in kept if missing_glyphs(text, font)]


def localise(
    data: dict[str, Any],
    rows: dict[tuple[str, str, str], Translation],
    lang: str,
    roots: Any,
    base: Path | None,
    kept: list[tuple[str, str]] | None = None,
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """(the bundle in `lang`, how many texts kept their original, translated template files).

    `kept`, when given, receives ("card cro01 name", original text) for each printed text
    left in the original.
    """
    units = game_units(data, roots)
    wanted = {u.ident for u in units}
    missing = sum(1 for u in units if u.ident not in rows)

    def tr(kind: str, key: str, fld: str, original: str) -> str:
        t = rows.get((kind, key, fld))
        if t is not None and (kind, key, fld) in wanted:
            return t.text
        if kept is not None and (kind, key, fld) in wanted and isinstance(original, str) and original.strip():
            kept.append((f"{kind} {key} {fld}", original))
        return original

    d = copy.deepcopy(data)
    g = d["game"]
    g["slug"] = edition_slug(g["slug"], lang)
    g["title"] = g["title_en"] = tr("game", "game", "title", g["title"])
    g["play_time"] = tr("game", "game", "play_time", g.get("play_time", ""))
    g["language"] = lang
    for t in d.get("card_types", []):
        t["name"] = t["name_en"] = tr("type", t["slug"], "name", t["name"])
        back = t.get("back") or {}
        if "title" in back:
            back["title"] = tr("type", t["slug"], "back_title", back["title"])
        for f in t.get("fields", []):
            if f.get("label"):
                f["label"] = tr("field", f"{t['slug']}.{f['name']}", "label", f["label"])
    for c in d.get("cards", []):
        c["name"], c["name_en"] = tr("card", c["id"], "name", c["name"]), c["name"]
        c["text"] = tr("card", c["id"], "text", c.get("text", ""))
        c["flavor"] = tr("card", c["id"], "flavor", c.get("flavor", ""))
        for fname, value in (c.get("fields") or {}).items():
            if isinstance(value, str):
                c["fields"][fname] = tr("card", c["id"], f"fields.{fname}", value)
        if c.get("art") and base is not None and not Path(c["art"]).is_absolute():
            c["art"] = str(base / c["art"])
    for e in d.get("glossary", []):
        e["text"] = tr("glossary", e["term"], "text", e["text"])
        e["term"] = e["term_en"] = tr("glossary", e["term"], "term", e["term"])
    for pos, s in enumerate(d.get("rules", [])):
        s["title"] = tr("section", str(pos), "title", s["title"])
        s["body"] = tr("section", str(pos), "body", s["body"])
        s["title_en"] = ""
    for r in d.get("composition", []):
        r["label"] = tr("composition", r["id"], "label", r["label"])
    for c in d.get("components", []):
        c["name"], c["name_en"] = tr("component", c["slug"], "name", c["name"]), ""
    d.pop("edition", None)  # frozen anew from the edition's own cards
    d.pop("translations", None)
    templates = {u.key: rows[u.ident].text for u in units if u.kind == "template" and u.ident in rows}
    return d, missing, templates


def _words(data: dict[str, Any], rows: dict[tuple[str, str, str], Translation]) -> list[Translation]:
    """The printed word of every translated value: value rows, and glossary terms used as values."""
    out = [t for t in rows.values() if t.kind == "value"]
    have = {t.key for t in out}
    for e in data.get("glossary", []):
        t = rows.get(("glossary", e["term"], "term"))
        if t is not None and e["term"] not in have:
            out.append(Translation("value", e["term"], "word", t.text, t.source_hash, t.provenance))
    return out


def _write_templates(dest: Path, roots: Any, game: str, slug: str, translated: dict[str, str]) -> None:
    """The game's templates under the edition's slug: translated files, else the originals.

    A project's own `_shared` folder comes along so its overrides still apply.
    """
    for rel, src in template_files(roots, game).items():
        target = dest / slug / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel in translated:
            target.write_text(translated[rel], encoding="utf-8")
        else:
            shutil.copyfile(src, target)
    shared = roots.folders[0] / "_shared"
    if len(roots.folders) > 1 and shared.is_dir() and not (dest / "_shared").exists():
        shutil.copytree(shared, dest / "_shared")

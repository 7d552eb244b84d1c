"""Every original text a game prints, as translation units with a fingerprint.

A unit is (kind, key, field) and the original text.  The list is computed from
the game's bundle (the store's own export) and its template files, so a new
card, section or template is a new unit without any registration, and an
edited original has a new fingerprint, which makes its translation stale.
Values of enum and list fields are units of kind `value` (one per distinct
value, never per card), except those that are glossary terms: their printed
word is the glossary's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pnpforge.resources import TemplateRoots

# Template files of a game that are translated as whole files (layouts, aids, summary).
TEMPLATE_SUFFIXES = (".toml", ".j2")


@dataclass(frozen=True)
class Unit:
    """One original text: what a translation of (kind, key, field) translates."""

    kind: str
    key: str
    field: str
    original: str
    label: str = ""  # what a translator sees beside it: the card's name, the section's title…

    @property
    def ident(self) -> tuple[str, str, str]:
        return (self.kind, self.key, self.field)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.original)


def fingerprint(text: str) -> str:
    """sha256 of the original, 16 hex digits: equal originals, equal fingerprints."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def needs_translation(text: str, language: str) -> bool:
    """Does this original print in the game's own script?

    A Chinese game's texts without a letter of its script (a number, 'EUR', an
    effect key, 'D-01 Thin Provision×4') print the same in every language; an
    English game's every text needs translating.
    """
    if not text.strip():
        return False
    if language.startswith(("zh", "ja", "ko")):
        return any(ord(ch) > 127 and ch.isalpha() for ch in text)
    return any(ch.isalpha() for ch in text)


def game_units(bundle: dict[str, Any], roots: TemplateRoots | None = None) -> list[Unit]:
    """The game's units in a stable order: game, types, fields, values, cards, glossary,
    sections, composition, components, templates."""
    lang = bundle["game"]["language"]
    out: list[Unit] = []

    def add(kind: str, key: str, field: str, text: Any, label: str = "") -> None:
        if isinstance(text, str) and needs_translation(text, lang):
            out.append(Unit(kind, key, field, text, label))

    g = bundle["game"]
    add("game", "game", "title", g["title"])
    add("game", "game", "play_time", g.get("play_time", ""))
    terms = {e["term"] for e in bundle.get("glossary", [])}
    values: dict[str, str] = {}
    text_fields: dict[str, set[str]] = {}
    for t in bundle.get("card_types", []):
        add("type", t["slug"], "name", t["name"])
        add("type", t["slug"], "back_title", (t.get("back") or {}).get("title", ""), t["name"])
        text_fields[t["slug"]] = {f["name"] for f in t.get("fields", []) if f["type"] == "text"}
        for f in t.get("fields", []):
            add("field", f"{t['slug']}.{f['name']}", "label", f.get("label", ""))
            for v in f.get("allowed") or []:
                if f["type"] in ("enum", "list") and v not in terms:
                    values.setdefault(str(v), f"{t['slug']}.{f['name']}")
    for value, where in values.items():
        add("value", value, "word", value, where)
    for c in bundle.get("cards", []):
        label = c["name"]
        add("card", c["id"], "name", c["name"], label)
        add("card", c["id"], "text", c.get("text", ""), label)
        add("card", c["id"], "flavor", c.get("flavor", ""), label)
        for fname in sorted(text_fields.get(c["type"], ())):
            add("card", c["id"], f"fields.{fname}", (c.get("fields") or {}).get(fname), label)
    for e in bundle.get("glossary", []):
        add("glossary", e["term"], "term", e["term"])
        add("glossary", e["term"], "text", e["text"], e["term"])
    for pos, s in enumerate(bundle.get("rules", [])):
        add("section", str(pos), "title", s["title"])
        add("section", str(pos), "body", s["body"], s["title"])
    for r in bundle.get("composition", []):
        add("composition", r["id"], "label", r["label"])
    for c in bundle.get("components", []):
        add("component", c["slug"], "name", c["name"])
    if roots is not None:
        for rel, path in template_files(roots, g["slug"]).items():
            if path.name.endswith(TEMPLATE_SUFFIXES):
                add("template", rel, "file", path.read_text(encoding="utf-8"))
    return out


def template_files(roots: TemplateRoots, game: str) -> dict[str, Path]:
    """A game's files in the templates folders, by path relative to its folder (first folder
    wins), sorted: layouts, aid and summary templates, and anything they use."""
    found: dict[str, Path] = {}
    for folder in roots.folders:
        base = folder / game
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.is_file():
                found.setdefault(PurePosixPath(path.relative_to(base).as_posix()).as_posix(), path)
    return dict(sorted(found.items()))

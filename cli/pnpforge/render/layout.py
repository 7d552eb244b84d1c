"""Card layouts as data: TOML files under templates/<game>/, validated against OPTIONS.

A layout describes one card type's face: card-wide settings, colours, icons,
and a list of regions (text, image, shape, icon, icons, rows) placed in
millimetres.  `extends = "base"` pulls in another file of the same folder
first; tables merge key by key, regions merge by name.  Every option is
declared in render.layout_options with its default and a one-line meaning; templates/README.md
documents the same table (tests/test_layout.py keeps the two in sync), and a
mistake is reported with the file, the place and what is allowed (Squib style).

The option table lives in render.layout_options and the value checks in
render.layout_checks; this module loads, merges and validates layout files, and
render.layout_game gives each card type of a game its layout, checked against the type.
"""

from __future__ import annotations

import copy
import posixpath
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import layout_cache
from pnpforge.render.layout_checks import (
    ColourCheck,
    apply_options,
    check_palette,
)
from pnpforge.render.layout_options import (
    BACK,
    CARD,
    CATEGORIES,
    GENERIC_TOML,
    ICON,
    KEYWORD,
    KINDS,
    MAP_TABLES,
    PLAIN_TABLES,
    PROVISIONAL,
    STAMP,
    TOP_LEVEL,
    Opt,
    region_options,
)
from pnpforge.resources import TemplateRoots, as_roots

# ---- loaded layouts ----------------------------------------------------------------


@dataclass
class Region:
    name: str
    kind: str
    opts: dict[str, Any]
    origin: str  # file that last set this region


@dataclass
class Layout:
    """A validated, merged layout; every option present with its value or default."""

    name: str
    files: list[str]
    card: dict[str, Any]
    palette: dict[str, str]
    categories: dict[str, Any]
    icons: dict[str, dict[str, Any]]
    keywords: dict[str, dict[str, Any]]
    stamp: dict[str, Any]
    provisional: dict[str, Any]
    back: dict[str, Any]
    regions: list[Region] = field(default_factory=list)

    def source(self) -> str:
        return " <- ".join(self.files)


class LayoutError(PnpError):
    """A layout file is wrong; the message lists every problem found."""


def _parse_toml(path: Path) -> dict[str, Any]:
    """A layout file's data (read-only: merging deep-copies what it takes).

    Parsed once per file content: every card type's layout extends the same
    base file, and a build makes several renderers of one game.  The file is
    still read each time, so an edit is always seen.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
        return _parse_toml_bytes(data)
    except tomllib.TOMLDecodeError as e:
        raise LayoutError(f"{path}: not valid TOML: {e}") from e
    except OSError as e:
        raise LayoutError(f"{path}: cannot read layout: {e}") from e


@lru_cache(maxsize=256)
def _parse_toml_bytes(data: bytes) -> dict[str, Any]:
    return layout_cache.parsed_toml(data, lambda raw: tomllib.loads(raw.decode()))


def _resolve_extends(path: Path, name: str, roots: TemplateRoots) -> Path:
    """The file `extends = name` names: beside `path`, looked up along the template folders."""
    folder = roots.relative(path.parent)
    rel = posixpath.normpath(f"{folder}/{name}.toml") if folder is not None else None
    if rel is None or rel.startswith("../") or rel.startswith("/"):
        raise LayoutError(f"{path}: extends = '{name}' leaves the templates folder {roots.folders[0]}")
    target = roots.find(rel)
    if not target.is_file():
        siblings = sorted(
            {p.stem for p in roots.files(posixpath.dirname(rel), "*.toml") if p.name != path.name}
        )
        raise LayoutError(
            f"{path}: extends = '{name}' but {target.name} does not exist "
            f"(layouts here: {', '.join(siblings) or 'none'})"
        )
    return target.resolve()


def _chain(path: Path, roots: TemplateRoots) -> list[tuple[Path, dict[str, Any]]]:
    """The extends chain, base first; a cycle is an error that shows it."""
    chain: list[tuple[Path, dict[str, Any]]] = []
    seen: list[Path] = []
    cur: Path | None = path.resolve()
    while cur is not None:
        if cur in seen:
            loop = " -> ".join(p.stem for p in seen + [cur])
            raise LayoutError(f"{path}: extends cycle: {loop}")
        seen.append(cur)
        data = _parse_toml(cur)
        chain.append((cur, data))
        ext = data.get("extends")
        if ext is None:
            cur = None
        elif not isinstance(ext, str) or not ext:
            raise LayoutError(
                f"{cur}: extends must be the name of another layout file, without .toml (got {ext!r})"
            )
        else:
            cur = _resolve_extends(cur, ext, roots)
    return list(reversed(chain))


def _label(path: Path, roots: TemplateRoots | None) -> str:
    return roots.label(path) if roots is not None else str(path)


def load_layout(path: Path, root: Path | Sequence[Path] | TemplateRoots | None = None) -> Layout:
    """Load one layout file with its extends chain; raise LayoutError listing every problem.

    `root` is the project's templates folder (or the search order); without it
    the file's own folder is the only place `extends` looks.
    """
    roots = as_roots(root) if root is not None else TemplateRoots((path.parent,))
    chain = _chain(path, roots)
    return _build([(_label(p, roots), d) for p, d in chain], name=path.stem)


def load_tables(
    path: Path,
    root: Path | Sequence[Path] | TemplateRoots | None,
    sections: dict[str, list[Opt]],
    palette: dict[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """A file of option tables that follows the layout rules without being a card layout.

    Player-aid styles use it: `extends` chains and per-file overrides as for
    layouts, tables merged key by key, every option checked against `sections`
    (unknown tables and options named with what is allowed), every table
    returned complete with its defaults.  `palette` names colours the caller
    resolves (e.g. the game's accent colour).
    """
    roots = as_roots(root) if root is not None else TemplateRoots((path.parent,))
    chain = _chain(path, roots)
    problems: list[str] = []
    merged: dict[str, dict[str, Any]] = {name: {} for name in sections}
    for file, data in chain:
        label = _label(file, roots)
        for key, value in data.items():
            if key == "extends":
                continue
            if key not in sections:
                problems.append(f"{label}: unknown table [{key}] (allowed: {', '.join(sections)})")
            elif not isinstance(value, dict):
                problems.append(f"{label}: [{key}] must be a table")
            else:
                merged[key].update(value)
    where = " <- ".join(_label(p, roots) for p, _ in reversed(chain))
    colours = ColourCheck(dict(palette or {}))
    tables = {
        name: apply_options(f"{where}: [{name}]", opts, merged[name], problems, colours)
        for name, opts in sections.items()
    }
    if problems:
        raise LayoutError(f"{where} has {len(problems)} problem(s):\n  - " + "\n  - ".join(problems))
    return tables


def generic_layout() -> Layout:
    """The built-in layout for card types that have no file."""
    return _build([("<built-in generic layout>", _generic_data())], name="generic")


@lru_cache(maxsize=1)
def _generic_data() -> dict[str, Any]:
    return tomllib.loads(GENERIC_TOML)


def _build(chain: list[tuple[str, dict[str, Any]]], name: str) -> Layout:
    problems: list[str] = []
    merged: dict[str, Any] = {k: {} for k in PLAIN_TABLES + MAP_TABLES}
    regions: dict[str, Region] = {}
    for label, data in chain:
        _merge_file(label, data, merged, regions, problems)
    layout = _finish(name, [lbl for lbl, _ in reversed(chain)], merged, regions, problems)
    if problems:
        raise LayoutError(
            f"layout '{name}' ({' <- '.join(lbl for lbl, _ in reversed(chain))}) "
            f"has {len(problems)} problem(s):\n  - " + "\n  - ".join(problems)
        )
    return layout


def _merge_file(
    label: str, data: dict[str, Any], merged: dict[str, Any], regions: dict[str, Region], problems: list[str]
) -> None:
    for key, value in data.items():
        if key not in TOP_LEVEL:
            problems.append(f"{label}: unknown top-level key '{key}' (allowed: {', '.join(TOP_LEVEL)})")
        elif key == "extends":
            continue
        elif key == "regions":
            if not isinstance(value, list):
                problems.append(f"{label}: 'regions' must be an array of tables ([[regions]])")
                continue
            for i, reg in enumerate(value, 1):
                _merge_region(label, i, reg, regions, problems)
        elif not isinstance(value, dict):
            problems.append(f"{label}: '{key}' must be a table ([{key}])")
        elif key in MAP_TABLES and key != "palette":
            for sub, table in value.items():
                if not isinstance(table, dict):
                    problems.append(f"{label}: [{key}.{sub}] must be a table")
                    continue
                merged[key].setdefault(sub, {}).update(copy.deepcopy(table))
        elif key == "categories" and isinstance(value.get("colours"), dict):
            cols = {**merged[key].get("colours", {}), **value["colours"]}
            merged[key].update(copy.deepcopy(value))
            merged[key]["colours"] = cols
        else:
            merged[key].update(copy.deepcopy(value))


def _merge_region(label: str, index: int, reg: Any, regions: dict[str, Region], problems: list[str]) -> None:
    if not isinstance(reg, dict):
        problems.append(f"{label}: regions entry {index} must be a table")
        return
    name = reg.get("name")
    if not isinstance(name, str) or not name:
        problems.append(f"{label}: regions entry {index} has no name (every region needs `name`)")
        return
    if name in regions:
        regions[name].opts.update(copy.deepcopy(reg))
        regions[name].origin = label
    else:
        regions[name] = Region(name=name, kind="", opts=copy.deepcopy(reg), origin=label)


def _finish(
    name: str, files: list[str], merged: dict[str, Any], regions: dict[str, Region], problems: list[str]
) -> Layout:
    where = files[0]
    palette = check_palette(where, merged["palette"], problems)
    ctx = ColourCheck(palette)
    card = apply_options(f"{where}: [card]", CARD, merged["card"], problems, ctx)
    cats = apply_options(f"{where}: [categories]", CATEGORIES, merged["categories"], problems, ctx)
    for value, colour in cats.get("colours", {}).items():
        ctx.check(f"{where}: [categories.colours] '{value}'", colour, problems)
    icons = {
        k: apply_options(f"{where}: [icons.{k}]", ICON, v, problems, ctx) for k, v in merged["icons"].items()
    }
    keywords = {
        k: apply_options(f"{where}: [keywords.{k}]", KEYWORD, v, problems, ctx)
        for k, v in merged["keywords"].items()
    }
    for word, kw in keywords.items():
        if kw["icon"] and kw["icon"] not in icons:
            problems.append(
                f"{where}: [keywords.{word}] icon '{kw['icon']}' is not declared "
                f"(icons: {', '.join(icons) or 'none'})"
            )
    stamp = apply_options(f"{where}: [stamp]", STAMP, merged["stamp"], problems, ctx)
    prov = apply_options(f"{where}: [provisional]", PROVISIONAL, merged["provisional"], problems, ctx)
    back = apply_options(f"{where}: [back]", BACK, merged["back"], problems, ctx)
    out: list[Region] = []
    for reg in regions.values():
        kind = reg.opts.get("kind")
        if kind not in KINDS:
            problems.append(
                f"{reg.origin}: region '{reg.name}': kind {kind!r} is not allowed "
                f"(allowed: {', '.join(KINDS)})"
            )
            continue
        opts = apply_options(
            f"{reg.origin}: region '{reg.name}' (kind {kind})",
            region_options(kind),
            reg.opts,
            problems,
            ctx,
            inherit=card,
        )
        if not opts.get("enabled", True):
            continue
        if kind == "icons" and opts.get("default") and opts["default"] not in icons:
            problems.append(
                f"{reg.origin}: region '{reg.name}': default icon '{opts['default']}' "
                f"is not declared (icons: {', '.join(icons) or 'none'})"
            )
        out.append(Region(reg.name, kind, opts, reg.origin))
    out.sort(key=lambda r: r.opts["layer"])  # stable: file order within a layer
    return Layout(
        name=name,
        files=files,
        card=card,
        palette=palette,
        categories=cats,
        icons=icons,
        keywords=keywords,
        stamp=stamp,
        provisional=prov,
        back=back,
        regions=out,
    )

"""Card layouts as data: TOML files under templates/<game>/, validated against OPTIONS.

A layout describes one card type's face: card-wide settings, colours, icons,
and a list of regions (text, image, shape, icon, icons, rows) placed in
millimetres.  `extends = "base"` pulls in another file of the same folder
first; tables merge key by key, regions merge by name.  Every option is
declared below with its default and a one-line meaning; templates/README.md
documents the same table (tests/test_layout.py keeps the two in sync), and a
mistake is reported with the file, the place and what is allowed (Squib style).
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
from pnpforge.render import units
from pnpforge.resources import TemplateRoots, as_roots

# ---- the option table -------------------------------------------------------------


class Inherit:
    """Default that takes a [card] value, e.g. a text region's size -> card.font_size."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __repr__(self) -> str:
        return f"card.{self.key}"


@dataclass(frozen=True)
class Opt:
    """One layout option: its kind of value, default and meaning."""

    name: str
    kind: str        # text|template|expr|colour|number|mm|pt|length|bool|int|choice
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    required: bool = False


SHAPES = ("rect", "rounded", "circle", "ellipse", "diamond", "pentagon", "inv-pentagon",
          "hexagon", "banner")
ICON_SHAPES = ("rounded", "rect", "circle", "diamond", "pentagon", "inv-pentagon", "hexagon",
               "none")
KINDS = ("text", "image", "shape", "icon", "icons", "rows")
FONTS = ("regular", "bold")
ALIGN = ("left", "center", "right")
VALIGN = ("top", "middle", "bottom")

_O = Opt
CARD = [
    _O("background", "colour", "#ffffff", "Face colour; fills the trim box and the bleed."),
    _O("colour", "colour", "#1a1a1a", "Default text colour."),
    _O("font_size", "pt", 7.0, "Default text size in points."),
    _O("min_font_size", "pt", 4.5, "Default smallest size text may shrink to before it overflows."),
    _O("leading", "number", 1.3, "Default line height as a multiple of the text size."),
    _O("safe_margin", "mm", 3.0, "Distance inside the trim that text must keep (the safe area)."),
]
CATEGORIES = [
    _O("field", "text", "", "Card field whose value picks a colour (e.g. `category`); "
       "a value of several keys (`稅罰`) or a list gives `category` and `category2`."),
    _O("default", "colour", "#666666", "Colour when the card's value has no entry in `colours`."),
    _O("colours", "map", {}, "Table: field value -> colour."),
]
ICON = [
    _O("shape", "choice", "rounded", "Badge shape.", ICON_SHAPES),
    _O("fill", "colour", "#444444", "Badge colour."),
    _O("stroke", "colour", "", "Badge outline colour (empty: none)."),
    _O("text", "text", "", "Characters inside the badge (empty: the icon's name)."),
    _O("text_colour", "colour", "", "Colour of the badge text (empty: black or white, whichever reads)."),
    _O("font", "choice", "bold", "Font of the badge text.", FONTS),
    _O("scale", "number", 1.0, "Size of the badge inline in text, relative to the text size."),
]
KEYWORD = [
    _O("icon", "text", "", "Replace the keyword by this inline icon (empty: keep the word)."),
    _O("bold", "bool", True, "Set the keyword in bold."),
    _O("colour", "colour", "", "Colour of the keyword (empty: the region's text colour)."),
]
STAMP = [
    _O("enabled", "bool", True, "Print the stamp."),
    _O("text", "template", "{{ game.title }} v{{ game.version }} · {{ date }} · {{ card.id }}",
       "What the stamp says."),
    _O("size", "pt", 4.5, "Stamp text size."),
    _O("min_size", "pt", 3.5, "Smallest stamp size before it overflows."),
    _O("colour", "colour", "#8a8a8a", "Stamp colour."),
    _O("position", "choice", "bottom", "Edge of the safe area the stamp sits on.", ("bottom", "top")),
    _O("align", "choice", "center", "Stamp alignment.", ALIGN),
]
PROVISIONAL = [
    _O("badge", "template", "auto", "Badge on a card with any provisional value "
       "(`auto`: 暫 / 暂 for Chinese games, P otherwise; empty: no badge)."),
    _O("badge_size", "mm", 3.2, "Badge diameter."),
    _O("badge_fill", "colour", "#b03a2e", "Badge colour."),
    _O("badge_text_colour", "colour", "#ffffff", "Badge text colour."),
    _O("position", "choice", "bottom-right", "Corner of the safe area for the badge.",
       ("bottom-right", "bottom-left", "top-right", "top-left")),
    _O("mark", "text", "†", "Sign after each provisional value (cards that are only partly provisional)."),
    _O("mark_colour", "colour", "#b03a2e", "Colour of the sign."),
    _O("legend", "template", "auto", "Added to the stamp when a sign is shown "
       "(`auto`: `† 暫定值` / `† 暂定值` / `† provisional`; empty: none)."),
]
BACK = [
    _O("colour", "colour", "", "Back colour (empty: the card type's back.colour, else #34495e)."),
    _O("title", "template", "{{ back.title or game.title }}", "Big centred title."),
    _O("subtitle", "template", "{{ back.subtitle or type.name }}", "Line under the title."),
    _O("footer", "template", "{{ game.title if game.title not in (back.title or '') else '' }}",
       "Small line near the bottom edge."),
    _O("pattern", "choice", "lattice", "Background pattern (all are mirror-symmetric, "
       "so a duplex back lines up either way).", ("lattice", "dots", "rings", "stripes", "none")),
    _O("pattern_colour", "colour", "", "Pattern colour (empty: a tint of the back colour)."),
    _O("frame", "bool", True, "Draw an inner frame."),
    _O("frame_inset", "mm", 3.5, "Frame distance from the trim."),
    _O("title_size", "pt", 13.0, "Title size (shrinks to fit)."),
    _O("subtitle_size", "pt", 7.0, "Subtitle size."),
    _O("text_colour", "colour", "", "Text and frame colour (empty: black or white, whichever reads)."),
]
REGION_COMMON = [
    _O("name", "text", "", "Region name, unique in the layout; a layout that extends another "
       "changes a region by naming it again.", required=True),
    _O("kind", "choice", "", "What the region draws.", KINDS, required=True),
    _O("x", "length", 0.0, "Left edge, mm from the trim's left (number or expression of W and H, e.g. `W - 12`)."),
    _O("y", "length", 0.0, "Top edge, mm from the trim's top."),
    _O("w", "length", "W", "Width in mm."),
    _O("h", "length", 10.0, "Height in mm."),
    _O("when", "expr", "", "Draw only when this Jinja2 expression is true (empty: always)."),
    _O("layer", "int", 0, "Drawing order: lower layers first; equal layers keep file order."),
    _O("enabled", "bool", True, "false removes an inherited region."),
    _O("rotate", "choice", "0", "Turn the region's content about its centre (degrees).",
       ("0", "90", "180", "270")),
    _O("fill", "colour", "", "Background colour of the region's shape (empty: none)."),
    _O("stroke", "colour", "", "Outline colour of the region's shape (empty: none)."),
    _O("stroke_width", "mm", 0.3, "Outline width."),
    _O("shape", "choice", "rect", "Shape behind the region.", SHAPES),
    _O("radius", "mm", 1.5, "Corner radius of `rounded` shapes."),
    _O("bleed", "bool", False, "Extend the shape into the bleed on every trim edge it touches."),
    _O("outside_safe", "bool", False, "Allow text of this region outside the safe area."),
]
REGION_TEXT = [
    _O("text", "template", "", "Jinja2 template over the card (see Context).", required=True),
    _O("font", "choice", "regular", "Font.", FONTS),
    _O("size", "pt", Inherit("font_size"), "Largest text size."),
    _O("min_size", "pt", Inherit("min_font_size"), "Smallest size before an overflow error."),
    _O("colour", "colour", Inherit("colour"), "Text colour."),
    _O("align", "choice", "left", "Horizontal alignment.", ALIGN),
    _O("valign", "choice", "top", "Vertical alignment.", VALIGN),
    _O("leading", "number", Inherit("leading"), "Line height as a multiple of the size."),
    _O("padding", "mm", 0.0, "Space between the region's edge and its text."),
    _O("fit", "choice", "shrink", "`shrink`: reduce the size until the text fits; "
       "`fixed`: keep `size` and report an overflow.", ("shrink", "fixed")),
    _O("keywords", "bool", True, "Apply the layout's [keywords] styles."),
]
REGION_ROWS = [
    _O("items", "expr", "fields()", "Expression giving the rows: a list of (label, value) pairs."),
    _O("font", "choice", "bold", "Font of the values.", FONTS),
    _O("label_font", "choice", "regular", "Font of the labels.", FONTS),
    _O("size", "pt", Inherit("font_size"), "Largest text size."),
    _O("min_size", "pt", Inherit("min_font_size"), "Smallest size before an overflow error."),
    _O("colour", "colour", Inherit("colour"), "Value colour."),
    _O("label_colour", "colour", "#666666", "Label colour."),
    _O("leading", "number", Inherit("leading"), "Line height as a multiple of the size."),
    _O("padding", "mm", 0.0, "Space between the region's edge and the rows."),
    _O("rule", "colour", "", "Colour of a hairline between rows (empty: none)."),
    _O("keywords", "bool", True, "Apply the layout's [keywords] styles to values."),
]
REGION_IMAGE = [
    _O("source", "template", "{{ card.art or '' }}", "Image path (relative to the database's "
       "folder); empty: the card has no art."),
    _O("fit", "choice", "cover", "`cover` fills the region (cropping); `contain` shows the whole image.",
       ("cover", "contain")),
    _O("dpi", "int", 300, "Resolution the image is resampled to."),
    _O("empty", "choice", "pattern", "What a card without art shows.", ("pattern", "none")),
    _O("empty_colour", "colour", "#d9d4cc", "Colour of the empty pattern and of the missing-art placeholder."),
]
REGION_ICON = [
    _O("icon", "template", "", "Name of an [icons] entry to draw, filling the region's height.",
       required=True),
    _O("align", "choice", "center", "Horizontal alignment in the region.", ALIGN),
]
REGION_ICONS = [
    _O("items", "expr", "", "Expression giving a list of icon names, drawn in a row or column.",
       required=True),
    _O("direction", "choice", "row", "Lay the icons out left-to-right or top-to-bottom.",
       ("row", "column")),
    _O("gap", "mm", 1.0, "Space between icons."),
    _O("align", "choice", "center", "Alignment of the group in the region.", ALIGN),
    _O("default", "text", "", "Icon whose look draws items that are not declared icons, "
       "with the item as its text (empty: such an item is an error)."),
]
REGION_SHAPE: list[Opt] = []

SECTIONS: dict[str, list[Opt]] = {
    "card": CARD, "categories": CATEGORIES, "icons.NAME": ICON, "keywords.WORD": KEYWORD,
    "stamp": STAMP, "provisional": PROVISIONAL, "back": BACK,
    "regions": REGION_COMMON, "regions.text": REGION_TEXT, "regions.rows": REGION_ROWS,
    "regions.image": REGION_IMAGE, "regions.shape": REGION_SHAPE, "regions.icon": REGION_ICON,
    "regions.icons": REGION_ICONS,
}
TOP_LEVEL = ("extends", "card", "palette", "categories", "icons", "keywords", "stamp",
             "provisional", "back", "regions")
_TABLES = ("card", "categories", "stamp", "provisional", "back")
_MAPS = ("palette", "icons", "keywords")


def region_options(kind: str) -> list[Opt]:
    return REGION_COMMON + SECTIONS.get(f"regions.{kind}", [])


@lru_cache(maxsize=None)
def _region_option(kind: str, name: str) -> Opt | None:
    """The option `name` of a region kind (a lookup check_fields makes for every value)."""
    return next((o for o in region_options(kind) if o.name == name), None)


# ---- loaded layouts ----------------------------------------------------------------


@dataclass
class Region:
    name: str
    kind: str
    opts: dict[str, Any]
    origin: str        # file that last set this region


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


# ---- loading --------------------------------------------------------------------------

GENERIC_TOML = '''
# Built-in fallback for a card type without a layout: name, every field, text.
[card]
background = "#fdfcf9"

[[regions]]
name = "frame"
kind = "shape"
x = 1.5
y = 1.5
w = "W - 3"
h = "H - 3"
shape = "rounded"
radius = 2
stroke = "#9a9a9a"
stroke_width = 0.35

[[regions]]
name = "header"
kind = "shape"
x = 0
y = 0
w = "W"
h = 13
fill = "#3d4a57"
bleed = true

[[regions]]
name = "title"
kind = "text"
x = 3.5
y = 3
w = "W - 7"
h = 6.5
text = "{{ card.name }}"
font = "bold"
size = 10
min_size = 5
colour = "#ffffff"
valign = "middle"

[[regions]]
name = "subtitle"
kind = "text"
x = 3.5
y = 9.2
w = "W - 7"
h = 3.3
text = "{{ type.name }}{% if card.name_en %} · {{ card.name_en }}{% endif %}"
size = 5.5
min_size = 3.5
colour = "#d8dee4"

[[regions]]
name = "fields"
kind = "rows"
x = 3.5
y = 15
w = "W - 7"
h = "(H - 23) / 2"
size = 6.5
rule = "#e2ddd3"

[[regions]]
name = "text"
kind = "text"
x = 3.5
y = "15 + (H - 23) / 2 + 1"
w = "W - 7"
h = "(H - 23) / 2 - 1"
text = "{{ card.text }}{% if card.flavor %}\\n\\n{{ card.flavor }}{% endif %}"
size = 6.5
'''


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
    return tomllib.loads(data.decode())


def _resolve_extends(path: Path, name: str, roots: TemplateRoots) -> Path:
    """The file `extends = name` names: beside `path`, looked up along the template folders."""
    folder = roots.relative(path.parent)
    rel = posixpath.normpath(f"{folder}/{name}.toml") if folder is not None else None
    if rel is None or rel.startswith("../") or rel.startswith("/"):
        raise LayoutError(f"{path}: extends = '{name}' leaves the templates folder "
                          f"{roots.folders[0]}")
    target = roots.find(rel)
    if not target.is_file():
        siblings = sorted({p.stem for p in roots.files(posixpath.dirname(rel), "*.toml")
                           if p.name != path.name})
        raise LayoutError(f"{path}: extends = '{name}' but {target.name} does not exist "
                          f"(layouts here: {', '.join(siblings) or 'none'})")
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
            raise LayoutError(f"{cur}: extends must be the name of another layout file, "
                              f"without .toml (got {ext!r})")
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


def generic_layout() -> Layout:
    """The built-in layout for card types that have no file."""
    return _build([("<built-in generic layout>", _generic_data())], name="generic")


@lru_cache(maxsize=1)
def _generic_data() -> dict[str, Any]:
    return tomllib.loads(GENERIC_TOML)


def _build(chain: list[tuple[str, dict[str, Any]]], name: str) -> Layout:
    problems: list[str] = []
    merged: dict[str, Any] = {k: {} for k in _TABLES + _MAPS}
    regions: dict[str, Region] = {}
    for label, data in chain:
        _merge_file(label, data, merged, regions, problems)
    layout = _finish(name, [lbl for lbl, _ in reversed(chain)], merged, regions, problems)
    if problems:
        raise LayoutError(f"layout '{name}' ({' <- '.join(lbl for lbl, _ in reversed(chain))}) "
                          f"has {len(problems)} problem(s):\n  - " + "\n  - ".join(problems))
    return layout


def _merge_file(label: str, data: dict[str, Any], merged: dict[str, Any],
                regions: dict[str, Region], problems: list[str]) -> None:
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
        elif key in _MAPS and key != "palette":
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


def _merge_region(label: str, index: int, reg: Any, regions: dict[str, Region],
                  problems: list[str]) -> None:
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


def _finish(name: str, files: list[str], merged: dict[str, Any], regions: dict[str, Region],
            problems: list[str]) -> Layout:
    where = files[0]
    palette = _check_palette(where, merged["palette"], problems)
    ctx = _ColourCheck(palette)
    card = _apply(f"{where}: [card]", CARD, merged["card"], problems, ctx)
    cats = _apply(f"{where}: [categories]", CATEGORIES, merged["categories"], problems, ctx)
    for value, colour in cats.get("colours", {}).items():
        ctx.check(f"{where}: [categories.colours] '{value}'", colour, problems)
    icons = {k: _apply(f"{where}: [icons.{k}]", ICON, v, problems, ctx)
             for k, v in merged["icons"].items()}
    keywords = {k: _apply(f"{where}: [keywords.{k}]", KEYWORD, v, problems, ctx)
                for k, v in merged["keywords"].items()}
    for word, kw in keywords.items():
        if kw["icon"] and kw["icon"] not in icons:
            problems.append(f"{where}: [keywords.{word}] icon '{kw['icon']}' is not declared "
                            f"(icons: {', '.join(icons) or 'none'})")
    stamp = _apply(f"{where}: [stamp]", STAMP, merged["stamp"], problems, ctx)
    prov = _apply(f"{where}: [provisional]", PROVISIONAL, merged["provisional"], problems, ctx)
    back = _apply(f"{where}: [back]", BACK, merged["back"], problems, ctx)
    out: list[Region] = []
    for reg in regions.values():
        kind = reg.opts.get("kind")
        if kind not in KINDS:
            problems.append(f"{reg.origin}: region '{reg.name}': kind {kind!r} is not allowed "
                            f"(allowed: {', '.join(KINDS)})")
            continue
        opts = _apply(f"{reg.origin}: region '{reg.name}' (kind {kind})", region_options(kind),
                      reg.opts, problems, ctx, inherit=card)
        if not opts.get("enabled", True):
            continue
        if kind == "icons" and opts.get("default") and opts["default"] not in icons:
            problems.append(f"{reg.origin}: region '{reg.name}': default icon '{opts['default']}' "
                            f"is not declared (icons: {', '.join(icons) or 'none'})")
        out.append(Region(reg.name, kind, opts, reg.origin))
    out.sort(key=lambda r: r.opts["layer"])  # stable: file order within a layer
    return Layout(name=name, files=files, card=card, palette=palette, categories=cats,
                  icons=icons, keywords=keywords, stamp=stamp, provisional=prov, back=back,
                  regions=out)


def _check_palette(where: str, palette: dict[str, Any], problems: list[str]) -> dict[str, str]:
    out = {}
    for key, value in palette.items():
        if not isinstance(value, str) or not units.is_hex_colour(value):
            problems.append(f"{where}: [palette] '{key}' = {value!r} is not a colour (use #rgb or #rrggbb)")
        elif key in ("category", "category2"):
            problems.append(f"{where}: [palette] '{key}' is reserved for the card's category colour")
        else:
            out[key] = value
    return out


class _ColourCheck:
    """Checks colour values that do not depend on the card."""

    def __init__(self, palette: dict[str, str]) -> None:
        self.palette = palette

    def check(self, where: str, value: Any, problems: list[str]) -> None:
        if not isinstance(value, str):
            problems.append(f"{where}: colour must be a string, got {value!r}")
            return
        if value == "" or "{{" in value or units.is_hex_colour(value) \
                or value in ("category", "category2") or value in self.palette:
            if "{{" in value:
                _check_template(where, value, problems)
            return
        names = ", ".join(sorted(self.palette)) or "none"
        problems.append(f"{where}: '{value}' is not a colour (allowed: #rgb, #rrggbb, category, "
                        f"category2, a {{{{ template }}}}, or a palette name: {names})")


def _apply(where: str, opts: list[Opt], values: dict[str, Any], problems: list[str],
           colours: _ColourCheck, inherit: dict[str, Any] | None = None) -> dict[str, Any]:
    """Check `values` against `opts` and return every option with its value or default."""
    table = {o.name: o for o in opts}
    for key in values:
        if key not in table:
            problems.append(f"{where}: unknown option '{key}' (allowed: {', '.join(table)})")
    out: dict[str, Any] = {}
    for o in opts:
        if o.name in values:
            out[o.name] = _check_value(where, o, values[o.name], problems, colours)
        elif o.required:
            problems.append(f"{where}: option '{o.name}' is required ({o.doc})")
            out[o.name] = o.default
        elif isinstance(o.default, Inherit):
            out[o.name] = (inherit or {}).get(o.default.key,
                                              next(c.default for c in CARD if c.name == o.default.key))
        else:
            out[o.name] = copy.deepcopy(o.default)
    return out


def _check_value(where: str, o: Opt, v: Any, problems: list[str], colours: _ColourCheck) -> Any:
    bad = f"{where}: option '{o.name}'"
    k = o.kind
    if k in ("text", "template", "expr"):
        if not isinstance(v, str):
            problems.append(f"{bad} must be a string, got {v!r}")
        elif k == "template":
            _check_template(bad, v, problems)
        elif k == "expr" and v:
            _check_expr(bad, v, problems)
        return v
    if k == "colour":
        colours.check(bad, v, problems)
        return v
    if k == "choice":
        v = str(v) if isinstance(v, int) and not isinstance(v, bool) else v
        if v not in o.choices:
            problems.append(f"{bad}: {v!r} is not allowed (allowed: {', '.join(o.choices)})")
        return v
    if k == "bool":
        if not isinstance(v, bool):
            problems.append(f"{bad} must be true or false, got {v!r}")
        return v
    if k == "int":
        if not isinstance(v, int) or isinstance(v, bool):
            problems.append(f"{bad} must be a whole number, got {v!r}")
        return v
    if k in ("number", "mm", "pt"):
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            problems.append(f"{bad} must be a number, got {v!r}")
            return v
        if k == "pt" and v <= 0:
            problems.append(f"{bad} must be a size above 0 pt, got {v}")
        if k == "mm" and v < 0:
            problems.append(f"{bad} must not be negative, got {v}")
        return float(v)
    if k == "length":
        try:
            units.eval_length(v, 63.0, 88.0)
        except ValueError as e:
            problems.append(f"{bad}: {e}")
        return v
    if k == "map":
        if not isinstance(v, dict):
            problems.append(f"{bad} must be a table")
        return v
    raise AssertionError(f"unknown option kind {k}")  # pragma: no cover - table bug


# ---- Jinja2 ----------------------------------------------------------------------------

_ENV = None


def jinja_env():
    """The sandboxed environment layout templates and expressions are checked in."""
    global _ENV
    if _ENV is None:
        from pnpforge.render.templating import sandboxed_environment
        _ENV = sandboxed_environment()  # the same rules the faces render with
    return _ENV


def _check_template(where: str, text: str, problems: list[str]) -> None:
    error = _template_error(text)
    if error:
        problems.append(f"{where}: {error}")


def _template_error(text: str) -> str:
    """The syntax error of a template, or "" (parsed once: base layouts are checked once
    per card type that extends them, and field_names_used reads the same tree)."""
    from jinja2 import TemplateSyntaxError
    try:
        _parse_template(text)
    except TemplateSyntaxError as e:
        return f"template error on line {e.lineno}: {e.message}"
    return ""


@lru_cache(maxsize=2048)
def _parse_template(text: str) -> Any:
    """The template's syntax tree (read-only; a syntax error raises and is not cached)."""
    return jinja_env().parse(text)


def _check_expr(where: str, text: str, problems: list[str]) -> None:
    error = _expr_error(text)
    if error:
        problems.append(f"{where}: {error}")


@lru_cache(maxsize=2048)
def _expr_error(text: str) -> str:
    from jinja2 import TemplateSyntaxError
    try:
        jinja_env().compile_expression(text)
    except TemplateSyntaxError as e:
        return f"expression error: {e.message}"
    return ""


def field_names_used(source: str, expression: bool = False) -> set[str]:
    """Names read as `f.NAME`, `f['NAME']` or `card.fields.NAME` in a template or expression."""
    return set(_field_names_used(source, expression))


@lru_cache(maxsize=2048)
def _field_names_used(source: str, expression: bool) -> frozenset[str]:
    from jinja2 import nodes
    tree = _parse_template("{{ " + source + " }}" if expression else source)
    used: set[str] = set()

    def is_fields(node: nodes.Node) -> bool:
        if isinstance(node, nodes.Name) and node.name == "f":
            return True
        return (isinstance(node, nodes.Getattr) and node.attr == "fields"
                and isinstance(node.node, nodes.Name) and node.node.name == "card")

    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Getattr) and is_fields(node.node):
            used.add(node.attr)
        elif isinstance(node, nodes.Getitem) and is_fields(node.node) \
                and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            used.add(node.arg.value)
    return frozenset(used)


def check_fields(layout: Layout, field_names: list[str], type_slug: str) -> None:
    """Every field a region reads must exist on the card type it draws."""
    problems = []
    allowed = set(field_names)
    for reg in layout.regions:
        for key, value in reg.opts.items():
            opt = _region_option(reg.kind, key)
            if opt is None or not isinstance(value, str) or not value:
                continue
            if opt.kind in ("template", "colour") or (opt.kind == "expr"):
                if opt.kind == "colour" and "{{" not in value:
                    continue
                try:
                    used = field_names_used(value, expression=opt.kind == "expr")
                except Exception:  # syntax errors were reported when loading
                    continue
                for name in sorted(used - allowed):
                    problems.append(f"{reg.origin}: region '{reg.name}' option '{key}' reads "
                                    f"field '{name}', which card type '{type_slug}' does not have "
                                    f"(fields: {', '.join(field_names) or 'none'})")
    if problems:
        raise LayoutError(f"layout '{layout.name}' does not fit card type '{type_slug}':\n  - "
                          + "\n  - ".join(problems))


def check_geometry(layout: Layout, width: float, height: float, type_slug: str) -> None:
    """Regions must lie on the card; text must keep inside the safe area."""
    problems = []
    safe = layout.card["safe_margin"]
    stamp = layout.stamp
    # the stamp's line (and the provisional badge beside it) belongs to no region
    band = max(stamp["size"] * 1.25 / units.MM, layout.provisional["badge_size"])
    band_top = safe + band if stamp["position"] == "top" else height - safe - band
    for reg in layout.regions:
        o = reg.opts
        x, y, w, h = (units.eval_length(o[k], width, height) for k in ("x", "y", "w", "h"))
        if w <= 0 or h <= 0:
            problems.append(f"{reg.origin}: region '{reg.name}' has no area on a {width:g}×{height:g} mm "
                            f"card (w = {w:g}, h = {h:g} mm)")
            continue
        eps = 0.01
        if x < -eps or y < -eps or x + w > width + eps or y + h > height + eps:
            problems.append(f"{reg.origin}: region '{reg.name}' ({x:g}, {y:g}, {w:g}×{h:g} mm) leaves "
                            f"the {width:g}×{height:g} mm card")
        if reg.kind in ("text", "rows", "icon", "icons") and not o["outside_safe"]:
            pad = o.get("padding", 0.0)
            over = max(safe - (x + pad), safe - (y + pad), (x + w - pad) - (width - safe),
                       (y + h - pad) - (height - safe))
            if over > eps:
                problems.append(f"{reg.origin}: region '{reg.name}' reaches {over:.2f} mm into the "
                                f"{safe:g} mm safe margin (move it in, add padding, or set "
                                f"outside_safe = true)")
            elif stamp["enabled"]:
                into = (y + h - pad) - band_top if stamp["position"] == "bottom" \
                    else band_top - (y + pad)
                if into > eps:
                    problems.append(f"{reg.origin}: region '{reg.name}' covers the stamp line by "
                                    f"{into:.2f} mm (keep text {band:.1f} mm clear of the "
                                    f"{stamp['position']} of the safe area)")
    if problems:
        raise LayoutError(f"layout '{layout.name}' on card type '{type_slug}':\n  - "
                          + "\n  - ".join(problems))


def load_game_layouts(templates: Path | Sequence[Path] | TemplateRoots | None, game: str,
                      types: list[Any]) -> tuple[dict[str, Layout], list[str]]:
    """Layouts for every card type of `game` (generic where no file), plus warnings.

    Each file is looked up along the template folders: the project's own
    first, the shipped ones last.
    """
    roots = as_roots(templates)
    layouts: dict[str, Layout] = {}
    warnings: list[str] = []
    slugs = [t.slug for t in types]
    extended: set[str] = set()
    for t in types:
        path = roots.find(f"{game}/{t.slug}.toml")
        if path.is_file():
            lay = load_layout(path, roots)
            extended.update(Path(f).stem for f in lay.files[1:])
        else:
            lay = generic_layout()
            warnings.append(f"card type '{t.slug}' has no layout ({_label(path, roots)}); "
                            "using the generic one")
        check_fields(lay, [f.name for f in t.fields], t.slug)
        check_geometry(lay, t.width_mm, t.height_mm, t.slug)
        layouts[t.slug] = lay
    for p in roots.files(game, "*.toml"):
        if p.stem not in slugs and p.stem not in extended and not p.stem.startswith("_"):
            warnings.append(f"{_label(p, roots)} matches no card type of '{game}' "
                            f"(types: {', '.join(slugs)}) and no layout extends it")
    return layouts, warnings


# ---- documentation ---------------------------------------------------------------------

SECTION_TITLES = {
    "card": "Card-wide settings",
    "categories": "Colours by category",
    "icons.NAME": "Icons (badges drawn in icon regions and inline as :NAME:)",
    "keywords.WORD": "Keywords (styled wherever text regions print them)",
    "stamp": "Stamp (version, date and card id inside the safe area)",
    "provisional": "Provisional marks",
    "back": "Card backs",
    "regions": "Every region",
    "regions.text": "Text regions (kind = \"text\")",
    "regions.rows": "Label/value rows (kind = \"rows\")",
    "regions.image": "Art (kind = \"image\")",
    "regions.shape": "Shapes (kind = \"shape\")",
    "regions.icon": "One icon (kind = \"icon\")",
    "regions.icons": "A row or column of icons (kind = \"icons\")",
}


def format_default(opt: Opt) -> str:
    """An option's default as the docs show it (TOML spelling)."""
    d = opt.default
    if isinstance(d, Inherit):
        return repr(d)
    if isinstance(d, bool):
        return "true" if d else "false"
    if isinstance(d, float):
        return f"{d:g}"
    if isinstance(d, dict):
        return "{}"
    if isinstance(d, str):
        return '"' + d.replace('"', '\\"') + '"'
    return str(d)


def options_markdown() -> str:
    """The option tables of templates/README.md, generated from the table above."""
    out: list[str] = []
    for key, opts in SECTIONS.items():
        out.append(f"### `{key}` — {SECTION_TITLES[key]}\n")
        if not opts:
            out.append("No options beyond those of every region.\n")
            continue
        out.append("| option | default | allowed | meaning |")
        out.append("|---|---|---|---|")
        for o in opts:
            allowed = ", ".join(f"`{c}`" for c in o.choices) if o.choices else o.kind
            req = " **Required.**" if o.required else ""
            default = "—" if o.required else f"`{format_default(o).replace('|', '&#124;')}`"
            doc = o.doc.replace("|", "&#124;")
            out.append(f"| `{o.name}` | {default} | {allowed} | {doc}{req} |")
        out.append("")
    return "\n".join(out)

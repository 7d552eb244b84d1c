"""Fonts that pip installs, turned into TrueType that reportlab can embed.

Why this module exists: reportlab embeds only TrueType (glyf) outlines, while
the Traditional Chinese font we can get from PyPI (Noto Sans TC, package
`pylopdf-fonts-zh-tw`) is CFF OpenType with no bold, and the Simplified one
(Noto Sans SC, package `textflowkit-fonts`) is a variable font.  So:

- zh-Hant: Noto Sans TC, CFF outlines converted to quadratic curves (cu2qu);
  its bold is the same outlines emboldened (each contour pushed outwards,
  FreeType's FT_Outline_Embolden idea), because no bold TC face is on PyPI.
- zh-Hans and en: Noto Sans SC, the variable font pinned at weight 400 and
  700 with fontTools' instancer (real bold, Simplified glyph forms; its Latin
  serves English games).

The whole font is converted once and cached outside the repository
(platformdirs' user cache, or $PNP_CACHE_DIR), keyed by the source file's hash
and CONVERTER_VERSION, so any card can use any character; reportlab subsets
what a PDF actually uses when it embeds the font.
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

from pnpforge.errors import PnpError

# Bump when the conversion below changes: old cache files are then ignored.
CONVERTER_VERSION = 2

# Emboldening strength per side, in font units (1000 per em): Noto Sans TC
# Regular stems are about 80 units wide, Bold about 135; 16 a side (a semibold)
# keeps the counters of dense glyphs such as 幫 open at title sizes.
_EMBOLDEN_UNITS = 16

LANGUAGES = ("zh-Hant", "zh-Hans", "en")


@dataclass(frozen=True)
class FontSet:
    """Names of the registered reportlab fonts for one language."""

    regular: str
    bold: str


@dataclass(frozen=True)
class _Recipe:
    """How to build one cached TrueType font from a pip-installed file."""

    name: str                      # reportlab font name
    source: Callable[[], Path]     # where the pip package put the source font
    kind: str                      # 'cff-regular' | 'cff-embolden' | 'var-400' | 'var-700'


def _tc_source() -> Path:
    try:
        import pylopdf_fonts_zh_tw
    except ImportError as e:  # pragma: no cover - dependency of the package
        raise PnpError("the font package 'pylopdf-fonts-zh-tw' is not installed "
                       "(pip install pylopdf-fonts-zh-tw)") from e
    return Path(pylopdf_fonts_zh_tw.sans_path())


def _sc_source() -> Path:
    try:
        import textflowkit_fonts
    except ImportError as e:  # pragma: no cover - dependency of the package
        raise PnpError("the font package 'textflowkit-fonts' is not installed "
                       "(pip install textflowkit-fonts)") from e
    return Path(textflowkit_fonts.__file__).parent / "fonts" / "NotoSansSC.ttf"


_RECIPES = {
    "NotoSansTC": _Recipe("NotoSansTC", _tc_source, "cff-regular"),
    "NotoSansTC-Bold": _Recipe("NotoSansTC-Bold", _tc_source, "cff-embolden"),
    "NotoSansSC": _Recipe("NotoSansSC", _sc_source, "var-400"),
    "NotoSansSC-Bold": _Recipe("NotoSansSC-Bold", _sc_source, "var-700"),
}

_SETS = {
    "zh-Hant": FontSet("NotoSansTC", "NotoSansTC-Bold"),
    "zh-Hans": FontSet("NotoSansSC", "NotoSansSC-Bold"),
    "en": FontSet("NotoSansSC", "NotoSansSC-Bold"),
}

# Seconds spent converting fonts in this process (0 when all came from cache).
conversion_seconds: dict[str, float] = {}


def cache_dir() -> Path:
    """Where converted fonts live: $PNP_CACHE_DIR or the user cache, never the repo."""
    env = os.environ.get("PNP_CACHE_DIR")
    if env:
        base = Path(env)
    else:
        from platformdirs import user_cache_dir
        base = Path(user_cache_dir("pnpforge"))
    return base / "fonts"


@lru_cache(maxsize=None)
def _file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def cached_font_path(name: str) -> Path:
    """The cache file for font `name`, building it first when absent."""
    recipe = _RECIPES[name]
    src = recipe.source()
    if not src.is_file():
        raise PnpError(f"font file {src} is missing: reinstall its package")
    target = cache_dir() / f"{name}-{_file_hash(src)}-c{CONVERTER_VERSION}.ttf"
    if not target.is_file():
        start = time.perf_counter()
        font = _build(recipe.kind, src)
        _atomic_save(font, target)
        conversion_seconds[name] = time.perf_counter() - start
    return target


def _atomic_save(font, target: Path) -> None:
    """Write via a temporary file so a crash or a parallel run never leaves half a font."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    os.close(fd)
    try:
        font.save(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _build(kind: str, src: Path):
    from fontTools.ttLib import TTFont

    if kind.startswith("var-"):
        from fontTools.varLib import instancer
        font = TTFont(str(src))
        weight = int(kind.split("-")[1])
        inst = instancer.instantiateVariableFont(font, {"wght": weight}, updateFontNames=False)
        _set_names(inst, weight)
        return inst
    if kind == "cff-embolden":
        # start from the cached regular conversion: saves converting the CFF twice
        font = TTFont(str(cached_font_path("NotoSansTC")))
        _embolden(font, _EMBOLDEN_UNITS)
        _set_names(font, 700)
        return font
    font = TTFont(str(src))
    _cff_to_glyf(font)
    return font


def _set_names(font, weight: int) -> None:
    """Give a derived face its own names so PDF viewers don't confuse the two weights."""
    name = font["name"]
    family = name.getDebugName(1) or "Noto Sans"
    family = family.replace(" Thin", "").replace(" Regular", "")
    style = "Bold" if weight >= 700 else "Regular"
    ps = f"{family.replace(' ', '')}-{style}"
    for rec in list(name.names):
        if rec.nameID in (1, 2, 4, 6, 16, 17):
            name.removeNames(nameID=rec.nameID)
    for nid, value in ((1, family), (2, style), (4, f"{family} {style}"), (6, ps)):
        name.setName(value, nid, 3, 1, 0x409)
        name.setName(value, nid, 1, 0, 0)
    font["OS/2"].usWeightClass = weight
    if weight >= 700:
        font["OS/2"].fsSelection = (font["OS/2"].fsSelection | 0x20) & ~0x40
        font["head"].macStyle |= 1


def _cff_to_glyf(font) -> None:
    """Replace CFF outlines by TrueType ones (fontTools' otf2ttf recipe, via cu2qu)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for gname in order:
        pen = TTGlyphPen(None)
        # 1 unit max error at 1000 upm; TrueType wants clockwise outer contours.
        glyph_set[gname].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyphs[gname] = pen.glyph()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    for tag in ("CFF ", "VORG", "DSIG"):
        if tag in font:
            del font[tag]
    glyf.compile(font)
    _update_hmtx(font)
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for attr in ("maxZones",):
        setattr(maxp, attr, 1)
    for attr in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, attr, 0)
    post = font["post"]
    post.formatType = 3.0  # no glyph names: smaller, and reportlab does not need them
    font.sfntVersion = "\x00\x01\x00\x00"


def _update_hmtx(font) -> None:
    glyf, hmtx = font["glyf"], font["hmtx"]
    for gname, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[gname] = (hmtx[gname][0], glyph.xMin)


def _embolden(font, strength: int) -> None:
    """Push every contour outwards by `strength` units (a synthetic bold).

    For each point the shift follows the bisector of its two edges, scaled
    1/(1+cos) so straight stems grow by exactly `strength` per side and corners
    stay sharp; very sharp spikes are left alone.  Proportional glyphs (Latin)
    also get wider advances so bold words do not touch; full-width CJK keep
    their em box.
    """
    glyf, hmtx = font["glyf"], font["hmtx"]
    upem = font["head"].unitsPerEm
    for gname in font.getGlyphOrder():
        g = glyf[gname]
        if g.isComposite() or g.numberOfContours <= 0:
            continue
        coords = g.coordinates
        start = 0
        new = list(coords)
        for end in g.endPtsOfContours:
            pts = [coords[i] for i in range(start, end + 1)]
            for k, (dx, dy) in enumerate(_contour_shifts(pts, strength)):
                x, y = pts[k]
                new[start + k] = (x + dx, y + dy)
            start = end + 1
        adv, _ = hmtx[gname]
        extra = 0 if adv >= upem * 0.9 else strength
        from fontTools.ttLib.tables._g_l_y_f import GlyphCoordinates
        g.coordinates = GlyphCoordinates([(round(x + extra), round(y)) for x, y in new])
        g.recalcBounds(glyf)
        hmtx[gname] = (adv + 2 * extra, g.xMin)
    glyf.compile(font)


def _contour_shifts(pts: list[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """Outward shift of each point of one clockwise-outer (TrueType) contour."""
    n = len(pts)
    out: list[tuple[float, float]] = []
    for i in range(n):
        px, py = pts[i]
        # nearest distinct neighbours (duplicate points give no direction)
        j = (i - 1) % n
        while pts[j] == pts[i] and j != i:
            j = (j - 1) % n
        k = (i + 1) % n
        while pts[k] == pts[i] and k != i:
            k = (k + 1) % n
        if j == i or k == i:
            out.append((0.0, 0.0))
            continue
        ix, iy = px - pts[j][0], py - pts[j][1]
        ox, oy = pts[k][0] - px, pts[k][1] - py
        li, lo = math.hypot(ix, iy), math.hypot(ox, oy)
        ix, iy, ox, oy = ix / li, iy / li, ox / lo, oy / lo
        d = ix * ox + iy * oy + 1.0          # 1 + cos(turn)
        if d < 0.0625:                        # hairpin: shifting would explode
            out.append((0.0, 0.0))
            continue
        # left normal of travel, summed over both edges = away from the ink
        nx, ny = -(iy + oy), ix + ox
        scale = s / d
        # keep short segments from crossing over: never shift more than they are long
        limit = min(li, lo)
        length = math.hypot(nx, ny) * scale
        if length > limit and length > 0:
            scale *= max(limit, s) / length
        out.append((nx * scale, ny * scale))
    return out


# ---- registration -------------------------------------------------------------

_registered: set[str] = set()


def register(name: str) -> str:
    """Register font `name` with reportlab (converting it on first use) and return it."""
    if name in _registered:
        return name
    if name not in _RECIPES:
        raise PnpError(f"unknown font '{name}' (allowed: {', '.join(_RECIPES)})")
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont as RLTTFont

    path = cached_font_path(name)
    try:
        pdfmetrics.registerFont(RLTTFont(name, str(path)))
    except Exception as e:  # a truncated cache file: rebuild once
        path.unlink(missing_ok=True)
        path = cached_font_path(name)
        try:
            pdfmetrics.registerFont(RLTTFont(name, str(path)))
        except Exception as e2:
            raise PnpError(f"cannot load font {name} from {path}: {e2}") from e
    _registered.add(name)
    return name


def ensure_fonts(language: str) -> FontSet:
    """Register and return the regular and bold fonts for a game language."""
    if language not in _SETS:
        raise PnpError(f"no fonts for language '{language}' (allowed: {', '.join(_SETS)})")
    fs = _SETS[language]
    register(fs.regular)
    register(fs.bold)
    return fs


def _char_map(font_name: str) -> dict[int, int]:
    from reportlab.pdfbase import pdfmetrics

    if font_name not in _registered and font_name in _RECIPES:
        register(font_name)
    try:
        font = pdfmetrics.getFont(font_name)
    except KeyError as e:
        raise PnpError(f"font '{font_name}' is not registered") from e
    face = getattr(font, "face", None)
    cmap = getattr(face, "charToGlyph", None)
    if cmap is None:
        raise PnpError(f"font '{font_name}' is not an embeddable TrueType font")
    return cmap


def _needs_glyph(ch: str) -> bool:
    """Control and format characters (newline, zero-width joiners) draw nothing."""
    return unicodedata.category(ch) not in ("Cc", "Cf")


def missing_glyphs(text: str, font_name: str) -> list[str]:
    """Characters of `text` the font cannot draw, each once, in order of appearance."""
    cmap = _char_map(font_name)
    seen: list[str] = []
    for ch in text:
        if ch not in seen and _needs_glyph(ch) and ord(ch) not in cmap:
            seen.append(ch)
    return seen


def describe_char(ch: str) -> str:
    """'「✗」 (U+2717 BALLOT X)' - readable in an error message even when invisible."""
    name = unicodedata.name(ch, "unnamed")
    return f"'{ch}' (U+{ord(ch):04X} {name})"

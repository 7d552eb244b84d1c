"""Turning pip-installed fonts into TrueType, one glyph at a time.

Why per glyph: converting a whole CJK font (20,000-30,000 glyphs) costs about
half a minute of CPU, while a print job draws a few hundred distinct glyphs.
So a font is split in two parts:

- a *skeleton*: every table reportlab reads when it registers a font (names,
  metrics, the full character map, advance widths), with empty outlines.  It
  is cheap to make (no outline is converted) and lets layout measure any text;
- *glyphs*: the TrueType outline of one glyph id and its left side bearing,
  made on demand when a PDF embeds that glyph, and cached (see font_embed).

The outlines are those of converting the whole font (fontTools' otf2ttf
recipe, the emboldening below, or fontTools' instancer), glyph for glyph; the
global tables are taken from the source font instead of being recomputed from
every outline, so the output never depends on which glyphs were converted
before.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

from fontTools.pens.boundsPen import ControlBoundsPen
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import ttProgram
from fontTools.ttLib.tables._g_l_y_f import OVERLAP_COMPOUND, GlyphCoordinates, flagOverlapSimple
from fontTools.ttLib.tables._g_l_y_f import Glyph as TTGlyph
from fontTools.varLib import instancer

# Emboldening strength per side, in font units (1000 per em): Noto Sans TC
# Regular stems are about 80 units wide, Bold about 135; 16 a side (a semibold)
# keeps the counters of dense glyphs such as 幫 open at title sizes.
EMBOLDEN_UNITS = 16

# Tables of an OpenType CFF font with no place in a TrueType one.
_CFF_ONLY = ("CFF ", "VORG", "DSIG")
# Hinting tables of a TrueType source: its glyphs are embedded without instructions.
_HINTING = ("fpgm", "prep", "cvt ", "gasp", "hdmx", "LTSH", "VDMX")

Glyph = tuple[int, bytes]  # (left side bearing, compiled glyf data padded to 4 bytes)


@cache
def _source(path: str) -> Any:
    """The source font, opened once per process (fontTools loads tables lazily)."""
    return TTFont(path, lazy=True)


# ---- skeletons ---------------------------------------------------------------------------------


def skeleton(kind: str, src: Path) -> Any:
    """A TrueType font with the metrics and character map of recipe `kind`, outlines left empty."""
    if kind.startswith("var-"):
        font = _instanced_tables(src, int(kind.split("-")[1]))
    else:
        font = TTFont(str(src))
        if kind in ("cff-embolden", "ttf-embolden"):
            _embolden_advances(font, src)
        for tag in _CFF_ONLY + _HINTING:
            if tag in font:
                del font[tag]
    # keep the source's bounding box, timestamp and maxima: they must not depend on outlines
    font.recalcBBoxes = False
    font.recalcTimestamp = False
    order = font.getGlyphOrder()
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {name: TTGlyph() for name in order}
    font["loca"] = newTable("loca")
    font["maxp"] = _maxp(len(order))
    font["post"].formatType = 3.0  # no glyph names: smaller, and reportlab does not need them
    font.sfntVersion = "\x00\x01\x00\x00"
    weight = _WEIGHTS.get(kind)
    if weight:
        set_names(font, weight)
    return font


_WEIGHTS = {"cff-embolden": 700, "ttf-embolden": 700, "var-400": 400, "var-700": 700}


def _maxp(num_glyphs: int) -> Any:
    """A version 1.0 maxp; point and contour maxima are filled per embedded subset."""
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.numGlyphs = num_glyphs
    maxp.maxZones = 1
    for attr in (
        "maxPoints",
        "maxContours",
        "maxCompositePoints",
        "maxCompositeContours",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxComponentDepth",
    ):
        setattr(maxp, attr, 0)
    return maxp


def set_names(font: Any, weight: int) -> None:
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


def _embolden_advances(font: Any, src: Path) -> None:
    """Widen proportional glyphs that have ink, as _embolden_glyph does to their outlines."""
    upem = font["head"].unitsPerEm
    glyph_set = _source(str(src)).getGlyphSet()
    metrics = font["hmtx"].metrics
    for gname, (adv, lsb) in list(metrics.items()):
        if adv >= upem * 0.9:
            continue
        pen = ControlBoundsPen(glyph_set)
        glyph_set[gname].draw(pen)
        if pen.bounds is not None:
            metrics[gname] = (adv + 2 * EMBOLDEN_UNITS, lsb)


def _instanced_tables(src: Path, weight: int) -> Any:
    """The variable font's non-outline tables pinned at `weight` by fontTools' instancer.

    The outlines and their variations are dropped first, so this costs little;
    advances (HVAR) and vertical metrics (MVAR) are those a full instance has.
    Layout tables are dropped too: reportlab does not shape text.
    """
    font = TTFont(str(src))
    for tag in ("glyf", "loca", "gvar", "GSUB", "GPOS", "GDEF", "BASE", "vmtx", "vhea", "DSIG"):
        if tag in font:
            del font[tag]
    return instancer.instantiateVariableFont(font, {"wght": weight}, updateFontNames=False)


# ---- glyphs ------------------------------------------------------------------------------------


def convert(kind: str, src: Path, gids: list[int], regular: Any = None) -> dict[int, Glyph]:
    """TrueType data of glyph ids `gids` for recipe `kind`.

    `regular` fetches regular glyphs (font_embed's store) for the emboldened recipe, which
    starts from them exactly as converting the whole font did.
    """
    if kind == "cff-regular":
        return {gid: _cff_glyph(src, gid) for gid in gids}
    if kind in ("cff-embolden", "ttf-embolden"):
        base = regular(gids)
        return {gid: _embolden_glyph(src, gid, base[gid]) for gid in gids}
    if kind == "ttf-regular":
        return {gid: _ttf_glyph(src, gid) for gid in gids}
    return _instanced_glyphs(src, int(kind.split("-")[1]), gids)


def _glyf_stub() -> Any:
    return newTable("glyf")


def _compiled(glyph: Any) -> bytes:
    data: bytes = glyph.compile(_glyf_stub())
    return data + b"\0" * (-len(data) % 4)


def _ttf_glyph(src: Path, gid: int) -> Glyph:
    """One glyph of a static TrueType font as it is, less its hinting instructions."""
    font = _source(str(src))
    gname = font.getGlyphName(gid)
    glyf = font["glyf"]
    glyph = glyf[gname]
    if not glyph.numberOfContours:
        return font["hmtx"][gname][1], b""
    glyph.expand(glyf)
    if hasattr(glyph, "program"):
        glyph.program = ttProgram.Program()
        glyph.program.fromBytecode(b"")
    data = glyph.compile(glyf)
    return font["hmtx"][gname][1], data + b"\0" * (-len(data) % 4)


def _cff_glyph(src: Path, gid: int) -> Glyph:
    """One CFF glyph as quadratic TrueType (1 unit max error at 1000 upm, clockwise outer)."""
    font = _source(str(src))
    gname = font.getGlyphName(gid)
    pen = TTGlyphPen(None)
    font.getGlyphSet()[gname].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
    glyph = pen.glyph()
    data = _compiled(glyph)
    lsb = glyph.xMin if hasattr(glyph, "xMin") else font["hmtx"][gname][1]
    return lsb, data


def _decompiled(data: bytes) -> Any:
    glyph = TTGlyph(data)
    glyph.expand(_glyf_stub())
    return glyph


def _embolden_glyph(src: Path, gid: int, regular: Glyph) -> Glyph:
    """Push every contour outwards by EMBOLDEN_UNITS (a synthetic bold).

    For each point the shift follows the bisector of its two edges, scaled
    1/(1+cos) so straight stems grow by exactly the strength per side and
    corners stay sharp; very sharp spikes are left alone.  Proportional glyphs
    (Latin) also move right by the strength (their advance grows by twice it,
    see _embolden_advances) so bold words do not touch; full-width CJK keep
    their em box.
    """
    lsb, data = regular
    if not data or int.from_bytes(data[:2], "big", signed=True) < 0:
        return regular  # empty, or a composite (a TrueType source's accented letters): its parts are
    glyph = _decompiled(data)
    if glyph.isComposite() or glyph.numberOfContours <= 0:
        return regular
    font = _source(str(src))
    adv = font["hmtx"][font.getGlyphName(gid)][0]
    extra = 0 if adv >= font["head"].unitsPerEm * 0.9 else EMBOLDEN_UNITS
    coords = glyph.coordinates
    moved = list(coords)
    start = 0
    for end in glyph.endPtsOfContours:
        pts = [coords[i] for i in range(start, end + 1)]
        for k, (dx, dy) in enumerate(contour_shifts(pts, EMBOLDEN_UNITS)):
            x, y = pts[k]
            moved[start + k] = (x + dx, y + dy)
        start = end + 1
    glyph.coordinates = GlyphCoordinates([(round(x + extra), round(y)) for x, y in moved])
    glyph.recalcBounds(_glyf_stub())
    return glyph.xMin, _compiled(glyph)


def contour_shifts(pts: list[tuple[float, float]], s: float) -> list[tuple[float, float]]:
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
        d = ix * ox + iy * oy + 1.0  # 1 + cos(turn)
        if d < 0.0625:  # hairpin: shifting would explode
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


def _instanced_glyphs(src: Path, weight: int, gids: list[int]) -> dict[int, Glyph]:
    """Glyphs of the variable font pinned at `weight`, by fontTools' instancer glyph by glyph.

    A glyph's instance depends only on its own variations and, for a
    composite, on its components' instances (done first, as the whole-font
    instancer does), so the result equals the same glyph of a whole-font instance.
    """
    pinned = _pinned_font(str(src), weight)
    glyf, order = pinned.font["glyf"], pinned.font.getGlyphOrder()
    out: dict[int, Glyph] = {}
    for gid in gids:
        pinned.instance(order[gid])
        glyph = glyf[order[gid]]
        data = glyph.compile(glyf) if glyph.numberOfContours else b""
        out[gid] = (pinned.font["hmtx"][order[gid]][1], data + b"\0" * (-len(data) % 4))
    return out


class _PinnedFont:
    """A variable font whose glyphs are pinned at one weight as they are asked for."""

    def __init__(self, path: str, weight: int) -> None:
        self.font = TTFont(path, lazy=True)
        limits = instancer.AxisLimits({"wght": weight}).limitAxesAndPopulateDefaults(self.font)
        self.limits = limits.normalize(self.font)
        self.done: set[str] = set()

    def instance(self, gname: str) -> None:
        """Pin glyph `gname` (its components first); each glyph exactly once."""
        if gname in self.done:
            return
        glyph = self.font["glyf"][gname]
        if glyph.isComposite():
            for component in glyph.components:
                self.instance(component.glyphName)
        instancer.instantiateGvarGlyph(self.font, gname, self.limits)
        _set_overlap_flag(glyph)
        self.done.add(gname)


def _set_overlap_flag(glyph: Any) -> None:
    """Mark the glyph as possibly overlapping, as the whole-font instancer does by default."""
    if glyph.isComposite():
        glyph.components[0].flags |= OVERLAP_COMPOUND
    elif glyph.numberOfContours > 0:
        glyph.flags[0] |= flagOverlapSimple


@cache
def _pinned_font(path: str, weight: int) -> _PinnedFont:
    return _PinnedFont(path, weight)

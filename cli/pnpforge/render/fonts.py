"""Fonts that pip installs, turned into TrueType that reportlab can embed.

Why this module exists: reportlab embeds only TrueType (glyf) outlines, while
the Traditional Chinese font we can get from PyPI (Noto Sans TC, package
`pylopdf-fonts-zh-tw`) is CFF OpenType with no bold, and the Simplified one
(Noto Sans SC, package `textflowkit-fonts`) is a variable font.  So:

- zh-Hant: Noto Sans TC, CFF outlines converted to quadratic curves (cu2qu);
  its bold is the same outlines emboldened (each contour pushed outwards,
  FreeType's FT_Outline_Embolden idea), because no bold TC face is on PyPI.
- zh-Hans: Noto Sans SC, the variable font pinned at weight 400 and
  700 with fontTools' instancer (real bold, Simplified glyph forms).
- en: Noto Sans (Latin, Greek, Cyrillic), the static TrueType font the same
  package ships; its bold is emboldened like the TC one (no bold is shipped).
  A layout region that shows a Chinese original chooses `font = "zh-Hant"`
  or `"zh-Hans"` (layout_options.TEXT_FONTS).

Converting a whole CJK font takes half a minute, and a job draws a few
hundred glyphs, so nothing is converted up front: each font gets a cached
skeleton (metrics and character map, see font_convert) that reportlab
registers at once, and the outlines of the glyphs a PDF uses are converted
when it is saved and cached one by one (font_embed).  The cache lives outside
the repository (platformdirs' user cache, or $PNP_CACHE_DIR), keyed by the
source file's hash and CONVERTER_VERSION, and every entry is read and written
through render.disk_cache (verified by digest; in memory when the disk refuses).
"""

from __future__ import annotations

import hashlib
import io
import logging
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics

from pnpforge.errors import PnpError
from pnpforge.render import disk_cache

# Bump when the conversion changes: old cache folders are then ignored.
CONVERTER_VERSION = 3

LANGUAGES = ("zh-Hant", "zh-Hans", "en")


@dataclass(frozen=True)
class FontSet:
    """Names of the registered reportlab fonts for one language."""

    regular: str
    bold: str


@dataclass(frozen=True)
class _Recipe:
    """How to build one TrueType font from a pip-installed file."""

    name: str  # reportlab font name
    source: Callable[[], Path]  # where the pip package put the source font
    kind: str  # 'cff-regular' | 'cff-embolden' | 'var-400' | 'var-700'
    base: str | None = None  # recipe whose glyphs this one starts from


def _tc_source() -> Path:
    try:
        # an absent font package is one clear line, and only when its font is wanted
        import pylopdf_fonts_zh_tw
    except ImportError as e:  # pragma: no cover - dependency of the package
        raise PnpError(
            "the font package 'pylopdf-fonts-zh-tw' is not installed (pip install pylopdf-fonts-zh-tw)"
        ) from e
    return Path(pylopdf_fonts_zh_tw.sans_path())


def _sc_source() -> Path:
    try:
        # an absent font package is one clear line, and only when its font is wanted
        import textflowkit_fonts
    except ImportError as e:  # pragma: no cover - dependency of the package
        raise PnpError(
            "the font package 'textflowkit-fonts' is not installed (pip install textflowkit-fonts)"
        ) from e
    return Path(textflowkit_fonts.__file__).parent / "fonts" / "NotoSansSC.ttf"


def _latin_source() -> Path:
    return _sc_source().parent / "NotoSans.ttf"


_RECIPES = {
    "NotoSans": _Recipe("NotoSans", _latin_source, "ttf-regular"),
    "NotoSans-Bold": _Recipe("NotoSans-Bold", _latin_source, "ttf-embolden", base="NotoSans"),
    "NotoSansTC": _Recipe("NotoSansTC", _tc_source, "cff-regular"),
    "NotoSansTC-Bold": _Recipe("NotoSansTC-Bold", _tc_source, "cff-embolden", base="NotoSansTC"),
    "NotoSansSC": _Recipe("NotoSansSC", _sc_source, "var-400"),
    "NotoSansSC-Bold": _Recipe("NotoSansSC-Bold", _sc_source, "var-700"),
}

_SETS = {
    "zh-Hant": FontSet("NotoSansTC", "NotoSansTC-Bold"),
    "zh-Hans": FontSet("NotoSansSC", "NotoSansSC-Bold"),
    "en": FontSet("NotoSans", "NotoSans-Bold"),
}

# Seconds spent preparing fonts in this process, per font (absent when all came from cache).
conversion_seconds: dict[str, float] = {}

# Slow steps are reported as records of this logger carrying `font`, `done` and `total`
# (glyphs; total 0 while a skeleton is built): the command layer draws them as a progress
# bar, and the render layer never touches the terminal.
progress_log = logging.getLogger("pnpforge.fonts")


def _report(name: str, done: int, total: int) -> None:
    if progress_log.isEnabledFor(logging.INFO):
        progress_log.info(
            "%s: %d/%d glyphs", name, done, total, extra={"font": name, "done": done, "total": total}
        )


def cache_dir() -> Path:
    """Where converted fonts live: $PNP_CACHE_DIR or the user cache, never the repo."""
    return disk_cache.root() / "fonts"


@cache
def _file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def _font_dir(name: str) -> tuple[_Recipe, Path, Path]:
    """Recipe, source file and cache folder of font `name`."""
    recipe = _RECIPES[name]
    src = recipe.source()
    if not src.is_file():
        raise PnpError(f"font file {src} is missing: reinstall its package")
    return recipe, src, cache_dir() / f"{name}-{_file_hash(src)}-c{CONVERTER_VERSION}"


def cached_font_path(name: str) -> Path:
    """The cache entry of font `name`'s skeleton (built first when absent or damaged)."""
    skeleton_bytes(name)
    return _font_dir(name)[2] / "skeleton.ttf"


def skeleton_bytes(name: str) -> bytes:
    """The TrueType skeleton of font `name` (metrics and character map), from the cache when
    a verified entry is there, else built and stored."""
    recipe, src, folder = _font_dir(name)

    def build() -> bytes:
        # fontTools: only a cache miss builds a skeleton; warm runs never load it
        from pnpforge.render import font_convert

        start = time.perf_counter()
        _report(name, 0, 0)
        buffer = io.BytesIO()
        font_convert.skeleton(recipe.kind, src).save(buffer)
        conversion_seconds[name] = time.perf_counter() - start
        return buffer.getvalue()

    return disk_cache.cached(folder / "skeleton.ttf", build, keep=None)


_stores: dict[Path, Any] = {}


def glyph_store(name: str) -> Any:
    """The cache of converted glyphs of font `name` (a font_embed.GlyphStore)."""
    # font_embed brings reportlab's canvas and Pillow: only registering a font needs them
    from pnpforge.render.font_embed import GlyphStore

    recipe, src, folder = _font_dir(name)
    if folder not in _stores:
        base = glyph_store(recipe.base) if recipe.base else None
        store = GlyphStore(name, recipe.kind, src, folder / "glyphs", base)
        store.progress = _timed_report
        _stores[folder] = store
    return _stores[folder]


def _timed_report(name: str, done: int, total: int) -> None:
    """Forward glyph conversion progress and count its time in conversion_seconds."""
    now = time.perf_counter()
    if done == 0:
        _started[name] = now
    elif done == total and name in _started:
        conversion_seconds[name] = conversion_seconds.get(name, 0.0) + now - _started.pop(name)
    _report(name, done, total)


_started: dict[str, float] = {}


# ---- registration -------------------------------------------------------------

_registered: set[str] = set()


def register(name: str) -> str:
    """Register font `name` with reportlab (building its skeleton on first use) and return it."""
    if name in _registered:
        return name
    if name not in _RECIPES:
        raise PnpError(f"unknown font '{name}' (allowed: {', '.join(_RECIPES)})")

    # font_embed brings reportlab's canvas and Pillow: only registering a font needs them
    from pnpforge.render.font_embed import lazy_ttfont

    try:
        pdfmetrics.registerFont(lazy_ttfont(name, skeleton_bytes(name), glyph_store(name)))
    except Exception as exc:  # a verified entry reportlab still cannot read: a bug, named
        raise PnpError(f"cannot load font {name} ({exc})") from exc
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

"""The pieces rich text is made of, and their widths: spans, atoms and the font measure.

Line breaking, fitting and drawing all work on atoms (a Latin word, one CJK
character, a space, an icon, a sign) and ask one Measure for widths at 1 pt,
cached per font and character; this module makes them, and holds the
typographic constants (the Chinese no-start / no-end punctuation, the
provisional sign) the other text modules share.  Widths scale linearly with
the size, so one measurement serves every size the fitter tries.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnpforge.render.fonts import missing_glyphs

# No line may begin with these (closing punctuation, and the provisional sign).
NO_START = set("，。、；：！？）」』》〉】〕〗〙｝’”．,.;:!?)]}…‥%％·・ー〜～")
# No line may end with these (opening punctuation).
NO_END = set("（「『《〈【〔〖〘｛‘“([{")

MARK = "\ue000"  # internal: the provisional sign after a value
PARA_GAP = 0.5  # extra space between paragraphs, in lines
MARK_SCALE = 0.72  # the sign's size relative to the text
MARK_MAX = 8.0  # ... but never larger than this (points): a discreet sign
ASCENT = 0.88  # Noto CJK em box: ascender 880, descender -120 (per 1000)


@dataclass(frozen=True, slots=True)  # slots: made and hashed for every card's text
class Span:
    """A run of text with one style, or one inline icon, or the provisional sign."""

    text: str = ""
    bold: bool = False
    colour: str | None = None
    icon: str | None = None
    mark: bool = False


@dataclass(slots=True)  # slots: one per character of every card's text
class Atom:
    """An unbreakable piece: a Latin word, one CJK character, a space, an icon or a sign."""

    kind: str  # word | cjk | space | icon | mark | newline | para
    text: str
    span: Span
    width: float  # at 1 pt

    @property
    def first(self) -> str:
        return self.text[:1]

    @property
    def last(self) -> str:
        return self.text[-1:]


# ---- atoms --------------------------------------------------------------------------------


# What atomize makes of a character: " " (a space), "c" (a CJK unit) or "w" (part of a word).
_CLASS: dict[str, str] = {}


def _char_class(ch: str) -> str:
    cls = _CLASS.get(ch)
    if cls is None:
        cls = _CLASS[ch] = " " if ch in " \t" else "c" if _is_cjk(ch) else "w"
    return cls


def _is_cjk(ch: str) -> bool:
    """Wide characters each form their own breakable unit."""
    return unicodedata.east_asian_width(ch) in ("W", "F") or ch in "…‥—"


WORDS_CACHE_SIZE = 1024  # word widths kept per Measure (emptied when full)


class Measure:
    """Widths at 1 pt, cached per (font, character) since cards repeat characters a lot.

    Also remembers the widths of words (bounded) and which characters each font
    can draw.  `widths` may be shared by several Measures of the same two fonts.
    """

    def __init__(
        self,
        regular: str,
        bold: str,
        icon_width: Callable[[str], float] | None = None,
        widths: dict[tuple[str, str], float] | None = None,
    ) -> None:
        self.regular, self.bold = regular, bold
        self.mark = "†"  # the provisional sign ([provisional] mark)
        self.icon_width = icon_width or (lambda name: 1.0)
        self._cache: dict[tuple[str, str], float] = {} if widths is None else widths
        self._words: dict[tuple[str, str], float] = {}
        self._glyphs: dict[tuple[str, str], bool] = {}
        self._drawable: dict[str, set[str]] = {}  # font -> characters it can draw

    def font(self, span: Span) -> str:
        return self.bold if span.bold else self.regular

    def char(self, ch: str, font: str) -> float:
        key = (font, ch)
        w = self._cache.get(key)
        if w is None:
            w = stringWidth(ch, font, 1.0)
            self._cache[key] = w
        return w

    def text(self, s: str, font: str) -> float:
        return sum(self.char(c, font) for c in s)

    def word(self, s: str, font: str) -> float:
        """text(), cached per (font, word): Latin words and numbers recur on many cards."""
        key = (font, s)
        w = self._words.get(key)
        if w is None:
            if len(self._words) >= WORDS_CACHE_SIZE:
                self._words.clear()
            w = self._words[key] = self.text(s, font)
        return w

    def has_glyph(self, ch: str, font: str) -> bool:
        """Can `font` draw `ch` (characters that draw nothing always can)?"""
        key = (font, ch)
        ok = self._glyphs.get(key)
        if ok is None:
            ok = self._glyphs[key] = not missing_glyphs(ch, font)
        return ok


def atomize(spans: list[Span], m: Measure) -> list[Atom]:
    """Split spans into the pieces line breaking works with."""
    atoms: list[Atom] = []
    add = atoms.append
    widths, words = m._cache, m._words  # read directly: a call per character adds up
    newlines = False
    for sp in spans:
        if sp.icon:
            add(Atom("icon", "\ufffc", sp, m.icon_width(sp.icon)))
            continue
        if sp.mark:
            add(Atom("mark", m.mark, sp, m.char(m.mark, m.regular) * MARK_SCALE))
            continue
        font = m.bold if sp.bold else m.regular
        for li, line in enumerate(sp.text.split("\n")):
            if li:
                add(Atom("newline", "\n", sp, 0.0))
                newlines = True
            start = -1  # where the word being read began
            for i, ch in enumerate(line):
                cls = _CLASS.get(ch) or _char_class(ch)
                if cls == "w":
                    if start < 0:
                        start = i
                    continue
                if start >= 0:
                    s = line[start:i]
                    w = words.get((font, s))
                    add(Atom("word", s, sp, w if w is not None else m.word(s, font)))
                    start = -1
                if cls == " ":
                    w = widths.get((font, " "))
                    add(Atom("space", " ", sp, w if w is not None else m.char(" ", font)))
                    continue
                w = widths.get((font, ch))
                add(Atom("cjk", ch, sp, w if w is not None else m.char(ch, font)))
            if start >= 0:
                s = line[start:]
                add(Atom("word", s, sp, m.word(s, font)))
    if newlines:
        return _paragraphs(atoms)
    start, end = 0, len(atoms)  # no breaks to merge: only trim spaces at both ends
    while start < end and atoms[start].kind == "space":
        start += 1
    while end > start and atoms[end - 1].kind == "space":
        end -= 1
    return atoms if (start, end) == (0, len(atoms)) else atoms[start:end]


def _paragraphs(atoms: list[Atom]) -> list[Atom]:
    """Two or more newlines in a row become one paragraph break."""
    out: list[Atom] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        if a.kind == "newline":
            j = i
            while j < len(atoms) and atoms[j].kind in ("newline", "space"):
                j += 1
            count = sum(1 for b in atoms[i:j] if b.kind == "newline")
            out.append(Atom("para" if count > 1 else "newline", "\n", a.span, 0.0))
            i = j if count > 1 else i + 1
            continue
        out.append(a)
        i += 1
    while out and out[0].kind in ("newline", "para", "space"):
        out.pop(0)
    while out and out[-1].kind in ("newline", "para", "space"):
        out.pop()
    return out

"""Rich text in a box: markup, CJK-aware line breaking, shrink-to-fit, drawing.

Markup (applied after the Jinja2 template ran):
  **bold**     bold on/off
  :name:       inline icon, when `name` is an icon the layout declares
  newline      new line; an empty line starts a new paragraph (half a line of space)
Keywords from the layout are styled (bold, colour) or replaced by icons.

Line breaking follows the Chinese rules the cards need: a break may fall
between any two CJK characters, Latin words break only at spaces, no line
starts with closing punctuation (，。、；：！？）」』》 …) and no line ends
with opening punctuation (（「『《 …).  Widths scale linearly with the size,
so one layout at 1 pt serves every size the fitter tries.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from pnpforge.render.units import hex_to_rgb

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


# ---- markup ----------------------------------------------------------------------------


def parse_markup(text: str, icon_names: Iterable[str] = ()) -> list[Span]:
    """Turn markup into spans: ** toggles bold, :name: is an icon, MARK is the sign."""
    icons = set(icon_names)
    if "**" not in text and MARK not in text and (not icons or ":" not in text):
        return [Span(text)] if text else []  # plain text: one span
    spans: list[Span] = []
    bold = False
    buf: list[str] = []

    def flush() -> None:
        if buf:
            spans.append(Span("".join(buf), bold=bold))
            buf.clear()

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if text.startswith("**", i):
            flush()
            bold = not bold
            i += 2
            continue
        if ch == ":" and icons:
            end = text.find(":", i + 1)
            if end > i + 1 and text[i + 1 : end] in icons:
                flush()
                spans.append(Span(icon=text[i + 1 : end]))
                i = end + 1
                continue
        if ch == MARK:
            flush()
            spans.append(Span(mark=True))
            i += 1
            continue
        buf.append(ch)
        i += 1
    flush()
    return spans


def apply_keywords(spans: list[Span], keywords: dict[str, dict[str, Any]]) -> list[Span]:
    """Style each keyword occurrence (longest keyword first) or replace it by its icon."""
    if not keywords:
        return spans
    words = tuple(sorted(keywords, key=len, reverse=True))
    finder = _keyword_finder(words)
    out: list[Span] = []
    for sp in spans:
        if sp.icon or sp.mark or not sp.text:
            out.append(sp)
            continue
        out.extend(_split_keywords(sp, words, keywords, finder))
    return out


@lru_cache(maxsize=64)
def _keyword_finder(words: tuple[str, ...]) -> Callable[[str, int], Any] | None:
    """A regex finding, at the leftmost place, the first of `words` (longest first) that
    starts there: what trying each word at each position finds, in one C-level scan.
    None when a keyword is empty (only the plain scan handles that)."""
    if not words or not all(words):
        return None
    return re.compile("|".join(re.escape(w) for w in words)).search


def _split_keywords(
    sp: Span,
    words: tuple[str, ...] | list[str],
    keywords: dict[str, dict[str, Any]],
    finder: Callable[[str, int], Any] | None = None,
) -> list[Span]:
    text, out, start, i = sp.text, [], 0, 0
    while i < len(text):
        if finder is not None:
            found = finder(text, i)
            if found is None:
                break
            i, hit = found.start(), found.group()
        else:
            hit = next((w for w in words if text.startswith(w, i)), None)
            if hit is None:
                i += 1
                continue
        if i > start:
            out.append(replace(sp, text=text[start:i]))
        kw = keywords[hit]
        if kw.get("icon"):
            out.append(Span(icon=kw["icon"]))
        else:
            out.append(
                replace(
                    sp, text=hit, bold=sp.bold or kw.get("bold", True), colour=kw.get("colour") or sp.colour
                )
            )
        i += len(hit)
        start = i
    if start < len(text):
        out.append(replace(sp, text=text[start:]))
    return out


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
            from reportlab.pdfbase.pdfmetrics import stringWidth

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
            from pnpforge.render.fonts import missing_glyphs

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


# ---- line breaking --------------------------------------------------------------------------


def can_break(a: Atom, b: Atom) -> bool:
    """May a line end with `a` and the next start with `b` (both not spaces)?"""
    if b.kind == "mark":
        return False
    if b.first in NO_START or a.last in NO_END:
        return False
    return True


def break_allowed(seq: list[Atom], k: int) -> bool:
    """May a line break fall before seq[k]?  Spaces at the break vanish, so the rules
    look at the last non-space atom before it and the first non-space one after."""
    p = k - 1
    while p >= 0 and seq[p].kind == "space":
        p -= 1
    q = k
    while q < len(seq) and seq[q].kind == "space":
        q += 1
    if p < 0:
        return False  # nothing but spaces before: no line
    if q >= len(seq):
        return True
    return can_break(seq[p], seq[q])


@dataclass
class Line:
    """One line of atoms; not changed once made (its width and runs are cached)."""

    atoms: list[Atom]
    para_before: bool = False  # a paragraph gap precedes this line
    _width: float | None = field(default=None, init=False, repr=False, compare=False)
    _runs: list[tuple] | None = field(default=None, init=False, repr=False, compare=False)

    def width(self) -> float:
        if self._width is None:
            self._width = sum(a.width for a in self.atoms)
        return self._width

    def runs(self) -> list[tuple]:
        """What drawing does, in order: ("text", text, span, width at 1 pt) for a run of
        words, characters and spaces of one span; ("icon", name, width), ("mark", width)
        and ("skip", width) for the other atoms."""
        if self._runs is None:
            self._runs = _runs(self.atoms)
        return self._runs

    def chars(self) -> int:
        return sum(len(a.text) if a.kind in ("word", "cjk") else 1 for a in self.atoms if a.kind != "space")


def _trim(atoms: list[Atom]) -> list[Atom]:
    s, e = 0, len(atoms)
    while s < e and atoms[s].kind == "space":
        s += 1
    while e > s and atoms[e - 1].kind == "space":
        e -= 1
    return atoms[s:e]


def _split_long(atom: Atom, limit: float, m: Measure) -> list[Atom]:
    """A word wider than the line: break it between characters (last resort)."""
    font = m.font(atom.span)
    parts, cur = [], ""
    for ch in atom.text:
        if cur and m.text(cur + ch, font) > limit:
            parts.append(cur)
            cur = ""
        cur += ch
    parts.append(cur)
    return [Atom("word", p, atom.span, m.text(p, font)) for p in parts if p]


def break_lines(atoms: list[Atom], width: float, m: Measure) -> list[Line]:
    """Greedy breaking with kinsoku: `width` is in 1-pt units (box width / size)."""
    lines: list[Line] = []
    cur: list[Atom] = []
    cur_w = 0.0
    para = False
    queue = list(atoms)
    i = 0
    while i < len(queue):
        a = queue[i]
        if a.kind in ("newline", "para"):
            lines.append(Line(_trim(cur), para))
            para = a.kind == "para"
            cur, cur_w = [], 0.0
            i += 1
            continue
        if a.kind == "space" and not cur:
            i += 1  # no leading spaces
            continue
        if a.kind == "word" and a.width > width + 1e-9:
            queue[i : i + 1] = _split_long(a, width, m)
            continue
        if cur_w + a.width <= width + 1e-9 or a.kind == "space":
            cur.append(a)
            cur_w += a.width
            i += 1
            continue
        # `a` does not fit: end the line at the last place the rules allow
        cut = _find_cut(cur, a)
        if cut is None:  # nothing allowed (e.g. one long run): break here anyway
            cut = len(cur) if cur else 0
        if cut == 0 and not cur:  # an icon or character wider than the whole line
            lines.append(Line([a], para))
            para = False
            i += 1
            continue
        head, tail = cur[:cut], cur[cut:]
        lines.append(Line(_trim(head), para))
        para = False
        cur = [t for t in tail]
        while cur and cur[0].kind == "space":
            cur.pop(0)
        cur_w = sum(t.width for t in cur)
        if cur_w + a.width > width + 1e-9 and cur:
            # the carried-over tail plus `a` still does not fit: place `a` next round
            continue
    if cur or not lines:
        lines.append(Line(_trim(cur), para))
    return [ln for ln in lines if ln.atoms or ln.para_before or len(lines) == 1]


def _find_cut(cur: list[Atom], nxt: Atom) -> int | None:
    """Largest k >= 1 such that a break before (cur + [nxt])[k] is allowed."""
    seq = cur + [nxt]
    for k in range(len(cur), 0, -1):
        if break_allowed(seq, k):
            return k
    return None


# ---- fitting ---------------------------------------------------------------------------------


@dataclass
class Fitted:
    """Lines laid out at one size, ready to draw."""

    lines: list[Line]
    size: float
    leading: float
    height: float  # points

    def line_height(self) -> float:
        return self.size * self.leading

    def for_drawing(self) -> Fitted:
        """The same block keeping only what draw() reads: each line's width and runs.

        A planned card keeps this until it is drawn; without the per-character
        atoms it is a few objects a line instead of one per character.
        """
        drawn: list[Any] = [_DrawnLine(ln) for ln in self.lines]  # duck-typed Lines: width() and runs()
        return Fitted(drawn, self.size, self.leading, self.height)


class _DrawnLine:
    """A Line reduced to what drawing reads (Fitted.for_drawing): no atoms."""

    __slots__ = ("para_before", "_width", "_runs")

    def __init__(self, line: Line | _DrawnLine) -> None:
        self.para_before: bool = line.para_before
        self._width = line.width()
        self._runs = line.runs()

    @classmethod
    def made(cls, para_before: bool, width: float, runs: list[tuple]) -> _DrawnLine:
        """A drawn line built from its parts (render.text_line makes one-line texts so)."""
        line = cls.__new__(cls)
        line.para_before, line._width, line._runs = para_before, width, runs
        return line

    def width(self) -> float:
        return self._width

    def runs(self) -> list[tuple]:
        return self._runs


def block_height(lines: list[Line], size: float, leading: float) -> float:
    if not lines:
        return 0.0
    lh = size * leading
    gaps = sum(1 for ln in lines[1:] if ln.para_before)
    # last line: its em box, not its leading, is what must fit
    return lh * (len(lines) - 1) + size + gaps * PARA_GAP * lh


class Overflow(Exception):
    """Text does not fit; carries what is left over for the error message."""

    def __init__(self, lines_over: int, chars_over: int, preview: str, size: float) -> None:
        super().__init__(f"{lines_over} line(s) over")
        self.lines_over, self.chars_over, self.preview, self.size = lines_over, chars_over, preview, size

    def describe(self) -> str:
        return (
            f"text does not fit even at {self.size:g} pt: {self.lines_over} line(s) "
            f"({self.chars_over} characters) left over, starting “{self.preview}”"
        )


def fit(
    atoms: list[Atom],
    width: float,
    height: float,
    size: float,
    min_size: float,
    leading: float,
    m: Measure,
    shrink: bool = True,
) -> Fitted:
    """Largest size from `size` down to `min_size` (0.25 pt steps) at which the text fits."""
    sizes = _sizes(size, min_size, shrink)
    lines: list[Line] = []
    for s in sizes:
        lines = break_lines(atoms, width / s, m)
        too_wide = any(ln.width() * s > width + 0.01 for ln in lines)
        h = block_height(lines, s, leading)
        if h <= height + 0.01 and not too_wide:
            return Fitted(lines, s, leading, h)
    raise _overflow(lines, sizes[-1], leading, height)


@lru_cache(maxsize=256, typed=True)
def _sizes(size: float, min_size: float, shrink: bool) -> tuple[float, ...]:
    """The sizes fit() tries, largest first (a layout uses a handful of size ranges)."""
    sizes = [size]
    if shrink:
        s = size - 0.25
        while s > min_size + 1e-9:
            sizes.append(round(s, 2))
            s -= 0.25
        if min_size < size:
            sizes.append(min_size)
    return tuple(sizes)


def _overflow(lines: list[Line], size: float, leading: float, height: float) -> Overflow:
    keep = 0
    for k in range(1, len(lines) + 1):
        if block_height(lines[:k], size, leading) <= height + 0.01:
            keep = k
    rest = lines[keep:] or lines[-1:]
    chars = sum(ln.chars() for ln in rest)
    preview = "".join(a.text if a.kind in ("word", "cjk", "space") else "" for a in rest[0].atoms)
    if len(preview) > 14:
        preview = preview[:14] + "…"
    return Overflow(len(rest), chars, preview, size)


def missing_chars(atoms: list[Atom], m: Measure) -> list[tuple[str, str]]:
    """(character, font) pairs the fonts cannot draw, in order of appearance."""
    out: list[tuple[str, str]] = []
    for a in atoms:
        if a.kind in ("word", "cjk"):
            font = m.bold if a.span.bold else m.regular
            drawable = m._drawable.get(font)
            if drawable is None:
                drawable = m._drawable[font] = set()
            for ch in a.text:
                if ch in drawable:
                    continue
                if m.has_glyph(ch, font):
                    drawable.add(ch)
                elif (ch, font) not in out:
                    out.append((ch, font))
    return out


# ---- drawing ---------------------------------------------------------------------------------


IconPainter = Callable[[Any, str, float, float, float], None]


def draw(
    canvas: Any,
    fitted: Fitted,
    x: float,
    y: float,
    w: float,
    h: float,
    align: str,
    valign: str,
    colour: str,
    m: Measure,
    icon_painter: IconPainter | None,
    mark_colour: str,
) -> None:
    """Draw fitted lines in the box (x, y bottom-left, points)."""
    s, lh = fitted.size, fitted.line_height()
    top = y + h
    if valign == "middle":
        top = y + (h + fitted.height) / 2
    elif valign == "bottom":
        top = y + fitted.height
    cursor = top
    for idx, line in enumerate(fitted.lines):
        if idx:
            cursor -= lh + (PARA_GAP * lh if line.para_before else 0.0)
        baseline = cursor - ASCENT * s
        lw = line.width() * s
        lx = x if align == "left" else x + (w - lw) / 2 if align == "center" else x + w - lw
        _draw_line(canvas, line, lx, baseline, s, colour, m, icon_painter, mark_colour, hex_to_rgb)


_TEXT_KINDS = frozenset(("word", "cjk", "space"))


def _runs(atoms: list[Atom]) -> list[tuple]:
    """Group a line's atoms as drawing needs them (see Line.runs)."""
    out: list[tuple] = []
    run: list[Atom] = []

    def flush() -> None:
        if run:
            out.append(("text", "".join([a.text for a in run]), run[0].span, sum([a.width for a in run])))
            run.clear()

    for a in atoms:
        if a.kind in _TEXT_KINDS:
            if run and run[0].span is not a.span and run[0].span != a.span:
                flush()
            run.append(a)
            continue
        flush()
        if a.kind == "icon":
            out.append(("icon", a.span.icon or "", a.width))
        elif a.kind == "mark":
            out.append(("mark", a.width))
        else:
            out.append(("skip", a.width))
    flush()
    return out


_PDF_OPS: list[Any] = []  # render.pdf_ops once drawing starts (it loads reportlab)


def _load_pdf_ops() -> Any:
    """Import the drawing operators on first use: planning and queries never load reportlab."""
    from pnpforge.render import pdf_ops

    _PDF_OPS.append(pdf_ops)
    return pdf_ops


def _draw_line(
    canvas: Any,
    line: Line,
    x: float,
    baseline: float,
    s: float,
    colour: str,
    m: Measure,
    icon_painter: IconPainter | None,
    mark_colour: str,
    rgb,
) -> None:
    """Draw one line's runs from `x` (`rgb` is kept for callers; colours go through pdf_ops)."""
    pdf_ops = _PDF_OPS[0] if _PDF_OPS else _load_pdf_ops()
    pen = x
    for run in line.runs():
        kind = run[0]
        if kind == "text":
            _, text, sp, width = run
            pdf_ops.fill_hex(canvas, sp.colour or colour)
            pdf_ops.draw_string(canvas, m.bold if sp.bold else m.regular, s, pen, baseline, text)
            pen += width * s
            continue
        if kind == "icon" and icon_painter is not None:
            icon_painter(canvas, run[1], pen, baseline, s)
        elif kind == "mark":
            ms = min(s * MARK_SCALE, MARK_MAX)
            pdf_ops.fill_hex(canvas, mark_colour)
            pdf_ops.draw_string(canvas, m.regular, ms, pen, baseline + (ASCENT * s - ASCENT * ms), m.mark)
        pen += run[-1] * s


def plain_text(spans: list[Span]) -> str:
    return "".join(sp.text for sp in spans)


__all__ = [
    "Span",
    "Atom",
    "Line",
    "Fitted",
    "Overflow",
    "Measure",
    "parse_markup",
    "apply_keywords",
    "atomize",
    "break_lines",
    "fit",
    "draw",
    "missing_chars",
    "NO_START",
    "NO_END",
    "MARK",
]

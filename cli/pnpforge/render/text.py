"""Rich text in a box: shrink-to-fit, the overflow error, and the glyph check.

The pieces live beside it: text_markup (markup and keywords to spans),
text_atoms (atoms and the font measure), text_break (line breaking) and
text_draw (drawing fitted lines).  This module tries the sizes a region
allows, largest first, until the broken lines fit its height, and says
precisely why when none does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pnpforge.render.text_atoms import PARA_GAP, Atom, Measure
from pnpforge.render.text_break import Line, break_lines


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
    """Largest size from `size` down to `min_size` (0.25 pt steps) at which the text fits.

    A size at which a word is wider than the line (and would break between letters) is
    skipped while a smaller size above `min_size` keeps every word whole: long English
    words shrink the text before they break.
    """
    sizes = _sizes(size, min_size, shrink)
    widest = max((a.width for a in atoms if a.kind == "word"), default=0.0)
    whole = tuple(s for s in sizes if widest * s <= width + 0.01)
    lines: list[Line] = []
    for s in whole or sizes:
        lines = break_lines(atoms, width / s, m)
        too_wide = any(ln.width() * s > width + 0.01 for ln in lines)
        h = block_height(lines, s, leading)
        if h <= height + 0.01 and not too_wide:
            return Fitted(lines, s, leading, h)
    raise _overflow(lines, sizes[-1], leading, height)


def fit_unbroken(
    candidates: list[tuple[list[Atom], int]],
    width: float,
    height: float,
    size: float,
    min_size: float,
    leading: float,
    m: Measure,
) -> Fitted | None:
    """The largest size at which one of `candidates` (atoms, and the lines they are written
    on) fits without a break the text did not ask for; at each size the candidates are tried
    in order.  None when none fits even at `min_size`: the caller then lets the text wrap.

    A title such as "駭客聯盟 League of Hackers" is one line, or one line per language, but
    never "League of" on one line and "Hackers" under it.
    """
    for s in _sizes(size, min_size, True):
        for atoms, n in candidates:
            lines = break_lines(atoms, width / s, m)
            if len(lines) != n or any(ln.width() * s > width + 0.01 for ln in lines):
                continue
            h = block_height(lines, s, leading)
            if h <= height + 0.01:
                return Fitted(lines, s, leading, h)
    return None


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

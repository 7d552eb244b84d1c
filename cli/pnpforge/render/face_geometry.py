"""Where a region sits on a card, and the rows of a `rows` region.

Boxes are in mm from the trim's top-left (as layouts give them); the PDF
backend turns them into points at the card's trim origin.  Rows are
label/value pairs fitted into a box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.render import text as tx
from pnpforge.render import text_atoms, text_break, text_draw
from pnpforge.render.layout import Region
from pnpforge.render.units import MM, eval_length, hex_to_rgb

# ---- geometry helpers -------------------------------------------------------------------------


@dataclass(frozen=True)
class Box:
    """A region's box in mm from the trim's top-left."""

    x: float
    y: float
    w: float
    h: float

    @classmethod
    def of(cls, reg: Region, W: float, H: float) -> Box:
        o = reg.opts
        return cls(*(eval_length(o[k], W, H) for k in ("x", "y", "w", "h")))

    def points(self, ox: float, oy: float, H: float) -> tuple[float, float, float, float]:
        return ox + self.x * MM, oy + (H - self.y - self.h) * MM, self.w * MM, self.h * MM

    def content(self, rotate: int, padding: float) -> tuple[float, float]:
        w, h = (self.w - 2 * padding) * MM, (self.h - 2 * padding) * MM
        return (h, w) if rotate in (90, 270) else (w, h)

    def bleed(
        self, x: float, y: float, w: float, h: float, W: float, H: float, b: float
    ) -> tuple[float, float, float, float]:
        e = 0.01
        if self.x <= e:
            x, w = x - b, w + b
        if self.x + self.w >= W - e:
            w += b
        if self.y + self.h >= H - e:
            y, h = y - b, h + b
        if self.y <= e:
            h += b
        return x, y, w, h


# ---- rows ---------------------------------------------------------------------------------------


@dataclass
class FittedRow:
    label: tx.Fitted
    value: tx.Fitted
    height: float


@dataclass
class FittedRows:
    rows: list[FittedRow]
    label_w: float
    size: float
    gap: float

    def for_drawing(self) -> FittedRows:
        """The same rows holding only what drawing reads (see tx.Fitted.for_drawing)."""
        return FittedRows(
            [FittedRow(r.label.for_drawing(), r.value.for_drawing(), r.height) for r in self.rows],
            self.label_w,
            self.size,
            self.gap,
        )


def row_pair(item: Any, where: str) -> tuple[str, Any]:
    if isinstance(item, dict):
        return str(item.get("label", "")), item.get("value", "")
    if isinstance(item, (list, tuple)) and len(item) == 2:
        return str(item[0]), item[1]
    if isinstance(item, (str, int, float)):
        return "", item
    raise PnpError(f"{where}: each row must be a (label, value) pair, got {item!r}")


def fit_rows(
    rows: list[tuple[list[text_atoms.Atom], list[text_atoms.Atom]]],
    width: float,
    height: float,
    size: float,
    min_size: float,
    leading: float,
    m: text_atoms.Measure,
) -> FittedRows:
    s = size
    last: list[text_break.Line] = []
    while True:
        lw = max((sum(a.width for a in la) for la, _ in rows), default=0.0) * s
        label_w = min(lw + 0.8 * s if lw else 0.0, width * 0.55)
        vw = width - label_w
        out, total = [], 0.0
        lh = s * leading
        gap = 0.35 * lh
        ok = True
        for la, va in rows:
            llines = text_break.break_lines(la, max(label_w - 0.8 * s, 1.0) / s, m) if la else []
            vlines = text_break.break_lines(va, vw / s, m)
            if any(ln.width() * s > vw + 0.01 for ln in vlines):
                ok = False
            lf = tx.Fitted(llines, s, leading, tx.block_height(llines, s, leading))
            vf = tx.Fitted(vlines, s, leading, tx.block_height(vlines, s, leading))
            rh = max(lf.height, vf.height)
            out.append(FittedRow(lf, vf, rh))
            total += rh
            last = vlines
        total += gap * (len(rows) - 1)
        if ok and total <= height + 0.01:
            return FittedRows(out, label_w, s, gap)
        if s <= min_size + 1e-9:
            over = total - height
            lines_over = max(1, math.ceil(over / lh))
            chars = sum(ln.chars() for ln in last)
            raise tx.Overflow(lines_over, chars, "rows", s)
        s = max(min_size, round(s - 0.25, 2))


def draw_rows(
    c: Any,
    laid: FittedRows,
    x: float,
    y: float,
    w: float,
    h: float,
    m: text_atoms.Measure,
    painter: text_draw.IconPainter,
    mark_colour: str,
    colour: str,
    rule: str | None,
) -> None:
    top = y + h
    for i, row in enumerate(laid.rows):
        ry = top - row.height
        if row.label.lines:
            text_draw.draw(
                c, row.label, x, ry, laid.label_w, row.height, "left", "top", colour, m, painter, mark_colour
            )
        text_draw.draw(
            c,
            row.value,
            x + laid.label_w,
            ry,
            w - laid.label_w,
            row.height,
            "left",
            "top",
            colour,
            m,
            painter,
            mark_colour,
        )
        top = ry - laid.gap
        if rule and i < len(laid.rows) - 1:
            c.setStrokeColorRGB(*hex_to_rgb(rule))
            c.setLineWidth(0.3)
            c.line(x, ry - laid.gap / 2, x + w, ry - laid.gap / 2)


def tidy_text(text: str) -> str:
    """Strip each line and collapse runs of blank lines that template logic leaves."""
    if "\n" not in text:
        return text.strip()  # one line (most names, labels and values): what the loop gives
    lines = [ln.strip() for ln in text.replace("\r\n", "\n").split("\n")]
    out: list[str] = []
    for ln in lines:
        if not ln and (not out or not out[-1]):
            continue
        out.append(ln)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)

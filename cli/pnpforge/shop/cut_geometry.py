"""Cutting machines as geometry: their marks, the area cards may use, and card outlines.

Pure millimetres with the PDF origin (bottom-left), like sheet.py, so the print
PDF, the SVG and the DXF cut files all read the same numbers.

- Silhouette (Studio's "Type 1" registration marks, its defaults): a filled
  5 mm square at the top-left and two 20 mm L-shaped corners, top-right and
  bottom-left, 0.5 mm thick, inset 10 mm from the paper edge.  Nothing printed
  may come near the marks, so cards keep a clear border of inset + 5 mm + 1 mm.
- Cricut Print Then Cut: the printable image area is at most 6.75 × 9.25 in,
  centred on the page, inside a black frame Design Space prints for its sensor;
  the frame is drawn here at that area's edge and cards keep 3 mm inside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnpforge.errors import PnpError
from pnpforge.render.sheet import PAPERS, Rect

INCH = 25.4
SIL_INSET_MM = 10.0
SIL_SQUARE_MM = 5.0
SIL_LENGTH_MM = 20.0
SIL_THICK_MM = 0.5
SIL_CLEAR_MM = SIL_INSET_MM + SIL_SQUARE_MM + 1.0
CRICUT_AREA_MM = (6.75 * INCH, 9.25 * INCH)
CRICUT_FRAME_MM = 1.0
CRICUT_CLEAR_MM = 3.0
GAP_MM = 2.0  # between cards: room for the blade; bleed takes half
BLEED_MM = 1.0  # drawn past each outline, so a small drift shows no white
DEFAULT_CORNER_MM = 3.0  # poker and 63 × 88 mm cards: 1/8 in ≈ 3 mm
MACHINES = ("silhouette", "cricut")


@dataclass(frozen=True)
class Machine:
    """A machine on a paper: the filled rectangles of its marks and the usable area."""

    name: str
    paper: str
    page: tuple[float, float]
    marks: tuple[Rect, ...]  # filled rectangles (squares, L arms, frame sides)
    area: Rect  # where cards (with their bleed) may go


def _frame(outer: Rect, t: float) -> tuple[Rect, ...]:
    return (
        Rect(outer.x, outer.y, outer.w, t),
        Rect(outer.x, outer.y1 - t, outer.w, t),
        Rect(outer.x, outer.y, t, outer.h),
        Rect(outer.x1 - t, outer.y, t, outer.h),
    )


def machine(name: str, paper: str) -> Machine:
    """The marks and usable area of `name` on `paper`; PnpError for an unknown one."""
    if name not in MACHINES:
        raise PnpError(f"unknown cutting machine '{name}' (machines: {', '.join(MACHINES)})")
    if paper not in PAPERS:
        raise PnpError(f"unknown paper '{paper}' (allowed: {', '.join(PAPERS)})")
    pw, ph = PAPERS[paper]
    if name == "silhouette":
        i, s, ln, t = SIL_INSET_MM, SIL_SQUARE_MM, SIL_LENGTH_MM, SIL_THICK_MM
        marks = (
            Rect(i, ph - i - s, s, s),  # top-left square
            Rect(pw - i - ln, ph - i - t, ln, t),
            Rect(pw - i - t, ph - i - ln, t, ln),
            Rect(i, i, ln, t),
            Rect(i, i, t, ln),
        )  # the two corners
        c = SIL_CLEAR_MM
        return Machine(name, paper, (pw, ph), marks, Rect(c, c, pw - 2 * c, ph - 2 * c))
    aw, ah = CRICUT_AREA_MM
    outer = Rect((pw - aw) / 2, (ph - ah) / 2, aw, ah)
    inner = outer.expand(*(-(CRICUT_FRAME_MM + CRICUT_CLEAR_MM),) * 4)
    return Machine(name, paper, (pw, ph), _frame(outer, CRICUT_FRAME_MM), inner)


@dataclass(frozen=True)
class Grid:
    """Cards of one size on one machine's sheet: how many, where, and whether turned."""

    cols: int
    rows: int
    rotated: bool
    slots: tuple[Rect, ...]  # trim rectangles, top row first, left to right

    @property
    def per_sheet(self) -> int:
        return len(self.slots)


def _count(span: float, size: float) -> int:
    return max(0, math.floor((span + GAP_MM) / (size + GAP_MM) + 1e-9))


def grid(m: Machine, w: float, h: float, what: str = "") -> Grid:
    """As many w×h cards as fit the machine's area (turned by 90° if that fits more), centred.

    `what` names the cards (e.g. "card type 'board'") in the refusal when none fits.
    """
    a, inner = m.area, 2 * BLEED_MM
    options = []
    for rotated, (cw, ch) in ((False, (w, h)), (True, (h, w))):
        cols, rows = _count(a.w - inner, cw), _count(a.h - inner, ch)
        options.append((cols * rows, not rotated, rotated, cols, rows, cw, ch))
    n, _, rotated, cols, rows, cw, ch = max(options)
    if n == 0:
        raise PnpError(
            (f"{what} ({w:g}×{h:g} mm): too large for" if what else f"a {w:g}×{h:g} mm card does not fit")
            + f" a {m.name} sheet on {m.paper} "
            f"(usable area {a.w:.0f}×{a.h:.0f} mm)"
        )
    used_w, used_h = cols * cw + (cols - 1) * GAP_MM, rows * ch + (rows - 1) * GAP_MM
    x0, y_top = a.x + (a.w - used_w) / 2, a.y1 - (a.h - used_h) / 2
    slots = tuple(
        Rect(x0 + c * (cw + GAP_MM), y_top - (r + 1) * ch - r * GAP_MM, cw, ch)
        for r in range(rows)
        for c in range(cols)
    )
    return Grid(cols, rows, rotated, slots)


def rounded_outline(r: Rect, radius: float) -> list[tuple[str, tuple[float, ...]]]:
    """A rounded rectangle as lines and quarter arcs, counter-clockwise from the bottom edge.

    ('line', x0, y0, x1, y1) and ('arc', cx, cy, radius, start_deg, end_deg).
    """
    k = max(0.0, min(radius, r.w / 2, r.h / 2))
    x0, y0, x1, y1 = r.x, r.y, r.x1, r.y1
    parts: list[tuple[str, tuple[float, ...]]] = [
        ("line", (x0 + k, y0, x1 - k, y0)),
        ("arc", (x1 - k, y0 + k, k, 270.0, 360.0)),
        ("line", (x1, y0 + k, x1, y1 - k)),
        ("arc", (x1 - k, y1 - k, k, 0.0, 90.0)),
        ("line", (x1 - k, y1, x0 + k, y1)),
        ("arc", (x0 + k, y1 - k, k, 90.0, 180.0)),
        ("line", (x0, y1 - k, x0, y0 + k)),
        ("arc", (x0 + k, y0 + k, k, 180.0, 270.0)),
    ]
    return [p for p in parts if p[0] == "line" or k > 0]

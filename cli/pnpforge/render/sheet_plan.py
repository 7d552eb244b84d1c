"""Imposition: where each card, mark and note goes on a printed sheet, and how cards fill sheets.

Pure geometry in millimetres with the PDF origin (bottom-left of the page);
no reportlab here, so the layout can be tested and reasoned about alone and
pdf.py only has to draw what this module decides.

Decisions, and why:

- Pages are always the paper's portrait size.  A grid that fits more cards
  turned by 90° is printed with the cards rotated on the portrait page
  rather than on a landscape page, so a duplex printer's "long edge" /
  "short edge" setting keeps one meaning for every sheet and the calibration
  page is valid for all of them.
- A band of NOTE_MM along the bottom (or, when that fits more cards, the
  left) edge holds the "print at 100 %" note and the 10 mm scale bar; cards
  and their bleed never enter it.
- Bleed between neighbours is clipped to half the gap (with the default gap
  of 0 the shared cut line has no bleed, as on most print-and-play sheets);
  outer edges get the full bleed.  So `--gap` may be anything >= 0 and the
  backgrounds of two cards never overlap.
- Crop marks extend each cut line into the page margin, beyond the outer
  bleed, so they can never cross a card.
- Backs: the back of a card is drawn where the paper flip puts it, mirrored
  about the paper's long edge (or short edge) and turned so that the back
  reads upright when the cut card is turned over sideways.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from pnpforge.errors import PnpError
from pnpforge.render.sheet import (
    EDGE_MM,
    MARK_EDGE_MM,
    MARK_LEN_MM,
    MARK_MIN_MM,
    MARK_OFFSET_MM,
    NOTE_MM,
    PAPERS,
    Affine,
    Rect,
    Segment,
    SheetLayout,
    SheetOptions,
    Slot,
    translate,
)

T = TypeVar("T")

# ---- planning ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    rotated: bool
    band: str
    cols: int
    rows: int
    origin: tuple[float, float]
    clearance: float

    @property
    def count(self) -> int:
        return self.cols * self.rows

    def key(self, cap: float) -> tuple:
        # most cards, then most room for bleed and marks, then upright cards, then a bottom note
        return (self.count, round(min(self.clearance, cap), 1), not self.rotated, self.band == "bottom")


def _fit(space: float, size: float, gap: float) -> int:
    if space < size - 1e-9:
        return 0
    return int(math.floor((space + gap) / (size + gap) + 1e-9))


def _candidate(
    pw: float,
    ph: float,
    w: float,
    h: float,
    rotated: bool,
    band: str,
    bleed: float,
    gap: float,
    marks_room: bool,
) -> _Candidate | None:
    """Grid of w×h trims in the region the band (and, if asked, the marks) leave free.

    The grid is centred on the page when that keeps clear of the band, else it is
    moved just far enough away from it.
    """
    mark_room = MARK_OFFSET_MM + MARK_MIN_MM
    side_min = max(EDGE_MM, bleed + mark_room + MARK_EDGE_MM) if marks_room else EDGE_MM
    band_min = EDGE_MM + NOTE_MM + bleed + (0.5 + mark_room if marks_room else 0.0)
    x0 = band_min if band == "left" else side_min
    y0 = band_min if band == "bottom" else side_min
    x1, y1 = pw - side_min, ph - side_min
    cols, rows = _fit(x1 - x0, w, gap), _fit(y1 - y0, h, gap)
    if cols == 0 or rows == 0:
        return None
    gw, gh = cols * w + (cols - 1) * gap, rows * h + (rows - 1) * gap
    gx = min(max((pw - gw) / 2, x0), x1 - gw)
    gy = min(max((ph - gh) / 2, y0), y1 - gh)
    band_edge_x = EDGE_MM + NOTE_MM if band == "left" else 0.0
    band_edge_y = EDGE_MM + NOTE_MM if band == "bottom" else 0.0
    clearance = min(gx - band_edge_x, gy - band_edge_y, pw - gx - gw, ph - gy - gh)
    return _Candidate(rotated, band, cols, rows, (gx, gy), clearance)


def plan_layout(card_w: float, card_h: float, opts: SheetOptions, what: str = "card") -> SheetLayout:
    """The sheet layout holding the most cards of this size; PnpError if none fits.

    With marks on, only grids that leave room for marks on all four sides are
    considered, unless no such grid exists (then marks go where they fit, with a
    warning); --no-marks can therefore fit a few more small cards.
    """
    opts.validate()
    pw, ph = opts.paper_size
    cap = opts.bleed + MARK_OFFSET_MM + MARK_LEN_MM
    best: _Candidate | None = None
    for marks_room in (True, False) if opts.marks else (False,):
        for rotated in (False, True):
            w, h = (card_h, card_w) if rotated else (card_w, card_h)
            for band in ("bottom", "left"):
                cand = _candidate(pw, ph, w, h, rotated, band, opts.bleed, opts.gap, marks_room)
                if cand and (best is None or cand.key(cap) > best.key(cap)):
                    best = cand
        if best is not None:
            break
    if best is None:
        raise PnpError(
            f"{what} is {card_w:g}×{card_h:g} mm and does not fit on {opts.paper} paper "
            f"({pw:g}×{ph:g} mm; about {pw - 2 * EDGE_MM:g}×"
            f"{ph - 2 * EDGE_MM - NOTE_MM - opts.bleed:g} mm are usable after the printer margin, "
            f"page note and bleed; papers: {', '.join(f'{k} {v[0]:g}×{v[1]:g}' for k, v in PAPERS.items())})"
        )
    return _build(best, card_w, card_h, opts)


def _build(c: _Candidate, card_w: float, card_h: float, opts: SheetOptions) -> SheetLayout:
    pw, ph = opts.paper_size
    w, h = (card_h, card_w) if c.rotated else (card_w, card_h)
    gap, bleed = opts.gap, opts.bleed
    inner = min(bleed, gap / 2)
    gx, gy = c.origin
    gw, gh = c.cols * w + (c.cols - 1) * gap, c.rows * h + (c.rows - 1) * gap
    # outer bleed: full, but never past the paper or into the note band
    band_x = EDGE_MM + NOTE_MM if c.band == "left" else 0.0
    band_y = EDGE_MM + NOTE_MM if c.band == "bottom" else 0.0
    out_l, out_b = min(bleed, gx - band_x), min(bleed, gy - band_y)
    out_r, out_t = min(bleed, pw - gx - gw), min(bleed, ph - gy - gh)
    slots = []
    index = 0
    for row in range(c.rows):  # top row first: reading order on the sheet
        y = gy + (c.rows - 1 - row) * (h + gap)
        for col in range(c.cols):
            x = gx + col * (w + gap)
            trim = Rect(x, y, w, h)
            clip = trim.expand(
                out_l if col == 0 else inner,
                out_b if row == c.rows - 1 else inner,
                out_r if col == c.cols - 1 else inner,
                out_t if row == 0 else inner,
            )
            # rotated cards turn 90° counter-clockwise: card-up points to the page's left
            tf = Affine(0, 1, -1, 0, x + w, y) if c.rotated else translate(x, y)
            slots.append(Slot(index, trim, clip, tf))
            index += 1
    grid = Rect(gx, gy, gw, gh)
    bleed_box = grid.expand(out_l, out_b, out_r, out_t)
    marks, skipped = _marks(grid, bleed_box, c, w, h, gap, pw, ph) if opts.marks else ([], [])
    warnings = (
        [
            f"{card_w:g}×{card_h:g} mm sheets on {opts.paper}: no room for crop marks on the "
            f"{' and '.join(skipped)} edge (cut along the card edges there)"
        ]
        if skipped
        else []
    )
    if c.band == "bottom":
        note = Rect(EDGE_MM, EDGE_MM, pw - 2 * EDGE_MM, NOTE_MM)
    else:
        note = Rect(EDGE_MM, EDGE_MM, NOTE_MM, ph - 2 * EDGE_MM)
    return SheetLayout(
        opts.paper,
        pw,
        ph,
        card_w,
        card_h,
        c.rotated,
        c.cols,
        c.rows,
        bleed,
        gap,
        tuple(slots),
        tuple(marks),
        note,
        c.band,
        tuple(warnings),
    )


def _cut_positions(start: float, n: int, size: float, gap: float) -> list[float]:
    out: list[float] = []
    for i in range(n):
        for v in (start + i * (size + gap), start + i * (size + gap) + size):
            if not out or abs(out[-1] - v) > 1e-6:
                out.append(v)
    return out


def _marks(
    grid: Rect, bleed_box: Rect, c: _Candidate, w: float, h: float, gap: float, pw: float, ph: float
) -> tuple[list[Segment], list[str]]:
    """Each cut line extended into the margins, starting beyond the outer bleed.

    Also returns the sides left without marks (no room between bleed and paper edge).
    """
    xs = _cut_positions(grid.x, c.cols, w, gap)
    ys = _cut_positions(grid.y, c.rows, h, gap)
    limit_b = EDGE_MM + NOTE_MM + 0.5 if c.band == "bottom" else MARK_EDGE_MM
    limit_l = EDGE_MM + NOTE_MM + 0.5 if c.band == "left" else MARK_EDGE_MM
    sides = {
        # side: (start, end) of the mark along its axis, and the lines it extends
        "bottom": (bleed_box.y - MARK_OFFSET_MM, max(limit_b, bleed_box.y - MARK_OFFSET_MM - MARK_LEN_MM)),
        "top": (
            bleed_box.y1 + MARK_OFFSET_MM,
            min(ph - MARK_EDGE_MM, bleed_box.y1 + MARK_OFFSET_MM + MARK_LEN_MM),
        ),
        "left": (bleed_box.x - MARK_OFFSET_MM, max(limit_l, bleed_box.x - MARK_OFFSET_MM - MARK_LEN_MM)),
        "right": (
            bleed_box.x1 + MARK_OFFSET_MM,
            min(pw - MARK_EDGE_MM, bleed_box.x1 + MARK_OFFSET_MM + MARK_LEN_MM),
        ),
    }
    marks: list[Segment] = []
    skipped: list[str] = []
    for side, (a, b) in sides.items():
        if (
            abs(b - a) < MARK_MIN_MM
            or (side in ("bottom", "left") and b > a)
            or (side in ("top", "right") and b < a)
        ):
            skipped.append(side)
            continue
        if side in ("bottom", "top"):
            marks += [Segment(x, a, x, b) for x in xs]
        else:
            marks += [Segment(a, y, b, y) for y in ys]
    return marks, skipped


# ---- grouping and paging -----------------------------------------------------------------


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of at most `size` items, without materialising the input."""
    batch: list[T] = []
    for it in items:
        batch.append(it)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def pages_needed(count: int, capacity: int) -> int:
    return -(-count // capacity) if count else 0


def size_key(width_mm: float, height_mm: float, role: str) -> tuple[str, float, float]:
    """Cards share sheets when they have this key: same role class and exact size."""
    return ("aid" if role == "aid" else "deck", round(width_mm, 3), round(height_mm, 3))


def order_groups(keys: Sequence[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """Deck sizes first, then aid cards, each in order of first appearance."""
    seen: list[tuple[str, float, float]] = []
    for k in keys:
        if k not in seen:
            seen.append(k)
    return [k for k in seen if k[0] == "deck"] + [k for k in seen if k[0] == "aid"]

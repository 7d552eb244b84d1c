"""Imposition: where each card, mark and note goes on a printed sheet.

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
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pnpforge.errors import PnpError

MM_TO_PT = 72.0 / 25.4

# Paper sizes in mm, portrait.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
BACKS = ("duplex", "separate", "none")
FLIPS = ("long", "short")

EDGE_MM = 4.0  # most printers cannot print this close to the paper edge
NOTE_MM = 6.0  # band for the page note and scale bar
MARK_OFFSET_MM = 1.0  # crop marks start this far outside the bleed
MARK_LEN_MM = 5.0  # and are at most this long
MARK_MIN_MM = 1.5  # shorter than this is not worth drawing
MARK_EDGE_MM = 1.0  # marks stop this far from the paper edge
MAX_BLEED_MM = 10.0
MAX_OFFSET_MM = 20.0
SCALE_BAR_MM = 10.0

T = TypeVar("T")


# ---- options -------------------------------------------------------------------


@dataclass(frozen=True)
class SheetOptions:
    """How sheets are laid out and printed (everything but which cards)."""

    paper: str = "a4"
    bleed: float = 3.0
    gap: float = 0.0
    marks: bool = True
    backs: str = "duplex"
    flip: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)

    def validate(self) -> SheetOptions:
        """Raise PnpError naming what is allowed; return self so calls chain."""
        if self.paper not in PAPERS:
            raise PnpError(f"unknown paper '{self.paper}' (allowed: {', '.join(PAPERS)})")
        if self.backs not in BACKS:
            raise PnpError(f"unknown --backs '{self.backs}' (allowed: {', '.join(BACKS)})")
        if self.flip not in FLIPS:
            raise PnpError(f"unknown --flip '{self.flip}' (allowed: {', '.join(FLIPS)})")
        if not (
            isinstance(self.bleed, (int, float))
            and math.isfinite(self.bleed)
            and 0 <= self.bleed <= MAX_BLEED_MM
        ):
            raise PnpError(f"--bleed must be between 0 and {MAX_BLEED_MM:g} mm (got {self.bleed})")
        if not (isinstance(self.gap, (int, float)) and math.isfinite(self.gap) and self.gap >= 0):
            raise PnpError(f"--gap must be 0 mm or more (got {self.gap})")
        ox, oy = self.offset
        if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET_MM for v in (ox, oy)):
            raise PnpError(
                f"--offset must be two numbers between -{MAX_OFFSET_MM:g} and "
                f"{MAX_OFFSET_MM:g} mm (got {ox:g},{oy:g})"
            )
        return self

    @property
    def paper_size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


def parse_offset(text: str | None) -> tuple[float, float]:
    """'0.5,-1' -> (0.5, -1.0); the back-page shift in mm."""
    if text is None or not text.strip():
        return (0.0, 0.0)
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = float(parts[0]), float(parts[1])
    except ValueError:
        raise PnpError(f"--offset must be X,Y in mm, e.g. 0.5,-1 (got '{text}')") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise PnpError(f"--offset must be X,Y in mm, e.g. 0.5,-1 (got '{text}')")
    return (x, y)


# ---- geometry primitives ---------------------------------------------------------


@dataclass(frozen=True)
class Rect:
    """Axis-aligned rectangle in mm: (x, y) is the bottom-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def expand(self, left: float, bottom: float, right: float, top: float) -> Rect:
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def overlaps(self, other: Rect, eps: float = 1e-9) -> bool:
        return (
            self.x < other.x1 - eps
            and other.x < self.x1 - eps
            and self.y < other.y1 - eps
            and other.y < self.y1 - eps
        )

    def contains(self, other: Rect, eps: float = 1e-6) -> bool:
        return (
            other.x >= self.x - eps
            and other.y >= self.y - eps
            and other.x1 <= self.x1 + eps
            and other.y1 <= self.y1 + eps
        )

    def to_dict(self, ndigits: int = 3) -> dict[str, float]:
        return {
            "x": round(self.x, ndigits),
            "y": round(self.y, ndigits),
            "w": round(self.w, ndigits),
            "h": round(self.h, ndigits),
        }


@dataclass(frozen=True)
class Affine:
    """x' = a*x + c*y + e, y' = b*x + d*y + f (PDF's `cm` operator order)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    def __matmul__(self, other: Affine) -> Affine:
        """self @ other: apply `other` first, then `self`."""
        return Affine(
            self.a * other.a + self.c * other.b,
            self.b * other.a + self.d * other.b,
            self.a * other.c + self.c * other.d,
            self.b * other.c + self.d * other.d,
            self.a * other.e + self.c * other.f + self.e,
            self.b * other.e + self.d * other.f + self.f,
        )

    def map_rect(self, r: Rect) -> Rect:
        """Bounding box of a rectangle's image (exact for 90° multiples and mirrors)."""
        pts = [self.apply(x, y) for x in (r.x, r.x1) for y in (r.y, r.y1)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    @property
    def rotation(self) -> int:
        """Degrees the card's up direction is turned counter-clockwise on the page."""
        ux, uy = self.c, self.d  # image of the card's (0, 1)
        return int(round(math.degrees(math.atan2(-ux, uy)))) % 360

    @property
    def mirrored(self) -> bool:
        return self.a * self.d - self.b * self.c < 0

    def scaled(self, k: float) -> Affine:
        """The same placement with translations in other units (mm -> pt: k = MM_TO_PT)."""
        return Affine(self.a, self.b, self.c, self.d, self.e * k, self.f * k)


def translate(dx: float, dy: float) -> Affine:
    return Affine(1, 0, 0, 1, dx, dy)


@dataclass(frozen=True)
class Segment:
    """A crop-mark line, in mm."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet.

    `transform` maps card-local mm (0..card_w, 0..card_h, card upright) to page
    mm; `trim` is the cut rectangle on the page; `clip` is trim plus the bleed
    this slot may use (less than the full bleed next to a close neighbour).
    """

    index: int
    trim: Rect
    clip: Rect
    transform: Affine

    @property
    def rotation(self) -> int:
        return self.transform.rotation


@dataclass(frozen=True)
class SheetLayout:
    """Where cards of one size go on one page, plus its marks and note band."""

    paper: str
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    rotated: bool
    cols: int
    rows: int
    bleed: float
    gap: float
    slots: tuple[Slot, ...]
    marks: tuple[Segment, ...]
    note: Rect
    note_side: str  # 'bottom' | 'left'
    warnings: tuple[str, ...] = field(default=())

    @property
    def capacity(self) -> int:
        return len(self.slots)

    @property
    def grid(self) -> Rect:
        """Bounding box of every trim rectangle."""
        xs = [s.trim.x for s in self.slots] + [s.trim.x1 for s in self.slots]
        ys = [s.trim.y for s in self.slots] + [s.trim.y1 for s in self.slots]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


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


# ---- backs ---------------------------------------------------------------------------


def flip_transform(flip: str, page_w: float, page_h: float) -> Affine:
    """Front-page point -> the back-page point behind it after the paper is turned over.

    Long-edge flip turns the sheet about its long (vertical, portrait) axis; short
    edge about its short axis.  Pages are always portrait (see module docstring).
    """
    if flip == "long":
        return Affine(-1, 0, 0, 1, page_w, 0)
    if flip == "short":
        return Affine(1, 0, 0, -1, 0, page_h)
    raise PnpError(f"unknown --flip '{flip}' (allowed: {', '.join(FLIPS)})")


def back_slot(
    slot: Slot,
    card_w: float,
    card_h: float,
    page_w: float,
    page_h: float,
    flip: str,
    offset: tuple[float, float] = (0.0, 0.0),
) -> Slot:
    """Where the back of the card in `slot` goes on the back page.

    back = offset ∘ flip ∘ face ∘ turn, where `turn` mirrors the card about its own
    vertical axis (how a player turns a card over): so the back sits exactly behind
    its face and reads upright when the card is turned over sideways.
    """
    m = flip_transform(flip, page_w, page_h)
    o = translate(*offset)
    turn = Affine(-1, 0, 0, 1, card_w, 0)
    tf = o @ m @ slot.transform @ turn
    return Slot(slot.index, (o @ m).map_rect(slot.trim), (o @ m).map_rect(slot.clip), tf)


def back_slots(layout: SheetLayout, flip: str, offset: tuple[float, float]) -> tuple[Slot, ...]:
    return tuple(
        back_slot(s, layout.card_w, layout.card_h, layout.page_w, layout.page_h, flip, offset)
        for s in layout.slots
    )


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


# ---- what to print, and what was printed -----------------------------------------------------


@dataclass(frozen=True)
class PrintOptions(SheetOptions):
    """SheetOptions plus which cards, and where the PDF goes (None: output/GAME/)."""

    card_type: str | None = None
    query: str | None = None
    one_each: bool = False
    output: str | None = None

    def sheet_options(self) -> SheetOptions:
        return SheetOptions(self.paper, self.bleed, self.gap, self.marks, self.backs, self.flip, self.offset)


@dataclass(frozen=True, slots=True)  # slots: a manifest holds two per card printed
class Placement:
    """One card drawn on one page: the geometry a cutting machine or a test needs."""

    id: str
    type: str
    page: int
    side: str  # 'face' | 'back'
    trim: Rect  # mm, PDF origin (bottom-left of the page)
    rotation: int  # degrees the card's top is turned counter-clockwise on the page

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "type": self.type,
            "page": self.page,
            "side": self.side,
            **self.trim.to_dict(),
            "rotation": self.rotation,
        }


@dataclass
class SheetSummary:
    """One same-size run of sheets, for the human summary and the manifest."""

    card_w: float
    card_h: float
    role: str
    per_sheet: int
    cols: int
    rows: int
    rotated: bool
    cards: int
    sheets: int

    def to_dict(self) -> dict:
        return {
            "card_w": self.card_w,
            "card_h": self.card_h,
            "role": self.role,
            "per_sheet": self.per_sheet,
            "cols": self.cols,
            "rows": self.rows,
            "rotated": self.rotated,
            "cards": self.cards,
            "sheets": self.sheets,
        }


@dataclass
class Manifest:
    """What `pnp print` wrote: enough to check or cut the sheets without opening the PDF."""

    path: str
    game: str
    paper: str
    paper_w: float
    paper_h: float
    pages: int
    bleed: float
    gap: float
    backs: str
    flip: str
    offset: tuple[float, float]
    date: str = ""
    sheets: list[SheetSummary] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def of_print(cls, path: str, game: str, opts: Any, date: str) -> Manifest:
        """The header of one printed PDF, from the sheet options it was printed with."""
        paper_w, paper_h = opts.paper_size
        return cls(
            path,
            game,
            opts.paper,
            paper_w,
            paper_h,
            0,
            opts.bleed,
            opts.gap,
            opts.backs,
            opts.flip,
            opts.offset,
            date,
        )

    @property
    def cards(self) -> int:
        """Card faces placed (copies counted)."""
        return sum(1 for p in self.placements if p.side == "face")

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "game": self.game,
            "paper": {"name": self.paper, "w": self.paper_w, "h": self.paper_h},
            "pages": self.pages,
            "cards": self.cards,
            "bleed": self.bleed,
            "gap": self.gap,
            "backs": self.backs,
            "flip": self.flip,
            "offset": {"x": self.offset[0], "y": self.offset[1]},
            "date": self.date,
            "sheets": [s.to_dict() for s in self.sheets],
            "warnings": list(self.warnings),
            "placements": [p.to_dict() for p in self.placements],
        }

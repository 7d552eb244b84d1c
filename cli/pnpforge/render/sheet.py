"""Print options and the millimetre geometry a printed sheet is described in.

Rectangles, affine maps, crop-mark segments, card slots and the finished
SheetLayout are shared by the planner (render.sheet_plan), the PDF writers,
the cutting-machine export and the manifest; they, the paper and margin
constants and the options a print is asked for live here so each of those
can use them without the planning code.  Pure geometry in millimetres with
the PDF origin (bottom-left of the page); no reportlab.  The backs' slots are
here too: they are the face slots mapped through the paper flip.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

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


@dataclass(frozen=True)
class PrintOptions(SheetOptions):
    """SheetOptions plus which cards, and where the PDF goes (None: output/GAME/)."""

    card_type: str | None = None
    query: str | None = None
    one_each: bool = False
    output: str | None = None

    def sheet_options(self) -> SheetOptions:
        return SheetOptions(self.paper, self.bleed, self.gap, self.marks, self.backs, self.flip, self.offset)

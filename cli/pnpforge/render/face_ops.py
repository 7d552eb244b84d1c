"""The card plan as data: what a face or a back draws, as frozen values.

A planner (render.face and its collaborators) fits and checks everything up
front and returns a `CardPlan`; nothing in it draws.  One backend
(render.plan_pdf) draws a plan through reportlab's public canvas API; a reader
such as preflight walks the same values to learn colours, fonts and art.

Two kinds of op:
  * card ops are placed at the card's trim origin (mm from the top-left, the
    layout's units, turned into points when drawn) and may reach into the bleed;
  * box ops fill the box they are drawn in (points); `Placed` puts one into a
    region of the card, turned about the box centre, `Padded` insets it.

Ops compare by identity (`eq=False`): a plan is memoised by the values that
determine it (render.face_cache.plan_key), so equal plans are the same object
and hashing a fitted text's lines would only cost time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pnpforge.render import text as tx
from pnpforge.render import text_atoms
from pnpforge.render.face_geometry import Box, FittedRows
from pnpforge.render.units import luminance, mix

_OP = {"frozen": True, "slots": True, "eq": False}

# ---- box ops: drawn into a box (points) ----------------------------------------------------------


@dataclass(**_OP)
class Mark:
    """The provisional sign beside a graphic (icons), top-aligned."""

    colour: str
    sign: str
    font: str


@dataclass(**_OP)
class InlineIcons:
    """The icons a text may show inline (`:name:` markup), their colours resolved."""

    specs: dict[str, dict[str, Any]]
    measure: text_atoms.Measure
    fonts: Any


@dataclass(**_OP)
class TextBlock:
    """A text region's fitted lines: font, size and lines in `fitted`."""

    fitted: tx.Fitted
    align: str
    valign: str
    colour: str
    measure: text_atoms.Measure
    icons: InlineIcons
    mark_colour: str


@dataclass(**_OP)
class RowsBlock:
    """A rows region's laid-out label/value pairs."""

    laid: FittedRows
    measure: text_atoms.Measure
    icons: InlineIcons
    mark_colour: str
    colour: str
    rule: str | None


@dataclass(**_OP)
class IconBadge:
    """One icon filling its box's height (scaled down whole when too wide)."""

    spec: dict[str, Any]
    name: str
    align: str
    measure: text_atoms.Measure
    fonts: Any
    mark: Mark | None


@dataclass(**_OP)
class IconRow:
    """A row or column of icons, scaled down together when they do not fit."""

    specs: tuple[dict[str, Any], ...]
    names: tuple[str, ...]
    direction: str
    gap: float  # points
    align: str
    measure: text_atoms.Measure
    fonts: Any
    mark: Mark | None
    # cells of a list designed one by one: the sign follows each flagged icon, not the row
    cells: tuple[bool, ...] = ()


@dataclass(**_OP)
class Picture:
    """Art resampled to its box: `cover` fills the box, `contain` fits inside it, centred."""

    image: Any  # a reportlab ImageReader
    width_px: int
    height_px: int
    fit: str
    path: str
    target_px: tuple[int, int]  # what the region asks for at its dpi
    dpi: int


@dataclass(**_OP)
class Hatch:
    """Soft diagonal hatching: an art slot waiting for art."""

    colour: str
    ground: str


@lru_cache(maxsize=256)
def hatch(colour: str) -> Hatch:
    # light slot on light cards, dark slot on dark ones: the colour sets the mood
    ground = mix(colour, "#ffffff", 0.55) if luminance(colour) > 0.2 else mix(colour, "#000000", 0.35)
    return Hatch(colour, ground)


@dataclass(**_OP)
class Placeholder:
    """Missing or unreadable art: hatching, a dashed outline and the file's name."""

    hatch: Hatch
    outline: str
    label: str
    font: str
    path: str
    fit: str
    target_px: tuple[int, int]
    dpi: int


@dataclass(**_OP)
class Padded:
    """A box op inset by its region's padding (points)."""

    content: Any
    pad: float


# ---- card ops: drawn at the card's trim origin (layout mm) ---------------------------------------


@dataclass(**_OP)
class Placed:
    """A box op placed in a region of the card, turned about the box centre."""

    content: Any
    box: Box
    card_h: float
    rotate: int
    region: str


@dataclass(**_OP)
class Fill:
    """The whole card, bleed included, in one colour."""

    colour: str
    card_w: float
    card_h: float


@lru_cache(maxsize=256)
def fill(colour: str, card_w: float, card_h: float) -> Fill:
    return Fill(colour, card_w, card_h)


@dataclass(**_OP)
class Shape:
    """A region's shape in its fill and outline colours (into the bleed if it asks)."""

    shape: str
    box: Box
    card_w: float
    card_h: float
    radius: float  # mm
    stroke_width: float  # mm
    into_bleed: bool
    fill: str | None
    stroke: str | None


@dataclass(**_OP)
class Badge:
    """The provisional badge: filled for a wholly provisional card, an outline otherwise."""

    text: str
    x: float
    y: float
    d: float
    card_h: float
    fill: str
    text_colour: str
    font: str
    whole: bool


@dataclass(**_OP)
class Pattern:
    """A back pattern centred on the card, so mirroring the back changes nothing."""

    kind: str
    colour: str
    card_w: float
    card_h: float


@dataclass(**_OP)
class Frame:
    """A back's double rounded frame."""

    colour: str
    card_w: float
    card_h: float
    inset: float


@dataclass(**_OP)
class Band:
    """A back's title band with a line on each long edge."""

    fill: str
    line: str
    x: float
    y: float
    w: float
    h: float
    card_h: float


@dataclass(**_OP)
class TextAt:
    """Fitted text in a box given in points from the trim origin (back titles, the stamp)."""

    fitted: tx.Fitted
    x: float
    y: float
    w: float
    h: float
    align: str
    valign: str
    colour: str
    measure: text_atoms.Measure
    mark_colour: str = ""  # the provisional sign's colour ("": the text's)


# ---- aid card ops: points from the trim origin (aid cards are laid out in points) -------------


@dataclass(**_OP)
class Rect:
    """A filled rectangle; the sides named in `bleed` ('l', 'b', 'r', 't') reach into the bleed."""

    colour: str
    x: float
    y: float
    w: float
    h: float
    bleed: str = ""


@dataclass(**_OP)
class Rule:
    """A straight line from (x, y) to (x2, y2)."""

    colour: str
    width: float
    x: float
    y: float
    x2: float
    y2: float


@dataclass(**_OP)
class Disc:
    """A filled circle centred on (x, y)."""

    colour: str
    x: float
    y: float
    r: float


@dataclass(**_OP)
class Label:
    """One string on a baseline at (x, y): its left end, centre or right end by `align`."""

    text: str
    font: str
    size: float
    colour: str
    x: float
    y: float
    align: str


@dataclass(**_OP)
class RoundFrame:
    """A stroked rounded rectangle."""

    colour: str
    width: float
    x: float
    y: float
    w: float
    h: float
    radius: float


@dataclass(**_OP)
class Lattice:
    """Diagonal lines both ways through the card's centre, clipped to the card and its bleed
    (an aid back's pattern; `step` and the card size in points)."""

    colour: str
    width: float
    step: float
    card_w: float
    card_h: float


@dataclass(**_OP)
class CardPlan:
    """What one face or back draws, in order; every op in its own graphics state."""

    ops: tuple[Any, ...]

"""What a print wrote: the manifest of pages, sheet runs and card placements.

`pnp print --json`, the cutting-machine export and the tests read a print's
geometry from here instead of opening the PDF; the writers fill it as they
place cards.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass, field
from typing import Any

from pnpforge.render.sheet import Rect


@dataclass(frozen=True, slots=True)  # slots: a manifest holds two per card printed
class Placement:
    """One card drawn on one page: the geometry a cutting machine or a test needs."""

    id: str
    type: str
    page: int
    side: str  # 'face' | 'back'
    trim: Rect  # mm, PDF origin (bottom-left of the page)
    rotation: int  # degrees the card's top is turned counter-clockwise on the page

    def __post_init__(self) -> None:
        # A deck has a handful of card types but each card row brings its own copy of the
        # type's name; one shared string keeps the manifest at the id and geometry per card.
        if type(self.type) is str:
            object.__setattr__(self, "type", sys.intern(self.type))

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
        return asdict(self)  # every field, in their order: plain numbers, strings and flags


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

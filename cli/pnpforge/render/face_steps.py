"""A card type's regions with what every card shares worked out once.

Planning a face walks the layout's regions for each card.  Whatever a region
needs that no card changes (its box, where an error would point, its planner,
its `when` test, its shape when the shape's colours are fixed) is kept here per
card type, so a 10,000-card deck looks each of them up once, not 10,000 times.
A shape whose colour depends on the card (a category colour, a template) is
resolved for every card as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnpforge.render.face_geometry import Box
from pnpforge.render.face_values import card_free_colour
from pnpforge.render.layout import Region

UNRESOLVED: Any = object()  # a shape op not worked out yet (or worked out per card)


@dataclass(slots=True)
class RegionStep:
    """One region of a card type's layout, as planning meets it on every card."""

    reg: Region
    box: Box
    tail: str  # the error location after "card ID"
    when: str  # the region's `when` expression ('' when always shown)
    planner: Callable[..., Any]
    rotate: int
    fixed_shape: bool  # fill and stroke resolve alike on every card
    shape: Any = UNRESOLVED  # the shape op once resolved (None: no shape)

    @classmethod
    def of(cls, reg: Region, box: Box, tail: str, planner: Callable[..., Any]) -> RegionStep:
        o = reg.opts
        fixed = card_free_colour(o["fill"] or "") and card_free_colour(o["stroke"] or "")
        return cls(reg, box, tail, o["when"] or "", planner, int(o["rotate"]), fixed)

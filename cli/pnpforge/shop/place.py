"""Putting one card on one product page: where, how large, and how much bleed to draw.

Shared by the PNG shops (a page per image, rasterised) and the PDF shop (a page
per card side).  The card's centre sits on the page's centre; the card is scaled
by the fit's factor; its bleed is drawn far enough to cover the whole page, so
the product's bleed is always full.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpforge.render.units import MM
from pnpforge.shop.fit import Fit

BLEED_SPARE_PT = 0.5  # drawn past the page edge, so no anti-aliased seam shows


@dataclass(frozen=True)
class Placement:
    """The card's trim origin on the page (pt), its scale, and the bleed to draw (card pt)."""

    x: float
    y: float
    scale: float
    bleed: float


def placement(fit: Fit, page_w_pt: float, page_h_pt: float) -> Placement:
    """Centre the card on a page_w × page_h page with the fit's scale and a covering bleed."""
    s = fit.scale
    w, h = fit.card_w_mm * MM * s, fit.card_h_mm * MM * s
    x, y = (page_w_pt - w) / 2, (page_h_pt - h) / 2
    bleed = max(x, y) / s + BLEED_SPARE_PT
    return Placement(x, y, s, bleed)


def draw_side(
    canvas: Any, renderer: Any, fit: Fit, where: Placement, card: Any | None, back_of: str | None
) -> None:
    """Draw a card's face (card given) or a type's back (back_of given) at `where`."""
    canvas.saveState()
    canvas.translate(where.x, where.y)
    if where.scale != 1.0:
        canvas.scale(where.scale, where.scale)
    if card is not None:
        renderer.draw_face(canvas, card, 0.0, 0.0, where.bleed)
    else:
        renderer.draw_back(canvas, back_of, 0.0, 0.0, where.bleed)
    canvas.restoreState()

"""Text and colour on a reportlab canvas through its public API, in the project's units.

Card text comes as '#rrggbb' colours and strings already fitted to a font and size;
these two calls are what every drawer of a face, a back or a sheet note uses, so a
face draws the same operators whichever drawer wrote it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pnpforge.render.units import hex_to_rgb


@lru_cache(maxsize=1024)
def _rgb(colour: str) -> tuple[float, float, float]:
    r, g, b = hex_to_rgb(colour)
    return r, g, b


def fill_hex(canvas: Any, colour: str) -> None:
    """`canvas.setFillColorRGB` for a '#rrggbb' colour."""
    canvas.setFillColorRGB(*_rgb(colour))


def draw_string(canvas: Any, font_name: str, size: float, x: float, y: float, text: str) -> None:
    """`canvas.setFont(font_name, size); canvas.drawString(x, y, text)`."""
    canvas.setFont(font_name, size)
    canvas.drawString(x, y, text)

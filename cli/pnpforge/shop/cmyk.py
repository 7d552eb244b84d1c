"""Drawing in CMYK: a reportlab canvas that turns every RGB colour and image into CMYK.

The card faces are drawn in RGB (`setFillColorRGB`, RGB art).  A press shop
wants DeviceCMYK only, with total ink limited (DriveThruCards: 240 %).  This
canvas intercepts the colour and image calls, so the very same drawing comes
out in CMYK: grey component replacement (black ink carries the darkness, so at
least one of C, M, Y is zero), then C, M and Y are reduced together when the
total would pass the limit.  Without a press profile this is a device-naive
conversion: colours are close, not colour-managed (pnp preflight says which
colours move most).
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image
from reportlab.lib.colors import CMYKColor, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

Cmyk = tuple[float, float, float, float]


DARK_K = 0.8  # black ink of a colour (after grey replacement) from which it is a dark UI colour
SOLID_K = 0.85  # a neutral this dark prints as solid black ink
NEUTRAL_CMY = 0.1  # a dark colour with no more colour ink than this is a neutral (black text, rules)
RICH_UNDERLAY = 0.3  # C, M and Y laid under K 100 % for a rich black, before the colour's own hue


def rgb_to_cmyk(r: float, g: float, b: float, max_ink: float = 240.0) -> Cmyk:
    """RGB in 0..1 to CMYK in 0..1 with full grey replacement and total ink ≤ max_ink %.

    Dark UI colours (badges, bands, text on cards) are what a naive conversion prints worst:
    a near-black becomes a screened K 80-90 % that prints as a brown-grey, and marks on it
    lose their contrast.  So a dark neutral is K only (solid K 100 % from SOLID_K: black text
    without colour fringes), and a dark colour with a hue is a rich black: K 100 % over an
    underlay of C, M and Y that keeps its hue, within the ink limit.
    """
    k = 1.0 - max(r, g, b)
    if k >= 1.0 - 1e-9:
        return 0.0, 0.0, 0.0, 1.0
    c, m, y = ((1.0 - v - k) / (1.0 - k) for v in (r, g, b))
    if max_ink and k >= DARK_K:
        if max(c, m, y) <= NEUTRAL_CMY:
            c = m = y = 0.0
            k = 1.0 if k >= SOLID_K else k
        else:
            c, m, y = (RICH_UNDERLAY + 0.5 * v for v in (c, m, y))
            k = 1.0
    limit = max_ink / 100.0
    cmy = c + m + y
    if max_ink and cmy + k > limit and cmy > 0:
        factor = max(0.0, limit - k) / cmy
        c, m, y = c * factor, m * factor, y * factor

    def down(v: float) -> float:  # floor, so rounding never lifts the total past the limit
        return math.floor(max(0.0, v) * 10000 + 1e-9) / 10000

    return down(c), down(m), down(y), down(k)


def total_ink(cmyk: Cmyk) -> float:
    """Total area coverage in percent."""
    return 100.0 * sum(cmyk)


def image_to_cmyk(image: Any, max_ink: float = 240.0) -> Any:
    """A PIL image as a PIL CMYK image by the same rules as rgb_to_cmyk, pixel by pixel.

    Each distinct colour is converted once (card art is mostly flat colour); the
    bytes are floored so rounding never lifts the total past the limit.
    """
    rgb = image.convert("RGB")
    data = rgb.tobytes()
    out = bytearray(len(data) // 3 * 4)
    done: dict[bytes, bytes] = {}
    for i in range(0, len(data), 3):
        key = data[i : i + 3]
        ink = done.get(key)
        if ink is None:
            cmyk = rgb_to_cmyk(key[0] / 255, key[1] / 255, key[2] / 255, max_ink)
            ink = done[key] = bytes(int(v * 255) for v in cmyk)
        j = i // 3 * 4
        out[j : j + 4] = ink
    return Image.frombytes("CMYK", rgb.size, bytes(out))


class CmykCanvas(Canvas):
    """A Canvas whose RGB colours and images are written as DeviceCMYK, ink-limited."""

    max_ink: float = 240.0

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        # Declared as colour-space enforcing, so code that writes colour operators itself (and
        # reportlab's text objects) hands every colour to this canvas's conversion instead.
        self._enforceColorSpace = lambda colour: _as_cmyk(colour, self.max_ink)

    def setFillColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:  # noqa: N802
        self.setFillColorCMYK(*rgb_to_cmyk(r, g, b, self.max_ink))

    def setStrokeColorRGB(self, r: float, g: float, b: float, alpha: float | None = None) -> None:  # noqa: N802
        self.setStrokeColorCMYK(*rgb_to_cmyk(r, g, b, self.max_ink))

    def setFillColor(self, aColor: Any, alpha: float | None = None) -> None:  # noqa: N802, N803
        super().setFillColor(_as_cmyk(aColor, self.max_ink))

    def setStrokeColor(self, aColor: Any, alpha: float | None = None) -> None:  # noqa: N802, N803
        super().setStrokeColor(_as_cmyk(aColor, self.max_ink))

    def drawImage(
        self,
        image: Any,
        x: float,
        y: float,
        width: float | None = None,  # noqa: N802
        height: float | None = None,
        mask: Any = None,
        **kw: Any,
    ) -> Any:
        pil = getattr(image, "_image", None)
        if pil is None:
            pil = Image.open(image)
        return super().drawImage(_reader(image_to_cmyk(pil, self.max_ink)), x, y, width, height, None, **kw)


def _as_cmyk(colour: Any, max_ink: float) -> Any:
    """A reportlab CMYKColor for any colour reportlab accepts (CMYK passes through)."""
    if isinstance(colour, CMYKColor):
        return colour
    if isinstance(colour, (tuple, list)) and len(colour) == 4:
        return CMYKColor(*colour)
    col = toColor(colour)
    return CMYKColor(*rgb_to_cmyk(col.red, col.green, col.blue, max_ink))


def _reader(image: Any) -> Any:
    return ImageReader(image)

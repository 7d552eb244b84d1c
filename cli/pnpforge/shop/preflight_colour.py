"""Colours that will shift in CMYK: the preflight's colour check, kept apart from the drawing.

A heuristic, not colour management: no press profile is consulted.  A colour
shifts when its naive CMYK needs more ink than the shop allows (the limited ink
prints it lighter, measured as ΔE in CIE L*a*b*), or when it is a saturated RGB
colour outside the hues process inks reach (vivid yellows excepted).
"""

from __future__ import annotations

import colorsys

VIVID_SATURATION = 0.8  # HSV saturation and value from which RGB leaves the CMYK gamut
VIVID_VALUE = 0.8
YELLOW_HUE_DEG = (40.0, 75.0)  # process yellow reaches these vivid hues
INK_SHIFT_DELTA_E = 5.0


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """sRGB (0..1) to CIE L*a*b* (D65): for colour differences."""

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = _lab(a), _lab(b)
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def colour_shift(rgb: tuple[float, float, float], max_ink: float) -> str | None:
    """Why a colour will print differently in CMYK, or None."""
    from pnpforge.shop.cmyk import rgb_to_cmyk

    c, m, y, k = rgb_to_cmyk(*rgb, max_ink=max_ink)
    c0, m0, y0, k0 = rgb_to_cmyk(*rgb, max_ink=0.0)
    back = tuple((1 - v) * (1 - k) for v in (c, m, y))
    if 100 * (c0 + m0 + y0 + k0) > max_ink + 0.5:
        shift = _delta_e(rgb, back)  # type: ignore[arg-type]
        if shift >= INK_SHIFT_DELTA_E:
            return (
                f"needs {100 * (c0 + m0 + y0 + k0):.0f} % ink, limited to {max_ink:.0f} %: "
                f"it prints lighter (ΔE {shift:.0f})"
            )
    hue, sat, val = colorsys.rgb_to_hsv(*rgb)
    lo, hi = YELLOW_HUE_DEG
    if sat >= VIVID_SATURATION and val >= VIVID_VALUE and not lo <= hue * 360 <= hi:
        return "a saturated RGB colour process inks do not reach: it prints duller"
    return None


def hex_colour(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)

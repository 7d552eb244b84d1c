"""Millimetres, colours and the small arithmetic layouts may use for positions.

Layouts are written in millimetres from the trim box's top-left corner
(y downwards, as a designer measures a card); PDF wants points from the
bottom-left.  Positions may be expressions over the card's width W and
height H ("W - 8", "H / 2 - 3") so one base layout fits several card sizes.
"""

from __future__ import annotations

import ast
import operator
import re
from functools import lru_cache

from pnpforge.errors import PnpError

MM = 72.0 / 25.4  # points per millimetre

_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


def is_hex_colour(text: str) -> bool:
    return bool(_HEX.match(text))


@lru_cache(maxsize=1024)
def hex_to_rgb(text: str) -> tuple[float, float, float]:
    """'#c0392b' or '#c33' -> (r, g, b) in 0..1.

    Cached: drawing calls this for every run of text and every shape, with a
    handful of distinct colours per game (a bad colour raises and is not cached).
    """
    if not is_hex_colour(text):
        raise PnpError(f"'{text}' is not a colour (use #rgb or #rrggbb)")
    h = text[1:]
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return tuple(int(h[i : i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]


def rgb_to_hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c * 255))):02x}" for c in rgb)


@lru_cache(maxsize=1024)
def mix(a: str, b: str, t: float) -> str:
    """Colour `t` of the way from a to b (t=0 -> a): tints and shades for derived colours."""
    ra, rb = hex_to_rgb(a), hex_to_rgb(b)
    return rgb_to_hex(tuple(x + (y - x) * t for x, y in zip(ra, rb, strict=True)))  # type: ignore[arg-type]


@lru_cache(maxsize=1024)
def luminance(colour: str) -> float:
    """Relative luminance (WCAG): picks black or white text on a coloured badge."""

    def chan(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (chan(c) for c in hex_to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def readable_on(colour: str) -> str:
    """Near-black or white, whichever reads better on `colour`."""
    return "#1a1a1a" if luminance(colour) > 0.36 else "#ffffff"


# ---- positions ------------------------------------------------------------------

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def check_length_expr(text: str) -> None:
    """Raise ValueError unless `text` is arithmetic over numbers, W and H."""
    eval_length(text, 1.0, 1.0)


def eval_length(value: float | int | str, width: float, height: float) -> float:
    """A position or size in mm: a number, or an expression such as 'W - 8'."""
    if isinstance(value, bool):
        raise ValueError("a length cannot be true/false")
    if isinstance(value, (int, float)):
        return float(value)
    return _eval_text(str(value), float(width), float(height))


@lru_cache(maxsize=2048)
def _eval_text(text: str, width: float, height: float) -> float:
    """eval_length of an expression, cached: faces place every region of every card, and a
    layout has a few dozen distinct expressions and one or two card sizes (errors raise and
    are not cached)."""
    return float(_eval(_parse(text), {"W": width, "H": height}, text))


@lru_cache(maxsize=2048)
def _parse(text: str) -> ast.AST:
    """The expression's tree (cached; only read by _eval, never changed)."""
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError as e:
        raise ValueError(f"'{text}' is not arithmetic over numbers, W and H") from e


def _eval(node: ast.AST, names: dict[str, float], src: str) -> float:
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    ):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        right = _eval(node.right, names, src)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ValueError(f"'{src}' divides by zero")
        return _OPS[type(node.op)](_eval(node.left, names, src), right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval(node.operand, names, src)
        return -v if isinstance(node.op, ast.USub) else v
    raise ValueError(
        f"'{src}' is not arithmetic over numbers, W and H "
        "(allowed: + - * / parentheses, W = card width, H = card height, in mm)"
    )

"""The hot path of card faces as PDF operators: fill colours and one-line strings.

A face is mostly short text runs in a few colours.  reportlab's `drawString`
builds a text object per run, measures the string (for a width it then drops)
and formats the colour anew each time; on a 10,000-card deck that machinery
costs more than the operators themselves.  These functions append to the
canvas exactly the operator text reportlab would append for the same call
(same number formatting, same font subsets, same escaping), so the PDF bytes
do not change; whatever they do not cover (non-embedded fonts, colour-space
enforcement, top-down canvases) is handed to reportlab unchanged.  Shapes drawn
alike on every card are replayed by render.op_replay.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont

from pnpforge.render.units import hex_to_rgb


@lru_cache(maxsize=1024)
def _rgb_op(colour: str) -> tuple[tuple[float, float, float], str]:
    """A '#rrggbb' colour as the tuple reportlab keeps and the 'r g b rg' operator it writes."""
    rgb = tuple(hex_to_rgb(colour))
    return rgb, f"{fp_str(rgb)} rg"  # type: ignore[return-value]


def fill_hex(canvas: Any, colour: str) -> None:
    """`canvas.setFillColorRGB(*hex_to_rgb(colour))`, with the operator formatted once per colour."""
    rgb, op = _rgb_op(colour)
    if canvas._enforceColorSpace:
        canvas.setFillColorRGB(*rgb)
        return
    canvas._fillColorObj = rgb
    canvas._code.append(op)


@lru_cache(maxsize=256)
def _size_op(size: float) -> str:
    """'SIZE Tf LEADING TL' as reportlab writes it for the default leading (1.2 × size)."""
    return f"{fp_str(size)} Tf {fp_str(size * 1.2)} TL"


def draw_string(canvas: Any, font_name: str, size: float, x: float, y: float, text: str) -> None:
    """`canvas.setFont(font_name, size); canvas.drawString(x, y, text)`, byte for byte.

    Only embedded TrueType subsets on a bottom-up canvas take the short path; for
    them setFont writes nothing and drawString writes one BT … ET line.
    """
    font = getFont(font_name)
    if not font._dynamicFont or not canvas.bottomup:
        canvas.setFont(font_name, size)
        canvas.drawString(x, y, text)
        return
    canvas._fontname, canvas._fontsize, canvas._leading = font_name, size, size * 1.2
    body = _shown(canvas, font, font_name, size, text)
    canvas._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {body} T* ET")


_SHOWN_LIMIT = 4096  # strings kept per canvas (labels and names repeat; the bound keeps memory flat)


def _shown(canvas: Any, font: Any, font_name: str, size: float, text: str) -> str:
    """`_show_ops` for this string, kept per canvas (up to _SHOWN_LIMIT strings)."""
    shown = canvas.__dict__.get("_pnp_shown")
    if shown is None or len(shown) >= _SHOWN_LIMIT:
        shown = canvas._pnp_shown = {}
    key = (font_name, size, text)
    body = shown.get(key)
    if body is None:
        body = shown[key] = _show_ops(canvas, font, size, text)
    return body


def _show_ops(canvas: Any, font: Any, size: float, text: str) -> str:
    """The font and Tj operators of one string.

    Once a string has been shown on a canvas every character of it has its subset
    slot in that document, so the same string at the same size always gives the
    same operators there: draw_string keeps them per canvas for strings that recur.
    """
    doc = canvas._doc
    escape = canvas._escape
    parts: list[str] = []
    current = -1
    for subset, chunk in _split(font, text, doc):
        if subset != current:
            parts.append(f"{font.getSubsetInternalName(subset, doc)} {_size_op(size)}")
            current = subset
        parts.append(f"({escape(chunk)}) Tj")
    return " ".join(parts)


def _split(font: Any, text: str, doc: Any) -> list[tuple[int, bytes]]:
    """`font.splitString(text, doc)`, with one look-up per character when every character
    already has its slot in one subset of this document (most strings once a few cards
    are drawn); anything else (a new character, several subsets, a no-break space, which
    reportlab maps to a space) goes through splitString itself."""
    state = font.state.get(doc)
    if state is not None and "\xa0" not in text:
        assigned = state.assignments
        try:
            slots = [assigned[code] for code in map(ord, text)]
        except KeyError:
            slots = []
        if slots:
            subset = min(slots) >> 8
            if max(slots) >> 8 == subset:
                return [(subset, bytes([n & 0xFF for n in slots]))]
    return font.splitString(text, doc)


def fill_op(colour: str) -> str:
    """The 'r g b rg' operator fill_hex writes for a '#rrggbb' colour."""
    return _rgb_op(colour)[1]


def shown_body(canvas: Any, font_name: str, size: float, text: str) -> str | None:
    """The font and Tj operators draw_string writes between `Tm` and `T*` for `text`, or
    None when draw_string would hand the call to reportlab (then nothing is written)."""
    if canvas._enforceColorSpace or not canvas.bottomup:
        return None
    font = getFont(font_name)
    if not font._dynamicFont:
        return None
    return _shown(canvas, font, font_name, size, text)


def draw_generic(canvas: Any, op: Any, x: float, y: float, bleed: float) -> None:
    """Draw `op` the general way: inside a saved and restored graphics state."""
    from pnpforge.render.op_replay import restore_state, save_state

    saved = save_state(canvas)
    op(canvas, x, y, bleed)
    restore_state(canvas, saved)

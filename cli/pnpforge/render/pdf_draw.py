"""What every sheet carries besides the cards: slot clipping, crop marks and the note band.

Sheet faces, back pages, proofs and the calibration page all place cards into
slots and label the page the same way; these drawing steps live apart from
the page sequencing so each of those writers reuses them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnpforge.render import sheet
from pnpforge.render.pdf_ops import draw_string
from pnpforge.render.sheet import MM_TO_PT, Rect, SheetLayout, Slot

NOTE_GREY = (0.25, 0.25, 0.25)
MARK_WIDTH_PT = 0.25
NOTE_FONT_PT = 6.0
NOTE_MIN_FONT_PT = 4.0

# The "print at 100 %" warning, in English and in the game's own language.
PRINT_AT_100 = {
    "en": "Print at 100 % (actual size): “Fit to page” shrinks the cards. The black bar must measure 10 mm.",
    "zh-Hant": "請以 100% 實際大小列印，勿選「符合頁面」（會縮小卡片）；黑色比例尺應為 10 mm。",
    "zh-Hans": "请以 100% 实际大小打印，勿选“适合页面”（会缩小卡片）；黑色比例尺应为 10 mm。",
}


def clip_to(c: Canvas, r: Rect) -> None:
    p = c.beginPath()
    p.rect(r.x * MM_TO_PT, r.y * MM_TO_PT, r.w * MM_TO_PT, r.h * MM_TO_PT)
    c.clipPath(p, stroke=0, fill=0)


def place(c: Canvas, slot: Slot, draw: Callable[[], None]) -> None:
    """Run `draw` (which draws one card at 0,0) clipped and transformed into `slot`."""
    c.saveState()
    clip_to(c, slot.clip)
    c.transform(*_affine_args(slot))
    draw()
    c.restoreState()


def _affine_args(slot: Slot) -> tuple[float, ...]:
    t = slot.transform.scaled(MM_TO_PT)
    return (t.a, t.b, t.c, t.d, t.e, t.f)


def used_marks(layout: SheetLayout, used: int) -> list[sheet.Segment]:
    """The layout's marks for cut lines of the first `used` slots (a part-filled last sheet)."""
    slots = layout.slots[:used]
    xs = {round(v, 6) for s in slots for v in (s.trim.x, s.trim.x1)}
    ys = {round(v, 6) for s in slots for v in (s.trim.y, s.trim.y1)}
    return [
        m
        for m in layout.marks
        if (m.x0 == m.x1 and round(m.x0, 6) in xs) or (m.y0 == m.y1 and round(m.y0, 6) in ys)
    ]


def draw_marks(c: Canvas, layout: SheetLayout, used: int) -> None:
    """The crop marks of a sheet's first `used` slots."""
    _draw_marks(c, layout, used)


def _draw_marks(c: Canvas, layout: SheetLayout, used: int) -> None:
    marks = used_marks(layout, used)
    if not marks:
        return
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(MARK_WIDTH_PT)
    for m in marks:  # one path per mark: readers (and tests) see each line on its own
        c.line(m.x0 * MM_TO_PT, m.y0 * MM_TO_PT, m.x1 * MM_TO_PT, m.y1 * MM_TO_PT)
    c.restoreState()


@lru_cache(maxsize=64)
def fit_font(text: str, font: str, size: float, width_pt: float) -> tuple[str, float]:
    """Shrink to fit `width_pt`, down to NOTE_MIN_FONT_PT; then cut with an ellipsis
    (kept per note: every sheet of a job carries the same one)."""
    while size > NOTE_MIN_FONT_PT and pdfmetrics.stringWidth(text, font, size) > width_pt:
        size -= 0.25
    while text and pdfmetrics.stringWidth(text, font, size) > width_pt:
        text = text[:-2] + "…"
    return text, size


def draw_note(c: Canvas, band: Rect, side: str, font: str, lines: list[str]) -> None:
    """The 10 mm scale bar and up to two lines of note, in the band sheet.py reserved."""
    c.saveState()
    if side == "left":
        # run the band upwards along the left edge; its 'bottom' faces the cards
        c.translate((band.x + band.w) * MM_TO_PT, band.y * MM_TO_PT)
        c.rotate(90)
        length, height = band.h, band.w
    else:
        c.translate(band.x * MM_TO_PT, band.y * MM_TO_PT)
        length, height = band.w, band.h
    mm = MM_TO_PT
    bar_y = 0.6
    c.setFillColorRGB(0, 0, 0)
    c.rect(0, bar_y * mm, sheet.SCALE_BAR_MM * mm, 1.0 * mm, stroke=0, fill=1)
    draw_string(c, font, 5.0, 0, (bar_y + 1.0 + 0.9) * mm, "10 mm")
    c.setFillColorRGB(*NOTE_GREY)
    text_x = (sheet.SCALE_BAR_MM + 2.0) * mm
    room = length * mm - text_x
    baselines = [height * 0.55 * mm, height * 0.12 * mm]
    for text, y in zip(lines[:2], baselines, strict=False):
        fitted, size = fit_font(text, font, NOTE_FONT_PT, room)
        draw_string(c, font, size, text_x, y, fitted)
    c.restoreState()


def print_warning(language: str) -> str:
    """The 100 % note: the game's language first, English always."""
    local = PRINT_AT_100.get(language)
    return f"{local}  {PRINT_AT_100['en']}" if local and language != "en" else PRINT_AT_100["en"]

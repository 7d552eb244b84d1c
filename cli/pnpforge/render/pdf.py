"""Drawing print sheets with reportlab: faces, backs, crop marks, notes, calibration.

sheet.py decides where everything goes; this module only draws it.  Two
properties matter beyond the drawing itself:

- Determinism: invariant mode, a creation date taken from the data (the
  latest card edit, never "now"), no Helvetica (the canvas starts in our own
  embedded font), so the same database and options give the same bytes.
- Streaming: reportlab keeps every page in memory until `save()` and then
  builds the whole file as one bytes object.  `_SpoolingCanvas` compresses each
  page's content stream into a temporary file as soon as the page is done, and
  its `save_to` writes the final PDF object by object straight to disk, so
  memory stays flat however many cards a deck has (what remains per page is a
  small page dictionary).  Card backs are drawn once per card type as a Form
  XObject and reused on every back page.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Protocol

from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnpforge.errors import PnpError
from pnpforge.render import sheet
from pnpforge.render.font_embed import deflated_fonts
from pnpforge.render.op_replay import restore_state, save_state
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


class Renderer(Protocol):
    """What the sheets need from a card face renderer (render.face.FaceRenderer)."""

    def check(self, card: Any) -> None: ...
    def draw_face(self, canvas: Any, card: Any, x: float, y: float, bleed: float) -> None: ...
    def draw_back(self, canvas: Any, card_type_slug: str, x: float, y: float, bleed: float) -> None: ...
    def warnings(self) -> list[str]: ...


# ---- streaming canvas ---------------------------------------------------------------


class _Spool:
    """Compressed page streams parked in a temporary file until the PDF is written."""

    def __init__(self) -> None:
        self.fh = tempfile.TemporaryFile()
        self.end = 0

    def put(self, data: bytes) -> tuple[int, int]:
        self.fh.seek(self.end)
        self.fh.write(data)
        start, self.end = self.end, self.end + len(data)
        return start, len(data)

    def get(self, start: int, length: int) -> bytes:
        self.fh.seek(start)
        return self.fh.read(length)

    def close(self) -> None:
        self.fh.close()


class _SpooledStream(pdfdoc.PDFObject):
    """A page content stream whose (already deflated) bytes live in the spool."""

    __RefOnly__ = 1

    def __init__(self, spool: _Spool, start: int, length: int) -> None:
        self.spool, self.start, self.length = spool, start, length

    def format(self, document: Any) -> bytes:
        data = document.encrypt.encode(self.spool.get(self.start, self.length))
        d = pdfdoc.PDFDictionary(
            {"Filter": pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")]), "Length": len(data)}
        )
        return pdfdoc.format(d, document) + b"\nstream\n" + data + b"endstream\n"


class _SpoolingCanvas(Canvas):
    """A reportlab canvas whose finished pages leave memory at once."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._spool = _Spool()

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        super().showPage()
        page = self._doc.Pages.pages[-1]
        data = pdfdoc.PDFZCompress.encode(page.stream)
        page.stream = None
        page.Contents = _SpooledStream(self._spool, *self._spool.put(data))

    def save_to(self, fh: Any) -> None:
        """Write the PDF to an open binary file, one object at a time."""
        if len(self._code):
            self.showPage()
        with _file_sink(fh), deflated_fonts():
            self._doc.GetPDFData(self)
        self._spool.close()


@contextlib.contextmanager
def _file_sink(fh: Any) -> Iterator[None]:
    """Make reportlab's output collector write to `fh` instead of a list in memory.

    PDFDocument.format() builds its collector as `PDFFile(version)` from the
    module namespace and tracks offsets through `add`; we swap the class for
    the duration of one save so every formatted object goes straight to disk.
    """
    original = pdfdoc.PDFFile

    class _Sink(original):  # type: ignore[misc, valid-type]
        def __init__(self, pdfVersion: Any = pdfdoc.PDF_VERSION_DEFAULT) -> None:  # noqa: N803
            super().__init__(pdfVersion)
            header: list[bytes] = self.strings  # the header, written by the base constructor
            for s in header:
                fh.write(s)
            self.strings: list[bytes] = []
            self.write = fh.write

        def format(self, document: Any) -> bytes:
            return b""

    pdfdoc.PDFFile = _Sink
    try:
        yield
    finally:
        pdfdoc.PDFFile = original


def open_canvas(path: Path, font: str, title: str, date: str | None) -> _SpoolingCanvas:
    """A deterministic canvas: invariant, compressed, starting in an embedded font."""
    c = _SpoolingCanvas(
        str(path),
        pagesize=sheet.PAPERS["a4"],
        invariant=1,
        pageCompression=1,
        initialFontName=font,
        initialFontSize=NOTE_FONT_PT,
    )
    c.setTitle(title)
    c.setAuthor("pnpforge")
    c.setCreator("pnpforge")
    c.setSubject("print-and-play card sheets")
    if date:
        stamp = _pdf_date(date)
        c.setDateFormatter(lambda *_: stamp)
    return c


def _pdf_date(date: str) -> str:
    """'2025-11-25T21:30:45Z' or '2025-11-25' -> PDF date string."""
    digits = "".join(ch for ch in date if ch.isdigit())[:14].ljust(14, "0")
    return f"D:{digits}+00'00'"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[Any]:
    """An open temp file next to `path`, moved into place only if writing succeeds."""
    from pnpforge.outfile import check_target, ensure_folder

    ensure_folder(path.parent)
    check_target(path)  # never replace a device, a FIFO or a folder
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---- drawing primitives ---------------------------------------------------------------


def clip_to(c: Canvas, r: Rect) -> None:
    p = c.beginPath()
    p.rect(r.x * MM_TO_PT, r.y * MM_TO_PT, r.w * MM_TO_PT, r.h * MM_TO_PT)
    c.clipPath(p, stroke=0, fill=0)


def place(c: Canvas, slot: Slot, draw: Callable[[], None]) -> None:
    """Run `draw` (which draws one card at 0,0) clipped and transformed into `slot`.

    A slot's clip and transform are the same operators on every sheet of a job:
    they are formatted for its first card and appended again for the others
    (when the canvas stands in the same matrix as then, so the bytes match).
    """
    saved = save_state(c)
    memo = c.__dict__.setdefault("_pnp_slots", {})
    hit = memo.get(id(slot))
    before = c._currentMatrix
    if hit is not None and hit[0] is slot and hit[1] == before:
        c._code.extend(hit[2])
        c._currentMatrix = hit[3]
    else:
        start = len(c._code)
        clip_to(c, slot.clip)
        c.transform(*_affine_args(slot))
        memo[id(slot)] = (slot, before, c._code[start:], c._currentMatrix)
    draw()
    restore_state(c, saved)


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
    """The crop marks of a sheet; every full sheet of a layout has the same ones, so their
    operators are written once per canvas and appended again for the others."""
    memo = c.__dict__.setdefault("_pnp_marks", {})
    hit = memo.get((id(layout), used))
    if hit is not None and hit[0] is layout:
        c._code.extend(hit[1])
        return
    start = len(c._code)
    _draw_marks(c, layout, used)
    memo[(id(layout), used)] = (layout, c._code[start:])


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


# ---- card sheets ---------------------------------------------------------------------------


@dataclass
class Job:
    """One run of same-size sheets: a layout and the cards (copies expanded) to place."""

    key: tuple[str, float, float]
    layout: SheetLayout
    count: int  # placements
    cards: Callable[[], Iterator[Any]]  # a fresh iterator each call (streaming)

    @property
    def pages(self) -> int:
        return sheet.pages_needed(self.count, self.layout.capacity)


@dataclass
class DocInfo:
    title: str  # shown in the page note
    language: str
    date: str  # the stamp date (day of the latest card edit), shown in notes
    font: str  # regular font of the game's FontSet
    created: str = ""  # full timestamp of that edit: the PDF's CreationDate


def write_card_sheets(
    fh: Any,
    jobs: list[Job],
    opts: sheet.SheetOptions,
    renderer: Renderer,
    info: DocInfo,
    on_place: Callable[[Any, int, str, Slot], None],
) -> int:
    """Draw every job's face pages (and back pages per opts.backs); return the page count.

    `on_place(card, page, side, slot)` is called for each card drawn, so the caller
    can record the manifest without this module holding a list of pages.
    """
    c = open_canvas(Path("sheets.pdf"), info.font, info.title, info.created or info.date)
    face_pages = sum(j.pages for j in jobs)
    with_backs = opts.backs != "none"
    total = face_pages * (2 if with_backs else 1)
    forms: set[str] = set()

    def back_page(page: int, sheet_no: int, layout: Any, backs: Any, batch: list[Any]) -> None:
        _back_page(
            c, layout, backs, batch, renderer, forms, info, page, total, sheet_no, face_pages, opts, on_place
        )

    page = 0
    sheet_no = 0
    for job in jobs:
        backs = sheet.back_slots(job.layout, opts.flip, opts.offset) if with_backs else ()
        for batch in sheet.chunks(job.cards(), job.layout.capacity):
            sheet_no += 1
            page += 1
            _face_page(c, job.layout, batch, renderer, info, page, total, sheet_no, face_pages, on_place)
            if opts.backs == "duplex":
                page += 1
                back_page(page, sheet_no, job.layout, backs, batch)
    if opts.backs == "separate":
        sheet_no = 0
        for job in jobs:
            backs = sheet.back_slots(job.layout, opts.flip, opts.offset)
            for batch in sheet.chunks(job.cards(), job.layout.capacity):
                sheet_no += 1
                page += 1
                back_page(page, sheet_no, job.layout, backs, batch)
    c.save_to(fh)
    return page


def _size_label(layout: SheetLayout) -> str:
    turned = ", turned 90°" if layout.rotated else ""
    return f"{layout.card_w:g}×{layout.card_h:g} mm cards, {layout.cols}×{layout.rows}{turned}"


def _face_page(
    c: Canvas,
    layout: SheetLayout,
    batch: list,
    renderer: Renderer,
    info: DocInfo,
    page: int,
    total: int,
    sheet_no: int,
    sheets: int,
    on_place: Callable,
) -> None:
    c.setPageSize((layout.page_w * MM_TO_PT, layout.page_h * MM_TO_PT))
    bleed_pt = layout.bleed * MM_TO_PT
    for card, slot in zip(batch, layout.slots, strict=False):
        renderer.check(card)  # before any drawing; the renderer answers a copy from its plan
        place(c, slot, partial(renderer.draw_face, c, card, 0.0, 0.0, bleed_pt))
        on_place(card, page, "face", slot)
    draw_marks(c, layout, len(batch))
    draw_note(
        c,
        layout.note,
        layout.note_side,
        info.font,
        [
            print_warning(info.language),
            f"{info.title} · {info.date} · sheet {sheet_no}/{sheets} · faces · page {page}/{total} · "
            f"{_size_label(layout)} · cut on the marks · pnpforge",
        ],
    )
    c.showPage()


def _back_page(
    c: Canvas,
    layout: SheetLayout,
    backs: tuple[Slot, ...],
    batch: list,
    renderer: Renderer,
    forms: set[str],
    info: DocInfo,
    page: int,
    total: int,
    sheet_no: int,
    sheets: int,
    opts: sheet.SheetOptions,
    on_place: Callable,
) -> None:
    c.setPageSize((layout.page_w * MM_TO_PT, layout.page_h * MM_TO_PT))
    bleed = layout.bleed
    for type_slug in dict.fromkeys(card.type for card in batch):
        name = _form_name(type_slug, layout)
        if name not in forms:
            _define_back_form(c, renderer, name, type_slug, layout.card_w, layout.card_h, bleed)
            forms.add(name)
    for card, slot in zip(batch, backs, strict=False):
        name = _form_name(card.type, layout)
        place(c, slot, partial(c.doForm, name))
        on_place(card, page, "back", slot)
    ox, oy = opts.offset
    shifted = f" · shifted {ox:+g},{oy:+g} mm" if (ox, oy) != (0.0, 0.0) else ""
    mode = (
        f"print double-sided, flip on the {opts.flip} edge"
        if opts.backs == "duplex"
        else f"print on the back of sheet {sheet_no} (flip on the {opts.flip} edge)"
    )
    # the note band sits behind the front's band: the mirrored grid leaves it free
    band = (
        sheet.translate(*opts.offset) @ sheet.flip_transform(opts.flip, layout.page_w, layout.page_h)
    ).map_rect(layout.note)
    draw_note(
        c,
        band,
        layout.note_side,
        info.font,
        [
            print_warning(info.language),
            f"{info.title} · {info.date} · sheet {sheet_no}/{sheets} · backs · page {page}/{total} · "
            f"{mode}{shifted} · pnpforge",
        ],
    )
    c.showPage()


def _form_name(type_slug: str, layout: SheetLayout) -> str:
    return f"back-{type_slug}-{layout.card_w:g}x{layout.card_h:g}-b{layout.bleed:g}"


def _define_back_form(
    c: Canvas, renderer: Renderer, name: str, type_slug: str, w_mm: float, h_mm: float, bleed_mm: float
) -> None:
    """Draw a card type's back once; every back page reuses it."""
    b = bleed_mm * MM_TO_PT
    c.beginForm(name, -b, -b, w_mm * MM_TO_PT + b, h_mm * MM_TO_PT + b)
    renderer.draw_back(c, type_slug, 0.0, 0.0, b)
    c.endForm()


# ---- calibration -------------------------------------------------------------------------------

CALIBRATION_RANGE_MM = 10
CALIBRATION_SEGMENT_MM = 16  # half-length of each front line, centred on its scale
CALIBRATION_STEPS = (
    "1. Print both pages double-sided at 100 % (actual size), with the printer, paper and "
    "duplex setting you will use for cards (flip on the long edge, or short with --flip short).",
    "2. Hold the sheet against a window or lamp with the BACK facing you: the front's thin "
    "lines show through across the scales.",
    "3. X = the number on the horizontal scales where the front's vertical lines cross them; "
    "Y = the number on the vertical scales where the front's horizontal lines cross them.",
    "4. Print cards with --offset X,Y (e.g. pnp print GAME --offset 0.5,-1). Print this page again "
    "with the same --offset: every scale should then read 0.",
    "If the two scales of one axis read differently, the printer skews the paper: use their average.",
)


def calibration_marks(pw: float, ph: float) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Zero points (mm, front page) of the X scales, on the line x = pw/2, and of the
    Y scales, on the line y = ph/2.

    Each line is its own mirror image under a long- or short-edge flip, so one
    design calibrates either way of printing; the back draws each scale at the
    flipped position of its zero point.
    """
    x_scales = [(pw / 2, ph * 0.22), (pw / 2, ph * 0.62)]
    y_scales = [(pw * 0.25, ph / 2), (pw * 0.75, ph / 2)]
    return x_scales, y_scales


def write_calibration(fh: Any, opts: sheet.SheetOptions, font: str, bold: str) -> int:
    """A two-page duplex calibration sheet: lines on the front, scales behind them on the back."""
    pw, ph = opts.paper_size
    mm = MM_TO_PT
    c = open_canvas(Path("calibration.pdf"), font, f"pnpforge duplex calibration ({opts.paper})", None)
    c.setPageSize((pw * mm, ph * mm))
    note = Rect(sheet.EDGE_MM, sheet.EDGE_MM, pw - 2 * sheet.EDGE_MM, sheet.NOTE_MM)
    x_scales, y_scales = calibration_marks(pw, ph)
    seg = CALIBRATION_SEGMENT_MM
    # front: hairlines through the scales' zero points, and the instructions
    c.setLineWidth(0.3)
    for cx, cy in x_scales:
        c.line(cx * mm, (cy - seg) * mm, cx * mm, (cy + seg) * mm)
    for cx, cy in y_scales:
        c.line((cx - seg) * mm, cy * mm, (cx + seg) * mm, cy * mm)
    c.setFont(bold, 14)
    c.drawString(20 * mm, (ph - 22) * mm, f"FRONT — duplex calibration ({opts.paper}, {opts.flip}-edge flip)")
    c.setFont(font, 8.5)
    y = ph - 30
    for step in CALIBRATION_STEPS:
        for line in _wrap(step, font, 8.5, (pw - 40) * mm):
            c.drawString(20 * mm, y * mm, line)
            y -= 4.0
        y -= 1.0
    draw_note(c, note, "bottom", font, [print_warning("en"), f"calibration front · {opts.paper} · pnpforge"])
    c.showPage()
    # back: the scales, where the flip puts the front's lines, shifted like card backs
    c.setPageSize((pw * mm, ph * mm))
    flip = sheet.flip_transform(opts.flip, pw, ph)
    c.saveState()
    c.translate(opts.offset[0] * mm, opts.offset[1] * mm)
    for cx, cy in x_scales:
        _scale(c, font, bold, *flip.apply(cx, cy), horizontal=True)
    for cx, cy in y_scales:
        _scale(c, font, bold, *flip.apply(cx, cy), horizontal=False)
    c.setFont(bold, 14)
    c.drawString(20 * mm, (ph - 22) * mm, "BACK — read X on the horizontal scales, Y on the vertical ones")
    c.setFont(font, 8.5)
    c.drawString(
        20 * mm,
        (ph - 28) * mm,
        "Numbers are mm; the number under the front's line is the value to pass to --offset.",
    )
    c.drawString(
        20 * mm,
        (ph - 32) * mm,
        f"Printed for a {opts.flip}-edge flip with --offset {opts.offset[0]:g},{opts.offset[1]:g}.",
    )
    c.restoreState()
    draw_note(c, note, "bottom", font, [print_warning("en"), f"calibration back · {opts.paper} · pnpforge"])
    c.showPage()
    c.save_to(fh)
    return 2


def _scale(c: Canvas, font: str, bold: str, cx: float, cy: float, horizontal: bool) -> None:
    """A ruler from -10 to +10 mm centred on (cx, cy): ticks every 0.5 mm, a number every mm.

    Even numbers sit above the ticks and odd ones below the base line, so the
    labels of neighbouring millimetres never collide.
    """
    mm = MM_TO_PT
    c.saveState()
    c.translate(cx * mm, cy * mm)
    if not horizontal:
        c.rotate(90)  # value grows upwards along the page's y
    c.setLineWidth(0.25)
    r = CALIBRATION_RANGE_MM
    c.line(-r * mm, 0, r * mm, 0)
    for half in range(-2 * r, 2 * r + 1):
        v = half / 2
        tick = 3.5 if half % 10 == 0 else (2.5 if half % 2 == 0 else 1.2)
        c.line(v * mm, 0, v * mm, tick * mm)
        if half % 2 == 0:
            n = int(v)
            c.setFont(bold if n == 0 else font, 4.5 if n else 5.5)
            ly = (tick + 0.6) if n % 2 == 0 else -2.2
            c.drawCentredString(v * mm, ly * mm, str(n))
    c.setFont(bold, 8)
    c.drawString((r + 2) * mm, 0.5 * mm, "X" if horizontal else "Y")
    c.restoreState()


def _wrap(text: str, font: str, size: float, width_pt: float) -> list[str]:
    words, lines, cur = text.split(" "), [], ""
    for w in words:
        cand = f"{cur} {w}".strip()
        if cur and pdfmetrics.stringWidth(cand, font, size) > width_pt:
            lines.append(cur)
            cur = w
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines


# ---- the print pipeline ----------------------------------------------------------------------------

# Called as factory(db, game, date=...): FaceRenderer itself is one.
RendererFactory = Callable[..., Renderer]


def default_renderer(db: Any, game: str, date: str) -> Renderer:
    from pnpforge.render.face import FaceRenderer

    return FaceRenderer(db, game, date=date)


def select_cards(db: Any, game: str, card_type: str | None, query: str | None) -> list:
    """The game's cards in deck order, narrowed by --type and --query."""
    from pnpforge.query import select

    return select.cards(db, select.select(db, game, card_type, query))


def _default_name(game: str, opts: sheet.PrintOptions) -> str:
    parts = [game]
    if opts.card_type:
        parts.append(opts.card_type)
    if opts.query and opts.query.strip():
        parts.append("selection")
    if opts.one_each:
        parts.append("one-each")
    parts.append(opts.paper)
    return "-".join(parts) + ".pdf"


def output_path(output: str | None, game: str, name: str) -> Path:
    """-o FILE.pdf, -o DIR (the default name inside it), or output/GAME/NAME."""
    if output:
        p = Path(output)
        return p if p.suffix.lower() == ".pdf" else p / name
    return Path("output") / game / name


def plan_jobs(db: Any, types: dict, selection: Any, opts: sheet.PrintOptions) -> tuple[list[Job], list[str]]:
    """One Job per (role, size): the sheet layout and the copies it will place.

    Only counts are read here; each Job streams its cards from SQLite when drawn,
    so memory does not grow with the deck.
    """
    from pnpforge.query import select

    notes: list[str] = []
    per_type = {
        slug: (t.cards if opts.one_each else t.copies, t.zero_copies)
        for slug, t in select.tally(db, selection).items()
    }
    skipped = 0 if opts.one_each else sum(zero for _, zero in per_type.values())
    if skipped:
        notes.append(f"{skipped} card(s) with 0 copies not printed (use --one-each to include them)")
    groups: dict[tuple[str, float, float], list[str]] = {}
    for slug, t in types.items():  # card type order, as the game defines it
        if per_type.get(slug, (0, 0))[0] > 0:
            groups.setdefault(sheet.size_key(t.width_mm, t.height_mm, t.role), []).append(slug)
    jobs: list[Job] = []
    sheet_opts = opts.sheet_options()
    for key in sheet.order_groups(list(groups)):
        slugs = groups[key]
        what = f"card type {', '.join(repr(n) for n in slugs)}"
        layout = sheet.plan_layout(key[1], key[2], sheet_opts, what=what)

        def expand(slugs: list[str] = slugs) -> Iterator[Any]:
            for c in select.iter_cards(db, selection, slugs):
                for _ in range(1 if opts.one_each else c.copies):
                    yield c

        jobs.append(Job(key, layout, sum(per_type[s][0] for s in slugs), expand))
        notes.extend(layout.warnings)
    provisional: dict[str, list[str]] = {}
    for slugs in groups.values():
        for slug in slugs:
            t = types[slug]
            if t.size_provisional:
                provisional.setdefault(f"{t.width_mm:g}×{t.height_mm:g} mm", []).append(slug)
    for size, slugs in provisional.items():
        notes.append(f"provisional card size {size} (the rulebook gives none): {', '.join(slugs)}")
    return jobs, notes


def print_cards(
    db: Any, game: str, opts: sheet.PrintOptions, renderer_factory: RendererFactory | None = None
) -> sheet.Manifest:
    """Write the print-and-play PDF for a game (or a selection of it); return its manifest."""
    from pnpforge.render.fonts import ensure_fonts
    from pnpforge.store import repo

    opts.validate()
    g = repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}
    from pnpforge.query import select

    jobs, notes = plan_jobs(db, types, select.select(db, game, opts.card_type, opts.query), opts)
    if not jobs:
        what = f" matching '{opts.query}'" if opts.query else ""
        raise PnpError(
            f"nothing to print: game '{game}' has no cards{what}"
            + (f" of type '{opts.card_type}'" if opts.card_type else "")
            + ("" if opts.one_each else " with copies > 0")
        )
    date = select.stamp_date(db, game)
    renderer = (renderer_factory or default_renderer)(db, game, date=date[:10])
    fonts = ensure_fonts(g.language)
    path = output_path(opts.output, game, _default_name(game, opts))
    manifest = sheet.Manifest.of_print(str(path), game, opts, date[:10])
    for j in jobs:
        lay = j.layout
        manifest.sheets.append(
            sheet.SheetSummary(
                lay.card_w,
                lay.card_h,
                j.key[0],
                lay.capacity,
                lay.cols,
                lay.rows,
                lay.rotated,
                j.count,
                j.pages,
            )
        )

    def on_place(card: Any, page: int, side: str, slot: Slot) -> None:
        manifest.placements.append(sheet.Placement(card.id, card.type, page, side, slot.trim, slot.rotation))

    info = DocInfo(
        title=f"{g.title} / {g.title_en} v{g.version}",
        language=g.language,
        date=date[:10],
        font=fonts.regular,
        created=date,
    )
    with atomic_output(path) as fh:
        manifest.pages = write_card_sheets(fh, jobs, opts.sheet_options(), renderer, info, on_place)
    manifest.warnings = list(dict.fromkeys(notes + list(renderer.warnings())))
    return manifest


def print_calibration(opts: sheet.SheetOptions, output: str | None = None) -> sheet.Manifest:
    """Write the duplex calibration page (front and back) and return its manifest."""
    from pnpforge.render.fonts import ensure_fonts

    opts.validate()
    fonts = ensure_fonts("en")
    if output:
        p = Path(output)
        path = p if p.suffix.lower() == ".pdf" else p / f"calibration-{opts.paper}.pdf"
    else:
        path = Path("output") / f"calibration-{opts.paper}.pdf"
    pw, ph = opts.paper_size
    manifest = sheet.Manifest(
        str(path), "calibration", opts.paper, pw, ph, 0, 0.0, 0.0, "duplex", opts.flip, opts.offset
    )
    with atomic_output(path) as fh:
        manifest.pages = write_calibration(fh, opts, fonts.regular, fonts.bold)
    return manifest

"""Card sheet pages: faces, backs (duplex or separate) and the back Form XObjects.

Given the planned jobs (layouts and streamed cards), this module decides the
page sequence and draws each page; the planning and the output file belong
to render.pdf.  Card backs are drawn once per card type as a Form XObject and
reused on every back page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from reportlab.pdfgen.canvas import Canvas

from pnpforge.render import sheet, sheet_plan
from pnpforge.render.pdf_canvas import open_canvas
from pnpforge.render.pdf_draw import draw_marks, draw_note, place, print_warning
from pnpforge.render.sheet import MM_TO_PT, SheetLayout, Slot


class Renderer(Protocol):
    """What the sheets need from a card face renderer (render.face.FaceRenderer)."""

    def check(self, card: Any) -> None: ...
    def draw_face(self, canvas: Any, card: Any, x: float, y: float, bleed: float) -> None: ...
    def draw_back(self, canvas: Any, card_type_slug: str, x: float, y: float, bleed: float) -> None: ...
    def warnings(self) -> list[str]: ...


@dataclass
class Job:
    """One run of same-size sheets: a layout and the cards (copies expanded) to place."""

    key: tuple[str, float, float]
    layout: SheetLayout
    count: int  # placements
    cards: Callable[[], Iterator[Any]]  # a fresh iterator each call (streaming)

    @property
    def pages(self) -> int:
        return sheet_plan.pages_needed(self.count, self.layout.capacity)


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
    faces = FaceForms()

    def back_page(page: int, sheet_no: int, layout: Any, backs: Any, batch: list[Any]) -> None:
        _back_page(
            c, layout, backs, batch, renderer, forms, info, page, total, sheet_no, face_pages, opts, on_place
        )

    page = 0
    sheet_no = 0
    for job in jobs:
        backs = sheet.back_slots(job.layout, opts.flip, opts.offset) if with_backs else ()
        for batch in sheet_plan.chunks(job.cards(), job.layout.capacity):
            sheet_no += 1
            page += 1
            _face_page(
                c, job.layout, batch, renderer, faces, info, page, total, sheet_no, face_pages, on_place
            )
            if opts.backs == "duplex":
                page += 1
                back_page(page, sheet_no, job.layout, backs, batch)
    if opts.backs == "separate":
        sheet_no = 0
        for job in jobs:
            backs = sheet.back_slots(job.layout, opts.flip, opts.offset)
            for batch in sheet_plan.chunks(job.cards(), job.layout.capacity):
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
    faces: FaceForms,
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
        name = faces.form_for(c, renderer, card, layout, bleed_pt)
        if name is None:
            place(c, slot, partial(renderer.draw_face, c, card, 0.0, 0.0, bleed_pt))
        else:
            place(c, slot, partial(c.doForm, name))
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


MAX_FACE_FORMS = 512  # faces kept as forms per document: memory stays flat in deck size


class FaceForms:
    """Faces printed more than once (a card's copies) drawn once, into a Form XObject that
    every copy places; a face printed once is drawn straight onto its page."""

    def __init__(self) -> None:
        self._names: dict[int, tuple[Any, str]] = {}  # id(card) -> (card, form name)
        self._made = 0  # forms made so far: names that are the same on every run

    def form_for(
        self, c: Canvas, renderer: Renderer, card: Any, layout: SheetLayout, bleed_pt: float
    ) -> str | None:
        """The form to place for `card` (drawn now if new), or None to draw it directly."""
        if getattr(card, "copies", 1) <= 1:
            return None
        hit = self._names.get(id(card))
        if hit is not None and hit[0] is card:
            return hit[1]
        if self._made >= MAX_FACE_FORMS:
            return None  # forms stay in memory until the save, pages do not: draw the rest per copy
        if len(self._names) >= 256:  # copies come one after another: keep the memory flat
            self._names.clear()
        self._made += 1
        name = f"face-{self._made}"
        b = bleed_pt
        c.beginForm(name, -b, -b, layout.card_w * MM_TO_PT + b, layout.card_h * MM_TO_PT + b)
        renderer.draw_face(c, card, 0.0, 0.0, b)
        c.endForm()
        self._names[id(card)] = (card, name)
        return name


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

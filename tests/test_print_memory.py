"""Printing memory: finished pages held compact, written objects let go, the same bytes.

A deck's PDF must not cost memory per page beyond a few small registry entries:
each finished page is swapped for a CompactPage sharing its attributes with the
pages like it, and each page and content stream is dropped from the document
once written. Every test that changes how memory is held also checks the PDF
is byte-identical to the one reportlab's own objects give.
"""

from __future__ import annotations

import contextlib
import tracemalloc
from pathlib import Path

import pypdf
import pytest
from reportlab.pdfbase import pdfdoc

from pnpforge.render import PrintOptions, pdf_canvas, pdf_compact_page, pdf_xref, print_cards
from pnpforge.render.fonts import ensure_fonts
from pnpforge.render.sheet import Rect
from pnpforge.render.sheet_manifest import Placement


@pytest.fixture(scope="module")
def font() -> str:
    return ensure_fonts("en").regular


def _canvas(path: Path, font: str) -> pdf_canvas._SpoolingCanvas:
    return pdf_canvas.open_canvas(path, font, "t", "2024-01-02")


def _draw_pages(c: pdf_canvas._SpoolingCanvas, font: str, count: int, start: int = 0) -> None:
    for i in range(start, start + count):
        c.setFont(font, 12)
        c.drawString(72, 72, f"page {i}")
        c.rect(100, 100, 50 + i % 7, 50, stroke=1, fill=0)
        c.showPage()


def _save(c: pdf_canvas._SpoolingCanvas, path: Path) -> bytes:
    with open(path, "wb") as fh:
        c.save_to(fh)
    return path.read_bytes()


def test_finished_pages_are_compact_and_share_their_state(tmp_path, font):
    c = _canvas(tmp_path / "x.pdf", font)
    _draw_pages(c, font, 4)
    pages = c._doc.Pages.pages
    assert all(type(p) is pdf_compact_page.CompactPage for p in pages)
    assert all(c._doc.idToObject[p.__InternalName__] is p for p in pages)
    assert len({id(p.shared) for p in pages}) == 1  # one state for four identical pages
    assert all(isinstance(p.Contents, pdf_canvas._SpooledStream) for p in pages)
    _save(c, tmp_path / "x.pdf")
    reader = pypdf.PdfReader(tmp_path / "x.pdf")
    assert [p.extract_text().strip() for p in reader.pages] == [f"page {i}" for i in range(4)]


def test_written_pages_and_streams_leave_the_document(tmp_path, font):
    c = _canvas(tmp_path / "x.pdf", font)
    _draw_pages(c, font, 3)
    streams = [p.Contents for p in c._doc.Pages.pages]
    _save(c, tmp_path / "x.pdf")
    names = [p.__InternalName__ for p in c._doc.Pages.pages] + [s.__InternalName__ for s in streams]
    assert all(name in c._doc.idToObject and c._doc.idToObject[name] is None for name in names)
    assert all(p.Contents is None for p in c._doc.Pages.pages)


def _same_pdf_both_ways(tmp_path: Path, monkeypatch, draw) -> bytes:
    """Draw with compact pages and the one-buffer xref, then with reportlab's own page objects
    and xref; assert the two files are the same bytes and return them."""
    made = []
    for compact in (True, False):
        monkeypatch.setattr(pdf_canvas._SpoolingCanvas, "compact_pages", compact)
        if not compact:
            monkeypatch.setattr(pdf_canvas, "compact_xref", contextlib.nullcontext)
        path = tmp_path / f"{compact}.pdf"
        made.append(draw(path))
    assert made[0] == made[1]
    return made[0]


def test_pages_with_forms_links_and_odd_sizes_print_the_same_bytes(tmp_path, monkeypatch, font):
    def draw(path: Path) -> bytes:
        c = _canvas(path, font)
        c.beginForm("mark")
        c.circle(10, 10, 5)
        c.endForm()
        for i in range(6):
            if i % 2:
                c.doForm("mark")
            if i == 3:
                c.linkURL("https://example.org", (10, 10, 60, 30))
            if i == 4:
                c.setPageSize((300.5, 400.25))
                c.setPageRotation(90)
            c.setFont(font, 10)
            c.drawString(20, 20, f"p{i}")
            c.showPage()
        return _save(c, path)

    data = _same_pdf_both_ways(tmp_path, monkeypatch, draw)
    reader = pypdf.PdfReader(tmp_path / "True.pdf")
    assert len(reader.pages) == 6 and data.startswith(b"%PDF")
    assert "/Annots" in reader.pages[3] and "/Annots" not in reader.pages[2]
    assert sorted(map(float, reader.pages[5].mediabox[2:])) == [300.5, 400.25]


def test_a_shipped_game_prints_the_same_bytes_either_way(tmp_path, monkeypatch, shipped_db):
    from pnpforge.store.db import open_db

    db = open_db(shipped_db, readonly=True)

    def draw(path: Path) -> bytes:
        return Path(print_cards(db, "hackers", PrintOptions(output=str(path))).path).read_bytes()

    _same_pdf_both_ways(tmp_path, monkeypatch, draw)


def _retained_per_page(tmp_path: Path, font: str, compact: bool) -> float:
    """Bytes the Python heap keeps per drawn page (before the save), from 40 to 240 pages."""
    c = _canvas(tmp_path / f"m{compact}.pdf", font)
    c.compact_pages = compact
    _draw_pages(c, font, 40)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        _draw_pages(c, font, 200, start=40)
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    _save(c, tmp_path / f"m{compact}.pdf")
    return (after - before) / 200


def test_a_page_costs_a_few_hundred_bytes_until_saved(tmp_path, font):
    compact = _retained_per_page(tmp_path, font, True)
    plain = _retained_per_page(tmp_path, font, False)
    assert compact < 800, compact  # registry entries, the compact page, its place in the spool
    assert plain > 2 * compact, (plain, compact)  # reportlab's own page objects


def test_xref_matches_reportlab_and_falls_back_when_numbers_have_gaps(tmp_path, font):
    c = _canvas(tmp_path / "x.pdf", font)
    _draw_pages(c, font, 2)
    _save(c, tmp_path / "x.pdf")
    doc = c._doc
    ids = [doc.numberToId[n] for n in sorted(doc.numberToId)]
    ours = pdf_xref._OneBufferSubsection(0, ids).format(doc)
    assert ours == pdfdoc.PDFCrossReferenceSubsection(0, ids).format(doc)
    assert ours.count(b"\n") == len(ids) + 2 and ours.startswith(f"0 {len(ids) + 1}\n".encode())
    assert pdf_xref._entries(0, ids[:-1] + ids[:1], doc) is None  # a number taken twice
    assert pdf_xref._entries(0, ids[1:], doc) is None  # object 1 missing: left to reportlab
    assert pdf_xref._entries(1, ids, doc) is None
    assert pdfdoc.PDFCrossReferenceSubsection is pdf_xref._REPORTLAB_SUBSECTION  # restored after the save


def test_values_that_could_format_differently_are_never_shared():
    key = pdf_compact_page._value_key
    assert key(1) != key(1.0) != key(True)
    assert key(0.0) != key(-0.0)
    assert key(pdfdoc.PDFDictionary({"a": pdfdoc.PDFObjectReference("R1")})) == key(
        pdfdoc.PDFDictionary({"a": pdfdoc.PDFObjectReference("R1")})
    )
    assert key(pdfdoc.PDFArray([1, 2])) != key([1, 2])
    with pytest.raises(pdf_compact_page._Unshareable):
        key(pdfdoc.PDFStream())  # would be registered as its own object when formatted
    odd = pdfdoc.PDFDictionary({})
    odd.multiline = False  # formats on one line: not the plain dictionary the key assumes
    with pytest.raises(pdf_compact_page._Unshareable):
        key(odd)


def test_a_page_holding_an_unshareable_value_is_left_as_reportlab_made_it(tmp_path, font):
    c = _canvas(tmp_path / "x.pdf", font)
    c.setFont(font, 10)
    c.drawString(20, 20, "odd")
    c._pageTransition = None
    c._annotationrefs.append(pdfdoc.PDFString("not a reference"))
    c.showPage()
    _draw_pages(c, font, 1)
    first, second = c._doc.Pages.pages
    assert type(first) is pdfdoc.PDFPage and type(second) is pdf_compact_page.CompactPage


def test_manifest_placements_share_one_type_string():
    trim = Rect(0, 0, 63, 88)
    a = Placement("A-1", "".join(["uni", "t"]), 1, "face", trim, 0)
    b = Placement("A-2", "".join(["un", "it"]), 1, "face", trim, 0)
    assert a.type == b.type == "unit" and a.type is b.type

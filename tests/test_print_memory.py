"""Printing memory: finished pages leave memory at once, and the bytes are reportlab's own.

The print canvas (reportlab_compat.SpoolingCanvas) writes each page's content to a
temporary file when the page is done and the PDF straight to disk; these tests hold
it to reportlab's output for the same drawing, to a small cost per page, and to
saves in two threads that do not mix.
"""

from __future__ import annotations

import threading
import tracemalloc
from pathlib import Path

import pypdf
import pytest
from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from pnpforge.render import pdf_canvas
from pnpforge.render.fonts import ensure_fonts
from pnpforge.render.sheet import Rect
from pnpforge.render.sheet_manifest import Placement


@pytest.fixture(scope="module")
def font() -> str:
    return ensure_fonts("en").regular


def _draw(c: Canvas, font: str, pages: int, start: int = 0, runs: int = 1) -> None:
    for i in range(start, start + pages):
        c.setFont(font, 12)
        for k in range(runs):
            c.drawString(72, 72 + k, f"page {i} line {k}")
        c.rect(100, 100, 50 + i % 7, 50, stroke=1, fill=0)
        c.showPage()


def _save(c: pdf_canvas.SpoolingCanvas, path: Path) -> bytes:
    with open(path, "wb") as fh:
        c.save_to(fh)
    return path.read_bytes()


def _forms_links_and_odd_sizes(c: Canvas, font: str) -> None:
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


def test_the_print_canvas_writes_the_bytes_reportlab_writes(tmp_path, monkeypatch, font):
    monkeypatch.setattr(rl_config, "useA85", 0)  # streamed pages are deflated only
    ours = pdf_canvas.open_canvas(tmp_path / "x.pdf", font, "t", "2024-01-02")
    _forms_links_and_odd_sizes(ours, font)
    data = _save(ours, tmp_path / "x.pdf")
    plain = pdf_canvas.open_canvas(tmp_path / "y.pdf", font, "t", "2024-01-02", kind=Canvas)
    _forms_links_and_odd_sizes(plain, font)
    plain.save()  # reportlab's own canvas: every page kept in memory, the file built in one piece
    assert data == (tmp_path / "y.pdf").read_bytes()
    reader = pypdf.PdfReader(tmp_path / "x.pdf")
    assert [p.extract_text().strip() for p in reader.pages] == [f"p{i}" for i in range(6)]
    assert "/Annots" in reader.pages[3] and "/Annots" not in reader.pages[2]
    assert sorted(map(float, reader.pages[5].mediabox[2:])) == [300.5, 400.25]


def test_a_page_costs_little_until_saved(tmp_path, font):
    """A page of 200 text runs is some 8 KB of operators; held on disk, with its page
    object compact, it costs the heap a few hundred bytes of registry entries."""
    c = pdf_canvas.open_canvas(tmp_path / "m.pdf", font, "t", "2024-01-02")
    _draw(c, font, 20, runs=200)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        _draw(c, font, 100, start=20, runs=200)
        per_page = (tracemalloc.get_traced_memory()[0] - before) / 100
    finally:
        tracemalloc.stop()
    _save(c, tmp_path / "m.pdf")
    assert per_page < 800, per_page
    assert len(pypdf.PdfReader(tmp_path / "m.pdf").pages) == 120


def test_two_threads_saving_at_once_write_their_own_files(tmp_path, font):
    made: dict[int, bytes] = {}

    def job(n: int) -> None:
        c = pdf_canvas.open_canvas(tmp_path / f"{n}.pdf", font, f"t{n}", "2024-01-02")
        _draw(c, font, 30, start=n * 100, runs=20)
        made[n] = _save(c, tmp_path / f"{n}.pdf")

    threads = [threading.Thread(target=job, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n in range(3):
        pages = pypdf.PdfReader(tmp_path / f"{n}.pdf").pages
        assert len(pages) == 30 and pages[0].extract_text().startswith(f"page {n * 100} ")


def test_manifest_placements_share_one_type_string():
    trim = Rect(0, 0, 63, 88)
    a = Placement("A-1", "".join(["uni", "t"]), 1, "face", trim, 0)
    b = Placement("A-2", "".join(["un", "it"]), 1, "face", trim, 0)
    assert a.type == b.type == "unit" and a.type is b.type


def test_a_shipped_game_prints_reportlabs_bytes(tmp_path, monkeypatch, shipped_db):
    """The whole print of a game, streamed and compact, against reportlab's own canvas."""
    from pnpforge.render import PrintOptions, pdf_sheets, print_cards
    from pnpforge.store.db import open_db

    monkeypatch.setattr(rl_config, "useA85", 0)  # streamed pages are deflated only
    db = open_db(shipped_db, readonly=True)
    ours = Path(print_cards(db, "hackers", PrintOptions(output=str(tmp_path / "a.pdf"))).path).read_bytes()

    def plain_canvas(path, font, title, date):
        return pdf_canvas.open_canvas(path, font, title, date, kind=_PlainSaveTo)

    monkeypatch.setattr(pdf_sheets, "open_canvas", plain_canvas)
    theirs = Path(print_cards(db, "hackers", PrintOptions(output=str(tmp_path / "b.pdf"))).path).read_bytes()
    assert ours == theirs


class _PlainSaveTo(Canvas):
    """reportlab's own canvas, saved to an open file the way the print code asks."""

    def save_to(self, fh) -> None:
        fh.write(self.getpdfdata())

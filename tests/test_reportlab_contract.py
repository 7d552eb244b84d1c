"""The contract with reportlab's internals: what render/reportlab_compat.py relies on.

pnpforge draws through reportlab's public API except in reportlab_compat (lazy CJK
glyph subsetting, pages streamed to disk, PDF/X keys).  Each test here names one thing
that module touches; when a reportlab release changes it, this file fails first, with
the name of what moved, instead of every user's printing failing on their next install.
"""

from __future__ import annotations

import inspect
import io
import threading
from pathlib import Path

import pypdf
import pytest
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace, TTFontFile
from reportlab.pdfgen.canvas import Canvas

from pnpforge.render import reportlab_compat
from pnpforge.render.fonts import ensure_fonts


@pytest.fixture(scope="module")
def font() -> str:
    return ensure_fonts("zh-Hant").regular


def test_a_font_face_is_built_by_ttfont_and_asked_for_its_subsets():
    """lazy_font swaps the face's class: reportlab must build a TTFontFace in TTFont and
    ask the face (not the font) for the subset bytes when it embeds a subset."""
    assert "self.makeSubset(subset)" in inspect.getsource(TTFontFace.addSubsetObjects)
    assert "TTFontFace(" in inspect.getsource(TTFont.__init__)


def test_a_face_keeps_what_subset_with_outlines_replaces(font):
    face = pdfmetrics.getFont(font).face
    assert type(face).__mro__[1] is TTFontFace  # our LazyFace, made from reportlab's class
    assert isinstance(reportlab_compat.font_bytes(face), bytes)
    for name in ("glyf", "maxp", "loca"):
        assert set(face.table[name]) >= {"offset", "length"}, name
    assert isinstance(face.glyphPos, list) and isinstance(face.hmetrics, list)
    assert isinstance(face.charToGlyph, dict) and callable(face.get_table)
    assert inspect.signature(TTFontFile.makeSubset).parameters.keys() >= {"self", "subset"}


def test_a_lazy_subset_embeds_the_outlines_of_what_was_drawn(tmp_path, font):
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont(font, 20)
    c.drawString(20, 20, "執行官查封土地")
    c.save()
    reader = pypdf.PdfReader(io.BytesIO(buf.getvalue()))
    assert "執行官查封土地" in reader.pages[0].extract_text()
    fonts = [f.get_object() for f in reader.pages[0]["/Resources"]["/Font"].values()]
    files = [f["/FontDescriptor"]["/FontFile2"].get_object() for f in fonts if "/FontDescriptor" in f]
    assert files and len(files[0].get_data()) > 2000  # outlines, not the skeleton's empty glyphs


def test_a_finished_page_is_the_last_of_the_document_pages_with_its_stream():
    c = Canvas(io.BytesIO(), invariant=1, pageCompression=1)
    c.drawString(10, 10, "x")
    c.showPage()
    page = c._doc.Pages.pages[-1]
    assert isinstance(page, pdfdoc.PDFPage) and isinstance(page.stream, str) and "Tj" in page.stream
    assert hasattr(page, "Contents") and callable(pdfdoc.PDFZCompress.encode)
    assert c.pageHasData() is True  # reportlab's name: True when the current page is empty


def test_the_output_collector_is_looked_up_in_pdfdocs_namespace_when_saving():
    src = inspect.getsource(pdfdoc.PDFDocument.format)
    assert "PDFFile(self._pdfVersion)" in src and "File.add(" in src and "File.format(self)" in src
    assert pdfdoc.PDFFile is reportlab_compat._SinkOrCollector
    collector = pdfdoc.PDFFile()
    assert collector.strings and collector.add(b"x") > 0  # outside a sink: reportlab's own


def test_the_info_and_catalog_take_pdfx_keys():
    c = Canvas(io.BytesIO(), invariant=1)
    intent = pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("OutputIntent")})
    reportlab_compat.add_pdfx_keys(c, b"/GTS_PDFXVersion (PDF/X-1:2001)", intent)
    c.drawString(10, 10, "x")
    c.save()
    data = c._filename.getvalue()
    assert b"/GTS_PDFXVersion (PDF/X-1:2001) >>" in data and b"/OutputIntents" in data
    assert b"/Trapped /False" in data


def test_streamed_saves_in_two_threads_keep_their_own_files(tmp_path: Path, font):
    def job(n: int) -> None:
        c = reportlab_compat.SpoolingCanvas(str(tmp_path / f"{n}.pdf"), invariant=1, pageCompression=1)
        for i in range(20):
            c.setFont(font, 12)
            c.drawString(20, 20, f"{n}-{i}")
            c.showPage()
        with open(tmp_path / f"{n}.pdf", "wb") as fh:
            c.save_to(fh)

    threads = [threading.Thread(target=job, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n in range(3):
        pages = pypdf.PdfReader(tmp_path / f"{n}.pdf").pages
        assert [p.extract_text().strip() for p in pages] == [f"{n}-{i}" for i in range(20)]

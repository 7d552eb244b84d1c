"""Every use of reportlab's private state, in one place, each with what it touches and why.

The rest of pnpforge draws through reportlab's public API (Canvas methods, pdfmetrics,
TTFont).  Three needs have no public API; each is here, and
tests/test_reportlab_contract.py fails loudly when a reportlab release changes what
they rely on (run it first after moving the pin in pyproject.toml).

1. Lazy CJK glyph subsetting (first run in seconds, not minutes).  A CJK font is
   registered as a skeleton (metrics and character map, empty outlines); only the
   glyphs a PDF uses are converted.  reportlab asks the font *face* for a subset
   (`TTFontFace.makeSubset`) when it saves, so:
   - `lazy_font` gives a registered TTFont's face our `makeSubset` by changing the
     face's class to a subclass (reportlab builds the face inside TTFont.__init__;
     there is no hook to pass another class);
   - `subset_with_outlines` runs reportlab's own subsetter (`TTFontFile.makeSubset`)
     on a copy of the face whose font bytes (`_ttf_data`), table directory (`table`),
     glyph offsets (`glyphPos`) and metrics (`hmetrics`) include those outlines.
2. Pages streamed to disk (memory flat in deck size).  reportlab keeps every page's
   content until `save()` and builds the file as one bytes object:
   - `SpoolingCanvas.showPage` compresses the page just finished (the last entry of
     `_doc.Pages.pages`, its `stream`) into a temporary file and sets the page's
     `Contents` to an object reading it back when written;
   - `SpoolingCanvas.save_to` has reportlab's output collector (`pdfdoc.PDFFile`,
     which `PDFDocument.format` looks up in its module) write to an open file.  The
     class is replaced once, by a subclass that behaves exactly as reportlab's unless
     *this thread* is inside `save_to`: two saves in two threads never share a target.
3. PDF/X keys (`shop/pdfx.py`): the Info dictionary's GTS keys and the catalog's
   OutputIntents, through `_doc.info` and `_doc.Catalog`.
"""

from __future__ import annotations

import contextlib
import tempfile
import threading
import types
from collections.abc import Callable, Iterator
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace, TTFontFile
from reportlab.pdfgen.canvas import Canvas

# ---- 1. lazy glyph subsetting -----------------------------------------------------------------

SubsetMaker = Callable[[Any, list[int]], bytes]


def lazy_font(name: str, source: Any, make_subset: SubsetMaker, **attrs: Any) -> TTFont:
    """A TTFont for the font file `source` (a path or a binary file object) whose face
    answers reportlab's subset requests with `make_subset(face, char_codes)`; `attrs` are
    set on the face for `make_subset` to read."""

    class LazyFace(TTFontFace):
        def makeSubset(self, subset: list[int]) -> bytes:  # noqa: N802 - reportlab's name
            return make_subset(self, subset)

    font = TTFont(name, source)
    font.face.__class__ = LazyFace
    for key, value in attrs.items():
        setattr(font.face, key, value)
    return font


def font_bytes(face: Any) -> bytes:
    """The font file a face was read from (reportlab keeps it as `_ttf_data`)."""
    data: bytes = face._ttf_data
    return data


def subset_with_outlines(
    face: Any,
    subset: list[int],
    appended: bytes,
    tables: dict[str, dict[str, int]],
    glyph_positions: list[int],
    metrics: list[Any],
) -> bytes:
    """reportlab's subset of `face`, made from a copy whose font bytes have `appended`
    at their end and whose `tables` (name → offset and length), glyph offsets in glyf and
    horizontal metrics are the ones given."""
    import copy

    view = copy.copy(face)
    view._ttf_data = face._ttf_data + appended
    view.table = {**face.table, **tables}
    view.glyphPos, view.hmetrics = glyph_positions, metrics
    data: bytes = TTFontFile.makeSubset(view, subset)
    return data


# ---- 2. pages streamed to disk ------------------------------------------------------------------


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


class SpooledStream(pdfdoc.PDFObject):
    """A page content stream whose (already deflated) bytes live in the spool."""

    __slots__ = ("spool", "start", "length", "__InternalName__")  # one per page until written
    __RefOnly__ = 1

    def __init__(self, spool: _Spool, start: int, length: int) -> None:
        self.spool, self.start, self.length = spool, start, length

    def format(self, document: Any) -> bytes:
        data = document.encrypt.encode(self.spool.get(self.start, self.length))
        d = pdfdoc.PDFDictionary(
            {"Filter": pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")]), "Length": len(data)}
        )
        formatted: bytes = pdfdoc.format(d, document) + b"\nstream\n" + data + b"endstream\n"
        return formatted


class SpoolingCanvas(Canvas):
    """A reportlab canvas whose finished pages leave memory at once (see the module doc)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._spool = _Spool()

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        super().showPage()
        page = self._doc.Pages.pages[-1]
        data = pdfdoc.PDFZCompress.encode(page.stream)
        page.stream = None
        page.Contents = SpooledStream(self._spool, *self._spool.put(data))

    def save_to(self, fh: Any) -> None:
        """Write the PDF to an open binary file, one object at a time."""
        if not self.pageHasData():  # reportlab's name: True when the page is still empty
            self.showPage()
        with _file_sink(fh):
            self._doc.GetPDFData(self)
        self._spool.close()


_SINK = threading.local()  # .fh: the file this thread's save writes to


class _SinkOrCollector(pdfdoc.PDFFile):
    """reportlab's output collector; inside `_file_sink` on this thread, writing to its file."""

    def __init__(self, pdfVersion: Any = pdfdoc.PDF_VERSION_DEFAULT) -> None:  # noqa: N803
        super().__init__(pdfVersion)
        fh = getattr(_SINK, "fh", None)
        if fh is None:
            return
        header: list[bytes] = self.strings  # written by the base constructor
        for s in header:
            fh.write(s)
        self.strings: list[bytes] = []
        self.write = fh.write
        self.format = types.MethodType(lambda _self, _document: b"", self)


_REPORTLAB_COLLECTOR = pdfdoc.PDFFile
pdfdoc.PDFFile = _SinkOrCollector


@contextlib.contextmanager
def _file_sink(fh: Any) -> Iterator[None]:
    """Have reportlab's collector, on this thread only, write straight to `fh`."""
    _SINK.fh = fh
    try:
        yield
    finally:
        _SINK.fh = None


# ---- 3. PDF/X document keys ---------------------------------------------------------------------


def add_pdfx_keys(canvas: Canvas, info_keys: bytes, output_intent: Any) -> None:
    """Append `info_keys` (formatted '/Key (value)' pairs) to the Info dictionary and set the
    catalog's OutputIntents to `[output_intent]`."""
    info = canvas._doc.info
    base_format = info.format

    def format_with_keys(self: Any, document: Any) -> bytes:
        text: bytes = base_format(document)
        end = text.rindex(b">>")
        return text[:end] + info_keys + b" >>" + text[end + 2 :]

    info.format = types.MethodType(format_with_keys, info)
    info.trapped = "False"
    catalog = canvas._doc.Catalog
    catalog.OutputIntents = pdfdoc.PDFArray([output_intent])
    catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]

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
   - `PageCompactor` then swaps that PDFPage (about 1.3 KB of attributes, mostly the
     same on every page) in `_doc.Pages.pages` and `_doc.idToObject` for a CompactPage
     holding its name, its stream and a state shared by pages alike, which formats
     itself through a PDFPage rebuilt for the moment (so the bytes are reportlab's);
     written pages and streams are dropped from `idToObject` (their names stay);
   - `SpoolingCanvas.save_to` has reportlab's output collector (`pdfdoc.PDFFile`,
     which `PDFDocument.format` looks up in its module) write to an open file.  The
     class is replaced once, by a subclass that behaves exactly as reportlab's unless
     *this thread* is inside `save_to`: two saves in two threads never share a target.
3. PDF/X keys (`shop/pdfx.py`): the Info dictionary's GTS keys and the catalog's
   OutputIntents, through `_doc.info` and `_doc.Catalog`.
"""

from __future__ import annotations

import contextlib
import copy
import tempfile
import threading
import types
from collections.abc import Callable, Hashable, Iterator
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
        release_written(document, self)
        return formatted


_INTERNAL_NAME = "__InternalName__"  # the attribute reportlab's registry names an object by


class _Unshareable(Exception):
    """A page attribute whose formatting could depend on more than its value."""


class CompactPage(pdfdoc.PDFObject):
    """A finished page: its registered name, content stream and shared attribute state."""

    __slots__ = ("__InternalName__", "Contents", "shared")
    __RefOnly__ = 1  # as PDFPage: always written as an indirect object
    stream = None  # the uncompressed content text is gone, as on a spooled PDFPage

    def __init__(self, name: str, contents: Any, shared: dict[str, Any]) -> None:
        setattr(self, _INTERNAL_NAME, name)
        self.Contents = contents
        self.shared = shared

    def format(self, document: Any) -> bytes:
        """The page dictionary, formatted by a PDFPage rebuilt for the moment."""
        page = pdfdoc.PDFPage()
        page.__dict__.update(self.shared)
        page.Contents = self.Contents
        data = page.format(document)
        release_written(document, self)
        self.Contents = None  # registered now; the stream leaves memory once it is written too
        return data


def release_written(document: Any, obj: Any) -> None:
    """Let go of an object the document has just written, keeping its name registered.

    reportlab formats each registered object once, in number order, and holds them
    all until the file is complete; what later objects need of a written page or
    stream is its name and number (kept in other tables), never the object. The
    registry keeps the name (reportlab checks a referenced name is registered) and
    drops the object, so a deck's pages leave memory as they are written."""
    name = getattr(obj, _INTERNAL_NAME, None)
    if name is not None and document.idToObject.get(name) is obj:
        document.idToObject[name] = None


class PageCompactor:
    """Swaps finished pages of one document for compact ones sharing their common state."""

    def __init__(self) -> None:
        self.states: dict[Hashable, dict[str, Any]] = {}

    def compact(self, doc: Any) -> None:
        """Replace the document's last page, if its attributes can be shared, by a CompactPage."""
        page = doc.Pages.pages[-1]
        name = getattr(page, _INTERNAL_NAME, None)
        if type(page) is not pdfdoc.PDFPage or name is None or doc.idToObject.get(name) is not page:
            return
        attrs = {
            k: v
            for k, v in vars(page).items()
            if k not in _NOT_SHARED and (v is not None or k not in _NONE_ON_A_NEW_PAGE)
        }
        try:
            key = tuple((k, _value_key(v)) for k, v in attrs.items())
        except _Unshareable:
            return
        shared = self.states.setdefault(key, attrs)
        compact = CompactPage(name, page.Contents, shared)
        doc.Pages.pages[-1] = compact
        doc.idToObject[name] = compact


_NOT_SHARED = ("Contents", _INTERNAL_NAME)


def _none_on_a_new_page() -> frozenset[str]:
    """Attributes a new PDFPage already has as None: a page's None there need not be kept
    (a None the canvas sets elsewhere, such as ExtGState, is kept: reportlab reads it and
    a new page lacks it)."""
    fresh = pdfdoc.PDFPage()
    names = set(vars(fresh)) | set(dir(fresh))
    return frozenset(name for name in names if getattr(fresh, name, _NOT_SHARED) is None)


_NONE_ON_A_NEW_PAGE = _none_on_a_new_page()


_SCALARS = (int, str, bool, bytes, type(None))


def _value_key(value: Any) -> Hashable:
    """A hashable stand-in equal for two values only if they format to the same bytes.

    The type is part of the key (1, 1.0 and True compare equal but format apart)
    and a float is keyed by its exact bits.  Raises _Unshareable for anything whose
    formatting could register objects or read more than its value."""
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if kind is float:
        return (kind, value.hex())
    if kind is pdfdoc.PDFObjectReference and vars(value).keys() == {"name"}:
        return (kind, value.name)
    if kind is pdfdoc.PDFDictionary and vars(value).keys() == {"dict"} and type(value.dict) is dict:
        return (kind, _items_key(value.dict))
    if kind is pdfdoc.PDFArray and vars(value).keys() == {"sequence"}:
        return (kind, tuple(_value_key(v) for v in value.sequence))
    if kind is dict:
        return (kind, _items_key(value))
    if kind in (list, tuple):
        return (kind, tuple(_value_key(v) for v in value))
    raise _Unshareable(kind.__name__)


def _items_key(mapping: dict) -> Hashable:
    """A dictionary's key, in insertion order (keys must be scalars too)."""
    return tuple((_value_key(k), _value_key(v)) for k, v in mapping.items())


class SpoolingCanvas(Canvas):
    """A reportlab canvas whose finished pages leave memory at once (see the module doc)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._spool = _Spool()
        self._compactor = PageCompactor()

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        super().showPage()
        page = self._doc.Pages.pages[-1]
        data = pdfdoc.PDFZCompress.encode(page.stream)
        page.stream = None
        page.Contents = SpooledStream(self._spool, *self._spool.put(data))
        self._compactor.compact(self._doc)

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

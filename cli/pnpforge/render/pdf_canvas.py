"""The streaming, deterministic reportlab canvas every PDF of the project is drawn on.

reportlab keeps every page in memory until `save()` and then builds the whole
file as one bytes object.  `_SpoolingCanvas` compresses each page's content
stream into a temporary file as soon as the page is done and swaps the page
object for a compact one (pdf_compact_page); its `save_to` writes the final PDF
object by object straight to disk, letting each page and stream go once
written, and builds the cross-reference table in one buffer (pdf_xref).  What
remains per page until the save ends is reportlab's table of object names and
numbers, so memory stays nearly flat however many cards a deck has.  The
canvas is invariant, dated from the data (never "now") and starts in an
embedded font, so the same input gives the same bytes; the file only replaces
its target once it is complete (`atomic_output`).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pnpforge.render import sheet
from pnpforge.render.font_embed import deflated_fonts
from pnpforge.render.pdf_compact_page import PageCompactor, release_written
from pnpforge.render.pdf_draw import NOTE_FONT_PT
from pnpforge.render.pdf_xref import compact_xref


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

    __slots__ = ("spool", "start", "length", "__InternalName__")  # one per page until written
    __RefOnly__ = 1

    def __init__(self, spool: _Spool, start: int, length: int) -> None:
        self.spool, self.start, self.length = spool, start, length

    def format(self, document: Any) -> bytes:
        data = document.encrypt.encode(self.spool.get(self.start, self.length))
        d = pdfdoc.PDFDictionary(
            {"Filter": pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")]), "Length": len(data)}
        )
        formatted = pdfdoc.format(d, document) + b"\nstream\n" + data + b"endstream\n"
        release_written(document, self)
        return formatted


class _SpoolingCanvas(Canvas):
    """A reportlab canvas whose finished pages leave memory at once."""

    compact_pages = True  # False keeps reportlab's own page objects (same bytes, more memory)

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self._spool = _Spool()
        self._compactor = PageCompactor()

    def showPage(self) -> None:  # noqa: N802 - reportlab's name
        super().showPage()
        page = self._doc.Pages.pages[-1]
        data = pdfdoc.PDFZCompress.encode(page.stream)
        page.stream = None
        page.Contents = _SpooledStream(self._spool, *self._spool.put(data))
        if self.compact_pages:
            self._compactor.compact(self._doc)

    def save_to(self, fh: Any) -> None:
        """Write the PDF to an open binary file, one object at a time."""
        if len(self._code):
            self.showPage()
        with _file_sink(fh), deflated_fonts(), compact_xref():
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
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if exc.filename is None:  # a write of the open file (a full disk): name the target
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise

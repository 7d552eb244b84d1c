"""The deterministic, streaming canvas every PDF of the project is drawn on, and atomic output.

The canvas (reportlab_compat.SpoolingCanvas) writes each finished page to a
temporary file and the PDF straight to disk, so memory stays nearly flat however
many cards a deck has.  It is invariant, dated from the data (never "now") and
starts in an embedded font, so the same input gives the same bytes; the file only
replaces its target once it is complete (`atomic_output`).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpforge.outfile import check_target, ensure_folder
from pnpforge.render import sheet
from pnpforge.render.pdf_draw import NOTE_FONT_PT
from pnpforge.render.reportlab_compat import SpoolingCanvas

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


def open_canvas(
    path: Path, font: str, title: str, date: str | None, kind: type[Canvas] = SpoolingCanvas
) -> Any:
    """A deterministic canvas: invariant, compressed, starting in an embedded font (`kind`
    is reportlab's own Canvas only where a test compares the two)."""
    c = kind(
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

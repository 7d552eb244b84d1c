"""The PDF cross-reference table built in one buffer instead of a string per object.

reportlab formats the table at the very end of a save, when the heap is at its
fullest, as a list holding one Python string per object plus a dictionary of
the numbers taken, then joins them: some 170 bytes of short-lived objects per
object, about 2 MB for a 30,000-card deck, all on top of the peak.  While a
PDF is saved inside `compact_xref()` the table is written into one bytearray
of its final 20-byte entries instead.  The entries are the same bytes
reportlab writes ('%0.10d %0.5d n ' and the standard free entry 0, one a line);
a table reportlab would write some other way (a section not starting at 0, a
number missing or taken twice) is left to reportlab's own code.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from reportlab.pdfbase import pdfdoc

_ENTRY = 20  # bytes per entry: 10-digit offset, space, 5-digit version, ' n ', newline
_FREE_ENTRY = b"0000000000 65535 f \n"


class _OneBufferSubsection(pdfdoc.PDFCrossReferenceSubsection):
    """A cross-reference subsection formatted into one preallocated buffer."""

    def format(self, document: Any) -> bytes:
        table = _entries(self.firstentrynumber, self.idsequence, document)
        if table is None:
            return super().format(document)
        return f"{self.firstentrynumber} {len(table) // _ENTRY}\n".encode() + table


def _entries(first: int, ids: list[str], document: Any) -> bytearray | None:
    """The subsection's entries, or None when reportlab's table would not be one entry per
    number from 0 on (left to reportlab, which reports or writes it its own way)."""
    if first != 0:
        return None
    count = len(ids) + 1
    table = bytearray(count * _ENTRY)
    filled = bytearray(count)
    table[:_ENTRY] = _FREE_ENTRY
    filled[0] = 1
    number_of, offset_of = document.idToObjectNumberAndVersion, document.idToOffset
    for name in ids:
        num, version = number_of[name]
        if not 0 < num < count or filled[num]:
            return None
        filled[num] = 1
        table[num * _ENTRY : (num + 1) * _ENTRY] = b"%010d %05d n \n" % (offset_of[name], version)
    return table if all(filled) else None


_REPORTLAB_SUBSECTION = _OneBufferSubsection.__bases__[0]


@contextlib.contextmanager
def compact_xref() -> Iterator[None]:
    """Make reportlab format cross-reference subsections with `_OneBufferSubsection` for
    the duration of one save (PDFCrossReferenceTable finds the class in the module
    namespace; either class writes the same bytes, so a save overlapping this one is
    unaffected whichever it gets)."""
    pdfdoc.PDFCrossReferenceSubsection = _OneBufferSubsection
    try:
        yield
    finally:  # reportlab's class, whichever of two overlapping saves ends first
        pdfdoc.PDFCrossReferenceSubsection = _REPORTLAB_SUBSECTION

"""The garbage collector held back while a deck is printed.

Printing makes hundreds of thousands of short-lived objects (atoms, ops,
operator strings) on top of a heap that already holds the fonts, templates and
reportlab's tables.  Python's cyclic collector runs every 700 allocations and
now and then walks that whole heap: for the shipped games it was a twelfth of
the print.  While a print runs, the objects that existed before it are frozen
(not walked; they are the same objects after it) and the youngest generation is
collected less often.  Reference counting still frees everything at once; only
cyclic garbage waits a little longer.  Nothing drawn depends on it.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

_YOUNG_THRESHOLD = 10_000  # allocations between two collections of the youngest generation
_depth = 0


@contextlib.contextmanager
def collector_held_back() -> Iterator[None]:
    """Freeze the heap as it is and collect young objects less often, until the block ends
    (the outermost block of nested ones restores the settings it found)."""
    global _depth
    if _depth or not gc.isenabled():
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], _YOUNG_THRESHOLD), *threshold[1:])
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        gc.set_threshold(*threshold)
        gc.unfreeze()

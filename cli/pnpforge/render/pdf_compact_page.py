"""Finished PDF pages held in a few dozen bytes until the document is saved.

reportlab keeps one PDFPage per page until `save()`: an instance dictionary of
some thirty attributes (most of them None) plus a fresh transition dictionary,
annotation list and colour and shading dictionaries, about 1.3 KB a page, so a
30,000-card deck held some 9 MB of them.  Pages of one print differ only in
their content stream and, now and then, in the forms they show; everything
else is the same values again.

`PageCompactor.compact` swaps a finished page, in the document's page list and
object registry, for a `CompactPage`: the page's registered name, its content
stream and a state shared by every page whose other attributes have the same
value.  When the document is saved, the compact page builds a throw-away
PDFPage from that state and lets it format itself, so reportlab runs exactly
the code it would have run on the original and the bytes cannot differ.

Two pages share a state only when each attribute formats to the same bytes
whatever else the document holds: numbers, strings, names, references by name
and reportlab's plain dictionaries and arrays of those.  A page holding
anything else (an object reportlab would register as its own indirect object
when formatted, say) is left as reportlab made it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from reportlab.pdfbase import pdfdoc

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

"""Validated layouts kept on disk, so a warm run neither parses nor checks a layout file again.

Loading a game's layouts parses each TOML file (a pure-Python parser), merges
the extends chain, applies and checks every option (Jinja parses each template)
and checks the fields and geometry against each card type: a tenth of printing
the shipped games, the same work every run while the files do not change.

An entry is keyed by everything the result depends on: the files' parsed
content with the labels errors would name them by, the card type's fields and
size, and pnpforge's drawing code and the libraries it runs on
(code_cache.drawing_code_digest: a changed rule is another key).  Only a
layout that passed every check is stored, so an error is always found, and
worded, by the code itself.  Entries are pickles in the user cache beside the
compiled templates, written atomically; an entry that cannot be read is built
again and rewritten.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from pnpforge.render.code_cache import drawing_code_digest, pickled

T = TypeVar("T")


def cached(kind: str, key: str, build: Callable[[], T]) -> T:
    """`build()`, read from the cache when it was built before for the same `key` by the
    same code; `build` raising (a layout with problems) stores nothing."""
    return pickled("layouts", f"{drawing_code_digest()}\0{kind}\0{key}", build)


def parsed_toml(data: bytes, parse: Callable[[bytes], dict[str, Any]]) -> dict[str, Any]:
    """A layout file's parsed content, cached by its bytes."""
    return cached("toml", hashlib.sha256(data).hexdigest(), lambda: parse(data))

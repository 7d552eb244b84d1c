"""Compiled template code kept on disk, so a warm run does not compile every template again.

Jinja turns each template into Python source and compiles that with the
built-in `compile()`; for the few hundred short templates of the shipped games
that compile is about a millisecond each, a quarter of printing five games.
The environment's `_compile` hook hands us the generated Python source, so the
cache is keyed by exactly that source (plus the file name and the Python
version): the same source always gives the same code object, and a changed
template, a changed Jinja or a changed Python is simply another key.  Entries
are marshalled code objects in the user cache (next to the converted fonts),
written atomically; an unreadable entry is compiled again and rewritten.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path
from types import CodeType

_SUFFIX = f"-py{sys.version_info[0]}{sys.version_info[1]}.code"
_folder: Path | None = None


def _cache_folder() -> Path:
    """The templates cache: a sibling of the fonts cache ($PNP_CACHE_DIR or the user cache)."""
    global _folder
    if _folder is None:
        from pnpforge.render.fonts import cache_dir

        _folder = cache_dir().parent / "templates"
    return _folder


def compile_cached(source: str, filename: str) -> CodeType:
    """`compile(source, filename, "exec")`, read from the cache when it was compiled before."""
    key = hashlib.sha256(f"{filename}\0{sys.version}\0{source}".encode()).hexdigest()
    path = _cache_folder() / (key + _SUFFIX)
    try:
        code = marshal.loads(path.read_bytes())
        if isinstance(code, CodeType):
            return code
    except (OSError, ValueError, EOFError, TypeError):
        pass
    code = compile(source, filename, "exec")
    _store(path, marshal.dumps(code))
    return code


def _store(path: Path, data: bytes) -> None:
    """Write one entry atomically; a cache that cannot be written is only slower."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass

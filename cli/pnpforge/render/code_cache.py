"""Compiled template code kept on disk, so a warm run does not compile every template again.

Jinja turns each template into Python source and compiles that with the
built-in `compile()`; for the few hundred short templates of the shipped games
that compile is about a millisecond each, a quarter of printing five games.
The environment's `_compile` hook hands us the generated Python source, so the
cache is keyed by exactly that source (plus the file name and the Python
version): the same source always gives the same code object, and a changed
template, a changed Jinja or a changed Python is simply another key.  Entries
are marshalled code objects in the user cache (next to the converted fonts),
read and written through render.disk_cache (verified by digest, in memory
when the disk refuses); a damaged entry is compiled again and rewritten.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
import weakref
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

from pnpforge.render import disk_cache
from pnpforge.render.disk_cache import MAX_ENTRIES, prune

__all__ = ["MAX_ENTRIES", "prune", "store"]

_SUFFIX = f"-py{sys.version_info[0]}{sys.version_info[1]}.code"
_folder: Path | None = None


def _cache_folder() -> Path:
    """The templates cache: a sibling of the fonts cache ($PNP_CACHE_DIR or the user cache)."""
    global _folder
    if _folder is None:
        _folder = disk_cache.root() / "templates"
    return _folder


@cache
def code_digest(files: tuple[str, ...], *versions: str) -> str:
    """A cache-key part that changes whenever the code behind a cached value does: the bytes
    of the source `files` that make the value and the `versions` of what they run on
    (read once per process)."""
    digest = hashlib.sha256("\0".join(versions).encode())
    for name in files:
        digest.update(b"\0" + Path(name).read_bytes())
    return digest.hexdigest()


_NEVER_DRAWS = frozenset(("rules", "commands"))  # engines and the command line shape no cached value


@cache
def drawing_code_digest() -> str:
    """A cache-key part for values pnpforge's own code makes (checked layouts, font subsets):
    every pnpforge source outside the rules engines and the command line, and the versions
    of Python, Jinja, reportlab and zlib they run on (read once per process).  Derived, not
    listed: a module that starts to take part in building a value cannot be left out."""
    import zlib

    import jinja2
    from reportlab import Version

    import pnpforge

    package = Path(pnpforge.__file__).parent
    digest = hashlib.sha256(
        "\0".join((sys.version, jinja2.__version__, Version, zlib.ZLIB_RUNTIME_VERSION)).encode()
    )
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel.split("/")[0] not in _NEVER_DRAWS:
            digest.update(b"\0" + rel.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def compile_cached(source: str, filename: str) -> CodeType:
    """`compile(source, filename, "exec")`, read from the cache when it was compiled before."""
    key = hashlib.sha256(f"{filename}\0{sys.version}\0{source}".encode()).hexdigest()
    path = _cache_folder() / (key + _SUFFIX)
    code = _code_entry(path)
    if code is not None:
        return code
    code = compile(source, filename, "exec")
    store(path, marshal.dumps(code))
    return code


def _code_entry(path: Path) -> CodeType | None:
    """The code object of a verified entry, or None (missing, damaged or of another Python)."""
    payload = disk_cache.read(path)
    if payload is None:
        return None
    try:
        code = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        disk_cache.discard(path)
        return None
    return code if isinstance(code, CodeType) else None


_LEXER_OPTIONS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "is_async",
    "sandboxed",
    "intercepted_binops",
    "intercepted_unops",
)


def _callable_name(func: Any) -> str:
    """A stable name for a callable and how Jinja passes it arguments (the generated code
    calls filters and finalize differently by that)."""
    if func is None or isinstance(func, bool):
        return repr(func)
    pass_arg = getattr(func, "jinja_pass_arg", None)
    return (
        f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', type(func).__name__)}:{pass_arg}"
    )


_SIGNATURES: weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], str]] = weakref.WeakKeyDictionary()


def environment_signature(env: Any) -> str:
    """Everything of an environment the code generated for a template depends on: lexer
    options, finalize, autoescape, and the filters and tests with their calling style.

    Worked out again only when one of those changed (filters may be added at any time):
    an environment compiles many templates, and naming every filter for each is slow."""
    state = (
        tuple(env.filters.items()),
        tuple(env.tests.items()),
        tuple(env.extensions),
        env.finalize,
        env.autoescape,
        tuple(getattr(env, name, None) for name in _LEXER_OPTIONS),
    )
    hit = _SIGNATURES.get(env)
    if hit is not None and hit[0] == state:
        return hit[1]
    signature = _signature(env)
    _SIGNATURES[env] = (state, signature)
    return signature


def _signature(env: Any) -> str:
    """environment_signature, worked out."""
    import jinja2

    parts = [jinja2.__version__, type(env).__qualname__]
    parts += [f"{name}={getattr(env, name, None)!r}" for name in _LEXER_OPTIONS]
    parts.append(f"finalize={_callable_name(env.finalize)}")
    parts.append(f"autoescape={_callable_name(env.autoescape)}")
    parts += [f"filter {k}={_callable_name(v)}" for k, v in sorted(env.filters.items())]
    parts += [f"test {k}={_callable_name(v)}" for k, v in sorted(env.tests.items())]
    parts += [f"extension {k}" for k in sorted(env.extensions)]
    return "\n".join(parts)


def template_code_cached(
    signature: str, source: str, name: str | None, filename: str | None, build: Callable[[], CodeType]
) -> CodeType:
    """The code object Jinja's parse, generate and compile give for a template source,
    read from the cache when this source was built before in an environment with the same
    signature (a warm run then neither lexes nor generates a template)."""
    key = hashlib.sha256(f"{signature}\0{name!r}\0{filename!r}\0{sys.version}\0{source}".encode()).hexdigest()
    path = _cache_folder() / (key + "-tmpl" + _SUFFIX)
    code = _code_entry(path)
    if code is not None:
        return code
    code = build()
    store(path, marshal.dumps(code))
    return code


def pickled(folder: str, key: str, build: Callable[[], Any]) -> Any:
    """`build()`, read back from the user cache's `folder` when `key` (which must name
    everything the value depends on, code included) was built before; `build` raising
    stores nothing, and a damaged entry is built again and rewritten."""
    import pickle

    digest = hashlib.sha256(key.encode()).hexdigest()
    path = _cache_folder().parent / folder / f"{digest}.pickle"
    payload = disk_cache.read(path)
    if payload is not None:
        try:
            return pickle.loads(payload)
        except Exception:  # verified, yet not loadable here (another version): build it again
            disk_cache.discard(path)
    value = build()
    store(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    return value


def store(path: Path, data: bytes, keep: int = MAX_ENTRIES) -> None:
    """Write one entry (verified on read, bounded to about `keep` per folder): disk_cache.write."""
    disk_cache.write(path, data, keep)

"""Compiled template code kept on disk, so a warm run does not compile every template again.

Jinja lexes, parses, generates Python and compiles it for each template; for the
hundred-odd short templates and expressions of the five shipped games that is
about 7 % of printing them.  Jinja's own bytecode cache (`TemplateBytecode`, a
`jinja2.BytecodeCache`) keeps the finished code objects, keyed by the template
text, its name and file, the Python version and the environment's signature
(lexer options, finalize and filters change the generated code): a changed
template, Jinja, Python or environment is simply another key, and Jinja itself
checks each entry's source checksum and format on load.  Entries live in the
user cache (next to the converted fonts), read and written through
render.disk_cache (verified by digest, in memory when the disk refuses); a
damaged entry is compiled again and rewritten.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import weakref
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from jinja2.bccache import Bucket, BytecodeCache
from reportlab import Version

import pnpforge
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
    package = Path(pnpforge.__file__).parent
    digest = hashlib.sha256(
        "\0".join((sys.version, jinja2.__version__, Version, zlib.ZLIB_RUNTIME_VERSION)).encode()
    )
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package).as_posix()
        if rel.split("/")[0] not in _NEVER_DRAWS:
            digest.update(b"\0" + rel.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


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
    parts = [jinja2.__version__, type(env).__qualname__]
    parts += [f"{name}={getattr(env, name, None)!r}" for name in _LEXER_OPTIONS]
    parts.append(f"finalize={_callable_name(env.finalize)}")
    parts.append(f"autoescape={_callable_name(env.autoescape)}")
    parts += [f"filter {k}={_callable_name(v)}" for k, v in sorted(env.filters.items())]
    parts += [f"test {k}={_callable_name(v)}" for k, v in sorted(env.tests.items())]
    parts += [f"extension {k}" for k in sorted(env.extensions)]
    return "\n".join(parts)


class TemplateBytecode(BytecodeCache):
    """Jinja's bytecode cache over the verified disk cache, one entry per template text."""

    def get_bucket(self, environment: Any, name: str, filename: str | None, source: str) -> Bucket:
        """A bucket keyed by the text itself (Jinja's own key names only the template, and
        every inline template would share one) and by what shapes its code."""
        signature = environment_signature(environment)
        key = hashlib.sha256(f"{signature}\0{name!r}\0{filename!r}\0{sys.version}\0{source}".encode())
        bucket = Bucket(environment, key.hexdigest(), self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        path = _entry_path(bucket.key)
        payload = disk_cache.read(path)
        if payload is None:
            return
        try:
            bucket.bytecode_from_string(payload)  # Jinja checks its format and the source checksum
        except Exception:  # verified, yet not loadable here: compile again, rewrite
            bucket.reset()
        if bucket.code is None or not isinstance(bucket.code, CodeType):
            bucket.reset()
            disk_cache.discard(path)

    def dump_bytecode(self, bucket: Bucket) -> None:
        store(_entry_path(bucket.key), bucket.bytecode_to_string())


def _entry_path(key: str) -> Path:
    return _cache_folder() / (key + "-tmpl" + _SUFFIX)


def cached_code(environment: Any, source: str, name: str, build: Callable[[], CodeType]) -> CodeType:
    """The code `build()` makes for a template text not loaded by name (an inline template,
    an expression), through the environment's bytecode cache."""
    bcc = environment.bytecode_cache
    bucket = bcc.get_bucket(environment, name, None, source)
    if bucket.code is None:
        bucket.code = build()
        bcc.set_bucket(bucket)
    return bucket.code


def pickled(folder: str, key: str, build: Callable[[], Any]) -> Any:
    """`build()`, read back from the user cache's `folder` when `key` (which must name
    everything the value depends on, code included) was built before; `build` raising
    stores nothing, and a damaged entry is built again and rewritten."""
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

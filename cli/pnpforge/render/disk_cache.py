"""The one way the render caches touch the disk: entries verified on read, memory when writing fails.

Every on-disk cache of pnpforge (converted font skeletons and glyphs, finished
font subsets, compiled templates, checked layouts, card-back patterns) reads
and writes its entries here and nowhere else, so two promises hold for all:

- An entry cannot lie.  Each file is a magic line, the SHA-256 of the payload
  and the payload; a read whose digest does not match (a flipped bit, a
  truncated or foreign file) is treated as a miss, the file is removed and the
  value built afresh, so output never depends on what the cache held.
- A cache only saves time.  When the folder cannot be written (it is a regular
  file, a read-only mount, a full disk), the run keeps its entries in memory
  from then on and says so in one warning line; the command goes on.

Writes go through a temporary file and a rename, so parallel runs at worst
build an entry twice and never read half of one.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from platformdirs import user_cache_dir

MAGIC = b"pnpforge-cache 1\n"
_DIGEST = 32  # bytes of SHA-256
MAX_ENTRIES = 2_000  # per cache folder; beyond it the oldest entries are removed

_memory: dict[str, bytes] = {}  # entries this run could not write to disk
_state = {"disk": True, "warned": False}


def _warn_stderr(line: str) -> None:
    sys.stderr.write(line + "\n")


# How the one warning is shown; the command layer may replace it.
notify: Callable[[str], None] = _warn_stderr


def root() -> Path:
    """The cache folder: $PNP_CACHE_DIR or the per-user cache, never the repository."""
    env = os.environ.get("PNP_CACHE_DIR")
    if env:
        return Path(env)
    return Path(user_cache_dir("pnpforge"))


def seal(payload: bytes) -> bytes:
    """An entry's bytes on disk: the magic line, the payload's digest, the payload."""
    return MAGIC + hashlib.sha256(payload).digest() + payload


def unseal(raw: bytes) -> bytes | None:
    """The payload of an entry's bytes, or None when they are not exactly what seal() wrote."""
    head = len(MAGIC) + _DIGEST
    if len(raw) < head or not raw.startswith(MAGIC):
        return None
    payload = raw[head:]
    if hashlib.sha256(payload).digest() != raw[len(MAGIC) : head]:
        return None
    return payload


def read(path: Path) -> bytes | None:
    """The verified payload of the entry at `path`, or None (missing or damaged: build it)."""
    held = _memory.get(str(path))
    if held is not None:
        return held
    try:
        raw = path.read_bytes()
    except (OSError, ValueError):
        return None
    payload = unseal(raw)
    if payload is None:
        discard(path)
    return payload


def discard(path: Path) -> None:
    """Remove a damaged entry so it is rewritten (quietly: the cache may be read-only)."""
    _memory.pop(str(path), None)
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def write(path: Path, payload: bytes, keep: int | None = MAX_ENTRIES) -> None:
    """Store one entry; when the disk refuses, keep it in memory for this run (one warning).

    `keep` bounds the folder's entries (None: unbounded, for per-glyph folders)."""
    if not _state["disk"]:
        _memory[str(path)] = payload
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(seal(payload))
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (OSError, ValueError) as exc:
        _to_memory(exc)
        _memory[str(path)] = payload
        return
    if keep is not None:
        prune(path.parent, keep)


def _to_memory(exc: Exception) -> None:
    """From now on this run caches in memory; say so once."""
    _state["disk"] = False
    if not _state["warned"]:
        _state["warned"] = True
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        notify(
            f"Warning: cannot write the cache folder {root()} ({reason}); working in memory "
            f"this run (PNP_CACHE_DIR may name a writable folder)"
        )


def cached(path: Path, build: Callable[[], bytes], keep: int | None = MAX_ENTRIES) -> bytes:
    """The payload at `path`, or `build()` stored there."""
    payload = read(path)
    if payload is None:
        payload = build()
        write(path, payload, keep)
    return payload


def prune(folder: Path, keep: int) -> int:
    """Remove the oldest entries of a cache folder holding more than `keep`, down to three
    quarters of it (so a busy folder is not scanned at every write); returns how many went.

    Entries are written on a miss only, so the oldest are those of templates, layouts and
    character sets edited away long ago; an entry still in use that goes is simply rebuilt."""
    try:
        entries = [e for e in os.scandir(folder) if not e.name.startswith(".") and e.is_file()]
        if len(entries) <= keep:
            return 0
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        doomed = entries[: len(entries) - keep * 3 // 4]
        for entry in doomed:
            Path(entry.path).unlink(missing_ok=True)
        return len(doomed)
    except OSError:
        return 0


def reset() -> None:
    """Forget the in-memory entries and the disk's refusal (tests; a new run)."""
    _memory.clear()
    _state.update(disk=True, warned=False)

"""Safe output writes: all or nothing, never onto a device, one clear line on failure.

Every file pnpforge writes goes through here: the bytes go to a temporary
file in the target's own folder and are renamed over the target only when
complete, so a full disk or a kill leaves the old file (or none), never half
of a new one.  A target that exists and is not a regular file (a device, a
FIFO, a folder) is refused: `-o /dev/sda` must not be replaced, and neither is
a SQLite database (`pnp export GAME -o cards.db` must not turn the card
database into a CSV).  File names made from card ids are confined to their
output folder.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from pnpforge.errors import PnpError

STAGING_PREFIX = ".pnp-tmp-"
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


def os_problem(path: Path | str, exc: OSError) -> PnpError:
    """A PnpError naming `path` and what the system said, for any OSError."""
    reason = exc.strerror or str(exc)
    return PnpError(f"cannot write {path}: {reason}")


def check_target(path: Path) -> None:
    """Refuse a target that exists and is not a regular file (a folder, a device, a FIFO)."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise os_problem(path, exc) from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        try:
            st = path.stat()
        except OSError:
            st = None  # a dangling link is replaced by the file
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a device or pipe)"
        raise PnpError(f"cannot write {path}: it is {kind}; name a file")
    if st is not None and _is_sqlite(path):
        raise PnpError(f"cannot write {path}: it is a SQLite database (a card database?); name another file")


def _is_sqlite(path: Path) -> bool:
    """Whether the file starts with SQLite's header: no output of pnpforge ever replaces a database."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False  # unreadable: the write itself will say why


@contextlib.contextmanager
def atomic_open(path: Path | str) -> Iterator[BinaryIO]:
    """`with atomic_open(p) as f:` — write f; p appears only if the block succeeds."""
    target = Path(path)
    ensure_folder(target.parent)  # like `pnp print -o`, a missing output folder is made
    check_target(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=STAGING_PREFIX, dir=target.parent)
    except OSError as exc:
        raise os_problem(target, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.chmod(tmp, 0o666 & ~_umask())

        os.replace(tmp, target)
    except OSError as exc:
        _discard(tmp)
        raise os_problem(target, exc) from None
    except BaseException:
        _discard(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _discard(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def write_bytes(path: Path | str, data: bytes) -> None:
    """Write `data` to `path` atomically (see atomic_open)."""
    with atomic_open(path) as handle:
        handle.write(data)


def write_text(path: Path | str, text: str) -> None:
    """Write UTF-8 `text` to `path` atomically."""
    write_bytes(path, text.encode("utf-8"))


def ensure_folder(path: Path | str) -> Path:
    """Make output folder `path` (and its parents); one clear line if it cannot be."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise PnpError(f"cannot write into {folder}: it is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PnpError(f"cannot create the folder {folder}: {exc.strerror or exc}") from None
    return folder


def confined(folder: Path | str, name: str) -> Path:
    """`folder / name`, refusing a name that would leave `folder` (`../x`, `/etc/x`, `a/b`)."""
    base = Path(folder)
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise PnpError(f"refusing the file name {name!r}: it would not stay inside {base}")
    target = base / name
    if os.path.commonpath([os.path.abspath(base), os.path.abspath(target)]) != os.path.abspath(base):
        raise PnpError(f"refusing the file name {name!r}: it would not stay inside {base}")
    return target


def process_alive(pid: int) -> bool:
    """Whether process `pid` still runs (a staging folder of a running build is left alone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


STALE_SECONDS = 3600


def remove_stale_staging(root: Path, prefix: str) -> list[Path]:
    """Delete staging folders `root/PREFIX<pid>-…` whose building process is gone.

    A build killed with `kill -9` cannot clean up after itself; the next build
    does.  A folder without a pid in its name (older pnpforge) counts as stale
    after an hour; one of a running build is left alone.
    """
    import shutil
    import time

    removed = []
    for path in root.glob(prefix + "*"):
        owner = path.name[len(prefix) :].split("-", 1)[0]
        if owner.isdigit():
            if process_alive(int(owner)):
                continue
        elif time.time() - path.lstat().st_mtime < STALE_SECONDS:
            continue
        if path.is_symlink():  # a link left by an older build: remove it, never what it names
            path.unlink(missing_ok=True)
        else:
            shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed

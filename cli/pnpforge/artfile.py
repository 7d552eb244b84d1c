"""Art files a card may name: regular files, in an allowed folder, of a bounded size.

A card's `art` is data anyone can edit, so it must not make printing read any
file on disk, block on a FIFO, or decode a 12,500 × 12,500 px image that
compresses to 19 KB and takes a gigabyte once decoded.  Allowed folders: the
database's folder (and below it) and any folder listed in $PNP_ART_DIRS
(separated by the system's path separator).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pnpforge.errors import PnpError

MAX_ART_PIXELS = 40_000_000  # 40 megapixels: an A4 poster at 600 dpi, far above any card
MAX_ART_BYTES = 200 * 1024 * 1024


def allowed_folders(base_dir: Path) -> list[Path]:
    """The folders art may come from: the database's folder and $PNP_ART_DIRS."""
    extra = [Path(p) for p in os.environ.get("PNP_ART_DIRS", "").split(os.pathsep) if p]
    return [Path(os.path.realpath(p)) for p in [base_dir, *extra]]


def check_art(path: Path, base_dir: Path) -> None:
    """Refuse art that is not a regular file inside an allowed folder (PnpError says why)."""
    real = Path(os.path.realpath(path))
    folders = allowed_folders(base_dir)
    if not any(real == f or f in real.parents for f in folders):
        raise PnpError(
            f"art file {path} is outside the database's folder {folders[0]} "
            f"(add its folder to PNP_ART_DIRS to allow it)"
        )
    try:
        st = real.stat()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise PnpError(f"art file {path}: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise PnpError(f"art file {path} is not a regular file (a folder, pipe or device)")
    if st.st_size > MAX_ART_BYTES:
        raise PnpError(f"art file {path} is {st.st_size // 2**20} MB, more than {MAX_ART_BYTES // 2**20} MB")


def check_pixels(path: Path, width: int, height: int) -> None:
    """Refuse an image whose decoded size would exceed MAX_ART_PIXELS."""
    if width * height > MAX_ART_PIXELS:
        raise PnpError(
            f"art file {path} is {width}×{height} px, more than {MAX_ART_PIXELS // 1_000_000} "
            f"megapixels; scale it down (300 dpi is plenty for a card)"
        )

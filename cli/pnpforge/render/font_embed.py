"""Embedding fonts whose outlines are converted only when a PDF needs them.

reportlab registers the skeleton font (font_convert.skeleton: metrics and
character map, empty outlines).  When a PDF is saved, reportlab asks the font
face for a subset holding the characters the document used; LazyFace then
fetches exactly those glyphs from a GlyphStore (converting and caching the
ones never seen before) and hands reportlab's own subsetter a view of the
font in which those glyphs have their outlines.  The embedded subset depends
only on the characters used, never on what the cache held before.

A finished subset is kept on disk too (beside the glyphs), deflated and keyed
by the characters asked for, the skeleton and source font files, and the code
that makes it: printing the same deck again embeds the same bytes without
reading hundreds of glyph files or running the subsetter.  What this needs of
reportlab's internals lives in reportlab_compat.
"""

from __future__ import annotations

import hashlib
import io
import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpforge.render import disk_cache
from pnpforge.render.code_cache import drawing_code_digest
from pnpforge.render.reportlab_compat import font_bytes, lazy_font, subset_with_outlines

if TYPE_CHECKING:  # pragma: no cover
    from pnpforge.render.font_convert import Glyph

# Called as progress(font name, glyphs done, glyphs to do) while glyphs are converted.
Progress = Callable[[str, int, int], None]

_BATCH = 64  # glyphs converted between two progress reports


class GlyphStore:
    """Converted glyphs of one font recipe, cached one file per glyph id.

    An entry holds the left side bearing (signed 16 bits) then the glyf data,
    read and written through disk_cache (verified, atomic, in memory when the
    disk refuses), so a damaged file is converted again, never embedded.
    """

    def __init__(
        self, name: str, kind: str, src: Path, folder: Path, regular: GlyphStore | None = None
    ) -> None:
        self.name, self.kind, self.src, self.folder = name, kind, src, folder
        self.regular = regular
        self.memo: dict[int, Glyph] = {}
        self.progress: Progress | None = None

    def glyphs(self, gids: list[int]) -> dict[int, Glyph]:
        """Glyph data for every id in `gids`, converting the ones not cached yet."""
        todo = [gid for gid in gids if gid not in self.memo and not self._load(gid)]
        for start in range(0, len(todo), _BATCH):
            if self.progress:
                self.progress(self.name, start, len(todo))
            batch = todo[start : start + _BATCH]
            fetch = self.regular.glyphs if self.regular else None
            # fontTools: only a glyph-cache miss converts; warm runs never load it
            from pnpforge.render import font_convert

            for gid, glyph in font_convert.convert(self.kind, self.src, batch, fetch).items():
                self._save(gid, glyph)
                self.memo[gid] = glyph
        if todo and self.progress:
            self.progress(self.name, len(todo), len(todo))
        return {gid: self.memo[gid] for gid in gids}

    def _path(self, gid: int) -> Path:
        return self.folder / f"{gid}.glyph"

    def _load(self, gid: int) -> bool:
        raw = disk_cache.read(self._path(gid))
        if raw is None or len(raw) < 2:
            return False
        self.memo[gid] = (struct.unpack(">h", raw[:2])[0], raw[2:])
        return True

    def _save(self, gid: int, glyph: Glyph) -> None:
        disk_cache.write(self._path(gid), struct.pack(">h", glyph[0]) + glyph[1], keep=None)


def lazy_ttfont(name: str, skeleton: bytes, store: GlyphStore) -> Any:
    """A reportlab TTFont of the `skeleton` font file whose subsets take their outlines from `store`."""
    source = io.BytesIO(skeleton)
    source.name = f"{name}.ttf"
    digest = hashlib.sha256(skeleton).hexdigest()
    return lazy_font(name, source, _cached_subset, glyph_store=store, skeleton_digest=digest)


def _cached_subset(face: Any, subset: list[int]) -> bytes:
    """`_subset_with_outlines(face, subset)`, read from disk when made before from the same
    files by the same code (an unreadable entry is made again and rewritten).  Entries are
    kept deflated (zlib) to keep the cache small."""
    key = _subset_key(face, subset)
    path = face.glyph_store.folder.parent / "subsets" / f"{key}.deflate"
    deflated = disk_cache.read(path)
    if deflated is not None:
        try:
            return zlib.decompress(deflated)
        except zlib.error:
            disk_cache.discard(path)
    data = _subset_with_outlines(face, subset)
    disk_cache.write(path, zlib.compress(data), keep=_SUBSETS_KEPT)
    return data


_SUBSETS_KEPT = 500  # per font: ~20 KB each for a deck's few hundred CJK glyphs


def _subset_key(face: Any, subset: list[int]) -> str:
    """Everything a subset's bytes depend on: the characters in their order, the skeleton
    (its digest) and source font file (path, size, modification time), the store's recipe,
    and the code (code_cache.drawing_code_digest)."""
    store: GlyphStore = face.glyph_store
    digest = hashlib.sha256(drawing_code_digest().encode())
    digest.update(f"\0{face.skeleton_digest}".encode())
    st = os.stat(store.src)
    digest.update(f"\0{store.src}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    regular = store.regular.folder if store.regular else None
    digest.update(f"\0{store.kind}\0{store.folder}\0{regular}\0{subset}".encode())
    return digest.hexdigest()


def _subset_with_outlines(face: Any, subset: list[int]) -> bytes:
    """reportlab's subset of `face`, run on a copy whose used glyphs carry their outlines."""
    char_to_glyph = face.charToGlyph
    wanted = sorted({0} | {char_to_glyph.get(code, 0) for code in subset})
    store: GlyphStore = face.glyph_store
    glyphs = _with_components(store, wanted)
    glyf_offset = len(font_bytes(face))
    glyph_count = len(face.glyphPos) - 1
    positions, chunks, metrics = [0], [], list(face.hmetrics)
    pos = next_gid = 0
    # A CJK font has tens of thousands of glyphs and a subset a few hundred: the empty runs
    # between used glyphs are filled a run at a time, not a glyph at a time.
    for gid in sorted(g for g in glyphs if g < glyph_count):
        positions.extend([pos] * (gid - next_gid))  # unused glyphs: empty, ending where they start
        lsb, data = glyphs[gid]
        chunks.append(data)
        pos += len(data)
        if data:
            metrics[gid] = (metrics[gid][0], lsb & 0xFFFF)
        positions.append(pos)
        next_gid = gid + 1
    positions.extend([pos] * (glyph_count - next_gid))
    glyf = b"".join(chunks)
    maxp = _maxp_for(face, glyphs.values())
    tables = {
        "glyf": {"offset": glyf_offset, "length": len(glyf)},
        "maxp": {"offset": glyf_offset + len(glyf), "length": len(maxp)},
    }
    return subset_with_outlines(face, subset, glyf + maxp, tables, positions, metrics)


def _with_components(store: GlyphStore, gids: list[int]) -> dict[int, Glyph]:
    """`gids` and every glyph their composite glyphs use, with their data."""
    glyphs: dict[int, Glyph] = {}
    todo = list(gids)
    while todo:
        got = store.glyphs(todo)
        glyphs.update(got)
        todo = sorted({c for g in got.values() for c in _components(g[1])} - glyphs.keys())
    return glyphs


def _components(data: bytes) -> list[int]:
    """Glyph ids a composite glyph refers to (none for a simple glyph)."""
    if len(data) < 10 or struct.unpack(">h", data[:2])[0] >= 0:
        return []
    out, pos, more = [], 10, True
    while more:
        flags, gid = struct.unpack(">HH", data[pos : pos + 4])
        out.append(gid)
        pos += 4 + (4 if flags & 0x0001 else 2)
        pos += 2 if flags & 0x0008 else 4 if flags & 0x0040 else 8 if flags & 0x0080 else 0
        more = bool(flags & 0x0020)
    return out


def _maxp_for(face: Any, glyphs: Any) -> bytes:
    """The skeleton's maxp with point and contour maxima of the glyphs embedded."""
    points = contours = 0
    for _, data in glyphs:
        if len(data) >= 10:
            n = struct.unpack(">h", data[:2])[0]
            if n > 0:
                last_end = struct.unpack(">H", data[10 + 2 * (n - 1) : 12 + 2 * (n - 1)])[0]
                points, contours = max(points, last_end + 1), max(contours, n)
    maxp = bytearray(face.get_table("maxp"))
    struct.pack_into(">HH", maxp, 6, points, contours)
    return bytes(maxp)

"""The on-disk caches (compiled templates, layouts, back patterns, font subsets) stay bounded."""

from __future__ import annotations

import os
from pathlib import Path

from pnpforge.render import disk_cache
from pnpforge.render.code_cache import prune, store


def _entries(folder: Path, count: int) -> list[Path]:
    paths = []
    for i in range(count):
        path = folder / f"entry-{i:02d}.code"
        path.write_bytes(b"x")
        os.utime(path, ns=(i * 10**9, i * 10**9))  # entry-00 is the oldest
        paths.append(path)
    return paths


def test_prune_removes_the_oldest_entries_down_to_three_quarters(tmp_path):
    _entries(tmp_path, 10)
    (tmp_path / ".tmp-writing").write_bytes(b"")  # another process's write in progress
    assert prune(tmp_path, keep=8) == 4
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [".tmp-writing"] + [f"entry-{i:02d}.code" for i in range(4, 10)]


def test_prune_leaves_a_folder_within_its_limit_alone(tmp_path):
    _entries(tmp_path, 5)
    assert prune(tmp_path, keep=5) == 0 and len(list(tmp_path.iterdir())) == 5
    assert prune(tmp_path / "missing", keep=1) == 0  # no folder yet: nothing to do, no error


def test_store_keeps_its_folder_bounded_and_the_new_entry(tmp_path):
    _entries(tmp_path, 6)
    newest = tmp_path / "new.code"
    store(newest, b"data", keep=6)
    assert disk_cache.read(newest) == b"data"
    assert len(list(tmp_path.iterdir())) == 4 and not (tmp_path / "entry-00.code").exists()

"""Root causes 2 and 5 of issue 21: a damaged cache changed output or crashed; an unwritable one
stopped printing.  Every cache entry is now sealed with its digest (render.disk_cache) and an
unwritable folder degrades to memory with one warning line."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnpforge.render import disk_cache

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    disk_cache.reset()
    yield tmp_path / "cache"
    disk_cache.reset()


def test_an_entry_reads_back_only_when_every_byte_is_as_written(fresh_cache: Path) -> None:
    path = fresh_cache / "x" / "entry"
    disk_cache.write(path, b"payload bytes")
    assert disk_cache.read(path) == b"payload bytes"
    raw = path.read_bytes()
    for i in range(len(raw)):
        for bit in (1, 128):
            path.write_bytes(raw[:i] + bytes([raw[i] ^ bit]) + raw[i + 1 :])
            assert disk_cache.read(path) is None, (i, bit)
            assert not path.exists()  # a damaged entry is removed, to be rewritten
    for damaged in (raw[: len(raw) // 2], b"", random.Random(1).randbytes(len(raw)), raw + b"x"):
        path.write_bytes(damaged)
        assert disk_cache.read(path) is None


def test_cached_builds_again_after_damage(fresh_cache: Path) -> None:
    path = fresh_cache / "entry"
    builds: list[int] = []

    def build() -> bytes:
        builds.append(1)
        return b"value"

    assert disk_cache.cached(path, build) == b"value" and disk_cache.cached(path, build) == b"value"
    assert len(builds) == 1
    path.write_bytes(path.read_bytes()[:-1])
    assert disk_cache.cached(path, build) == b"value" and len(builds) == 2


def test_an_unwritable_folder_works_in_memory_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_bytes(b"not a folder")
    monkeypatch.setenv("PNP_CACHE_DIR", str(blocker))
    disk_cache.reset()
    said: list[str] = []
    monkeypatch.setattr(disk_cache, "notify", said.append)
    try:
        for i in range(5):
            disk_cache.write(blocker / "fonts" / f"{i}", f"value {i}".encode())
        assert [disk_cache.read(blocker / "fonts" / f"{i}") for i in range(5)] == [
            f"value {i}".encode() for i in range(5)
        ]
        assert len(said) == 1 and str(blocker) in said[0] and "in memory" in said[0]
    finally:
        disk_cache.reset()


def _print(db: Path, cache: Path, out: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PNP_CACHE_DIR=str(cache))
    return subprocess.run(
        [sys.executable, "-m", "pnpforge", "--db", str(db), "print", "mini", "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        cwd=db.parent,
    )


def _damage(cache: Path, how: str, rng: random.Random) -> int:
    count = 0
    for path in sorted(cache.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if how == "flip" and data:
            i = rng.randrange(len(data))
            data = data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
        elif how == "truncate":
            data = data[: len(data) // 2]
        elif how == "random":
            data = rng.randbytes(max(1, len(data)))
        path.write_bytes(data)
        count += 1
    return count


def test_a_damaged_cache_prints_the_same_bytes_as_a_clean_one(mini_db: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    clean = _print(mini_db, cache, tmp_path / "clean.pdf")
    assert clean.returncode == 0, clean.stderr
    reference = (tmp_path / "clean.pdf").read_bytes()
    kinds = {"fonts", "templates"}  # mini has no layout files of its own; patterns are drawn, not cached
    assert kinds <= {p.name for p in cache.iterdir()}  # every kind of entry is there to damage
    rng = random.Random(21)
    for how in ("flip", "truncate", "random"):
        assert _damage(cache, how, rng) > 10
        out = tmp_path / f"{how}.pdf"
        done = _print(mini_db, cache, out)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert out.read_bytes() == reference, how


def test_a_cache_folder_that_is_a_file_still_prints_the_same_bytes(mini_db: Path, tmp_path: Path) -> None:
    _print(mini_db, tmp_path / "cache", tmp_path / "clean.pdf")
    blocker = tmp_path / "blocker"
    blocker.write_bytes(b"x")
    done = _print(mini_db, blocker, tmp_path / "blocked.pdf")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "cache folder" in line]
    assert len(warnings) == 1 and "in memory" in warnings[0]
    assert (tmp_path / "blocked.pdf").read_bytes() == (tmp_path / "clean.pdf").read_bytes()
    assert blocker.read_bytes() == b"x"


def test_a_full_disk_works_in_memory_with_one_warning(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    class FullDisk:
        def __init__(self, fd: int, mode: str) -> None:
            os.close(fd)

        def __enter__(self) -> FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

    said: list[str] = []
    monkeypatch.setattr(disk_cache, "notify", said.append)
    monkeypatch.setattr(disk_cache.os, "fdopen", FullDisk)
    for i in range(3):
        disk_cache.write(fresh_cache / f"e{i}", b"v%d" % i)
    assert [disk_cache.read(fresh_cache / f"e{i}") for i in range(3)] == [b"v0", b"v1", b"v2"]
    assert len(said) == 1 and "No space left on device" in said[0]
    assert not [p for p in fresh_cache.rglob("*") if p.is_file()]  # no half-written entry left

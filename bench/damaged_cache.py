"""A damaged or unwritable cache never changes output: print and images, clean vs damaged.

Runs `pnp print GAME` and `pnp images GAME` with an empty cache (the reference), then
again after each kind of damage to every cache file (one bit flipped, cut in half,
replaced by random bytes, emptied) and with the cache folder unwritable (a regular
file, a read-only folder), and compares the output bytes with the reference.

    python bench/damaged_cache.py [GAME]   # default: accusation
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def _run(game: str, cache: Path, out: Path) -> tuple[str, str]:
    env = dict(os.environ, PNP_CACHE_DIR=str(cache))
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    stderr = ""
    for command in (["print", game, "-o", str(out / "sheet.pdf")], ["images", game, "-o", str(out / "img")]):
        done = subprocess.run(["pnp", *command], env=env, capture_output=True, text=True)
        if done.returncode != 0 or "Traceback" in done.stderr:
            return "FAILED", done.stderr.strip().splitlines()[-1]
        stderr += "".join(line for line in done.stderr.splitlines(True) if "cache" in line)
    return _digest(out), stderr.strip()


def _damage_files(cache: Path, how: Callable[[bytes, random.Random], bytes]) -> int:
    rng = random.Random(7)
    count = 0
    for path in cache.rglob("*"):
        if path.is_file():
            path.write_bytes(how(path.read_bytes(), rng))
            count += 1
    return count


def _flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]


DAMAGE: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "one bit flipped in every file": _flip,
    "every file cut in half": lambda d, r: d[: len(d) // 2],
    "every file random bytes": lambda d, r: r.randbytes(max(1, len(d))),
    "every file emptied": lambda d, r: b"",
}


def main() -> int:
    game = sys.argv[1] if len(sys.argv) > 1 else "accusation"
    work = Path(tempfile.mkdtemp(prefix="pnp-damaged-cache-"))
    try:
        cache = work / "cache"
        reference, _ = _run(game, cache, work / "out")
        print(f"clean run (empty cache): output {reference}")
        failures = 0
        for label, how in DAMAGE.items():
            shutil.rmtree(cache, ignore_errors=True)
            _run(game, cache, work / "out")  # a full cache
            files = _damage_files(cache, how)
            got, note = _run(game, cache, work / "out")
            same = got == reference
            failures += not same
            print(f"{label} ({files} files): output {got} {'identical' if same else 'DIFFERENT'}")
        blocker = work / "a-file"
        blocker.write_bytes(b"not a folder")
        readonly = work / "readonly"
        readonly.mkdir()
        readonly.chmod(0o555)
        for label, folder in (
            ("cache folder is a regular file", blocker),
            ("cache folder read-only", readonly),
        ):
            got, note = _run(game, folder, work / "out")
            same = got == reference
            failures += not same
            print(
                f"{label}: output {got} {'identical' if same else 'DIFFERENT'}; stderr: {note or '(nothing)'}"
            )
        print(f"{failures} difference(s)")
        return 1 if failures else 0
    finally:
        for path in work.rglob("*"):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

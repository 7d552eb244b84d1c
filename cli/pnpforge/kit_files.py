"""What a built kit is, and how it is put in place: options, files, the manifest, the swap.

A game's kit is staged in a temporary folder next to output/GAME; `finish`
writes its manifest (every file with size, pages, cards and sha256, the
database hash, no timestamps and no absolute paths, so the same database gives
the same manifest) and swaps it in with renames, so a failed build leaves the
previous kit untouched.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from pnpforge import __version__
from pnpforge.docs import context
from pnpforge.outfile import ensure_folder, process_alive, remove_stale_staging
from pnpforge.render import PrintOptions
from pnpforge.render.sheet import SheetOptions
from pnpforge.store import repo
from pnpforge.store.db import open_db

KIT_FORMAT = "pnpforge-kit/1"
Facts = dict[str, dict[str, Any]]  # kit path -> what the manifest says of it


@dataclass(frozen=True)
class BuildOptions(SheetOptions):
    """How the kit is printed (the sheet options) plus image resolution and player count."""

    dpi: int = 300
    players: int | None = None
    shop: str | None = None  # a shop profile (pnpforge.shop): its files go to shop/PROFILE/
    cut: str | None = None  # a cutting machine (shop.cut): its files go to cut/MACHINE/

    def print_options(self, output: Path) -> Any:
        sheet = {f.name: getattr(self, f.name) for f in fields(SheetOptions)}
        return PrintOptions(**sheet, output=str(output)).validate()

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["offset"] = {"x": self.offset[0], "y": self.offset[1]}
        for extra in ("shop", "cut"):  # absent unless asked, so a plain kit's manifest is unchanged
            if d[extra] is None:
                del d[extra]
        return d


@dataclass
class KitFile:
    """One file of a kit as the manifest lists it."""

    path: str  # relative to output/GAME, '/' separators
    kind: str
    bytes: int
    sha256: str
    pages: int | None = None
    cards: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"path": self.path, "kind": self.kind, "bytes": self.bytes}
        if self.pages is not None:
            d["pages"] = self.pages
        if self.cards is not None:
            d["cards"] = self.cards
        d["sha256"] = self.sha256
        return d


@dataclass
class GameKit:
    """What one game's build produced."""

    game: str
    directory: str
    files: list[KitFile] = field(default_factory=list)
    db_hash: str = ""
    warnings: list[str] = field(default_factory=list)
    unchanged: bool = False  # its inputs had not changed: the kit on disk was kept as it was

    @property
    def bytes(self) -> int:
        return sum(f.bytes for f in self.files)

    @property
    def pages(self) -> int:
        return sum(f.pages or 0 for f in self.files)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "directory": self.directory,
            "files": len(self.files),
            "bytes": self.bytes,
            "pages": self.pages,
            "database_sha256": self.db_hash,
            "unchanged": self.unchanged,
            "warnings": list(self.warnings),
        }


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def manifest(
    game: Any,
    db_hash: str,
    dump_lines: int,
    work: Path,
    facts: dict[str, dict[str, Any]],
    opts: BuildOptions,
    date: str,
    warnings: list[str],
    inputs: str = "",
) -> tuple[dict[str, Any], list[KitFile]]:
    """The manifest of a staged kit: every file under `work`, sorted by path."""
    files: list[KitFile] = []
    for p in sorted(q for q in work.rglob("*") if q.is_file()):
        rel = p.relative_to(work).as_posix()
        if rel == "manifest.json":
            continue
        f = facts.get(rel, {})
        files.append(
            KitFile(
                rel, f.get("kind", "other"), p.stat().st_size, file_sha256(p), f.get("pages"), f.get("cards")
            )
        )
    doc = {
        "format": KIT_FORMAT,
        "game": game.slug,
        "title": game.title,
        "title_en": game.title_en,
        "version": game.version,
        "date": date,
        "pnpforge": __version__,
        "database": {
            "sha256": db_hash,
            "dump_lines": dump_lines,
            "what": "sha256 of this game's `pnp db dump` lines",
        },
        "options": opts.to_dict(),
        "inputs": {
            "sha256": inputs,
            "what": "sha256 of the game's rows, templates, art, options and drawing code (kit_inputs)",
        },
        "totals": {
            "files": len(files),
            "bytes": sum(f.bytes for f in files),
            "pages": sum(f.pages or 0 for f in files),
        },
        "files": [f.to_dict() for f in files],
        "warnings": warnings,
    }
    return doc, files


def stage_dir(root: Path, game: str) -> Path:
    ensure_folder(root)
    remove_stale_staging(root, f".{game}.building-")
    _recover_set_aside(root, game)
    return Path(tempfile.mkdtemp(prefix=f".{game}.building-{os.getpid()}-", dir=root))


def _recover_set_aside(root: Path, game: str) -> None:
    """A kit set aside by a build killed mid-swap: put it back if the kit is gone, else delete it.

    `_swap` moves the old kit to `.GAME.old-PID-…` before moving the new one in;
    a `kill -9` between the two renames leaves no kit at all, only that folder.
    """
    final = root / game
    prefix = f".{game}.old-"
    if not final.exists():
        for aside in sorted(root.glob(prefix + "*"), key=lambda p: p.stat().st_mtime, reverse=True):
            owner = aside.name[len(prefix) :].split("-", 1)[0]
            if aside.is_dir() and owner.isdigit() and not process_alive(int(owner)):
                os.replace(aside, final)
                break
    remove_stale_staging(root, prefix)


def finish(
    db_path: str | os.PathLike,
    game: str,
    work: Path,
    final: Path,
    opts: BuildOptions,
    facts: Facts,
    warnings: list[str],
    inputs: str = "",
) -> GameKit:
    """Write the manifest of a fully staged kit and swap it into place.

    `inputs` is kit_inputs.inputs_digest, recorded so the next build can skip this kit.
    """
    db = open_db(db_path, readonly=True)
    g = repo.get_game(db, game)
    lines = context.dump_lines(db, game)
    db_hash = context.content_hash(db, game)
    date = context.stamp_date(db, game)[:10]
    warnings = list(dict.fromkeys(warnings))
    doc, files = manifest(g, db_hash, len(lines), work, facts, opts, date, warnings, inputs)
    (work / "manifest.json").write_text(
        json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    files.append(
        KitFile(
            "manifest.json",
            "manifest",
            (work / "manifest.json").stat().st_size,
            file_sha256(work / "manifest.json"),
        )
    )
    _normal_permissions(work)
    _swap(work, final)
    return GameKit(game, str(final), files, db_hash, warnings)


def _normal_permissions(folder: Path) -> None:
    """Temporary files and folders are private (0600/0700); a kit is for sharing: umask rules."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(folder, 0o777 & ~mask)
    for p in folder.rglob("*"):
        os.chmod(p, (0o777 if p.is_dir() else 0o666) & ~mask)


def built_files(kit: Path) -> set[str]:
    """Paths (relative, POSIX) a kit's manifest lists as built, the manifest included; empty without one."""
    try:
        doc = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
        listed = {str(f["path"]) for f in doc.get("files", [])}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return set()  # no kit there yet, or not one we can read: nothing in it is ours
    return listed | {"manifest.json"}


def _keep_foreign(old: Path, new: Path) -> None:
    """Move every file of the old kit folder that no build made, and the new kit lacks, into `new`."""
    ours = built_files(old)
    for path in sorted(old.rglob("*")):
        rel = path.relative_to(old).as_posix()
        if path.is_dir() or rel in ours or (new / rel).exists() or (new / rel).is_symlink():
            continue
        if path.name.startswith(".") and (path.name.endswith(".tmp") or path.name.startswith(".pnp-tmp-")):
            continue  # another writer's half-written temporary file
        try:
            (new / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, new / rel)
        except OSError:
            continue  # a folder in the new kit holds that name: the build's file wins


def _swap(work: Path, final: Path) -> None:
    """Put the new kit in place: old -> aside, new -> final, then delete the old one.

    If the second rename fails the old kit is moved back, so `final` is never lost.
    A kit folder that was a symbolic link is replaced by the new kit and the link
    removed, never followed: the folder it pointed to is left as it was.  A build
    owns only what it built (the files the old manifest lists): whatever other
    commands wrote into output/GAME/ (tts-object's tts/linked/, a running watch's
    watch/, a proof) is moved into the new kit before the old one is deleted.
    """
    old: Path | None = None
    if final.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-{os.getpid()}-", dir=final.parent))
        os.rmdir(old)
        os.replace(final, old)
    try:
        os.replace(work, final)
    except BaseException:
        if old is not None:
            os.replace(old, final)
        raise
    if old is not None:
        if old.is_dir() and not old.is_symlink():
            _keep_foreign(old, final)
            shutil.rmtree(old, ignore_errors=True)
        else:  # a file, or a symbolic link that stood for the kit: the link goes, its target stays
            old.unlink(missing_ok=True)

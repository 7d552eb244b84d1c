"""What a game's kit is made from, as one hash, so a rebuild can skip a kit that is current.

A kit depends on the game's rows in the database (the `pnp db dump` lines and the
stamp date), the template files (the project's templates/ and the shipped ones),
the art files the cards name, the build options, and the code that draws it
(pnpforge's own sources and the versions of the libraries and font packages that
shape the bytes).  `inputs_digest` hashes all of them; the manifest records it,
and `current_kit` finds a kit whose manifest has the same digest and whose files
are all still there with their recorded sizes.  Such a kit is exactly what a full
build would write again, so it is left untouched.

Art named by a template that computes the path (rather than reading it from a
card field) is not seen here; `pnp build --force` rebuilds regardless.
"""

from __future__ import annotations

import hashlib
import json
from importlib import metadata
from pathlib import Path
from typing import Any

from pnpforge.kit_files import KIT_FORMAT, BuildOptions, GameKit, KitFile, file_sha256

# Libraries whose version can change the bytes of a kit (drawing, rasterising, fonts).
_LIBRARIES = (
    "reportlab",
    "pypdfium2",
    "pillow",
    "fonttools",
    "jinja2",
    "textflowkit-fonts",
    "pylopdf-fonts-zh-tw",
)
# pnpforge packages that never shape a kit's bytes (the rules engines, the command line,
# editing, import and validation): a change there does not make every kit stale.
_NOT_DRAWING = frozenset(("rules", "commands", "validate", "app.py", "edit.py", "api.py"))
_ART_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff")

_code_digest: str | None = None


def _update_with_file(h: Any, label: str, path: Path) -> None:
    h.update(label.encode("utf-8") + b"\0")
    h.update(hashlib.sha256(path.read_bytes()).digest())


def code_digest() -> str:
    """pnpforge's sources and the drawing libraries' versions (once per process)."""
    global _code_digest
    if _code_digest is None:
        import pnpforge

        h = hashlib.sha256()
        package = Path(pnpforge.__file__).parent
        for p in sorted(package.rglob("*.py")):
            rel = p.relative_to(package).as_posix()
            if rel.split("/")[0] not in _NOT_DRAWING:
                _update_with_file(h, rel, p)
        for name in _LIBRARIES:
            try:
                version = metadata.version(name)
            except metadata.PackageNotFoundError:
                version = "-"
            h.update(f"{name}=={version}\0".encode())
        _code_digest = h.hexdigest()
    return _code_digest


def _templates(h: Any, db: Any) -> None:
    from pnpforge.render.face_context import db_folder, default_templates_dir

    for n, root in enumerate(default_templates_dir(db_folder(db)).folders):
        for p in sorted(q for q in Path(root).rglob("*") if q.is_file()):
            _update_with_file(h, f"templates{n}/{p.relative_to(root).as_posix()}", p)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _art(h: Any, db: Any, lines: list[str]) -> None:
    """Image files named by the game's rows (e.g. a card's `art` field), by content."""
    from pnpforge.render.face_context import db_folder

    base = db_folder(db)
    named = {
        s.strip()
        for line in lines
        for s in _strings(json.loads(line))
        if s.strip().lower().endswith(_ART_SUFFIXES) and "\n" not in s
    }
    for name in sorted(named):
        path = Path(name) if Path(name).is_absolute() else base / name
        if path.is_file():
            _update_with_file(h, f"art/{name}", path)
        else:
            h.update(f"art/{name}\0missing\0".encode())


def inputs_digest(db: Any, game: str, opts: BuildOptions) -> str:
    """sha256 of everything the kit of `game` is made from (see the module docstring)."""
    from pnpforge.docs import context

    lines = context.dump_lines(db, game)
    h = hashlib.sha256(f"{KIT_FORMAT}\0{game}\0".encode())
    for line in lines:
        h.update(line.encode("utf-8") + b"\n")
    h.update(f"stamp\0{context.stamp_date(db, game)}\0".encode())
    h.update(json.dumps(opts.to_dict(), sort_keys=True, default=str).encode() + b"\0")
    h.update(code_digest().encode())
    _templates(h, db)
    _art(h, db, lines)
    return h.hexdigest()


def current_kit(final: Path, game: str, digest: str) -> GameKit | None:
    """The kit in `final` when its manifest records `digest` and all its files are intact, else None.

    Intact means present with the size the manifest lists: a cheap check that
    catches a deleted or truncated file without reading every image again.
    """
    try:
        doc = json.loads((final / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    inputs = doc.get("inputs") if isinstance(doc, dict) else None
    if not isinstance(inputs, dict) or doc.get("format") != KIT_FORMAT or inputs.get("sha256") != digest:
        return None
    files: list[KitFile] = []
    for f in doc.get("files", []):
        try:
            if (final / f["path"]).stat().st_size != f["bytes"]:
                return None
        except (OSError, KeyError, TypeError):
            return None
        files.append(KitFile(f["path"], f["kind"], f["bytes"], f["sha256"], f.get("pages"), f.get("cards")))
    man = final / "manifest.json"
    files.append(KitFile("manifest.json", "manifest", man.stat().st_size, file_sha256(man)))
    db_hash = str((doc.get("database") or {}).get("sha256", ""))
    return GameKit(game, str(final), files, db_hash, list(doc.get("warnings", [])), unchanged=True)

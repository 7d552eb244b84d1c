"""`pnp watch`: rebuild a proof, the print PDF or the card images whenever the game's sources change.

Sources are the card database (and its WAL file), the game's layout folders
(the project's own `templates/GAME/` and the shipped one) and every art file
a card names.  They are polled by modification time and size (standard
library only, any platform); a change starts a quiet period (`debounce`) so
a spreadsheet import or an editor's save-and-rename triggers one build, not
several.  For images, only the card types whose cards or layouts changed are
redrawn when that is fewer than all.  A build that fails (an overflowing
text, a bad layout) is reported, and the watcher keeps going.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge import render
from pnpforge.errors import PnpError
from pnpforge.lang.edition import language_db
from pnpforge.resources import project_templates, shipped_templates
from pnpforge.store import repo
from pnpforge.store.db import open_db
from pnpforge.store.location import project_folder, project_output
from pnpforge.validate import validate_game

WHATS = ("proof", "print", "images")
Fingerprint = dict[str, tuple[int, int]]


@dataclass
class BuildResult:
    """One rebuild: what it wrote, what it found wrong, how long it took."""

    number: int
    ok: bool
    seconds: float
    files: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    error: str = ""
    reason: str = ""
    at: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "build": self.number,
            "ok": self.ok,
            "seconds": round(self.seconds, 3),
            "files": [Path(f).name for f in self.files],
            "problems": self.problems,
            "error": self.error,
            "reason": self.reason,
            "at": self.at,
        }


@dataclass
class WatchOptions:
    db_path: Path
    game: str
    what: str = "proof"
    output: Path | None = None
    interval: float = 0.2
    debounce: float = 0.25
    lang: str | None = None  # print a language edition (pnpforge.lang.edition)

    def out_dir(self) -> Path:
        folder = self.game if self.lang is None else f"{self.game}-{self.lang.lower()}"
        project = project_folder(self.db_path.resolve().parent)
        return self.output or project_output(project) / folder / "watch"


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class Sources:
    """The files whose change calls for a rebuild, and which card types a change concerns."""

    def __init__(self, opts: WatchOptions) -> None:

        self.opts = opts
        folder = opts.db_path.absolute().parent
        project = project_templates(folder)
        self.layout_dirs = [d / opts.game for d in ([project] if project else []) + [shipped_templates()]]
        self.art: list[Path] = []
        self.cards: dict[str, tuple[str, str]] = {}  # card id -> (type, its values)

    def fingerprint(self) -> Fingerprint:
        paths = [self.opts.db_path, Path(f"{self.opts.db_path}-wal"), *self.art]
        for folder in self.layout_dirs:
            if folder.is_dir():
                paths.extend(p for p in folder.rglob("*") if p.is_file())
        out: Fingerprint = {}
        for path in paths:
            stamp = _stat(path)
            if stamp is not None:
                out[str(path)] = stamp
        return out

    def refresh(self, db: sqlite_utils.Database) -> set[str]:
        """Re-read art paths and card stamps; the card types whose cards changed since the last call."""

        cards = repo.list_cards(db, self.opts.game, strict=False)
        base = self.opts.db_path.absolute().parent
        self.art = sorted({base / c.art for c in cards if isinstance(c.art, str) and c.art})
        # What the card says, not its updated_at: an edit within the same second must still count.
        now = {c.id: (c.type, repr(c.to_dict())) for c in cards}
        changed = {t for cid, (t, stamp) in now.items() if self.cards.get(cid) != (t, stamp)}
        changed |= {t for cid, (t, _) in self.cards.items() if cid not in now}
        self.cards = now
        return changed

    def layout_types(self, changed_paths: set[str]) -> set[str] | None:
        """Card types whose own layout file changed; None when a shared file (base, helpers) did."""
        types: set[str] = set()
        for path in changed_paths:
            p = Path(path)
            if any(p.is_relative_to(d) for d in self.layout_dirs):
                if (
                    p.suffix != ".toml"
                    or p.stem.startswith("_")
                    or p.stem == "base"
                    or p.parent.name != self.opts.game
                ):
                    return None
                types.add(p.stem)
        return types


def build(
    opts: WatchOptions, sources: Sources, number: int, reason: str, only_types: set[str] | None
) -> BuildResult:
    """Validate the game and render what was asked; any PnpError becomes the result's error."""

    start = time.perf_counter()
    result = BuildResult(number, True, 0.0, reason=reason, at=time.time())
    db = None
    try:
        db = open_db(opts.db_path, readonly=True)
        sources.refresh(db)
        result.problems = [str(p) for p in validate_game(db, opts.game) if p.severity == "error"]

        with language_db(db, [opts.game], opts.lang) as (printed, slugs, _warnings):
            result.files = _render(printed, opts, only_types, slugs[0])
    except PnpError as exc:
        result.ok, result.error = False, str(exc)
    finally:
        if db is not None:
            db.conn.close()
    result.seconds = time.perf_counter() - start
    return result


def _render(
    db: sqlite_utils.Database, opts: WatchOptions, only_types: set[str] | None, game: str
) -> list[str]:

    out = opts.out_dir()
    out.mkdir(parents=True, exist_ok=True)
    if opts.what == "print":
        pdf = out / f"{opts.game}.pdf"
        print_opts = render.PrintOptions(output=str(pdf))
        print_opts.validate()
        render.print_cards(db, game, print_opts)
        return [str(pdf)]
    if opts.what == "images":
        types = sorted(only_types) if only_types else [None]
        files: list[str] = []
        for card_type in types:
            files += render.images(db, game, card_type=card_type, output=str(out)).files
        return files
    return render.proof(db, game, output=str(out)).files


class Watcher:
    """The polling loop: `step()` once per interval; `on_build` hears about every rebuild."""

    def __init__(self, opts: WatchOptions, on_build: Callable[[BuildResult], None]) -> None:
        if opts.what not in WHATS:
            raise PnpError(f"--what {opts.what!r}: allowed: {', '.join(WHATS)}")
        if not opts.db_path.is_file():
            raise PnpError(f"no card database at {opts.db_path}")
        self.opts = opts
        self.on_build = on_build
        self.sources = Sources(opts)
        self.builds = 0
        self.last: BuildResult | None = None
        self.seen: Fingerprint = {}
        self.pending: set[str] = set()
        self.quiet_since = 0.0

    def first_build(self) -> BuildResult:
        self.seen = self.sources.fingerprint()
        return self._build("first build", None)

    def _build(self, reason: str, only_types: set[str] | None) -> BuildResult:
        self.builds += 1
        self.last = build(self.opts, self.sources, self.builds, reason, only_types)
        self.seen = self.sources.fingerprint()  # the art list may have changed
        self.on_build(self.last)
        return self.last

    def step(self, now: float | None = None) -> BuildResult | None:
        """Poll once; rebuild when a change has been quiet for `debounce` seconds."""
        now = time.monotonic() if now is None else now
        current = self.sources.fingerprint()
        changed = {p for p in set(current) | set(self.seen) if current.get(p) != self.seen.get(p)}
        if changed:
            self.pending |= changed
            self.seen = current
            self.quiet_since = now
            return None
        if not self.pending or now - self.quiet_since < self.opts.debounce:
            return None
        paths, self.pending = self.pending, set()
        return self._build(_reason(paths), self._only_types(paths))

    def _only_types(self, paths: set[str]) -> set[str] | None:
        """For images: the card types to redraw, or None for all."""
        if self.opts.what != "images":
            return None
        layout = self.sources.layout_types(paths)
        if layout is None:
            return None
        db_paths = {str(self.opts.db_path), f"{self.opts.db_path}-wal"}
        if any(p not in db_paths and not Path(p).suffix == ".toml" for p in paths):
            return None  # art changed: which cards use it is cheap to miss, so redraw all

        db = open_db(self.opts.db_path, readonly=True)
        try:
            stale = dict(self.sources.cards)
            changed = self.sources.refresh(db)
            self.sources.cards = stale  # build() refreshes again
        finally:
            db.conn.close()
        types = layout | changed
        return types or None

    def run(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Poll until `stop()` is true or Ctrl-C."""
        while not stop():
            self.step()
            time.sleep(self.opts.interval)


def _reason(paths: set[str]) -> str:
    names = sorted({Path(p).name.removesuffix("-wal") for p in paths})
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"{shown} changed"

"""The print-and-play kit builder behind `pnp build`: everything a playtest needs, per game.

For each game it writes, into output/GAME/:

    GAME-PAPER.pdf              card sheets with backs (render.print_cards)
    GAME-helpers-PAPER.pdf      player-aid cards on the same sheets (docs.helpers)
    GAME-rules-PAPER.pdf        the rulebook summary, and GAME-rules.md (docs.summary)
    images/                     a PNG per card face and back; images/helpers/ the helper cards
    tts/                        Tabletop Simulator deck sheets, backs, saved object and README.txt
    shop/PROFILE/, cut/MACHINE/ with --shop, --cut: print-shop files, print-then-cut files
    manifest.json               every file: size, pages, cards, sha256; the database hash

Safety: a game is built in a temporary folder next to output/GAME and swapped in
with renames only when every step succeeded (pnpforge.kit_files), so a failed
build leaves the previous kit untouched.  Determinism: nothing here reads the
clock; the manifest has no timestamps and no absolute paths.  Each game is made
in two independent parts: the documents (with the helper-card images, drawn
from the plan the helper sheets use) and the rasters (card images and Tabletop
Simulator sheets, rasterised from one drawing of each card); with `jobs` > 1
the parts of all games run in worker processes, longest first, reporting their
steps through a queue so the command can draw one progress bar.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import queue as queue_mod
import shutil
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pnpforge import kit_inputs, render
from pnpforge.docs import context, helpers, summary
from pnpforge.docs.helpers import AID_TYPE, HelperRenderer
from pnpforge.errors import PnpError
from pnpforge.kit_files import KIT_FORMAT as KIT_FORMAT  # re-exported: callers know the kit by this module
from pnpforge.kit_files import BuildOptions, Facts, GameKit, finish, stage_dir
from pnpforge.kit_files import KitFile as KitFile
from pnpforge.render import raster
from pnpforge.render.fonts import ensure_fonts
from pnpforge.shop import kit_parts
from pnpforge.shop.kit_parts import check_extras
from pnpforge.shop.tts import images_and_tts
from pnpforge.store import repo
from pnpforge.store.db import open_db
from pnpforge.store.location import output_root

STEPS = ("sheets", "helpers", "rules", "images", "tts", "manifest")
Progress = Callable[[str, str], None]  # (game, finished step)


# ---- one game -------------------------------------------------------------------------


def _rel(path: str | Path, root: Path) -> str:
    return Path(path).resolve().relative_to(root.resolve()).as_posix()


# The kit is made in independent parts, so games and parts can share the CPUs: each
# part writes its own files into the game's staging folder.  Card images and TTS sheets
# are one part because they share the drawing of every card.
PARTS: dict[str, tuple[str, ...]] = {"docs": ("sheets", "helpers", "rules"), "raster": ("images", "tts")}
# Parts made only when asked (BuildOptions.shop, BuildOptions.cut): pnpforge.shop.kit_parts.
EXTRA_PARTS: dict[str, tuple[str, ...]] = {"shop": ("shop",), "cut": ("cut",)}
# Relative cost per distinct card, measured on the shipped games (longest tasks start first).
_COST = {"raster": 1.0, "docs": 0.45, "shop": 0.6, "cut": 0.3}


def parts_of(opts: BuildOptions) -> dict[str, tuple[str, ...]]:
    """The parts a build with `opts` makes: always PARTS, then shop and cut files when asked."""
    return {**PARTS, **{part: s for part, s in EXTRA_PARTS.items() if getattr(opts, part)}}


def steps_of(opts: BuildOptions) -> tuple[str, ...]:
    """Every step a game's build reports with `opts` (STEPS plus the asked extras)."""
    extra = tuple(s for part, steps in parts_of(opts).items() if part in EXTRA_PARTS for s in steps)
    return (*STEPS[:-1], *extra, STEPS[-1])


def run_part(
    db: Any, game: str, part: str, work: Path, opts: BuildOptions, progress: Progress
) -> tuple[Facts, list[str]]:
    """Write one part of a game's kit into `work`; return per-file facts and warnings."""
    step = {"docs": _docs, "raster": _raster, "shop": kit_parts.shop_part, "cut": kit_parts.cut_part}[part]
    facts: Facts = {}
    warnings: list[str] = []
    step(db, game, work, opts, facts, warnings, progress)
    return facts, warnings


def _docs(
    db: Any, game: str, work: Path, opts: BuildOptions, facts: Facts, warnings: list[str], progress: Progress
) -> None:
    """Card sheets, helper sheets and helper images, the summary (PDF and Markdown)."""
    popts = opts.print_options(work)
    m = render.print_cards(db, game, popts)
    facts[_rel(m.path, work)] = {"kind": "card-sheets", "pages": m.pages, "cards": m.cards}
    warnings += m.warnings
    progress(game, "sheets")

    # a game that declares no aids prints the shipped default (glossary and rule sections)
    hm, hs = helpers.print_helpers(db, game, popts, players=opts.players)
    facts[_rel(hm.path, work)] = {"kind": "helper-sheets", "pages": hm.pages, "cards": hm.cards}
    warnings += hm.warnings
    for f, kind in helper_images(hs, db, work / "images" / "helpers", opts.dpi):
        facts[_rel(f, work)] = {"kind": kind, **({"cards": 1} if kind == "helper-image" else {})}
    progress(game, "helpers")

    res = summary.write_summary(db, game, fmt="pdf", paper=opts.paper, output=work)
    facts[_rel(res.path, work)] = {"kind": "rules-summary", "pages": res.pages}
    warnings += res.warnings
    md = summary.write_summary(db, game, fmt="md", output=work)
    facts[_rel(md.path, work)] = {"kind": "rules-summary-md"}
    progress(game, "rules")


def _raster(
    db: Any, game: str, work: Path, opts: BuildOptions, facts: Facts, warnings: list[str], progress: Progress
) -> None:
    """A PNG per card face and back, and the Tabletop Simulator sheets, backs and README."""
    images, tts = images_and_tts(db, game, str(work / "images"), str(work / "tts"), dpi=opts.dpi)
    for f in images.files:
        name = Path(f).name
        facts[_rel(f, work)] = (
            {"kind": "card-back-image"} if name.startswith("back-") else {"kind": "card-image", "cards": 1}
        )
    warnings += images.warnings
    progress(game, "images")
    decks = {d["file"]: d for d in tts.decks}
    for f in tts.files:
        name = Path(f).name
        if name in decks:
            facts[_rel(f, work)] = {"kind": "tts-sheet", "cards": decks[name]["number"]}
        elif name.endswith(".png"):
            facts[_rel(f, work)] = {"kind": "tts-back"}
        elif name.endswith(".json"):
            facts[_rel(f, work)] = {"kind": "tts-saved-object"}
        else:
            facts[_rel(f, work)] = {"kind": "tts-readme"}
    warnings += tts.warnings
    progress(game, "tts")


def helper_images(hs: Any, db: Any, out: Path, dpi: int) -> list[tuple[Path, str]]:
    """PNG of each helper card face (one per card of a set) and of the aid back.

    Drawn by the same renderer as the helper sheets and rasterised by
    render.raster, so images and print agree.  `hs` is the plan the helper
    sheets were printed from, so the two cannot differ.
    """
    fonts = ensure_fonts(hs.game.language)
    date = context.stamp_date(db, hs.game.slug)[:10]
    renderer = HelperRenderer(hs, fonts, date, context.labels(hs.game.language, context.templates_dir(db)))
    ctx = SimpleNamespace(renderer=renderer, game=hs.game, fonts=fonts, date=date)
    ppm = dpi / 25.4
    size = (max(1, round(hs.width_mm * ppm)), max(1, round(hs.height_mm * ppm)))
    out.mkdir(parents=True, exist_ok=True)
    written: list[tuple[Path, str]] = []
    drawings = []
    for kind, obj, name, what in [("face", c, f"{c.id}.png", "helper-image") for c in hs.cards] + [
        ("back", AID_TYPE, "back.png", "helper-back-image")
    ]:

        def sink(px: Any, path: Path = out / name) -> None:
            raster.write_png(path, px, dpi)

        drawings.append(
            raster.Drawing(
                raster.Item(kind, obj, hs.width_mm, hs.height_mm), [raster.Raster(ppm, size, sink)]
            )
        )
        written.append((out / name, what))
    raster.render_drawings(drawings, ctx)
    return written


def build_game(
    db_path: str | os.PathLike,
    game: str,
    out_root: str | os.PathLike,
    opts: BuildOptions,
    progress: Progress | None = None,
) -> GameKit:
    """Build one game's kit into out_root/GAME, replacing the old kit only on success."""
    return build(db_path, [game], out_root, opts, jobs=1, progress=progress)[0]


# ---- many games -------------------------------------------------------------------------

_QUEUE: Any = None


def _init_worker(queue: Any) -> None:
    global _QUEUE
    _QUEUE = queue


def _part_worker(
    db_path: str, game: str, part: str, work: str, opts: BuildOptions
) -> tuple[Facts, list[str]]:
    """One part in a worker process; steps are reported through the shared queue."""

    def report(g: str, step: str) -> None:
        if _QUEUE is not None:
            _QUEUE.put((g, step))

    return run_part(open_db(db_path, readonly=True), game, part, Path(work), opts, report)


def _plan_tasks(db_path: str, games: list[str], opts: BuildOptions) -> list[tuple[str, str]]:
    """(game, part) pairs, most expensive first, so the last task to start is a short one."""
    db = open_db(db_path, readonly=True)
    size = {g: max(1, len(repo.list_cards(db, g))) for g in games}
    tasks = [(g, part) for g in games for part in parts_of(opts)]
    return sorted(tasks, key=lambda t: -size[t[0]] * _COST[t[1]])


@dataclass
class _GameState:
    work: Path
    parts_left: set[str]
    inputs: str  # kit_inputs.inputs_digest, written into the manifest
    facts: Facts = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)  # per part
    error: BaseException | None = None

    def all_warnings(self) -> list[str]:
        """Warnings in part order, whatever order the parts finished in (a stable manifest)."""
        seen = [w for part in [*PARTS, *EXTRA_PARTS] for w in self.warnings.get(part, [])]
        return list(dict.fromkeys(seen))  # print, images and TTS notice the same things: say each once


def build(
    db_path: str | os.PathLike,
    games: list[str],
    out_root: str | os.PathLike | None = None,
    opts: BuildOptions | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    force: bool = False,
) -> list[GameKit]:
    """Build every game's kit; with jobs > 1 the parts of all games share worker processes.

    Each game is all-or-nothing: its staging folder replaces output/GAME only when
    all its parts succeeded.  After every game has finished, the first failure is
    raised, naming the game; the kits that did succeed are kept.  A game whose kit
    is current (kit_inputs: same inputs digest, files intact) is not touched and
    comes back with `unchanged` set, unless `force`.
    """
    opts = opts or BuildOptions()
    progress = progress or (lambda g, s: None)
    if not games:
        raise PnpError("no games to build")
    db_path = str(Path(db_path).resolve())
    db = open_db(db_path, readonly=True)
    for g in games:
        repo.get_game(db, g)  # unknown game -> PnpError before any work
    check_extras(opts.shop, opts.cut, opts.paper)  # unknown profile or machine -> PnpError, no work
    # None: the project's output/ (the database's folder), like every other output command
    root = Path(out_root) if out_root is not None else output_root(db)
    kits: dict[str, GameKit] = {}
    digests = {g: kit_inputs.inputs_digest(db, g, opts) for g in games}
    for g in games:
        current = None if force else kit_inputs.current_kit(root / g, g, digests[g])
        if current is not None:
            kits[g] = current
            for step in steps_of(opts):
                progress(g, step)
    todo = [g for g in games if g not in kits]
    states = {g: _GameState(stage_dir(root, g), set(parts_of(opts)), digests[g]) for g in todo}
    try:
        tasks = _plan_tasks(db_path, todo, opts) if todo else []
        if jobs <= 1:
            for g, part in tasks:
                if states[g].error is None:
                    _collect(
                        states[g],
                        part,
                        lambda g=g, part=part: run_part(  # type: ignore[misc]
                            db, g, part, states[g].work, opts, progress
                        ),
                    )
                _maybe_finish(db_path, g, states[g], root, opts, kits, progress)
        elif tasks:
            _run_parallel(db_path, tasks, states, root, opts, min(jobs, len(tasks)), kits, progress)
    finally:
        for st in states.values():
            if st.work.exists():
                shutil.rmtree(st.work, ignore_errors=True)
    failed = [(g, states[g].error) for g in todo if states[g].error is not None]
    if failed:
        game, err = failed[0]
        if isinstance(err, PnpError):
            raise PnpError(f"{game}: {err}") from err
        raise err  # type: ignore[misc]
    return [kits[g] for g in games]


def _collect(st: _GameState, part: str, run: Callable[[], tuple[Facts, list[str]]]) -> None:
    try:
        facts, warnings = run()
        st.facts.update(facts)
        st.warnings[part] = warnings
    except Exception as e:  # noqa: BLE001 - kept and raised once every game has finished
        st.error = e
    finally:
        st.parts_left.discard(part)


def _maybe_finish(
    db_path: str,
    game: str,
    st: _GameState,
    root: Path,
    opts: BuildOptions,
    kits: dict[str, GameKit],
    progress: Progress,
) -> None:
    """Once a game's last part is in: manifest and swap (or, after a failure, nothing)."""
    if st.parts_left or game in kits or st.error is not None:
        return
    try:
        kits[game] = finish(db_path, game, st.work, root / game, opts, st.facts, st.all_warnings(), st.inputs)
        progress(game, "manifest")
    except Exception as e:  # noqa: BLE001
        st.error = e


def _run_parallel(
    db_path: str,
    tasks: list[tuple[str, str]],
    states: dict[str, _GameState],
    root: Path,
    opts: BuildOptions,
    jobs: int,
    kits: dict[str, GameKit],
    progress: Progress,
) -> None:
    # fork starts workers in milliseconds with everything imported; spawn where there is no fork
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    q = ctx.Queue()

    def drain() -> None:
        with contextlib.suppress(queue_mod.Empty):
            while True:
                progress(*q.get(timeout=0.02))

    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=ctx, initializer=_init_worker, initargs=(q,)
    ) as pool:
        futures = {
            pool.submit(_part_worker, db_path, g, part, str(states[g].work), opts): (g, part)
            for g, part in tasks
        }
        pending = set(futures)
        while pending:
            drain()
            for fut in [f for f in pending if f.done()]:
                pending.discard(fut)
                g, part = futures[fut]
                _collect(states[g], part, fut.result)
                _maybe_finish(db_path, g, states[g], root, opts, kits, progress)
        drain()

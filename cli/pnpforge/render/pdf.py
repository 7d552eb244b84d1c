"""The print entry point: plan a game's sheets from the database and write the PDF.

The drawing lives in the pdf_* modules (pdf_canvas: the streaming,
deterministic canvas and atomic output; pdf_draw: slots, marks and notes;
pdf_sheets: face and back pages; pdf_calibration: the duplex calibration
sheet).  This module reads the cards, groups them into same-size jobs and
returns the manifest; it only counts cards, each job streams them from SQLite
when drawn, so memory does not grow with the deck.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.query import select
from pnpforge.render import sheet, sheet_manifest, sheet_plan
from pnpforge.render.face import FaceRenderer
from pnpforge.render.fonts import ensure_fonts
from pnpforge.render.pdf_calibration import write_calibration
from pnpforge.render.pdf_canvas import atomic_output
from pnpforge.render.pdf_sheets import DocInfo, Job, Renderer, write_card_sheets
from pnpforge.render.sheet import Slot
from pnpforge.store import repo
from pnpforge.store.location import output_root
from pnpforge.validate.stored import refuse_invalid

# Called as factory(db, game, date=...): FaceRenderer itself is one.
RendererFactory = Callable[..., Renderer]


def default_renderer(db: Any, game: str, date: str) -> Renderer:
    return FaceRenderer(db, game, date=date)


def select_cards(db: Any, game: str, card_type: str | None, query: str | None) -> list:
    """The game's cards in deck order, narrowed by --type and --query."""
    return select.cards(db, refuse_invalid(db, select.select(db, game, card_type, query)))


def _default_name(game: str, opts: sheet.PrintOptions) -> str:
    parts = [game]
    if opts.card_type:
        parts.append(opts.card_type)
    if opts.query and opts.query.strip():
        parts.append("selection")
    if opts.one_each:
        parts.append("one-each")
    parts.append(opts.paper)
    return "-".join(parts) + ".pdf"


def output_path(output: str | None, game: str, name: str, root: Path = Path("output")) -> Path:
    """-o FILE.pdf, -o DIR (the default name inside it), or ROOT/GAME/NAME (the project's output/)."""
    if output:
        p = Path(output)
        return p if p.suffix.lower() == ".pdf" else p / name
    return root / game / name


def plan_jobs(db: Any, types: dict, selection: Any, opts: sheet.PrintOptions) -> tuple[list[Job], list[str]]:
    """One Job per (role, size): the sheet layout and the copies it will place.

    Only counts are read here; each Job streams its cards from SQLite when drawn,
    so memory does not grow with the deck.
    """
    notes: list[str] = []
    per_type = {
        slug: (t.cards if opts.one_each else t.copies, t.zero_copies)
        for slug, t in select.tally(db, selection).items()
    }
    skipped = 0 if opts.one_each else sum(zero for _, zero in per_type.values())
    if skipped:
        ids = [c.id for c in select.iter_cards(db, selection) if c.copies == 0]
        shown = ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
        notes.append(
            f"{selection.game}: {skipped} card(s) with 0 copies not printed: {shown} "
            f"(use --one-each to include them)"
        )
    groups: dict[tuple[str, float, float], list[str]] = {}
    for slug, t in types.items():  # card type order, as the game defines it
        if per_type.get(slug, (0, 0))[0] > 0:
            groups.setdefault(sheet_plan.size_key(t.width_mm, t.height_mm, t.role), []).append(slug)
    jobs: list[Job] = []
    sheet_opts = opts.sheet_options()
    for key in sheet_plan.order_groups(list(groups)):
        slugs = groups[key]
        what = f"card type {', '.join(repr(n) for n in slugs)}"
        layout = sheet_plan.plan_layout(key[1], key[2], sheet_opts, what=what)

        def expand(slugs: list[str] = slugs) -> Iterator[Any]:
            for c in select.iter_cards(db, selection, slugs):
                for _ in range(1 if opts.one_each else c.copies):
                    yield c

        jobs.append(Job(key, layout, sum(per_type[s][0] for s in slugs), expand))
        notes.extend(layout.warnings)
    provisional: dict[str, list[str]] = {}
    for slugs in groups.values():
        for slug in slugs:
            t = types[slug]
            if t.size_provisional:
                provisional.setdefault(f"{t.width_mm:g}×{t.height_mm:g} mm", []).append(slug)
    for size, slugs in provisional.items():
        notes.append(f"provisional card size {size} (the rulebook gives none): {', '.join(slugs)}")
    return jobs, notes


def print_cards(
    db: Any, game: str, opts: sheet.PrintOptions, renderer_factory: RendererFactory | None = None
) -> sheet_manifest.Manifest:
    """Write the print-and-play PDF for a game (or a selection of it); return its manifest."""
    opts.validate()
    g = repo.get_game(db, game)
    types = {t.slug: t for t in repo.card_types(db, game)}

    selection = refuse_invalid(db, select.select(db, game, opts.card_type, opts.query))
    jobs, notes = plan_jobs(db, types, selection, opts)
    if not jobs:
        what = f" matching '{opts.query}'" if opts.query else ""
        raise PnpError(
            f"nothing to print: game '{game}' has no cards{what}"
            + (f" of type '{opts.card_type}'" if opts.card_type else "")
            + ("" if opts.one_each else " with copies > 0")
        )
    date = select.stamp_date(db, game)
    renderer = (renderer_factory or default_renderer)(db, game, date=date[:10])
    fonts = ensure_fonts(g.language)

    path = output_path(opts.output, game, _default_name(game, opts), output_root(db))
    manifest = sheet_manifest.Manifest.of_print(str(path), game, opts, date[:10])
    for j in jobs:
        lay = j.layout
        manifest.sheets.append(
            sheet_manifest.SheetSummary(
                lay.card_w,
                lay.card_h,
                j.key[0],
                lay.capacity,
                lay.cols,
                lay.rows,
                lay.rotated,
                j.count,
                j.pages,
            )
        )

    def on_place(card: Any, page: int, side: str, slot: Slot) -> None:
        manifest.placements.append(
            sheet_manifest.Placement(card.id, card.type, page, side, slot.trim, slot.rotation)
        )

    info = DocInfo(
        title=f"{g.titles()} v{g.version}",
        language=g.language,
        date=date[:10],
        font=fonts.regular,
        created=date,
    )
    with atomic_output(path) as fh:
        manifest.pages = write_card_sheets(fh, jobs, opts.sheet_options(), renderer, info, on_place)
    manifest.warnings = list(dict.fromkeys(notes + list(renderer.warnings())))
    return manifest


def print_calibration(opts: sheet.SheetOptions, output: str | None = None) -> sheet_manifest.Manifest:
    """Write the duplex calibration page (front and back) and return its manifest."""
    opts.validate()
    fonts = ensure_fonts("en")
    if output:
        p = Path(output)
        path = p if p.suffix.lower() == ".pdf" else p / f"calibration-{opts.paper}.pdf"
    else:
        path = Path("output") / f"calibration-{opts.paper}.pdf"
    pw, ph = opts.paper_size
    manifest = sheet_manifest.Manifest(
        str(path), "calibration", opts.paper, pw, ph, 0, 0.0, 0.0, "duplex", opts.flip, opts.offset
    )
    with atomic_output(path) as fh:
        manifest.pages = write_calibration(fh, opts, fonts.regular, fonts.bold)
    return manifest

"""Player-aid ("helper") cards: content from cards.db via Jinja2, set at card size, put on sheets.

Which aids a game prints is declared in helpers/helpers.toml (docs.aid_spec);
how they look, face and back, in helpers/aid.toml (docs.aid_style).  Each aid's
template writes the Markdown subset of docs.markup; its blocks flow over as
many cards as they need ("---" forces a new card, docs.aid_flow), at the
largest text size from the aid's body size down to the style's floor that
needs the fewest cards, so material is split over cards in reading order rather
than shrunk below legibility.  The cards go through render.pdf_sheets' sheet writer
with render.sheet's imposition, so marks and backs match the card sheets exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge.docs import aid_style, context, markup
from pnpforge.docs.aid_flow import Row, Style, build_rows, paginate, segments
from pnpforge.docs.aid_plan import HelperRenderer
from pnpforge.docs.aid_spec import AidPlan, HelperSpec, aid_blocks, load_spec, quantity
from pnpforge.docs.counts import type_counts
from pnpforge.errors import PnpError
from pnpforge.render import pdf_canvas, sheet_manifest, sheet_plan, text_atoms
from pnpforge.render.fonts import ensure_fonts
from pnpforge.render.pdf_sheets import DocInfo, Job, write_card_sheets
from pnpforge.render.units import MM
from pnpforge.store import repo
from pnpforge.store.location import output_root

AID_TYPE = "aid"  # the type helper cards carry on sheets (one back design for all)

# ---- cards ------------------------------------------------------------------------------------


@dataclass
class HelperCard:
    """One helper card face: what the sheet writer places (it reads .id and .type)."""

    id: str
    aid: str
    title: str
    title_en: str
    index: int
    total: int
    rows: list[Row]
    style: Style
    type: str = AID_TYPE
    copies: int = 1


@dataclass
class HelperSet:
    """Everything `pnp helpers` prints for one game."""

    game: Any
    width_mm: float
    height_mm: float
    size_type: str
    size_provisional: bool
    aids: list[AidPlan]
    cards: list[HelperCard]
    accent: str
    look: aid_style.AidLook  # the aid style (helpers/aid.toml), every option resolved

    def placements(self) -> list[HelperCard]:
        """Cards in print order, copies expanded."""
        return [c for c in self.cards for _ in range(c.copies)]


def _size_type(spec: HelperSpec, types: list[Any]) -> Any:
    if spec.size_type:
        for t in types:
            if t.slug == spec.size_type:
                return t
        raise PnpError(
            f"{spec.path}: size = '{spec.size_type}' is not a card type of this game "
            f"(types: {', '.join(t.slug for t in types)})"
        )
    decks = [t for t in types if t.role == "deck"] or list(types)
    if not decks:
        raise PnpError(f"{spec.path}: the game has no card types, so helper cards have no size")
    return max(decks, key=lambda t: t.width_mm * t.height_mm)


def body_box(width_mm: float, height_mm: float, look: dict[str, Any] | None = None) -> tuple[float, float]:
    """Width and height (pt) of a helper card's text area under the aid style's [card] options."""

    card = look or aid_style.defaults()["card"]
    safe = card["safe_margin"]
    return (
        (width_mm - 2 * safe) * MM,
        (height_mm - card["header_height"] - 2.0 - safe - card["footer_height"]) * MM,
    )


def _sizes(preferred: float, look: dict[str, Any]) -> list[float]:
    """Body sizes to try, largest first, down to the style's legibility floor."""
    floor, step = look["min_size"], look["size_step"]
    out, s = [], preferred
    while s >= floor - 1e-9:
        out.append(round(s, 2))
        s -= step
    return out or [floor]


def layout_aid(
    blocks: list[markup.Block],
    fonts: Any,
    accent: str,
    width: float,
    height: float,
    preferred: float | None,
    where: str,
    continued: str = " (cont.)",
    look: dict[str, Any] | None = None,
) -> list[tuple[float, list[Row], Style]]:
    """Cards for an aid: each '---' segment at the largest size (≥ min_size) needing fewest cards.

    `look` is the aid style's [card] table (the shipped defaults when None).
    Returns (size, rows, style) per card, in order.
    """

    card = look or aid_style.defaults()["card"]
    measure = text_atoms.Measure(fonts.regular, fonts.bold)
    cards: list[tuple[float, list[Row], Style]] = []
    for seg in segments(blocks):
        tried: list[tuple[float, list[list[Row]], Style]] = []
        for s in _sizes(preferred or card["body_size"], card):
            st = Style(
                fonts.regular,
                fonts.bold,
                accent,
                s,
                measure,
                continued,
                card["ink"],
                card["leading"],
                card["mark_colour"],
            )
            tried.append((s, paginate(build_rows(seg, st, width, where), height), st))
        fewest = min(len(p) for _, p, _ in tried)
        size, pages, st = next(t for t in tried if len(t[1]) == fewest)
        cards.extend((size, rows, st) for rows in pages)
    return cards


def plan_helpers(
    db: sqlite_utils.Database, game: str, players: int | None = None, root: Path | None = None
) -> HelperSet:
    """Resolve a game's aids: content, quantities, and their layout on cards."""

    root = root or context.templates_dir(db)
    g = repo.get_game(db, game)
    if players is not None and not g.players_min <= players <= g.players_max:
        raise PnpError(f"--players {players}: {game} is for {g.players_min}–{g.players_max} players")
    spec = load_spec(root, game)
    types = repo.card_types(db, game)
    size_t = _size_type(spec, types)
    comps = {c.slug: c for c in repo.components(db, game)}
    counts = {t.slug: t.count for t in type_counts(db, game)}
    ctx = context.build_context(db, game, players=players, root=root)
    fonts = ensure_fonts(g.language)
    look = aid_style.load_look(root, game, context.accent_colour(db, game))
    accent = look.card["accent"]
    L = context.labels(g.language, root)
    continued = f"{L['open_paren']}{L['continued']}{L['close_paren']}"
    width, height = body_box(size_t.width_mm, size_t.height_mm, look.card)
    plans: list[AidPlan] = []
    cards: list[HelperCard] = []
    for aid in spec.aids:
        where = f"templates/{spec.folder}/{aid.template} (aid '{aid.id}')"
        title, blocks = aid_blocks(aid, ctx, root, spec.folder)
        comp = comps.get(aid.component or "")
        title = title or (comp.name if comp else aid.id)
        title_en = aid.title_en or (comp.name_en if comp else "")
        qty, why = quantity(aid, g, comps, counts, players, spec.path)
        laid = layout_aid(blocks, fonts, accent, width, height, aid.body_pt, where, continued, look.card)
        plan = AidPlan(
            aid,
            title,
            title_en,
            qty,
            why,
            blocks,
            [rows for _, rows, _ in laid],
            min(size for size, _, _ in laid),
        )
        plans.append(plan)
        for k, (_, rows, st) in enumerate(laid, 1):
            cards.append(
                HelperCard(f"AID-{aid.id}-{k}", aid.id, title, title_en, k, len(laid), rows, st, copies=qty)
            )
    return HelperSet(
        g, size_t.width_mm, size_t.height_mm, size_t.slug, size_t.size_provisional, plans, cards, accent, look
    )


# ---- printing -----------------------------------------------------------------------------------


def default_path(game: str, paper: str) -> Path:
    return Path("output") / game / f"{game}-helpers-{paper}.pdf"


def print_helpers(
    db: sqlite_utils.Database,
    game: str,
    opts: Any,
    players: int | None = None,
    one_each: bool = False,
    root: Path | None = None,
) -> tuple[Any, HelperSet]:
    """Write the helper-card PDF (sheets, marks, backs as `pnp print`) -> (Manifest, HelperSet).

    `opts` is a render.sheet.PrintOptions; its output is a file or a folder.
    """
    opts.validate()
    hs = plan_helpers(db, game, players, root)
    g = hs.game
    fonts = ensure_fonts(g.language)
    date = context.stamp_date(db, game)
    labels = context.labels(g.language, root or context.templates_dir(db))
    renderer = HelperRenderer(hs, fonts, date[:10], labels)
    sheet_opts = opts.sheet_options()
    layout = sheet_plan.plan_layout(hs.width_mm, hs.height_mm, sheet_opts, what="helper cards")
    cards = [c for c in hs.cards for _ in range(1 if one_each else c.copies)]
    job = Job(sheet_plan.size_key(hs.width_mm, hs.height_mm, "aid"), layout, len(cards), lambda: iter(cards))
    path = _output_path(opts.output, game, opts.paper, output_root(db))
    manifest = sheet_manifest.Manifest.of_print(str(path), game, opts, date[:10])
    manifest.sheets.append(
        sheet_manifest.SheetSummary(
            layout.card_w,
            layout.card_h,
            "aid",
            layout.capacity,
            layout.cols,
            layout.rows,
            layout.rotated,
            job.count,
            job.pages,
        )
    )

    def on_place(card: Any, page: int, side: str, slot: Any) -> None:
        manifest.placements.append(
            sheet_manifest.Placement(card.id, card.type, page, side, slot.trim, slot.rotation)
        )

    info = DocInfo(
        title=f"{g.titles()} v{g.version} · helpers",
        language=g.language,
        date=date[:10],
        font=fonts.regular,
    )
    with pdf_canvas.atomic_output(path) as fh:
        manifest.pages = write_card_sheets(fh, [job], sheet_opts, renderer, info, on_place)
    notes = list(layout.warnings)
    if hs.size_provisional:
        notes.append(
            f"helper cards take the size of card type '{hs.size_type}', "
            f"{hs.width_mm:g}×{hs.height_mm:g} mm, a provisional size"
        )
    manifest.warnings = notes + renderer.warnings()
    return manifest, hs


def _output_path(output: str | None, game: str, paper: str, root: Path) -> Path:
    name = default_path(game, paper)
    if output:
        p = Path(output)
        return p if p.suffix.lower() == ".pdf" else p / name.name
    return root / name.relative_to("output")

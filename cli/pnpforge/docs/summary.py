"""Rulebook summaries: one Jinja2 template, two outputs (Markdown and a typeset PDF).

The template (templates/GAME/summary.md.j2, else templates/_shared/) writes the
Markdown subset of docs.markup; `--format md` prints that, and the PDF is set
from the same blocks with reportlab's platypus, so both always say the same.

The PDF is typeset by docs.summary_pdf.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils

from pnpforge.docs import context, markup
from pnpforge.docs.changelog import changelog_markdown
from pnpforge.errors import PnpError
from pnpforge.outfile import write_bytes
from pnpforge.render.units import MM as MM  # re-exported: page geometry of the summary
from pnpforge.store import repo
from pnpforge.store.location import output_root

FORMATS = ("pdf", "md")
MAX_PAGES = 4
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # summary page sizes, width x height


@dataclass
class SummaryResult:
    """What was written: for messages and for the kit's manifest."""

    path: Path
    format: str
    pages: int = 0
    bytes: int = 0
    warnings: list[str] = field(default_factory=list)


# ---- content -------------------------------------------------------------------------


def summary_markdown(db: sqlite_utils.Database, game: str, root: Path | None = None) -> str:
    """The summary as Markdown (normalised through the block parser)."""
    root = root or context.templates_dir(db)
    ctx = context.build_context(db, game, root=root)
    text = context.render(context.pick_template(game, "summary.md.j2", root), ctx, root)
    text += changelog_markdown(db, game)  # the releases' page, when there are changes
    return markup.to_markdown(markup.parse(text))


def default_path(game: str, fmt: str, paper: str) -> Path:
    suffix = "md" if fmt == "md" else "pdf"
    name = f"{game}-rules.md" if fmt == "md" else f"{game}-rules-{paper}.{suffix}"
    return Path("output") / game / name


def write_summary(
    db: sqlite_utils.Database,
    game: str,
    *,
    fmt: str = "pdf",
    paper: str = "a4",
    output: str | os.PathLike | None = None,
    root: Path | None = None,
) -> SummaryResult:
    """Write the summary (PDF or Markdown) and return where and how long it is."""
    if fmt not in FORMATS:
        raise PnpError(f"unknown --format '{fmt}' (allowed: {', '.join(FORMATS)})")
    if paper not in PAPERS_MM:
        raise PnpError(f"unknown paper '{paper}' (allowed: {', '.join(PAPERS_MM)})")
    path = Path(output) if output else output_root(db) / default_path(game, fmt, paper).relative_to("output")
    if output and path.is_dir():
        path = path / default_path(game, fmt, paper).name
    root = root or context.templates_dir(db)
    md = summary_markdown(db, game, root)
    if fmt == "md":
        data = md.encode("utf-8")
        write_bytes(path, data)  # atomic: a failure leaves the old file
        return SummaryResult(path, fmt, pages=0, bytes=len(data))

    from pnpforge.docs.summary_pdf import typeset  # reportlab: the Markdown summary never loads it

    g = repo.get_game(db, game)
    accent = context.accent_colour(db, game)
    data, pages = typeset(
        markup.parse(md),
        g,
        context.stamp_date(db, game),
        PAPERS_MM[paper],
        context.labels(g.language, root),
        accent,
    )
    write_bytes(path, data)  # atomic: a failure leaves the old file
    res = SummaryResult(path, fmt, pages=pages, bytes=len(data))
    if pages > MAX_PAGES:
        res.warnings.append(
            f"the {game} summary runs to {pages} pages (aim: at most {MAX_PAGES}); "
            "shorten the rule sections or the glossary"
        )
    return res

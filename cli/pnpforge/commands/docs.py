"""`pnp helpers`, `pnp rules`, `pnp build`: player aids, rulebook summaries, whole kits.

Thin: options are parsed here, the work happens behind the library API (imported
inside the functions, so `pnp --help` never loads it or reportlab).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

import typer

from pnpforge.commands._common import (
    BACKS,
    BLEED,
    FLIP,
    GAP,
    LANG,
    MARKS,
    OFFSET,
    PAPER,
    echo_json,
    echo_sheet_footer,
    handled,
    project,
)

_HELPERS_HELP = (
    "Write player-aid cards for GAME: the rulebook's own aids in its quantities (one per player "
    "with --players N) plus pnpforge's reference cards, at the game's card size, on the same "
    "sheets as `pnp print` (bleed, crop marks, duplex backs).\n\n"
    "Content comes from the database (rule sections, glossary, components, cards) through the "
    "Jinja2 templates in templates/GAME/helpers/ (helpers.toml lists the aids). Material too "
    "long for one card continues on further cards instead of shrinking below 6 pt."
)

_BUILD_HELP = (
    "Build the whole print-and-play kit of GAME (or --all) into output/GAME/: card sheets with "
    "backs, helper cards, the rulebook summary (PDF and Markdown), card images, Tabletop "
    "Simulator sheets and manifest.json (every file's size, pages, cards and sha256, plus the "
    "hash of the database content it was built from).\n\n"
    "--shop P adds the files of print shop P (mpc, tgc, drivethru; see `pnp shop`) in "
    "shop/P/, after a clean preflight; --cut M adds the print-then-cut PDF and cut files of "
    "machine M (silhouette, cricut; see `pnp cut`) on --paper in cut/M/; both are listed in "
    "the manifest.\n\n"
    "Each game is built in a temporary folder and swapped in only when every step succeeded, "
    "so a failed build leaves the previous kit intact. A kit whose inputs (the game's data, "
    "templates, art, options and pnpforge itself) have not changed since it was built is left "
    "untouched and reported as unchanged; --force rebuilds it."
)


def helpers_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    players: int | None = typer.Option(
        None, "--players", "-p", min=1, help="Players: one copy per player of per-player aids."
    ),
    paper: str = PAPER,
    bleed: float = BLEED,
    gap: float = GAP,
    marks: bool = MARKS,
    backs: str = BACKS,
    flip: str = FLIP,
    offset: str | None = OFFSET,
    one_each: bool = typer.Option(False, "--one-each", help="One copy of every helper card (proofing)."),
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="PATH", help="PDF file or directory (default output/GAME/)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the aids and the sheet manifest as JSON."),
    lang: str | None = LANG,
) -> None:
    """Player-aid cards (help text: _HELPERS_HELP)."""
    from pnpforge.api import PrintOptions, parse_offset  # the library stays off `pnp --help` start-up

    with handled():
        opts = PrintOptions(
            paper=paper,
            bleed=bleed,
            gap=gap,
            marks=marks,
            backs=backs,
            flip=flip,
            offset=parse_offset(offset),
            output=output,
        )
        manifest, hs = project(readonly=True).print_helpers(
            game, opts, players=players, one_each=one_each, lang=lang
        )
    aids = [
        {
            "id": a.spec.id,
            "title": a.title,
            "title_en": a.title_en,
            "copies": a.quantity,
            "quantity_from": a.source,
            "cards_per_copy": a.cards_per_set,
            "min_text_pt": a.size_pt,
        }
        for a in hs.aids
    ]
    if as_json:
        echo_json({"aids": aids, "size_mm": [hs.width_mm, hs.height_mm], "sheets": manifest.to_dict()})
        return
    typer.echo(f"Wrote {manifest.path}")
    typer.echo(
        f"  {manifest.pages} pages on {manifest.paper}, {manifest.cards} helper cards at "
        f"{hs.width_mm:g}×{hs.height_mm:g} mm"
    )
    for a in aids:
        cards = "1 card" if a["cards_per_copy"] == 1 else f"{a['cards_per_copy']} cards"
        typer.echo(
            f"  {a['title']}: ×{a['copies']} ({a['quantity_from']}), {cards} each, "
            f"text ≥ {a['min_text_pt']:g} pt"
        )
    echo_sheet_footer(manifest.warnings)


def rules_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    fmt: str = typer.Option("pdf", "--format", "-f", help="pdf or md."),
    paper: str = typer.Option("a4", "--paper", help="Paper size: a4 or letter (PDF)."),
    output: str | None = typer.Option(
        None, "-o", "--output", metavar="PATH", help="File, directory, or - for standard output (md)."
    ),
    lang: str | None = LANG,
) -> None:
    """Rulebook summary (1-4 pages): components counted from the cards, setup, turn, actions, end, scoring, variants, FAQ."""  # noqa: E501
    if output == "-" and fmt != "md":
        raise typer.BadParameter("only --format md can go to standard output", param_hint="-o")
    with handled():
        if output == "-":
            sys.stdout.write(project(readonly=True).summary_markdown(game, lang=lang))
            return
        res = project(readonly=True).write_summary(game, fmt=fmt, paper=paper, output=output, lang=lang)
    pages = f", {res.pages} page{'' if res.pages == 1 else 's'}" if res.pages else ""
    typer.echo(f"Wrote {res.path} ({res.bytes:,} bytes{pages})")
    for w in res.warnings:
        typer.echo(f"Warning: {w}", err=True)


def build_cmd(
    game: str | None = typer.Argument(None, help="Game slug (or use --all)."),
    all_games: bool = typer.Option(False, "--all", help="Every game in the database."),
    output: str | None = typer.Option(
        None,
        "-o",
        "--output",
        metavar="DIR",
        help="Where the kits go, one folder per game (default: output/ beside the database).",
    ),
    paper: str = PAPER,
    bleed: float = BLEED,
    backs: str = BACKS,
    flip: str = FLIP,
    offset: str | None = OFFSET,
    dpi: int = typer.Option(300, "--dpi", help="Resolution of the card images (30-1200)."),
    players: int | None = typer.Option(
        None,
        "--players",
        "-p",
        min=1,
        help="Print per-player aids for N players (every game built must allow N).",
    ),
    shop: str | None = typer.Option(
        None, "--shop", metavar="PROFILE", help="Add print-shop files: mpc, tgc or drivethru."
    ),
    cut: str | None = typer.Option(
        None, "--cut", metavar="MACHINE", help="Add print-then-cut files: silhouette or cricut."
    ),
    jobs: int = typer.Option(0, "--jobs", "-j", min=0, help="Games built at once (0: one per CPU core)."),
    force: bool = typer.Option(
        False, "--force", help="Rebuild every kit, even one whose inputs have not changed."
    ),
    progress: bool = typer.Option(
        True, "--progress/--no-progress", help="Show a progress bar on standard error."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the kits as JSON."),
    lang: str | None = LANG,
) -> None:
    """Whole print-and-play kits (help text: _BUILD_HELP)."""
    from pnpforge.api import BuildOptions, parse_offset  # the library stays off `pnp --help` start-up

    with handled():
        if bool(game) == all_games:
            raise typer.BadParameter("give one GAME or --all", param_hint="GAME")
        if not 30 <= dpi <= 1200:
            raise typer.BadParameter("must be 30-1200", param_hint="--dpi")
        pnp = project(readonly=True)
        games = [g.slug for g in pnp.games()] if all_games else [pnp.game(str(game)).slug]
        for slug in games:
            g = pnp.game(slug)
            if players is not None and not g.players_min <= players <= g.players_max:
                raise typer.BadParameter(
                    f"{slug} is for {g.players_min}–{g.players_max} players", param_hint="--players"
                )
        opts = BuildOptions(
            paper=paper,
            bleed=bleed,
            backs=backs,
            flip=flip,
            offset=parse_offset(offset),
            dpi=dpi,
            players=players,
            shop=shop,
            cut=cut,
        )
        total = len(games) * len(pnp.build_steps(opts))
        lang_warnings: list[str] = []
        with _bar(total, progress and not as_json) as advance:
            kits = pnp.build(
                games, output, opts, jobs, advance, force=force, lang=lang, warn=lang_warnings.append
            )
        for w in lang_warnings:
            typer.echo(f"Warning: {w}", err=True)
    if as_json:
        echo_json([k.to_dict() for k in kits])
        return
    for k in kits:
        typer.echo(
            f"{k.game}: {len(k.files)} files, {k.pages} pages, {k.bytes / 1e6:.1f} MB "
            f"in {k.directory} (database {k.db_hash[:12]})"
            + ("; unchanged, nothing rebuilt (--force rebuilds)" if k.unchanged else "")
        )
    for k in kits:
        if k.unchanged and k.warnings:  # already said when the kit was built; the manifest keeps them
            typer.echo(f"  {k.game}: {len(k.warnings)} warning(s) as before (manifest.json lists them)")
            continue
        for w in k.warnings:
            typer.echo(f"Warning: {w}", err=True)


@contextlib.contextmanager
def _bar(total: int, show: bool) -> Iterator[Callable[[str, str], None]]:
    """A progress bar on stderr that advances once per finished build step."""
    if not show:
        yield lambda game, step: None
        return
    with typer.progressbar(
        length=total, label="Building kits", file=sys.stderr, show_pos=True, item_show_func=lambda s: s
    ) as bar:

        def advance(game: str, step: str) -> None:
            bar.current_item = f"{game}: {step}"
            bar.update(1)

        yield advance


def register(app: typer.Typer) -> None:
    app.command("helpers", help=_HELPERS_HELP)(helpers_cmd)
    app.command("rules")(rules_cmd)
    app.command("build", help=_BUILD_HELP)(build_cmd)

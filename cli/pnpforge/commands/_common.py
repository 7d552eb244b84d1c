"""What every command shares: the database path, error handling, output formats."""

from __future__ import annotations

import contextlib
import errno
import json
import sqlite3
import sys
import unicodedata
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click
import typer

from pnpforge.errors import PnpError

if TYPE_CHECKING:
    from pnpforge.api import Database, Project


LANG = typer.Option(
    None,
    "--lang",
    "-l",
    metavar="LANG",
    help="Print in this language (en, …) from the game's translations, into output/GAME-LANG/ "
    "(default: the game's own language).",
)


def set_db_path(path: str | None) -> None:
    """Remember `pnp --db PATH` on the command line's root context, for every sub-command."""
    click.get_current_context().find_root().meta["pnpforge.db"] = path


def db_path() -> str | None:
    """The --db given to this command line (None: $PNP_DB, else ./cards.db)."""
    ctx = click.get_current_context(silent=True)
    return ctx.find_root().meta.get("pnpforge.db") if ctx is not None else None


def project(*, create: bool = False, readonly: bool = False, scratch: bool = False) -> Project:
    """The project --db names, opened through the library API."""
    from pnpforge.api import Project  # the library (sqlite-utils) stays off `pnp --help` start-up

    return Project.open(db_path(), create=create, readonly=readonly, scratch=scratch)


def open_db(*, create: bool = False, readonly: bool = False, scratch: bool = False) -> Database:
    """The database handle of `project()`, for commands that call the render and docs stages."""
    return project(create=create, readonly=readonly, scratch=scratch).db


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """PnpError → message on stderr and its exit code; never a traceback.

    SQLite errors that surface mid-command (a page found damaged while reading,
    a lock) and OS errors (a missing folder, a full disk) are a user's
    situation too, not a bug: one line naming the database or the path.
    """
    try:
        yield
    except PnpError as exc:
        _fail(str(exc), exc.exit_code)
    except sqlite3.DatabaseError as exc:
        from pnpforge.store.db import describe_error, is_situation, resolve_path  # only on an error

        if not is_situation(exc):
            raise  # a mistake in pnpforge's own SQL: keep the traceback
        _fail(describe_error(resolve_path(db_path()), exc), 2)
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise  # stdout closed by the reader (`pnp games | head`): Typer ends silently
        _fail(os_error_message(exc), 2)


@contextlib.contextmanager
def in_language(games: list[str], lang: str | None) -> Iterator[tuple[Any, list[str]]]:
    """(database, slugs) to print `games` in `lang`: the original database, or a language
    edition (`Project.in_language`) that lives for the block; its warnings go to stderr."""
    with project(readonly=True).in_language(games, lang) as (edition, slugs, warnings):
        for w in warnings:
            typer.echo(f"Warning: {w}", err=True)
        yield edition.db, slugs


def os_error_message(exc: OSError) -> str:
    """'cannot write PATH: reason' from an OSError, naming the path it concerns."""
    where = exc.filename if exc.filename is not None else "a file"
    reason = exc.strerror or str(exc)
    if exc.filename2 is not None:
        where = f"{where} → {exc.filename2}"
    return f"{where}: {reason}"


def _fail(message: str, code: int) -> None:
    """One error line on stderr; with the command's --json, `{"error": ...}` on stdout instead."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.params.get("as_json"):
        echo_json({"error": message})
    else:
        typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code) from None


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def width(s: str) -> int:
    """Display width: CJK characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _fit(s: str, w: int) -> str:
    if width(s) <= w:
        return s + " " * (w - width(s))
    out = ""
    for ch in s:
        if width(out + ch) > w - 1:
            break
        out += ch
    return out + "…" + " " * (w - 1 - width(out))


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], max_col: int = 40) -> str:
    """A plain aligned text table that keeps CJK columns straight."""
    cells = [[("" if v is None else str(v)).replace("\n", " ") for v in r] for r in rows]
    widths = [min(max_col, max([width(h)] + [width(r[i]) for r in cells])) for i, h in enumerate(headers)]
    lines = [
        "  ".join(_fit(h, w) for h, w in zip(headers, widths, strict=False)).rstrip(),
        "  ".join("─" * w for w in widths),
    ]
    lines += ["  ".join(_fit(c, w) for c, w in zip(r, widths, strict=False)).rstrip() for r in cells]
    return "\n".join(lines)


def echo_problems(problems: Sequence[object], title: str = "") -> None:
    """Deck-level problems shown after an edit: informative, not blocking."""
    if not problems:
        return
    if title:
        typer.echo(title, err=True)
    for p in problems:
        typer.echo(f"  {p}", err=True)


def is_tty() -> bool:
    return sys.stdout.isatty()


def echo_sheet_footer(warnings: list[str]) -> None:
    """What every printed sheet's summary ends with: the 100 % reminder, then warnings."""
    typer.echo("  Print at 100 % / actual size and check the 10 mm bar on the page.")
    for w in warnings:
        typer.echo(f"Warning: {w}", err=True)


# Sheet options shared by `print`, `helpers` and `build`: one declaration, one default, one help.
PAPER = typer.Option("a4", "--paper", help="Paper size: a4 or letter.")
BLEED = typer.Option(3.0, "--bleed", help="Bleed in mm past the cut line (0-10).")
GAP = typer.Option(0.0, "--gap", help="Space between cards in mm (>= 0).")
MARKS = typer.Option(True, "--marks/--no-marks", help="Crop marks in the margins.")
BACKS = typer.Option("duplex", "--backs", help="duplex, separate or none.")
FLIP = typer.Option("long", "--flip", help="Duplex flip edge: long or short.")
OFFSET = typer.Option(
    None, "--offset", metavar="X,Y", help="Shift back pages by X,Y mm (from `pnp print calibration`)."
)
# `cards set`, `import` and `game import`: an edit that fixes the transcription keeps the rulebook provenance.
CORRECTION = typer.Option(
    None,
    "--correction",
    metavar="REASON",
    help="The changes fix transcription errors: keep the rulebook provenance, record REASON.",
)


def echo_files(result: Any, as_json: bool, headline: str) -> None:
    """What an output command wrote (a result with `files`, `directory`, `warnings`): its JSON,
    or a headline and the first files, with warnings on stderr."""
    if as_json:
        echo_json(result.to_dict())
        return
    typer.echo(f"Wrote {headline} in {result.directory}")
    shown = result.files if len(result.files) <= 12 else result.files[:10]
    for f in shown:
        typer.echo(f"  {f}")
    if len(shown) < len(result.files):
        typer.echo(f"  … and {len(result.files) - len(shown)} more")
    for w in result.warnings:
        typer.echo(f"Warning: {w}", err=True)

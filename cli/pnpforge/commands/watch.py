"""`pnp watch`: rebuild on every change of the cards, layouts or art, with a live preview page.

Parse the options, take a watcher and a preview server from the library API, say what each build did.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pnpforge.commands._common import LANG, handled, project

if TYPE_CHECKING:
    from pnpforge.design.watch import BuildResult


def watch_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    what: str = typer.Option("proof", "--what", help="proof (contact sheet), print (the PDF) or images."),
    output: Path | None = typer.Option(
        None,
        "-o",
        "--output",
        metavar="DIR",
        help="Folder for the rebuilt files (default output/GAME/watch/).",
    ),
    serve: bool = typer.Option(True, "--serve/--no-serve", help="Serve a preview page on 127.0.0.1."),
    port: int = typer.Option(8765, "--port", help="Preview port (0: any free port)."),
    interval: float = typer.Option(0.2, "--interval", help="Seconds between checks for changes (0.05-10)."),
    debounce: float = typer.Option(
        0.25, "--debounce", help="Seconds a change must be quiet before a rebuild."
    ),
    lang: str | None = LANG,
) -> None:
    """Rebuild a proof, print PDF or images whenever cards.db, the game's layouts or its art change.

    Stop with Ctrl-C.
    """
    with handled():
        pnp = project(readonly=True)
        watcher = pnp.watch(game, _echo_build, what, output, interval, debounce, lang)
        pnp.db.conn.close()  # the watcher opens the database afresh for every build
        _stop_on_signals()
        server = pnp.preview_server(watcher, port) if serve else None
        try:
            typer.echo(f"watching {game} ({what}) → {watcher.opts.out_dir()}; Ctrl-C stops")
            watcher.first_build()
            if server is not None:
                server.start()
                typer.echo(f"preview: {server.url}")
            watcher.run()
        except KeyboardInterrupt:
            pass
        finally:
            if server is not None:
                server.stop()
        typer.echo(f"stopped after {watcher.builds} build(s)")


def _stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and SIGTERM end the loop cleanly, even when started in the background.

    A shell starts background jobs with SIGINT ignored, which Python would keep.
    """
    import signal  # the library stays off `pnp --help` start-up

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)


def _echo_build(result: BuildResult) -> None:
    clock = time.strftime("%H:%M:%S", time.localtime(result.at))
    if not result.ok:
        typer.echo(f"[{clock}] build {result.number} failed ({result.reason}): {result.error}", err=True)
        return
    problems = f"; {len(result.problems)} validation problem(s)" if result.problems else ""
    typer.echo(
        f"[{clock}] build {result.number}: {len(result.files)} file(s) in {result.seconds:.2f} s "
        f"({result.reason}){problems}"
    )
    for p in result.problems[:5]:
        typer.echo(f"  {p}", err=True)


def register(app: typer.Typer) -> None:
    app.command("watch")(watch_cmd)

"""`pnp watch`: rebuild on every change of the cards, layouts or art, with a live preview page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer

from pnpforge.commands._common import LANG, db_path, handled


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
    from pnpforge.design.watch import Watcher, WatchOptions
    from pnpforge.errors import PnpError
    from pnpforge.store.db import resolve_path

    with handled():
        if not 0.05 <= interval <= 10 or not 0 <= debounce <= 60:
            raise PnpError("--interval must be 0.05-10 s and --debounce 0-60 s")
        _known_game(game)  # a misspelt game fails at once, like every other command
        opts = WatchOptions(resolve_path(db_path()), game, what, output, interval, debounce, lang)
        watcher = Watcher(opts, _echo_build)
        _stop_on_signals()
        server = _server(watcher, opts, port) if serve else None
        try:
            typer.echo(f"watching {game} ({what}) → {opts.out_dir()}; Ctrl-C stops")
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


def _known_game(game: str) -> None:
    from pnpforge.commands._common import open_db
    from pnpforge.store import repo

    db = open_db(readonly=True)
    try:
        repo.get_game(db, game)
    finally:
        db.conn.close()


def _stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and SIGTERM end the loop cleanly, even when started in the background.

    A shell starts background jobs with SIGINT ignored, which Python would keep.
    """
    import signal

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)


def _server(watcher: Any, opts: Any, port: int) -> Any:
    from pnpforge.design.preview import PreviewServer

    return PreviewServer(
        f"{opts.game} · {opts.what}",
        opts.out_dir(),
        lambda: watcher.last.to_dict() if watcher.last else {},
        port,
    )


def _echo_build(result: Any) -> None:
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

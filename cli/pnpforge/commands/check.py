"""`pnp check GAME`: composition against the rulebook, then seeded sample games."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from pnpforge.commands._common import db_path, echo_json, handled, table


def _options(mission: Optional[str], option: list[str]) -> dict:
    out: dict = {}
    for item in option:
        key, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"expected key=value, got '{item}'", param_hint="--option")
        out[key] = {"true": True, "false": False}.get(value.lower(), value)
    if mission:
        out["mission"] = mission
    return out


def check_cmd(game: str = typer.Argument(..., help="Game slug."),
              games: int = typer.Option(100, "--games", "-n", min=0, help="Sample games to play."),
              seed: int = typer.Option(1, "--seed", help="Seed of the first game (game i uses seed+i)."),
              players: Optional[int] = typer.Option(None, "--players", "-p",
                                                    help="Players per game (default: cycle over all allowed)."),
              agent: str = typer.Option("mixed", "--agent",
                                        help="random, greedy, or mixed (seats alternate, rotated per game)."),
              jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes; results do not depend on it."),
              mission: Optional[str] = typer.Option(None, "--mission", help="Mission id (Infiltraitors)."),
              option: list[str] = typer.Option([], "--option", "-o", help="Engine option key=value (repeatable)."),
              replay: Optional[int] = typer.Option(None, "--replay", help="Replay the game with this seed."),
              verbose: bool = typer.Option(False, "--verbose", "-v", help="With --replay: print the move log."),
              as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Check a deck's composition and play sample games by the rules; exit 1 on any failure."""
    from pnpforge.rules.agents import AGENTS
    from pnpforge.rules.check import CheckOptions, replay as replay_game, run_check
    from pnpforge.store.db import resolve_path
    from pnpforge.store import repo
    with handled():
        if agent not in AGENTS + ("mixed",):
            raise typer.BadParameter(f"'{agent}' (allowed: {', '.join(AGENTS + ('mixed',))})",
                                     param_hint="--agent")
        path = str(resolve_path(db_path()))
        from pnpforge.store.db import open_db
        g = repo.get_game(open_db(path, readonly=True), game)
        if players is not None and not g.players_min <= players <= g.players_max:
            raise typer.BadParameter(f"{game} is for {g.players_min}–{g.players_max} players",
                                     param_hint="--players")
        opts = CheckOptions(games, seed, players, agent, jobs, _options(mission, option))
        if replay is not None:
            res = replay_game(path, game, replay, opts)
            if verbose or not as_json:
                typer.echo("\n".join(res.log))
            status = "completed" if res.completed else f"FAILED: {res.failure}"
            typer.echo(f"seed {res.seed}: {res.players} players {res.agents}, {res.steps} steps, "
                       f"{status}; scores {res.returns}, winners {res.winners}")
            raise typer.Exit(0 if res.completed else 1)
        with typer.progressbar(length=games, label=f"checking {game}", file=sys.stderr,
                               show_pos=True) as bar:
            report = run_check(path, game, opts, progress=bar.update)
        if as_json:
            echo_json(report)
        else:
            _print_report(report)
        raise typer.Exit(0 if report["ok"] else 1)


def _print_report(report: dict) -> None:
    rows = [[("  " if r["parent"] else "") + r["label"], r["expected"], r["actual"],
             "ok" if r["ok"] else "FAIL", "provisional" if r["provisional"] else ""]
            for r in report["composition"]]
    typer.echo(f"Composition of {report['game']}")
    typer.echo(table(["rule", "expected", "actual", "", ""], rows, max_col=50))
    sim = report["simulation"]
    if sim is None:
        typer.echo("\nNo rules engine for this game yet: composition only.")
        return
    typer.echo(f"\nSample games: {sim['completed']}/{sim['games']} completed in {sim['seconds']} s "
               f"({sim['games_per_second']} games/s)")
    for f in sim["failures"][:10]:
        typer.echo(f"  FAILED seed {f['seed']} ({f['players']} players): {f['error']}")
    if len(sim["failures"]) > 10:
        typer.echo(f"  … and {len(sim['failures']) - 10} more failures")
    if sim["unknown_effects"]:
        typer.echo("  unknown effects: " + "; ".join(sim["unknown_effects"]))
    L, S, M = sim["length"], sim["scores"], sim["winning_margin"]
    typer.echo(f"end reasons: {', '.join(f'{k} {v}' for k, v in sim['end_reasons'].items())}")
    typer.echo(f"length (steps): min {L['min']}, median {L['median']}, max {L['max']}")
    typer.echo(f"scores: min {S['min']}, median {S['median']}, max {S['max']}; "
               f"winning margin median {M['median']}")
    typer.echo("win rate by seat: " + ", ".join(f"{k}: {v:.0%}" for k, v in sim["win_rate_by_seat"].items()))
    typer.echo("win rate by agent: " + ", ".join(f"{k}: {v:.0%}" for k, v in sim["win_rate_by_agent"].items()))
    top = list(sim["cards_played"].items())
    if top:
        typer.echo("most played: " + ", ".join(f"{k} {v}" for k, v in top[:8]))
        never = [k for k, v in top if v == 0]
        if never:
            typer.echo("never played: " + ", ".join(never))
    typer.echo("\nreplay a game: pnp check GAME --replay SEED --verbose")


def register(app: typer.Typer) -> None:
    app.command("check")(check_cmd)

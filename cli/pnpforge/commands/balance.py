"""`pnp balance GAME`: an experiment over variants of a deck, played by the engine, with intervals."""

from __future__ import annotations

import typer

from pnpforge.commands._common import echo_json, project
from pnpforge.commands.check import _errors, _options

AGENTS_HELP = (
    "auto (greedy teams in cooperative games, mixed random/greedy tables otherwise), mixed, random, "
    "greedy, search, or a list rotated over the seats game by game: search,greedy"
)


def balance_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    vary: list[str] = typer.Option(
        [], "--vary", help="ID.FIELD=V1,V2 or TYPE.FIELD=*0.8,*1.2 (repeat for a grid)."
    ),
    compare: str | None = typer.Option(None, "--compare", help="Also play the deck of this release."),
    games: int = typer.Option(
        200, "--games", "-n", help="Games per variant (the first round with --until-ci)."
    ),
    until_ci: float | None = typer.Option(
        None, "--until-ci", help="Add games until every headline 95% interval is narrower than this."
    ),
    budget: int = typer.Option(5000, "--budget", help="Most games per variant under --until-ci."),
    seed: int = typer.Option(1, "--seed", help="Seed of the first game (game i uses seed+i, every variant)."),
    players: int | None = typer.Option(None, "--players", "-p", help="Players per game (default: cycle)."),
    agents: str = typer.Option("auto", "--agents", "--agent", help=AGENTS_HELP),
    agent_option: list[str] = typer.Option(
        [],
        "--agent-option",
        help="Search agent option key=value: budget, width, confidence, margin, rollout, horizon.",
    ),
    mission: str | None = typer.Option(None, "--mission", help="Only this mission (cooperative games)."),
    option: list[str] = typer.Option([], "--option", help="Engine option key=value (repeatable)."),
    executor: str = typer.Option("local", "--executor", help="local (process pool) or ray."),
    jobs: int = typer.Option(0, "--jobs", "-j", help="Local worker processes (0: one per core)."),
    address: str | None = typer.Option(None, "--address", help="Ray cluster address (default: a local Ray)."),
    output: str | None = typer.Option(
        None, "--output", "-o", help="Write a self-contained HTML report here."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report (or the error) as JSON."),
) -> None:
    """Play variants of a deck and compare win rates, seats, lengths and cards, with intervals."""
    from pnpforge.balance.executors import ExecutorChoice  # the library stays off `pnp --help` start-up
    from pnpforge.balance.experiment import BalanceOptions

    with _errors(as_json):
        opts = BalanceOptions(
            games=games, seed=seed, players=players, agents=agents, agent_options=_options(agent_option),
            vary=list(vary), compare=compare, options=_options(option), mission=mission,
            until_ci=until_ci, budget=max(budget, games), executor=ExecutorChoice(executor, jobs, address),
        )  # fmt: skip
        progress = None if as_json else (lambda line: typer.echo(line, err=True))
        result = project(readonly=True).balance(game, opts, progress=progress)
        report = result["report"]
        if output:
            from pnpforge.balance.html import page  # the library stays off `pnp --help` start-up
            from pnpforge.outfile import write_text  # kept off `pnp --help` start-up

            write_text(output, page(report))
        if as_json:
            echo_json(report)
        else:
            from pnpforge.balance.text import report_lines  # the library stays off `pnp --help` start-up

            typer.echo("\n".join(report_lines(report)))
            if output:
                typer.echo(f"wrote {output}")
        typer.echo(f"played in {result['seconds']:.2f} s ({executor})", err=True)
        if not report["reached"]:
            typer.echo(
                f"note: --budget {opts.budget} games ran out before every headline interval was "
                f"narrower than {opts.until_ci}",
                err=True,
            )


def register(app: typer.Typer) -> None:
    app.command("balance")(balance_cmd)

"""`pnp check GAME`: static deck findings, then seeded sample games and their balance report."""

from __future__ import annotations

import contextlib
import shlex
import sqlite3
import sys
from collections.abc import Iterator
from typing import Any

import typer

from pnpforge.commands._common import db_path, echo_json, handled, os_error_message, table
from pnpforge.errors import PnpError

AGENTS_HELP = (
    "auto (greedy teams in cooperative games, mixed otherwise), mixed (random and greedy "
    "alternate, rotated over seats), random, greedy, or one agent per seat: greedy,random,greedy"
)


def _options(option: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in option:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise PnpError(f"--option: expected key=value, got '{item}'")
        out[key] = value
    return out


@contextlib.contextmanager
def _errors(as_json: bool) -> Iterator[None]:
    """Errors as one line on stderr, or with --json as a JSON object with an `error` key."""
    if not as_json:
        with handled():
            yield
        return
    try:
        yield
    except PnpError as exc:
        echo_json({"error": str(exc)})
        raise typer.Exit(exc.exit_code) from None
    except sqlite3.DatabaseError as exc:
        from pnpforge.store.db import describe_error, resolve_path

        echo_json({"error": describe_error(resolve_path(db_path()), exc)})
        raise typer.Exit(2) from None
    except OSError as exc:
        echo_json({"error": os_error_message(exc)})
        raise typer.Exit(2) from None


def _command(args: list[str]) -> str:
    """A full shell command line from `pnp` arguments, naming the database when one was chosen."""
    prefix = ["pnp"] + (["--db", str(db_path())] if db_path() else [])
    return shlex.join(prefix + args)


def check_cmd(
    game: str = typer.Argument(..., help="Game slug."),
    games: int = typer.Option(100, "--games", "-n", help="Sample games to play (0 for static checks only)."),
    seed: int = typer.Option(1, "--seed", help="Seed of the first game (game i uses seed+i)."),
    players: int | None = typer.Option(
        None, "--players", "-p", help="Players per game (default: cycle over all allowed)."
    ),
    agents: str = typer.Option("auto", "--agents", "--agent", help=AGENTS_HELP),
    jobs: int = typer.Option(
        0, "--jobs", "-j", help="Worker processes (0: one per CPU core); results do not depend on it."
    ),
    mission: str | None = typer.Option(
        None, "--mission", help="Play only this mission or scenario (cooperative games)."
    ),
    option: list[str] = typer.Option([], "--option", "-o", help="Engine option key=value (repeatable)."),
    replay: int | None = typer.Option(None, "--replay", help="Replay the game with this seed, with its log."),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="With --replay: print the move and event log."
    ),
    strict: bool = typer.Option(
        False,
        "--strict",
        help="Also fail on warnings: strict findings (designed targets, edition changes), never-used "
        "cards, never-won scenarios, and cards used far less than their peers on strong evidence.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report (or the error) as JSON."),
    lang: str | None = typer.Option(
        None,
        "--lang",
        "-l",
        metavar="LANG",
        help="Also report missing and stale LANG translations (errors with --strict) and glossary "
        "terms a translation does not use.",
    ),
) -> None:
    """Check a deck statically and play sample games by the rules; exit 1 on any failure."""
    from pnpforge.rules.check import CheckOptions, replay_args, run_check
    from pnpforge.rules.check import replay as replay_game
    from pnpforge.store.db import resolve_path

    with _errors(as_json):
        path = str(resolve_path(db_path()))
        opts = CheckOptions(games, seed, players, agents, jobs, _options(option), mission, strict)
        if replay is not None:
            planned, res = replay_game(path, game, replay, opts)
            _print_replay(planned, res, _command(replay_args(game, planned, opts)), verbose, as_json)
            raise typer.Exit(0 if res.completed else 1)
        with typer.progressbar(length=games, label=f"checking {game}", file=sys.stderr, show_pos=True) as bar:
            report = run_check(path, game, opts, progress=bar.update)
        if lang is not None:
            _add_language(report, game, lang, strict)
        sim = report["simulation"]
        if sim and "failures" in sim:
            for entry in sim["failures"]:
                entry["replay"] = _command(entry["replay"])
            for entry in sim["never_won"]:
                entry["replay"] = _command(entry["replay"])
            if sim["example_replay"]:
                sim["example_replay"] = _command(sim["example_replay"])
            if sim.get("aimed"):
                sim["aimed"]["replays"] = {c: _command(a) for c, a in sim["aimed"]["replays"].items()}
                for entry in sim["aimed"]["failures"]:
                    entry["replay"] = _command(entry["replay"])
        if as_json:
            echo_json(report)
        else:
            _print_report(report)
        raise typer.Exit(0 if report["ok"] else 1)


def _print_replay(planned: Any, res: Any, command: str, verbose: bool, as_json: bool) -> None:
    if as_json:
        echo_json(
            {
                "seed": res.seed,
                "players": res.players,
                "agents": res.agents,
                "scenario": planned.scenario,
                "completed": res.completed,
                "failure": res.failure,
                "steps": res.steps,
                "returns": res.returns,
                "winners": res.winners,
                "end_reason": res.end_reason,
                "log": res.log if verbose else [],
                "replay": command,
            }
        )
        return
    if verbose:
        typer.echo("\n".join(res.log))
    status = "completed" if res.completed else f"FAILED: {res.failure}"
    scenario = f", mission {planned.scenario}" if planned.scenario else ""
    typer.echo(
        f"seed {res.seed}: {res.players} players ({','.join(res.agents)}){scenario}, {res.steps} steps, "
        f"{status}; scores {res.returns}, winners {res.winners}"
    )
    typer.echo(f"replay: {command}")


def _rates(rates: dict[str, float | None]) -> str:
    return ", ".join(f"{k}: {'–' if v is None else f'{v:.0%}'}" for k, v in rates.items())


def _print_static(report: dict[str, Any]) -> None:
    typer.echo(f"Static checks of {report['game']}")
    rows = [
        [
            ("  " if r["parent"] else "") + r["label"],
            r["expected"],
            r["actual"],
            "ok" if r["ok"] else ("WARN" if r["provisional"] else "FAIL"),
            "designed" if r["provisional"] else "",
        ]
        for r in report["composition"]
    ]
    if rows:
        typer.echo(table(["composition", "expected", "actual", "", ""], rows, max_col=50))
    _print_examples(report.get("examples", []))
    findings = report["findings"]
    for f in findings:
        label = "ERROR" if f["severity"] == "error" or report["strict"] else "warning"
        typer.echo(f"  {label} {f['kind']}: {f['message']}")
    if not findings:
        typer.echo("  no findings: cards valid, composition and constraints hold")
    counts = report.get("declared")
    if counts:
        typer.echo(
            f"  declared checks: {counts['constraints']} constraints, {counts['consistency']} consistency, "
            f"{counts['text_rules']} text rules, {counts['examples']} worked examples"
        )


def _print_examples(examples: list[dict[str, Any]]) -> None:
    """The rulebook's worked examples: what the rulebook gives, what the cards give now."""
    rows = []
    for e in examples:
        keys = e["expected"] or {}
        status = "FAIL" if not e["ok"] else "ok"
        note = e["error"]
        differs = [k for k, v in keys.items() if e["default"] is not None and e["default"].get(k) != v]
        if e["ok"] and differs:
            default = ", ".join(f"{k} {e['default'].get(k)}" for k in differs)
            note = f"engine default: {default}" + (" (conflict recorded)" if e["conflict"] else "")
        rows.append(
            [
                e["label"],
                ", ".join(f"{k} {v}" for k, v in keys.items()),
                ", ".join(f"{k} {e['actual'].get(k, '?')}" for k in keys),
                status,
                note,
            ]
        )
    if rows:
        typer.echo(table(["worked example", "rulebook", "now", "", ""], rows, max_col=40))


MIN_GAMES_FOR_CARD_RATE = 5  # fewer games say nothing about a card's effect on winning


def _print_cards(sim: dict[str, Any]) -> None:
    cards = sim["cards"]
    if not sim["used_types"]:
        typer.echo("cards: the engine declares no used card types, so card use is not checked")
        return
    used = sum(1 for row in cards.values() if row["uses"])
    typer.echo(f"cards used: {used}/{len(cards)} of the types {', '.join(sim['used_types'])}")
    aimed = sim.get("aimed")
    if aimed:
        found = ", ".join(f"{c} (seed {s})" for c, s in aimed["found"].items()) or "none"
        typer.echo(
            f"missed by the planned games: {', '.join(aimed['aimed_at'])}; {aimed['games']} games aimed "
            f"at them (every player count, greedy/random/mixed tables) used {found}"
        )
        for card, line in aimed["replays"].items():
            typer.echo(f"  {card}: {line}")

    def gap(card: str) -> float:
        return abs(_num(cards[card]["win_rate_used"]) - _num(cards[card]["win_rate_not_used"]))

    ranked = sorted(
        (c for c, row in cards.items() if row["games"] >= MIN_GAMES_FOR_CARD_RATE), key=gap, reverse=True
    )
    rows = [
        [
            c,
            cards[c]["uses"],
            cards[c]["games"],
            _pct(cards[c]["win_rate_used"]),
            _pct(cards[c]["win_rate_not_used"]),
        ]
        for c in ranked[:8]
    ]
    if rows:
        typer.echo(
            f"cards whose users win most differently from non-users (used in ≥ {MIN_GAMES_FOR_CARD_RATE} "
            f"games; --json lists every card):"
        )
        typer.echo(table(["card", "uses", "games", "win used", "win not used"], rows, max_col=30))


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _num(value: float | None) -> float:
    return 0.0 if value is None else value


def _print_simulation(sim: dict[str, Any]) -> None:
    if "error" in sim:
        typer.echo(f"\nSample games: not played: {sim['error']}")
        return
    typer.echo(
        f"\nSample games: {sim['completed']}/{sim['games']} completed in {sim['seconds']} s "
        f"({sim['games_per_second']} games/s)"
    )
    for f in sim["failures"][:10]:
        typer.echo(f"  FAILED seed {f['seed']} ({f['players']} players): {f['error']}\n    {f['replay']}")
    if sim["completed"]:
        L, S = sim["length"], sim["scores"]
        typer.echo(f"end reasons: {', '.join(f'{k} {v}' for k, v in sim['end_reasons'].items())}")
        typer.echo(
            f"length (steps): min {L['min']}, median {L['median']}, max {L['max']}; "
            f"scores: min {S['min']}, median {S['median']}, max {S['max']}"
        )
        if sim["cooperative"]:
            typer.echo(
                f"team win rate: {_pct(sim['team_win_rate'])}; by players: "
                f"{_rates(sim['win_rate_by_players'])}"
            )
            if sim["win_rate_by_scenario"]:
                typer.echo("by scenario: " + _rates(sim["win_rate_by_scenario"]))
        else:
            typer.echo(f"winning margin: median {sim['winning_margin']['median']}")
            typer.echo("win rate by seat: " + _rates(sim["win_rate_by_seat"]))
        typer.echo("win rate by agent: " + _rates(sim["win_rate_by_agent"]))
        if sim["win_rate_by_faction"]:
            typer.echo("win rate by faction: " + _rates(sim["win_rate_by_faction"]))
        _print_cards(sim)
    if sim["example_replay"]:
        typer.echo(f"replay a game: {sim['example_replay']}")


def _add_language(report: dict[str, Any], game: str, lang: str, strict: bool) -> None:
    """Translation findings (pnpforge.lang.status) join the report's errors and warnings."""
    from pnpforge.commands._common import open_db
    from pnpforge.lang.status import problems

    found = problems(open_db(readonly=True), game, lang, strict=strict)
    report["translations"] = [p.to_dict() | {"severity": p.severity} for p in found]
    for p in found:
        where = "/".join(x for x in (p.card, p.field) if x)
        (report["errors"] if p.severity == "error" else report["warnings"]).append(
            f"translation: {where}: {p.message}"
        )
    if any(p.severity == "error" for p in found):
        report["ok"] = False


def _print_report(report: dict[str, Any]) -> None:
    _print_static(report)
    sim = report["simulation"]
    if sim is None:
        typer.echo("\nNo rules engine for this game yet: static checks only.")
    else:
        _print_simulation(sim)
    for line in report["warnings"]:
        typer.echo(f"warning: {line}")
    for line in report["errors"]:
        typer.echo(f"FAIL: {line}")
    never_won = sim.get("never_won", []) if sim else []
    for entry in never_won[:5]:
        typer.echo(f"  {entry['scenario']}: {entry['replay']}")
    n_errors = len(report["errors"])
    verdict = "passed" if report["ok"] else f"FAILED ({n_errors} error{'s' if n_errors != 1 else ''})"
    typer.echo(f"\ncheck {verdict}{' (strict)' if report['strict'] else ''}")


def register(app: typer.Typer) -> None:
    app.command("check")(check_cmd)

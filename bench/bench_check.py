"""Rules-checker benchmark: games per second per engine through the runner, beside the bare engine.

Run:  python bench/bench_check.py [--games N] [--runs R] [--only GAME ...] [--rows FILE]

For each game (and accusation's 2v2 mode) the same seeded plan of games is
played four ways, all in this run so the figures share the machine's load:

* bare random: the engine alone with random agents — no observation, no checks;
* runner random: `play_game` with every check on (legality, sortedness, events,
  the engine's invariants each step; conservation and observation purity at
  steps 1, 2, 4, 8… and at the end; the score recomputed by the scoring rules);
* bare greedy: the engine with greedy agents (observations and the greedy hook,
  which greedy play needs) but no checks;
* runner greedy: greedy agents through the runner.

Each figure is the median of `--runs` repetitions, in CPU time of this process
(the machine is shared, so CPU time is the steadier measure) and in wall time.
Then a default `pnp check GAME` as a designer runs it (100 games, default agents: mixed tables,
or greedy teams for cooperative games), in its own process: its wall time (target < 10 s) and the
games/s its report gives, on one worker (`--jobs 1`) and on one per core (the default).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnpforge.rules import runner
from pnpforge.rules.agents import make_agent
from pnpforge.rules.check import CheckOptions, iter_plan
from pnpforge.rules.engine import CHANCE, GameRules
from pnpforge.rules.games import load_rules
from pnpforge.store.db import open_db

ROOT = Path(__file__).resolve().parent.parent
# (label, game slug, engine options)
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("enforcer", "enforcer", {}),
    ("dirty-money", "dirty-money", {}),
    ("hackers", "hackers", {}),
    ("infiltraitors", "infiltraitors", {}),
    ("accusation", "accusation", {}),
    ("accusation 2v2", "accusation", {"mode": "2v2"}),
]

Game = tuple[GameRules, int, int, list[str], dict[str, Any]]  # rules, players, seed, agents, options


def plan(db: Any, slug: str, options: dict[str, Any], agent: str, games: int) -> list[Game]:
    """The games `pnp check` would play with this agent mode, each with its scenario's engine."""
    engines: dict[str | None, GameRules] = {}
    base = load_rules(db, slug, options)
    scenarios: list[str | None] = list(base.scenarios()) if base.info.cooperative else []
    opts = CheckOptions(games=games, seed=1, agent=agent, options=options)
    out: list[Game] = []
    for game in iter_plan(base.info, scenarios or [None], opts):
        game_options = {**options, **({"mission": game.scenario} if game.scenario else {})}
        if game.scenario not in engines:
            engines[game.scenario] = load_rules(db, slug, game_options) if game.scenario else base
        out.append((engines[game.scenario], game.players, game.seed, list(game.agents), game_options))
    return out


def bare_game(rules: GameRules, players: int, seed: int, agents: list[str], options: dict[str, Any]) -> None:
    """The engine alone: legal actions, chance and the agents' choices, no check of any kind.

    Chance and the agents draw from the same seeded generators as in the runner, so these
    are the runner's games move for move and the ratio is the price of the checks alone."""
    rng = random.Random(seed)
    state = rules.new_initial_state(players, rng)
    seats = [make_agent(a, seed, i, rules.greedy_agent_values()) for i, a in enumerate(agents)]
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        if player == CHANCE:
            state.apply(runner.pick_chance(state, rng))  # as the runner picks: the very same games
        elif len(legal) == 1:  # as the runner takes a forced action: no observation, the same draw
            state.apply(seats[player].forced(legal[0]))
        else:
            agent = seats[player]
            state.apply(agent.choose(state.observation(player) if agent.observes else None, legal))


def checked_game(
    rules: GameRules, players: int, seed: int, agents: list[str], options: dict[str, Any]
) -> None:
    result = runner.play_game(rules, players, seed, agents, options=options)
    if not result.completed:
        raise SystemExit(f"{rules.info.slug} seed {seed} failed: {result.failure}")


def rate(play: Callable[..., None], games: list[Game], runs: int) -> tuple[float, float]:
    """Median games per second over `runs` plays of the plan: (CPU time, wall time)."""
    cpu, wall = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        for game in games:
            play(*game)
        cpu.append(len(games) / (time.process_time() - c))
        wall.append(len(games) / (time.perf_counter() - w))
    return statistics.median(cpu), statistics.median(wall)


def check_seconds(
    db_path: str, slug: str, options: dict[str, Any], runs: int, jobs: int = 0
) -> tuple[float, float]:
    """Median wall time of a default `pnp check GAME` (its own process, as a user runs it) and
    the median games/s its report gives for the sample games (mixed or team agents, as by default)."""
    args = [sys.executable, "-m", "pnpforge", "--db", db_path, "check", slug, "--json", "--jobs", str(jobs)]
    for name, value in options.items():
        args += ["-o", f"{name}={value}"]
    walls, rates = [], []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        rates.append(float(json.loads(done.stdout)["simulation"]["games_per_second"]))
    return statistics.median(walls), statistics.median(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=60, help="games per plan (seeds 1..N)")
    ap.add_argument("--runs", type=int, default=3, help="repetitions; the median is reported")
    ap.add_argument("--db", default=str(ROOT / "cards.db"))
    ap.add_argument("--only", nargs="*", help="labels of the configurations to run (default: all)")
    ap.add_argument("--rows", help="also write the README table rows (markdown) to this file")
    args = ap.parse_args()
    db = open_db(args.db, readonly=True)
    header = (
        f"{'game':<15} {'bare rnd':>9} {'runner rnd':>11} {'bare grd':>9} {'runner grd':>11} "
        f"{'(wall rnd/grd)':>15} {'pnp check s':>12} {'check g/s j1':>13} {'check g/s':>10}"
    )
    print(f"games/s, CPU time, median of {args.runs} runs of {args.games} games\n{header}")
    rows = []
    for label, slug, options in CONFIGS:
        if args.only and label not in args.only:
            continue
        random_plan = plan(db, slug, options, "random", args.games)
        greedy_plan = plan(db, slug, options, "greedy", args.games)
        bare_random = rate(bare_game, random_plan, args.runs)
        runner_random = rate(checked_game, random_plan, args.runs)
        bare_greedy = rate(bare_game, greedy_plan, args.runs)
        runner_greedy = rate(checked_game, greedy_plan, args.runs)
        _, one_worker = check_seconds(args.db, slug, options, args.runs, jobs=1)
        seconds, per_core = check_seconds(args.db, slug, options, args.runs)
        walls = f"{runner_random[1]:.0f}/{runner_greedy[1]:.0f}"
        print(
            f"{label:<15} {bare_random[0]:>9.0f} {runner_random[0]:>11.0f} {bare_greedy[0]:>9.0f} "
            f"{runner_greedy[0]:>11.0f} {walls:>15} {seconds:>12.2f} {one_worker:>13.0f} {per_core:>10.0f}",
            flush=True,
        )
        rows.append(
            f"| {label} | {bare_random[0]:.0f} | {runner_random[0]:.0f} | {bare_greedy[0]:.0f} "
            f"| {runner_greedy[0]:.0f} | {one_worker:.0f} | {per_core:.0f} | {seconds:.1f} s |"
        )
    if args.rows:
        head = (
            f"Games per second, CPU time, median of {args.runs} runs of {args.games} seeded games "
            f"(`python bench/bench_check.py --games {args.games} --runs {args.runs}`); the bare engine "
            "plays the very same games with no check:\n\n"
            "| game | bare engine, random | runner, random | bare engine, greedy | runner, greedy "
            "| `pnp check`, 1 worker | `pnp check`, default | `pnp check` wall |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|\n"
        )
        Path(args.rows).write_text(head + "\n".join(rows) + "\n", encoding="utf-8")
        print(f"wrote {args.rows}")


if __name__ == "__main__":
    main()

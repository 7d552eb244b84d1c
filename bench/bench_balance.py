"""Balance-lab benchmark: what a sweep costs, per game and agent, and how it scales.

Run:  python bench/bench_balance.py [--games N] [--search-games N] [--budget B] [--sweep N] [--ray]

* games/s per core: `play_game` (every check on) on one process, CPU time, per game and agent
  (random and greedy tables; a search seat against greedy seats at `--budget`);
* the search agent's cost per decision it searched (CPU ms), and its rollouts per decision;
* a sweep of `--sweep` games (accusation duel, greedy tables, one variant) through the balance lab
  on one worker and on two (the pool's scaling), and with `--ray` through a local Ray on two
  CPUs (twice: starting Ray, then with Ray running); each report is compared with the
  one-worker report (they must be identical).

The machine is shared: CPU times are the steadier figure, wall times are given for the sweeps.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from pnpforge.balance.executors import ExecutorChoice
from pnpforge.balance.experiment import BalanceOptions, run_balance
from pnpforge.rules import search
from pnpforge.rules.games import load_rules
from pnpforge.rules.runner import play_game
from pnpforge.store.db import open_db

DB = Path(__file__).resolve().parent.parent / "cards.db"
GAMES = [
    ("enforcer", 4, {}), ("dirty-money", 3, {}), ("hackers", 3, {}),
    ("infiltraitors", 3, {"mission": "M05"}), ("accusation", 2, {}),
]  # fmt: skip


def _rate(rules: Any, players: int, agents: list[str], games: int, options: dict[str, Any],
          agent_options: dict[str, str] | None = None) -> float:  # fmt: skip
    start = time.process_time()
    for seed in range(games):
        shift = seed % players  # the first agent moves round the table
        seats = agents[-shift:] + agents[:-shift] if shift else agents
        result = play_game(rules, players, 1000 + seed, seats, options=options, agent_options=agent_options)
        assert result.completed, result.failure
    return games / (time.process_time() - start)


class _Timed:
    """Wraps SearchAgent.choose to count searched decisions and their CPU time."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.decisions = 0
        self.rollouts = 0
        self._choose = search.SearchAgent.choose

    def install(self) -> None:
        timed = self

        def choose(agent: search.SearchAgent, obs: Any, legal: Any) -> Any:
            before, rollouts, start = agent.decisions, agent.rollouts, time.process_time()
            action = timed._choose(agent, obs, legal)
            if agent.decisions > before:
                timed.seconds += time.process_time() - start
                timed.decisions += 1
                timed.rollouts += agent.rollouts - rollouts
            return action

        search.SearchAgent.choose = choose  # type: ignore[method-assign]


def per_game(games: int, search_games: int, budget: int) -> list[dict[str, Any]]:
    db = open_db(DB, readonly=True)
    rows = []
    for slug, players, options in GAMES:
        rules = load_rules(db, slug, options)
        timed = _Timed()
        timed.install()
        row = {
            "game": slug,
            "players": players,
            "random": round(_rate(rules, players, ["random"] * players, games, options), 1),
            "greedy": round(_rate(rules, players, ["greedy"] * players, games, options), 1),
        }
        seats = ["search"] + ["greedy"] * (players - 1)
        agent_options = {"budget": str(budget), "width": "3"}
        row["search_vs_greedy"] = round(_rate(rules, players, seats, search_games, options, agent_options), 3)
        search.SearchAgent.choose = timed._choose  # type: ignore[method-assign]
        row["search_ms_per_decision"] = round(1000 * timed.seconds / max(1, timed.decisions), 1)
        row["rollouts_per_decision"] = round(timed.rollouts / max(1, timed.decisions), 1)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def sweep(games: int, with_ray: bool) -> list[dict[str, Any]]:
    rows = []
    reports = {}
    choices = [
        ("pool, 1 worker", ExecutorChoice("local", 1)),
        ("pool, 2 workers", ExecutorChoice("local", 2)),
    ]
    if with_ray:  # the first run starts a local Ray (seconds); the second finds it running
        choices.append(("ray, 2 CPUs, starting Ray", ExecutorChoice("ray", 2)))
        choices.append(("ray, 2 CPUs, Ray running", ExecutorChoice("ray", 2)))
    for label, choice in choices:
        opts = BalanceOptions(games=games, players=2, agents="greedy", executor=choice)
        start_cpu, start = time.process_time(), time.perf_counter()
        out = run_balance(DB, "accusation", opts)
        wall = time.perf_counter() - start
        reports[label] = json.dumps(out["report"], sort_keys=True)
        row = {
            "executor": label, "games": games, "wall_s": round(wall, 2),
            "games_per_s": round(games / wall, 1),
            "identical_to_1_worker": reports[label] == reports["pool, 1 worker"],
            "driver_cpu_s": round(time.process_time() - start_cpu, 2),
        }  # fmt: skip
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game and agent (random, greedy)")
    parser.add_argument("--search-games", type=int, default=2, help="games with a search seat per game")
    parser.add_argument("--budget", type=int, default=4)
    parser.add_argument("--sweep", type=int, default=2000, help="games of the scaling sweep (0: none)")
    parser.add_argument("--ray", action="store_true", help="also run the sweep through a local Ray")
    parser.add_argument("--skip-games", action="store_true", help="only the sweep")
    args = parser.parse_args()
    if not args.skip_games:
        per_game(args.games, args.search_games, args.budget)
    if args.sweep:
        sweep(args.sweep, args.ray)


if __name__ == "__main__":
    main()

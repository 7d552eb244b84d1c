"""Balance-lab benchmark: what a sweep costs, per game and agent, and how it scales.

Run:  python bench/bench_balance.py [--games N] [--search-games N] [--budget B] [--sweep N] [--ray]
                                    [--h2h N] [--jobs J] [--only GAME]

* games/s per core: `play_game` (every check on) on one process, CPU time, per game and agent
  (random and greedy tables; a search seat against greedy seats at `--budget`);
* the search agent's cost per decision it searched (CPU ms), and its rollouts per decision;
* a sweep of `--sweep` games (accusation duel, greedy tables, one variant) through the balance lab
  on one worker and on two (the pool's scaling), and with `--ray` through a local Ray on two
  CPUs (twice: starting Ray, then with Ray running); each report is compared with the
  one-worker report (they must be identical).

* with `--h2h N`: the search agent (`--budget`, width 3) against greedy agents at rotating seats,
  N games of each competitive game through `run_balance` (the same as `pnp balance GAME --agents
  search,greedy[,greedy] -n N --agent-option budget=B --agent-option width=3`), its win rate with
  the 95 % interval against its fair share; and Infiltraitors mission 19, a team of searchers
  against a team of greedy agents.

Each part prints a Markdown table when it ends (and a JSON line per row as it goes).  The machine
may be shared: CPU times are the steadier figure; `uptime`'s load is printed beside the tables.
"""

from __future__ import annotations

import argparse
import json
import os
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

        search.SearchAgent.choose = choose  # type: ignore[method-assign, assignment]


def per_game(games: int, search_games: int, budget: int, only: str | None = None) -> list[dict[str, Any]]:
    db = open_db(DB, readonly=True)
    rows = []
    for slug, players, options in GAMES:
        if only is not None and slug != only:
            continue
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


H2H = [  # (game, seats, engine options, mission)
    ("hackers", "search,greedy", None), ("accusation", "search,greedy", None),
    ("dirty-money", "search,greedy", None), ("enforcer", "search,greedy,greedy", None),
    ("dirty-money", "search,greedy,greedy", None),
]  # fmt: skip


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f}, {five:.1f}, {fifteen:.1f}"


def _table(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n{title} ({_load()})")
    if not rows:
        return
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        print("| " + " | ".join(str(row[k]) for k in keys) + " |")


def _pct(rate: dict[str, float]) -> str:
    return f"{100 * rate['estimate']:.0f} % [{100 * rate['low']:.0f}–{100 * rate['high']:.0f}]"


def head_to_head(games: int, budget: int, jobs: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    options = (("budget", str(budget)), ("width", "3"))
    for slug, seats, _ in H2H:
        players = len(seats.split(","))
        opts = BalanceOptions(
            games=games, agents=seats, agent_options=dict(options), executor=ExecutorChoice("local", jobs)
        )
        start = time.perf_counter()
        report = run_balance(DB, slug, opts)["report"]["variants"][0]
        search, greedy = report["rates"]["agent"]["search"], report["rates"]["agent"]["greedy"]
        rows.append(
            {
                "game": slug, "seats": seats, "games": report["completed"],
                "search win rate [95 %]": _pct(search), "fair share": f"{100 / players:.0f} %",
                "target": f"{120 / players:.0f} %", "greedy (per seat)": _pct(greedy),
                "wall s": round(time.perf_counter() - start, 1),
            }
        )  # fmt: skip
        print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    for agents in ("greedy", "search"):
        opts = BalanceOptions(
            games=games, agents=agents, players=3, mission="M19", agent_options=dict(options),
            executor=ExecutorChoice("local", jobs),
        )  # fmt: skip
        start = time.perf_counter()
        report = run_balance(DB, "infiltraitors", opts)["report"]["variants"][0]
        rows.append(
            {
                "game": "infiltraitors M19", "seats": f"{agents} team of 3", "games": report["completed"],
                "search win rate [95 %]": _pct(report["rates"]["team"]["team"]), "fair share": "-",
                "target": "above the greedy team", "greedy (per seat)": "-",
                "wall s": round(time.perf_counter() - start, 1),
            }
        )  # fmt: skip
        print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    return rows


def sweep(games: int, with_ray: bool) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
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
        row: dict[str, Any] = {
            "executor": label, "games": games, "wall_s": round(wall, 2),
            "games_per_s": round(games / wall, 1),
            "identical_to_1_worker": reports[label] == reports["pool, 1 worker"],
            "driver_cpu_s": round(time.process_time() - start_cpu, 2),
        }  # fmt: skip
        rows.append(row)
        print(json.dumps(row), flush=True)
    one = float(rows[0]["wall_s"])
    for row in rows:
        row["speed-up vs 1 worker"] = round(one / float(row["wall_s"]), 2)
    pool = next(float(r["wall_s"]) for r in rows if r["executor"] == "pool, 2 workers")
    for row in rows:
        row["vs pool, 2 workers"] = f"{100 * (row['wall_s'] / pool - 1):+.0f} %"
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game and agent (random, greedy)")
    parser.add_argument("--search-games", type=int, default=2, help="games with a search seat per game")
    parser.add_argument("--budget", type=int, default=4)
    parser.add_argument("--sweep", type=int, default=2000, help="games of the scaling sweep (0: none)")
    parser.add_argument("--ray", action="store_true", help="also run the sweep through a local Ray")
    parser.add_argument("--skip-games", action="store_true", help="only the sweep")
    parser.add_argument(
        "--h2h", type=int, default=0, help="head-to-head games per competitive game (0: none)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="workers of the head-to-head runs")
    parser.add_argument("--only", help="the per-game table for this game alone (a slug)")
    args = parser.parse_args()
    print(_load(), flush=True)
    if not args.skip_games:
        _table(
            "games per second per core, search cost per decision",
            per_game(args.games, args.search_games, args.budget, args.only),
        )
    if args.h2h:
        _table(
            f"search (budget {args.budget}, width 3) against greedy",
            head_to_head(args.h2h, args.budget, args.jobs),
        )
    if args.sweep:
        _table(f"a {args.sweep}-game sweep (greedy accusation duels)", sweep(args.sweep, args.ray))


if __name__ == "__main__":
    main()

"""Rules-checker benchmark: games per second per engine, medians of several runs.

Run:  python bench/bench_check.py [--games N] [--runs R]

For each game: seeded random-agent games through the runner (every invariant
checked), greedy-agent games through the runner, and — the baseline measured
in the same run — the bare engine playing the same random games with no
checks at all.  The ratio bare/runner is the price of the checking.  Also the
wall time of the default `pnp check GAME` (target: under 10 s per game).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from pnpforge.rules.agents import seat_agents
from pnpforge.rules.check import CheckOptions, game_plan
from pnpforge.rules.engine import CHANCE
from pnpforge.rules.games import load_rules
from pnpforge.rules.runner import play_game
from pnpforge.store.db import open_db

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"]


def bare_game(rules, players: int, seed: int) -> None:
    """The engine alone: random legal actions, no invariant or conservation checks."""
    rng = random.Random(seed)
    state = rules.new_initial_state(players, rng)
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            acts, probs = zip(*state.chance_outcomes())
            state.apply(rng.choices(acts, probs)[0])
        else:
            state.apply(legal[rng.randrange(len(legal))])


def rate(fn, plan, runs: int) -> float:
    """Median games per second over `runs` repetitions of the plan."""
    rates = []
    for _ in range(runs):
        t = time.perf_counter()
        for seed, players, agents in plan:
            fn(seed, players, agents)
        rates.append(len(plan) / (time.perf_counter() - t))
    return statistics.median(rates)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--db", default=str(ROOT / "cards.db"))
    args = ap.parse_args()
    db = open_db(args.db, readonly=True)
    print(f"{'game':<14} {'bare g/s':>9} {'random g/s':>11} {'ratio':>6} {'greedy g/s':>11} "
          f"{'pnp check (s)':>14}")
    for slug in GAMES:
        rules = load_rules(db, slug, {})
        plan = game_plan(rules, CheckOptions(games=args.games, agent="random"))
        bare = rate(lambda s, p, a: bare_game(rules, p, s), plan, args.runs)
        checked = rate(lambda s, p, a: play_game(rules, p, s, a), plan, args.runs)
        greedy_plan = [(s, p, seat_agents("greedy", p, i)) for i, (s, p, _) in enumerate(plan)]
        greedy = rate(lambda s, p, a: play_game(rules, p, s, a), greedy_plan, args.runs)
        walls = []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pnpforge", "--db", args.db, "check", slug],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            walls.append(time.perf_counter() - t)
        print(f"{slug:<14} {bare:>9.1f} {checked:>11.1f} {bare / checked:>5.2f}x {greedy:>11.1f} "
              f"{statistics.median(walls):>14.2f}")


if __name__ == "__main__":
    main()

"""`pnp check` as a library call: composition, sample games, and their report.

Workers rebuild the engine from the database path, so `jobs` changes only the
speed: each game depends on its seed alone and results are sorted by seed.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pnpforge.rules.agents import AGENTS, seat_agents
from pnpforge.rules.runner import GameResult, play_game

AGENT_MODES = AGENTS + ("mixed",)


@dataclass
class CheckOptions:
    games: int = 100
    seed: int = 1
    players: int | None = None
    agent: str = "mixed"
    jobs: int = 1
    options: dict = field(default_factory=dict)


_WORKER: dict = {}


def _rules(db_path: str, slug: str, options: dict):
    key = (db_path, slug, tuple(sorted(options.items())))
    if _WORKER.get("key") != key:
        from pnpforge.rules.games import load_rules
        from pnpforge.store.db import open_db
        _WORKER["rules"] = load_rules(open_db(db_path, readonly=True), slug, options)
        _WORKER["key"] = key
    return _WORKER["rules"]


def game_plan(rules, opts: CheckOptions) -> list[tuple[int, int, list[str]]]:
    """(seed, players, agents) of each game; player counts cycle over what the game allows."""
    info = rules.info
    counts = [opts.players] if opts.players else list(range(info.players_min, info.players_max + 1))
    return [(opts.seed + i, counts[i % len(counts)], seat_agents(opts.agent, counts[i % len(counts)], i))
            for i in range(opts.games)]


def _play(args: tuple) -> GameResult:
    db_path, slug, options, seed, players, agents = args
    return play_game(_rules(db_path, slug, options), players, seed, agents)


def simulate(db_path: str, slug: str, opts: CheckOptions,
             progress: Callable[[int], None] | None = None) -> tuple[list[GameResult], float]:
    """Play the planned games; returns results sorted by seed and the wall time."""
    rules = _rules(db_path, slug, opts.options)
    plan = [(db_path, slug, opts.options, s, p, a) for s, p, a in game_plan(rules, opts)]
    start = time.perf_counter()
    results: list[GameResult] = []
    if opts.jobs <= 1:
        for args in plan:
            results.append(_play(args))
            if progress:
                progress(1)
    else:
        with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
            for r in pool.map(_play, plan, chunksize=max(1, len(plan) // (opts.jobs * 8))):
                results.append(r)
                if progress:
                    progress(1)
    results.sort(key=lambda r: r.seed)
    return results, time.perf_counter() - start


def replay(db_path: str, slug: str, seed: int, opts: CheckOptions) -> GameResult:
    """The game `seed` as the report played it, with its full move log."""
    rules = _rules(db_path, slug, opts.options)
    plan = {s: (p, a) for s, p, a in game_plan(rules, CheckOptions(**{**opts.__dict__,
                                                                      "games": max(opts.games, seed - opts.seed + 1)}))}
    if seed not in plan:
        raise ValueError(f"seed {seed} is not among the planned games")
    players, agents = plan[seed]
    return play_game(rules, players, seed, agents, verbose=True)


def _spread(values: list[float]) -> dict:
    if not values:
        return {"min": None, "median": None, "max": None}
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def summarise(results: list[GameResult], seconds: float, unknown: list[str]) -> dict:
    """The simulation half of the report (JSON-ready)."""
    done = [r for r in results if r.completed]
    seat_wins: Counter = Counter()
    seat_games: Counter = Counter()
    agent_wins: Counter = Counter()
    agent_games: Counter = Counter()
    played: Counter = Counter()
    for r in done:
        played.update(r.played)
        share = 1 / len(r.winners) if r.winners else 0
        for seat, agent in enumerate(r.agents):
            seat_games[seat] += 1
            agent_games[agent] += 1
            if seat in r.winners:
                seat_wins[seat] += share
                agent_wins[agent] += share
    margins = [sorted(r.returns)[-1] - sorted(r.returns)[-2] for r in done if len(r.returns) > 1]
    return {
        "games": len(results),
        "completed": len(done),
        "failures": [{"seed": r.seed, "players": r.players, "agents": r.agents, "error": r.failure}
                     for r in results if not r.completed],
        "end_reasons": dict(sorted(Counter(r.end_reason for r in done).items())),
        "length": _spread([r.steps for r in done]),
        "scores": _spread([s for r in done for s in r.returns]),
        "winning_margin": _spread(margins),
        "win_rate_by_seat": {str(s): round(seat_wins[s] / seat_games[s], 3) for s in sorted(seat_games)},
        "win_rate_by_agent": {a: round(agent_wins[a] / agent_games[a], 3) for a in sorted(agent_games)},
        "cards_played": dict(played.most_common()),
        "unknown_effects": unknown,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 1) if seconds > 0 else None,
    }


def run_check(db_path: str | Path, slug: str, opts: CheckOptions,
              progress: Callable[[int], None] | None = None) -> dict:
    """Composition and simulation report; `ok` is False on any composition error or failed game."""
    from pnpforge.rules.games import has_engine
    from pnpforge.store.db import open_db
    from pnpforge.validate import composition

    db_path = str(db_path)
    db = open_db(db_path, readonly=True)
    comp = [r.to_dict() for r in composition(db, slug)]
    report: dict = {"game": slug, "composition": comp, "simulation": None}
    if has_engine(slug):
        rules = _rules(db_path, slug, opts.options)
        unknown = [str(u) for u in rules.unknown_effects()]
        results, seconds = simulate(db_path, slug, opts, progress)
        report["simulation"] = summarise(results, seconds, unknown)
    sim = report["simulation"]
    report["ok"] = all(r["ok"] for r in comp) and (
        sim is None or (not sim["failures"] and not sim["unknown_effects"]))
    return report

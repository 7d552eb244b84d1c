"""`pnp check` as a library call: static findings, then seeded sample games, and their report.

The plan of games is generated lazily from the options, so a game is fully
described by (seed, players, agents, scenario, options) and can be replayed
from one printed command line.  Workers rebuild the engine from the database
path, so `jobs` changes only the speed, never the report.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.rules import aimed, static
from pnpforge.rules.agents import parse_agents, resolve_mode, rotations, seat_agents
from pnpforge.rules.aimed import AimedRun
from pnpforge.rules.examples import run_examples
from pnpforge.rules.games import has_engine, load_rules
from pnpforge.rules.kit.core import GameInfo
from pnpforge.rules.kit.fields import DeckError
from pnpforge.rules.kit.players import check_players
from pnpforge.rules.runner import GameResult, play_game
from pnpforge.rules.tally import Tally
from pnpforge.rules.usage import low_use
from pnpforge.store import repo
from pnpforge.store.constraints import CONSISTENCY_KINDS, list_constraints
from pnpforge.store.db import open_db
from pnpforge.store.declared import list_examples, list_text_rules
from pnpforge.validate import composition

MAX_GAMES = 100_000
MAX_JOBS = 64
GAMES_PER_WORKER = 50  # with --jobs 0, fewer games than this per core are not worth a worker process


@dataclass
class CheckOptions:
    games: int = 100
    seed: int = 1
    players: int | None = None
    agent: str = "auto"  # a mode (auto, mixed, random, greedy) or one agent per seat: "greedy,random"
    jobs: int = 1  # worker processes; 0: one per CPU core, as many as the games are worth
    options: dict[str, Any] = field(default_factory=dict)  # engine options as given, without the mission
    mission: str | None = None
    strict: bool = False


@dataclass(frozen=True)
class PlannedGame:
    seed: int
    players: int
    agents: tuple[str, ...]
    scenario: str | None


def check_bounds(opts: CheckOptions) -> None:
    """Refuse a run that could not finish or makes no sense, with one line saying why."""
    if not 0 <= opts.games <= MAX_GAMES:
        raise PnpError(
            f"--games {opts.games} is outside 0..{MAX_GAMES} (split a longer run into several with --seed)"
        )
    if not 0 <= opts.jobs <= MAX_JOBS:
        raise PnpError(f"--jobs {opts.jobs} is outside 0..{MAX_JOBS} (0: one per CPU core)")
    if not -(2**62) <= opts.seed <= 2**62:
        raise PnpError(f"--seed {opts.seed} is out of range")


def worker_count(opts: CheckOptions) -> int:
    """The worker processes to play with: `jobs`, or for 0 one per CPU core, but no more than
    one per GAMES_PER_WORKER games (a worker costs a process start and its own engine set-up)."""
    if opts.jobs:
        return opts.jobs
    return max(1, min(os.cpu_count() or 1, opts.games // GAMES_PER_WORKER, MAX_JOBS))


def game_options(opts: CheckOptions, scenario: str | None) -> dict[str, Any]:
    """The engine options of one game: the user's, plus the scenario as `mission`."""
    return {**opts.options, **({"mission": scenario} if scenario is not None else {})}


def _scenarios(rules: Any, opts: CheckOptions) -> list[str | None]:
    if opts.mission is not None:
        return [opts.mission]
    if rules.info.cooperative:
        return list(rules.scenarios()) or [None]
    return [None]


def iter_plan(info: GameInfo, scenarios: list[str | None], opts: CheckOptions) -> Iterator[PlannedGame]:
    """The games of the run, one at a time: scenarios vary fastest, then player counts, then seats."""
    explicit = parse_agents(opts.agent, opts.players)
    players = opts.players if opts.players is not None else (len(explicit) if explicit else None)
    if players is not None:
        check_players(info, players)
    counts = [players] if players is not None else list(range(info.players_min, info.players_max + 1))
    mode = None if explicit else resolve_mode(opts.agent, info.cooperative)
    plan = rotations(counts, len(scenarios))
    for index, (count, scenario, rotation) in zip(range(opts.games), plan, strict=False):
        agents = explicit if explicit else seat_agents(mode or "mixed", count, rotation)
        yield PlannedGame(opts.seed + index, count, tuple(agents), scenarios[scenario])


def game_plan(rules: Any, opts: CheckOptions) -> list[tuple[int, int, list[str]]]:
    """(seed, players, agents) of each game, as a list (benchmarks; the check itself streams)."""
    return [(g.seed, g.players, list(g.agents)) for g in iter_plan(rules.info, _scenarios(rules, opts), opts)]


_WORKER: dict[tuple[Any, ...], Any] = {}


def _rules(db_path: str, slug: str, options: dict[str, Any]) -> Any:
    """The engine for these options, built once per process and option set."""
    stat = os.stat(db_path)  # an edited database is a different deck: never reuse its old engine
    key = (
        db_path,
        stat.st_mtime_ns,
        stat.st_size,
        slug,
        tuple(sorted((k, str(v)) for k, v in options.items())),
    )
    if key not in _WORKER:
        if len(_WORKER) >= 64:  # one per scenario in a run; more means stale databases
            _WORKER.clear()

        _WORKER[key] = load_rules(open_db(db_path, readonly=True), slug, options)
    return _WORKER[key]


def _play(args: tuple[str, str, dict[str, Any], PlannedGame]) -> tuple[PlannedGame, GameResult]:
    db_path, slug, options, game = args
    rules = _rules(db_path, slug, options)
    return game, play_game(rules, game.players, game.seed, list(game.agents), options=options)


def _results(
    db_path: str, slug: str, opts: CheckOptions, plan: Iterator[PlannedGame]
) -> Iterator[tuple[PlannedGame, GameResult]]:
    """Play the plan in this process or in a pool, never holding more than a few games in flight."""
    work = ((db_path, slug, game_options(opts, g.scenario), g) for g in plan)
    workers = worker_count(opts)
    if workers <= 1:
        yield from map(_play, work)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[tuple[PlannedGame, GameResult]]] = set()
        for args in work:
            pending.add(pool.submit(_play, args))
            if len(pending) >= workers * 4:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                yield from (f.result() for f in done)
        for future in pending:
            yield future.result()


@dataclass
class RunStats:
    """What the report needs beyond the tally: failed games' plans, each scenario's first game, time."""

    failed: list[tuple[PlannedGame, str]] = field(default_factory=list)
    firsts: dict[str | None, PlannedGame] = field(default_factory=dict)
    seconds: float = 0.0


def simulate(
    db_path: str,
    slug: str,
    opts: CheckOptions,
    tally: Tally,
    rules: Any,
    progress: Callable[[int], None] | None = None,
) -> RunStats:
    """Play the planned games into `tally`, one at a time."""
    start = time.perf_counter()
    stats = RunStats()
    for game, result in _results(db_path, slug, opts, iter_plan(rules.info, _scenarios(rules, opts), opts)):
        tally.add(result, game.scenario)
        if not result.completed:
            stats.failed.append((game, result.failure or ""))
        first = stats.firsts.get(game.scenario)
        if first is None or game.seed < first.seed:
            stats.firsts[game.scenario] = game
        if progress:
            progress(1)
    stats.failed.sort(key=lambda f: f[0].seed)
    stats.seconds = time.perf_counter() - start
    return stats


def planned_game(rules: Any, seed: int, opts: CheckOptions) -> PlannedGame:
    """The game `seed` of the run these options describe, or the game the options spell out in full."""
    explicit = parse_agents(opts.agent, opts.players)
    if explicit is not None:
        check_players(rules.info, len(explicit))
        scenario = opts.mission if opts.mission is not None else None
        return PlannedGame(seed, len(explicit), tuple(explicit), scenario)
    index = seed - opts.seed
    if not 0 <= index < opts.games:
        last = opts.seed + opts.games - 1
        raise PnpError(
            f"seed {seed} is not in this run's plan (seeds {opts.seed}–{last}); "
            f"give --players and --agents (one per seat) to replay any seed"
        )
    plan = iter_plan(rules.info, _scenarios(rules, opts), opts)
    return next(itertools.islice(plan, index, None))


def replay(db_path: str | Path, slug: str, seed: int, opts: CheckOptions) -> tuple[PlannedGame, GameResult]:
    """One game with its full move and event log, exactly as the report's replay line describes it."""
    check_bounds(opts)
    base = _rules(str(db_path), slug, game_options(opts, opts.mission))
    game = planned_game(base, seed, opts)
    options = game_options(opts, game.scenario)
    rules = _rules(str(db_path), slug, options)
    return game, play_game(rules, game.players, game.seed, list(game.agents), verbose=True, options=options)


def replay_args(slug: str, game: PlannedGame, opts: CheckOptions) -> list[str]:
    """`pnp` arguments that replay `game` from nothing but themselves."""
    args = [
        "check",
        slug,
        "--replay",
        str(game.seed),
        "--players",
        str(game.players),
        "--agents",
        ",".join(game.agents),
    ]
    if game.scenario is not None:
        args += ["--mission", game.scenario]
    for name, value in sorted(opts.options.items()):
        text = str(value).lower() if isinstance(value, bool) else str(value)
        args += ["-o", f"{name}={text}"]
    return args + ["--verbose"]


def _expected_cards(db: sqlite_utils.Database, slug: str, used_types: dict[str, str]) -> dict[str, str]:
    """Id -> type of the cards every run must use: copies > 0 and a type the engine declares as used."""

    return {
        c.id: c.type
        for c in sorted(repo.list_cards(db, slug), key=lambda c: c.id)
        if c.copies > 0 and c.type in used_types
    }


def _unresolved(missed: list[str], counts: Counter[str], types: dict[str, str], games: int) -> list[str]:
    """Cards that still need games: missed and never used yet, or warned and neither strong nor cleared."""
    low = [u.card for u in low_use(counts, types, games) if not u.strong and not u.cleared and counts[u.card]]
    return [c for c in missed if not counts[c]] + low


def _aimed(
    db_path: str, slug: str, opts: CheckOptions, rules: Any, types: dict[str, str], tally: Tally
) -> tuple[AimedRun | None, Counter[str], int]:
    """Play games aimed at the cards the planned games left unresolved; returns the run (None when
    none was needed) and every expected card's games-used count and the completed games, aimed ones
    included."""

    counts: Counter[str] = Counter({c: tally.games_used[c] for c in types})
    games = tally.completed
    missed = [c for c in types if not counts[c]] if games else []
    targets = _unresolved(missed, counts, types, games) if games else []
    if not targets:
        return None, counts, games
    explicit = parse_agents(opts.agent, opts.players)
    players = opts.players if opts.players is not None else (len(explicit) if explicit else None)
    counts_of_players = (
        [players] if players is not None else list(range(rules.info.players_min, rules.info.players_max + 1))
    )
    scenarios = aimed.aimed_scenarios(targets, types, tally.scenario_cards, _scenarios(rules, opts))
    run = AimedRun(list(targets), missed, scenarios=scenarios)
    first = opts.seed + opts.games
    plan = (
        PlannedGame(seed, count, agents, scenario)
        for seed, count, agents, scenario in aimed.plan(
            first, counts_of_players, scenarios, seat_agents, rules.info.cooperative
        )
    )
    pool_opts = CheckOptions(**{**opts.__dict__, "games": aimed.AIMED_GAMES})
    arrived: dict[int, tuple[PlannedGame, GameResult]] = {}
    folded = first  # games below this seed are counted
    for game, result in _results(db_path, slug, pool_opts, plan):
        arrived[game.seed] = (game, result)
        while all(seed in arrived for seed in range(folded, folded + aimed.BATCH)):
            for seed in range(folded, folded + aimed.BATCH):  # a whole batch, in seed order
                games += _fold(run, slug, opts, counts, types, *arrived.pop(seed))
            folded += aimed.BATCH
            if not _unresolved(missed, counts, types, games):
                return run, counts, games  # leaving the loop stops the games still in flight
    return run, counts, games


def _fold(
    run: AimedRun,
    slug: str,
    opts: CheckOptions,
    counts: Counter[str],
    types: dict[str, str],
    game: PlannedGame,
    result: GameResult,
) -> int:
    """Count one aimed game; 1 when it completed (a failed aimed game uses no card)."""
    run.games += 1
    if not result.completed:  # a failed game is a failed game, aimed or planned
        run.failures.append(
            {"seed": game.seed, "error": result.failure, "replay": replay_args(slug, game, opts)}
        )
        return 0
    counts.update(c for c in result.used if c in types)
    for card in run.missed:
        if card not in run.found and result.used.get(card):
            run.found[card] = game.seed
            run.replays[card] = replay_args(slug, game, opts)
    return 1


def _simulation(
    db: sqlite_utils.Database,
    db_path: str,
    slug: str,
    opts: CheckOptions,
    progress: Callable[[int], None] | None,
) -> dict[str, Any]:
    """Sample games and their figures; engine load errors caused by the deck become the report's error."""
    try:
        rules = _rules(db_path, slug, game_options(opts, opts.mission))
    except DeckError as exc:
        return {"error": f"the engine cannot load the deck: {exc}"}
    tally = Tally(cooperative=rules.info.cooperative)
    stats = simulate(db_path, slug, opts, tally, rules, progress)
    firsts = stats.firsts
    types = _expected_cards(db, slug, dict(rules.USED))
    expected = list(types)
    aimed_run, counts, counted_games = _aimed(db_path, slug, opts, rules, types, tally)
    low = [u for u in low_use(counts, types, counted_games) if counts[u.card]]
    out = tally.summary()
    for entry, (game, _error) in zip(out["failures"], stats.failed, strict=False):
        entry["replay"] = replay_args(slug, game, opts)
    played_scenarios = [s for s in _scenarios(rules, opts) if s is not None]
    never_won = [s for s in played_scenarios if out["win_rate_by_scenario"].get(s) == 0]
    out.update(
        {
            "cooperative": rules.info.cooperative,
            "scenarios": played_scenarios,
            "never_won": [
                {"scenario": s, "replay": replay_args(slug, firsts[s], opts)}
                for s in never_won
                if s in firsts
            ],
            "used_types": dict(rules.USED),
            "cards": tally.card_rows(expected),
            "missed_in_plan": aimed_run.missed if aimed_run else [],
            "aimed": aimed_run.to_dict() if aimed_run else None,
            "never_used": aimed_run.still_unused if aimed_run else [],
            "low_use": [u.to_dict() for u in low],
            "unknown_effects": [str(u) for u in rules.unknown_effects()],
            "example_replay": replay_args(slug, firsts[min(firsts, key=lambda s: firsts[s].seed)], opts)
            if firsts
            else None,
            "seconds": round(stats.seconds, 3),
            "games_per_second": round(tally.games / stats.seconds, 1) if stats.seconds > 0 else None,
        }
    )
    return out


def _verdict(report: dict[str, Any], strict: bool) -> tuple[list[str], list[str]]:
    """(errors, warnings): what fails the check, and what fails it only under --strict."""
    errors: list[str] = []
    warnings: list[str] = []
    for f in report["findings"]:
        (errors if f["severity"] == "error" or strict else warnings).append(f"{f['kind']}: {f['message']}")
    sim = report["simulation"]
    if sim is None:
        return errors, warnings
    if "error" in sim:
        return errors + [sim["error"]], warnings
    errors += [f"game seed {f['seed']} failed: {f['error']}" for f in sim["failures"]]
    if sim["failed"] > len(sim["failures"]):
        errors.append(f"… and {sim['failed'] - len(sim['failures'])} more failed games")
    errors += [f"unknown effect: {u}" for u in sim["unknown_effects"]]
    aimed_failures = sim["aimed"]["failures"] if sim.get("aimed") else []
    errors += [f"aimed game seed {f['seed']} failed: {f['error']}" for f in aimed_failures]
    never = sim["never_used"]
    soft = (
        [
            f"{len(never)} card(s) never used in {sim['completed']} games nor in {sim['aimed']['games']} "
            f"games aimed at them: {', '.join(never)}"
        ]
        if never
        else []
    )
    soft += [f"scenario {n['scenario']} was never won" for n in sim["never_won"]]
    soft += [
        f"used far less than its peers (strong evidence): {u['message']}"
        for u in sim["low_use"]
        if u["strong"]
    ]
    (errors if strict else warnings).extend(soft)
    warnings += [f"used far less than its peers: {u['message']}" for u in sim["low_use"] if not u["strong"]]
    return errors, warnings


def declared_counts(db: sqlite_utils.Database, slug: str) -> dict[str, int]:
    """How many declared checks the game holds, so removing one shows in the report."""

    constraints = list_constraints(db, slug)
    return {
        "constraints": sum(c.kind not in CONSISTENCY_KINDS for c in constraints),
        "consistency": sum(c.kind in CONSISTENCY_KINDS for c in constraints),
        "text_rules": len(list_text_rules(db, slug)),
        "examples": len(list_examples(db, slug)),
    }


def run_check(
    db_path: str | Path, slug: str, opts: CheckOptions, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Static findings and sample games; `ok` is False on any error (and, under --strict, any warning)."""

    check_bounds(opts)
    db_path = str(db_path)
    db = open_db(db_path, readonly=True)
    repo.get_game(db, slug)
    report: dict[str, Any] = {
        "game": slug,
        "strict": opts.strict,
        "findings": [f.to_dict() for f in static.static_findings(db, slug)],
        "composition": [r.to_dict() for r in composition(db, slug)],
        "examples": [r.to_dict() for r in run_examples(db, slug, repo.list_cards(db, slug, strict=False))],
        "declared": declared_counts(db, slug),
        "simulation": _simulation(db, db_path, slug, opts, progress) if has_engine(slug, db) else None,
    }
    report["errors"], report["warnings"] = _verdict(report, opts.strict)
    report["ok"] = not report["errors"]
    return report

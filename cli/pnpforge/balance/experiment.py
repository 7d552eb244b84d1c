"""`pnp balance` as a library call: variants of a deck, seeded games for each, figures with intervals.

The database is opened read-only once and copied into memory as bytes; every variant is built
from those bytes in the worker that plays it, so the file on disk is never written.  With
`until_ci` the experiment plays rounds (the first `games`, then doubling) until every headline
interval is narrower than asked or the game budget is spent; rounds are part of the plan, so the
games played never depend on the executor either.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpforge.balance.analysis import VariantGames, analyse, headline
from pnpforge.balance.executors import ExecutorChoice, run_batches
from pnpforge.balance.plan import AgentPlan, batch_size, batches, plan_games
from pnpforge.balance.variants import (
    Variant,
    Vary,
    apply_variant,
    in_memory,
    parse_vary,
    snapshot,
    variant_grid,
)
from pnpforge.errors import PnpError
from pnpforge.rules.games import has_engine, load_rules
from pnpforge.rules.search import check_options
from pnpforge.rules.tally import Tally
from pnpforge.store import repo
from pnpforge.store.db import open_db

MAX_GAMES = 1_000_000


@dataclass
class BalanceOptions:
    games: int = 200  # per variant (the first round with until_ci)
    seed: int = 1
    players: int | None = None
    agents: str = "auto"
    agent_options: dict[str, str] = field(default_factory=dict)
    vary: list[str] = field(default_factory=list)
    compare: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # engine options
    mission: str | None = None
    until_ci: float | None = None  # widest headline interval wanted
    budget: int = 5000  # most games per variant under until_ci
    executor: ExecutorChoice = field(default_factory=ExecutorChoice)

    def check(self) -> None:
        if not 1 <= self.games <= MAX_GAMES:
            raise PnpError(f"--games {self.games} is outside 1..{MAX_GAMES}")
        if self.until_ci is not None and not 0.0 < self.until_ci < 1.0:
            raise PnpError(f"--until-ci {self.until_ci}: a width between 0 and 1 (e.g. 0.1)")
        if not self.games <= self.budget <= MAX_GAMES:
            raise PnpError(
                f"--budget {self.budget} must be at least --games {self.games} and at most {MAX_GAMES}"
            )
        if not -(2**62) <= self.seed <= 2**62:
            raise PnpError(f"--seed {self.seed} is out of range")
        self.executor.check()
        if "search" in self.agents:
            check_options(self.agent_options)
        elif self.agent_options:
            raise PnpError("--agent-option is for the search agent (--agents search,greedy…)")


def _setup(db_path: str, slug: str, opts: BalanceOptions) -> tuple[bytes, Any, list[Vary], list[Variant]]:
    """The deck bytes, the baseline engine, the parsed --vary and the variants (each built once
    here, so a bad value is refused before any game is played)."""

    db = open_db(db_path, readonly=True)
    repo.get_game(db, slug)
    if not has_engine(slug, db):
        raise PnpError(f"no rules engine for game '{slug}': balance needs sample games")
    data = snapshot(db)
    cards = {c.id for c in repo.list_cards(db, slug, strict=False)}
    types = {t.slug for t in repo.card_types(db, slug)}
    varies = [parse_vary(text, cards, types) for text in opts.vary]
    if len({v.label for v in varies}) != len(varies):
        raise PnpError("--vary: the same ID.FIELD is varied twice")
    variants = variant_grid(varies, opts.compare)
    rules = None
    for variant in variants:
        copy = in_memory(data)
        apply_variant(copy, slug, varies, variant)
        engine = load_rules(copy, slug, opts.options)
        rules = rules or engine
    return data, rules, varies, variants


def _scenarios(rules: Any, opts: BalanceOptions) -> list[str | None]:
    if opts.mission is not None:
        return [opts.mission]
    return (list(rules.scenarios()) or [None]) if rules.info.cooperative else [None]


def run_balance(
    db_path: str | Path, slug: str, opts: BalanceOptions, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """The experiment's report (JSON-ready)."""
    opts.check()
    data, rules, varies, variants = _setup(str(db_path), slug, opts)
    digest = hashlib.sha256(data).hexdigest()[:16]
    agents = AgentPlan.parse(opts.agents, opts.agent_options)
    scenarios = _scenarios(rules, opts)
    tallies = [Tally(cooperative=rules.info.cooperative) for _ in variants]
    played, rounds, seconds = 0, [], 0.0
    target = opts.games
    while True:
        games = plan_games(rules.info, scenarios, agents, opts.players, opts.seed, played, target - played)
        size = batch_size(len(games), len(variants), opts.executor.parallelism())
        work = batches(slug, digest, variants, varies, opts.options, agents, games, size)
        start = time.perf_counter()
        results = run_batches(opts.executor, digest, data, work)
        seconds += time.perf_counter() - start
        for index, _game, result in results:
            tallies[index].add(result, _game.scenario)
        played = target
        widest = max(
            (i.width for t, v in zip(tallies, variants, strict=True) for i in headline(_vg(v, t))),
            default=0.0,
        )
        widest = round(widest, 4)  # what the report says, so the progress line and it agree
        rounds.append({"games": played, "widest_headline": widest})
        if progress:
            progress(f"{played} games per variant: widest headline interval {widest:.3f}")
        if opts.until_ci is None or widest < opts.until_ci or played >= opts.budget:
            break
        target = min(opts.budget, played * 2)
    report = analyse([_vg(v, t) for v, t in zip(variants, tallies, strict=True)])
    report.update(
        {
            "game": slug,
            "seed": opts.seed,
            "games_per_variant": played,
            "agents": agents.describe(),
            "agent_options": dict(agents.options),
            "players": opts.players,
            "engine_options": {k: str(v) for k, v in sorted(opts.options.items())},
            "cooperative": rules.info.cooperative,
            "varied": [v.label for v in varies],
            "baseline_values": baseline_values(data, slug, varies),
            "compare": opts.compare,
            "until_ci": opts.until_ci,
            "rounds": rounds,
            "reached": opts.until_ci is None or rounds[-1]["widest_headline"] < opts.until_ci,
        }
    )
    return {"report": report, "seconds": round(seconds, 3)}


def baseline_values(data: bytes, slug: str, varies: list[Vary]) -> dict[str, str]:
    """The value each --vary has in the current deck ('*1' for a scaled type), for the charts' x axis."""

    db = in_memory(data)
    out = {}
    for vary in varies:
        if vary.whole_type:
            if all(v.startswith("*") for v in vary.values):
                out[vary.label] = "*1"
            continue
        card = repo.get_card(db, slug, vary.target)
        value = card.copies if vary.field == "copies" else (card.fields or {}).get(vary.field)
        out[vary.label] = str(value)
    return out


def _vg(variant: Variant, tally: Tally) -> VariantGames:
    return VariantGames(variant.name, variant.settings, variant.release, tally)

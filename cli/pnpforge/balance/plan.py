"""The plan of an experiment: seeded games per variant, cut into batches.

Every variant plays the same seeds with the same seats and agents (common random numbers: a
difference between variants comes from the deck, not from luckier deals), and game `i` of a
variant is a pure function of (deck, variant, seed + i, players, agents, scenario), so the plan —
not the executor nor the number of workers — decides the report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pnpforge.balance.variants import Variant, Vary
from pnpforge.errors import PnpError
from pnpforge.rules.agents import AGENTS, KNOWN_AGENTS, resolve_mode, seat_agents
from pnpforge.rules.check import PlannedGame
from pnpforge.rules.kit.core import GameInfo
from pnpforge.rules.kit.players import check_players

BATCH_GAMES = 25  # games per task when the caller does not size them (see `batch_size`)
TASKS_PER_WORKER = 4  # enough tasks per worker that a slow one leaves no worker idle for long
MAX_BATCH_GAMES = 500  # a task's results stay small to send back


def batch_size(games: int, variants: int, workers: int) -> int:
    """Games per task: about `TASKS_PER_WORKER` tasks per worker over the whole plan.  A task
    costs a round trip and (under Ray) a scheduling step and its arguments' transfer, so a
    2,000-game sweep on two workers makes 8 tasks of 250 games rather than 80 of 25; a few
    search-agent games make tasks of a game or two, so both workers stay busy.  The size never
    changes a result: every game is a pure function of its plan entry."""
    total = max(1, games * variants)
    return max(1, min(MAX_BATCH_GAMES, -(-total // (TASKS_PER_WORKER * max(1, workers) * variants))))


@dataclass(frozen=True)
class AgentPlan:
    """Who plays: a mode (auto, mixed, random, greedy, search), or a list rotated over the seats."""

    mode: str | None
    listed: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()  # --agent-option key=value, for the search agent

    @classmethod
    def parse(cls, text: str, options: dict[str, str]) -> AgentPlan:
        names = [n.strip() for n in text.split(",")]
        if len(names) == 1 and names[0] in ("auto", "mixed", *KNOWN_AGENTS):
            return cls(names[0], (), tuple(sorted(options.items())))
        for name in names:
            if name not in KNOWN_AGENTS:
                raise PnpError(f"--agents: unknown agent '{name}' (allowed: {', '.join(KNOWN_AGENTS)})")
        return cls(None, tuple(names), tuple(sorted(options.items())))

    def describe(self) -> str:
        return self.mode if self.mode else "rotated " + ",".join(self.listed)


@dataclass(frozen=True)
class Batch:
    """Games of one variant that one task plays."""

    slug: str
    deck_digest: str
    variant_index: int
    variant: Variant
    varies: tuple[Vary, ...]
    engine_options: tuple[tuple[str, Any], ...]
    agent_options: tuple[tuple[str, str], ...]
    games: tuple[PlannedGame, ...] = field(default=())


def plan_games(
    info: GameInfo, scenarios: Sequence[str | None], agents: AgentPlan, players: int | None, seed: int,
    start: int, count: int,
) -> list[PlannedGame]:  # fmt: skip
    """Games start … start+count−1 of every variant: scenarios fastest, then player counts, then
    seats (a listed set of agents moves one seat to the left every cycle, so each agent meets
    every seat equally often)."""
    if agents.listed:
        if players is not None and players != len(agents.listed):
            raise PnpError(f"--agents names {len(agents.listed)} agents for {players} players")
        players = len(agents.listed)
    if players is not None:
        check_players(info, players)
    counts = [players] if players is not None else list(range(info.players_min, info.players_max + 1))
    out: list[PlannedGame] = []
    per_cycle = len(scenarios) * len(counts)
    mode = agents.mode
    if mode is not None and mode not in KNOWN_AGENTS:
        mode = resolve_mode(mode, info.cooperative)
    for index in range(start, start + count):
        scenario = scenarios[index % len(scenarios)]
        n = counts[(index // len(scenarios)) % len(counts)]
        cycle = index // per_cycle
        if agents.listed:
            shift = cycle % n
            seats = tuple(agents.listed[(seat + shift) % n] for seat in range(n))
        elif mode in AGENTS or mode == "mixed":
            seats = tuple(seat_agents(mode, n, cycle % len(AGENTS)))
        else:
            seats = tuple([mode or "greedy"] * n)
        out.append(PlannedGame(seed + index, n, seats, scenario))
    return out


def batches(
    slug: str, digest: str, variants: Sequence[Variant], varies: Sequence[Vary], options: dict[str, Any],
    agents: AgentPlan, games: list[PlannedGame], batch_games: int = BATCH_GAMES,
) -> list[Batch]:  # fmt: skip
    """The same games for every variant, in batches of `batch_games`, variant by variant."""
    engine_options = tuple(sorted(options.items()))
    out = []
    for index, variant in enumerate(variants):
        for at in range(0, len(games), batch_games):
            out.append(
                Batch(
                    slug,
                    digest,
                    index,
                    variant,
                    tuple(varies),
                    engine_options,
                    agents.options,
                    tuple(games[at : at + batch_games]),
                )  # fmt: skip
            )
    return out

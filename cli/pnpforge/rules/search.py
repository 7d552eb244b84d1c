"""A search agent: determinized Monte Carlo (perfect-information Monte Carlo over sampled worlds).

At a decision with a real choice the agent asks for `budget` worlds: copies of the position whose
hidden part (other hands, the order and contents of face-down decks) is dealt afresh from what its
seat observes (`State.resample_from_infostate`, after OpenSpiel's `ResampleFromInfostate`).  It
never receives the position itself, only those samples, whose distribution depends on its
observation alone (`tests/test_balance_search.py` checks it: two positions that look the same
to the seat give the same samples).  In each world it tries each candidate action and plays the
game out with greedy play for every seat; a playout's result for its seat is 1 for a win (a
shared win is a fraction) plus a ten-thousandth of its score (which only breaks ties).  Every
candidate is played out in the same world with the same random draws (common random numbers:
the comparison is between the actions, not their luck), and a world whose legal actions differ
from the real decision's (the agent sees those too) is set aside.

The greedy agent's choice is the default: another candidate replaces it only when it wins at
least `margin` more playouts than the greedy choice (default 1: a score that only breaks ties
never overrides the engine's heuristic) and its advantage, summed over the worlds world by world
(a paired comparison), is at least `confidence` times the spread of those differences
(Σd ≥ z·√Σd², a one-sided paired test on few worlds).  Taking the best raw mean of a few noisy
playouts switched away from the greedy choice on luck alone, which cost more than it gained in
long games (Dirty Money, Top Enforcement Officer); the paired rule switches only on a
consistent advantage in wins.

An engine that can value a position not yet over exposes `rules.evaluate(state, seat)` (an
estimate of the seat's share of the win, in [0, 1]) and `rules.playout_horizon`: its playouts stop
after that many steps and take the estimate as their result (Top Enforcement Officer, whose greedy
games run some 300 steps: most of what follows the first few turns is luck unrelated to the
choice compared, and a shorter playout buys more worlds; an estimate counts as that fraction of a
win in the paired rule).  The code names no game; an engine without the hook plays to the end.

Options (`--agent-option key=value`): `budget` (worlds per decision, default 8), `width` (the
candidates tried: the greedy agent's best `width` actions, default 4), `rollout` (`greedy` or
`random` play to the end, default greedy), `confidence` (z of the paired rule, default 1),
`margin` (playouts another candidate must win beyond the greedy choice, default 1; with
`confidence=0 margin=0` the best mean wins), `horizon` (playout steps before the engine's
estimate is asked; default the engine's `playout_horizon`, 0 plays to the end; ignored by an
engine without `evaluate`).  Cost per decision ≈ budget × width rollouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.rules.kit.core import CHANCE
from pnpforge.rules.kit.worlds import NoWorld

Worlds = Callable[[random.Random], Any]  # rng -> a sampled position (a State)

DEFAULTS = {"budget": 8, "width": 4, "margin": 1}
DEFAULT_CONFIDENCE = 1.0
ROLLOUTS = ("greedy", "random")
SCORE_WEIGHT = 1e-4  # a point of score is worth far less than a win: it only breaks ties


def _int_option(options: dict[str, str], name: str, low: int, high: int, default: int | None = None) -> int:
    raw = options.get(name, str(DEFAULTS[name] if default is None else default))
    try:
        value = int(raw)
    except ValueError:
        raise PnpError(f"--agent-option {name}={raw}: expected a whole number") from None
    if not low <= value <= high:
        raise PnpError(f"--agent-option {name}={raw}: expected {low}..{high}")
    return value


def check_options(options: dict[str, str]) -> None:
    """Refuse unknown or out-of-range agent options before any game is played."""
    unknown = sorted(set(options) - {*DEFAULTS, "rollout", "confidence", "horizon"})
    if unknown:
        raise PnpError(
            f"--agent-option {unknown[0]}: unknown "
            "(allowed: budget, width, confidence, margin, rollout, horizon)"
        )
    _int_option(options, "horizon", 0, 1_000_000, default=0)
    _int_option(options, "budget", 1, 10_000)
    _int_option(options, "width", 1, 64)
    _int_option(options, "margin", 0, 10_000)
    _confidence(options)
    if options.get("rollout", "greedy") not in ROLLOUTS:
        raise PnpError(f"--agent-option rollout={options['rollout']}: allowed {', '.join(ROLLOUTS)}")


def _confidence(options: dict[str, str]) -> float:
    raw = options.get("confidence", str(DEFAULT_CONFIDENCE))
    try:
        value = float(raw)
    except ValueError:
        raise PnpError(f"--agent-option confidence={raw}: expected a number") from None
    if not 0 <= value <= 10:
        raise PnpError(f"--agent-option confidence={raw}: expected 0..10")
    return value


class SearchAgent:
    """Plans each real choice by playing sampled worlds to the end (see the module docstring)."""

    name = "search"
    observes = True

    def __init__(self, rng: random.Random, rules: Any, seat: int, options: dict[str, str]) -> None:
        check_options(options)
        self.rng = rng
        self.rules = rules
        self.seat = seat
        self.budget = _int_option(options, "budget", 1, 10_000)
        self.width = _int_option(options, "width", 1, 64)
        self.margin = _int_option(options, "margin", 0, 10_000)
        self.confidence = _confidence(options)
        self.greedy_rollout = options.get("rollout", "greedy") == "greedy"
        # the engine's greedy values with this agent's own memory (kept off the shared rules)
        self.greedy_values = rules.greedy_agent_values()
        # an engine that can value a position not yet over (`rules.evaluate(state, seat)`, a
        # share of the win in [0, 1]) gets truncated playouts: `horizon` steps, then its estimate
        self.evaluate: Callable[[Any, int], float] | None = getattr(rules, "evaluate", None)
        default_horizon = getattr(rules, "playout_horizon", 0) if self.evaluate else 0
        self.horizon = _int_option(options, "horizon", 0, 1_000_000, default=default_horizon)
        if self.evaluate is None:
            self.horizon = 0  # nothing to ask at the horizon: play to the end
        self.worlds: Worlds | None = None
        self.decisions = 0  # real choices searched (for the cost per decision)
        self.rollouts = 0
        self.rejected = 0  # sampled worlds whose legal actions differed from the real choice's

    def bind_worlds(self, worlds: Worlds) -> None:
        """The runner's sampler of worlds for this seat (the agent's only view beyond `obs`)."""
        self.worlds = worlds

    def forced(self, action: Any) -> Any:
        return action

    def choose(self, obs: Any, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        values = self.greedy_values(obs, legal)
        order = sorted(range(len(legal)), key=lambda i: -values[i])
        candidates = [legal[i] for i in order[: self.width]]
        if self.worlds is None or len(candidates) == 1:
            return candidates[0]
        self.decisions += 1
        results: list[list[tuple[float, float]]] = []  # per world kept: each candidate's (win, score)
        for _ in range(self.budget):
            try:
                world = self.worlds(self.rng)
            except NoWorld:  # no consistent world this time (see kit.worlds): the others decide
                continue
            if world.legal_actions() != list(legal):  # the choice itself must look the same
                self.rejected += 1
                continue
            seed = self.rng.random()  # every candidate meets the same luck in this world
            row = []
            for action in candidates:
                trial = world.clone()
                trial.apply(action)
                row.append(self._playout(trial, random.Random(seed)))
            results.append(row)
        return candidates[self._pick(results)]

    def _pick(self, results: list[list[tuple[float, float]]]) -> int:
        """The candidate to play: the greedy choice (index 0) unless another one's paired advantage
        over it is consistent (see the module docstring); the largest such advantage wins."""
        best, best_gain = 0, 0.0
        for index in range(1, len(results[0]) if results else 0):
            won = sum(row[index][0] - row[0][0] for row in results)
            diffs = [
                row[index][0] - row[0][0] + SCORE_WEIGHT * (row[index][1] - row[0][1]) for row in results
            ]
            gain = sum(diffs)
            spread = math.sqrt(sum(d * d for d in diffs))
            if gain > best_gain and won >= self.margin and gain >= self.confidence * spread:
                best, best_gain = index, gain
        return best

    def _playout(self, state: Any, rng: random.Random) -> tuple[float, float]:
        """Play `state` to the end with greedy (or random) seats; (win credit, score) for this seat."""
        self.rollouts += 1
        rules = self.rules
        cap = rules.info.max_steps or 100_000
        horizon = self.horizon or -1  # -1: no step count meets it, play to the end
        steps = 0
        while not state.is_terminal():
            if steps == horizon and self.evaluate is not None:  # (horizon 0: to the end)
                return self.evaluate(state, self.seat), 0.0
            steps += 1
            if steps > cap:
                return 0.0, 0.0
            player = state.current_player()
            legal = state.legal_actions()
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                r, acc, action = rng.random(), 0.0, outcomes[-1][0]
                for candidate, p in outcomes:
                    acc += p
                    if r < acc:
                        action = candidate
                        break
            elif len(legal) == 1 or not self.greedy_rollout:
                action = legal[rng.randrange(len(legal))]
            else:
                scores = self.greedy_values(state.observation(player), legal)
                top = max(scores)
                tied = [i for i, s in enumerate(scores) if s == top]
                action = legal[tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]]
            state.apply(action)
        winners = state.winners()
        credit = 0.0
        if self.seat in winners:
            credit = 1.0 if rules.info.cooperative else 1.0 / len(winners)
        return credit, float(state.returns()[self.seat])

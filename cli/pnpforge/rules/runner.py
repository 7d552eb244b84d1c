"""Plays seeded sample games and checks the engine's invariants at every step.

A game is a pure function of (database, options, players, seed, agents), so a
failure is reproduced by its seed alone, and results do not depend on how
many worker processes played them.
"""

from __future__ import annotations

import random
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Hashable

from pnpforge.rules.agents import make_agent
from pnpforge.rules.engine import CHANCE, TERMINAL, GameRules, RuleViolation, State


@dataclass
class GameResult:
    seed: int
    players: int
    agents: list[str]
    completed: bool = False
    failure: str | None = None
    end_reason: str = ""
    steps: int = 0
    returns: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    played: Counter = field(default_factory=Counter)
    log: list[str] = field(default_factory=list)


def _pick_chance(state: State, rng: random.Random) -> Hashable:
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


def check_zones(state: State, deck: Counter) -> None:
    """Every physical card is in exactly one zone, and they total the database's deck."""
    seen: Counter = Counter()
    for cards in state.zones().values():
        seen.update(cards)
    if seen != deck:
        missing = deck - seen
        extra = seen - deck
        raise RuleViolation(f"card conservation broken: missing {sorted(map(str, missing))[:5]}, "
                            f"extra/duplicated {sorted(map(str, extra))[:5]}")


def _check_step(state: State, legal: list) -> None:
    if not legal:
        raise RuleViolation("non-terminal state with no legal action")
    if any(legal[i] > legal[i + 1] for i in range(len(legal) - 1)):
        raise RuleViolation("legal_actions() is not sorted")


def play_game(rules: GameRules, players: int, seed: int, agents: list[str],
              verbose: bool = False, checker: Callable[[State], None] | None = None) -> GameResult:
    """One game; engine exceptions and broken invariants become a failure, not a crash."""
    result = GameResult(seed, players, agents)
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    seats = [make_agent(a, seed, i) for i, a in enumerate(agents)]
    cap = rules.info.max_steps
    try:
        state = rules.new_initial_state(players, rng)
        step = 0
        while not state.is_terminal():
            if step >= cap:
                raise RuleViolation(f"step cap {cap} reached without the game ending")
            player = state.current_player()
            legal = state.legal_actions()
            _check_step(state, legal)
            if player == CHANCE:
                action = _pick_chance(state, rng)
            else:
                if not 0 <= player < players:
                    raise RuleViolation(f"current_player() returned {player}")
                action = seats[player].choose(state.hidden_view(player), legal)
            if verbose:
                who = "chance" if player == CHANCE else f"seat {player}"
                result.log.append(f"{step:4d} {who}: {state.action_text(action)}")
            state.apply(action)
            step += 1
            state.check_invariants()
            if checker:
                checker(state)
            if step & (step - 1) == 0:
                check_zones(state, deck)
        if state.current_player() != TERMINAL:
            raise RuleViolation("terminal state whose current_player() is not TERMINAL")
        check_zones(state, deck)
        result.returns = list(state.returns())
        recomputed = list(state.scores_from_rules())
        if recomputed != result.returns:
            raise RuleViolation(f"scores {result.returns} differ from the scoring rules' {recomputed}")
        result.winners = state.winners()
        result.end_reason = state.end_reason()
        result.steps = step
        result.played = Counter(state.cards_played())
        result.completed = True
    except Exception as exc:  # noqa: BLE001 - any engine error is a reported failure
        result.failure = f"{type(exc).__name__}: {exc}"
        if verbose:
            result.log.append(traceback.format_exc())
    return result

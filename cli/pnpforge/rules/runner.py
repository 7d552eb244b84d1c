"""Plays one seeded sample game and checks the engine at every step.

A game is a pure function of (database, options, players, seed, agents), so a
failure is reproduced by its seed alone, and results do not depend on how
many worker processes played them.  The runner hands each agent only its
seat's observation; it checks legality, sortedness, conservation, observation
purity, the event log and, at the end, the score against the scoring rules.
"""

from __future__ import annotations

import random
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pnpforge.rules.agents import ValueFn, make_agent
from pnpforge.rules.engine import CHANCE, TERMINAL, GameRules, RuleViolation, State
from pnpforge.rules.kit.events import Event
from pnpforge.rules.kit.purity import check_observation
from pnpforge.rules.kit.zones import conservation_error


@dataclass
class GameResult:
    """One game's outcome and what the report needs from its events."""

    seed: int
    players: int
    agents: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    completed: bool = False
    failure: str | None = None
    end_reason: str = ""
    steps: int = 0
    returns: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    used: Counter[str] = field(default_factory=Counter)  # card id -> times used, all seats
    used_by: dict[int, Counter[str]] = field(default_factory=dict)  # seat -> card id -> times used
    factions: dict[int, str] = field(default_factory=dict)
    eliminated: list[int] = field(default_factory=list)
    event_counts: Counter[str] = field(default_factory=Counter)  # event kind -> how many
    log: list[str] = field(default_factory=list)

    @property
    def played(self) -> Counter[str]:
        """Old name of `used` (play counts per card)."""
        return self.used


@dataclass
class Hooks:
    """How the runner talks to an engine: observation, greedy value, and whether events exist."""

    observe: Callable[[int], Any]
    value: ValueFn
    legacy: bool = False
    legacy_used: Callable[[], list[str]] | None = None


def legacy_hooks(rules: GameRules, state: State) -> Hooks:
    """COMPATIBILITY (delete once every engine implements `observation()` and records events).

    Engines on the old interface expose `hidden_view(seat)` whose result carries
    `greedy_value(action)`, and `cards_played()` instead of "used" events.
    """
    if (
        "observation" not in type(state).__abstractmethods__
        and hasattr(state, "hidden_view")
        and getattr(type(state), "observation", None) is State.observation
    ):

        def value(view: Any, action: Any) -> float:
            hook = getattr(view, "greedy_value", None)
            return float(hook(action)) if hook is not None else 0.0

        return Hooks(
            observe=state.hidden_view,
            value=value,
            legacy=True,
            legacy_used=getattr(state, "cards_played", None),
        )
    return Hooks(observe=state.observation, value=rules.greedy_value)


def check_zones(state: State, deck: Counter) -> None:
    """Every physical card is in exactly one zone, and they total the database's deck."""
    problem = conservation_error(state.zones(), deck)
    if problem:
        raise RuleViolation(problem)


def check_legal(legal: list[Any]) -> None:
    """A non-terminal state offers at least one action, in sorted order."""
    if not legal:
        raise RuleViolation("non-terminal state with no legal action")
    if any(legal[i] > legal[i + 1] for i in range(len(legal) - 1)):
        raise RuleViolation("legal_actions() is not sorted")


def check_event(event: Any, players: int, cards: set[str]) -> None:
    """An event is an Event of a named kind, about a real seat and a real card."""
    if not isinstance(event, Event) or not isinstance(event.kind, str) or not event.kind:
        raise RuleViolation(f"malformed event {event!r}")
    if event.seat is not None and not 0 <= event.seat < players:
        raise RuleViolation(f"event {event.kind} names seat {event.seat} of {players}")
    if event.kind == "used" and event.card not in cards:
        raise RuleViolation(f"'used' event names {event.card!r}, not a card of the deck")
    if event.card is not None and event.card not in cards:
        raise RuleViolation(f"event {event.kind} names {event.card!r}, not a card of the deck")
    if not isinstance(event.text, str) or not event.text:
        raise RuleViolation(f"event {event.kind} has no text")
    if event.kind == "score" and (event.seat is None or event.value is None):
        raise RuleViolation("'score' event without a seat or points")


def _pick_chance(state: State, rng: random.Random) -> Any:
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


def _collect(result: GameResult, events: list[Event]) -> None:
    """The report's facts from the event log: used cards per seat, factions, eliminations."""
    for event in events:
        result.event_counts[event.kind] += 1
        if event.kind == "used" and event.card is not None:
            result.used[event.card] += 1
            if event.seat is not None:
                result.used_by.setdefault(event.seat, Counter())[event.card] += 1
        elif event.kind == "faction" and event.seat is not None:
            result.factions[event.seat] = event.text
        elif event.kind == "eliminated" and event.seat is not None:
            result.eliminated.append(event.seat)


def play_game(
    rules: GameRules,
    players: int,
    seed: int,
    agents: list[str],
    verbose: bool = False,
    checker: Callable[[State], None] | None = None,
    options: dict[str, Any] | None = None,
) -> GameResult:
    """One game; engine exceptions and broken invariants become a failure, not a crash."""
    result = GameResult(seed, players, list(agents), dict(options or {}))
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    card_ids = {c.card for c in deck}
    try:
        state = rules.new_initial_state(players, rng)
        hooks = legacy_hooks(rules, state)
        seats = [make_agent(a, seed, i, hooks.value) for i, a in enumerate(agents)]
        _run(state, rules, hooks, seats, result, rng, deck, card_ids, verbose, checker)
    except Exception as exc:  # noqa: BLE001 - any engine error is a reported failure
        result.failure = f"{type(exc).__name__}: {exc}"
        if verbose:
            result.log.append(traceback.format_exc())
    return result


def _run(
    state: State,
    rules: GameRules,
    hooks: Hooks,
    seats: list[Any],
    result: GameResult,
    rng: random.Random,
    deck: Counter,
    card_ids: set[str],
    verbose: bool,
    checker: Callable[[State], None] | None,
) -> None:
    players, cap, step = result.players, rules.info.max_steps, 0
    seen_events = _new_events(state, result, players, card_ids, verbose, 0, "setup")
    while not state.is_terminal():
        if step >= cap:
            raise RuleViolation(f"step cap {cap} reached without the game ending")
        player = state.current_player()
        legal = state.legal_actions()
        check_legal(legal)
        if player == CHANCE:
            action = _pick_chance(state, rng)
        else:
            if not 0 <= player < players:
                raise RuleViolation(f"current_player() returned {player}")
            obs = hooks.observe(player)
            if not hooks.legacy and step & (step - 1) == 0:
                check_observation(obs, player)
            action = seats[player].choose(obs, legal)
        if verbose:
            who = "chance" if player == CHANCE else f"seat {player} ({result.agents[player]})"
            result.log.append(f"{step:4d} {who}: {state.action_text(action)}")
        state.apply(action)
        step += 1
        seen_events = _new_events(state, result, players, card_ids, verbose, seen_events, "")
        state.check_invariants()
        if checker:
            checker(state)
        if step & (step - 1) == 0:
            check_zones(state, deck)
    _finish(state, hooks, result, deck, step, verbose)


def _new_events(
    state: State, result: GameResult, players: int, card_ids: set[str], verbose: bool, seen: int, label: str
) -> int:
    """Check the events recorded since `seen` and log them under --verbose; returns the new count."""
    events = state.events
    for event in events[seen:]:
        check_event(event, players, card_ids)
        if verbose:
            result.log.append(f"     {label + ': ' if label else ''}{event.describe()}")
    return len(events)


def _finish(state: State, hooks: Hooks, result: GameResult, deck: Counter, step: int, verbose: bool) -> None:
    if state.current_player() != TERMINAL:
        raise RuleViolation("terminal state whose current_player() is not TERMINAL")
    check_zones(state, deck)
    result.returns = [float(x) for x in state.returns()]
    recomputed = [float(x) for x in state.scores_from_rules()]
    if recomputed != result.returns:
        raise RuleViolation(f"scores {result.returns} differ from the scoring rules' {recomputed}")
    result.winners = list(state.winners())
    result.end_reason = state.end_reason()
    result.steps = step
    result.completed = True
    _collect(result, state.events)
    if hooks.legacy and hooks.legacy_used is not None and not result.used:
        result.used.update(hooks.legacy_used())
    if verbose:
        result.log.append(f"end: {result.end_reason}; scores {result.returns}, winners {result.winners}")

"""Plays one seeded sample game and checks the engine at every step.

A game is a pure function of (database, options, players, seed, agents), so a
failure is reproduced by its seed alone, and results do not depend on how
many worker processes played them.  The runner hands each agent only its
seat's observation.  At every step it checks legality, sortedness, the event
log and the engine's own invariants; card conservation and observation purity
at steps 1, 2, 4, 8… and at the end; at the end, the score against the
scoring rules.
"""

from __future__ import annotations

import random
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from pnpforge.rules.agents import Agent, make_agent
from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, GameRules, RuleViolation, State
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


def check_zones(state: State, deck: Counter) -> None:
    """Every physical card is in exactly one zone, and they total the database's deck."""
    problem = conservation_error(state.zones(), deck)
    if problem:
        raise RuleViolation(problem)


def check_legal(legal: list[Any]) -> None:
    """A non-terminal state offers at least one action, in sorted order."""
    if not legal:
        raise RuleViolation("non-terminal state with no legal action")
    if len(legal) > 1 and legal != sorted(legal):  # sorting a sorted list is one pass, in C
        raise RuleViolation("legal_actions() is not sorted")


def check_event(event: Any, players: int, cards: set[str]) -> None:
    """An event is an Event of a named kind, about a real seat and a real card."""
    if type(event) is not Event:  # the common case, read field by field below
        if not isinstance(event, Event):
            raise RuleViolation(f"malformed event {event!r}")
    kind, seat, card, text, value = event
    if not kind or not isinstance(kind, str):
        raise RuleViolation(f"malformed event {event!r}")
    if seat is not None and not 0 <= seat < players:
        raise RuleViolation(f"event {kind} names seat {seat} of {players}")
    if card is None or card not in cards:
        if kind == "used":
            raise RuleViolation(f"'used' event names {card!r}, not a card of the deck")
        if card is not None:
            raise RuleViolation(f"event {kind} names {card!r}, not a card of the deck")
    if not text or not isinstance(text, str):
        raise RuleViolation(f"event {kind} has no text")
    if kind == "score" and (seat is None or value is None):
        raise RuleViolation("'score' event without a seat or points")


def pick_chance(state: State, rng: random.Random) -> Any:
    """The chance outcome the seeded generator picks, by the outcomes' probabilities."""
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
    result.event_counts.update(map(itemgetter(0), events))  # each event's kind, counted in C
    uses = Counter([event[1:3] for event in events if event[0] == "used"])  # (seat, card) -> times
    for kind, seat, _card, text, _value in [e for e in events if e[0] in _SEAT_FACTS]:
        if seat is None:
            continue
        if kind == "faction":
            result.factions[seat] = text
        else:
            result.eliminated.append(seat)
    used_by = result.used_by
    for (seat, card), times in uses.items():
        if card is None:
            continue
        result.used[card] += times
        if seat is not None:
            if seat not in used_by:
                used_by[seat] = Counter()
            used_by[seat][card] += times


_SEAT_FACTS = ("faction", "eliminated")  # event kinds `_collect` reads seat by seat


def play_game(
    rules: GameRules,
    players: int,
    seed: int,
    agents: list[str],
    verbose: bool = False,
    checker: Callable[[State], None] | None = None,
    options: dict[str, Any] | None = None,
    agent_options: dict[str, str] | None = None,
) -> GameResult:
    """One game; engine exceptions and broken invariants become a failure, not a crash.

    An agent that plans (`search`) is handed a sampler of worlds for its seat: each call returns
    a copy of the position whose hidden part is dealt afresh from what the seat observes
    (`State.resample_from_infostate`), never the position itself."""
    result = GameResult(seed, players, list(agents), dict(options or {}))
    rng = random.Random(seed)
    deck = Counter(rules.deck())
    card_ids = {c.card for c in deck}
    try:
        state = rules.new_initial_state(players, rng)
        seats = [
            make_agent(a, seed, i, rules.greedy_agent_values(), rules, agent_options)
            for i, a in enumerate(agents)
        ]
        for seat, agent in enumerate(seats):
            bind = getattr(agent, "bind_worlds", None)
            if bind is not None:
                bind(lambda rng, seat=seat: state.resample_from_infostate(seat, rng))
        steps = _run(state, rules.info.max_steps, seats, result, rng, deck, card_ids, verbose, checker)
        _finish(state, result, deck, steps, verbose)
    except Exception as exc:  # noqa: BLE001 - any engine error is a reported failure
        result.failure = f"{type(exc).__name__}: {exc}"
        if verbose:
            result.log.append(traceback.format_exc())
    return result


def _sampled(step: int) -> bool:
    """Steps 0, 1, 2, 4, 8…: where the whole-state checks (conservation, observation purity) run.

    Every step is checked cheaply (legality, sortedness, events, the engine's invariants); the
    checks that walk every card or every observed value run at doubling intervals and at the end,
    so a game of n steps pays for about log2(n) of them, and a lasting break (a lost or doubled
    card, a leaking observation) is still caught within twice the steps it took to happen.
    """
    return step & (step - 1) == 0


def _run(
    state: State,
    cap: int,
    seats: list[Agent],
    result: GameResult,
    rng: random.Random,
    deck: Counter[CardInstance],
    card_ids: set[str],
    verbose: bool,
    checker: Callable[[State], None] | None,
) -> int:
    """Play to the end, checking every step; returns the number of steps."""
    players, step = result.players, 0
    seen = _new_events(state, result, card_ids, verbose, 0, "setup")
    verified: list[Any] = []  # the last legal list found sorted: an equal list is sorted too
    # the state's methods, looked up once for the whole game (the loop calls them every step)
    is_terminal, current_player, legal_actions = state.is_terminal, state.current_player, state.legal_actions
    apply, check_invariants = state.apply, state.check_invariants
    while not is_terminal():
        if step >= cap:
            raise RuleViolation(f"step cap {cap} reached without the game ending")
        player = current_player()
        legal = legal_actions()
        if len(legal) > 1:
            if legal != verified:  # engines often offer the same list again
                check_legal(legal)
                verified = legal
        elif not legal:
            check_legal(legal)  # raises: no legal action
        if player == CHANCE:
            action = pick_chance(state, rng)
        else:
            if not 0 <= player < players:
                raise RuleViolation(f"current_player() returned {player}")
            agent = seats[player]
            if step & (step - 1) and (len(legal) == 1 or not agent.observes):  # not a sampled step
                action = agent.forced(legal[0]) if len(legal) == 1 else agent.choose(None, legal)
            else:
                action = _decide(state, agent, player, legal, _sampled(step))
        if verbose:
            who = "chance" if player == CHANCE else f"seat {player} ({result.agents[player]})"
            result.log.append(f"{step:4d} {who}: {state.action_text(action)}")
        apply(action)
        step += 1
        if len(state.events) > seen:
            seen = _new_events(state, result, card_ids, verbose, seen, "")
        check_invariants()
        if checker:
            checker(state)
        if not step & (step - 1):  # `_sampled(step)`, inline: this loop runs every step
            check_zones(state, deck)
    return step


def _decide(state: State, agent: Agent, seat: int, legal: list[Any], sampled: bool) -> Any:
    """The agent's choice from the seat's observation, built only when the agent reads it (the
    random agent does not) or when this step's purity check needs it; a single legal action is
    taken without one (the agent still draws what it would have drawn)."""
    if not sampled and (len(legal) == 1 or not agent.observes):
        return agent.forced(legal[0]) if len(legal) == 1 else agent.choose(None, legal)
    obs = state.observation(seat)
    if sampled:
        check_observation(obs, seat)
    return agent.choose(obs, legal)


def _new_events(
    state: State, result: GameResult, card_ids: set[str], verbose: bool, seen: int, label: str
) -> int:
    """Check the events recorded since `seen` and log them under --verbose; returns the new count."""
    events = state.events
    players = result.players
    for event in events[seen:]:
        check_event(event, players, card_ids)
        if verbose:
            result.log.append(f"     {label + ': ' if label else ''}{event.describe()}")
    return len(events)


def _finish(state: State, result: GameResult, deck: Counter[CardInstance], step: int, verbose: bool) -> None:
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
    if verbose:
        result.log.append(f"end: {result.end_reason}; scores {result.returns}, winners {result.winners}")

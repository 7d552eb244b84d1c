"""`used` means the rulebook's use, per card type of every shipped engine.

`pnp check` calls a card unusable when no game uses it, so an engine that
counts a card as used before the rulebook's use is complete (a magic that was
accused, a mission that was lost) hides an impossible card.  Each test plays
seeded games and checks every `used` event of one card type against what the
rulebook makes its use: the event it must come with, or the state it leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pnpforge.rules.games import load_rules
from pnpforge.rules.kit.events import Event
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db


def _games(db: Any, slug: str, options: dict[str, Any], games: int, players: int) -> list[tuple[Any, Any]]:
    """(final state, result) of seeded games of mixed greedy and random tables."""
    rules = load_rules(db, slug, options)
    make = type(rules).new_initial_state
    out = []
    for seed in range(1, games + 1):
        states: list[Any] = []

        def keep(players: int, rng: Any, states: list[Any] = states) -> Any:
            state = make(rules, players, rng)
            states.append(state)
            return state

        rules.new_initial_state = keep
        agents = ["greedy" if (seat + seed) % 2 else "random" for seat in range(players)]
        result = play_game(rules, players, seed, agents, options=options)
        assert result.completed, result.failure
        out.append((states[0], result))
    return out


Rule = Callable[[list[Event], int, Any, Any], bool]  # (events, index of the used event, state, result)


def _followed_by(kind: str, within: int = 6) -> Rule:
    """The used event is followed, within a few events, by a `kind` event about the same card."""

    def rule(events: list[Event], i: int, _state: Any, _result: Any) -> bool:
        card = events[i].card
        return any(e.kind == kind and e.card == card for e in events[i + 1 : i + 1 + within])

    return rule


def _text(*starts: str) -> Rule:
    def rule(events: list[Event], i: int, _state: Any, _result: Any) -> bool:
        return events[i].text.startswith(starts) and events[i].seat is not None

    return rule


def _won(_events: list[Event], _i: int, _state: Any, result: Any) -> bool:
    return bool(result.winners)


def _not_accused(events: list[Event], i: int, _state: Any, _result: Any) -> bool:
    """No accusation cancelled this magic between its play and its use (accused magic has no effect)."""
    card = events[i].card
    return not any(
        e.kind == "outcome" and e.card == card and "cancelled" in e.text for e in events[max(0, i - 4) : i]
    )


# (game, engine options, players, card type, what its use must satisfy)
CASES: list[tuple[str, dict[str, Any], int, str, Rule]] = [
    ("enforcer", {}, 4, "obligor", _followed_by("score")),  # executed successfully: scored
    ("enforcer", {}, 4, "execution", _text("played")),
    ("enforcer", {}, 4, "specialty", _text("played")),
    ("enforcer", {}, 4, "objection", lambda ev, i, s, r: "flipped" in ev[i].text),
    ("enforcer", {}, 4, "officer", _text("chose")),
    ("enforcer", {}, 4, "penalty", _text("took a penalty marker")),
    ("dirty-money", {}, 3, "placement", _text("buys")),
    ("dirty-money", {}, 3, "currency", _text("paid toward")),
    ("dirty-money", {}, 3, "action", _text("resolves")),
    ("dirty-money", {}, 3, "location", _text("visits")),
    ("dirty-money", {}, 3, "villain", lambda ev, i, s, r: ev[i].seat is not None),
    ("hackers", {}, 3, "defence", _text("put into play")),
    ("hackers", {}, 3, "attack", _text("attacked")),
    ("hackers", {}, 3, "server", _text("installed")),
    ("infiltraitors", {"mission": "T1"}, 3, "card", _text("hint")),
    ("infiltraitors", {"mission": "M05"}, 3, "special", _text("hint")),
    ("infiltraitors", {"mission": "T1"}, 3, "mission", _won),
    ("accusation", {}, 2, "follower", _text("played", "revealed")),
    ("accusation", {}, 2, "location", _text("played")),
    ("accusation", {}, 2, "magic", _not_accused),
    ("accusation", {}, 2, "ritual", _followed_by("score")),
    ("accusation", {}, 2, "leader", _text("played")),
]


@pytest.fixture(scope="module")
def shipped():
    from conftest import SHIPPED_DB

    return open_db(SHIPPED_DB, readonly=True)


@pytest.mark.parametrize("slug,options,players,card_type,rule", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_used_means_the_rulebooks_use(shipped, slug, options, players, card_type, rule):
    types = {c.id: c.type for c in repo.list_cards(shipped, slug)}
    seen = 0
    for state, result in _games(shipped, slug, options, 6, players):
        events = list(state.events)
        for i, event in enumerate(events):
            if event.kind == "used" and types.get(event.card) == card_type:
                seen += 1
                assert rule(events, i, state, result), f"{slug} {card_type}: {event.describe()}"
    if card_type not in ("special", "mission", "leader", "specialty"):
        assert seen, f"no {card_type} card was used in 6 games"


def test_accused_magic_is_not_used(shipped):
    """Every magic play is either accused (no effect, not used) or used: none is both."""
    types = {c.id: c.type for c in repo.list_cards(shipped, "accusation")}
    accused = used = 0
    for state, _result in _games(shipped, "accusation", {}, 12, 2):
        for e in state.events:
            if e.kind == "outcome" and types.get(e.card) == "magic" and "cancelled" in e.text:
                accused += 1
            if e.kind == "used" and types.get(e.card) == "magic":
                used += 1
    assert used > 0 and accused > 0  # both happen, and the per-event test above keeps them apart


def test_a_lost_mission_is_not_used(shipped):
    """The mission card counts as used only when the team completes the mission."""
    rules = load_rules(shipped, "infiltraitors", {"mission": "M20"})
    outcomes = set()
    for seed in range(1, 13):
        result = play_game(rules, 2, seed, ["random", "random"], options={"mission": "M20"})
        outcomes.add(bool(result.winners))
        assert bool(result.used.get("M20")) == bool(result.winners)
    assert False in outcomes  # random agents lose some: the test could fail

"""The rules-checker framework: runner invariants, step cap, report, CLI."""

from __future__ import annotations

import json

import pytest

from pnpforge.rules.check import summarise
from pnpforge.rules.engine import CHANCE, TERMINAL, CardInstance, GameInfo, GameRules, State
from pnpforge.rules.runner import play_game
from pnpforge.store import repo
from pnpforge.store.db import open_db


class ToyState(State):
    """Deal the deck one card at a time (chance); each seat in turn keeps or discards it."""

    def __init__(self, rules: "ToyRules", players: int) -> None:
        self.rules, self.players = rules, players
        self.deck = list(rules.deck())
        self.kept = [[] for _ in range(players)]
        self.discard: list = []
        self.drawn = None
        self.turn = 0

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.drawn is None else self.turn % self.players

    def legal_actions(self):
        if self.drawn is None:
            return sorted(range(len(self.deck)))
        return self.rules.legal_fn([0, 1])

    def apply(self, action) -> None:
        if self.drawn is None:
            self.drawn = self.deck.pop(action)
            return
        if self.rules.endless:  # the card goes back: the deck never runs out
            self.deck.append(self.drawn)
        else:
            (self.kept[self.turn % self.players] if action else self.discard).append(self.drawn)
        if not self.rules.leak:
            self.drawn = None
        else:
            self.drawn, self.deck = None, self.deck
            self.discard.pop() if self.discard else None
        self.turn += 1

    def is_terminal(self) -> bool:
        return not self.deck and self.drawn is None

    def returns(self):
        return [float(sum(self.rules.power[c.card] for c in k)) for k in self.kept]

    def scores_from_rules(self):
        r = self.returns()
        return [x + self.rules.score_bias for x in r]

    def zones(self):
        z = {"deck": list(self.deck), "discard": list(self.discard)}
        for i, k in enumerate(self.kept):
            z[f"kept{i}"] = list(k)
        if self.drawn is not None:
            z["drawn"] = [self.drawn]
        return z

    def action_text(self, action) -> str:
        return f"deal {self.deck[action]}" if self.drawn is None else ("keep" if action else "discard")

    def greedy_value(self, action) -> float:
        return float(action)

    def cards_played(self):
        return [c.card for k in self.kept for c in k]


class ToyRules(GameRules):
    def __init__(self, db, leak=False, endless=False, score_bias=0.0, legal_fn=sorted) -> None:
        self.cards = repo.list_cards(db, "mini")
        self.power = {c.id: c.fields.get("power", c.fields.get("cost", 0)) for c in self.cards}
        self.info = GameInfo("mini", 2, 4, max_steps=100)
        self.leak, self.endless, self.score_bias, self.legal_fn = leak, endless, score_bias, legal_fn

    def deck(self):
        return [CardInstance(c.id, i) for c in self.cards for i in range(c.copies)]

    def new_initial_state(self, players, rng):
        return ToyState(self, players)


def test_random_and_greedy_games_complete_and_conserve_cards(mini_db):
    rules = ToyRules(open_db(mini_db))
    for seed in range(30):
        r = play_game(rules, 2 + seed % 3, seed, ["random", "greedy", "random", "greedy"][: 2 + seed % 3])
        assert r.completed, r.failure
        assert r.steps == 12  # six cards: one deal and one choice each


def test_greedy_agent_uses_the_hook(mini_db):
    r = play_game(ToyRules(open_db(mini_db)), 2, 7, ["greedy", "greedy"])
    assert sum(r.played.values()) == 6  # greedy always keeps


def test_same_seed_same_game(mini_db):
    rules = ToyRules(open_db(mini_db))
    a = play_game(rules, 3, 42, ["random"] * 3, verbose=True)
    b = play_game(rules, 3, 42, ["random"] * 3, verbose=True)
    assert a.log == b.log and a.returns == b.returns


@pytest.mark.parametrize("kwargs,fragment", [
    ({"leak": True}, "card conservation broken"),
    ({"endless": True}, "step cap 100 reached"),
    ({"score_bias": 1.0}, "differ from the scoring rules"),
    ({"legal_fn": lambda xs: sorted(xs, reverse=True)}, "not sorted"),
])
def test_broken_engines_fail_with_their_seed(mini_db, kwargs, fragment):
    rules = ToyRules(open_db(mini_db), **kwargs)
    results = [play_game(rules, 2, seed, ["random", "random"]) for seed in range(5)]
    assert any(not r.completed and fragment in r.failure for r in results)
    report = summarise(results, 1.0, [])
    assert report["failures"] and all("seed" in f for f in report["failures"])


def test_report_statistics(mini_db):
    rules = ToyRules(open_db(mini_db))
    results = [play_game(rules, 2, s, ["random", "greedy"]) for s in range(20)]
    rep = summarise(results, 2.0, [])
    assert rep["games"] == rep["completed"] == 20
    assert rep["length"] == {"min": 12, "median": 12, "max": 12}
    assert sum(rep["cards_played"].values()) == sum(sum(r.played.values()) for r in results)
    assert 0 <= rep["win_rate_by_agent"]["greedy"] <= 1
    assert rep["win_rate_by_agent"]["greedy"] > rep["win_rate_by_agent"]["random"]
    assert rep["games_per_second"] == 10.0


def test_check_without_engine_reports_composition(run, mini_db):
    r = run("--db", mini_db, "check", "mini", "--json")
    out = json.loads(r.stdout)
    assert r.exit_code == 0
    assert out["simulation"] is None
    assert [(c["rule"], c["expected"], c["actual"], c["ok"]) for c in out["composition"]] == \
        [("heroes", 3, 3, True), ("spells", 3, 3, True)]
    run("--db", mini_db, "cards", "set", "mini", "S-01", "copies=1")
    r = run("--db", mini_db, "check", "mini")
    assert r.exit_code == 1 and "FAIL" in r.stdout


def _without_timing(report: dict) -> dict:
    sim = dict(report["simulation"])
    sim.pop("seconds")
    sim.pop("games_per_second")
    return {**report, "simulation": sim}


def test_report_does_not_depend_on_jobs(run, shipped_db):
    """Same seeds, same report, whether one process plays them or two."""
    args = ("--db", shipped_db, "check", "hackers", "-n", "12", "--seed", "5", "--json")
    one = json.loads(run(*args, "--jobs", "1").stdout)
    two = json.loads(run(*args, "--jobs", "2").stdout)
    assert one["simulation"]["completed"] == 12
    assert _without_timing(one) == _without_timing(two)


def test_replay_reproduces_a_game_of_the_report(run, shipped_db):
    r = run("--db", shipped_db, "check", "hackers", "-n", "3", "--seed", "7", "--json")
    assert r.exit_code == 0
    r = run("--db", shipped_db, "check", "hackers", "--seed", "7", "--replay", "8", "--verbose")
    assert r.exit_code == 0
    assert "seed 8:" in r.stdout and "completed" in r.stdout
    assert len(r.stdout.splitlines()) > 20  # the move log


def test_edit_reaches_the_next_check(run, shipped_db):
    """A composition edit shows in the report and fails the check."""
    from pnpforge.store import repo
    card = repo.list_cards(open_db(shipped_db), "hackers")[0]
    run("--db", shipped_db, "cards", "set", "hackers", card.id, f"copies={card.copies + 1}")
    r = run("--db", shipped_db, "check", "hackers", "-n", "2", "--json")
    assert r.exit_code == 1
    assert any(not c["ok"] for c in json.loads(r.stdout)["composition"])

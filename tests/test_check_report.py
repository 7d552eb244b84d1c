"""`pnp check`'s report: seat rotation, cooperative rates, used cards, scenarios, replay, JSON, --strict."""

from __future__ import annotations

import itertools
import json
import shlex
from collections import Counter

import pytest

import pnpforge.rules.static as static
from mini_engine import MiniRules, make_coop_rules, make_rules
from pnpforge.errors import PnpError
from pnpforge.rules.check import (
    GAMES_PER_WORKER,
    MAX_GAMES,
    CheckOptions,
    check_bounds,
    iter_plan,
    worker_count,
)
from pnpforge.rules.games import register, unregister
from pnpforge.rules.kit import GameInfo


@pytest.fixture
def mini_engine():
    register("mini", make_rules)
    yield
    unregister("mini")


@pytest.fixture
def coop_engine():
    register("mini", make_coop_rules)
    yield
    unregister("mini")


def report(run, db, *args: str, code: int | None = 0) -> dict:
    r = run("--db", db, "check", "mini", "--json", *args)
    if code is not None:
        assert r.exit_code == code, r.stdout
    return json.loads(r.stdout)


def replay_line(run, line: str):
    args = shlex.split(line)
    assert args[0] == "pnp"
    return run(*args[1:])


# ---- the plan --------------------------------------------------------------


@pytest.mark.parametrize("low,high", [(2, 3), (2, 4), (3, 5), (4, 4)])
def test_mixed_mode_gives_every_seat_every_agent_equally_often(low, high):
    info = GameInfo("g", low, high, max_steps=10)
    counts = high - low + 1
    plan = list(iter_plan(info, [None], CheckOptions(games=counts * 2 * 5, agent="mixed")))
    for players in range(low, high + 1):
        games = [g for g in plan if g.players == players]
        for seat in range(players):
            assert Counter(g.agents[seat] for g in games) == {"random": 5, "greedy": 5}
    assert [g.seed for g in plan] == list(range(1, len(plan) + 1))


def test_auto_mode_is_greedy_teams_when_cooperative_and_mixed_otherwise():
    coop = GameInfo("g", 2, 3, max_steps=10, cooperative=True)
    versus = GameInfo("g", 2, 3, max_steps=10)
    assert {a for g in iter_plan(coop, ["A", "B"], CheckOptions(games=8)) for a in g.agents} == {"greedy"}
    assert {a for g in iter_plan(versus, [None], CheckOptions(games=8)) for a in g.agents} == {
        "greedy",
        "random",
    }


def test_scenarios_vary_fastest_and_meet_every_player_count():
    info = GameInfo("g", 2, 3, max_steps=10, cooperative=True)
    plan = list(iter_plan(info, ["A", "B", "C"], CheckOptions(games=6)))
    assert {(g.scenario, g.players) for g in plan} == {(s, p) for s in "ABC" for p in (2, 3)}


def test_plan_is_lazy_and_bounded():
    info = GameInfo("g", 2, 4, max_steps=10)
    plan = iter_plan(info, [None], CheckOptions(games=MAX_GAMES))
    assert [g.seed for g in itertools.islice(plan, 3)] == [1, 2, 3]
    with pytest.raises(PnpError, match=f"--games {MAX_GAMES + 1} is outside 0..{MAX_GAMES}"):
        check_bounds(CheckOptions(games=MAX_GAMES + 1))


# ---- the report ------------------------------------------------------------


def test_competitive_report_balance_and_example_replay(run, mini_db, mini_engine):
    out = report(run, mini_db, "-n", "24", "--strict", "-o", "limit=9")
    sim = out["simulation"]
    assert out["ok"] and sim["completed"] == 24 and not sim["cooperative"]
    assert set(sim["win_rate_by_faction"]) == {"fire", "water"}
    assert set(sim["win_rate_by_agent"]) == {"random", "greedy"}
    assert sim["win_rate_by_agent"]["greedy"] > sim["win_rate_by_agent"]["random"]
    assert sim["agents_by_seat"]["0"] == {"greedy": 12, "random": 12}
    assert set(sim["cards"]) == {"H-01", "H-02", "S-01"} and sim["never_used"] == []
    h01 = sim["cards"]["H-01"]
    assert h01["uses"] >= h01["games"] > 0 and 0 <= h01["win_rate_used"] <= 1
    assert h01["win_rate_used"] > h01["win_rate_not_used"]  # a power-8 card wins games
    line = sim["example_replay"]
    assert line.startswith(f"pnp --db {mini_db} check mini --replay 1 --players 2 --agents ")
    assert "-o limit=9" in line


def test_never_used_card_is_a_warning_and_fails_strict(run, mini_db, mini_engine):
    run("--db", mini_db, "cards", "set", "mini", "H-02", "power=12")  # above the limit: unplayable
    out = report(run, mini_db, "-n", "10", "-o", "limit=9")
    sim = out["simulation"]
    assert sim["never_used"] == ["H-02"] and sim["missed_in_plan"] == ["H-02"]
    assert sim["aimed"]["aimed_at"] == ["H-02"] and sim["aimed"]["games"] == 1000  # the whole budget
    message = "1 card(s) never used in 10 games nor in 1000 games aimed at them: H-02"
    assert message in out["warnings"] and not out["errors"]
    out = report(run, mini_db, "-n", "10", "-o", "limit=9", "--strict", code=1)
    assert message in out["errors"]
    text = run("--db", mini_db, "check", "mini", "-n", "10", "-o", "limit=9", "--strict").stdout
    assert f"FAIL: {message}" in text and "check FAILED" in text


def test_cooperative_rates_are_team_results_per_scenario(run, mini_db, coop_engine):
    out = report(run, mini_db, "-n", "12")
    sim = out["simulation"]
    assert sim["cooperative"] and sim["scenarios"] == ["easy", "impossible"]
    assert sim["win_rate_by_scenario"] == {"easy": 1.0, "impossible": 0.0}
    assert sim["team_win_rate"] == 0.5
    assert sim["win_rate_by_agent"] == {"greedy": 0.5}  # a team win counts whole for every seat
    assert set(sim["win_rate_by_players"]) == {"2", "3", "4"}
    assert [n["scenario"] for n in sim["never_won"]] == ["impossible"]
    assert out["warnings"] == ["scenario impossible was never won"]
    out = report(run, mini_db, "-n", "12", "--strict", code=1)
    assert out["errors"] == ["scenario impossible was never won"]
    out = report(run, mini_db, "-n", "4", "--mission", "easy", "--strict")
    assert out["simulation"]["scenarios"] == ["easy"] and out["ok"]


def test_replay_from_the_printed_line_alone(run, mini_db, coop_engine):
    out = report(run, mini_db, "-n", "12")
    line = out["simulation"]["never_won"][0]["replay"]
    assert "--mission impossible" in line and "--agents greedy,greedy" in line
    first = replay_line(run, line)
    assert first.exit_code == 0
    assert "mission impossible" in first.stdout and "winners []" in first.stdout
    assert "score: seat" in first.stdout and "end: deck exhausted" in first.stdout  # outcomes, not only moves
    assert replay_line(run, line).stdout == first.stdout
    seed = line.split("--replay ")[1].split()[0]
    planned = run("--db", mini_db, "check", "mini", "-n", "12", "--replay", seed)
    assert planned.stdout.splitlines()[-2] == first.stdout.splitlines()[-2]  # same game as in the run


def test_failed_game_fails_the_check_with_its_replay(run, mini_db):
    register("mini", lambda game, options: MiniRules(game, options, score_bias=1.0))
    try:
        out = report(run, mini_db, "-n", "3", code=1)
        failure = out["simulation"]["failures"][0]
        assert "differ from the scoring rules" in failure["error"]
        assert out["errors"][0].startswith("game seed 1 failed: RuleViolation")
        again = replay_line(run, failure["replay"])
        assert again.exit_code == 1 and "FAILED: RuleViolation" in again.stdout
    finally:
        unregister("mini")


@pytest.mark.parametrize(
    "severity,strict,code",
    [
        ("strict", False, 0),
        ("strict", True, 1),
        ("error", False, 1),
    ],
)
def test_static_findings_decide_the_exit_code(run, mini_db, mini_engine, monkeypatch, severity, strict, code):
    finding = static.Finding("constraint", severity, "H-01 and H-02 share a number", ("H-01", "H-02"))
    monkeypatch.setattr(static, "static_findings", lambda db, game: [finding])
    out = report(run, mini_db, "-n", "2", *(["--strict"] if strict else []), code=code)
    assert out["findings"] == [finding.to_dict()]
    assert ("constraint: H-01 and H-02 share a number" in out["errors"]) == bool(code)
    text = run("--db", mini_db, "check", "mini", "-n", "2", *(["--strict"] if strict else [])).stdout
    assert ("ERROR" if code else "warning") + " constraint: H-01 and H-02 share a number" in text


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--games", "100000000"], "--games 100000000 is outside 0..100000"),
        (["--replay", "0"], "seed 0 is not in this run's plan (seeds 1–100)"),
        (["--replay", "5", "--agents", "greedy,nobody"], "--agents: unknown agent 'nobody'"),
        (["-o", "limit=high"], "mini: option 'limit' got 'high' (allowed: an integer 0..99)"),
        (["-o", "rounds=2"], "mini: unknown option 'rounds' (allowed: limit)"),
        (["--players", "7"], "mini is for 2–4 players, got 7"),
        (["--agents", "clever"], "unknown agent 'clever'"),
    ],
)
def test_json_errors_are_json(run, mini_db, mini_engine, args, fragment):
    r = run("--db", mini_db, "check", "mini", "--json", *args)
    assert r.exit_code == 2
    assert fragment in json.loads(r.stdout)["error"]
    plain = run("--db", mini_db, "check", "mini", *args)
    assert plain.exit_code == 2 and "Traceback" not in plain.stdout + plain.stderr
    assert plain.stderr.strip().endswith(fragment) or fragment in plain.stderr


def test_report_does_not_depend_on_jobs(run, mini_db, mini_engine):
    def without_timing(out: dict) -> dict:
        sim = {k: v for k, v in out["simulation"].items() if k not in ("seconds", "games_per_second")}
        return {**out, "simulation": sim}

    one = report(run, mini_db, "-n", "16", "--seed", "5", "--jobs", "1")
    two = report(run, mini_db, "-n", "16", "--seed", "5", "--jobs", "2")
    assert without_timing(one) == without_timing(two)


def test_jobs_zero_is_one_worker_per_core_as_the_games_are_worth(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert worker_count(CheckOptions(games=100, jobs=0)) == 100 // GAMES_PER_WORKER
    assert worker_count(CheckOptions(games=10_000, jobs=0)) == 8
    assert worker_count(CheckOptions(games=10, jobs=0)) == 1  # not worth a worker process
    assert worker_count(CheckOptions(games=10, jobs=3)) == 3  # an explicit count is kept
    with pytest.raises(PnpError, match="outside 0..64"):
        check_bounds(CheckOptions(jobs=-1))


def test_check_without_engine_reports_static_checks_only(run, mini_db):
    out = report(run, mini_db)
    assert out["simulation"] is None and out["ok"]
    assert [(c["rule"], c["ok"]) for c in out["composition"]] == [("heroes", True), ("spells", True)]
    run("--db", mini_db, "cards", "set", "mini", "S-01", "copies=1")  # the spells row is designed
    r = run("--db", mini_db, "check", "mini")
    assert r.exit_code == 0 and "warning composition: 法術卡×3: designed target 3, the deck has" in r.stdout
    assert run("--db", mini_db, "check", "mini", "--strict").exit_code == 1
    run("--db", mini_db, "cards", "set", "mini", "H-01", "copies=3")  # the heroes row is the rulebook's
    r = run("--db", mini_db, "check", "mini")
    assert (
        r.exit_code == 1
        and "ERROR composition: 英雄卡×3: the rulebook declares 3, the deck has 4" in r.stdout
    )

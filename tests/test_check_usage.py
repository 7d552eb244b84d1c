"""Card use as statistics: games aimed at missed cards, and rates against peers with intervals."""

from __future__ import annotations

from statistics import NormalDist

import pytest

from pnpforge.rules import aimed
from pnpforge.rules.agents import seat_agents
from pnpforge.rules.check import CheckOptions, run_check
from pnpforge.rules.usage import FAMILY_ALPHA, NEARLY_USELESS, low_use, wilson


def test_wilson_interval_matches_the_formula_and_stays_inside_0_1():
    lo, hi = wilson(0, 100, 1.96)
    assert lo == 0.0 and 0.036 < hi < 0.038  # the rule of three's neighbour, 3.7 %
    lo, hi = wilson(50, 100, 1.96)
    assert 0.40 < lo < 0.41 and 0.59 < hi < 0.60
    assert wilson(100, 100, 1.96)[1] == pytest.approx(1.0) and wilson(0, 0, 1.96) == (0.0, 1.0)


def _types(n: int) -> dict[str, str]:
    return {f"C{i}": "t" for i in range(n)}


def test_a_card_used_far_less_than_its_peers_is_a_warning_with_its_interval():
    used = {f"C{i}": 40 for i in range(8)} | {"C0": 2}
    [low] = low_use(used, _types(8), 100)
    assert low.card == "C0" and low.rate == 0.02 and low.peer_rate == 0.4 and low.peers == 7
    assert low.interval[0] < 0.02 < low.interval[1] < 0.1
    assert not low.strong and not low.cleared  # 2 in 100 against 40 %: more games are needed
    assert "C0 (t) used in 2/100 games (rate 2.0%, 95 % CI" in low.message()


def test_strong_evidence_needs_the_corrected_bound():
    used = {f"C{i}": 400 for i in range(8)} | {"C0": 5}
    [low] = low_use(used, _types(8), 1000)
    assert low.strong and not low.cleared
    z = NormalDist().inv_cdf(1 - FAMILY_ALPHA / 8)
    assert wilson(5, 1000, z)[1] < NEARLY_USELESS * wilson(400 * 7, 7000, z)[0]


def test_a_hard_but_playable_card_is_cleared_not_strong():
    used = {f"C{i}": 750 for i in range(28)} | {"C0": 80}  # an obligor few can execute
    [low] = low_use(used, _types(28), 1000)
    assert low.cleared and not low.strong


def test_ordinary_spread_is_not_reported():
    used = {"C0": 20, "C1": 35, "C2": 50, "C3": 28, "C4": 41}
    assert low_use(used, _types(5), 100) == []
    assert low_use({"C0": 1, "C1": 50, "C2": 50}, _types(3), 100) == []  # too few peers to compare


def test_aimed_games_try_the_scenarios_where_a_peer_was_used_first():
    types = {"SP-R": "special", "SP-B": "special", "R-2": "card"}
    order = aimed.aimed_scenarios(["SP-R"], types, {"M01": {"R-2"}, "M05": {"SP-B"}}, ["M01", "M05", "M09"])
    assert order == ["M05", "M01", "M09"]
    plan = list(aimed.plan(101, [2, 3], order, seat_agents, cooperative=True))
    assert len(plan) == aimed.AIMED_GAMES and plan[0] == (101, 2, ("greedy", "greedy"), "M05")
    assert {p[2] for p in plan if p[1] == 2} >= {("greedy", "greedy"), ("random", "random")}
    assert plan == list(aimed.plan(101, [2, 3], order, seat_agents, cooperative=True))


def test_a_rare_card_missed_by_the_planned_games_is_found_by_aimed_games(shipped_db):
    report = run_check(shipped_db, "infiltraitors", CheckOptions(seed=11, strict=True))
    sim = report["simulation"]
    assert sim["missed_in_plan"] == ["SP-G", "SP-R"]
    assert set(sim["aimed"]["found"]) == {"SP-G", "SP-R"} and sim["never_used"] == []
    assert report["ok"], report["errors"]


def test_a_card_made_nearly_useless_is_strong_evidence_after_aimed_games(shipped_db, run):
    """A cost typo that still lets the card be bought now and then: 'used once' cannot see it."""
    assert run("--db", shipped_db, "cards", "set", "dirty-money", "US-ART-4", "cost=20").exit_code == 0
    report = run_check(shipped_db, "dirty-money", CheckOptions(strict=True))
    sim = report["simulation"]
    assert sim["aimed"]["found"] and sim["never_used"] == []  # it can be bought …
    [low] = sim["low_use"]
    assert low["card"] == "US-ART-4" and low["strong"]  # … but hardly ever
    assert not report["ok"] and any("strong evidence): US-ART-4" in e for e in report["errors"])


@pytest.mark.slow
@pytest.mark.parametrize("game", ["enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"])
def test_the_verdict_does_not_depend_on_the_seed(shipped_db, game):
    for seed in range(1, 21):
        report = run_check(shipped_db, game, CheckOptions(seed=seed, strict=True, jobs=0))
        assert report["ok"], (seed, report["errors"])

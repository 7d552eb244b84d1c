"""The sample-game half of the check report, accumulated one game at a time.

Games arrive in any order (several worker processes) and in any number, so the
tally keeps counts and sums, never the games themselves; every figure it
reports depends only on the set of games played, not on their order.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pnpforge.rules.runner import GameResult

MAX_LISTED_FAILURES = 50


def _rate(wins: float, games: float) -> float | None:
    return round(wins / games, 3) if games else None


def _spread(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"min": None, "median": None, "max": None}
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


@dataclass
class WinCount:
    """Win credit over seat-games: a shared win counts 1/n in competitive games, 1 for a team."""

    games: int = 0
    wins: float = 0.0

    def add(self, credit: float) -> None:
        self.games += 1
        self.wins += credit

    def rate(self) -> float | None:
        return _rate(self.wins, self.games)


@dataclass
class Tally:
    """Counts over completed and failed games of one check run."""

    cooperative: bool
    games: int = 0
    completed: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    end_reasons: Counter[str] = field(default_factory=Counter)
    lengths: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    by_seat: dict[int, WinCount] = field(default_factory=dict)
    by_agent: dict[str, WinCount] = field(default_factory=dict)
    by_faction: dict[str, WinCount] = field(default_factory=dict)
    by_scenario: dict[str, WinCount] = field(default_factory=dict)
    by_players: dict[int, WinCount] = field(default_factory=dict)
    team: WinCount = field(default_factory=WinCount)
    uses: Counter[str] = field(default_factory=Counter)  # card -> times used
    games_used: Counter[str] = field(default_factory=Counter)  # card -> games it was used in
    users: dict[str, WinCount] = field(default_factory=dict)  # card -> seat-games that used it
    seat_games: WinCount = field(default_factory=WinCount)  # every seat-game
    eliminations: int = 0
    seat_agents: dict[int, Counter[str]] = field(default_factory=dict)  # seat -> agent -> games
    scenario_cards: dict[str | None, set[str]] = field(default_factory=dict)  # scenario -> cards used in it

    def add(self, result: GameResult, scenario: str | None) -> None:
        """Count one game (failed games only count as failures)."""
        self.games += 1
        if not result.completed:
            self.failures.append(
                {
                    "seed": result.seed,
                    "players": result.players,
                    "agents": result.agents,
                    "scenario": scenario,
                    "error": result.failure,
                }
            )
            return
        self.completed += 1
        self.end_reasons[result.end_reason] += 1
        self.lengths.append(result.steps)
        self.scores.extend(result.returns)
        self.eliminations += len(result.eliminated)
        if len(result.returns) > 1:
            top = sorted(result.returns)
            self.margins.append(top[-1] - top[-2])
        team_won = bool(result.winners)
        if self.cooperative:
            self.team.add(1.0 if team_won else 0.0)
        if scenario is not None:
            self.by_scenario.setdefault(scenario, WinCount()).add(1.0 if team_won else 0.0)
        self._add_seats(result)
        self.uses.update(result.used)
        self.games_used.update(result.used.keys())
        self.scenario_cards.setdefault(scenario, set()).update(result.used.keys())

    def _credit(self, result: GameResult, seat: int) -> float:
        if seat not in result.winners:
            return 0.0
        return 1.0 if self.cooperative else 1.0 / len(result.winners)

    def _add_seats(self, result: GameResult) -> None:
        self.by_players.setdefault(result.players, WinCount()).add(1.0 if result.winners else 0.0)
        for seat, agent in enumerate(result.agents):
            credit = self._credit(result, seat)
            self.by_seat.setdefault(seat, WinCount()).add(credit)
            self.by_agent.setdefault(agent, WinCount()).add(credit)
            self.seat_agents.setdefault(seat, Counter())[agent] += 1
            self.seat_games.add(credit)
            if seat in result.factions:
                self.by_faction.setdefault(result.factions[seat], WinCount()).add(credit)
            for card in result.used_by.get(seat, ()):
                self.users.setdefault(card, WinCount()).add(credit)

    def card_rows(self, expected: list[str]) -> dict[str, dict[str, Any]]:
        """Per card: uses, games used in, win rate of the seats that used it and of those that did not."""
        rows: dict[str, dict[str, Any]] = {}
        for card in sorted(set(expected) | set(self.uses)):
            users = self.users.get(card, WinCount())
            rows[card] = {
                "uses": self.uses[card],
                "games": self.games_used[card],
                "win_rate_used": users.rate(),
                "win_rate_not_used": _rate(
                    self.seat_games.wins - users.wins, self.seat_games.games - users.games
                ),
            }
        return rows

    def summary(self) -> dict[str, Any]:
        """The JSON-ready sample-game figures (the card table and verdicts are added by the check)."""
        failures = sorted(self.failures, key=lambda f: f["seed"])
        return {
            "games": self.games,
            "completed": self.completed,
            "failed": len(failures),
            "failures": failures[:MAX_LISTED_FAILURES],
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "length": _spread(self.lengths),
            "scores": _spread(self.scores),
            "winning_margin": _spread(self.margins) if not self.cooperative else None,
            "eliminations": self.eliminations,
            "team_win_rate": self.team.rate() if self.cooperative else None,
            "win_rate_by_scenario": {s: w.rate() for s, w in self.by_scenario.items()},
            "win_rate_by_players": {str(p): w.rate() for p, w in sorted(self.by_players.items())}
            if self.cooperative
            else None,
            "win_rate_by_seat": {str(s): w.rate() for s, w in sorted(self.by_seat.items())},
            "win_rate_by_agent": {a: w.rate() for a, w in sorted(self.by_agent.items())},
            "win_rate_by_faction": {f: w.rate() for f, w in sorted(self.by_faction.items())},
            "agents_by_seat": {str(s): dict(sorted(c.items())) for s, c in sorted(self.seat_agents.items())},
        }

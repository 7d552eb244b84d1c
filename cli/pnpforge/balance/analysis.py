"""From the games of each variant to the report's figures, each with its interval.

Per variant: win rate by seat, faction and agent (competitive games), the team's win rate and
each mission's (cooperative games), game length, and per card its uses and the win rate of the
seats that used it against those that did not.  Each non-baseline variant is compared with the
baseline figure by figure.  Two families of comparisons get a Bonferroni correction each (the
level of every difference interval is 1 − 0.05/m): the variant-against-baseline differences, and
the cards' used-against-not-used differences.  A difference is flagged only when its corrected
interval excludes zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpforge.balance.stats import (
    ALPHA,
    Interval,
    Moments,
    bonferroni_alpha,
    mean_difference,
    mean_interval,
    rate_difference,
    wilson,
)
from pnpforge.rules.tally import Tally, WinCount

MIN_CARD_GAMES = 5  # a card used in fewer seat-games gets no impact interval


@dataclass
class VariantGames:
    """One variant's tally (counts only; the same whatever order the games came in)."""

    name: str
    settings: tuple[tuple[str, str], ...]
    release: str | None
    tally: Tally


def _rate(count: WinCount | None) -> Interval | None:
    return wilson(count.wins, count.games) if count else None


def _i(interval: Interval | None) -> dict[str, float] | None:
    return interval.to_dict() if interval else None


def groups(v: VariantGames) -> dict[str, dict[str, WinCount]]:
    """The rates a variant reports, by group: seat, agent, faction; team and mission when cooperative."""
    t = v.tally
    out: dict[str, dict[str, WinCount]] = {
        "seat": {str(s): c for s, c in sorted(t.by_seat.items())},
        "agent": dict(sorted(t.by_agent.items())),
        "faction": dict(sorted(t.by_faction.items())),
    }
    if t.cooperative:
        out["team"] = {"team": t.team}
        out["mission"] = dict(sorted(t.by_scenario.items()))
        out["players"] = {str(p): c for p, c in sorted(t.by_players.items())}
    return out


def headline(v: VariantGames) -> list[Interval]:
    """The intervals `--until-ci` narrows: the team's win rate, or every seat's."""
    g = groups(v)
    chosen = g["team"] if v.tally.cooperative else g["seat"]
    return [i for c in chosen.values() if (i := _rate(c)) is not None]


def _card_counts(t: Tally) -> dict[str, tuple[WinCount, WinCount]]:
    """Per card: (seat-games that used it, seat-games that did not)."""
    out = {}
    for card in sorted(t.uses):
        users = t.users.get(card, WinCount())
        others = WinCount(t.seat_games.games - users.games, t.seat_games.wins - users.wins)
        out[card] = (users, others)
    return out


def _comparisons(variants: list[VariantGames]) -> tuple[int, int]:
    """(variant-against-baseline differences, card differences) the report makes."""
    base = groups(variants[0])
    against = 0
    for v in variants[1:]:
        g = groups(v)
        against += 1 + sum(len(g[k].keys() & base[k].keys()) for k in g)  # +1: game length
    cards = sum(
        1
        for v in variants
        for u, o in _card_counts(v.tally).values()
        if min(u.games, o.games) >= MIN_CARD_GAMES
    )
    return against, cards


def analyse(variants: list[VariantGames]) -> dict[str, Any]:
    """The report's figures for every variant (the first is the baseline)."""
    against, card_family = _comparisons(variants)
    alpha_v, alpha_c = bonferroni_alpha(against), bonferroni_alpha(card_family)
    base = variants[0]
    base_groups = groups(base)
    base_length = Moments.of(base.tally.lengths)
    out = []
    for v in variants:
        t = v.tally
        length = Moments.of(t.lengths)
        entry: dict[str, Any] = {
            "name": v.name,
            "settings": dict(v.settings),
            "release": v.release,
            "games": t.games,
            "completed": t.completed,
            "failed": t.games - t.completed,
            "length": _i(mean_interval(length)),
            "rates": {
                group: {key: {"games": c.games, **(_i(_rate(c)) or {})} for key, c in counts.items()}
                for group, counts in groups(v).items()
            },
            "cards": _cards(t, alpha_c),
        }
        if not t.cooperative:
            entry["fair_share"] = fair_share(t)
        if v is not base:
            entry["versus_baseline"] = _versus(groups(v), base_groups, alpha_v)
            diff = mean_difference(length, base_length, alpha_v)
            entry["versus_baseline"]["length"] = _flagged(diff)
        out.append(entry)
    return {
        "correction": {
            "method": "Bonferroni",
            "alpha": ALPHA,
            "variant_comparisons": against,
            "variant_level": round(1 - alpha_v, 6),
            "card_comparisons": card_family,
            "card_level": round(1 - alpha_c, 6),
        },
        "variants": out,
    }


def _flagged(interval: Interval | None) -> dict[str, Any] | None:
    if interval is None:
        return None
    return {**interval.to_dict(), "flagged": interval.excludes_zero()}


def _versus(
    g: dict[str, dict[str, WinCount]], base: dict[str, dict[str, WinCount]], alpha: float
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for group, counts in g.items():
        rows = {}
        for key, c in counts.items():
            b = base.get(group, {}).get(key)
            if b is not None:
                rows[key] = _flagged(rate_difference(c.wins, c.games, b.wins, b.games, alpha))
        out[group] = rows
    return out


def _cards(t: Tally, alpha: float) -> dict[str, Any]:
    rows = {}
    for card, (users, others) in _card_counts(t).items():
        impact = None
        if min(users.games, others.games) >= MIN_CARD_GAMES:
            impact = _flagged(rate_difference(users.wins, users.games, others.wins, others.games, alpha))
        rows[card] = {
            "uses": t.uses[card],
            "games": t.games_used[card],
            "user_games": users.games,
            "win_used": _i(_rate(users)),
            "win_not_used": _i(_rate(others)),
            "impact": impact,
        }
    return rows


def fair_share(t: Tally) -> dict[str, float]:
    """Each seat's win rate if every seat were equal: the mean of 1/players over the games it sat in
    (a seat that exists only at larger tables has a smaller share)."""
    out = {}
    for seat in sorted(t.by_seat):
        games = {n: c.games for n, c in t.by_players.items() if n > seat}
        total = sum(games.values())
        if total:
            out[str(seat)] = round(sum(g / n for n, g in games.items()) / total, 4)
    return out

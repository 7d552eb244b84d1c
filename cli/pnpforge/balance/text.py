"""The balance report as plain-text tables for the terminal (the command prints the lines)."""

from __future__ import annotations

import unicodedata
from typing import Any

CARD_ROWS = 10  # cards listed per variant: the largest impacts (--json lists every card)


def pct(interval: dict[str, float] | None, signed: bool = False) -> str:
    """'41% [32–50]' or, for a difference, '+6 pp [−3, +15] *' when the interval excludes zero."""
    if not interval:
        return "–"
    e, lo, hi = (interval[k] * 100 for k in ("estimate", "low", "high"))
    if signed:
        flag = " *" if interval.get("flagged") else ""
        return f"{e:+.0f} pp [{lo:+.0f}, {hi:+.0f}]{flag}"
    return f"{e:.0f}% [{lo:.0f}–{hi:.0f}]"


def _number(interval: dict[str, float] | None, signed: bool = False) -> str:
    if not interval:
        return "–"
    e, lo, hi = interval["estimate"], interval["low"], interval["high"]
    if signed:
        flag = " *" if interval.get("flagged") else ""
        return f"{e:+.1f} [{lo:+.1f}, {hi:+.1f}]{flag}"
    return f"{e:.1f} [{lo:.1f}–{hi:.1f}]"


def _width(text: str) -> int:
    """Terminal columns of `text`: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table(rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell, with a rule under the header."""
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = [
        "  ".join(c + " " * (w - _width(c)) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    out.insert(1, "  ".join("─" * w for w in widths))
    return out


def _headline_groups(report: dict[str, Any]) -> list[str]:
    return ["team", "mission", "players"] if report["cooperative"] else ["seat", "faction", "agent"]


def report_lines(report: dict[str, Any]) -> list[str]:
    """Every variant's figures against the baseline, then the cards that matter most."""
    c = report["correction"]
    lines = [
        f"balance of {report['game']}: {len(report['variants'])} variant(s), "
        f"{report['games_per_variant']} games each (seeds {report['seed']}–"
        f"{report['seed'] + report['games_per_variant'] - 1}), agents {report['agents']}"
        + (f" {report['agent_options']}" if report["agent_options"] else ""),
        "intervals: 95% Wilson for rates; differences at the Bonferroni level "
        + (
            f"{c['variant_level'] * 100:.3f}% over {c['variant_comparisons']} variant comparisons and "
            if c["variant_comparisons"]
            else ""
        )
        + f"{c['card_level'] * 100:.4f}% over {c['card_comparisons']} card comparisons; * = excludes zero",
    ]
    if report["until_ci"] is not None:
        last = report["rounds"][-1]
        lines.append(
            f"--until-ci {report['until_ci']}: widest headline interval {last['widest_headline']:.3f} "
            f"after {last['games']} games per variant"
            + ("" if report["reached"] else " (budget spent first)")
        )
    header = ["figure"] + [v["name"] for v in report["variants"]]
    rows = [header]
    base = report["variants"][0]
    for group in _headline_groups(report):
        for key in base["rates"].get(group, {}):
            row = [f"win {group} {key}" if group != "team" else "team win rate"]
            for v in report["variants"]:
                value = pct(v["rates"].get(group, {}).get(key))
                if "versus_baseline" in v:
                    value += "  " + pct(v["versus_baseline"].get(group, {}).get(key), signed=True)
                row.append(value)
            rows.append(row)
    row = ["game length (steps)"]
    for v in report["variants"]:
        value = _number(v["length"])
        if "versus_baseline" in v:
            value += "  " + _number(v["versus_baseline"]["length"], signed=True)
        row.append(value)
    rows.append(row)
    rows.append(["failed games"] + [str(v["failed"]) for v in report["variants"]])
    lines += [""] + table(rows)
    for v in report["variants"]:
        lines += [""] + card_lines(v)
    return lines


def card_lines(variant: dict[str, Any]) -> list[str]:
    cards = [(cid, row) for cid, row in variant["cards"].items() if row["impact"]]
    cards.sort(key=lambda item: (-abs(item[1]["impact"]["estimate"]), item[0]))
    if not cards:
        return [f"{variant['name']}: no card used in enough seat-games for an impact interval"]
    rows = [["card", "uses", "seat-games", "win used", "win not used", "used − not used"]]
    for cid, row in cards[:CARD_ROWS]:
        rows.append(
            [cid, str(row["uses"]), str(row["user_games"]), pct(row["win_used"]), pct(row["win_not_used"]),
             pct(row["impact"], signed=True)]
        )  # fmt: skip
    return [f"{variant['name']}: cards whose users win most differently (of {len(cards)})"] + table(rows)

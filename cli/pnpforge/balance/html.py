"""The balance report as one self-contained HTML page: tables and inline SVG charts, no network.

Everything the page needs is inside it (styles, pictures); it loads no script, font or image,
so it opens the same offline, attached to an e-mail or archived beside a release.
"""

from __future__ import annotations

import html
from typing import Any

from pnpforge.balance import charts
from pnpforge.balance.text import card_lines, pct

_STYLE = """
body { font-family: system-ui, 'Noto Sans CJK SC', 'Noto Sans TC', sans-serif; margin: 2rem auto;
       max-width: 70rem; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.5rem 0; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th { background: #f5f5f5; } td.flag, small.flag { color: #b00020; font-weight: 600; }
small.diff { color: #555; } .wide { overflow-x: auto; }
.note { color: #555; font-size: 0.85rem; } figure { margin: 1rem 0; } svg { max-width: 100%; height: auto; }
"""


def _e(text: Any) -> str:
    return html.escape(str(text))


def _cell(text: str, flagged: bool = False) -> str:
    return f"<td class='flag'>{_e(text)}</td>" if flagged else f"<td>{_e(text)}</td>"


def _two_line(value: str, difference: str, flagged: bool) -> str:
    """A figure with, under it, its difference from the baseline (red when flagged)."""
    under = (
        f"<br><small class='{'flag' if flagged else 'diff'}'>{_e(difference)}</small>" if difference else ""
    )
    return f"<td>{_e(value)}{under}</td>"


def _rates_table(report: dict[str, Any]) -> str:
    groups = ["team", "mission", "players"] if report["cooperative"] else ["seat", "faction", "agent"]
    variants = report["variants"]
    head = "".join(f"<th>{_e(v['name'])}</th>" for v in variants)
    rows = []
    for group in groups:
        for key in variants[0]["rates"].get(group, {}):
            cells = []
            for v in variants:
                rate = pct(v["rates"].get(group, {}).get(key))
                diff = v.get("versus_baseline", {}).get(group, {}).get(key)
                cells.append(
                    _two_line(rate, pct(diff, signed=True) if diff else "", bool(diff and diff["flagged"]))
                )
            label = "team win rate" if group == "team" else f"{group} {key}"
            rows.append(f"<tr><th>{_e(label)}</th>{''.join(cells)}</tr>")
    cells = []
    for v in variants:
        length = v["length"]
        text = f"{length['estimate']:.1f} [{length['low']:.1f}–{length['high']:.1f}]" if length else "–"
        diff = v.get("versus_baseline", {}).get("length")
        shift = f"{diff['estimate']:+.1f} [{diff['low']:+.1f}, {diff['high']:+.1f}]" if diff else ""
        cells.append(_two_line(text, shift, bool(diff and diff["flagged"])))
    rows.append(f"<tr><th>game length (steps)</th>{''.join(cells)}</tr>")
    rows.append("<tr><th>failed games</th>" + "".join(_cell(str(v["failed"])) for v in variants) + "</tr>")
    return f"<div class='wide'><table><tr><th>figure</th>{head}</tr>{''.join(rows)}</table></div>"


def _seat_table(variant: dict[str, Any]) -> str:
    shares = variant.get("fair_share", {})
    rows = [
        _row([k, str(r["games"]), pct(r), f"{shares.get(k, 0) * 100:.0f}%"])
        for k, r in variant["rates"].get("seat", {}).items()
        if "estimate" in r
    ]
    return _head(["seat", "games", "win rate [95%]", "fair share"]) + "".join(rows) + "</table>"


def _row(cells: list[str], last_flagged: bool = False) -> str:
    body = "".join(_cell(c) for c in cells[:-1]) + _cell(cells[-1], last_flagged)
    return f"<tr>{body}</tr>"


def _head(names: list[str]) -> str:
    return "<table><tr>" + "".join(f"<th>{_e(n)}</th>" for n in names) + "</tr>"


def _card_table(variant: dict[str, Any]) -> str:
    lines = card_lines(variant)
    if len(lines) < 3:
        return f"<p class='note'>{_e(lines[0])}</p>"
    shown = len(lines) - 3  # the title, the header and its rule
    cards = [(cid, row) for cid, row in variant["cards"].items() if row["impact"]]
    cards.sort(key=lambda item: (-abs(item[1]["impact"]["estimate"]), item[0]))
    body = "".join(
        _row(
            [
                cid,
                str(row["uses"]),
                str(row["user_games"]),
                pct(row["win_used"]),
                pct(row["win_not_used"]),
                pct(row["impact"], signed=True),
            ],
            row["impact"]["flagged"],
        )  # fmt: skip
        for cid, row in cards[:shown]
    )
    head = _head(["card", "uses", "seat-games", "win used", "win not used", "used − not used"])
    return head + body + "</table>"


def page(report: dict[str, Any]) -> str:
    """The whole page."""
    c = report["correction"]
    base = report["variants"][0]
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Balance of {_e(report['game'])}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Balance of {_e(report['game'])}</h1>",
        f"<p>{len(report['variants'])} variant(s), {report['games_per_variant']} seeded games each "
        f"(seeds {report['seed']}–{report['seed'] + report['games_per_variant'] - 1}, "
        "the same for every variant); "
        f"agents: {_e(report['agents'])}"
        + (f" {_e(report['agent_options'])}" if report["agent_options"] else "")
        + ".</p>",
        "<p class='note'>Rates: 95% Wilson intervals. Differences from the baseline (in brackets, "
        "percentage points): Newcombe intervals at the Bonferroni-corrected level "
        f"{c['variant_level'] * 100:.3f}% "
        f"({c['variant_comparisons']} comparisons); cards: {c['card_level'] * 100:.4f}% "
        f"({c['card_comparisons']} comparisons). Red: the corrected interval excludes zero.</p>",
        "<h2>Win rates by variant</h2>",
        _rates_table(report),
        f"<figure>{charts.win_rate_chart(report)}</figure>",
        "<h2>Seat advantage</h2>" if not report["cooperative"] else "<h2>Missions</h2>",
        f"<figure>{charts.seat_chart(report, base)}</figure>",
    ]
    if not report["cooperative"]:
        parts.append(_seat_table(base))
    for v in report["variants"]:
        parts.append(f"<h2>Cards: {_e(v['name'])}</h2>")
        chart = charts.card_chart(v)
        if chart:
            parts.append(f"<figure>{chart}</figure>")
        parts.append(_card_table(v))
    parts.append("</body></html>")
    return "\n".join(parts)

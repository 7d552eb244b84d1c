"""The report's pictures, drawn with matplotlib into inline SVG (no file, no network).

Three charts a designer reads at a glance: the headline win rate against the varied value with
its 95 % band, the seat advantage (each seat's win rate against its fair share), and the cards'
impact (the win rate of the seats that used a card minus that of those that did not, with the
corrected interval).  The SVG is deterministic (fixed ids, no date), so the same report gives the
same page.  matplotlib is imported here only, when a page is asked for.
"""

from __future__ import annotations

import io
import re
from typing import Any

BAND_ALPHA = 0.18
CARD_BARS = 15
_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f"]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update(
        {
            "svg.hashsalt": "pnpforge",  # stable element ids
            "svg.fonttype": "none",  # text stays text: the browser draws it (CJK names included)
            "font.family": "DejaVu Sans",  # metrics only: the SVG keeps text, the browser draws it
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Any) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "pnpforge"})
    _pyplot().close(fig)
    text = out.getvalue()
    text = text[text.index("<svg") :]  # drop the XML prologue and doctype: the SVG sits inside HTML
    return _METADATA.sub("", text)  # the RDF block names web namespaces; the page needs none of it


_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.DOTALL)


def _x_axis(report: dict[str, Any]) -> tuple[list[float], list[str], str, bool]:
    """(positions, labels, axis title, numeric) for the variants: the varied value when one
    numeric field is varied (the baseline at the value the deck has), else one slot per variant."""
    variants = report["variants"]
    varied = report["varied"]
    base_values = report.get("baseline_values", {})
    if len(varied) == 1 and not report["compare"]:
        label = varied[0]
        texts = [base_values.get(label, "")] + [v["settings"][label] for v in variants[1:]]
        try:
            xs = [float(t.lstrip("*")) for t in texts]
            return xs, texts, label + (" (× current)" if texts[1].startswith("*") else ""), True
        except (ValueError, IndexError):
            pass
    return [float(i) for i in range(len(variants))], [v["name"] for v in variants], "variant", False


def _series(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(group, key, legend) of the headline rates: the team, or each seat."""
    base = report["variants"][0]["rates"]
    if report["cooperative"]:
        return [("team", "team", "team win rate")]
    return [("seat", key, f"seat {key}") for key in base.get("seat", {})]


def win_rate_chart(report: dict[str, Any]) -> str:
    plt = _pyplot()
    xs, labels, title, numeric = _x_axis(report)
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    for n, (group, key, legend) in enumerate(_series(report)):
        rows = [report["variants"][i]["rates"].get(group, {}).get(key) for i in order]
        points = [(xs[i], r) for i, r in zip(order, rows, strict=True) if r and "estimate" in r]
        if not points:
            continue
        px = [p[0] for p in points]
        colour = _COLOURS[n % len(_COLOURS)]
        ax.plot(px, [p[1]["estimate"] for p in points], marker="o", color=colour, label=legend)
        ax.fill_between(px, [p[1]["low"] for p in points], [p[1]["high"] for p in points],
                        color=colour, alpha=BAND_ALPHA, linewidth=0)  # fmt: skip
    base_x = xs[0]
    ax.axvline(base_x, color="#999999", linestyle=":", linewidth=1)
    ax.annotate("current deck", (base_x, 1.0), xycoords=("data", "axes fraction"), fontsize=8,
                color="#666666", ha="left", va="top", xytext=(3, 0), textcoords="offset points")  # fmt: skip
    ax.set_xticks(xs, labels, rotation=0 if numeric else 20, ha="center" if numeric else "right")
    ax.set_xlabel(title)
    ax.set_ylabel("win rate (95% band)")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    ax.set_title("Win rate against the varied value", loc="left")
    return _svg(fig)


def seat_chart(report: dict[str, Any], variant: dict[str, Any]) -> str:
    """Each seat's win rate (competitive) or each mission's (cooperative), with error bars."""
    plt = _pyplot()
    group = "mission" if report["cooperative"] else "seat"
    rows = [(k, r) for k, r in variant["rates"].get(group, {}).items() if "estimate" in r]
    fig, ax = plt.subplots(figsize=(7.0, 3.2 if len(rows) < 12 else 4.2))
    xs = list(range(len(rows)))
    est = [r["estimate"] for _, r in rows]
    err = [[r["estimate"] - r["low"] for _, r in rows], [r["high"] - r["estimate"] for _, r in rows]]
    ax.bar(xs, est, color="#4c78a8", width=0.6)
    ax.errorbar(xs, est, yerr=err, fmt="none", ecolor="#222222", capsize=3, linewidth=1)
    if not report["cooperative"]:
        shares = variant.get("fair_share", {})
        for x, (key, _r) in zip(xs, rows, strict=True):
            if key in shares:
                ax.hlines(shares[key], x - 0.35, x + 0.35, color="#d62728", linestyle="--", linewidth=1)
        ax.set_title("Seat advantage: win rate by seat (dashed: fair share)", loc="left")
        ax.set_xlabel("seat (0 plays first)")
    else:
        ax.set_title("Team win rate by mission", loc="left")
        ax.set_xlabel("mission")
    ax.set_xticks(xs, [k for k, _ in rows], rotation=0 if len(rows) < 12 else 60, fontsize=8)
    ax.set_ylabel("win rate (95%)")
    ax.set_ylim(0, 1)
    return _svg(fig)


def card_chart(variant: dict[str, Any]) -> str | None:
    """The cards with the largest impact, as horizontal bars with their corrected intervals."""
    cards = [(cid, row["impact"]) for cid, row in variant["cards"].items() if row["impact"]]
    if not cards:
        return None
    cards.sort(key=lambda item: (-abs(item[1]["estimate"]), item[0]))
    cards = list(reversed(cards[:CARD_BARS]))
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 0.28 * len(cards) + 1.2))
    ys = list(range(len(cards)))
    est = [i["estimate"] for _, i in cards]
    colours = ["#d62728" if i["flagged"] else "#9ecae1" for _, i in cards]
    ax.barh(ys, est, color=colours, height=0.6)
    err = [[i["estimate"] - i["low"] for _, i in cards], [i["high"] - i["estimate"] for _, i in cards]]
    ax.errorbar(est, ys, xerr=err, fmt="none", ecolor="#222222", capsize=2, linewidth=0.8)
    ax.axvline(0, color="#444444", linewidth=0.8)
    ax.set_yticks(ys, [cid for cid, _ in cards], fontsize=8)
    ax.set_xlabel("win rate of users − non-users (corrected interval; red: excludes zero)")
    ax.set_title("Per-card impact", loc="left")
    return _svg(fig)

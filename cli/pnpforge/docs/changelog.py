"""The changelog page of the rules summary: what each release changed, newest first.

Playtesters holding an older printing need to know which cards changed;
the summary (`pnp rules`, and so `pnp build`) ends with one section per
release after the first, plus the changes not yet released.  A game with
no change since its first release gets no page at all, so the summaries of
games fresh from their rulebook stay as they were.
"""

from __future__ import annotations

import sqlite_utils

from pnpforge.query.changes import CURRENT, Diff, compare, format_value
from pnpforge.store import releases, repo

TITLES = {"zh-Hant": "更新紀錄", "zh-Hans": "更新记录", "ja": "更新履歴", "ko": "변경 기록"}
UNRELEASED = {"zh-Hant": "未發布", "zh-Hans": "未发布", "ja": "未リリース", "ko": "미출시"}
MAX_LINES = 40  # per release: a summary is three pages, not a full diff (`pnp diff` has it all)


def _lines(diff: Diff) -> list[str]:
    out = [f"- \\+ {c['id']} {c.get('name', '')}" for c in diff.added]
    out += [f"- − {c['id']} {c.get('name', '')}" for c in diff.removed]
    for ch in diff.changed:
        what = "; ".join(
            f"{k.removeprefix('fields.')}: {format_value(a)} → {format_value(b)}"
            for k, (a, b) in ch.changes.items()
            if k != "provisional_fields"
        )
        out.append(f"- ~ {ch.id} {ch.name}" + (f": {what}" if what else ""))
    if len(out) > MAX_LINES:
        more = f"- … {len(out) - MAX_LINES} more (pnp diff {diff.game} {diff.old} {diff.new})"
        out = out[:MAX_LINES] + [more]
    return out


def changelog_markdown(db: sqlite_utils.Database, game: str) -> str:
    """The changelog section in the summary's Markdown, or '' when nothing changed since the first release."""
    known = releases.list_releases(db, game)
    if not known:
        return ""
    language = repo.get_game(db, game).language
    snapshots = [releases.cards_at(db, game, r.tag) for r in known]
    sections: list[tuple[str, Diff]] = []
    for i in range(1, len(known)):
        r = known[i]
        head = f"{r.tag} · {r.created_at[:10]}" + (f" — {r.notes}" if r.notes else "")
        sections.append((head, compare(game, known[i - 1].tag, r.tag, snapshots[i - 1], snapshots[i])))
    pending = compare(game, known[-1].tag, CURRENT, snapshots[-1], releases.current_cards(db, game))
    if not pending.is_empty():
        sections.append((f"{UNRELEASED.get(language, 'Unreleased')} (since {known[-1].tag})", pending))
    if not sections:
        return ""
    title = f"{TITLES[language]} · Changelog" if language in TITLES else "Changelog"
    parts = [f"\n## {title}\n"]
    for head, diff in reversed(sections):
        parts.append(f"### {head}\n")
        parts.append("\n".join(_lines(diff)) or "- —")
        parts.append("")
    return "\n".join(parts) + "\n"

"""Releases: freezing a game's cards, diffs between releases, and reprint sheets of what changed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pnpforge.edit import add_card, remove_card, set_card
from pnpforge.errors import PnpError
from pnpforge.query.changes import changed_since, diff_releases, reprint_query
from pnpforge.store import releases, repo
from pnpforge.store.db import open_db
from pnpforge.store.schema import SCHEMA_VERSION


def test_each_shipped_game_has_its_rulebook_edition_as_first_release(shipped_db: Path) -> None:
    db = open_db(shipped_db, readonly=True)
    for game in repo.list_games(db):
        first = releases.list_releases(db, game.slug)[0]
        assert first.tag == releases.EDITION_TAG and first.derived
        frozen = releases.cards_at(db, game.slug, "edition")
        assert frozen.keys() == releases.current_cards(db, game.slug).keys()
        assert diff_releases(db, game.slug).is_empty(), game.slug


def test_release_freezes_cards_sets_version_and_diff_lists_changes(shipped_db: Path) -> None:
    db = open_db(shipped_db)
    set_card(db, "enforcer", "OB-02", {"difficulty": "6"})
    made = releases.create_release(db, "enforcer", "v0.2", "harder OB-02")
    assert made.version == "0.2" and repo.get_game(db, "enforcer").version == "0.2"
    set_card(db, "enforcer", "OB-03", {"score": "4", "notes": "bookkeeping only"})
    remove_card(db, "enforcer", "OB-05")
    add_card(
        db,
        "enforcer",
        "obligor",
        "OB-99",
        {
            "name": "新義務人",
            "category": "稅",
            "score": "3",
            "difficulty": "4",
            "epithet": "新",
            "objections": "0",
        },
    )
    since = diff_releases(db, "enforcer")
    assert (since.old, since.new) == ("v0.2", "current")
    assert [c["id"] for c in since.added] == ["OB-99"]
    assert [c["id"] for c in since.removed] == ["OB-05"]
    assert [c.id for c in since.changed] == ["OB-03"]
    assert since.changed[0].changes["fields.score"] == (5, 4)
    assert "notes" not in since.changed[0].changes  # not printed: no reprint
    between = diff_releases(db, "enforcer", "edition", "v0.2")
    assert [c.id for c in between.changed] == ["OB-02"]
    assert between.changed[0].changes["fields.difficulty"] == (5, 6)
    assert changed_since(db, "enforcer", "v0.2") == ["OB-03", "OB-99"]
    assert changed_since(db, "enforcer", "edition") == ["OB-02", "OB-03", "OB-99"]


def test_releases_survive_a_game_replaced_from_its_bundle(shipped_db: Path, run, tmp_path: Path) -> None:
    db = open_db(shipped_db)
    set_card(db, "enforcer", "OB-02", {"difficulty": "6"})
    releases.create_release(db, "enforcer", "v0.2", "harder OB-02")
    bundle = tmp_path / "enforcer.json"
    assert run("--db", str(shipped_db), "game", "export", "enforcer", "-o", str(bundle)).exit_code == 0
    replaced = run("--db", str(shipped_db), "game", "import", str(bundle), "--replace")
    assert replaced.exit_code == 0, replaced.output
    db = open_db(shipped_db, readonly=True)
    assert [r.tag for r in releases.list_releases(db, "enforcer")] == ["edition", "v0.2"]
    assert releases.cards_at(db, "enforcer", "v0.2")["OB-02"]["fields"]["difficulty"] == 6


def test_a_release_is_frozen_and_tags_are_checked(shipped_db: Path) -> None:
    db = open_db(shipped_db)
    releases.create_release(db, "hackers", "v1")
    with pytest.raises(PnpError, match="already has a release 'v1'"):
        releases.create_release(db, "hackers", "v1")
    for bad in ("edition", "../x", "", "a b"):
        with pytest.raises(PnpError):
            releases.create_release(db, "hackers", bad)
    with pytest.raises(sqlite3.IntegrityError, match="frozen"):
        db.conn.execute("UPDATE release_cards SET snapshot = '{}' WHERE game = 'hackers'")
    with pytest.raises(PnpError, match="no release 'v9'"):
        diff_releases(db, "hackers", "v9")


def test_release_tables_are_added_to_a_database_made_before_them(shipped_db: Path) -> None:
    conn = sqlite3.connect(shipped_db)
    # a file of the version before the search index, written before the release tables existed
    conn.executescript(
        "DROP TABLE IF EXISTS release_cards; DROP TABLE IF EXISTS releases; "
        f"PRAGMA user_version = {SCHEMA_VERSION - 1};"
    )
    conn.close()
    db = open_db(shipped_db, readonly=True)
    assert [r.tag for r in releases.list_releases(db, "enforcer")] == ["edition"]
    db = open_db(shipped_db)
    releases.create_release(db, "enforcer", "v0.2")
    assert [r.tag for r in releases.list_releases(db, "enforcer")] == ["edition", "v0.2"]


def test_cli_release_diff_and_reprint_sheet(shipped_db: Path, run, tmp_path: Path) -> None:
    res = run("--db", shipped_db, "release", "accusation", "v0.2", "--notes", "first playtest")
    assert res.exit_code == 0, res.output
    assert "cards now print version 0.2" in res.output
    res = run("--db", shipped_db, "diff", "accusation")
    assert "0 added, 0 removed, 0 changed" in res.output
    card = repo.list_cards(open_db(shipped_db, readonly=True), "accusation")[0]
    assert run("--db", shipped_db, "cards", "set", "accusation", card.id, "copies=5").exit_code == 0
    res = run("--db", shipped_db, "diff", "accusation", "--json")
    data = json.loads(res.stdout)
    assert data["changed"][0]["id"] == card.id
    assert data["changed"][0]["changes"]["copies"] == {"before": card.copies, "after": 5}
    pdf = tmp_path / "reprint.pdf"
    res = run("--db", shipped_db, "print", "accusation", "--changed-since", "v0.2", "-o", pdf, "--json")
    assert res.exit_code == 0, res.output
    manifest = json.loads(res.stdout)
    assert {p["id"] for p in manifest["placements"]} == {card.id}
    assert {p["side"] for p in manifest["placements"]} == {"face", "back"}
    assert manifest["cards"] == 5
    res = run("--db", shipped_db, "release", "accusation")
    assert "v0.2" in res.output and "first playtest" in res.output


def test_nothing_to_reprint_and_unknown_tag_are_one_line_errors(shipped_db: Path, run) -> None:
    res = run("--db", shipped_db, "print", "enforcer", "--changed-since", "edition")
    assert res.exit_code != 0 and "nothing to reprint" in res.stderr
    res = run("--db", shipped_db, "diff", "enforcer", "v7")
    assert res.exit_code != 0 and "no release 'v7'" in res.stderr and "Traceback" not in res.output
    with pytest.raises(PnpError, match="nothing to reprint"):
        reprint_query(open_db(shipped_db, readonly=True), "enforcer", "edition", "type:obligor")


def test_rules_summary_ends_with_a_changelog_once_something_changed(
    shipped_db: Path, run, tmp_path: Path
) -> None:
    from pnpforge.docs.changelog import changelog_markdown

    db = open_db(shipped_db)
    assert changelog_markdown(db, "enforcer") == ""  # fresh from the rulebook: no page
    set_card(db, "enforcer", "OB-02", {"difficulty": "6"})
    releases.create_release(db, "enforcer", "v0.2", "harder OB-02")
    set_card(db, "enforcer", "OB-03", {"score": "4"})
    out = tmp_path / "rules.md"
    assert run("--db", shipped_db, "rules", "enforcer", "--format", "md", "-o", out).exit_code == 0
    text = out.read_text(encoding="utf-8")
    log = text[text.index("## 更新紀錄 · Changelog") :]
    assert log.index("未發布 (since v0.2)") < log.index("v0.2 · ")  # newest first
    assert "OB-03 投機中小企業: score: 5 → 4" in log and "OB-02 小氣大地主: difficulty: 5 → 6" in log
    assert "— harder OB-02" in log

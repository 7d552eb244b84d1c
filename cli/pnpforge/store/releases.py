"""SQL of releases: freeze a game's cards under a tag, and read any release back.

A release is a named, frozen copy of every card of a game (table
`release_cards`, one JSON snapshot per card in the shape history writes).
The game's rulebook edition is its first release, `edition`: the cards as
history holds them at the moment the edition was frozen, with the edition's
own (possibly corrected) values laid over them.  It is computed, not stored,
so a correction of the edition moves this release too.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.store import edition, repo, schema_v4
from pnpforge.store.db import connection, transaction

EDITION_TAG = "edition"
_TAG_RE = re.compile(schema_v4.TAG_PATTERN)

Snapshot = dict[str, Any]


@dataclass
class Release:
    """One release of a game: its tag, the version it printed, and when it was frozen."""

    game: str
    tag: str
    version: str
    notes: str
    created_at: str
    seq: int
    derived: bool = False  # the rulebook edition: computed from the edition and history

    def to_dict(self) -> dict[str, Any]:
        return {
            "tag": self.tag,
            "version": self.version,
            "notes": self.notes,
            "created_at": self.created_at,
            "derived": self.derived,
        }


def card_snapshot(card: Any) -> Snapshot:
    """A card (model.Card) as a release keeps it: what history's `after` holds."""
    data = card.to_dict()
    data.pop("created_at", None)
    data.pop("updated_at", None)
    data["provisional_fields"] = sorted(set(data.get("provisional_fields") or []))
    return dict(data)


def current_cards(db: sqlite_utils.Database, game: str) -> dict[str, Snapshot]:
    """The game's cards as they are now, by id, in deck order."""
    return {c.id: card_snapshot(c) for c in repo.list_cards(db, game, strict=False)}


def check_tag(tag: str) -> None:
    """Refuse a tag outside the grammar, or the reserved name of the rulebook edition."""
    if not _TAG_RE.fullmatch(tag) or ".." in tag:
        raise PnpError(
            f"release tag {tag!r}: use letters, digits, '.', '_' or '-', starting with a "
            f"letter or digit, at most 40 characters (e.g. v0.2)"
        )
    if tag == EDITION_TAG:
        raise PnpError(f"release tag '{EDITION_TAG}' is reserved for the rulebook edition")


def version_of(tag: str) -> str:
    """The version a release prints on its cards: the tag without a leading 'v' before a digit."""
    return tag[1:] if len(tag) > 1 and tag[0] in "vV" and tag[1].isdigit() else tag


def _edition_release(db: sqlite_utils.Database, game: str) -> Release | None:
    row = (
        connection(db)
        .execute("SELECT min(frozen_seq), min(frozen_at), count(*) FROM edition WHERE game = ?", [game])
        .fetchone()
    )
    if not row or not row[2]:
        return None
    return Release(game, EDITION_TAG, "", "the rulebook edition (frozen baseline)", row[1], row[0], True)


def list_releases(db: sqlite_utils.Database, game: str) -> list[Release]:
    """The game's releases, oldest first; the rulebook edition, when there is one, comes first."""
    out: list[Release] = []
    first = _edition_release(db, game)
    if first is not None:
        out.append(first)
    rows = (
        connection(db)
        .execute(
            "SELECT tag, version, notes, created_at, seq FROM releases WHERE game = ? "
            "ORDER BY position, created_at, tag",
            [game],
        )
        .fetchall()
    )
    out.extend(Release(game, r[0], r[1], r[2], r[3], r[4]) for r in rows)
    return out


def get_release(db: sqlite_utils.Database, game: str, tag: str) -> Release:
    releases = list_releases(db, game)
    for r in releases:
        if r.tag == tag:
            return r
    known = ", ".join(r.tag for r in releases) or "none yet: pnp release GAME TAG makes one"
    raise PnpError(f"game '{game}' has no release '{tag}' (releases: {known})")


def cards_at(db: sqlite_utils.Database, game: str, tag: str) -> dict[str, Snapshot]:
    """The cards a release froze, by id."""
    release = get_release(db, game, tag)
    if release.derived:
        return _edition_cards(db, game, release.seq)
    rows = (
        connection(db)
        .execute(
            "SELECT rc.card, rc.snapshot FROM release_cards rc WHERE rc.game = ? AND rc.tag = ? "
            "ORDER BY rc.rowid",
            [game, tag],
        )
        .fetchall()
    )
    return {r[0]: json.loads(r[1]) for r in rows}


def _edition_cards(db: sqlite_utils.Database, game: str, seq: int) -> dict[str, Snapshot]:
    """Cards as history had them at `seq`, with the edition's frozen values laid over them."""
    state: dict[str, Snapshot] = {}
    rows = connection(db).execute(
        "SELECT card, after FROM history WHERE game = ? AND seq <= ? ORDER BY seq", [game, seq]
    )
    for card_id, after in rows:
        if after is None:
            state.pop(card_id, None)
        else:
            state[card_id] = json.loads(after)
    for entry in edition.entries(db, game):
        if entry.card in state:
            merged = dict(state[entry.card])
            merged.update({k: v for k, v in entry.snapshot.items() if k != "fields"})
            merged["fields"] = dict(entry.snapshot.get("fields") or merged.get("fields") or {})
            state[entry.card] = merged
    return state


def create_release(db: sqlite_utils.Database, game: str, tag: str, notes: str = "") -> Release:
    """Freeze every card of `game` as release `tag` and print its version from now on."""
    check_tag(tag)
    version = version_of(tag)
    with transaction(db) as conn:
        repo.get_game(db, game)
        if conn.execute("SELECT 1 FROM releases WHERE game = ? AND tag = ?", [game, tag]).fetchone():
            raise PnpError(
                f"game '{game}' already has a release '{tag}'; releases are frozen, pick a new tag"
            )
        seq = conn.execute("SELECT coalesce(max(seq), 0) FROM history").fetchone()[0]
        position = conn.execute(
            "SELECT coalesce(max(position), 0) + 1 FROM releases WHERE game = ?", [game]
        ).fetchone()[0]
        conn.execute(
            "INSERT INTO releases (game, tag, version, notes, seq, position) VALUES (?, ?, ?, ?, ?, ?)",
            [game, tag, version, notes, seq, position],
        )
        conn.executemany(
            "INSERT INTO release_cards (game, tag, card, snapshot) VALUES (?, ?, ?, ?)",
            [
                (game, tag, card_id, json.dumps(snap, ensure_ascii=False, sort_keys=True))
                for card_id, snap in current_cards(db, game).items()
            ],
        )
        conn.execute("UPDATE games SET version = ? WHERE slug = ?", [version, game])
    return get_release(db, game, tag)


KeptReleases = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]

_RELEASE_COLUMNS = "game, tag, version, notes, seq, created_at, position"
_RELEASE_CARD_COLUMNS = "game, tag, card, snapshot"


def keep_releases(conn: sqlite3.Connection, game: str) -> KeptReleases:
    """The game's releases as stored, so a game replaced from a bundle keeps them.

    Deleting a game deletes its releases with it (foreign keys); a bundle carries
    no releases, so `game import --replace` would otherwise lose them.
    """
    releases = conn.execute(f"SELECT {_RELEASE_COLUMNS} FROM releases WHERE game = ?", [game]).fetchall()
    cards = conn.execute(
        f"SELECT {_RELEASE_CARD_COLUMNS} FROM release_cards WHERE game = ?", [game]
    ).fetchall()
    return releases, cards


def restore_releases(conn: sqlite3.Connection, kept: KeptReleases) -> None:
    """Put back what `keep_releases` took, after the game itself is back."""
    releases, cards = kept
    conn.executemany(f"INSERT INTO releases ({_RELEASE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", releases)
    conn.executemany(f"INSERT INTO release_cards ({_RELEASE_CARD_COLUMNS}) VALUES (?, ?, ?, ?)", cards)

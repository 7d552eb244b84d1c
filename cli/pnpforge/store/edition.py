"""SQL of the rulebook edition: the frozen baseline and correction notes in history."""

from __future__ import annotations

import sqlite3


def note_correction(conn: sqlite3.Connection, game: str, card_id: str, reason: str) -> None:
    """Tag the newest history entry of the card as a transcription correction, with its reason."""

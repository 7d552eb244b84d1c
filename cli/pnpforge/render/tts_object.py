"""A Tabletop Simulator saved object: every deck of a game, ready to drop on the table.

`pnp tts` already writes the deck sheets (≤ 10×7 cards) and one back image per
card type.  This adds `GAME.json`, a saved object (TTS's own format: a
`SaveName` wrapper whose `ObjectStates` hold one `DeckCustom` per card type),
so no sheet URL, width, height or count is typed by hand.  Each card is a
`Card` with its name as nickname and its English name and rules text as
description, and a CardID of sheet × 100 + its place on the sheet, exactly as
the sheet was drawn (deck order, copies included).

Image URLs: `file:///…` paths of the sheets on this computer (enough to play
alone), or, with `base_url`, that prefix plus the file name — upload the PNGs
(Steam Cloud, any web host) and write the object again with their address so
other players see them.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pnpforge.outfile import confined, write_text

DECK_SPACING = 3.0  # table units between decks laid side by side
SHEET_SLOTS = 100  # CardID = sheet key * 100 + slot


def _url(directory: Path, name: str, base_url: str | None) -> str:
    if base_url:
        return base_url.rstrip("/") + "/" + quote(name)
    return (directory.resolve() / name).as_uri()


def _guid(*parts: object) -> str:
    """A stable six-hex-digit GUID, so the same deck always writes the same bytes."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float = 0.0, face_down: bool = True) -> dict[str, float]:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def describe(card: Any) -> str:
    """The card's description in TTS: English name, then its rules text."""
    parts = [p for p in (card.name_en, card.text) if p]
    return "\n".join(parts)


def _custom(entry: dict, directory: Path, base_url: str | None) -> dict:
    return {
        "FaceURL": _url(directory, entry["file"], base_url),
        "BackURL": _url(directory, entry["back"], base_url),
        "NumWidth": entry["width"],
        "NumHeight": entry["height"],
        "BackIsHidden": True,
        "UniqueBack": False,
        "Type": 0,
    }


def deck_object(
    game: str,
    type_slug: str,
    type_name: str,
    deck: list,
    sheets: list[dict],
    directory: Path,
    base_url: str | None,
    x: float,
) -> dict:
    """One card type as a DeckCustom: its sheets as CustomDeck entries, a Card per copy."""
    custom: dict[str, dict] = {}
    contained: list[dict] = []
    ids: list[int] = []
    at = 0
    for key, entry in enumerate(sheets, start=1):
        custom[str(key)] = _custom(entry, directory, base_url)
        for slot in range(entry["number"]):
            card = deck[at]
            at += 1
            card_id = key * SHEET_SLOTS + slot
            ids.append(card_id)
            contained.append(
                {
                    "Name": "Card",
                    "GUID": _guid(game, type_slug, at),
                    "Transform": _transform(x),
                    "Nickname": card.name,
                    "Description": describe(card),
                    "GMNotes": card.id,
                    "CardID": card_id,
                    "SidewaysCard": bool(entry["sideways"]),
                    "CustomDeck": {str(key): custom[str(key)]},
                }
            )
    if len(contained) == 1:  # TTS has no one-card deck: a lone card is a Card object
        return {**contained[0], "Transform": _transform(x)}
    return {
        "Name": "DeckCustom",
        "GUID": _guid(game, type_slug),
        "Transform": _transform(x),
        "Nickname": type_name,
        "Description": f"{len(ids)} cards",
        "GMNotes": type_slug,
        "SidewaysCard": any(e["sideways"] for e in sheets),
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
    }


def saved_object(
    game: Any, types: dict, cards: list, decks: list[dict], directory: Path, base_url: str | None = None
) -> dict:
    """The whole saved object: one deck per card type that has sheets, side by side."""
    objects = []
    for n, slug in enumerate(dict.fromkeys(e["type"] for e in decks)):
        deck = [c for c in cards if c.type == slug for _ in range(c.copies)]
        sheets = [e for e in decks if e["type"] == slug]
        t = types[slug]
        name = f"{t.name} · {t.name_en}" if t.name_en else t.name
        objects.append(
            deck_object(game.slug, slug, name, deck, sheets, directory, base_url, n * DECK_SPACING)
        )
    return {
        "SaveName": f"{game.title} / {game.title_en}",
        "GameMode": "",
        "Date": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }


def write_saved_object(ctx: Any, result: Any, base_url: str | None = None) -> str:
    """Write `GAME.json` beside the sheets of a `pnp tts` result; return its path."""
    directory = Path(result.directory)
    data = saved_object(ctx.game, ctx.types, ctx.cards, result.decks, directory, base_url)
    path = confined(directory, f"{ctx.game.slug}.json")
    write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    return str(path)


README_TEXT = """
Or load every deck at once (a saved object, no numbers to type):
1. Copy {name} into Tabletop Simulator's "Saved Objects" folder
   (Documents/My Games/Tabletop Simulator/Saves/Saved Objects/).
2. In a game: Objects > Saved Objects > {title}: the decks appear on the table, one per card type,
   each card named, with its English name and rules text in its description.
Its image addresses are file:/// paths on this computer; to play online, upload the PNGs
(Modding > Cloud Manager, or any web host) and rerun with their address:
   pnp tts-object GAME --base-url https://example.org/path/
"""


def readme_note(game: Any) -> str:
    """The README.txt paragraph on importing the saved object."""
    return README_TEXT.format(name=f"{game.slug}.json", title=f"{game.title} / {game.title_en}")

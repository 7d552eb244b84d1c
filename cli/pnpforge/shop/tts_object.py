"""A Tabletop Simulator saved object: every deck of a game, ready to drop on the table.

`pnp tts` already writes the deck sheets (≤ 10×7 cards) and one back image per
card type.  This adds `GAME.json`, a saved object (TTS's own format: a
`SaveName` wrapper whose `ObjectStates` hold one `DeckCustom` per card type),
so no sheet width, height or count is typed by hand.  Each card is a `Card`
with its name as nickname and its English name and rules text as description,
and a CardID of sheet × 100 + its place on the sheet, exactly as the sheet was
drawn (deck order, copies included).

Image URLs: the object `pnp tts` and `pnp build` write names each image by its
file name alone, relative to the object, so a kit is the same bytes whichever
folder it was built in.  Tabletop Simulator needs full addresses, so
`pnp tts-object` (`link_saved_object`) writes a copy whose names are prefixed
with the sheets' `file:///` folder on this computer (enough to play alone) or,
with a base URL, with the address the PNGs were uploaded to, so other players
see them too.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from pnpforge.errors import PnpError
from pnpforge.outfile import confined, ensure_folder, write_text

DECK_SPACING = 3.0  # table units between decks laid side by side
SHEET_SLOTS = 100  # CardID = sheet key * 100 + slot
URL_KEYS = ("FaceURL", "BackURL")
URL_SCHEMES = ("http", "https", "file")


def _url(name: str, base_url: str) -> str:
    """`base_url` (empty: none, the name stays relative to the object) plus the quoted file name."""
    return base_url + quote(name)


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


def _custom(entry: dict, base_url: str) -> dict:
    return {
        "FaceURL": _url(entry["file"], base_url),
        "BackURL": _url(entry["back"], base_url),
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
    base_url: str,
    x: float,
    first_key: int = 1,
) -> dict:
    """One card type as a DeckCustom: its sheets as CustomDeck entries, a Card per copy.

    Sheet keys start at `first_key`, so every deck of one saved object has its own keys: TTS
    caches a CustomDeck by its key, and two decks sharing key 1 would show one deck's faces.
    """
    custom: dict[str, dict] = {}
    contained: list[dict] = []
    ids: list[int] = []
    at = 0
    for key, entry in enumerate(sheets, start=first_key):
        custom[str(key)] = _custom(entry, base_url)
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


def saved_object(game: Any, types: dict, cards: list, decks: list[dict], base_url: str = "") -> dict:
    """The whole saved object: one deck per card type that has sheets, side by side.

    With no `base_url` every image is named by its file name alone, so the bytes
    do not depend on where the sheets were written.
    """
    objects = []
    next_key = 1
    for n, slug in enumerate(dict.fromkeys(e["type"] for e in decks)):
        deck = [c for c in cards if c.type == slug for _ in range(c.copies)]
        sheets = [e for e in decks if e["type"] == slug]
        t = types[slug]
        name = f"{t.name} · {t.name_en}" if t.name_en and t.name_en != t.name else t.name
        objects.append(deck_object(game.slug, slug, name, deck, sheets, base_url, n * DECK_SPACING, next_key))
        next_key += len(sheets)
    return {
        "SaveName": game.titles(),
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


def write_saved_object(ctx: Any, result: Any) -> str:
    """Write `GAME.json` (image names relative to it) beside the sheets of a `pnp tts` result."""
    directory = Path(result.directory)
    data = saved_object(ctx.game, ctx.types, ctx.cards, result.decks)
    path = confined(directory, f"{ctx.game.slug}.json")
    write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    return str(path)


# ---- linking: full image addresses for Tabletop Simulator ----------------------------------


@dataclass
class LinkResult:
    """What `pnp tts-object` wrote: the linked object, the address prefix, the images it names."""

    path: str
    base_url: str
    images: list[str]


def check_base_url(base_url: str) -> str:
    """`base_url` with a trailing slash; PnpError unless it is an http(s) or file address."""
    parts = urlsplit(base_url)
    if parts.scheme not in URL_SCHEMES or not (parts.netloc or parts.scheme == "file"):
        raise PnpError(
            f"--base-url '{base_url}' is not an address Tabletop Simulator can load "
            f"(allowed: {', '.join(s + '://' for s in URL_SCHEMES)}…)"
        )
    return base_url if base_url.endswith("/") else base_url + "/"


def _custom_decks(data: dict) -> list[dict]:
    """Every CustomDeck entry of a saved object: the decks' own and each contained card's."""
    found: list[dict] = []
    for obj in data.get("ObjectStates", []):
        for holder in [obj, *obj.get("ContainedObjects", [])]:
            found.extend(holder.get("CustomDeck", {}).values())
    return found


def _file_name(url: str) -> str:
    """The image's file name, whatever prefix the object already carries."""
    return unquote(url.rsplit("/", 1)[-1])


def link_saved_object(source: Path, output: Path, base_url: str | None = None) -> LinkResult:
    """Write a copy of the saved object `source` whose image URLs are full addresses.

    Without `base_url` the prefix is the `file:///` folder holding `source`, and
    every image must be there (a missing one is named); with it, the prefix is
    that address (the PNGs are expected to be uploaded there under the same names).
    """
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PnpError(f"{source}: no Tabletop Simulator saved object there") from None
    except (OSError, ValueError) as e:
        raise PnpError(f"{source}: not a readable saved object ({e})") from None
    customs = _custom_decks(data) if isinstance(data, dict) else []
    if not customs:
        raise PnpError(f"{source}: no Tabletop Simulator deck in it (is it a saved object?)")
    local = base_url is None
    prefix = source.parent.resolve().as_uri() + "/" if local else check_base_url(str(base_url))
    images = sorted({_file_name(c[k]) for c in customs for k in URL_KEYS if c.get(k)})
    missing = [name for name in images if local and not (source.parent / name).is_file()]
    if missing:
        raise PnpError(f"{source.parent}: image {missing[0]} of the saved object is missing")
    for c in customs:
        for key in URL_KEYS:
            if c.get(key):
                c[key] = _url(_file_name(c[key]), prefix)
    ensure_folder(output.parent)
    write_text(output, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    return LinkResult(str(output), prefix, images)


README_TEXT = """
Or load every deck at once (a saved object, no numbers to type):
1. Give the saved object full image addresses: {name} names each image by its file name only,
   so the kit is the same wherever it is built.  Run (add --from THIS-FOLDER unless it is
   output/{slug}/tts/)
      pnp tts-object {slug}
   to write linked/{name} with this folder's file:/// addresses (enough to play alone), or,
   after uploading the PNGs of this folder (Modding > Cloud Manager, or any web host),
      pnp tts-object {slug} --base-url https://example.org/path/
   so other players see them too.
2. Copy linked/{name} into Tabletop Simulator's "Saved Objects" folder
   (Documents/My Games/Tabletop Simulator/Saves/Saved Objects/).
3. In a game: Objects > Saved Objects > {slug}: the decks appear on the table, one per card type,
   each card named, with its English name and rules text in its description.
"""


def readme_note(game: Any) -> str:
    """The README.txt paragraph on importing the saved object."""
    return README_TEXT.format(name=f"{game.slug}.json", slug=game.slug)

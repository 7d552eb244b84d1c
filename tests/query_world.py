"""The small two-game database the search-language tests query, built through the public API."""

from __future__ import annotations

from pathlib import Path

from pnpforge.query import search
from pnpforge.store import bundle, repo
from pnpforge.store.db import open_db, transaction

TRAITS = ["大戶", "矚目", "弱勢", "假弱勢"]
OBLIGOR_FIELDS: list[dict] = [
    {"name": "category", "type": "enum", "label": "類別", "allowed": ["稅", "健", "罰", "費"]},
    {"name": "difficulty", "type": "integer", "label": "難度"},
    {"name": "epithet", "type": "text", "label": "稱號"},
    {"name": "traits", "type": "list", "label": "特質", "allowed": TRAITS},
]
EXECUTION_FIELDS: list[dict] = [
    {"name": "power", "type": "integer", "label": "威力"},
    {"name": "instant", "type": "boolean", "label": "即時"},
    {"name": "difficulty", "type": "integer", "label": "難度"},
]
_CARDS = [  # id, type, name, name_en, copies, fields, text, provenance, provisional_fields
    (
        "O1",
        "obligor",
        "王大戶",
        "Tycoon Wang",
        1,
        {"category": "稅", "difficulty": 8, "epithet": "逃稅", "traits": ["大戶", "矚目"]},
        "查封類執行卡無效",
        "rulebook",
        [],
    ),
    (
        "O2",
        "obligor",
        "李小氣",
        "Stingy Li",
        2,
        {"category": "罰", "difficulty": 5, "epithet": "小氣", "traits": ["弱勢"]},
        "",
        "rulebook",
        ["difficulty"],
    ),
    (
        "O3",
        "obligor",
        "陳騙子",
        "Swindler Chen",
        1,
        {"category": "費", "difficulty": 10, "epithet": "騙子", "traits": []},
        "100% 騙",
        "reference",
        [],
    ),
    (
        "O4",
        "obligor",
        "林投機",
        "",
        3,
        {"category": "健", "difficulty": None, "epithet": "投機", "traits": ["假弱勢"]},
        "",
        "provisional",
        [],
    ),
    (
        "E1",
        "execution",
        "查封",
        "Seizure",
        4,
        {"power": 3, "instant": False, "difficulty": 8},
        "查封一件財產",
        "rulebook",
        [],
    ),
    (
        "E2",
        "execution",
        "限制出境",
        "Travel ban",
        2,
        {"power": 5, "instant": True},
        "Stop them_leaving",
        "rulebook",
        [],
    ),
]


def _bundle(slug: str, cards: list[tuple]) -> dict:
    def card_type(ts: str, name: str, fields: list[dict]) -> dict:
        return {
            "slug": ts,
            "name": name,
            "name_en": ts.title(),
            "width_mm": 63,
            "height_mm": 88,
            "fields": fields,
        }

    return {
        "format": bundle.FORMAT,
        "game": {
            "slug": slug,
            "title": "執行",
            "title_en": slug,
            "language": "zh-Hant",
            "players_min": 1,
            "players_max": 4,
        },
        "card_types": [
            card_type("obligor", "義務人卡", OBLIGOR_FIELDS),
            card_type("execution", "執行卡", EXECUTION_FIELDS),
        ],
        "cards": [
            {
                "id": i,
                "type": t,
                "name": n,
                "name_en": ne,
                "copies": cp,
                "fields": f,
                "text": tx,
                "provenance": pv,
                "provisional_fields": pf,
            }
            for i, t, n, ne, cp, f, tx, pv, pf in cards
        ],
    }


def make_db(path: Path):
    """Two games: 'enforcer' with every card above, 'other' with the first card only."""
    d = open_db(path, create=True)
    with transaction(d):
        bundle.write(d, bundle.parse(_bundle("enforcer", _CARDS)), replace=False)
        bundle.write(d, bundle.parse(_bundle("other", [_CARDS[0]])), replace=False)
    return d


def ids(db, query: str, game: str | None = "enforcer") -> list[str]:
    return [c.id for c in search(db, game, query)]


def oracle(db, pred) -> list[str]:
    """Ids of the game's cards that a Python predicate accepts, in deck order."""
    return [c.id for c in repo.list_cards(db, "enforcer") if pred(c)]

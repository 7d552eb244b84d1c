"""How far a game is translated: each unit ok, missing or stale; coverage; glossary use.

`validate --lang` and `check --lang` report the problems found here, by card
and field; with --strict a missing or stale translation fails.  A card whose
original text uses a glossary term while its translation does not use the
term's translation is a warning: the same rule word must read the same on
every card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlite_utils

from pnpforge.errors import PnpError
from pnpforge.lang.units import Unit, game_units
from pnpforge.store import bundle, translations
from pnpforge.store.translations import Translation
from pnpforge.validate.problem import ERROR, WARNING, Problem

OK, MISSING, STALE = "ok", "missing", "stale"

# Coverage groups: what a designer asks about ("are the cards done? the aids?").
GROUPS = ("cards", "fields", "aids", "summary", "labels")


@dataclass(frozen=True)
class UnitStatus:
    unit: Unit
    translation: Translation | None
    status: str  # ok | missing | stale

    @property
    def group(self) -> str:
        return group_of(self.unit)


def group_of(unit: Unit) -> str:
    """Which part of a kit a unit belongs to (for coverage)."""
    if unit.kind == "card":
        return "cards"
    if unit.kind in ("field", "value"):
        return "fields"
    if unit.kind == "template":
        return (
            "aids" if unit.key.startswith("helpers/") else "summary" if unit.key.endswith(".j2") else "labels"
        )
    if unit.kind in ("section", "glossary", "composition", "component"):
        return "summary"
    return "labels"  # game title, card type names and back titles


def check_language(lang: str) -> str:
    """A language pnpforge can print (the schema's list)."""
    allowed = ("zh-Hant", "zh-Hans", "en", "ja", "ko")
    if lang not in allowed:
        raise PnpError(f"unknown language '{lang}' (allowed: {', '.join(allowed)})")
    return lang


def game_status(db: sqlite_utils.Database, game: str, lang: str) -> list[UnitStatus]:
    """Every unit of the game with its translation into `lang` and its state."""
    from pnpforge.docs.context import templates_dir
    from pnpforge.resources import as_roots

    check_language(lang)
    data = bundle.export(db, game)
    if data["game"]["language"] == lang:
        raise PnpError(f"{game} is written in {lang}: it has nothing to translate into {lang}")
    units = game_units(data, as_roots(templates_dir(db)))
    stored = translations.of_language(db, game, lang)
    out = []
    for u in units:
        t = stored.get(u.ident)
        state = MISSING if t is None else STALE if t.source_hash != u.fingerprint else OK
        out.append(UnitStatus(u, t, state))
    return out


def coverage(statuses: list[UnitStatus]) -> dict[str, dict[str, int]]:
    """Per group: units, ok, missing, stale."""
    out = {g: {"units": 0, OK: 0, MISSING: 0, STALE: 0} for g in GROUPS}
    for s in statuses:
        row = out[s.group]
        row["units"] += 1
        row[s.status] += 1
    return out


def _where(u: Unit) -> tuple[str | None, str]:
    """(card, field) of a problem: the card id for card units, else 'kind key' and the field."""
    if u.kind == "card":
        return u.key, u.field
    return None, f"{u.kind} {u.key}: {u.field}"


def problems(db: sqlite_utils.Database, game: str, lang: str, strict: bool = False) -> list[Problem]:
    """Missing and stale translations (errors with `strict`, else warnings) and glossary
    terms a translated card text does not use (warnings)."""
    from pnpforge.store import repo

    if repo.get_game(db, game).language == lang:
        return []  # a game needs no translation into its own language
    statuses = game_status(db, game, lang)
    severity = ERROR if strict else WARNING
    out: list[Problem] = []
    for s in statuses:
        if s.status == OK:
            continue
        card, field = _where(s.unit)
        if s.status == MISSING:
            msg = f"no {lang} translation"
        else:
            msg = f"{lang} translation is stale: the original changed since it was translated"
        out.append(Problem(severity, game, card, field, msg, scope="deck"))
    out += glossary_warnings(statuses, game, lang)
    return out


def glossary_warnings(statuses: list[UnitStatus], game: str, lang: str) -> list[Problem]:
    """A translated card text that drops the glossary's word for a term its original uses."""
    terms: dict[str, str] = {}
    for s in statuses:
        if s.unit.kind == "glossary" and s.unit.field == "term" and s.translation is not None:
            terms[s.unit.original] = s.translation.text
    out = []
    # One-character terms (icons such as 封) sit inside ordinary words (查封, 上限): never
    # matched.  Names of cards and composition groups are masked first: a card text
    # naming 加密货币交易所 does not use the term 交易.
    longest_first = sorted((t for t in terms if len(t) > 1), key=len, reverse=True)
    names = sorted(
        {
            re.sub(r"×.*$", "", s.unit.original)
            for s in statuses
            if (s.unit.kind, s.unit.field) in (("card", "name"), ("composition", "label"))
        }
        - set(terms),
        key=len,
        reverse=True,
    )
    for s in statuses:
        if s.unit.kind != "card" or s.unit.field != "text" or s.translation is None:
            continue
        original = s.unit.original
        for name in names:
            if len(name) > 1:
                original = original.replace(name, "\0")
        for term in longest_first:  # 假弱勢 is read before 弱勢 inside it
            if term not in original:
                continue
            original = original.replace(term, "\0")
            word = terms[term]
            if not _uses(s.translation.text, word):
                out.append(
                    Problem(
                        WARNING,
                        game,
                        s.unit.key,
                        "text",
                        f"uses glossary term {term} but its {lang} text does not say '{word}'",
                        scope="deck",
                    )
                )
    return out


def _uses(text: str, word: str) -> bool:
    """Does `text` use `word` (case-insensitive, less a plural ending and a parenthesised
    abbreviation: 'Victory points (VP)' is used by '1 Victory point')?"""
    bare = re.sub(r"\s*\([^)]*\)", "", word).strip() or word
    stem = re.escape(bare.lower().rstrip("s"))
    return re.search(stem, text.lower()) is not None

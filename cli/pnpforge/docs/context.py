"""What summary and helper templates see: one game's data, counted from cards.db.

Everything a template prints as a number is computed here from the cards
(sum of copies), never copied from a rulebook label, so the summary and the
aids change when the deck changes.  Provisional values carry a flag the
templates turn into the † mark.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import sqlite_utils

from pnpforge.docs.counts import CountNode, clean_label, composition_tree, type_counts
from pnpforge.docs.markup import escape_body, escape_cell, escape_text
from pnpforge.errors import PnpError
from pnpforge.model import Card, Game
from pnpforge.query import select
from pnpforge.query.select import stamp_date  # the one stamp date; templates and build read it here
from pnpforge.render import units
from pnpforge.resources import as_roots, project_templates, shipped_templates
from pnpforge.store import repo, translations
from pnpforge.store.dump import dump
from pnpforge.store.location import db_folder
from pnpforge.validate.stored import refuse_invalid

MARK = "†"  # the provisional sign, as on the card faces
KINDS = ("overview", "setup", "turn", "actions", "end", "scoring", "variants", "faq", "other")
CATEGORIES = ("trait", "keyword", "icon", "action", "term", "symbol")


# ---- where templates live ------------------------------------------------------------


def templates_dir(db: sqlite_utils.Database | None = None) -> Path:
    """The project's templates/ beside the database when there is one, else the shipped ones.

    Files are then looked up along `search_path` (the project's first, the
    shipped last), the same resolver the card faces use, so a designer
    overrides one file at a time.
    """
    folder = db_folder(db) if db is not None else None
    return (project_templates(folder) if folder is not None else None) or shipped_templates()


def search_path(root: Path | None) -> list[Path]:
    """Folders templates are looked up in: `root` first, then the shipped ones."""
    return list(as_roots(root).folders)


def find(root: Path | None, relpath: str) -> Path:
    """The first existing templates/<relpath> along search_path(root) (else the first candidate)."""
    return as_roots(root).find(relpath)


@cache
def _labels_file(path: Path) -> dict[str, dict[str, str]]:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise PnpError(f"cannot read the template labels {path}: {e}") from e
    except tomllib.TOMLDecodeError as e:
        raise PnpError(f"{path}: not valid TOML: {e}") from e
    keys = [set(v) for v in data.values()]
    if keys and any(k != keys[0] for k in keys):
        every = set().union(*keys)
        missing = {lang: sorted(every - set(v)) for lang, v in data.items() if every - set(v)}
        raise PnpError(f"{path}: every language needs every key; missing: {missing}")
    return data


def labels(language: str, root: Path | None = None) -> dict[str, str]:
    """The template words for a game language (zh-Hant, zh-Hans or en)."""
    path = find(root, "_shared/labels.toml")
    data = _labels_file(path)
    if language not in data:
        raise PnpError(f"{path} has no labels for language '{language}' (has: {', '.join(data)})")
    return data[language]


# ---- dates and hashes -----------------------------------------------------------------


def dump_lines(db: sqlite_utils.Database, game: str) -> list[str]:
    """The `pnp db dump` lines that belong to one game (its rows in every table)."""

    out = []
    for line in dump(db):
        if line.startswith("--"):
            continue
        rec = json.loads(line)
        if rec.get("game") == game or ("game" not in rec and rec.get("slug") == game):
            out.append(line)
    return out


def content_hash(db: sqlite_utils.Database, game: str) -> str:
    """sha256 of the game's dump lines: what a built kit records it was made from."""
    h = hashlib.sha256()
    for line in dump_lines(db, game):
        h.update(line.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def accent_colour(db: sqlite_utils.Database, game: str) -> str:
    """The game's colour for headings and aid bands: its first deck back colour,
    darkened until white text on it and it on white paper both read well."""

    colour = "#2c3e50"
    for t in repo.card_types(db, game):
        c = (t.back or {}).get("colour")
        if t.role == "deck" and isinstance(c, str) and units.is_hex_colour(c):
            colour = c
            break
    while units.luminance(colour) > 0.12:
        colour = units.mix(colour, "#000000", 0.15)
    return colour


# ---- the template context ---------------------------------------------------------------


def players_text(game: Game) -> str:
    if game.players_min == game.players_max:
        return str(game.players_min)
    return f"{game.players_min}–{game.players_max}"


def _search(db: sqlite_utils.Database, game: str) -> Callable[..., list[Card]]:
    """The templates' `cards(type, query)`: the one selection API, cached per question."""
    found: dict[tuple[str | None, str], list[Card]] = {}

    def cards(type: str | None = None, query: str | None = None) -> list[Card]:  # noqa: A002
        """Cards of the game in deck order, optionally of one type and matching a query."""
        key = (type, (query or "").strip())
        if key not in found:
            found[key] = select.cards(db, refuse_invalid(db, select.select(db, game, *key)))
        return found[key]

    return cards


def build_context(
    db: sqlite_utils.Database, game: str, *, players: int | None = None, root: Path | None = None
) -> dict[str, Any]:
    """Everything a summary or helper template may use, for one game."""
    g = repo.get_game(db, game)
    root = root or templates_dir(db)
    L = labels(g.language, root)
    sections = [dataclasses.replace(s, body=escape_body(s.body)) for s in repo.rule_sections(db, game)]
    gloss = repo.glossary(db, game)
    comps = repo.components(db, game)
    types = type_counts(db, game)
    cards = _search(db, game)
    date = stamp_date(db, game)[:10]

    def section(*kinds: str) -> list:
        """Rule sections of these kinds, in rulebook order."""
        return [s for s in sections if s.kind in kinds]

    def glossary(*categories: str) -> list:
        """Glossary entries of these categories (all when none given), in order."""
        return [e for e in gloss if not categories or e.category in categories]

    def count(type: str | None = None, query: str | None = None) -> int:  # noqa: A002
        return sum(c.copies for c in cards(type, query))

    def tally(type: str | None = None, query: str | None = None) -> str:  # noqa: A002
        """Copies of the matching cards, with † when any of those copies is designed."""
        found = cards(type, query)
        flag = any(c.is_value_provisional("copies") for c in found)
        return f"{sum(c.copies for c in found)}{MARK if flag else ''}"

    full_types = {t.slug: t for t in repo.card_types(db, game)}

    def field_of(type: str, field_name: str) -> Any:  # noqa: A002
        """The field a template names; PnpError naming it when the type has no such field."""
        t = full_types.get(type)
        f = t.field(field_name) if t else None
        if f is None:
            raise PnpError(
                f"template asks for field '{field_name}' of card type '{type}', "
                f"which game '{game}' does not have"
            )
        return f

    def allowed(type: str, field_name: str) -> list[str]:  # noqa: A002
        """The allowed values of an enum or list field, in their declared order."""
        return list(field_of(type, field_name).allowed or [])

    def mark(flag: bool) -> str:
        return MARK if flag else ""

    def field_label(type: str, field_name: str) -> str:  # noqa: A002
        """A field's printed label (its name when it has none)."""
        f = field_of(type, field_name)
        return str(f.label or f.name)

    def value(card_id: str, field_name: str, sep: str | None = None) -> str:
        """A card's field as printed, with † after it when designed, or after each designed
        cell of a list whose provenance is kept per cell (a track's later cells)."""
        card = repo.find_card(db, game, card_id, strict=False)
        if card is None or not isinstance(card.fields, dict) or field_name not in card.fields:
            raise PnpError(
                f"template asks for field '{field_name}' of card '{card_id}', "
                f"which game '{game}' does not have"
            )
        return shown_value(card, field_name, sep if sep is not None else list_sep)

    words = translations.words(db, game, g.language)
    list_sep = "、" if g.language.startswith(("zh", "ja")) else ", "

    def word(value: Any) -> str:
        """The printed word of a field value in the game's language (the value itself when none)."""
        return words.get(str(value), str(value))

    tree = composition_tree(db, game)
    queries = {r.id: r.query.strip() for r in repo.composition(db, game)}

    def rule_for(query: str) -> CountNode | None:
        """The counted composition rule with exactly this query (its label names a group)."""
        return next((n for n in _walk(tree) if queries.get(n.id) == query.strip()), None)

    return {
        "game": g,
        "L": L,
        "lang": g.language,
        "date": date,
        "players": players_text(g),
        "player_count": players,
        "sections": sections,
        "section": section,
        "glossary_entries": gloss,
        "glossary": glossary,
        "categories": [c for c in CATEGORIES if any(e.category == c for e in gloss)],
        # a component printed as one of the game's card types is counted once, among the cards
        "components": [c for c in comps if c.name not in {t.name for t in full_types.values()}],
        "card_types": types,
        "composition": tree,
        # the rules worth listing under the table: not a bare whole-type count it already shows
        "breakdown": [n for n in tree if n.children or not n.whole_type],
        "cards": cards,
        "count": count,
        "tally": tally,
        "allowed": allowed,
        "mark": mark,
        "value": value,
        "field_label": field_label,
        "word": word,
        "MARK": MARK,
        "types": {t.slug: t for t in types},
        "grouped": group_same_text,
        "rule_for": rule_for,
        "has_provisional": (
            any(t.provisional or t.size_provisional for t in types)
            or any(n.provisional for n in _walk(tree))
            or any(c.provisional for c in comps)
        ),
    }


def shown_value(card: Card, field_name: str, sep: str) -> str:
    """`card`'s field as summaries print it: a list joined by `sep`; † after the whole value
    when it is designed, else after each cell designed on its own."""
    v = card.fields.get(field_name)
    if isinstance(v, list):
        cells = card.provisional_cells(field_name)
        whole = card.is_value_provisional(field_name)
        text = sep.join(
            f"{escape_text(str(x))}{MARK if i in cells and not whole else ''}" for i, x in enumerate(v)
        )
    else:
        text, whole = escape_text("" if v is None else str(v)), card.is_value_provisional(field_name)
    return f"{text}{MARK if whole and text else ''}"


def _walk(nodes: list[CountNode]):
    for n in nodes:
        yield n
        yield from _walk(n.children)


def group_same_text(entries: list) -> list[list]:
    """Consecutive-or-not entries sharing one definition, grouped in first-seen order.

    Six symbols all defined as 符號之一 read better as one line than six.
    """
    groups: dict[str, list] = {}
    for e in entries:
        groups.setdefault(e.text, []).append(e)
    return list(groups.values())


# ---- Jinja2 ------------------------------------------------------------------------------


def _join_cjk(items: Any, sep: str) -> str:
    return sep.join(str(i) for i in items)


def jinja_env(root: Path | None = None):
    """The documents' environment: loads templates/ by name ('GAME/summary.md.j2'), adds their filters."""
    # jinja2 (render.templating): this module loads with pnp cards; only a template run needs it
    from pnpforge.render.templating import sandboxed_environment

    env = sandboxed_environment(folders=search_path(root), strict=True, keep_trailing_newline=True)
    env.filters["cell"] = escape_cell
    env.filters["text"] = escape_text
    env.filters["clean_label"] = clean_label
    env.filters["join_with"] = _join_cjk
    env.tests["startswith"] = lambda value, prefix: str(value).startswith(prefix)
    env.filters["regex_replace"] = lambda value, pattern, repl="": re.sub(pattern, repl, str(value))
    return env


def render(name: str, context: dict[str, Any], root: Path | None = None) -> str:
    """Render one template; a template mistake becomes a PnpError naming file and line."""
    # jinja2 loads only when a template renders
    from jinja2 import TemplateError, TemplateNotFound, TemplateSyntaxError

    env = jinja_env(root)
    try:
        return env.get_template(name).render(**context)
    except TemplateNotFound as e:
        where = " or ".join(str(p) for p in search_path(root))
        raise PnpError(f"template '{e.name}' not found under {where}") from e
    except TemplateSyntaxError as e:
        raise PnpError(f"{e.filename or name}, line {e.lineno}: template error: {e.message}") from e
    except TemplateError as e:
        raise PnpError(f"{_template_line(e, name)}: template error: {e}") from e
    except PnpError:
        raise  # a budget stop or a filter's own message: already names the template
    except Exception as e:  # the sandbox refusing (a range too big), a filter failing
        raise PnpError(f"{_template_line(e, name)}: template failed: {type(e).__name__}: {e}") from e


def _template_line(exc: BaseException, name: str) -> str:
    """'templates/x/summary.md.j2, line 9' from the traceback Jinja rewrites to the template."""
    where = name
    tb = exc.__traceback__
    while tb is not None:
        fname = tb.tb_frame.f_code.co_filename
        if fname.endswith(".j2"):
            where = f"{fname}, line {tb.tb_lineno}"
        tb = tb.tb_next
    return where


def pick_template(game: str, filename: str, root: Path | None = None) -> str:
    """'GAME/filename' when the game has its own, else '_shared/filename'."""
    for name in (f"{game}/{filename}", f"_shared/{filename}"):
        if find(root, name).is_file():
            return name
    raise PnpError(
        f"no template {filename} for game '{game}' (looked in "
        f"{', '.join(str(p / game) for p in search_path(root))} and _shared/)"
    )

"""One rules engine per game, found by slug.

Each module exposes `make_rules(db, options) -> GameRules`.  A game without a
module here can still be checked for composition, just not played.
"""

from __future__ import annotations

import importlib
import importlib.util

from pnpforge.errors import PnpError


def module_name(slug: str) -> str:
    return slug.replace("-", "_")


def load_rules(db, slug: str, options: dict):
    """The engine of `slug`, bound to the database's cards, or PnpError if there is none."""
    try:
        mod = importlib.import_module(f"pnpforge.rules.games.{module_name(slug)}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith(module_name(slug)):
            raise PnpError(f"no rules engine for game '{slug}' yet") from None
        raise
    return mod.make_rules(db, options)


def has_engine(slug: str) -> bool:
    return importlib.util.find_spec(f"pnpforge.rules.games.{module_name(slug)}") is not None

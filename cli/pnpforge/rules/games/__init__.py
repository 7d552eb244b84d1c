"""The registry of rules engines, found by game slug.

An engine is a package `pnpforge.rules.games.<slug with - as _>`, an entry
point in the group `pnpforge.engines` (a designer's own engine installed
beside pnpforge), or a factory given to `register(slug, factory)` (tests, a
sixth toy game).  Each exposes `SLUG` and `make_rules(db, options) -> GameRules`.
A game without an engine can still be checked statically, just not played.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any

from pnpforge.errors import PnpError

ENTRY_POINT_GROUP = "pnpforge.engines"

Factory = Callable[[Any, Mapping[str, Any]], Any]

_REGISTERED: dict[str, Factory] = {}


def module_name(slug: str) -> str:
    return slug.replace("-", "_")


def register(slug: str, factory: Factory) -> None:
    """Make `factory(db, options)` the engine of `slug` (replaces any earlier registration)."""
    _REGISTERED[slug] = factory


def unregister(slug: str) -> None:
    _REGISTERED.pop(slug, None)


def _entry_point(slug: str) -> Factory | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == slug:
            target = ep.load()
            return getattr(target, "make_rules", target)
    return None


def _bundled(slug: str) -> Factory | None:
    name = f"{__name__}.{module_name(slug)}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name).make_rules


def factory(slug: str) -> Factory | None:
    """The engine factory of `slug`: registered first, then bundled, then installed entry points."""
    return _REGISTERED.get(slug) or _bundled(slug) or _entry_point(slug)


def has_engine(slug: str) -> bool:
    return factory(slug) is not None


def load_rules(db: Any, slug: str, options: Mapping[str, Any]) -> Any:
    """The engine of `slug`, bound to the database's cards, or PnpError if there is none."""
    make = factory(slug)
    if make is None:
        raise PnpError(f"no rules engine for game '{slug}' yet")
    return make(db, dict(options))


def engine_slugs() -> list[str]:
    """Every game slug with an engine: registered, bundled and installed, sorted."""
    slugs = set(_REGISTERED)
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        slugs.add(getattr(module, "SLUG", info.name.replace("_", "-")))
    slugs.update(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    return sorted(slugs)

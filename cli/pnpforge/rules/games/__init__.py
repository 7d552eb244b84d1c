"""The registry of rules engines, found by game slug.

An engine is a package `pnpforge.rules.games.<slug with - as _>`, a package
`engines/<slug with - as _>/` in the project folder beside the card database
(a designer's own game: no install needed), an entry point in the group
`pnpforge.engines` (an engine installed beside pnpforge), or a factory given
to `register(slug, factory)` (tests).  Each exposes `SLUG` and
`make_rules(game, options) -> GameRules`, where `game` is the `kit.GameData` that
`load_rules` reads from the database first (the game's cards and player range):
an engine is given plain data and never sees the database.
A game without an engine can still be checked statically, just not played.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from pnpforge.errors import PnpError
from pnpforge.rules.kit.players import GameData, load_game
from pnpforge.store.location import db_folder

ENTRY_POINT_GROUP = "pnpforge.engines"
PROJECT_ENGINES = "engines"  # folder beside the card database
_PROJECT_PACKAGE = "pnpforge_project_engines"

Factory = Callable[[GameData, Mapping[str, Any]], Any]

_REGISTERED: dict[str, Factory] = {}


def module_name(slug: str) -> str:
    return slug.replace("-", "_")


def register(slug: str, factory: Factory) -> None:
    """Make `factory(game, options)` the engine of `slug` (replaces any earlier registration)."""
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


def _project(slug: str, db: Any) -> Factory | None:
    """`engines/<module>/` beside the database: a designer's engine, imported from its folder."""

    folder = db_folder(db) if db is not None else None
    package = folder / PROJECT_ENGINES / module_name(slug) if folder is not None else None
    if package is None or not (package / "__init__.py").is_file():
        return None
    name = f"{_PROJECT_PACKAGE}.{module_name(slug)}_{abs(hash(str(package))):x}"
    module = sys.modules.get(name) or _import_folder(name, package)
    make = getattr(module, "make_rules", None)
    if make is None:
        raise PnpError(f"{package / '__init__.py'} defines no make_rules(game, options)")
    return make


def _import_folder(name: str, package: Path) -> Any:
    """Import a package from a folder under a private name (its relative imports work)."""
    spec = importlib.util.spec_from_file_location(
        name, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    if spec is None or spec.loader is None:
        raise PnpError(f"cannot import the engine in {package}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise PnpError(f"the engine in {package} failed to import: {type(exc).__name__}: {exc}") from None
    return module


def factory(slug: str, db: Any = None) -> Factory | None:
    """The engine factory of `slug`: registered, bundled, the project's own, then installed."""
    return _REGISTERED.get(slug) or _bundled(slug) or _project(slug, db) or _entry_point(slug)


def has_engine(slug: str, db: Any = None) -> bool:
    return factory(slug, db) is not None


def load_rules(db: Any, slug: str, options: Mapping[str, Any]) -> Any:
    """The engine of `slug`, bound to the database's cards, or PnpError if there is none.

    The kit reads the game's cards and player range here, once (`kit.load_game`), and the
    engine's `make_rules` receives them as plain data."""
    make = factory(slug, db)
    if make is None:
        raise PnpError(f"no rules engine for game '{slug}' yet")
    game = load_game(db, slug)
    try:
        return make(game, dict(options))
    except PnpError:
        raise
    except Exception as exc:  # an engine's own bug: one line naming the engine, not a traceback
        what = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        raise PnpError(
            f"the rules engine of '{slug}' ({_origin(make)}) failed while setting up: {what}"
        ) from None


def _origin(make: Factory) -> str:
    """Where an engine factory comes from: its module's file, else its module's name."""
    module = sys.modules.get(getattr(make, "__module__", "") or "")
    return str(getattr(module, "__file__", None) or getattr(make, "__module__", None) or repr(make))


def engine_slugs() -> list[str]:
    """Every game slug with an engine: registered, bundled and installed, sorted."""
    slugs = set(_REGISTERED)
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        slugs.add(getattr(module, "SLUG", info.name.replace("_", "-")))
    slugs.update(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    return sorted(slugs)

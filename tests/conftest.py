"""Shared fixtures: small databases built through the public API."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dbcopies import SHIPPED_DB, shipped_copy
from pnpforge.app import app
from pnpforge.edit import import_game
from pnpforge.store import repo
from pnpforge.store.db import open_db

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"

# Modules whose tests build whole kits, print or rasterise real decks, start processes or servers,
# or fuzz: the default run keeps them, the fast tier (`pytest -m "not slow and not integration"`,
# CONTRIBUTING.md) leaves them out.  A new module belongs here when one of its tests takes seconds.
INTEGRATION_MODULES = frozenset(
    {
        "test_api_outputs",
        "test_balance_lab",  # a headless browser, and balance runs of whole games
        "test_balance_search",  # the search agent plays whole games
        "test_build",
        "test_build_shop",
        "test_concurrency",
        "test_check_usage",  # aimed games to find unused cards: tens of seconds
        "test_contributing",
        "test_cut",
        "test_engines_play",
        "test_face",
        "test_fonts",
        "test_fuzz",
        "test_help",  # `pnp COMMAND --help` in a process for every command
        "test_helpers",
        "test_hostile",
        "test_hostile_output",
        "test_images",
        "test_packaging",
        "test_preflight",
        "test_print",
        "test_print_memory",
        "test_reliability_cache",  # prints whole decks twice to compare the bytes
        "test_rules_dirty_money_kit",  # default check runs of the shipped deck: tens of seconds
        "test_shop",
        "test_shop_api",
        "test_summary",
        "test_tts_object",
        "test_url_import",
        "test_watch",
    }
)


_OWN_CACHE: list[str] = []  # the cache folder this run made, if it made one


def pytest_configure(config: pytest.Config) -> None:
    """The run's own cache folder (unless PNP_CACHE_DIR names one): a test run neither reads what
    a user's prints left in their cache nor leaves its own entries there, and processes the tests
    start inherit it."""
    if not os.environ.get("PNP_CACHE_DIR"):
        _OWN_CACHE.append(tempfile.mkdtemp(prefix="pnp-test-cache-"))
        os.environ["PNP_CACHE_DIR"] = _OWN_CACHE[-1]


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's own cache folder goes when the run ends."""
    if _OWN_CACHE:
        shutil.rmtree(_OWN_CACHE.pop(), ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of the integration modules, so the fast tier can leave them out."""
    for item in items:
        if item.path.stem in INTEGRATION_MODULES:
            item.add_marker(pytest.mark.integration)


@pytest.fixture
def mini_db(tmp_path: Path) -> Path:
    """A fresh database holding the 'mini' fixture game."""
    path = tmp_path / "cards.db"
    import_game(open_db(path, create=True), FIXTURES / "mini.json")
    return path


@pytest.fixture
def shipped_db(tmp_path: Path) -> Path:
    """A private copy of the committed cards.db, safe to modify."""
    return shipped_copy(tmp_path)


@pytest.fixture(scope="module")
def db():
    """The committed cards.db, read-only: the data tests check the values it ships."""
    return open_db(SHIPPED_DB, readonly=True)


@pytest.fixture(scope="module")
def cards(db, request):
    """The cards of the test module's game (its SLUG), by id."""
    return {c.id: c for c in repo.list_cards(db, request.module.SLUG)}


@pytest.fixture
def run():
    """Run `pnp ARGS…` in-process; returns the click Result (stdout and stderr apart)."""
    runner = CliRunner()

    def _run(*args: str, input: str | None = None):
        return runner.invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)

    return _run

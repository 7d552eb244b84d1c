"""The pnpforge library API: one project (a card database and its folder), everything it can do.

`pnp`'s commands parse their options, call a method here and format what it
returns; tests and `bench/` call the same methods.  A `Project` holds the one
database handle (a `sqlite_utils.Database`, the project's only handle type)
and the folder beside it, where a project's own `templates/`, `engines/` and
`output/` live:

    from pnpforge.api import Project

    project = Project.open("cards.db", readonly=True)
    for card in project.search("power>=3", game="enforcer"):
        print(card.id, card.name)

Writes go through `pnpforge.edit` (validated inside one write transaction,
all or nothing); reads through `pnpforge.store` and `pnpforge.query`.  The
outputs (print, build, shop, cut) load reportlab and Pillow only when called.
User errors raise `pnpforge.errors.PnpError` with one line naming the card,
field, file or path.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlite_utils

from pnpforge import edit
from pnpforge.design.newgame import GameSpec, NewGame, create_game
from pnpforge.errors import PnpError
from pnpforge.formats import card_xlsx, records
from pnpforge.kit_files import BuildOptions  # Project.build's options: light, no reportlab
from pnpforge.lang import sheet as translation_sheet
from pnpforge.lang.edition import is_original, write_edition
from pnpforge.lang.status import coverage, game_status
from pnpforge.lang.status import problems as language_problems
from pnpforge.model import Card, CardType, CompositionRule, Game, card_changes
from pnpforge.query import search as search_query
from pnpforge.query.changes import Diff, diff_releases, reprint_query
from pnpforge.query.select import copies_per_type
from pnpforge.render import PrintOptions, SheetOptions, parse_offset  # light: no reportlab
from pnpforge.store import bundle, edition, releases, repo, structure
from pnpforge.store import db as store_db
from pnpforge.store.constraints import (
    Constraint,
    check_params,
    delete_constraint,
    insert_constraint,
    list_constraints,
)
from pnpforge.store.declared import TextRule, delete_example, delete_text_rule
from pnpforge.store.dump import dump
from pnpforge.store.releases import Release
from pnpforge.validate import ERROR, Problem, composition, validate_game
from pnpforge.validate.constraints import Breach, evaluate, run_constraint, selector
from pnpforge.validate.deck import RuleResult
from pnpforge.validate.text_rules import text_rule_breaches

if TYPE_CHECKING:  # the outputs' types only: their modules load reportlab (or http.server)
    from pnpforge.balance.experiment import BalanceOptions
    from pnpforge.design.preview import PreviewServer
    from pnpforge.design.watch import BuildResult, Watcher
    from pnpforge.docs.helpers import HelperSet
    from pnpforge.docs.summary import SummaryResult
    from pnpforge.kit_files import GameKit
    from pnpforge.render import Manifest
    from pnpforge.render.raster import RasterResult
    from pnpforge.rules.check import CheckOptions
    from pnpforge.rules.examples import ExampleResult
    from pnpforge.shop.cut import CutResult
    from pnpforge.shop.export import ShopOrder
    from pnpforge.shop.preflight import PreflightReport
    from pnpforge.shop.tts_object import LinkResult

read_bundle = edit.read_bundle
Database = sqlite_utils.Database  # the one type of a database handle, everywhere
ImportResult = edit.ImportResult

__all__ = [
    "BuildOptions",
    "CompositionRule",
    "Constraint",
    "GameSpec",
    "Database",
    "HistoryEntry",
    "ImportResult",
    "PrintOptions",
    "Project",
    "SheetOptions",
    "load_json_param",
    "parse_offset",
    "read_bundle",
]


@dataclass(frozen=True)
class HistoryEntry:
    """One recorded insert, update or delete of a card (written by the database's triggers)."""

    seq: int
    at: str
    op: str  # "insert" | "update" | "delete"
    game: str
    card: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    correction: str | None  # the reason given with --correction, if any

    @property
    def changes(self) -> dict[str, tuple[Any, Any]]:
        """What an update changed: name → (old, new)."""
        return card_changes(self.before or {}, self.after or {})

    def to_dict(self) -> dict[str, Any]:
        """The entry as `pnp cards history --json` prints it."""
        return {
            "seq": self.seq,
            "at": self.at,
            "op": self.op,
            "game": self.game,
            "card": self.card,
            "before": self.before,
            "after": self.after,
            "correction": self.correction,
        }


@dataclass(frozen=True)
class Project:
    """An open card database and the folder it lives in."""

    db: Database
    path: Path  # the database file as named (--db, $PNP_DB or ./cards.db)

    # ---- opening ---------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        create: bool = False,
        readonly: bool = False,
        scratch: bool = False,
    ) -> Project:
        """Open the card database at `path` (default: $PNP_DB, else ./cards.db).

        `create` makes a new database (refusing an existing file); `readonly` never
        changes the file (an older schema is read through an in-memory copy);
        `scratch` works on a private in-memory copy whose writes vanish (dry runs).
        A writable open of an older database migrates it in place.
        """
        db = store_db.open_db(path, create=create, readonly=readonly, scratch=scratch)
        return cls(db, store_db.resolve_path(path))

    @staticmethod
    def upgrade(path: str | os.PathLike[str] | None = None) -> tuple[int, int]:
        """Migrate the database at `path` in place; (old, new) schema version."""
        return store_db.upgrade(path)

    @staticmethod
    def path_of(path: str | os.PathLike[str] | None = None) -> Path:
        """The database file `path` names: itself, else $PNP_DB, else ./cards.db."""
        return store_db.resolve_path(path)

    @property
    def folder(self) -> Path:
        """The project folder: where the database is, and its templates/, engines/ and output/."""
        return self.path.absolute().parent

    # ---- games -----------------------------------------------------------------------

    def games(self) -> list[Game]:
        """Every game in the database, in slug order."""
        return repo.list_games(self.db)

    def game(self, slug: str) -> Game:
        """One game; PnpError naming the games there are when `slug` is unknown."""
        return repo.get_game(self.db, slug)

    def card_types(self, game: str) -> list[CardType]:
        """A game's card types in their defined order."""
        return repo.card_types(self.db, game)

    def card_type(self, game: str, slug: str) -> CardType:
        """One card type; PnpError naming the types there are when `slug` is unknown."""
        return repo.get_card_type(self.db, game, slug)

    def copies_per_type(self, game: str) -> dict[str, int]:
        """Total copies of each card type of a game."""
        return copies_per_type(self.db, game)

    def new_game(
        self,
        spec: GameSpec,
        source: Path | None = None,
        type_names: list[str] | None = None,
        field_specs: list[str] | None = None,
        encoding: str | None = None,
        replace: bool = False,
        discard_edits: bool = False,
    ) -> NewGame:
        """A new game from a spreadsheet (types and typed fields inferred) or from named types and fields.

        Imported as one validated bundle, with starter layouts in the project's templates/
        and release v0.1.  Replacing a game whose cards were added or edited since is refused,
        naming them, unless `discard_edits`.
        """
        return create_game(
            self.db, self.folder, spec, source, type_names, field_specs, encoding, replace, discard_edits
        )

    def export_game(self, game: str) -> str:
        """The whole game as a bundle (JSON text): definition, cards, composition, glossary, rules."""
        return bundle.dumps(bundle.export(self.db, game))

    def import_game(
        self, path: Path, replace: bool = False, correction: str | None = None
    ) -> tuple[str, list[Problem]]:
        """Load a game bundle file, every card validated first; (slug, deck-level problems)."""
        return edit.import_game(self.db, path, replace, correction)

    def import_bundle(
        self, data: dict[str, Any], path: Path, replace: bool = False, correction: str | None = None
    ) -> tuple[str, list[Problem]]:
        """Write a bundle `read_bundle` returned (`path` names it in messages); as `import_game`."""
        return edit.import_bundle(self.db, data, path, replace, correction)

    def dump(self) -> Iterator[str]:
        """A deterministic text dump of the whole database, for review and `git diff cards.db`."""
        return dump(self.db)

    # ---- cards: query ----------------------------------------------------------------

    def cards(self, game: str, card_type: str | None = None) -> list[Card]:
        """A game's cards (of one type, when given) in deck order."""
        self.game(game)
        if card_type:
            self.card_type(game, card_type)
        return repo.list_cards(self.db, game, card_type)

    def cards_leniently(self, game: str) -> list[Card]:
        """A game's cards as stored, even rows another tool broke (validation reports them)."""
        return repo.list_cards(self.db, game, strict=False)

    def card(self, game: str, card_id: str, strict: bool = True) -> Card:
        """One card; `strict=False` reads a row another tool broke without refusing it."""
        return repo.get_card(self.db, game, card_id, strict=strict)

    def search(self, text: str, game: str | None = None) -> list[Card]:
        """Cards matching the search language (field:value, field>=N, words, or, -…).

        Bare words match card names, text and notes; the cards with the best
        full-text match come first (README "Searching cards").
        """
        return search_query(self.db, game, text)

    def history(self, game: str, card_id: str | None = None) -> list[HistoryEntry]:
        """Every recorded change of a game's cards (of one card, when given), oldest first."""
        self.game(game)
        reasons = edition.corrections(self.db, game, card_id)
        return [
            HistoryEntry(
                r["seq"],
                r["at"],
                r["op"],
                r["game"],
                r["card"],
                r["before"],
                r["after"],
                reasons.get(r["seq"]),
            )
            for r in repo.history(self.db, game, card_id)
        ]

    # ---- cards: validated writes -----------------------------------------------------

    def add_card(
        self, game: str, card_type: str, card_id: str, values: dict[str, Any]
    ) -> tuple[Card, list[Problem]]:
        """Add a card (refused, nothing written, when invalid); (card, deck-level problems)."""
        return edit.add_card(self.db, game, card_type, card_id, values)

    def set_card(
        self, game: str, card_id: str, values: dict[str, Any], correction: str | None = None
    ) -> tuple[Card, list[Problem]]:
        """Change a card's attributes and fields, all or nothing.

        A change to a rulebook value makes it the designer's (provisional) unless
        `correction` gives the reason it fixes a transcription.
        """
        return edit.set_card(self.db, game, card_id, values, correction)

    def remove_card(self, game: str, card_id: str) -> list[Problem]:
        """Remove a card unless another card names it; the deck-level problems after."""
        return edit.remove_card(self.db, game, card_id)

    def import_cards(
        self,
        game: str,
        path: Path,
        fmt: str | None = None,
        encoding: str | None = None,
        dry_run: bool = False,
        correction: str | None = None,
        allow_private: bool = False,
    ) -> ImportResult:
        """Upsert cards by id from a CSV, JSON or XLSX file or a CSV link; one bad row, nothing written.

        A dry run needs a project opened with `scratch=True`.
        """
        return edit.import_cards(
            self.db, game, path, fmt, encoding, dry_run, correction=correction, allow_private=allow_private
        )

    # ---- cards: export ---------------------------------------------------------------

    def export_cards(self, game: str, fmt: str = "csv") -> str:
        """A game's cards as CSV or JSON text; importing it back changes nothing."""
        return records.write_records(self.cards(game), self.card_types(game), fmt)

    def export_workbook(self, game: str) -> bytes:
        """A game's cards as an XLSX workbook, one worksheet per card type."""
        return card_xlsx.write_workbook(self.cards(game), self.card_types(game))

    # ---- releases ----------------------------------------------------------------------

    def releases(self, game: str) -> list[Release]:
        """A game's releases, oldest first; the rulebook edition, when there is one, comes first."""
        self.game(game)
        return releases.list_releases(self.db, game)

    def release(self, game: str, tag: str, notes: str = "") -> tuple[Release, int]:
        """Freeze every card as release `tag` (its version prints from now on); (release, cards frozen)."""
        made = releases.create_release(self.db, game, tag, notes)
        return made, len(releases.cards_at(self.db, game, tag))

    def diff(self, game: str, old_tag: str | None = None, new_tag: str | None = None) -> Diff:
        """Cards added, removed and changed between two releases, or since one (default: the last)."""
        return diff_releases(self.db, game, old_tag, new_tag)

    # ---- translations --------------------------------------------------------------------

    def translation_problems(self, game: str, lang: str, strict: bool = False) -> list[Problem]:
        """Missing and stale `lang` translations of a game (errors under `strict`), unused glossary terms."""
        return language_problems(self.db, game, lang, strict=strict)

    def export_translations(self, game: str, lang: str, output: Path) -> int:
        """Write every printed text of `game` beside its `lang` translation (.xlsx or .csv); how many."""
        return translation_sheet.export_file(self.db, game, lang, output)

    def import_translations(
        self, game: str, lang: str, path: Path, dry_run: bool = False
    ) -> translation_sheet.ImportResult:
        """Check a translation sheet whole, then write the changed translations (all or nothing)."""
        return translation_sheet.import_file(self.db, game, lang, path, dry_run=dry_run)

    def translation_coverage(
        self, lang: str, game: str | None = None
    ) -> dict[str, dict[str, dict[str, int]]]:
        """Per game (one, or all not written in `lang`) and part of the kit: texts, ok, missing, stale."""
        slugs = [game] if game else [g.slug for g in self.games() if g.language != lang]
        return {s: coverage(game_status(self.db, s, lang)) for s in slugs}

    # ---- checks ----------------------------------------------------------------------

    def validate(
        self, game: str | None = None, lang: str | None = None, strict: bool = False
    ) -> list[Problem]:
        """Card, reference, composition and constraint problems of one game or every game.

        With `lang`, also missing and stale translations (errors under `strict`).
        """
        slugs = [self.game(game).slug] if game else [g.slug for g in self.games()]
        problems = [p for s in slugs for p in validate_game(self.db, s)]
        if lang is not None:
            slugs = [s for s in slugs if self.game(s).language != lang]
            problems += [p for s in slugs for p in language_problems(self.db, s, lang, strict=strict)]
        return problems

    def constraints(self, game: str) -> list[tuple[Constraint, list[Breach]]]:
        """A game's deck constraints, each with its breaches now."""
        self.game(game)
        select = selector(self.db, game, repo.list_cards(self.db, game))
        return [(c, evaluate(c, select)) for c in list_constraints(self.db, game)]

    def add_constraint(
        self, constraint: Constraint, replace: bool = False, correction: str | None = None
    ) -> list[Breach]:
        """Store a constraint (its parameters checked against its kind); its breaches now.

        The change is recorded in the game's structure history; `correction` (the reason)
        makes it a fix of the rulebook edition rather than a design change.
        """
        check_params(constraint.kind, constraint.params)
        game = constraint.game
        self.game(game)
        breaches = run_constraint(constraint, selector(self.db, game, self.cards(game)))
        with store_db.transaction(self.db) as conn:
            before = structure.current(conn, game)
            insert_constraint(conn, constraint, replace=replace)
            structure.record_changes(conn, game, before, correction)
        return breaches

    def remove_constraint(self, game: str, constraint_id: str, correction: str | None = None) -> None:
        """Delete a constraint (recorded like `add_constraint`); PnpError when the game lacks it."""
        self.game(game)
        with store_db.transaction(self.db) as conn:
            before = structure.current(conn, game)
            delete_constraint(self.db, game, constraint_id)
            structure.record_changes(conn, game, before, correction)

    def text_rules(self, game: str) -> list[tuple[TextRule, list[Breach]]]:
        """A game's text rules (printed text bound to field values), each with the cards breaking it now."""
        self.game(game)
        return text_rule_breaches(self.db, game, self.cards_leniently(game))

    def remove_text_rule(self, game: str, rule_id: str) -> None:
        """Delete a text rule; PnpError when the game has none of that id."""
        self.game(game)
        with store_db.transaction(self.db) as conn:
            delete_text_rule(conn, game, rule_id)

    def examples(self, game: str) -> list[ExampleResult]:
        """A game's worked examples from the rulebook, each replayed on the cards as they are now."""
        from pnpforge.rules.examples import run_examples  # the engines load only to replay examples

        self.game(game)
        return run_examples(self.db, game, self.cards_leniently(game))

    def remove_example(self, game: str, example_id: str) -> None:
        """Delete a worked example; PnpError when the game has none of that id."""
        self.game(game)
        with store_db.transaction(self.db) as conn:
            delete_example(conn, game, example_id)

    def check(
        self, game: str, opts: CheckOptions | None = None, progress: Callable[[int], None] | None = None
    ) -> dict[str, Any]:
        """`pnp check`: static findings and sample games; the report's `ok` is False on any error.

        `opts` defaults to 100 games from seed 1; the report does not depend on `opts.jobs`
        (worker processes open the database themselves).
        """
        from pnpforge.rules.check import CheckOptions, run_check  # the checker loads only to check

        return run_check(self.path, game, opts if opts is not None else CheckOptions(), progress)

    def replay(self, game: str, seed: int, opts: CheckOptions | None = None) -> tuple[Any, Any]:
        """One sample game again, with its full move and event log: (the planned game, its result)."""
        from pnpforge.rules.check import CheckOptions, replay  # the checker loads only to check

        return replay(self.path, game, seed, opts if opts is not None else CheckOptions())

    def balance(
        self, game: str, opts: BalanceOptions, progress: Callable[[str], None] | None = None
    ) -> dict[str, Any]:
        """`pnp balance`: play variants of the deck and compare them with intervals.

        Returns {"report": the JSON-ready report, "seconds": wall time}; the report does not
        depend on the executor.
        """
        from pnpforge.balance.experiment import run_balance  # the engines load only for experiments

        return run_balance(str(self.path), game, opts, progress=progress)

    # ---- outputs (reportlab and Pillow load here, not on start-up) ---------------------

    def print_cards(
        self,
        game: str,
        options: PrintOptions | None = None,
        lang: str | None = None,
        changed_since: str | None = None,
    ) -> Manifest:
        """Write the print-and-play PDF of a game (or of a selection); its manifest.

        `changed_since` (a release tag) narrows `options.query` to the cards added or
        changed since that release (a reprint sheet); PnpError when there are none.
        `lang` prints the game's language edition (see `in_language`); the manifest's
        warnings then start with the texts that had no translation.
        """
        from pnpforge.render import print_cards  # reportlab

        options = options if options is not None else PrintOptions()
        if changed_since is not None:
            query = reprint_query(self.db, game, changed_since, options.query)
            options = replace(options, query=query)
        options.validate()
        with self.in_language([game], lang) as (edition, [slug], warnings):
            manifest = print_cards(edition.db, slug, options)
        manifest.warnings[:0] = warnings
        return manifest

    def build(
        self,
        games: list[str],
        out_root: str | os.PathLike[str] | None,
        opts: BuildOptions,
        jobs: int = 1,
        progress: Callable[[str, str], None] | None = None,
        force: bool = False,
        lang: str | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> list[GameKit]:
        """Build whole print-and-play kits into out_root/GAME (None: the project's output/), each
        replacing the old one on success.

        The sheet options, shop profile and cutting machine are checked before any work
        (PnpError naming the option).  `jobs` 0 means one worker per CPU core (at most one
        per game).  A kit whose inputs are unchanged is left as it is (`unchanged` set)
        unless `force`.  With `lang`, a game written in another language builds from its
        `lang` edition into out_root/GAME-LANG; `warn` hears which texts had no translation.
        The first failure is raised after every game has finished, naming the game.
        """
        from pnpforge.build import build  # reportlab, Pillow
        from pnpforge.shop.kit_parts import check_extras

        opts.print_options(Path(os.devnull))  # the sheet options, before any work
        check_extras(opts.shop, opts.cut, opts.paper)
        slugs = [self.game(g).slug for g in games]
        workers = jobs or min(len(slugs), os.cpu_count() or 1)
        originals = [g for g in slugs if is_original(self.db, g, lang)]
        editions = [g for g in slugs if g not in originals]
        kits: list[GameKit] = []
        if originals:
            kits += build(self.path, originals, out_root, opts, jobs=workers, progress=progress, force=force)
        if editions:
            with self.in_language(editions, lang) as (edition, edition_slugs, warnings):
                for w in warnings:
                    (warn or (lambda _: None))(w)
                kits += build(
                    edition.path, edition_slugs, out_root, opts, jobs=workers, progress=progress, force=force
                )
        return kits

    @staticmethod
    def build_steps(opts: BuildOptions) -> tuple[str, ...]:
        """The steps `build` reports to `progress` for each game (for a progress bar's length)."""
        from pnpforge.build import steps_of  # reportlab, Pillow

        return steps_of(opts)

    # ---- language editions, calibration, images, proofs, player aids, summaries, watching ----

    @contextlib.contextmanager
    def in_language(
        self, games: list[str], lang: str | None
    ) -> Iterator[tuple[Project, list[str], list[str]]]:
        """(project, slugs, warnings) to print `games` in `lang`, for the block.

        The project is this one when `lang` is absent or every game's own language;
        otherwise a read-only language edition (its own database and templates in a
        temporary folder, removed when the block ends) whose `slugs` are GAME-LANG.
        The warnings name the games with texts that have no `lang` translation (they
        print in the original).  PnpError for an unknown language, or a game already
        written in `lang` among others that are not.
        """
        if not games or all(is_original(self.db, g, lang) for g in games):
            yield self, list(games), []
            return
        assert lang is not None
        with tempfile.TemporaryDirectory(prefix="pnp-lang-") as tmp:
            made = write_edition(self.db, games, lang, Path(tmp))
            edition = Project(made.open(), made.db_path)
            try:
                yield edition, [made.slugs[g] for g in games], made.warnings()
            finally:
                edition.db.conn.close()

    @staticmethod
    def print_calibration(options: SheetOptions | None = None, output: str | None = None) -> Manifest:
        """Write the duplex calibration page (no database needed); its manifest.

        Its back tells which `SheetOptions.offset` the printer needs; PnpError for a bad
        paper, flip edge or offset.
        """
        from pnpforge.render import print_calibration  # reportlab

        return print_calibration((options or SheetOptions()).validate(), output)

    def images(
        self,
        game: str,
        dpi: int = 300,
        card_type: str | None = None,
        output: str | None = None,
        lang: str | None = None,
    ) -> RasterResult:
        """Write one PNG per card face and per card type's back, at the card's size; what was written.

        Default folder output/GAME/images/; PnpError for a dpi outside 30-1200 or an
        unknown type.  `lang` as in `print_cards`.
        """
        from pnpforge.render import images  # reportlab, pypdfium2

        with self.in_language([game], lang) as (edition, [slug], warnings):
            result = images(edition.db, slug, dpi=dpi, card_type=card_type, output=output)
        result.warnings[:0] = warnings
        return result

    def proof(
        self, game: str, card_type: str | None = None, output: str | None = None, lang: str | None = None
    ) -> RasterResult:
        """Write contact sheets (PNG) of every card face, small, to review a deck at a glance.

        Default folder output/GAME/; PnpError for an unknown type.  `lang` as in `print_cards`.
        """
        from pnpforge.render import proof  # reportlab, pypdfium2

        with self.in_language([game], lang) as (edition, [slug], warnings):
            result = proof(edition.db, slug, output=output, card_type=card_type)
        result.warnings[:0] = warnings
        return result

    def print_helpers(
        self,
        game: str,
        options: PrintOptions | None = None,
        players: int | None = None,
        one_each: bool = False,
        lang: str | None = None,
    ) -> tuple[Manifest, HelperSet]:
        """Write the player-aid cards on print sheets: (the sheets' manifest, the aids laid out).

        The rulebook's aids in its quantities (one per player of per-player aids with
        `players`) and the reference cards, through the game's helper templates;
        PnpError for bad sheet options or a template that fails.  `lang` as in `print_cards`.
        """
        from pnpforge.docs.helpers import print_helpers  # reportlab, Pillow

        options = options if options is not None else PrintOptions()
        options.validate()
        with self.in_language([game], lang) as (edition, [slug], warnings):
            manifest, aids = print_helpers(edition.db, slug, options, players=players, one_each=one_each)
        manifest.warnings[:0] = warnings
        return manifest, aids

    def summary_markdown(self, game: str, lang: str | None = None) -> str:
        """The rulebook summary as Markdown text (components counted from the cards, turn, scoring…)."""
        from pnpforge.docs import summary  # jinja2

        with self.in_language([game], lang) as (edition, [slug], _):
            return summary.summary_markdown(edition.db, slug)

    def write_summary(
        self,
        game: str,
        fmt: str = "pdf",
        paper: str = "a4",
        output: str | os.PathLike[str] | None = None,
        lang: str | None = None,
    ) -> SummaryResult:
        """Write the rulebook summary (PDF, 1-4 pages, or Markdown); where, how long, and warnings.

        Default file output/GAME/GAME-rules-PAPER.pdf (or GAME-rules.md); an existing
        folder gets that name inside it.  PnpError for an unknown format or paper.
        """
        from pnpforge.docs import summary  # reportlab

        with self.in_language([game], lang) as (edition, [slug], warnings):
            result = summary.write_summary(edition.db, slug, fmt=fmt, paper=paper, output=output)
        result.warnings[:0] = warnings
        return result

    def watch(
        self,
        game: str,
        on_build: Callable[[BuildResult], None],
        what: str = "proof",
        output: Path | None = None,
        interval: float = 0.2,
        debounce: float = 0.25,
        lang: str | None = None,
    ) -> Watcher:
        """A watcher that rebuilds a proof, the print PDF or images of `game` when its sources change.

        Sources are this database, the game's layouts and its art; `on_build` hears every
        build (a failed one too: the watcher keeps going).  Call `first_build()`, then
        `run()` (until Ctrl-C) or `step()`.  PnpError for an unknown game, an unknown
        `what`, or an interval outside 0.05-10 s or a debounce outside 0-60 s.
        """
        from pnpforge.design.watch import Watcher, WatchOptions  # reportlab loads on the first build

        if not 0.05 <= interval <= 10 or not 0 <= debounce <= 60:
            raise PnpError("--interval must be 0.05-10 s and --debounce 0-60 s")
        self.game(game)  # a misspelt game fails at once
        return Watcher(WatchOptions(self.path, game, what, output, interval, debounce, lang), on_build)

    @staticmethod
    def preview_server(watcher: Watcher, port: int = 8765) -> PreviewServer:
        """A preview page on 127.0.0.1:`port` (0: any free port) of `watcher`'s folder and last build.

        Not yet serving: `start()` it, `stop()` it.  PnpError when the port is taken.
        """
        from pnpforge.design.preview import PreviewServer  # http.server

        opts = watcher.opts
        return PreviewServer(
            f"{opts.game} · {opts.what}",
            opts.out_dir(),
            lambda: watcher.last.to_dict() if watcher.last else {},
            port,
        )

    # ---- composition rows (written by pnpforge.edit, like the cards) ---------------------------

    def composition(self, game: str) -> list[tuple[CompositionRule, RuleResult]]:
        """A game's composition rows, each with its count now (expected, actual, ok).

        PnpError for an unknown game.
        """
        self.game(game)
        rows = {r.id: r for r in repo.composition(self.db, game)}
        return [(rows[result.rule], result) for result in composition(self.db, game)]

    def set_composition_row(
        self, game: str, row_id: str, values: dict[str, Any], correction: str | None = None
    ) -> CompositionRule:
        """Change one composition row (text values, as `pnp composition set` takes them); the row after.

        A rulebook row whose count or selection changes becomes designed unless `correction`
        gives the transcription it fixes; PnpError naming the row and value when refused.
        """
        return edit.set_composition_row(self.db, game, row_id, values, correction)

    def add_composition_row(self, row: CompositionRule) -> CompositionRule:
        """Add a composition row (its id new, its type, query and parent existing); the row as stored."""
        return edit.add_composition_row(self.db, row)

    def remove_composition_row(self, game: str, row_id: str, correction: str | None = None) -> None:
        """Remove a composition row; PnpError when it is unknown or another row names it as parent."""
        edit.remove_composition_row(self.db, game, row_id, correction)

    def structure_history(self, game: str) -> list[dict[str, Any]]:
        """Edits of the game's structural values (composition rows, piles, sizes…), oldest first:
        seq, at, key, before, after, correction."""
        self.game(game)
        return structure.history(self.db, game)

    # Print-shop outputs: preflight, shop files, cut files, Tabletop Simulator (pnpforge.shop;
    # reportlab, Pillow and ezdxf load when one is called, not on start-up)

    def preflight(
        self, game: str, profile: str | None = None, card_type: str | None = None
    ) -> PreflightReport:
        """What a print shop would reject or print badly, found before the upload.

        Every card (or every card of `card_type`) is drawn once as it will print and
        checked against the shop `profile` (mpc, tgc, drivethru), or against press
        printing in general without one: art resolution and bleed, safe zone, CMYK
        colours, fonts, sizes.  Each problem names its card; nothing is written.
        """
        from pnpforge.shop.preflight import preflight  # reportlab

        return preflight(self.db, game, profile, card_type)

    def shop(
        self, game: str, profile: str, output: str | None = None, card_type: str | None = None
    ) -> ShopOrder:
        """The files a print-on-demand shop takes, after a preflight for its profile.

        Per-card PNGs (mpc, tgc) or a CMYK PDF per deck (drivethru), and manifest.json,
        in `output` (default output/GAME/shop/PROFILE/).  A preflight error raises
        ShopRefused (a ValidationFailed holding the report) before any file is written.
        """
        from pnpforge.shop.export import shop_order  # reportlab, Pillow

        return shop_order(self.db, game, profile, output=output, card_type=card_type)

    def cut(
        self,
        game: str,
        machine: str,
        paper: str = "a4",
        output: str | None = None,
        card_type: str | None = None,
    ) -> CutResult:
        """Print-then-cut for a cutting machine (silhouette, cricut) on `paper` (a4, letter).

        A PDF of faces with the machine's registration marks, and one cut file per sheet
        (SVG, and DXF for Silhouette) whose outlines are the trim rectangles the returned
        placements list, in `output` (default output/GAME/cut/MACHINE/).
        """
        from pnpforge.shop.cut import cut  # reportlab, ezdxf

        return cut(self.db, game, machine, paper=paper, output=output, card_type=card_type)

    def tts(self, game: str, output: str | None = None, card_type: str | None = None) -> RasterResult:
        """Tabletop Simulator decks: per card type, sheets of at most 10×7 cards (≤ 4096 px),
        a back image, the saved object GAME.json and README.txt, in `output`
        (default output/GAME/tts/); `decks` lists each sheet's import numbers."""
        from pnpforge.shop.tts import tts  # reportlab, pypdfium2, Pillow

        return tts(self.db, game, output=output, card_type=card_type)

    def tts_object(
        self,
        game: str,
        source: str | None = None,
        output: str | None = None,
        base_url: str | None = None,
    ) -> LinkResult:
        """The saved object of `tts` with full image addresses, for TTS's Saved Objects folder.

        Reads GAME.json in `source` (default output/GAME/tts/; its sheets are drawn first
        when it is not there) and writes a copy to `output` (default SOURCE/linked/GAME.json)
        whose images point at `base_url` (http, https or file; checked before any drawing),
        or at the files on this computer without one.
        """
        from pnpforge.shop.tts import tts_object  # reportlab, pypdfium2, Pillow (when it draws)

        return tts_object(self.db, game, source=source, output=output, base_url=base_url)


def load_json_param(text: str, option: str) -> Any:
    """A JSON option value decoded, or PnpError naming the option."""
    try:
        return json.loads(text)
    except ValueError as exc:
        raise PnpError(f"{option} is not valid JSON: {exc}") from None


def count_errors(problems: list[Problem]) -> int:
    """How many of `problems` are errors (the rest are warnings)."""
    return sum(p.severity == ERROR for p in problems)

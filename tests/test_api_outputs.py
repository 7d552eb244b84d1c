"""The library API's outputs on a small game: print, cut and shop files, each a real file."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pnpforge.api import Project
from pnpforge.errors import PnpError
from pnpforge.render import PrintOptions


def _pages(path: str | Path) -> int:
    document = pdfium.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


def test_print_writes_the_pdf_its_manifest_describes(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db, readonly=True)
    manifest = project.print_cards("mini", PrintOptions(output=str(tmp_path / "mini.pdf")))
    assert Path(manifest.path).is_file()
    assert manifest.pages == _pages(manifest.path) >= 2  # fronts and duplex backs


def test_cut_and_shop_files_land_where_asked(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db, readonly=True)
    cut = project.cut("mini", "silhouette", output=str(tmp_path / "cut"))
    assert Path(cut.pdf).is_file() and cut.files and all(Path(f).is_file() for f in cut.files)
    shop = project.shop("mini", "mpc", output=str(tmp_path / "shop"))
    assert not shop.preflight.errors  # the files come after a clean preflight
    assert shop.result.files and all(Path(f).is_file() for f in shop.result.files)


def test_an_edition_in_another_language_is_named_and_says_what_it_could_not_translate(
    mini_db: Path, tmp_path: Path
) -> None:
    project = Project.open(mini_db, readonly=True)
    with project.in_language(["mini"], "zh-Hant") as (same, slugs, warnings):
        assert same is project and slugs == ["mini"] and warnings == []
    with project.in_language(["mini"], "en") as (edition, slugs, warnings):
        assert slugs == ["mini-en"] and edition.path != project.path
        assert edition.game("mini-en").language == "en"
        assert warnings and "no en translation" in warnings[0]
    summary = project.write_summary("mini", fmt="md", output=tmp_path / "rules-en.md", lang="en")
    assert summary.path.is_file() and summary.warnings[0] == warnings[0]  # the edition's warning leads


def test_a_reprint_sheet_holds_only_the_cards_changed_since_a_release(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db)
    project.release("mini", "v1")
    with pytest.raises(PnpError, match="nothing to reprint"):
        project.print_cards("mini", PrintOptions(output=str(tmp_path / "none.pdf")), changed_since="v1")
    project.set_card("mini", "S-01", {"name": "冰霜新星"})
    manifest = project.print_cards("mini", PrintOptions(output=str(tmp_path / "r.pdf")), changed_since="v1")
    copies = project.card("mini", "S-01").copies
    assert manifest.cards == copies and Path(manifest.path).is_file()


def test_helpers_and_summary_come_from_the_project(mini_db: Path, tmp_path: Path) -> None:
    project = Project.open(mini_db, readonly=True)
    manifest, aids = project.print_helpers("mini", PrintOptions(output=str(tmp_path / "aids.pdf")))
    assert Path(manifest.path).is_file() and manifest.cards == sum(
        a.quantity * a.cards_per_set for a in aids.aids
    )
    written = project.write_summary("mini", fmt="md", output=tmp_path / "rules.md")
    assert written.path.read_text(encoding="utf-8") == project.summary_markdown("mini")
    with pytest.raises(PnpError, match="unknown paper"):
        project.write_summary("mini", paper="a3", output=tmp_path)

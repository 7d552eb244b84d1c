"""The library API's outputs on a small game: print, cut and shop files, each a real file."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from pnpforge.api import Project
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

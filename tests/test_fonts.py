"""Fonts: pip-installed, converted once to TrueType, embedded (subset) in every PDF."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pnpforge.errors import PnpError
from pnpforge.render import fonts

ROOT = Path(__file__).resolve().parent.parent


def test_font_sets_per_language() -> None:
    hant = fonts.ensure_fonts("zh-Hant")
    hans = fonts.ensure_fonts("zh-Hans")
    en = fonts.ensure_fonts("en")
    assert hant.regular != hant.bold and hans.regular != hans.bold
    # Traditional glyph forms for zh-Hant, Simplified for zh-Hans: different faces
    assert "TC" in hant.regular and "SC" in hans.regular
    assert en.regular


def test_unknown_language_lists_the_allowed_ones() -> None:
    with pytest.raises(PnpError, match="zh-Hant, zh-Hans, en"):
        fonts.ensure_fonts("tlh")


def test_cache_lives_outside_the_repository_keyed_by_hash_and_converter() -> None:
    fonts.ensure_fonts("zh-Hant")
    path = fonts.cached_font_path("NotoSansTC")
    assert path.is_file()
    assert ROOT not in path.resolve().parents
    assert f"-c{fonts.CONVERTER_VERSION}.ttf" in path.name
    # the key carries the source file's hash: another source, another file
    assert len(path.stem.split("-")[-2]) == 16


def test_cache_dir_honours_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    assert fonts.cache_dir() == tmp_path / "fonts"


def test_converted_fonts_are_truetype_outlines() -> None:
    from fontTools.ttLib import TTFont
    fonts.ensure_fonts("zh-Hant")
    for name in ("NotoSansTC", "NotoSansTC-Bold"):
        f = TTFont(str(fonts.cached_font_path(name)), lazy=True)
        assert "glyf" in f and "CFF " not in f
        assert ord("稅") in f.getBestCmap()


def test_missing_glyphs_reports_each_character_once() -> None:
    fs = fonts.ensure_fonts("zh-Hant")
    assert fonts.missing_glyphs("稅健罰費 ABC 123\n", fs.regular) == []
    assert fonts.missing_glyphs("✗稅✗\u2717", fs.bold) == ["✗"]
    assert "U+2717" in fonts.describe_char("✗")


def _ink(font: str, text: str) -> int:
    """Dark pixels of `text` drawn large: a measure of stroke weight."""
    import pypdfium2 as pdfium
    from reportlab.pdfgen import canvas
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(400, 80), initialFontName=font)
    c.setFont(font, 48)
    c.drawString(10, 20, text)
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    img = pdf[0].render(scale=1).to_pil().convert("L")
    return img.point(lambda p: 255 if p < 128 else 0).histogram()[255]


def test_bold_is_visibly_bolder_than_regular() -> None:
    for lang in ("zh-Hant", "zh-Hans"):
        fs = fonts.ensure_fonts(lang)
        regular, bold = _ink(fs.regular, "執行難度"), _ink(fs.bold, "執行難度")
        assert bold > regular * 1.25, (lang, regular, bold)


def test_pdf_embeds_every_font_and_text_is_extractable(shipped_db: Path) -> None:
    from pypdf import PdfReader

    from pnpforge.render.face import FaceRenderer, one_card_pdf
    from pnpforge.store import repo
    from pnpforge.store.db import open_db

    db = open_db(shipped_db)
    for game in repo.list_games(db):
        renderer = FaceRenderer(db, game.slug, date="2026-01-01")
        card = repo.list_cards(db, game.slug)[0]
        reader = PdfReader(io.BytesIO(one_card_pdf(renderer, card)))
        page = reader.pages[0]
        names = []
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            names.append(str(font["/BaseFont"]))
            desc = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in desc or "/FontFile3" in desc, font["/BaseFont"]
        assert names and not any("Helvetica" in n for n in names), names
        assert card.name.replace(" ", "") in page.extract_text().replace(" ", "").replace("\n", "")
        back = PdfReader(io.BytesIO(one_card_pdf(renderer, back=card.type))).pages[0]
        for ref in back["/Resources"]["/Font"].values():
            assert "Helvetica" not in str(ref.get_object()["/BaseFont"])

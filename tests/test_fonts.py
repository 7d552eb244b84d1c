"""Fonts: pip-installed, converted once to TrueType, embedded (subset) in every PDF."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

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
    assert path.parent.name.endswith(f"-c{fonts.CONVERTER_VERSION}")
    # the key carries the source file's hash: another source, another folder
    assert len(path.parent.name.split("-")[-2]) == 16


def test_cache_dir_honours_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    assert fonts.cache_dir() == tmp_path / "fonts"


def test_registered_fonts_are_truetype_with_the_whole_character_map() -> None:
    from fontTools.ttLib import TTFont

    fonts.ensure_fonts("zh-Hant")
    for name in ("NotoSansTC", "NotoSansTC-Bold"):
        f = TTFont(io.BytesIO(fonts.skeleton_bytes(name)), lazy=True)
        assert "glyf" in f and "CFF " not in f
        assert ord("稅") in f.getBestCmap()
        assert len(f.getBestCmap()) > 20000  # any character can be measured before anything is converted


def _pdf_with(font_name: str, store_dir: Path, text: str, warm_up: str = "") -> bytes:
    """A one-line PDF in `font_name`, its glyphs converted into (or read from) `store_dir`."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen import canvas

    from pnpforge.render.font_embed import GlyphStore

    recipe = fonts._RECIPES[font_name]
    src = recipe.source()
    base = GlyphStore("NotoSansTC", "cff-regular", src, store_dir / "regular") if recipe.base else None
    store = GlyphStore(font_name, recipe.kind, src, store_dir / font_name, base)
    store.progress = fonts.glyph_store(font_name).progress
    face = pdfmetrics.getFont(fonts.register(font_name)).face
    original = face.glyph_store
    face.glyph_store = store
    try:
        if warm_up:
            store.glyphs(sorted({face.charToGlyph[ord(ch)] for ch in warm_up}))
        buf = io.BytesIO()
        c = canvas.Canvas(buf, pagesize=(300, 60), invariant=1)
        c.setFont(font_name, 20)
        c.drawString(10, 20, text)
        c.save()
        return buf.getvalue()
    finally:
        face.glyph_store = original


@pytest.mark.parametrize("font_name", ["NotoSansTC-Bold", "NotoSansSC"])
def test_pdf_bytes_do_not_depend_on_what_the_cache_held(tmp_path: Path, font_name: str) -> None:
    text = "執行官 Agent 7 查封"
    cold = _pdf_with(font_name, tmp_path / "empty", text)
    warm = _pdf_with(font_name, tmp_path / "empty", text)
    other = _pdf_with(font_name, tmp_path / "other", text, warm_up="聲明異議 ABC 查")
    assert cold == warm == other
    assert list((tmp_path / "empty" / font_name).glob("*.glyph"))  # the glyphs were cached


def test_only_the_glyphs_a_document_uses_are_converted(tmp_path: Path) -> None:
    _pdf_with("NotoSansTC", tmp_path, "稅健罰費")
    cached = list((tmp_path / "NotoSansTC").glob("*.glyph"))
    # reportlab's first subset always holds printable ASCII; then the four characters:
    # a hundred-odd glyphs, not the 20,000 of the whole font
    assert 5 <= len(cached) <= 128 + 5


def test_embedded_outlines_are_real(tmp_path: Path) -> None:
    from fontTools.ttLib import TTFont
    from pypdf import PdfReader

    pdf = PdfReader(io.BytesIO(_pdf_with("NotoSansTC-Bold", tmp_path, "稅")))
    resources: Any = pdf.pages[0]["/Resources"]
    fonts_used = [f.get_object() for f in resources["/Font"].values()]
    font = next(f for f in fonts_used if "NotoSansTC" in str(f["/BaseFont"]))
    program = font["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()
    embedded = TTFont(io.BytesIO(program))
    glyphs = [embedded["glyf"][g] for g in embedded.getGlyphOrder()]
    assert max(g.numberOfContours for g in glyphs) >= 4  # 稅 has many contours
    assert embedded["maxp"].maxPoints >= max(len(g.getCoordinates(embedded["glyf"])[0]) for g in glyphs)


def test_conversion_progress_is_reported_once_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import logging

    from pnpforge.commands import _fontbar

    log = logging.getLogger("pnpforge.fonts")
    for handler in [h for h in log.handlers if isinstance(h, _fontbar._FontBar)]:
        log.removeHandler(handler)  # an earlier command in this process already told its user
    _fontbar.install()
    _pdf_with("NotoSansTC", tmp_path, "稅健")
    _pdf_with("NotoSansTC", tmp_path / "again", "罰費")
    err = capsys.readouterr().err
    assert err.count("Preparing fonts") == 1
    _pdf_with("NotoSansTC", tmp_path, "稅健")  # cached: nothing to say
    assert capsys.readouterr().err == ""


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
        page_resources: Any = page["/Resources"]
        for ref in page_resources["/Font"].values():
            font = ref.get_object()
            names.append(str(font["/BaseFont"]))
            desc = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in desc or "/FontFile3" in desc, font["/BaseFont"]
        assert names and not any("Helvetica" in n for n in names), names
        assert card.name.replace(" ", "") in page.extract_text().replace(" ", "").replace("\n", "")
        back = PdfReader(io.BytesIO(one_card_pdf(renderer, back=card.type))).pages[0]
        back_resources: Any = back["/Resources"]
        for ref in back_resources["/Font"].values():
            assert "Helvetica" not in str(ref.get_object()["/BaseFont"])

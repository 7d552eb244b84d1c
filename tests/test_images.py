"""`pnp images`, `pnp tts`, `pnp proof`: PNGs rasterised from the same drawing as the PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from pnpforge.edit import import_game
from pnpforge.errors import PnpError
from pnpforge.render import (
    PrintOptions,
    images,
    pdf,
    print_cards,
    proof,
    raster,
    raster_png,
    raster_proof,
)
from pnpforge.render.sheet import Rect
from pnpforge.shop import tts as raster_tts
from pnpforge.shop.tts import tts
from pnpforge.store import repo
from pnpforge.store.db import open_db
from test_print import BACK_RGB, GAME, FakeRenderer, card_rgb

BIG_DECK = {
    "format": "pnpforge-game/1",
    "game": {
        "slug": "deck",
        "title": "大牌組",
        "title_en": "Big Deck",
        "language": "zh-Hant",
        "players_min": 2,
        "players_max": 4,
    },
    "card_types": [
        {"slug": "card", "name": "牌", "name_en": "Card", "width_mm": 63, "height_mm": 88},
        {"slug": "land", "name": "地", "name_en": "Land", "width_mm": 88, "height_mm": 63},
    ],
    "cards": [{"id": f"C-{i:02d}", "type": "card", "name": f"牌{i}", "copies": 2} for i in range(1, 41)]
    + [{"id": f"L-{i}", "type": "land", "name": f"地{i}", "copies": 0 if i == 3 else 1} for i in range(1, 4)],
}


def _db(tmp_path: Path, data: dict):
    path = tmp_path / f"{data['game']['slug']}.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    db = open_db(tmp_path / f"{data['game']['slug']}.db", create=True)
    import_game(db, path)
    return db


@pytest.fixture
def game_db(tmp_path):
    return _db(tmp_path, GAME)


def _near(a, b, tol: int = 12) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a[:3], b[:3], strict=False))


def test_images_one_png_per_face_and_back_at_card_size(game_db, tmp_path):
    out = tmp_path / "img"
    r = images(game_db, "sheets", dpi=120, output=str(out), renderer_factory=FakeRenderer)
    cards = repo.list_cards(game_db, "sheets")
    types = {t.slug: t for t in repo.card_types(game_db, "sheets")}
    assert len(r.files) == len(cards) + len({c.type for c in cards})
    for c in cards:
        img = Image.open(out / f"{c.id}.png")
        t = types[c.type]
        assert img.size == (round(t.width_mm / 25.4 * 120), round(t.height_mm / 25.4 * 120))
        assert round(img.info["dpi"][0]) == 120
        # the face colour reaches every edge: bleed drawn under the crop, no white seam
        for xy in ((0, img.height // 2), (img.width - 1, img.height // 2), (img.width // 2, img.height - 1)):
            assert _near(img.getpixel(xy), card_rgb(c.id)), (c.id, xy)
    back = Image.open(out / "back-big.png")
    assert _near(back.getpixel((back.width // 2, back.height - 3)), BACK_RGB)


def test_images_agree_with_the_printed_sheet(game_db, tmp_path):
    dpi = 127  # 5 px per mm: trims at whole mm land on whole pixels
    images(
        game_db,
        "sheets",
        dpi=dpi,
        card_type="big",
        output=str(tmp_path / "img"),
        renderer_factory=FakeRenderer,
    )
    m = print_cards(
        game_db,
        "sheets",
        PrintOptions(card_type="big", backs="none", output=str(tmp_path / "p.pdf")),
        renderer_factory=FakeRenderer,
    )
    sheet_img = _render_page(m.path, 0, dpi)
    k = dpi / 25.4
    for p in [p for p in m.placements if p.page == 1][:4]:
        png = Image.open(tmp_path / "img" / f"{p.id}.png").convert("RGB")
        box = (
            round(p.trim.x * k),
            round((297 - p.trim.y1) * k),
            round(p.trim.x * k) + png.width,
            round((297 - p.trim.y1) * k) + png.height,
        )
        cut = sheet_img.crop(box)
        small_a, small_b = png.resize((12, 16)), cut.resize((12, 16))
        diffs = [
            sum(abs(u - v) for u, v in zip(small_a.getpixel((x, y)), small_b.getpixel((x, y)), strict=True))
            for x in range(12)
            for y in range(16)
        ]
        assert sum(diffs) / len(diffs) < 12, p.id


def _render_page(path: str, index: int, dpi: float):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        return doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def test_images_bad_dpi(game_db, tmp_path):
    with pytest.raises(PnpError, match="--dpi"):
        images(game_db, "sheets", dpi=5, output=str(tmp_path), renderer_factory=FakeRenderer)


def test_tts_sheets_grids_and_readme(tmp_path):
    db = _db(tmp_path, BIG_DECK)
    out = tmp_path / "tts"
    r = tts(db, "deck", output=str(out), renderer_factory=FakeRenderer)
    decks = {d["file"]: d for d in r.decks}
    card_decks = [d for d in r.decks if d["type"] == "card"]
    assert [d["number"] for d in card_decks] == [70, 10]  # 40 cards × 2 copies
    assert [(d["width"], d["height"]) for d in card_decks] == [(10, 7), (10, 1)]
    land = [d for d in r.decks if d["type"] == "land"]
    assert land[0]["number"] == 2 and land[0]["sideways"]  # the 0-copy land is left out
    order = [c.id for c in repo.list_cards(db, "deck") if c.type == "card" for _ in range(c.copies)]
    for d in decks.values():
        img = Image.open(out / d["file"])
        assert img.width <= 4096 and img.height <= 4096
        cw, ch = d["card_px"]
        assert img.size == (d["width"] * cw, d["height"] * ch)
        assert (out / d["back"]).is_file()
    first = Image.open(out / card_decks[0]["file"]).convert("RGB")
    cw, ch = card_decks[0]["card_px"]
    for i, card_id in enumerate(order[:70]):  # copies in deck order, row by row
        x, y = (i % 10) * cw + cw // 2, (i // 10) * ch + ch // 2
        assert _near(first.getpixel((x, y)), card_rgb(card_id)), (i, card_id)
    readme = (out / "README.txt").read_text(encoding="utf-8")
    assert "Custom Deck" in readme and "Back is Hidden" in readme
    for d in r.decks:
        assert d["file"] in readme and d["back"] in readme


def test_tts_resolution_limits():
    assert (
        raster_tts.tts_grid(70) == (10, 7)
        and raster_tts.tts_grid(23) == (10, 3)
        and raster_tts.tts_grid(4) == (4, 1)
    )
    ppm = raster_tts.tts_px_per_mm(63, 88, 10, 7)
    assert 10 * 63 * ppm <= 4096 + 1e-6 and 7 * 88 * ppm <= 4096 + 1e-6
    assert raster_tts.tts_px_per_mm(63, 88, 2, 1) == pytest.approx(raster_tts.TTS_DPI / 25.4)


def test_images_and_tts_together_match_each_alone(tmp_path):
    """The build's one-drawing path writes what `pnp images` and `pnp tts` write."""
    db = _db(tmp_path, BIG_DECK)
    both_img, both_tts = raster_tts.images_and_tts(
        db,
        "deck",
        str(tmp_path / "both" / "img"),
        str(tmp_path / "both" / "tts"),
        dpi=90,
        renderer_factory=FakeRenderer,
    )
    img = images(db, "deck", dpi=90, output=str(tmp_path / "img"), renderer_factory=FakeRenderer)
    alone = tts(db, "deck", output=str(tmp_path / "tts"), renderer_factory=FakeRenderer)
    assert [Path(f).name for f in both_img.files] == [Path(f).name for f in img.files]
    assert [Path(f).name for f in both_tts.files] == [Path(f).name for f in alone.files]
    assert both_tts.decks == alone.decks
    pairs = [(Path(a), Path(b)) for a, b in zip(both_img.files, img.files, strict=False)] + [
        (Path(a), Path(b)) for a, b in zip(both_tts.files, alone.files, strict=False) if a.endswith(".png")
    ]
    for a, b in pairs:  # the same pixels: one drawing, rendered alike
        ia, ib = Image.open(a).convert("RGB"), Image.open(b).convert("RGB")
        assert ia.size == ib.size and ia.tobytes() == ib.tobytes(), a.name
    assert (tmp_path / "both" / "tts" / "README.txt").read_text(encoding="utf-8") == (
        tmp_path / "tts" / "README.txt"
    ).read_text(encoding="utf-8")


def test_write_png_is_lossless_deterministic_and_keeps_dpi(tmp_path, monkeypatch):
    from PIL import ImageDraw

    img = Image.new("RGB", (301, 157), (250, 245, 230))
    draw = ImageDraw.Draw(img)
    for x in range(0, 301, 7):  # gradients, edges, odd width
        draw.line([(x, 0), (300 - x, 156)], fill=(x % 256, (3 * x) % 256, 255 - x % 256), width=2)
    draw.rectangle((20, 30, 120, 90), fill=(12, 34, 56))
    raster.write_png(tmp_path / "a.png", img, dpi=300)
    raster.write_png(tmp_path / "b.png", img.convert("RGBA"), dpi=300)  # converted to RGB
    monkeypatch.setattr(raster_png, "_PNG_STRIP_BYTES", 5 * 3 * 301)  # many strips
    raster.write_png(tmp_path / "c.png", img)
    back = Image.open(tmp_path / "a.png")
    assert back.mode == "RGB" and back.size == img.size and round(back.info["dpi"][0]) == 300
    assert back.tobytes() == img.tobytes()
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    striped = Image.open(tmp_path / "c.png")
    assert "dpi" not in striped.info and striped.tobytes() == img.tobytes()


def test_proof_layout_keeps_sizes_apart_and_never_overlaps():
    sizes = [(63, 88)] * 13 + [(44, 67)] * 5 + [(70, 120)] * 3
    w, h, corners = raster_proof.proof_layout(sizes)
    rects = [Rect(x, y, sw, sh) for (x, y), (sw, sh) in zip(corners, sizes, strict=False)]
    page = Rect(0, 0, w, h)
    for i, a in enumerate(rects):
        assert page.contains(a)
        for b in rects[i + 1 :]:
            assert not a.expand(0, raster_proof.PROOF_LABEL_MM, 0, 0).overlaps(b)
    rows: dict[float, set] = {}
    for r, s in zip(rects, sizes, strict=False):
        rows.setdefault(round(r.y1, 6), set()).add(s)
    assert all(len(v) == 1 for v in rows.values())  # one size per row


def test_proof_png(game_db, tmp_path):
    r = proof(game_db, "sheets", output=str(tmp_path), renderer_factory=FakeRenderer)
    (path,) = r.files
    img = Image.open(path)
    cards = repo.list_cards(game_db, "sheets")
    types = {t.slug: t for t in repo.card_types(game_db, "sheets")}
    pw, ph, corners = raster_proof.proof_layout(
        [(types[c.type].width_mm, types[c.type].height_mm) for c in cards]
    )
    k = raster_proof.PROOF_DPI / 25.4
    assert abs(img.width - pw * k) <= 1 and abs(img.height - ph * k) <= 1
    rgb = img.convert("RGB")
    for c, (x, y) in zip(cards, corners, strict=False):  # every card, even 0-copy ones
        t = types[c.type]
        centre = (int((x + t.width_mm / 2) * k), int((ph - y - t.height_mm / 2) * k))
        assert _near(rgb.getpixel(centre), card_rgb(c.id)), c.id


@pytest.fixture
def fake_default(monkeypatch):
    monkeypatch.setattr(pdf, "default_renderer", FakeRenderer)


def test_cli_image_commands(run, mini_db, tmp_path, fake_default):
    r = run("--db", mini_db, "images", "mini", "--dpi", "60", "-o", tmp_path / "i", "--json")
    assert r.exit_code == 0, r.stderr
    assert len(json.loads(r.stdout)["files"]) == 3 + 2
    r = run("--db", mini_db, "tts", "mini", "-o", tmp_path / "t")
    assert r.exit_code == 0 and "README.txt" in r.stdout
    r = run("--db", mini_db, "proof", "mini", "--type", "hero", "-o", tmp_path / "p")
    assert r.exit_code == 0 and (tmp_path / "p" / "mini-hero-proof.png").is_file()
    r = run("--db", mini_db, "images", "nosuch", "-o", tmp_path / "i")
    assert r.exit_code == 2 and "unknown game" in r.stderr


def test_proof_into_a_file_names_it_like_images(run, mini_db, tmp_path):
    target = tmp_path / "afile"
    target.write_text("x")
    for command in ("proof", "images"):
        r = run("--db", mini_db, command, "mini", "-o", target)
        last = r.stderr.strip().splitlines()[-1]  # after a first-use font note, if any
        assert r.exit_code == 2 and last == f"Error: cannot write into {target}: it is not a folder"
    assert target.read_text() == "x"

"""`pnp print`: the PDF read back with pypdf and pypdfium2.

Most tests use FakeRenderer (same methods as render.face.FaceRenderer) so the
sheet code is tested on its own: each card gets its own colour and a marker in
its top-left corner, which lets a raster check say which card, and which way
up, sits at a given spot of the paper.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import ImageChops, ImageStat

from pnpforge.edit import import_game
from pnpforge.errors import PnpError
from pnpforge.render import (
    PrintOptions,
    SheetOptions,
    pdf,
    pdf_calibration,
    pdf_draw,
    print_calibration,
    print_cards,
    sheet,
    sheet_manifest,
    sheet_plan,
)
from pnpforge.render.sheet import MM_TO_PT, Rect
from pnpforge.resources import shipped_templates
from pnpforge.store import repo
from pnpforge.store.db import open_db

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TOL = 0.05  # mm
BACK_RGB = (90, 40, 140)
MARK_RGB = (230, 20, 20)  # face marker: top-left corner of the face
BACK_MARK_RGB = (20, 200, 40)


def card_rgb(card_id: str) -> tuple[int, int, int]:
    """A distinct light colour per card id."""
    d = hashlib.sha1(card_id.encode()).digest()
    return (120 + d[0] % 120, 120 + d[1] % 120, 120 + d[2] % 120)


class FakeRenderer:
    """A tiny face renderer honouring FaceRenderer's contract (sizes from the card types)."""

    def __init__(self, db, game, templates_dir=None, date=None):
        from pnpforge.render.fonts import ensure_fonts

        self.fonts = ensure_fonts(repo.get_game(db, game).language)
        self.types = {t.slug: t for t in repo.card_types(db, game)}
        self.date = date

    def check(self, card) -> None:
        if "OVERFLOW" in card.text:
            raise PnpError(f"card {card.id}: text overflows its box")

    def _size(self, slug: str) -> tuple[float, float]:
        t = self.types[slug]
        return t.width_mm * MM_TO_PT, t.height_mm * MM_TO_PT

    def draw_face(self, c, card, x, y, bleed) -> None:
        w, h = self._size(card.type)
        c.setFillColorRGB(*[v / 255 for v in card_rgb(card.id)])
        c.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        c.setFillColorRGB(*[v / 255 for v in MARK_RGB])
        c.rect(x + 2 * MM_TO_PT, y + h - 8 * MM_TO_PT, 6 * MM_TO_PT, 6 * MM_TO_PT, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(self.fonts.bold, 9)
        c.drawString(x + 10 * MM_TO_PT, y + h - 6 * MM_TO_PT, card.name)
        c.setFont(self.fonts.regular, 6)
        c.drawString(x + 3 * MM_TO_PT, y + 3 * MM_TO_PT, f"{card.id} · {self.date}")

    def draw_back(self, c, slug, x, y, bleed) -> None:
        w, h = self._size(slug)
        c.setFillColorRGB(*[v / 255 for v in BACK_RGB])
        c.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        c.setFillColorRGB(*[v / 255 for v in BACK_MARK_RGB])
        c.rect(x + 2 * MM_TO_PT, y + h - 8 * MM_TO_PT, 6 * MM_TO_PT, 6 * MM_TO_PT, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.setFont(self.fonts.bold, 12)
        c.drawString(x + w / 3, y + h / 2, self.types[slug].name)

    def warnings(self) -> list[str]:
        return []


GAME = {
    "format": "pnpforge-game/1",
    "game": {
        "slug": "sheets",
        "title": "印刷測試",
        "title_en": "Sheet Test",
        "language": "zh-Hant",
        "players_min": 1,
        "players_max": 4,
        "version": "0.2",
    },
    "card_types": [
        {
            "slug": "big",
            "name": "大牌",
            "name_en": "Big",
            "width_mm": 63,
            "height_mm": 88,
            "back": {"title": "大牌", "colour": "#553377"},
        },
        {
            "slug": "small",
            "name": "小牌",
            "name_en": "Small",
            "width_mm": 44,
            "height_mm": 67,
            "size_provisional": True,
            "back": {"title": "小牌", "colour": "#335577"},
        },
        {
            "slug": "wide",
            "name": "橫牌",
            "name_en": "Wide",
            "width_mm": 88,
            "height_mm": 63,
            "back": {"title": "橫牌", "colour": "#775533"},
        },
        {
            "slug": "mission",
            "name": "任務",
            "name_en": "Mission",
            "width_mm": 63,
            "height_mm": 88,
            "role": "aid",
            "back": {"title": "任務", "colour": "#222222"},
        },
    ],
    "cards": (
        [
            {
                "id": f"B-{i:02d}",
                "type": "big",
                "name": f"大牌{i}號",
                "name_en": f"Big {i}",
                "copies": 1 + i % 3,
                "provenance": "rulebook",
                "source": "卡片",
            }
            for i in range(1, 8)
        ]
        + [
            {
                "id": "B-00",
                "type": "big",
                "name": "零張牌",
                "name_en": "Zero",
                "copies": 0,
                "provenance": "rulebook",
                "source": "卡片",
            }
        ]
        + [
            {
                "id": f"S-{i:02d}",
                "type": "small",
                "name": f"小牌{i}",
                "name_en": f"Small {i}",
                "copies": 2,
                "provenance": "provisional",
            }
            for i in range(1, 6)
        ]
        + [
            {
                "id": f"W-{i:02d}",
                "type": "wide",
                "name": f"橫牌{i}",
                "name_en": f"Wide {i}",
                "provenance": "rulebook",
                "source": "卡片",
            }
            for i in range(1, 5)
        ]
        + [
            {
                "id": f"M-{i:02d}",
                "type": "mission",
                "name": f"任務{i}",
                "name_en": f"Mission {i}",
                "provenance": "rulebook",
                "source": "任務",
            }
            for i in range(1, 4)
        ]
    ),
}


@pytest.fixture
def game_db(tmp_path: Path):
    path = tmp_path / "sheets.json"
    path.write_text(json.dumps(GAME, ensure_ascii=False), encoding="utf-8")
    db = open_db(tmp_path / "cards.db", create=True)
    import_game(db, path)
    return db


def _print(db, tmp_path: Path, name: str = "out.pdf", **kw) -> sheet_manifest.Manifest:
    opts = PrintOptions(output=str(tmp_path / name), **kw)
    opts.validate()
    return print_cards(db, "sheets", opts, renderer_factory=FakeRenderer)


def _by_page(m: sheet_manifest.Manifest) -> dict[int, list[sheet_manifest.Placement]]:
    out: dict[int, list[sheet_manifest.Placement]] = {}
    for p in m.placements:
        out.setdefault(p.page, []).append(p)
    return out


def _pixel(img, page_h_mm: float, x_mm: float, y_mm: float, dpi: float) -> tuple[int, int, int]:
    """RGB at PDF position (x, y) mm of an image rendered at `dpi`."""
    k = dpi / 25.4
    return img.getpixel((int(x_mm * k), int((page_h_mm - y_mm) * k)))[:3]


def _close(a, b, tol: int = 12) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=False))


def _render(path: str, index: int, dpi: float = 100):
    doc = pdfium.PdfDocument(path)
    try:
        return doc[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


# ---- what gets printed -----------------------------------------------------------------------


def test_manifest_sizes_pages_and_copies(game_db, tmp_path):
    m = _print(game_db, tmp_path)
    reader = pypdf.PdfReader(m.path)
    assert len(reader.pages) == m.pages
    for page in reader.pages:
        w, h = float(page.mediabox.width) / MM_TO_PT, float(page.mediabox.height) / MM_TO_PT
        assert abs(w - 210) < TOL and abs(h - 297) < TOL
    types = {t.slug: t for t in repo.card_types(game_db, "sheets")}
    faces = [p for p in m.placements if p.side == "face"]
    expected = {c.id: c.copies for c in repo.list_cards(game_db, "sheets") if c.copies}
    assert {i: sum(1 for p in faces if p.id == i) for i in expected} == expected
    assert m.cards == sum(expected.values())
    for p in m.placements:
        t = types[p.type]
        size = (p.trim.w, p.trim.h) if p.rotation in (0, 180) else (p.trim.h, p.trim.w)
        assert abs(size[0] - t.width_mm) < TOL and abs(size[1] - t.height_mm) < TOL
    # one size (and role) per page; aid cards never share a page with deck cards
    for page, items in _by_page(m).items():
        assert (
            len({(types[p.type].width_mm, types[p.type].height_mm, types[p.type].role) for p in items}) == 1
        ), page
    assert [s.role for s in m.sheets][-1] == "aid"
    assert any("provisional card size 44×67 mm" in w and "small" in w for w in m.warnings)
    assert any("0 copies" in w for w in m.warnings)


def test_wide_cards_are_turned_to_fit_more(game_db, tmp_path):
    m = _print(game_db, tmp_path, card_type="wide", backs="none")
    assert {p.rotation for p in m.placements} == {90}
    assert all(abs(p.trim.w - 63) < TOL and abs(p.trim.h - 88) < TOL for p in m.placements)


def test_drawing_matches_the_manifest(game_db, tmp_path):
    """Each card's background path (trim + full bleed) sits where the manifest says."""
    m = _print(game_db, tmp_path, bleed=2.5)
    doc = pdfium.PdfDocument(m.path)
    try:
        for page_no, items in _by_page(m).items():
            page = doc[page_no - 1]
            boxes = []
            for obj in page.get_objects(max_depth=1):
                left, b, r, t = (v / MM_TO_PT for v in obj.get_bounds())
                boxes.append(Rect(left, b, r - left, t - b))
            for p in items:
                want = p.trim.expand(2.5, 2.5, 2.5, 2.5)
                assert any(
                    all(
                        abs(u - v) < TOL
                        for u, v in zip(
                            (bx.x, bx.y, bx.w, bx.h), (want.x, want.y, want.w, want.h), strict=True
                        )
                    )
                    for bx in boxes
                ), f"{p.id} on page {page_no} not drawn at {p.trim}"
    finally:
        doc.close()


def test_bleed_is_clipped_to_half_the_gap(game_db, tmp_path):
    m = _print(game_db, tmp_path, card_type="big", one_each=True, gap=2, bleed=3, backs="none")
    img = _render(m.path, 0, dpi=150)
    row = sorted((p for p in m.placements if p.page == 1), key=lambda p: (-p.trim.y, p.trim.x))[:2]
    a, b = row
    assert a.id != b.id and abs(b.trim.x - a.trim.x1 - 2) < TOL
    y = a.trim.y + a.trim.h / 2
    assert _close(_pixel(img, 297, a.trim.x1 + 0.5, y, 150), card_rgb(a.id))  # a's bleed
    assert _close(_pixel(img, 297, a.trim.x1 + 1.5, y, 150), card_rgb(b.id))  # b's bleed
    # the outer edge keeps the full 3 mm
    assert _close(_pixel(img, 297, a.trim.x - 2.5, y, 150), card_rgb(a.id))
    assert _close(_pixel(img, 297, a.trim.x - 3.6, y, 150), (255, 255, 255))


def test_crop_marks_stay_outside_every_card(game_db, tmp_path):
    for kw in ({}, {"gap": 5}, {"paper": "letter"}, {"bleed": 0}):
        m = _print(game_db, tmp_path, backs="none", **kw)
        doc = pdfium.PdfDocument(m.path)
        try:
            for page_no, items in _by_page(m).items():
                cards = [p.trim.expand(m.bleed, m.bleed, m.bleed, m.bleed) for p in items]
                thin = []
                for obj in doc[page_no - 1].get_objects(max_depth=0):
                    left, b, r, t = (v / MM_TO_PT for v in obj.get_bounds())
                    if obj.type == pdfium.raw.FPDF_PAGEOBJ_PATH and min(r - left, t - b) < 0.3:
                        thin.append(Rect(left, b, r - left, t - b))
                assert thin, f"no crop marks on page {page_no} with {kw}"
                for mark in thin:
                    assert not any(mark.overlaps(c) for c in cards), f"mark {mark} crosses a card {kw}"
        finally:
            doc.close()


@pytest.mark.parametrize("flip", ["long", "short"])
def test_duplex_backs_land_behind_their_faces(game_db, tmp_path, flip):
    m = _print(game_db, tmp_path, flip=flip, card_type="big")
    pages = _by_page(m)
    assert m.pages % 2 == 0
    for face_page in range(1, m.pages + 1, 2):
        faces, backs = pages[face_page], pages[face_page + 1]
        assert {p.side for p in faces} == {"face"} and {p.side for p in backs} == {"back"}
        assert [p.id for p in faces] == [p.id for p in backs]
        for f, b in zip(faces, backs, strict=False):
            exp = sheet.flip_transform(flip, 210, 297).map_rect(f.trim)
            assert all(
                abs(u - v) < TOL
                for u, v in zip(
                    (b.trim.x, b.trim.y, b.trim.w, b.trim.h), (exp.x, exp.y, exp.w, exp.h), strict=False
                )
            )
    # read the paper: behind each face's top-right corner (turned over sideways, where the
    # back's top-left goes) the back page shows the back's marker
    img = _render(m.path, 1, dpi=100)
    for f in pages[1]:
        corner = (f.trim.x1 - 5, f.trim.y1 - 5)  # inside the face's top-right marker zone
        bx, by = sheet.flip_transform(flip, 210, 297).apply(*corner)
        assert _close(_pixel(img, 297, bx, by, 100), BACK_MARK_RGB), (flip, f.id)


def test_backs_separate_none_and_offset(game_db, tmp_path):
    sep = _print(game_db, tmp_path, "sep.pdf", backs="separate")
    sides = [p.side for p in sorted(sep.placements, key=lambda p: p.page)]
    first_back = sides.index("back")
    assert set(sides[:first_back]) == {"face"} and set(sides[first_back:]) == {"back"}
    none = _print(game_db, tmp_path, "none.pdf", backs="none")
    assert none.pages * 2 == sep.pages and {p.side for p in none.placements} == {"face"}
    shifted = _print(game_db, tmp_path, "off.pdf", offset=(1.5, -2.0))
    plain = _print(game_db, tmp_path, "plain.pdf")
    for a, b in zip(plain.placements, shifted.placements, strict=False):
        dx, dy = (1.5, -2.0) if a.side == "back" else (0.0, 0.0)
        assert abs(b.trim.x - a.trim.x - dx) < 1e-6 and abs(b.trim.y - a.trim.y - dy) < 1e-6


def test_query_type_and_one_each(game_db, tmp_path):
    from pnpforge.query import search

    m = _print(game_db, tmp_path, "q.pdf", query="is:provisional", backs="none")
    wanted = search(game_db, "sheets", "is:provisional")
    assert wanted and {p.id for p in m.placements} == {c.id for c in wanted}
    assert m.cards == sum(c.copies for c in wanted)
    t = _print(game_db, tmp_path, "t.pdf", card_type="mission", backs="none")
    assert {p.type for p in t.placements} == {"mission"}
    one = _print(game_db, tmp_path, "one.pdf", one_each=True, backs="none")
    assert sorted(p.id for p in one.placements) == sorted(c.id for c in repo.list_cards(game_db, "sheets"))
    with pytest.raises(PnpError, match="no card type 'nope'"):
        _print(game_db, tmp_path, "x.pdf", card_type="nope")
    with pytest.raises(PnpError, match="nothing to print"):
        _print(game_db, tmp_path, "x.pdf", query="name:不存在的牌")


# ---- the file itself ---------------------------------------------------------------------------


def _fonts(reader: pypdf.PdfReader) -> list:
    found = []

    def walk(resources):
        resources = resources.get_object() if resources is not None else {}
        for f in (resources.get("/Font") or {}).values():
            found.append(f.get_object())
        for x in (resources.get("/XObject") or {}).values():
            x = x.get_object()
            if "/Resources" in x:
                walk(x["/Resources"])

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    desc = font.get("/FontDescriptor")
    desc = desc.get_object() if desc is not None else {}
    return any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def test_fonts_embedded_no_helvetica_and_chinese_extractable(game_db, tmp_path):
    m = _print(game_db, tmp_path)
    raw = Path(m.path).read_bytes()
    assert b"Helvetica" not in raw
    reader = pypdf.PdfReader(m.path)
    fonts = _fonts(reader)
    assert fonts and all(_embedded(f) for f in fonts)
    assert not any("Helvetica" in str(f.get("/BaseFont")) for f in fonts)
    text = reader.pages[0].extract_text()
    assert "大牌1號" in text and "實際大小" in text and "100" in text
    cal = print_calibration(SheetOptions(), str(tmp_path / "cal.pdf"))
    assert b"Helvetica" not in Path(cal.path).read_bytes()
    assert all(_embedded(f) for f in _fonts(pypdf.PdfReader(cal.path)))


def test_byte_identical_and_dated_by_the_data(game_db, tmp_path):
    a = _print(game_db, tmp_path, "a.pdf")
    b = _print(game_db, tmp_path, "b.pdf")
    assert Path(a.path).read_bytes() == Path(b.path).read_bytes()
    reader = pypdf.PdfReader(a.path)
    latest = game_db.conn.execute("SELECT max(updated_at) FROM cards WHERE game='sheets'").fetchone()[0]
    assert reader.metadata["/CreationDate"].startswith("D:" + latest[:10].replace("-", ""))
    game_db.conn.execute("UPDATE cards SET updated_at = '2031-02-03T04:05:06Z' WHERE id = 'B-01'")
    c = _print(game_db, tmp_path, "c.pdf")
    assert pypdf.PdfReader(c.path).metadata["/CreationDate"].startswith("D:20310203040506")
    assert c.date == "2031-02-03"


def test_renderer_error_leaves_no_file(game_db, tmp_path):
    game_db.conn.execute("UPDATE cards SET text = 'OVERFLOW' WHERE id = 'B-03'")
    with pytest.raises(PnpError, match="B-03"):
        _print(game_db, tmp_path, "bad.pdf")
    assert not (tmp_path / "bad.pdf").exists()
    assert not list(tmp_path.glob(".bad.pdf*"))


def test_calibration_back_scales_sit_behind_the_front_lines(tmp_path):
    def objects(path, index):
        doc = pdfium.PdfDocument(path)
        try:
            return [tuple(v / MM_TO_PT for v in o.get_bounds()) for o in doc[index].get_objects(max_depth=0)]
        finally:
            doc.close()

    plain = print_calibration(SheetOptions(paper="letter"), str(tmp_path / "c0.pdf"))
    assert plain.pages == 2 and len(pypdf.PdfReader(plain.path).pages) == 2
    pw, ph = sheet.PAPERS["letter"]
    xs, ys = pdf_calibration.calibration_marks(pw, ph)
    front = objects(plain.path, 0)
    for cx, cy in xs:  # a vertical hairline through each X scale's zero point
        assert any(abs((lo + r) / 2 - cx) < 0.1 and r - lo < 0.3 and b < cy < t for lo, b, r, t in front)
    shifted = print_calibration(SheetOptions(paper="letter", offset=(1.0, 2.0)), str(tmp_path / "c1.pdf"))
    back0, back1 = objects(plain.path, 1), objects(shifted.path, 1)
    moved = [(b1[0] - b0[0], b1[1] - b0[1]) for b0, b1 in zip(back0, back1, strict=False)]
    assert sum(1 for dx, dy in moved if abs(dx - 1) < 0.01 and abs(dy - 2) < 0.01) > 40


# ---- the command -------------------------------------------------------------------------------


@pytest.fixture
def fake_default(monkeypatch):
    monkeypatch.setattr(pdf, "default_renderer", FakeRenderer)


def test_cli_json_manifest(run, mini_db, tmp_path, fake_default, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("--db", mini_db, "print", "mini", "--json")
    assert r.exit_code == 0, r.stderr
    m = json.loads(r.stdout)
    assert m["path"] == str(Path("output") / "mini" / "mini-a4.pdf") and Path(m["path"]).is_file()
    assert m["paper"] == {"name": "a4", "w": 210.0, "h": 297.0}
    assert m["pages"] == len(pypdf.PdfReader(m["path"]).pages)
    for p in m["placements"]:
        assert set(p) >= {"id", "page", "side", "x", "y", "w", "h"}
        assert p["side"] in ("face", "back") and p["page"] >= 1


def test_cli_summary_and_letter(run, mini_db, tmp_path, fake_default):
    out = tmp_path / "sheets.pdf"
    r = run("--db", mini_db, "print", "mini", "--paper", "letter", "--backs", "none", "-o", out)
    assert r.exit_code == 0, r.stderr
    assert str(out) in r.stdout and "pages on letter" in r.stdout and "6 cards" in r.stdout
    page = pypdf.PdfReader(out).pages[0]
    assert abs(float(page.mediabox.width) / MM_TO_PT - 215.9) < TOL


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--paper", "a3"], "allowed: a4, letter"),
        (["--backs", "both"], "allowed: duplex, separate, none"),
        (["--flip", "up"], "allowed: long, short"),
        (["--bleed", "11"], "between 0 and 10"),
        (["--gap", "-1"], "0 mm or more"),
        (["--offset", "1"], "X,Y"),
        (["--type", "nope"], "allowed: hero, spell"),
    ],
)
def test_cli_bad_options(run, mini_db, tmp_path, fake_default, args, needle):
    r = run("--db", mini_db, "print", "mini", "-o", tmp_path / "x.pdf", *args)
    assert r.exit_code == 2 and needle in r.stderr and "Traceback" not in r.stderr


def test_cli_card_too_big(run, tmp_path, fake_default):
    data = json.loads(json.dumps(GAME))
    data["card_types"][0]["width_mm"], data["card_types"][0]["height_mm"] = 230, 300
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    db_path = tmp_path / "big.db"
    import_game(open_db(db_path, create=True), path)
    r = run("--db", db_path, "print", "sheets", "-o", tmp_path / "x.pdf")
    assert r.exit_code == 2 and "230×300 mm" in r.stderr and "does not fit on a4" in r.stderr


def test_cli_calibration(run, tmp_path):
    r = run("print", "calibration", "--paper", "letter", "--flip", "short", "-o", tmp_path)
    assert r.exit_code == 0, r.stderr
    path = tmp_path / "calibration-letter.pdf"
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 2
    assert "--offset" in reader.pages[0].extract_text()


def test_real_face_renderer(mini_db, tmp_path):
    """The sheet code with A's FaceRenderer: a real print of the fixture game."""
    pytest.importorskip("pnpforge.render.face")
    db = open_db(mini_db)
    m = print_cards(db, "mini", PrintOptions(output=str(tmp_path / "real.pdf")))
    reader = pypdf.PdfReader(m.path)
    assert len(reader.pages) == m.pages == 4
    assert b"Helvetica" not in Path(m.path).read_bytes()
    assert all(_embedded(f) for f in _fonts(reader))
    assert "火龍騎士" in reader.pages[0].extract_text()


def test_copies_of_a_face_are_drawn_once_and_print_alike(mini_db, tmp_path):
    """A card with copies is drawn once, as a form every copy places: the file holds one
    drawing per such card, and every copy prints the same pixels as the first."""
    db = open_db(mini_db)
    m = print_cards(db, "mini", PrintOptions(output=str(tmp_path / "copies.pdf"), backs="none"))
    data = Path(m.path).read_bytes()
    copies = {c.id: c.copies for c in repo.list_cards(db, "mini")}
    assert len(set(re.findall(rb"/FormXob\.face-\d+", data))) == sum(1 for n in copies.values() if n > 1)
    doc = pdfium.PdfDocument(m.path)
    try:
        faces = []
        for p in m.placements:
            page = doc[p.page - 1]
            k = 100 / 25.4
            img = page.render(scale=100 / 72).to_pil().convert("RGB")
            left, top = round(p.trim.x * k), round((page.get_height() / MM_TO_PT - p.trim.y1) * k)
            faces.append((p, img.crop((left, top, left + round(p.trim.w * k), top + round(p.trim.h * k)))))
        seen = {p.id: face for p, face in reversed(faces)}  # each card's first copy
        for p, face in faces:
            # copies sit at other fractions of a pixel, so anti-aliased edges differ a little:
            # each copy is the nearest to its own card's first copy, by far
            diffs = {
                card: ImageStat.Stat(ImageChops.difference(first.resize(face.size), face).convert("L")).mean[
                    0
                ]
                for card, first in seen.items()
            }
            nearest = min(diffs, key=lambda card: diffs[card])
            assert nearest == p.id and diffs[p.id] < 4.0, f"copy of {p.id} on page {p.page}: {diffs}"
        assert set(seen) == set(copies)
    finally:
        doc.close()


def test_faces_past_the_form_budget_are_drawn_per_copy(mini_db, tmp_path, monkeypatch):
    """Forms stay in memory until the file is saved: past the budget, copies are drawn
    one by one (and print the same text), so memory does not grow with the deck."""
    from pnpforge.render import pdf_sheets

    monkeypatch.setattr(pdf_sheets, "MAX_FACE_FORMS", 1)
    db = open_db(mini_db)
    m = print_cards(db, "mini", PrintOptions(output=str(tmp_path / "budget.pdf"), backs="none"))
    assert len(set(re.findall(rb"/FormXob\.face-\d+", Path(m.path).read_bytes()))) == 1
    text = "".join(page.extract_text() for page in pypdf.PdfReader(m.path).pages)
    for card in repo.list_cards(db, "mini"):
        assert text.count(card.name) >= card.copies, card.id


SHIPPED = Path(__file__).resolve().parent.parent / "cards.db"


@pytest.mark.slow
@pytest.mark.parametrize("game", ["enforcer", "dirty-money", "hackers", "infiltraitors", "accusation"])
def test_shipped_games_print(game, tmp_path):
    pytest.importorskip("pnpforge.render.face")
    db = open_db(SHIPPED, readonly=True)
    if game not in {g.slug for g in repo.list_games(db)}:
        pytest.skip(f"{game} not imported yet")
    a = print_cards(db, game, PrintOptions(output=str(tmp_path / "a.pdf")))
    b = print_cards(db, game, PrintOptions(output=str(tmp_path / "b.pdf")))
    assert Path(a.path).read_bytes() == Path(b.path).read_bytes()
    total = sum(c.copies for c in repo.list_cards(db, game))
    assert a.cards == total


def test_slot_clip_and_transform_replay_byte_for_byte():
    """place() formats a slot's clip and transform once and appends them again for later
    sheets: the operators must be exactly what reportlab writes for each placement."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    layout = sheet_plan.plan_layout(63.0, 88.0, SheetOptions())
    backs = sheet.back_slots(layout, "long", (1.5, -0.5))
    ours, theirs = Canvas(io.BytesIO(), invariant=1), Canvas(io.BytesIO(), invariant=1)
    for _page in range(3):
        for slot in [*layout.slots, *backs]:
            pdf_draw.place(ours, slot, lambda: ours.rect(0, 0, 5, 5, stroke=0, fill=1))
            theirs.saveState()
            pdf_draw.clip_to(theirs, slot.clip)
            theirs.transform(*pdf_draw._affine_args(slot))
            theirs.rect(0, 0, 5, 5, stroke=0, fill=1)
            theirs.restoreState()
        ours.translate(1, 2)  # a different matrix outside: formatted afresh, still equal
        theirs.translate(1, 2)
    assert ours._code == theirs._code
    assert ours._currentMatrix == theirs._currentMatrix


def test_the_collector_is_held_back_only_while_printing(game_db, tmp_path, monkeypatch):
    import gc

    from pnpforge.render import heap

    seen = []

    def spy(*args, **kwargs):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        with heap.collector_held_back():  # nested: leaves the outer settings alone
            pass
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        raise PnpError("stop")

    before = gc.get_threshold()
    monkeypatch.setattr(pdf, "print_cards", spy)
    with pytest.raises(PnpError, match="stop"):
        print_cards(game_db, "g", PrintOptions(output=str(tmp_path / "x.pdf")))
    assert seen == [(10_000, True), (10_000, True)]
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_font_subsets_kept_on_disk_embed_the_same_bytes(game_db, tmp_path, monkeypatch):
    import uuid

    from pnpforge.render import font_embed

    def printed(name: str) -> bytes:
        out = tmp_path / name
        print_cards(game_db, "sheets", PrintOptions(output=str(out)))
        return out.read_bytes()

    first = printed("first.pdf")
    made: list[int] = []
    real = font_embed._subset_with_outlines

    def counted(face, subset):
        made.append(len(subset))
        return real(face, subset)

    monkeypatch.setattr(font_embed, "_subset_with_outlines", counted)
    assert printed("again.pdf") == first and not made  # read back, compressed form included
    fresh = f"test-{uuid.uuid4().hex}"
    real_key = font_embed._subset_key
    # a key never stored before, still a short file name: a name the disk refuses (the subset
    # spelled out) would turn the run's caches to memory for every later test
    monkeypatch.setattr(font_embed, "_subset_key", lambda face, subset: f"{fresh}-{real_key(face, subset)}")
    try:
        assert printed("made.pdf") == first and made  # made and compressed again: the same bytes
    finally:
        for folder in {s.folder.parent / "subsets" for s in font_embed_stores()}:
            for entry in folder.glob(f"{fresh}-*"):
                entry.unlink()


def font_embed_stores() -> list:
    from pnpforge.render import fonts

    return list(fonts._stores.values())


def test_warnings_say_where(run, shipped_db, tmp_path):
    """Zero-copy cards are named with their game; text shrunk below the warn size is one line per
    region naming its cards and the smallest size."""
    r = run("--db", shipped_db, "print", "accusation", "-o", tmp_path / "a.pdf")
    assert r.exit_code == 0, r.stderr
    assert "accusation: 1 card(s) with 0 copies not printed: ext01" in r.stderr
    # a one-line subtitle (the shape the shipped layout had before it took two lines) shrinks
    shutil.copytree(shipped_templates(), shipped_db.parent / "templates")
    placement = shipped_db.parent / "templates" / "dirty-money" / "placement.toml"
    text = placement.read_text(encoding="utf-8")
    one_line = text.replace('y = 10\nw = "W - 31"\nh = 4.8', 'y = 10\nw = "W - 31"\nh = 3.5')
    assert one_line != text
    placement.write_text(one_line, encoding="utf-8")
    r = run("--db", shipped_db, "print", "dirty-money", "--type", "placement", "-o", tmp_path / "d.pdf")
    shrunk = [ln for ln in r.stderr.splitlines() if "text shrunk below 6 pt" in ln]
    assert len(shrunk) == 1 and "region 'subtitle'" in shrunk[0] and "(dirty-money/placement)" in shrunk[0]
    assert "smallest 4.5 pt" in shrunk[0] and "EU-ACC-2" in shrunk[0]


@pytest.mark.parametrize("game", ["accusation", "dirty-money"])
def test_shipped_layouts_print_without_shrinking(run, shipped_db, tmp_path, game):
    """The games that come with pnpforge print every text at or above its warn size: a newcomer's
    first build is not a list of warnings about our own layouts (`-m slow` checks all five)."""
    r = run("--db", shipped_db, "print", game, "-o", tmp_path / f"{game}.pdf")
    assert r.exit_code == 0, r.stderr
    assert "text shrunk" not in r.stderr, r.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "lang"),
    [(g, None) for g in ("enforcer", "hackers", "infiltraitors")]
    + [(g, "en") for g in ("accusation", "dirty-money", "enforcer", "hackers", "infiltraitors")],
)
def test_other_shipped_layouts_print_without_shrinking(run, shipped_db, tmp_path, game, lang):
    """As above, for the other shipped games and for every English edition."""
    extra = ["--lang", lang] if lang else []
    r = run("--db", shipped_db, "print", game, *extra, "-o", tmp_path / f"{game}.pdf")
    assert r.exit_code == 0, r.stderr
    assert "text shrunk" not in r.stderr, r.stderr

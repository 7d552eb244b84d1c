"""`pnp shop`: per-card PNGs for MakePlayingCards and The Game Crafter, CMYK PDFs for DriveThruCards."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pypdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from pnpforge.errors import PnpError
from pnpforge.shop.cmyk import rgb_to_cmyk
from pnpforge.shop.export import shop
from pnpforge.shop.fit import fit_type
from pnpforge.shop.profiles import DRIVETHRU, MPC, TGC, Product, Profile
from pnpforge.store.db import open_db

BACK_RGB = (0x33, 0x55, 0x77)  # the mini game's hero back colour


def _near(a: tuple, b: tuple, tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def test_product_pixel_sizes_match_the_shops():
    assert MPC.product("poker").pixels(300) == (822, 1122)
    assert TGC.product("poker").pixels(300) == (825, 1125)
    assert TGC.product("euro-poker").pixels(300) == (825, 1125)
    assert TGC.product("euro-square").pixels(300) == (900, 900)
    p = DRIVETHRU.product("poker")
    assert (round(p.full_w_mm / 25.4, 4), round(p.full_h_mm / 25.4, 4)) == (2.75, 3.75)


def test_fit_prefers_exact_then_extended_then_scaled_and_refuses_the_rest():
    assert fit_type(TGC, "t", 63, 88).product.name == "euro-poker"
    assert fit_type(TGC, "t", 63, 88).mode == "exact"
    f = fit_type(MPC, "t", 63, 88)
    assert (f.product.name, f.mode, f.scale) == ("poker", "bleed extended", 1.0)
    assert "bleed extended" in f.describe() and "0.25 / 0.45 mm" in f.describe()
    assert fit_type(TGC, "t", 44, 67) is None
    big = Profile("x", "X", "png", 300, "rgb", 0, (Product("big", 66.0, 92.2, 3, 3),), ())
    s = fit_type(big, "t", 63, 88)
    assert s.mode == "scaled" and s.scale == pytest.approx(max(66 / 63, 92.2 / 88))


def test_mpc_writes_one_png_per_face_and_back_at_822_by_1122(mini_db, tmp_path):
    out = tmp_path / "mpc"
    r = shop(open_db(mini_db, readonly=True), "mini", "mpc", output=str(out), card_type="hero")
    names = sorted(p.name for p in out.glob("*.png"))
    assert names == ["001-H-01-x2.png", "002-H-02-x1.png", "back-hero.png"]
    for name in names:
        im = Image.open(out / name)
        assert im.size == (822, 1122) and im.mode == "RGB"
    back = Image.open(out / "back-hero.png")
    for xy in ((0, 0), (821, 1121), (411, 2)):  # the back's colour reaches the file's edge
        assert _near(back.getpixel(xy), BACK_RGB), xy
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    faces = [e for e in manifest["files"] if e["side"] == "face"]
    assert [(e["file"], e["card"], e["copies"], e["product"]) for e in faces] == [
        ("001-H-01-x2.png", "H-01", 2, "poker"),
        ("002-H-02-x1.png", "H-02", 1, "poker"),
    ]
    assert manifest["fits"]["hero"]["mode"] == "bleed extended"
    assert r.fits["hero"]["product"] == "poker"


def test_tgc_pngs_are_825_by_1125_rgb(mini_db, tmp_path):
    out = tmp_path / "tgc"
    shop(open_db(mini_db, readonly=True), "mini", "tgc", output=str(out), card_type="hero")
    sizes = {Image.open(p).size for p in out.glob("*.png")}
    modes = {Image.open(p).mode for p in out.glob("*.png")}
    assert sizes == {(825, 1125)} and modes == {"RGB"}


def test_a_type_without_product_is_refused_with_the_products(mini_db, tmp_path, run):
    with pytest.raises(
        PnpError,
        match=r"'spell' \(44×67 mm\) has no The Game Crafter product "
        r"\(products: poker",
    ):
        shop(open_db(mini_db, readonly=True), "mini", "tgc", output=str(tmp_path / "x"))
    res = run("--db", mini_db, "shop", "mini", "--profile", "tgc", "-o", tmp_path / "y")
    assert res.exit_code != 0 and "spell" in res.stderr and "products:" in res.stderr
    assert "Traceback" not in res.stderr and not (tmp_path / "y" / "manifest.json").exists()


def _drivethru(mini_db: Path, tmp_path: Path) -> tuple[pypdf.PdfReader, dict]:
    out = tmp_path / "dtc"
    r = shop(open_db(mini_db, readonly=True), "mini", "drivethru", output=str(out), card_type="hero")
    entry = r.entries[0]
    return pypdf.PdfReader(out / entry["file"]), entry


def test_drivethru_pages_are_2_75_by_3_75_in_back_then_face(mini_db, tmp_path):
    reader, entry = _drivethru(mini_db, tmp_path)
    assert entry["page_cards"] == ["H-01", "H-01", "H-02"]  # copies included
    assert len(reader.pages) == 6
    for page in reader.pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == (198, 270)
        assert [round(float(v), 2) for v in page.trimbox] == [9, 9, 189, 261]
        assert [round(float(v), 2) for v in page.bleedbox] == [0, 0, 198, 270]
    streams = [page.get_contents().get_data() for page in reader.pages]
    assert streams[0] == streams[2] == streams[4]  # every even page: the back
    assert streams[1] == streams[3] and streams[1] != streams[5]  # H-01 twice, then H-02
    assert streams[1] != streams[0]


def test_drivethru_pdf_is_cmyk_only_ink_limited_and_fonts_embedded(mini_db, tmp_path):
    reader, _ = _drivethru(mini_db, tmp_path)
    raw = b"".join(page.get_contents().get_data() for page in reader.pages)
    assert not re.search(rb"(^|\s)[\d.]+ [\d.]+ [\d.]+ (rg|RG)\b", raw)
    inks = re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) (k|K)\b", raw)
    assert inks, "no CMYK colour operator found"
    assert max(sum(float(v) for v in ink[:4]) for ink in inks) <= 2.40 + 1e-6
    fonts = {}
    for page in reader.pages:
        for name, ref in page["/Resources"]["/Font"].items():
            fonts[name] = ref.get_object()
    assert fonts
    for font in fonts.values():
        desc = (
            font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            if "/DescendantFonts" in font
            else font["/FontDescriptor"]
        )
        assert "/FontFile2" in desc.get_object(), font
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-1:2003" and info["/Trapped"] == "/False"
    intent = reader.trailer["/Root"]["/OutputIntents"][0]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 001"
    assert reader.pdf_header == "%PDF-1.4"


def test_drivethru_art_becomes_a_cmyk_image(shipped_db, tmp_path):
    import sqlite3

    Image.new("RGB", (600, 600), (20, 90, 250)).save(tmp_path / "art.png")
    con = sqlite3.connect(shipped_db)
    con.execute("UPDATE cards SET art = 'art.png' WHERE game = 'enforcer' AND id = 'SP-arrest'")
    con.commit()
    con.close()
    out = tmp_path / "dtc"
    shop(open_db(shipped_db, readonly=True), "enforcer", "drivethru", output=str(out), card_type="specialty")
    reader = pypdf.PdfReader(next(out.glob("*.pdf")))
    spaces = set()
    for page in reader.pages:
        for xobj in page["/Resources"].get("/XObject", {}).values():
            obj = xobj.get_object()
            if obj.get("/Subtype") == "/Image":
                spaces.add(obj["/ColorSpace"])
    assert spaces == {"/DeviceCMYK"}
    assert b"DeviceRGB" not in (next(out.glob("*.pdf"))).read_bytes()


def test_rgb_to_cmyk_limits_total_ink_and_keeps_greys_in_black():
    assert rgb_to_cmyk(0, 0, 0) == (0, 0, 0, 1)
    assert rgb_to_cmyk(0.5, 0.5, 0.5)[:3] == (0, 0, 0)
    c, m, y, k = rgb_to_cmyk(0.5, 0, 0, 240)
    assert 100 * (c + m + y + k) <= 240 + 1e-6 and k == 0.5


def test_dark_ui_colours_print_as_black_not_grey():
    """A dark neutral (card text #1a1a1a) is solid K only; a near-black with a hue (the hackers
    badge #15202b) is a rich black, K 100 % over an underlay keeping its hue, within 240 %."""

    def hex_rgb(h: str) -> tuple[float, float, float]:
        return tuple(int(h[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]

    assert rgb_to_cmyk(*hex_rgb("#1a1a1a")) == (0, 0, 0, 1)
    c, m, y, k = rgb_to_cmyk(*hex_rgb("#15202b"))
    assert k == 1 and c > m > y >= 0.25 and 100 * (c + m + y + k) <= 240
    assert rgb_to_cmyk(*hex_rgb("#333333")) == (0, 0, 0, 0.8)  # a dark grey stays a grey


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_total_ink_never_passes_the_limit(r, g, b):
    cmyk = rgb_to_cmyk(r, g, b, 240.0)
    assert 100 * sum(cmyk) <= 240.0 + 1e-9 and all(0 <= v <= 1 for v in cmyk)


def test_cmyk_canvas_converts_colours_written_straight_as_operators():
    import io

    from pnpforge.render import pdf_ops
    from pnpforge.shop.cmyk import CmykCanvas

    canvas = CmykCanvas(io.BytesIO())
    pdf_ops.fill_hex(canvas, "#ff0000")  # as card text sets its colours
    ops = " ".join(canvas._code)
    assert re.search(r"[\d.]+ [\d.]+ [\d.]+ [\d.]+ k$", ops) and " rg" not in ops

"""`pnp preflight`: problems a print shop would reject, each naming its card."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from PIL import Image

from pnpforge.shop.preflight import colour_shift, preflight
from pnpforge.store.db import open_db


def _set_art(db_path: Path, game: str, card_id: str, art: str) -> None:
    con = sqlite3.connect(db_path)
    con.execute("UPDATE cards SET art = ? WHERE game = ? AND id = ?", (art, game, card_id))
    con.commit()
    con.close()


def test_tiny_art_is_an_error_naming_the_card(shipped_db, tmp_path, run):
    Image.new("RGB", (40, 40), (120, 60, 30)).save(tmp_path / "tiny.png")
    _set_art(shipped_db, "enforcer", "OB-02", "tiny.png")
    report = preflight(open_db(shipped_db, readonly=True), "enforcer", "mpc", "obligor")
    errors = [p for p in report.errors if "tiny.png" in p.message]
    assert len(errors) == 1 and errors[0].subject == "enforcer/OB-02"
    assert "40×40 px" in errors[0].message and "needs 300 dpi" in errors[0].message
    res = run("--db", shipped_db, "preflight", "enforcer", "--profile", "mpc", "--type", "obligor")
    assert res.exit_code == 1 and "enforcer/OB-02" in res.stderr + res.stdout
    shop = run(
        "--db",
        shipped_db,
        "shop",
        "enforcer",
        "--profile",
        "mpc",
        "--type",
        "obligor",
        "-o",
        tmp_path / "out",
    )
    assert shop.exit_code != 0 and "nothing was written" in shop.stderr
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_sharp_art_passes_and_the_json_counts(shipped_db, tmp_path, run):
    Image.new("RGB", (1200, 600), (120, 60, 30)).save(tmp_path / "big.png")
    _set_art(shipped_db, "enforcer", "OB-02", "big.png")
    res = run("--db", shipped_db, "preflight", "enforcer", "--profile", "mpc", "--type", "obligor", "--json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["errors"] == 0 and data["cards"] == 28


def test_art_that_stops_at_the_trim_is_a_warning(mini_db, tmp_path):
    folder = mini_db.parent / "templates" / "mini"
    folder.mkdir(parents=True)
    (folder / "hero.toml").write_text(
        '[[regions]]\nname = "art"\nkind = "image"\nx = 0\ny = 20\nw = "W"\nh = 20\n', encoding="utf-8"
    )
    Image.new("RGB", (900, 300), (10, 10, 10)).save(mini_db.parent / "wide.png")
    _set_art(mini_db, "mini", "H-01", "wide.png")
    report = preflight(open_db(mini_db, readonly=True), "mini", None, "hero")
    edge = [p for p in report.warnings if "stops at the trim" in p.message]
    assert [p.subject for p in edge] == ["mini/H-01"] and "left, right" in edge[0].message


def test_portrait_art_in_a_landscape_cover_slot_says_the_size_to_draw(mini_db, tmp_path, run):
    """A newcomer's 5:7 art in a wide `cover` slot loses half its height: the warning names the
    card, the slot's printed size in mm and in px at the region's dpi; art of the slot's shape
    (or a `contain` slot) is not warned about."""
    folder = mini_db.parent / "templates" / "mini"
    folder.mkdir(parents=True)
    layout = '[[regions]]\nname = "art"\nkind = "image"\nx = 3\ny = 14\nw = 54\nh = 33\nfit = "{fit}"\n'
    (folder / "hero.toml").write_text(layout.format(fit="cover"), encoding="utf-8")
    Image.new("RGB", (750, 1050), (10, 10, 10)).save(mini_db.parent / "tall.png")
    Image.new("RGB", (638, 390), (10, 10, 10)).save(mini_db.parent / "fits.png")
    _set_art(mini_db, "mini", "H-01", "tall.png")
    _set_art(mini_db, "mini", "H-02", "fits.png")
    report = preflight(open_db(mini_db, readonly=True), "mini", None, "hero")
    crops = [p for p in report.warnings if "cropping" in p.message]
    assert [p.subject for p in crops] == ["mini/H-01"]
    message = crops[0].message
    assert "region 'art'" in message and "54.0×33.0 mm" in message and "of its height is cut off" in message
    assert "draw it at 638×390 px" in message and "at 300 dpi" in message
    res = run("--db", mini_db, "preflight", "mini", "--type", "hero")
    assert "mini/H-01" in res.stdout + res.stderr and "draw it at 638×390 px" in res.stdout + res.stderr
    (folder / "hero.toml").write_text(layout.format(fit="contain"), encoding="utf-8")
    report = preflight(open_db(mini_db, readonly=True), "mini", None, "hero")
    assert not [p for p in report.warnings if "cropping" in p.message]


def test_a_size_no_product_fits_is_an_error_naming_the_cards(mini_db):
    report = preflight(open_db(mini_db, readonly=True), "mini", "tgc")
    assert any(
        p.subject.startswith("type spell (S-01)") and "no The Game Crafter product" in p.message
        for p in report.errors
    )


def test_vivid_rgb_and_heavy_ink_are_flagged_muted_colours_are_not():
    assert "saturated" in colour_shift((0.0, 0.3, 1.0), 240)
    assert "saturated" in colour_shift((0.1, 1.0, 0.2), 240)
    assert colour_shift((0.20, 0.29, 0.37), 240) is None  # slate blue-grey
    assert colour_shift((1.0, 0.9, 0.0), 240) is None  # process yellow reaches it
    assert "280 % ink" in colour_shift((0.2, 0.0, 0.0), 240)  # deep maroon: over the limit


def test_safe_zone_warning_names_the_type_and_distance(db):
    report = preflight(db, "enforcer", "tgc", "penalty")
    lines = [p.line() for p in report.warnings]
    assert any("type penalty (PEN)" in ln and "3.00 mm" in ln and "3.17 mm" in ln for ln in lines)


def _drawn_colours(renderer, plan) -> set[tuple[float, ...]]:
    """The RGB colours the PDF backend writes for a plan (fill and stroke operators)."""
    import io
    import re

    from reportlab.pdfgen.canvas import Canvas

    from pnpforge.render.plan_pdf import draw_plan

    c = Canvas(io.BytesIO(), pagesize=(600, 600), pageCompression=0)
    draw_plan(c, plan, 9.0, 9.0, 9.0)
    ops = re.findall(r"([-\d.]+) ([-\d.]+) ([-\d.]+) (?:rg|RG)\b", c.getpdfdata().decode("latin-1"))
    return {tuple(round(float(v), 3) for v in rgb) for rgb in ops}


def test_the_colours_read_from_a_plan_are_the_colours_its_pdf_is_drawn_in(db):
    """Preflight reads colours from the plan, not a canvas: it must see exactly what prints."""
    from pnpforge.render import pdf
    from pnpforge.render.face import FaceRenderer
    from pnpforge.render.plan_read import inks
    from pnpforge.render.units import hex_to_rgb

    for game in ("enforcer", "accusation", "dirty-money"):
        renderer = FaceRenderer(db, game, date="2026-01-01")
        cards = pdf.select_cards(db, game, None, None)
        plans = [renderer.plan(card) for card in cards[:40]]
        plans += [renderer.plan_back(slug) for slug in {card.type for card in cards}]
        for plan in plans:
            read = {tuple(round(v, 3) for v in hex_to_rgb(col)) for col in inks(plan).colours}
            assert read == _drawn_colours(renderer, plan)

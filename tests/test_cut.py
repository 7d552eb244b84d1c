"""`pnp cut`: registration marks, and cut outlines exactly on the manifest's trim rectangles."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pypdf
import pypdfium2 as pdfium
import pytest

from pnpforge.errors import PnpError
from pnpforge.render.sheet import PAPERS, Rect
from pnpforge.shop.cut import cut
from pnpforge.shop.cut_geometry import CRICUT_AREA_MM, machine
from pnpforge.store.db import open_db

SVG = "{http://www.w3.org/2000/svg}"
TOL = 0.1


def _svg_outlines(path: Path, page_h: float) -> list[Rect]:
    """Bounding boxes (mm, PDF origin) of the cut paths of an SVG."""
    boxes = []
    for p in ET.parse(path).getroot().iter(SVG + "path"):
        pts = [(float(x), float(y)) for x, y in re.findall(r"[ML ]\s*(-?[\d.]+),(-?[\d.]+)", p.get("d", ""))]
        pts += [(float(x), float(y)) for x, y in re.findall(r"0 0 0 (-?[\d.]+),(-?[\d.]+)", p.get("d", ""))]
        xs, ys = [x for x, _ in pts], [page_h - y for _, y in pts]
        boxes.append(Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    return boxes


def _same(a: Rect, b: dict) -> bool:
    return all(abs(u - b[k]) <= TOL for u, k in ((a.x, "x"), (a.y, "y"), (a.w, "w"), (a.h, "h")))


def _dxf_lines(path: Path) -> list[tuple[float, ...]]:
    """The LINE entities of a cut DXF, read back by ezdxf (what a CAD importer sees)."""
    doc = ezdxf.readfile(path)
    return [
        (e.dxf.start.x, e.dxf.start.y, e.dxf.end.x, e.dxf.end.y)
        for e in doc.modelspace()
        if e.dxftype() == "LINE"
    ]


@pytest.fixture(scope="module")
def silhouette(tmp_path_factory):
    from conftest import SHIPPED_DB

    out = tmp_path_factory.mktemp("sil")
    db = open_db(SHIPPED_DB, readonly=True)
    return cut(db, "enforcer", "silhouette", paper="letter", output=str(out), card_type="obligor"), out


def test_every_svg_outline_is_a_manifest_trim_rectangle(silhouette):
    result, out = silhouette
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["placements"] == result.placements and len(result.placements) == 28
    page_h = PAPERS["letter"][1]
    for page in sorted({p["page"] for p in result.placements}):
        rects = [p for p in result.placements if p["page"] == page]
        outlines = _svg_outlines(out / f"enforcer-silhouette-letter-{page:02d}.svg", page_h)
        assert len(outlines) == len(rects)
        for o in outlines:
            assert sum(_same(o, r) for r in rects) == 1, (page, o)


def test_dxf_edges_lie_on_the_trim_rectangles(silhouette):
    result, out = silhouette
    rects = [p for p in result.placements if p["page"] == 1]
    lines = _dxf_lines(out / "enforcer-silhouette-letter-01.dxf")
    assert len(lines) == 4 * len(rects)
    for r in rects:
        x0, y0, x1, y1 = r["x"], r["y"], r["x"] + r["w"], r["y"] + r["h"]
        on_edge = [
            ln
            for ln in lines
            if (abs(ln[1] - y0) < TOL and abs(ln[3] - y0) < TOL and x0 <= ln[0] <= x1)
            or (abs(ln[0] - x1) < TOL and abs(ln[2] - x1) < TOL and y0 <= ln[1] <= y1)
        ]
        assert len(on_edge) == 2


def test_dxf_is_r2000_in_millimetres_and_audits_clean(silhouette):
    """R12 has no $INSUNITS: the file is R2000 (AC1015), says millimetres (4), and ezdxf's
    audit finds nothing to fix; only the CUT layer carries entities."""
    _, out = silhouette
    doc = ezdxf.readfile(out / "enforcer-silhouette-letter-01.dxf")
    assert doc.dxfversion == "AC1015"
    assert doc.header["$INSUNITS"] == 4
    assert not doc.audit().has_errors
    assert {e.dxf.layer for e in doc.modelspace()} == {"CUT"}
    assert {e.dxftype() for e in doc.modelspace()} == {"LINE", "ARC"}


def test_cut_files_and_pdf_are_the_same_bytes_twice_with_the_kits_pdf_info(silhouette, tmp_path):
    from conftest import SHIPPED_DB

    result, out = silhouette
    again = cut(
        open_db(SHIPPED_DB, readonly=True), "enforcer", "silhouette", "letter", str(tmp_path), "obligor"
    )
    for f in result.files:
        assert (out / Path(f).name).read_bytes() == (tmp_path / Path(f).name).read_bytes(), f
    info = pypdf.PdfReader(again.pdf).metadata
    assert info["/Creator"] == "pnpforge"
    assert not info["/CreationDate"].startswith("D:2000")  # dated by the game's latest edit


def test_silhouette_marks_sit_at_their_inset_and_print(silhouette):
    result, out = silhouette
    m = machine("silhouette", "letter")
    w, h = m.page
    assert m.marks[0] == Rect(10, h - 15, 5, 5)  # the square, top-left
    assert Rect(w - 30, h - 10.5, 20, 0.5) in m.marks  # top-right L
    assert Rect(10, 10, 0.5, 20) in m.marks  # bottom-left L
    # the marks print on the sheet only: a cut file holds nothing a machine must not cut
    svg_root = ET.parse(out / "enforcer-silhouette-letter-01.svg").getroot()
    assert not list(svg_root.iter(SVG + "rect"))
    assert {el.tag for el in svg_root.iter()} == {SVG + "svg", SVG + "g", SVG + "path"}
    doc = pdfium.PdfDocument(result.pdf)
    img = doc[0].render(scale=150 / 72).to_pil().convert("L")
    k = 150 / 25.4
    assert img.getpixel((round(12.5 * k), round(12.5 * k))) < 40  # inside the square
    assert img.getpixel((round((w - 20) * k), round(10.25 * k))) < 80  # on the top-right arm
    for p in result.placements:  # cards keep clear of the marks
        card = Rect(p["x"], p["y"], p["w"], p["h"])
        assert all(not card.expand(1, 1, 1, 1).overlaps(mark) for mark in m.marks)


def test_cricut_keeps_cards_in_its_print_area_so_fewer_per_sheet(tmp_path, db):
    result = cut(db, "enforcer", "cricut", paper="letter", output=str(tmp_path), card_type="obligor")
    pw, ph = PAPERS["letter"]
    aw, ah = CRICUT_AREA_MM
    area = Rect((pw - aw) / 2, (ph - ah) / 2, aw, ah)
    assert all(area.contains(Rect(p["x"], p["y"], p["w"], p["h"])) for p in result.placements)
    per_sheet = max(sum(1 for p in result.placements if p["page"] == n) for n in range(1, 30))
    sil = cut(db, "enforcer", "silhouette", paper="letter", output=str(tmp_path / "s"), card_type="obligor")
    sil_per_sheet = max(sum(1 for p in sil.placements if p["page"] == n) for n in range(1, 30))
    assert per_sheet < sil_per_sheet
    assert not list(tmp_path.glob("*.dxf"))  # DXF is for Silhouette Studio


def test_unknown_machine_is_one_clear_line(run):
    from conftest import SHIPPED_DB

    res = run("--db", SHIPPED_DB, "cut", "enforcer", "--machine", "laser")
    assert res.exit_code != 0 and "unknown cutting machine 'laser'" in res.stderr
    with pytest.raises(PnpError, match="unknown paper"):
        machine("cricut", "a3")


def test_a_card_too_large_for_the_machine_is_refused_naming_its_type(mini_db, tmp_path):
    """Like print: the refusal says which card type is too large, not only the size."""
    db = open_db(mini_db)
    db.conn.execute("UPDATE card_types SET width_mm = 180, height_mm = 240 WHERE slug = 'hero'")
    db.conn.commit()
    with pytest.raises(
        PnpError, match=r"^card type 'hero' \(180×240 mm\): too large for a cricut sheet on letter"
    ):
        cut(db, "mini", "cricut", "letter", output=str(tmp_path / "out"))

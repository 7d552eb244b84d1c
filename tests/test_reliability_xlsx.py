"""Root cause 3 of issue 21 and the XLSX share of 7: small hostile workbooks hung the import or
took gigabytes, and XML errors were tracebacks.  Both `pnp import` and `pnp game new --from` read
through the one guarded reader (formats.xlsx); every workbook here is built by hand."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from pnpforge.errors import PnpError
from pnpforge.formats import xlsx

RELS = (
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
WORKBOOK = (
    '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
    '<sheet name="hero" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
WORKBOOK_RELS = (
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    f'<Relationship Id="rId1" Type="{_REL}worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{_REL}sharedStrings" Target="sharedStrings.xml"/></Relationships>'
)
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def sheet(rows: str, dimension: str = "A1:B2", head: str = '<?xml version="1.0"?>') -> str:
    return f'{head}<worksheet {NS}><dimension ref="{dimension}"/><sheetData>{rows}</sheetData></worksheet>'


def book(path: Path, sheet_xml: str | bytes, shared: str | bytes | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("_rels/.rels", RELS)
        zf.writestr("xl/workbook.xml", WORKBOOK)
        zf.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        zf.writestr("xl/worksheets/sheet1.xml", sheet_xml)
        if shared is not None:
            zf.writestr("xl/sharedStrings.xml", shared)
    return path


HEADER = (
    '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t>copies</t></is></c></row>'
)


def _rows(path: Path) -> list[tuple[str, list[str], list[tuple[int, list[str]]]]]:
    return [(title, header, list(rows)) for title, header, rows in xlsx.read_tables(path)]


def test_a_plain_workbook_reads_as_text(tmp_path: Path) -> None:
    runs = "<r><t>H-</t></r><r><t>01</t></r><rPh><t>x</t></rPh>"  # phonetic runs are not text
    shared = f'<sst {NS} count="1" uniqueCount="1"><si>{runs}</si></sst>'
    rows = HEADER + '<row r="3"><c r="A3" t="s"><v>0</v></c><c r="B3"><v>3.0</v></c></row>'
    assert _rows(book(tmp_path / "ok.xlsx", sheet(rows), shared)) == [
        ("hero", ["id", "copies"], [(3, ["H-01", "3"])])
    ]


def test_a_sheet_declaring_every_cell_answers_at_once(tmp_path: Path, mini_db: Path, run) -> None:
    # the 1.9 KB sheet: A1:XFD1048576 declared, one far cell; nothing is sized by the
    # declaration, and the far cell is refused by its column (an import used to run for minutes)
    far = sheet(HEADER + '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>', "A1:XFD1048576")
    path = book(tmp_path / "far.xlsx", far)
    assert path.stat().st_size < 2_000
    before = mini_db.read_bytes()
    res = run("--db", mini_db, "import", "mini", path)
    assert res.exit_code == 2 and "cell XFD1048576: a value beyond column ALL" in res.stderr, res.output
    assert mini_db.read_bytes() == before
    res = run("--db", tmp_path / "new.db", "db", "init")
    res = run("--db", tmp_path / "new.db", "game", "new", "far", "--title", "Far", "--from", path)
    assert res.exit_code == 2 and "beyond column ALL" in res.stderr and "Traceback" not in res.output
    # the same declaration with a far row inside the columns reads the two rows it has
    near = sheet(HEADER + '<row r="1048576"><c r="B1048576"><v>1</v></c></row>', "A1:XFD1048576")
    assert _rows(book(tmp_path / "near.xlsx", near))[0][2] == [(1048576, ["", "1"])]


def test_a_huge_shared_string_is_refused_while_it_streams(tmp_path: Path) -> None:
    big = f"<sst {NS}><si><t>{'a' * 5_000_000}</t></si></sst>"
    with pytest.raises(PnpError, match="shared string 1 is longer than 100,000 characters"):
        _rows(book(tmp_path / "big.xlsx", sheet(HEADER), big))


def test_too_many_shared_strings_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    declared = f'<sst {NS} uniqueCount="5000000">' + "<si><t>a</t></si>" * 10 + "</sst>"
    with pytest.raises(PnpError, match="declares 5000000 shared strings"):
        _rows(book(tmp_path / "declared.xlsx", sheet(HEADER), declared))
    monkeypatch.setattr(xlsx, "MAX_SHARED_STRINGS", 1_000)
    counted = f"<sst {NS}>" + "<si><t>a</t></si>" * 1_001 + "</sst>"
    with pytest.raises(PnpError, match="more than 1,000 shared strings"):
        _rows(book(tmp_path / "counted.xlsx", sheet(HEADER), counted))


def test_sizes_from_the_zip_directory_are_checked_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = book(tmp_path / "zip.xlsx", sheet(HEADER + "<row><c><v>1</v></c></row>" * 5_000))
    monkeypatch.setattr(xlsx, "MAX_UNZIPPED_BYTES", 50_000)
    with pytest.raises(PnpError, match=r"unpacks to 0 MB, more than the 0 MB"):
        _rows(path)


def test_cells_are_counted_blank_or_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xlsx, "MAX_CELLS", 100)
    path = book(tmp_path / "cells.xlsx", sheet(HEADER + "<row>" + "<c/>" * 200 + "</row>"))
    with pytest.raises(PnpError, match="more than 100 cells"):
        _rows(path)


LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">]>'
)
XXE = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'


@pytest.mark.parametrize(
    ("label", "sheet_xml", "words"),
    [
        ("billion laughs", sheet(HEADER, head=LAUGHS), "declares a DTD"),
        ("XXE", sheet(HEADER, head=XXE), "declares a DTD"),
        (
            "invalid UTF-8",
            sheet(HEADER).encode().replace(b"copies", b"cop\xff\xfeies"),
            "not well-formed XML",
        ),
        (
            "NaN cell",
            sheet(HEADER + '<row r="2"><c r="A2"><v>NaN</v></c></row>'),
            "cell A2: 'NaN' is not a finite",
        ),
        (
            "inf cell",
            sheet(HEADER + '<row r="2"><c r="B2"><v>1e400</v></c></row>'),
            "cell B2: '1e400' is not a finite",
        ),
        ("cut XML", sheet(HEADER)[:-30], "not well-formed XML"),
        (
            "missing string",
            sheet(HEADER + '<row r="2"><c r="A2" t="s"><v>7</v></c></row>'),
            "shared string '7'",
        ),
    ],
)
def test_xml_trouble_is_one_line_naming_the_part(
    tmp_path: Path, mini_db: Path, run, label: str, sheet_xml: str | bytes, words: str
) -> None:
    path = book(tmp_path / "bad.xlsx", sheet_xml)
    before = mini_db.read_bytes()
    res = run("--db", mini_db, "import", "mini", path)
    assert res.exit_code == 2, res.output
    assert words in res.stderr and "xl/worksheets/sheet1.xml" in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.output
    assert mini_db.read_bytes() == before
    run("--db", tmp_path / "new.db", "db", "init")
    res = run("--db", tmp_path / "new.db", "game", "new", "bad", "--title", "Bad", "--from", path)
    assert res.exit_code == 2 and words in res.stderr, (label, res.output)


def test_a_damaged_part_is_one_line(tmp_path: Path) -> None:
    path = book(tmp_path / "damaged.xlsx", sheet(HEADER + "<row><c><v>1</v></c></row>" * 200))
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("xl/worksheets/sheet1.xml")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename) + 20  # inside the deflated sheet
    for i in range(start, start + 10):
        data[i] ^= 0x55
    path.write_bytes(bytes(data))
    with pytest.raises(PnpError, match=r"part xl/worksheets/sheet1\.xml: cannot be unpacked"):
        _rows(path)
